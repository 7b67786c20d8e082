"""The daily deal: one proven-winnable deal a game and a date, the same on every device.

Derived from the date alone, offline: the days since 1970-01-01 fall into cycles as long as
the variant's pool (the first :data:`POOL` deals of its winnable list), and each cycle
deals the whole pool once in an order shuffled by the engine's own generator, seeded from
the variant and the cycle. So consecutive days get unrelated deals, no deal comes back
within a cycle, and every device that has the same list agrees. The pool sizes are fixed
here, not taken from the list's length: a list made longer later changes no date's deal
until the pool is deliberately raised.

>>> from datetime import date
>>> daily_deal("klondike", date(2026, 12, 1)) == daily_deal("klondike", "2026-12-01")
True
"""

from __future__ import annotations

import zlib
from datetime import date

from ..rules.rng import shuffled
from .winnable import winnable_deals

EPOCH = date(1970, 1, 1).toordinal()
# Deals each variant's daily draws from: its whole list when this was written (a cycle of
# 1,000 days, 2,345 for Klondike).
POOL = {
    "spider-1": 1000, "spider-2": 1000, "spider-4": 1000,
    "spider-relaxed-1": 1000, "spider-relaxed-2": 1000, "spider-relaxed-4": 1000,
    "klondike": 2345, "beleaguered-castle": 1000, "doublets": 1000,
}
_ORDERS: dict[tuple[str, int], list[int]] = {}


def parse_day(text: str) -> date:
    """A date written ``YYYY-MM-DD``; ValueError with a message otherwise."""
    if not (isinstance(text, str) and len(text) == 10 and text[4] == "-" == text[7]
            and text.replace("-", "").isascii() and text.replace("-", "").isdigit()):
        raise ValueError(f"a date is written YYYY-MM-DD, not {str(text)[:20]!r}")
    return date.fromisoformat(text)


def day_number(day: date | str) -> int:
    """Days from 1970-01-01 to ``day`` (a date, or its ``YYYY-MM-DD`` text)."""
    return (parse_day(day) if isinstance(day, str) else day).toordinal() - EPOCH


def pool(variant: str) -> tuple[int, ...]:
    """The deals the daily of ``variant`` draws from (ValueError when there are none)."""
    deals = winnable_deals(variant)[:POOL.get(variant, 0)]
    if not deals:
        raise ValueError(f"no daily deal for {variant!r}: it has no winnable deals")
    return deals


def daily_deal(variant: str, day: date | str) -> int:
    """The deal number of the daily ``variant`` game of ``day``."""
    deals = pool(variant)
    cycle, index = divmod(day_number(day), len(deals))
    order = _ORDERS.get((variant, cycle))
    if order is None:
        seed = zlib.crc32(f"daily {variant} {cycle}".encode("ascii"))
        order = _ORDERS[(variant, cycle)] = shuffled(list(range(len(deals))), seed)
    return deals[order[index]]


__all__ = ["POOL", "daily_deal", "day_number", "parse_day", "pool"]
