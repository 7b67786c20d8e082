"""Run a Python program under MicroPython in Node (tools/micropython.mjs, with engine/ and
web/ copied in from this checkout): what the tests that compare MicroPython with CPython
share, and the one place that says what they need installed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNNER = ROOT / "tools" / "micropython.mjs"


class MicroPythonMissing(RuntimeError):
    """Node or MicroPython's npm package is not installed."""


def last_line(program: str, folder: Path, name: str = "program.py",
              top_level_await: bool = False, tree: Path | None = None) -> str:
    """The last line ``program`` prints under MicroPython (written as ``folder/name``);
    with ``top_level_await`` it runs as PyScript runs a script (an ``await`` at top level);
    with ``tree`` the app's files are that folder's engine/ and web/ (such as the .mpy
    files of tools/mpy_build.py) instead of this checkout's sources."""
    node = shutil.which("node")
    if node is None:
        raise MicroPythonMissing(
            "node is not on PATH: MicroPython runs under Node.js 20+ (install nodejs and "
            "npm, then `npm ci`; `make test` runs it)")
    if not (ROOT / "node_modules" / PACKAGE / "micropython.mjs").exists():
        raise MicroPythonMissing(
            f"node_modules/{PACKAGE} is missing: run `npm ci` (`make test` runs it) to "
            "install that dependency")
    path = folder / name
    path.write_text(program)
    flags = ["--async"] if top_level_await else []
    if tree is not None:
        flags += ["--tree", str(tree)]
    res = subprocess.run([node, str(RUNNER), *flags, str(path)], capture_output=True,
                         text=True, cwd=ROOT, timeout=600)
    if res.returncode != 0:
        raise AssertionError(f"MicroPython failed:\n{res.stderr}")
    return res.stdout.strip().splitlines()[-1]
