"""Copy Pyodide, PyScript and MicroPython from node_modules/ into vendor/ (git-ignored).

The page loads them from ./vendor/ so that nothing is fetched from a CDN. MicroPython
(PyScript's `mpy` interpreter, the WebAssembly build PyScript itself would fetch from a
CDN) is for the first table on the main thread (docs/architecture.md §8): only its
module and its plain wasm are copied, not the builds with settrace or ulab. Run after
`npm ci`; `make vendor` does both. Only the files the page needs at run time are copied
(no source maps, no Node-only files). vendor/VERSIONS records what was copied, and the
versions are checked against package.json so that a stale node_modules is caught.

It also writes vendor/pyodide/python_stdlib_compiled.zip: Pyodide's standard library
compiled to .pyc by Pyodide's own Python, run in Node (tools/stdlib_pyc.mjs,
tools/pyc_zip.py), which the solver's worker loads instead of python_stdlib.zip so that
Python does not compile ~190 modules on every start (web/start/solver-worker.mjs). It holds
only the modules the worker imports, found by running its start in the same Python
(tools/stdlib_cut.py); every other module is in python_stdlib_rest.zip, which the worker
mounts later. If that step fails the worker uses python_stdlib.zip, only slower; a warning
says so and VERSIONS leaves out its line, so that `--check` reports vendor/ as stale.

Pyodide's Emscripten module is patched in one place (patch_pyodide): it makes a shared
WebAssembly memory as it loads, for a sleep it needs only when a read of stdin would
block, and Chromium reports that as a deprecation on a page that is not cross-origin
isolated (Lighthouse's best practices: "SharedArrayBuffer will require cross-origin
isolation"). The patch makes it on first use instead, which the page never reaches.

Last, every compressible vendored file (the wasm, the scripts, the lock file) gets
precompressed `.br` and `.gz` siblings (tools/precompress.py): tools/serve.py sends them as
nginx's brotli_static/gzip_static do, and `make dist` copies them. The 9.6 MB wasm is
about 2.7 MB as brotli at the highest quality, which takes Node some tens of seconds once.

    python tools/vendor.py [--check]
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

try:  # as tools.vendor or as a script (python tools/vendor.py)
    from tools import stdlib_cut
    from tools.precompress import SUFFIXES, write_siblings
except ImportError:  # pragma: no cover
    import stdlib_cut  # type: ignore[no-redef]
    from precompress import SUFFIXES, write_siblings  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
VENDOR = ROOT / "vendor"

# What Pyodide needs in the browser: the loader, the Emscripten module, the wasm binary,
# the standard library and the lock file (read at start-up even when no package loads).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
COMPILED_STDLIB = "python_stdlib_compiled.zip"
REST_STDLIB = "python_stdlib_rest.zip"
STDLIB_PYC = ROOT / "tools" / "stdlib_pyc.mjs"
PACKAGES = {
    # npm package -> (source folder inside it, destination folder in vendor/)
    "pyodide": (".", "pyodide"),
    "@pyscript/core": ("dist", "pyscript"),
    "@micropython/micropython-webassembly-pyscript": (".", "micropython"),
}
MICROPYTHON_FILES = ("micropython.mjs", "micropython.wasm")


def wanted_versions() -> dict[str, str]:
    deps = json.loads((ROOT / "package.json").read_text())["dependencies"]
    return {name: deps[name] for name in PACKAGES}


def installed_version(name: str) -> str:
    manifest = NODE_MODULES / name / "package.json"
    if not manifest.exists():
        sys.exit(f"vendor: {manifest.relative_to(ROOT)} is missing; run `npm ci` first")
    return json.loads(manifest.read_text())["version"]


def copy_pyodide(src: Path, dst: Path) -> None:
    for name in PYODIDE_FILES:
        shutil.copy(src / name, dst / name)
    patch_pyodide(dst)


# Pyodide's syncSleep (minified names differ by version): its shared memory, made at load.
EAGER_SHARED_MEMORY = re.compile(
    r"var (\w+)=new Int32Array\((new WebAssembly\.Memory\(\{shared:!0,initial:1,maximum:1\}\)"
    r"\.buffer)\);function (\w+)\((\w+)\)\{try\{return Atomics\.wait\(\1,0,0,\4\),!0\}"
    r"catch\{return!1\}\}")
LAZY_SHARED_MEMORY = (r"var \1;function \3(\4){try{return \1??=new Int32Array(\2),"
                      r"Atomics.wait(\1,0,0,\4),!0}catch{return!1}}")


def patch_pyodide(dst: Path) -> None:
    """Make Pyodide's one shared memory on first use, not as its module loads (see the
    module's docstring). Exits when the code is not found exactly once: a new Pyodide needs
    the pattern looked at again, not a page that fails the best-practices budget quietly."""
    module = dst / "pyodide.asm.mjs"
    text, count = EAGER_SHARED_MEMORY.subn(LAZY_SHARED_MEMORY, module.read_text(encoding="utf-8"))
    if count != 1 or text.count("shared:!0") != 1:
        sys.exit(f"vendor: {module.name}: not one shared memory made as in syncSleep "
                 f"({count} found); look at tools/vendor.py's EAGER_SHARED_MEMORY")
    module.write_text(text, encoding="utf-8")


def copy_micropython(src: Path, dst: Path) -> None:
    for name in MICROPYTHON_FILES:
        shutil.copy(src / name, dst / name)


def copy_pyscript(src: Path, dst: Path) -> None:
    for path in sorted(src.iterdir()):
        if path.is_file() and not path.name.endswith(".map"):
            shutil.copy(path, dst / path.name)


COPIERS = {"pyodide": copy_pyodide, "@pyscript/core": copy_pyscript,
           "@micropython/micropython-webassembly-pyscript": copy_micropython}


def app_files() -> dict[str, str]:
    """The app's Python packages as Python sees them (path there: path here): every file
    of engine/ and every .py of web/ but the entry script, which needs a page."""
    files = [p for p in (ROOT / "engine").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    files += [p for p in (ROOT / "web").glob("*.py") if p.name != "main.py"]
    return {p.relative_to(ROOT).as_posix(): str(p) for p in sorted(files)}


def closure_spec() -> dict[str, object]:
    """What tools/stdlib_pyc.mjs runs to find the start-up import closure."""
    sources = [(ROOT / "web" / "deskworker.py").read_text()]
    sys.path.insert(0, str(ROOT))
    try:
        from engine import VARIANTS
    finally:
        sys.path.remove(str(ROOT))
    files = app_files()
    imports = stdlib_cut.imported_names(sources) + [
        name for name in stdlib_cut.module_names(files) if name != "engine.__main__"]
    code = stdlib_cut.closure_code(imports, stdlib_cut.app_searches(VARIANTS))
    return {"files": files, "code": code}


def compile_stdlib(pyodide: Path) -> bool:
    """Write ``pyodide``/python_stdlib_compiled.zip (the start-up closure) and
    python_stdlib_rest.zip with Node; False (and a warning) when that fails, so the page
    falls back to python_stdlib.zip."""
    node = shutil.which("node")
    if node is None:
        print("vendor: warning: node is missing; no compiled standard library", file=sys.stderr)
        return False
    out = pyodide / COMPILED_STDLIB
    spec, modules = pyodide / "closure-spec.json", pyodide / "closure.json"
    try:
        spec.write_text(json.dumps(closure_spec()))
        run = subprocess.run([node, str(STDLIB_PYC), str(pyodide), str(out), str(spec),
                              str(modules)], capture_output=True, text=True)
        if run.returncode != 0 or not out.is_file() or not modules.is_file():
            raise RuntimeError(run.stderr.strip())
        core, rest = stdlib_cut.split_zip(out.read_bytes(), json.loads(modules.read_text()))
        out.write_bytes(core)
        (pyodide / REST_STDLIB).write_bytes(rest)
    except Exception as error:  # noqa: BLE001 - any failure: the plain library
        out.unlink(missing_ok=True)
        (pyodide / REST_STDLIB).unlink(missing_ok=True)
        print(f"vendor: warning: compiling the standard library failed; the page will use "
              f"python_stdlib.zip\n{error}", file=sys.stderr)
        return False
    finally:
        spec.unlink(missing_ok=True)
        modules.unlink(missing_ok=True)
    print(f"vendor: standard library cut: {len(core) / 2**20:.2f} MiB at start, "
          f"{len(rest) / 2**20:.2f} MiB later")
    return True


def stamp_text(wanted: dict[str, str], compiled: bool = True) -> str:
    """What vendor/VERSIONS holds for these versions (with the compiled stdlib, cut in
    two, or not)."""
    text = "".join(f"{name}@{version}\n" for name, version in sorted(wanted.items()))
    return text + (f"pyodide/{COMPILED_STDLIB}\npyodide/{REST_STDLIB}\n" if compiled else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="only report whether vendor/ is up to date"
    )
    args = parser.parse_args()

    wanted = wanted_versions()
    stamp = VENDOR / "VERSIONS"
    if args.check:
        ok = stamp.exists() and stamp.read_text() == stamp_text(wanted)
        print("vendor: up to date" if ok else "vendor: missing or stale")
        return 0 if ok else 1

    for name, version in wanted.items():
        have = installed_version(name)
        if have != version:
            sys.exit(f"vendor: node_modules has {name}@{have}, package.json pins {version}")

    tmp = VENDOR.with_name("vendor.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    for name, (sub, dest) in PACKAGES.items():
        src = NODE_MODULES / name / sub
        dst = tmp / dest
        dst.mkdir(parents=True)
        COPIERS[name](src, dst)
    compiled = compile_stdlib(tmp / "pyodide")
    kept = write_siblings(sorted(p for p in tmp.rglob("*") if p.is_file()))
    print(f"vendor: {kept['.br']} .br and {kept['.gz']} .gz siblings")
    (tmp / "VERSIONS").write_text(stamp_text(wanted, compiled))
    # Swap in the finished copy so that a server never sees a half-written vendor/.
    shutil.rmtree(VENDOR, ignore_errors=True)
    tmp.rename(VENDOR)
    size = sum(p.stat().st_size for p in VENDOR.rglob("*")
               if p.is_file() and not p.name.endswith(SUFFIXES))
    print(f"vendor: {', '.join(f'{n}@{v}' for n, v in wanted.items())} -> vendor/ "
          f"({size / 2**20:.1f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
