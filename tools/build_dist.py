"""Build dist/: a static folder any web host can serve, offline support included.

    python tools/build_dist.py [--out dist]      # `make dist` runs this

It copies exactly the files the service worker precaches (tools/precache.py: the page,
manifest, icons, mpy.toml and pyscript.toml, the first table's bytecode, engine/ and web/
sources, the vendored PyScript, MicroPython and Pyodide files) and writes
service-worker.js with the precache list and the content-hash cache name baked in, plus
Pyodide's plain standard library (the solver worker's fallback when the precompiled one
cannot be downloaded; not precached). Nothing else goes in (no tests,
tools or node_modules). The folder works from any path on a host (every URL in the app
is relative); the host must serve
.wasm as application/wasm and .mjs as JavaScript, which common hosts do.

Every compressible file gets precompressed siblings, `file.br` and `file.gz`, for hosts
that serve them (README.md, "Deploying"): the vendored ones are copied from vendor/
(tools/vendor.py made them once), the app's own are made here (tools/precompress.py; gzip
only when Node is missing). The siblings are not in the precache list: a browser's fetch
asks for the file, and the host picks the sibling.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

try:  # as tools.build_dist (tests) or as a script
    from tools import precache
    from tools.precompress import SUFFIXES, compressible, write_siblings
except ImportError:  # pragma: no cover
    import precache  # type: ignore[no-redef]
    from precompress import SUFFIXES, compressible, write_siblings  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent


def build(out: Path, root: Path = ROOT) -> dict:
    """Write the deployable folder ``out`` from ``root``; returns the precache summary."""
    out = out.resolve()
    if out == root.resolve() or root.resolve().is_relative_to(out):
        raise ValueError(f"refusing to build into {out}")
    if out.exists():
        shutil.rmtree(out)
    info = precache.build_info(root)
    for url in info["files"]:
        rel = url.removeprefix("./")
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, target)
    # The plain standard library is not precached but stays reachable: the solver's worker
    # falls back to it when the compiled one is not served.
    plain = root / precache.PLAIN_STDLIB
    if plain.exists() and not (out / precache.PLAIN_STDLIB).exists():
        shutil.copy2(plain, out / precache.PLAIN_STDLIB)
    (out / precache.TEMPLATE).write_bytes(precache.render_service_worker(root))
    to_compress = [out / precache.TEMPLATE]
    for url in info["files"]:
        rel = url.removeprefix("./")
        if compressible(root / rel) and not copy_siblings(root / rel, out / rel):
            to_compress.append(out / rel)
    write_siblings(to_compress)
    return info


def copy_siblings(source: Path, target: Path) -> bool:
    """Copy the precompressed siblings of ``source`` that are not older than it (vendor/
    has them); False when there is none, so that they get made."""
    copied = False
    for suffix in SUFFIXES:
        sibling = source.with_name(source.name + suffix)
        if sibling.is_file() and sibling.stat().st_mtime_ns >= source.stat().st_mtime_ns:
            shutil.copy2(sibling, target.with_name(target.name + suffix))
            copied = True
    return copied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "dist")
    args = parser.parse_args(argv)
    info = build(args.out)
    print(f"{args.out}: {len(info['files'])} files, {info['bytes']:,} bytes precached, "
          f"cache {info['cache']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
