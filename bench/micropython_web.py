"""How long the page's Python takes under MicroPython (in Node), next to CPython.

    .venv/bin/python bench/micropython_web.py [--runs 5] [--moves 60]

Each run starts MicroPython afresh through tools/micropython.mjs (the files copied from
this repository, compiled on import as the page would from source) and prints: the import
of engine/, of web/'s modules for the first table (compat, jsontext, labels, storage,
stats, saves, share, scores) and of web/controller.py; a Table made and its start
payload written as JSON (a Klondike deal); and the mean of ``--moves`` move intents, each
handled and its payload written as JSON as web/main.py's dispatch does. The solver's desk
is a stand-in that answers nothing (it stays with Pyodide). The same table is then timed
in this CPython. It asserts nothing and is not a test (tests/web/test_micropython_web.py
compares what the modules do); the machine's load is printed, as the times depend on it.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PROGRAM = '''
import json
import time

try:
    clock = time.ticks_us
    since = time.ticks_diff
except AttributeError:  # CPython
    clock = lambda: int(time.perf_counter() * 1e6)  # noqa: E731
    since = lambda a, b: a - b  # noqa: E731

t0 = clock()
import engine
t1 = clock()
from web import compat, jsontext, labels, saves, scores, share, stats, storage
t2 = clock()
from web.controller import Table
t3 = clock()
from web.storage import MemoryBackend, Storage


class Desk:
    """The solver's part of the table, answering nothing."""

    def __init__(self, table):
        self.table = table
        self.dailies = self

    def __getattr__(self, name):
        return lambda *args, **kwargs: None

    def draw_seed(self, variant, check=True):
        return self.table.random_seed()

    def is_daily(self, *args):
        return False


t4 = clock()
table = Table(Storage(MemoryBackend(), "/"), desk=Desk)
table.handle("new", {"variant": "klondike", "seed": 77})
json.dumps(table.start(""))
t5 = clock()
spent = done = 0
for i in range(MOVES):
    legal = sorted(table.game.legal_moves(), key=str)
    if not legal:
        break
    move = legal[(5 * i) % len(legal)]
    a = clock()
    if move.src == "stock" or move.dst == "stock":
        json.dumps(table.handle("stock"))
    else:
        json.dumps(table.handle("play", {"src": move.src, "dst": move.dst, "count": move.count}))
    spent += since(clock(), a)
    done += 1
print(json.dumps([since(t1, t0) / 1000, since(t2, t1) / 1000, since(t3, t2) / 1000,
                  since(t5, t4) / 1000, spent / done / 1000, done]))
'''

NAMES = ("import engine", "import web (first table)", "import web.controller",
         "Table + start payload", "move intent + payload (mean)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("node is not on PATH")
    program = PROGRAM.replace("range(MOVES)", f"range({args.moves})")
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.py"
        path.write_text(program)
        runs = []
        for _ in range(args.runs):
            res = subprocess.run([node, str(ROOT / "tools" / "micropython.mjs"), str(path)],
                                 capture_output=True, text=True, cwd=ROOT, check=True)
            runs.append(json.loads(res.stdout.strip().splitlines()[-1]))
        cpython = []
        for _ in range(args.runs):
            res = subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                                 cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
            cpython.append(json.loads(res.stdout.strip().splitlines()[-1]))
    print(f"{'ms (min-max of ' + str(args.runs) + ' runs)':32} {'MicroPython':>16} {'CPython':>16}")
    for i, name in enumerate(NAMES):
        mp = [r[i] for r in runs]
        cp = [r[i] for r in cpython]
        print(f"{name:32} {min(mp):7.1f} - {max(mp):6.1f} {min(cp):7.2f} - {max(cp):6.2f}")
    print(f"moves played: {runs[0][5]}; load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
