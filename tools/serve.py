"""A small threaded static server for Pocket Patience development and tests.

    python tools/serve.py [--host 127.0.0.1] [--port 8000] [--directory REPO_ROOT] [--quiet]

Stdlib only. It serves the repository root with the content types the page needs
(application/wasm for Pyodide's streaming compile, text/javascript for .mjs modules, ...)
and `Cache-Control: no-cache` with ETag and Last-Modified validators: a reload revalidates
every file and gets a bodiless 304 when nothing changed, so edits show up at once while
unchanged files (the 9 MB wasm above all) are neither re-sent nor, in Chromium, recompiled.
HTTP/1.1 keep-alive avoids a new connection per file. Dot-paths (.git, .venv, ...) are
not served.

It compresses as a real host does, so that tests and benchmarks see what a player
downloads: when the request's Accept-Encoding allows, a compressible file (text, scripts,
JSON, wasm, ...) goes out with `Content-Encoding: br` or `gzip` and `Vary: Accept-Encoding`.
A precompressed sibling (`file.br`, `file.gz`, as nginx's brotli_static/gzip_static serve
them; tools/vendor.py and `make dist` write them) is preferred when it is not older than
the file; otherwise the file is gzipped on the fly, once per process and version of the
file. Each encoding has its own ETag, so revalidation answers 304 per encoding. Range
requests are not supported: the whole file comes back with 200, as HTTP allows.
`--no-compress` serves every file as it is (to measure what compression saves).

Tests and benchmarks use `start_server(root, port=0)`, which runs the same server in a
background thread on a free port.
"""

from __future__ import annotations

import argparse
import email.utils
import gzip
import http
import io
import os
import posixpath
import shutil
import sys
import threading
import urllib.parse
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

try:  # as tools.serve (tests, bench) or as a script (python tools/serve.py)
    from tools import precache
    from tools.precompress import CODINGS
    from tools.precompress import compressible as is_compressible
except ImportError:  # pragma: no cover
    import precache  # type: ignore[no-redef]
    from precompress import CODINGS  # type: ignore[no-redef]
    from precompress import compressible as is_compressible  # type: ignore[no-redef]

ROOT = Path(__file__).resolve().parent.parent

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".toml": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".mpy": "application/octet-stream",  # MicroPython bytecode (tools/mpy_build.py)
    ".pack": "application/octet-stream",  # the same, as one file
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
}

def accepted_codings(header: str | None) -> dict[str, float]:
    """The q-value of each coding in an Accept-Encoding header (``*`` kept as a key)."""
    accepted: dict[str, float] = {}
    for item in (header or "").split(","):
        name, _, params = item.partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        accepted["gzip" if name == "x-gzip" else name] = q
    return accepted


def choose_coding(header: str | None, available: list[str]) -> str | None:
    """The coding to send among ``available`` (best first), or None for the file as it is.

    The client's highest q-value wins; on a tie the server's order (brotli first) decides.
    A coding with q=0, or not named when ``*`` is absent, is not acceptable; the file goes
    out as it is when identity is named with a higher q than every acceptable coding.
    """
    accepted = accepted_codings(header)
    best, best_q = None, 0.0
    for coding in available:
        q = accepted.get(coding, accepted.get("*", 0.0))
        if q > best_q:
            best, best_q = coding, q
    if best is None or accepted.get("identity", 0.0) > best_q:
        return None
    return best


_GZIPPED: dict[Path, tuple[tuple[int, int], bytes]] = {}
_GZIP_LOCKS: dict[Path, threading.Lock] = {}
_GZIP_GUARD = threading.Lock()


def gzipped(path: Path, st: os.stat_result) -> bytes:
    """The gzip of ``path``, made once per (path, mtime, size) and kept for the process.

    A lock per file: parallel requests for the 9 MB wasm wait for one compression.
    """
    key = (st.st_mtime_ns, st.st_size)
    with _GZIP_GUARD:
        lock = _GZIP_LOCKS.setdefault(path, threading.Lock())
    with lock:
        known = _GZIPPED.get(path)
        if known is not None and known[0] == key:
            return known[1]
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        _GZIPPED[path] = (key, body)  # replaces an older version of the file
        return body


