"""Turn a zip of Python sources into the same zip with compiled modules (.pyc) instead.

Pyodide's python_stdlib.zip holds only .py files, so every start compiles each standard
module it imports (about 190 before the table is drawn). tools/stdlib_pyc.mjs runs
:func:`compiled_zip` inside Pyodide's own Python (the .pyc magic number must be that
interpreter's) and tools/vendor.py serves the result as python_stdlib_compiled.zip.

Each ``name.py`` becomes ``name.pyc`` at the same place in the zip, which zipimport finds
before a ``.py`` (and here there is none). The .pyc is hash-based and unchecked (PEP 552):
it is used as it is, whatever the timestamps. Code objects are compiled with the file name
the interpreter gives a module imported from the plain zip, so tracebacks name the same
paths. Every other entry (data files, directories) is copied unchanged. Stdlib only, so
it runs in CPython as well (the tests do that).
"""

from __future__ import annotations

import importlib.util
import io
import marshal
import zipfile

# PEP 552 flags: bit 0 = hash-based; bit 1 (check the source) left unset.
UNCHECKED_HASH = 0b01
HEADER_SIZE = 16  # magic, flags, 8-byte source hash


def pyc_bytes(source: bytes, filename: str) -> bytes:
    """An unchecked hash-based .pyc of ``source`` for this interpreter (optimize level 0)."""
    code = compile(source, filename, "exec", dont_inherit=True, optimize=0)
    return (importlib.util.MAGIC_NUMBER + UNCHECKED_HASH.to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))


def compiled_zip(data: bytes, archive: str) -> bytes:
    """The zip ``data`` with each .py replaced by its .pyc; ``archive`` is the path the
    interpreter mounts the zip at (e.g. /lib/python314.zip), used in code file names."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info)
            if info.filename.endswith(".py"):
                body = pyc_bytes(body, f"{archive}/{info.filename}")
                name = info.filename + "c"
            else:
                name = info.filename
            entry = zipfile.ZipInfo(name, info.date_time)
            entry.external_attr = info.external_attr
            entry.compress_type = zipfile.ZIP_STORED if info.is_dir() else zipfile.ZIP_DEFLATED
            dst.writestr(entry, body, compresslevel=9)
    return out.getvalue()


def pyc_magic(pyc: bytes) -> bytes:
    """The magic number a .pyc was written for (its first four bytes)."""
    return pyc[:4]
