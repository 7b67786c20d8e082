"""Cut the compiled standard library in two: what the app imports to start, and the rest.

The whole compiled library (python_stdlib_compiled.zip, tools/pyc_zip.py) weighs 4.4 MB,
more than half of a first visit's download, and the app imports about a third of it
before the first table is drawn. So tools/vendor.py writes:

- python_stdlib_compiled.zip, the *core*: the modules of the start-up import closure
  (and every non-module entry); Pyodide mounts it as its standard library;
- python_stdlib_rest.zip: every other module, which web/start/solver-worker.mjs fetches
  in the background as Pyodide starts and mounts when Python first imports one of them
  (waiting for it, synchronously, if it has not come by then).

Pyodide runs the solver, in a worker, once the table is playable (the table itself runs
under MicroPython), so the start is the worker's. The closure is never written by hand:
tools/stdlib_pyc.mjs starts Pyodide's own Python under Node with the app's files in its
file system, runs :func:`closure_code` there (the imports of web/deskworker.py and of
every app module, then the worker's start on a plain visit and on a deal link of each
variant, a few of its searches and the reading of its lists) and reports ``sys.modules``,
which :func:`split_zip` turns into the two zips.
"""

from __future__ import annotations

import ast
import io
import zipfile
from collections.abc import Iterable

# A text entry of the core zip: the module names in the rest zip, one a line, so that the
# page fetches the rest only for a module that is there (not for a probe such as
# ``import _winapi`` that fails in any case).
REST_INDEX = "python_stdlib_rest.txt"

# Names that are not the standard library's: PyScript's own modules and the JavaScript
# ones it and Pyodide register; the closure imports only what these files import.
NOT_STDLIB = frozenset({"pyscript", "_pyscript", "polyscript", "js", "web", "engine"})


def imported_names(sources: Iterable[str]) -> list[str]:
    """Every absolute module name the Python ``sources`` import, anywhere in them
    (``import a.b`` gives ``a.b``; ``from a import b`` gives ``a`` and ``a.b``, which
    may be a module), except the app's and PyScript's own."""
    names: set[str] = set()
    for source in sources:
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names
                             if alias.name != "*")
    return sorted(n for n in names if n.partition(".")[0] not in NOT_STDLIB)


def closure_code(imports: list[str], searches: list[str]) -> str:
    """Python run in Pyodide with the app on sys.path: every import a start makes.

    Pyodide runs the solver in a worker (web/start/solver-worker.mjs, web/deskworker.py),
    so a start is the worker's: ``imports`` are tried one by one (a ``from a import b``
    name that is not a module, or a module of another platform, simply fails); then the
    worker's desk starts and, for the position of each page query of ``searches``, is
    given the game, searches it a little and reads its lists of deals (their sizes go to
    the menus), so that the imports made inside functions on the way count too.
    """
    return f"""
import importlib
for name in {imports!r}:
    try:
        importlib.import_module(name)
    except Exception:
        pass
from web.controller import Table
from web.deskworker import DeskWorker
from web.storage import Storage, scope_of
worker = DeskWorker(lambda text: None)
worker.start()
for search in {searches!r}:
    table = Table(Storage(None, scope_of("/")))
    table.start(search)
    worker.table.adopt(table.game)
    worker.desk.position_changed()
    for _ in range(3):
        worker.step()
worker.counts()
"""


def module_names(paths: Iterable[str]) -> list[str]:
    """The module names of the .py files among ``paths`` (``a/b.py`` -> ``a.b``,
    ``a/__init__.py`` -> ``a``)."""
    return sorted(p.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
                  for p in paths if p.endswith(".py"))


def app_searches(variants: Iterable[str]) -> list[str]:
    """The page queries a start is tried with: none, and a deal link of each variant."""
    return ["", *(f"?game={variant}&deal=1" for variant in variants)]


def module_entry(name: str) -> tuple[str, str]:
    """The two places a module ``a.b`` may be in a zip: ``a/b.pyc``, ``a/b/__init__.pyc``."""
    path = name.replace(".", "/")
    return f"{path}.pyc", f"{path}/__init__.pyc"


def split_zip(data: bytes, modules: Iterable[str]) -> tuple[bytes, bytes]:
    """(core, rest) of the compiled zip ``data``: a module of ``modules`` goes in the
    core, with the folders above it and every entry that is not a module; every other
    module goes in the rest, with its folders. Entries keep their order; the core's are
    stored, not deflated, as a host sends it with a content coding that compresses across
    its files (tools/precompress.py: STORED_ZIPS); the core gets one more entry,
    :data:`REST_INDEX`."""
    core_names: set[str] = set()
    for name in modules:
        core_names.update(module_entry(name))
    core, rest = io.BytesIO(), io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(core, "w") as to_core, \
            zipfile.ZipFile(rest, "w") as to_rest:
        infos = src.infolist()
        in_core = {i.filename for i in infos if i.filename in core_names
                   or not (i.is_dir() or i.filename.endswith(".pyc"))}
        in_rest = {i.filename for i in infos
                   if i.filename.endswith(".pyc") and i.filename not in in_core}
        rest_modules = sorted(n.removesuffix(".pyc").removesuffix("/__init__").replace("/", ".")
                              for n in in_rest)
        for info in infos:
            name = info.filename
            if info.is_dir():
                # A folder goes wherever something under it goes (both, for a package
                # whose modules are split).
                targets = [z for z, kept in ((to_core, in_core), (to_rest, in_rest))
                           if any(n.startswith(name) for n in kept)]
            else:
                targets = [to_core if name in in_core else to_rest]
            body = src.read(info)
            for target in targets:
                # writestr fills in the entry's offsets: a copy for each zip.
                entry = zipfile.ZipInfo(name, info.date_time)
                entry.external_attr = info.external_attr
                entry.compress_type = (zipfile.ZIP_STORED if target is to_core
                                       else info.compress_type)
                target.writestr(entry, body, compresslevel=9)
        to_core.writestr(zipfile.ZipInfo(REST_INDEX, (2000, 1, 1, 0, 0, 0)),
                         "".join(f"{m}\n" for m in rest_modules),
                         compress_type=zipfile.ZIP_STORED)
    return core.getvalue(), rest.getvalue()
