"""Debian's Chromium, as the tests and benchmarks start it (Playwright never downloads a
browser here).

The flags keep it off the network: without the background-networking ones Chromium asks
Google's hosts for updates, components and sync at every start, which this machine
refuses.
"""

from __future__ import annotations

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
