"""What the service worker precaches, and the service worker with that list baked in.

    python tools/precache.py            # print the precache list, its weight and version
    python tools/precache.py --sw       # print the rendered service worker

service-worker.js in the repository is a template: its line ``const BUILD = ...; // @build``
is replaced by the precache list (each file with the SHA-256 of its content) and a version
made from a hash of all of them. So any change to any precached file, or to the service
worker itself, gives different service-worker.js bytes, which is what makes a browser
install the new version; nobody edits a version number by hand.

The worker's cache name is ``pocket-patience-<scope key>-<version>``: the scope key (a hash
of the path of the folder the app is served from) is added by the worker itself, since one
built folder may be hosted at any path, and it keeps copies of the app on one origin apart.

The same rendering serves every way of running the app:
- the dev server (tools/serve.py) renders /service-worker.js on each request, so `make
  serve` and the end-to-end tests always have a service worker that matches the files;
  file hashes are remembered by (size, mtime) so a request costs a few stat calls;
- `make dist` (tools/build_dist.py) writes the rendered file into dist/.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = "service-worker.js"
CACHE_PREFIX = "pocket-patience-"
SNAPSHOT_CACHE_PREFIX = "pp-pyodide-snapshot-"  # earlier versions' (service-worker.js)
BUILD_LINE = re.compile(r"^const BUILD = .*; // @build$", re.MULTILINE)

# The page and its configuration, always.
PAGE_FILES = ("index.html", "manifest.webmanifest", "pyscript.toml", "mpy.toml")
# Everything under web/ with these endings (Python, scripts, styles, icons).
WEB_SUFFIXES = (".py", ".js", ".mjs", ".css", ".png", ".svg", ".json", ".webmanifest")
# Pyodide's standard library: the page loads the compiled one (tools/vendor.py) and falls
# back to the plain one only when the compiled one is not there, so one is precached.
PLAIN_STDLIB = "vendor/pyodide/python_stdlib.zip"
COMPILED_STDLIB = "vendor/pyodide/python_stdlib_compiled.zip"


def _listed_sources(root: Path) -> list[str]:
    """The files Python reads: the first table's bytecode, in the one file (pack) that
    mpy.toml names for MicroPython on the main thread (web/start/micropython-loader.mjs;
    not its modules one by one, which the page never fetches); the sources
    pyscript.toml lists for Pyodide in the solver's worker, and those the worker writes
    after the start (the solver's)."""
    listed = []
    for name, tables in (("pyscript.toml", ("files", "files_after_start")),):
        config = tomllib.loads((root / name).read_text()) if (root / name).is_file() else {}
        listed += [src.removeprefix("./") for table in tables for src in config.get(table, {})]
    mpy = root / "mpy.toml"
    if mpy.is_file() and "pack" in (config := tomllib.loads(mpy.read_text())):
        listed.append(config["pack"].removeprefix("./"))  # its modules, as one file
    return listed


def precache_paths(root: Path = ROOT) -> list[str]:
    """Repository-relative paths of every file the app needs to start and play offline."""
    paths: set[str] = {p for p in PAGE_FILES if (root / p).is_file()}
    paths.update(_listed_sources(root))
    for path in (root / "web").rglob("*"):
        if path.is_file() and path.suffix in WEB_SUFFIXES and "__pycache__" not in path.parts:
            paths.add(path.relative_to(root).as_posix())
    for folder in ("pyodide", "micropython"):
        for path in (root / "vendor" / folder).glob("*"):
            if path.is_file() and path.suffix not in (".br", ".gz"):  # not their siblings
                paths.add(path.relative_to(root).as_posix())
    if COMPILED_STDLIB in paths:
        paths.discard(PLAIN_STDLIB)
    missing = sorted(p for p in paths if not (root / p).is_file())
    if missing:
        raise FileNotFoundError(f"precache: missing files {missing} (run `make vendor`?)")
    return sorted(paths)


_DIGESTS: dict[Path, tuple[int, int, str]] = {}


def file_digest(path: Path) -> str:
    """SHA-256 (hex) of a file's content, remembered while its size and mtime stay."""
    st = path.stat()
    known = _DIGESTS.get(path)
    if known is not None and known[:2] == (st.st_size, st.st_mtime_ns):
        return known[2]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    _DIGESTS[path] = (st.st_size, st.st_mtime_ns, digest)
    return digest


def scope_key(path: str) -> str:
    """The key of an app folder (a service worker scope's path, e.g. "/a/") in cache names:
    FNV-1a, 32 bits, of its UTF-8 bytes, as service-worker.js computes it. Short and fixed
    in length; a path is not secret, only told apart."""
    value = 0x811C9DC5
    for byte in path.encode():
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def cache_name(version: str, scope_path: str) -> str:
    """The precache's name for a version served from the folder ``scope_path``."""
    return f"{CACHE_PREFIX}{scope_key(scope_path)}-{version}"


def snapshot_cache_name(scope_path: str) -> str:
    """The name of the Python snapshot cache that earlier versions of the app served
    from ``scope_path`` kept (the service worker deletes it)."""
    return SNAPSHOT_CACHE_PREFIX + scope_key(scope_path)


def build_info(root: Path = ROOT) -> dict:
    """``{"version", "cache", "files": {url: sha256}, "bytes": total}`` for ``root``.

    ``version`` is the content hash; ``cache`` is the worker's cache name with ``*`` where
    the worker puts its scope key (for people reading tool output).
    """
    paths = precache_paths(root)
    files = {f"./{p}": file_digest(root / p) for p in paths}
    total = sum((root / p).stat().st_size for p in paths)
    whole = hashlib.sha256()
    whole.update(file_digest(root / TEMPLATE).encode())
    for url, digest in files.items():
        whole.update(f"{url}\0{digest}\n".encode())
    version = whole.hexdigest()[:16]
    return {"version": version, "cache": f"{CACHE_PREFIX}*-{version}", "files": files,
            "bytes": total}


def is_template_text(text: str) -> bool:
    """True for service worker source whose BUILD line is still the unfilled template's."""
    return 'const BUILD = {"version": null' in text


def is_template(path: Path) -> bool:
    """True for a service worker file that still needs its BUILD line filled in."""
    return is_template_text(path.read_text())


def render_service_worker(root: Path = ROOT) -> bytes:
    """service-worker.js with the precache list and version of ``root`` baked in."""
    template = (root / TEMPLATE).read_text()
    if not BUILD_LINE.search(template):
        raise ValueError(f"{TEMPLATE}: no `const BUILD = ...; // @build` line to fill in")
    info = build_info(root)
    build = {"version": info["version"], "files": info["files"]}
    line = f"const BUILD = {json.dumps(build, separators=(',', ':'))}; // @build"
    return BUILD_LINE.sub(lambda _: line, template, count=1).encode()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sw", action="store_true", help="print the rendered service worker")
    args = parser.parse_args(argv)
    if args.sw:
        sys.stdout.write(render_service_worker().decode())
        return 0
    info = build_info()
    for url in info["files"]:
        print(f"{(ROOT / url).stat().st_size:>10}  {url}")
    print(f"{info['bytes']:>10}  bytes in {len(info['files'])} files, version {info['version']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
