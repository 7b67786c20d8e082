"""The spike's two pages, written from the app's own index.html so that its markup has one
home: the table, the dialogs and the policy come from index.html as they are; only the
head's loading part, the scripts and the Python script line differ.

    .venv/bin/python bench/mpy_page/pages.py     # (bench/mpy_first_visit.py calls write())

index.html is the app's page started by MicroPython; preloaded.html also preloads from its
head what PyScript fetches one step after another (its modules, MicroPython's wasm and the
Python files of mpy.toml). Both are written next to this file and not committed.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
UP = "../../"  # from bench/mpy_page/ to the repository root
MICROPYTHON = UP + "node_modules/@micropython/micropython-webassembly-pyscript/"
NOTE = """<!-- Written by bench/mpy_page/pages.py from the app's index.html: an experiment, not the
       app. The app's table (web/table/, web/main.py, engine/rules) started by MicroPython
       instead of Pyodide, to measure a first visit (bench/mpy_first_visit.py;
       docs/architecture.md section 8, "What 3 s would take"). -->"""


def _between(text: str, first: str, last: str) -> tuple[int, int]:
    """Where the lines from the one holding ``first`` to the one holding ``last`` stand."""
    start = text.rindex("\n", 0, text.index(first)) + 1
    end = text.index("\n", text.index(last, start)) + 1
    return start, end


def _replace(text: str, first: str, last: str, new: str) -> str:
    start, end = _between(text, first, last)
    return text[:start] + new + text[end:]


def _python_files() -> list[str]:
    return list(tomllib.loads((HERE / "mpy.toml").read_text())["files"])


def page(preloaded: bool) -> str:
    """The spike page's text, from index.html."""
    text = (ROOT / "index.html").read_text()
    title = "Pocket Patience (MicroPython spike" + (", preloaded)" if preloaded else ")")
    text = re.sub(r"<title>[^<]*</title>", f"<title>{title}</title>", text, count=1)
    head = [f'  <link rel="icon" href="{UP}web/icons/icon-192.png" type="image/png">',
            f'  <link rel="modulepreload" href="{UP}vendor/pyscript/core.js">',
            f'  <link rel="modulepreload" href="{MICROPYTHON}micropython.mjs">',
            '  <link rel="preload" href="./mpy.toml" as="fetch" crossorigin>',
            f'  <link rel="preload" href="{UP}web/main.py" as="fetch" crossorigin>']
    if preloaded:
        # PyScript's chunks, as the app's page preloads them
        chunks = re.findall(r'modulepreload" href="\./(vendor/pyscript/[^"]+-[^"]+\.js)"', text)
        head += [f'  <link rel="modulepreload" href="{UP}{path}">' for path in chunks]
        head.append(f'  <link rel="preload" href="{MICROPYTHON}micropython.wasm" as="fetch"'
                    " crossorigin>")
        head += [f'  <link rel="preload" href="{url}" as="fetch" crossorigin>'
                 for url in _python_files()]
    text = _replace(text, '<link rel="manifest"', 'pyodide-lock.json"',
                    "  " + NOTE + "\n" + "\n".join(head) + "\n")
    text = _replace(text, 'href="./web/table/table.css"', 'src="./web/start/offline.js"',
                    f'  <link rel="stylesheet" href="{UP}web/table/table.css">\n'
                    f'  <link rel="stylesheet" href="{UP}web/table/scores-view.css">\n'
                    '  <script type="module" src="./page.js"></script>\n'
                    f'  <script type="module" src="{UP}vendor/pyscript/core.js"></script>\n'
                    f'  <script type="module" src="{UP}web/table/table.js"></script>\n')
    return _replace(text, '<script type="py"', '<script type="py"',
                    f'  <script type="mpy" src="{UP}web/main.py" config="./mpy.toml"></script>\n')


def write() -> list[Path]:
    """Write both pages next to this file (from the index.html of now)."""
    paths = []
    for name, preloaded in (("index.html", False), ("preloaded.html", True)):
        path = HERE / name
        path.write_text(page(preloaded))
        paths.append(path)
    return paths


if __name__ == "__main__":
    for path in write():
        print(path.relative_to(ROOT))
    sys.exit(0)
