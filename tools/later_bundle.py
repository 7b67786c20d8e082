"""One file holding every file of pyscript.toml's [files_after_start] table (the solver's).

The loader (web/start/pyodide-loader.mjs) writes those files into Python's file system
after the first table. When Python imports the solver before they have come, the import
waits for a synchronous download, and synchronous requests go one after another: one
per file would be one round trip each (29 of them). So that download is this one file,
a JSON object of path -> text, written next to index.html by `make dist` and rendered
on each request by the dev server (tools/serve.py). A host without it is fine: the
loader then downloads the files one by one, as before.

The files are all text (Python sources and lists of deals); a file that is not UTF-8
means no bundle at all rather than a wrong one.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Its URL, relative to the app's folder (the loader asks for the same).
BUNDLE = "files_after_start.json"


def render(root: Path = ROOT) -> bytes | None:
    """The bundle's bytes, or None when there is no such table, or a listed file is
    missing or not text."""
    try:
        config = tomllib.loads((root / "pyscript.toml").read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return None
    table = config.get("files_after_start")
    if not table:
        return None
    files: dict[str, str] = {}
    for url, path in table.items():
        try:
            files[path] = (root / url.removeprefix("./")).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    return json.dumps(files, ensure_ascii=False, separators=(",", ":")).encode()
