"""Precompressed siblings (`file.br`, `file.gz`) for the files a host may send compressed.

    python tools/precompress.py FILE...

Hosts such as nginx (brotli_static, gzip_static) and Caddy (`precompressed`) send a sibling
instead of the file when the browser accepts its coding, and so does tools/serve.py. The
gzip is made here with the standard library; the brotli by Node's zlib (tools/brotli.mjs),
or left out with a warning when Node is missing. A sibling that would not be smaller than
its file is not written (a host then sends the file as it is). Only compressible types get
siblings (compressible(), which tools/serve.py also uses): images and zip archives are
compressed already, except the zips of STORED_ZIPS.
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

# Worth compressing; images, fonts and zip archives are compressed already.
COMPRESSIBLE = frozenset({
    ".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".wasm", ".toml", ".py",
    ".txt", ".md", ".svg", ".mpy", ".pack",
})
# Zips whose entries are stored, not deflated (tools/stdlib_cut.py): a content coding
# compresses them across their files, as deflate per entry cannot (brotli: a third
# smaller than the same zip deflated).
STORED_ZIPS = frozenset({"python_stdlib_compiled.zip"})
# Content codings a host sends, best first, with the sibling suffix of each.
CODINGS = (("br", ".br"), ("gzip", ".gz"))
BROTLI = Path(__file__).resolve().parent / "brotli.mjs"
SUFFIXES = tuple(suffix for _, suffix in CODINGS)


def compressible(path: Path) -> bool:
    """A file worth a sibling or a content coding: a compressible type or a stored zip
    (and so not a sibling itself)."""
    return path.suffix.lower() in COMPRESSIBLE or path.name in STORED_ZIPS


def write_siblings(files: list[Path], brotli: bool = True) -> dict[str, int]:
    """Write the .gz (and, with Node, .br) sibling of every compressible file in ``files``.

    Returns how many siblings of each kind were kept (those smaller than their file).
    """
    files = [f for f in files if compressible(f)]
    kept = {".gz": 0, ".br": 0}
    for path in files:
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) < len(data):
            path.with_name(path.name + ".gz").write_bytes(packed)
            kept[".gz"] += 1
    node = shutil.which("node") if brotli else None
    if brotli and node is None:
        print("precompress: warning: node is missing; no .br siblings", file=sys.stderr)
    if node is not None and files:
        subprocess.run([node, str(BROTLI), *map(str, files)], check=True)
        for path in files:
            sibling = path.with_name(path.name + ".br")
            if sibling.stat().st_size >= path.stat().st_size:
                sibling.unlink()
            else:
                kept[".br"] += 1
    return kept


def main(argv: list[str] | None = None) -> int:
    files = [Path(arg) for arg in (sys.argv[1:] if argv is None else argv)]
    kept = write_siblings(files)
    print(f"precompress: {kept['.br']} .br and {kept['.gz']} .gz siblings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