class Handler(SimpleHTTPRequestHandler):
    """GET/HEAD of files under the served directory, with validators and no-cache."""

    protocol_version = "HTTP/1.1"  # keep-alive: every response carries Content-Length
    timeout = 30  # close idle keep-alive connections so their threads end
    server_version = "PocketPatienceDev"
    quiet = False
    compress = True  # br/gzip when the request accepts it (see the module docstring)

    def send_head(self):
        parsed = urllib.parse.urlsplit(self.path)
        url_path = urllib.parse.unquote(parsed.path)
        parts = [p for p in posixpath.normpath(url_path).split("/") if p]
        if any(p.startswith(".") and p != ".well-known" for p in parts):
            self.send_error(http.HTTPStatus.NOT_FOUND)
            return None

        path = Path(self.translate_path(self.path))
        if path.is_dir():
            if not parsed.path.endswith("/"):
                self.send_response(http.HTTPStatus.MOVED_PERMANENTLY)
                location = urllib.parse.urlunsplit(parsed._replace(path=parsed.path + "/"))
                self.send_header("Location", location)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = path / "index.html"
        if not path.is_file():
            self.send_error(http.HTTPStatus.NOT_FOUND)
            return None
        if parts == ["service-worker.js"] and precache.is_template(path):
            return self._send_bytes(precache.render_service_worker(Path(self.directory)),
                                    CONTENT_TYPES[".js"])

        try:
            f = path.open("rb")
        except OSError:
            self.send_error(http.HTTPStatus.NOT_FOUND)
            return None
        try:
            st = os.fstat(f.fileno())
            etag = f'"{st.st_mtime_ns:x}-{st.st_size:x}"'
            coding, body, etag = self._encoded(path, st, etag)
            if body is not None:
                f.close()
                f = body
            compressible = is_compressible(path) and self.compress
            last_modified = self.date_time_string(int(st.st_mtime))
            if self._not_modified(etag, st.st_mtime):
                f.close()
                self.send_response(http.HTTPStatus.NOT_MODIFIED)
                self.send_header("ETag", etag)
                self.send_header("Last-Modified", last_modified)
                if compressible:
                    self.send_header("Vary", "Accept-Encoding")
                self.end_headers()
                return None
            self.send_response(http.HTTPStatus.OK)
            self.send_header("Content-Type", self.guess_type(str(path)))
            length = st.st_size if body is None else len(body.getbuffer())
            self.send_header("Content-Length", str(length))
            if coding is not None:
                self.send_header("Content-Encoding", coding)
            if compressible:
                self.send_header("Vary", "Accept-Encoding")
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", last_modified)
            self.end_headers()
            return f
        except Exception:
            f.close()
            raise

    def _encoded(self, path: Path, st: os.stat_result,
                 etag: str) -> tuple[str | None, io.BytesIO | None, str]:
        """(coding, encoded body, ETag) for the request; (None, None, etag) as it is.

        A fresh sibling wins over gzip made here; the ETag names the coding (and the
        sibling's own version), so a cached br body is never validated for a gzip request.
        """
        if not self.compress or not is_compressible(path):
            return None, None, etag
        siblings: dict[str, Path] = {}
        for coding, suffix in CODINGS:
            sibling = path.with_name(path.name + suffix)
            try:
                sib = sibling.stat()
            except OSError:
                continue
            if sib.st_mtime_ns >= st.st_mtime_ns:
                siblings[coding] = sibling
        available = [c for c, _ in CODINGS if c in siblings or c == "gzip"]
        coding = choose_coding(self.headers.get("Accept-Encoding"), available)
        if coding is None:
            return None, None, etag
        sibling = siblings.get(coding)
        if sibling is None:
            return coding, io.BytesIO(gzipped(path, st)), f'{etag[:-1]}-{coding}"'
        data = sibling.read_bytes()
        sib = sibling.stat()
        return coding, io.BytesIO(data), f'{etag[:-1]}-{coding}.{sib.st_mtime_ns:x}"'

    def _send_bytes(self, body: bytes, content_type: str):
        """A generated response (the service worker with its precache list filled in),
        gzipped when the request accepts it, as a host would send dist/'s copy."""
        coding = None
        if self.compress:
            coding = choose_coding(self.headers.get("Accept-Encoding"), ["gzip"])
            if coding:
                body = gzip.compress(body, mtime=0)
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        if coding:
            self.send_header("Content-Encoding", coding)
        if self.compress:
            self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def _not_modified(self, etag: str, mtime: float) -> bool:
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:  # takes precedence over If-Modified-Since
            tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
            return etag in tags or "*" in tags
        if_modified_since = self.headers.get("If-Modified-Since")
        if if_modified_since:
            try:
                since = email.utils.parsedate_to_datetime(if_modified_since)
            except (TypeError, ValueError, IndexError, OverflowError):
                return False
            return since is not None and int(mtime) <= since.timestamp()
        return False

    def version_string(self) -> str:
        return self.server_version

    def end_headers(self) -> None:
        # Always revalidate; never serve a stale engine or page from the HTTP cache.
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def guess_type(self, path: str) -> str:
        ext = posixpath.splitext(path)[1].lower()
        return CONTENT_TYPES.get(ext) or super().guess_type(path)

    def copyfile(self, source, outputfile) -> None:
        try:
            shutil.copyfileobj(source, outputfile, 1 << 16)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the browser went away (navigation, test teardown)

    def log_message(self, format: str, *args) -> None:
        if not self.quiet:
            super().log_message(format, *args)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # The listen queue: a page opens six connections at once and the tests run two pages
    # side by side on a busy machine; socketserver's default of 5 has overflowed here (a
    # dropped handshake costs the browser a retransmission, a second or more).
    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:
        """A browser that drops a kept-alive connection (a navigation, a closed test page)
        is normal here; only other errors deserve the standard traceback."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def make_server(root: Path = ROOT, host: str = "127.0.0.1", port: int = 8000,
                quiet: bool = False, compress: bool = True) -> Server:
    """A server for `root` bound to host:port (port 0 picks a free one); not yet serving."""
    directory = str(Path(root).resolve())
    handler = type("BoundHandler", (Handler,), {"quiet": quiet, "compress": compress})

    def factory(*args, **kwargs):
        return handler(*args, directory=directory, **kwargs)

    return Server((host, port), factory)


def start_server(root: Path = ROOT, host: str = "127.0.0.1", port: int = 0,
                 quiet: bool = True, compress: bool = True) -> tuple[Server, str]:
    """Serve `root` from a daemon thread; returns the server and its base URL.

    Stop it with `server.shutdown(); server.server_close()`.
    """
    server = make_server(root, host, port, quiet, compress)
    # A short poll interval: shutdown() waits up to one interval (0.5 s by default).
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="serve", daemon=True
    )
    thread.start()
    bound_host, bound_port = server.server_address[:2]
    return server, f"http://{bound_host}:{bound_port}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve Pocket Patience for development.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or 8000))
    parser.add_argument("--directory", type=Path, default=ROOT)
    parser.add_argument("--quiet", action="store_true", help="do not log requests")
    parser.add_argument("--no-compress", dest="compress", action="store_false",
                        help="never send br or gzip (every file as it is)")
    args = parser.parse_args(argv)

    server = make_server(args.directory, args.host, args.port, args.quiet, args.compress)
    host, port = server.server_address[:2]
    print(f"Serving {args.directory} at http://{host}:{port}/ (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped")
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
