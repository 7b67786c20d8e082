"""tools/serve.py: content types, revalidation, no dot-paths, concurrent connections,
br/gzip content coding."""

from __future__ import annotations

import gzip
import http.client
import os
import urllib.parse

import pytest

from tools.serve import start_server


@pytest.fixture
def served(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "index.html").write_text("sub")
    for name in ("a.wasm", "a.mjs", "a.webmanifest", "a.toml", "a.py", "a.js", "a.json"):
        (tmp_path / name).write_bytes(b"x" * 10)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("secret")
    server, url = start_server(tmp_path)
    yield url
    server.shutdown()
    server.server_close()


def request(url, path, headers=None, method="GET"):
    parts = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    conn.request(method, path, headers=headers or {})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response, body


@pytest.mark.parametrize(
    ("path", "content_type"),
    [
        ("/a.wasm", "application/wasm"),
        ("/a.mjs", "text/javascript"),
        ("/a.js", "text/javascript"),
        ("/a.webmanifest", "application/manifest+json"),
        ("/a.toml", "text/plain"),
        ("/a.py", "text/plain"),
        ("/a.json", "application/json"),
        ("/", "text/html"),
    ],
)
def test_content_types(served, path, content_type):
    response, _ = request(served, path)
    assert response.status == 200
    assert response.getheader("Content-Type").split(";")[0] == content_type
    assert response.getheader("Cache-Control") == "no-cache"


def test_revalidation_answers_304_until_the_file_changes(served, tmp_path):
    response, body = request(served, "/a.py")
    etag, modified = response.getheader("ETag"), response.getheader("Last-Modified")
    assert body == b"x" * 10 and etag and modified

    response, body = request(served, "/a.py", {"If-None-Match": etag})
    assert (response.status, body) == (304, b"")
    response, body = request(served, "/a.py", {"If-Modified-Since": modified})
    assert (response.status, body) == (304, b"")

    (tmp_path / "a.py").write_bytes(b"changed")
    response, body = request(served, "/a.py", {"If-None-Match": etag})
    assert (response.status, body) == (200, b"changed")


def test_head_sends_no_body(served):
    response, body = request(served, "/a.wasm", method="HEAD")
    assert response.status == 200
    assert response.getheader("Content-Length") == "10"
    assert body == b""


def test_directories_and_missing_files(served):
    response, _ = request(served, "/sub")
    assert response.status == 301
    assert response.getheader("Location") == "/sub/"
    response, body = request(served, "/sub/?x=1")
    assert (response.status, body) == (200, b"sub")
    response, _ = request(served, "/nope.js")
    assert response.status == 404


@pytest.mark.parametrize("path", ["/.git/config", "/sub/../.git/config", "/%2egit/config"])
def test_dot_paths_are_not_served(served, path):
    response, body = request(served, path)
    assert response.status == 404
    assert b"secret" not in body


def test_an_idle_keep_alive_connection_does_not_block_others(served):
    parts = urllib.parse.urlsplit(served)
    idle = http.client.HTTPConnection(parts.hostname, parts.port, timeout=5)
    idle.request("GET", "/a.js")
    idle.getresponse().read()  # the connection stays open (HTTP/1.1 keep-alive)
    try:
        response, _ = request(served, "/a.json")
        assert response.status == 200
    finally:
        idle.close()


# Compression: what a host with brotli_static/gzip_static and gzip on the fly sends.

TEXT = b"def f():\n    return 'pocket patience'\n" * 200


@pytest.fixture
def compressing(tmp_path):
    """Files to compress: one with fresh br and gz siblings, one with a stale sibling, one
    with none, and already compressed types that must go out as they are."""
    (tmp_path / "plain.js").write_bytes(TEXT)
    (tmp_path / "big.wasm").write_bytes(TEXT)
    (tmp_path / "pre.mjs").write_bytes(TEXT)
    # Siblings hold different bytes so that a test can tell which one was sent.
    (tmp_path / "pre.mjs.br").write_bytes(b"BROTLI-SIBLING")
    (tmp_path / "pre.mjs.gz").write_bytes(gzip.compress(b"from the gz sibling"))
    (tmp_path / "stale.css").write_bytes(TEXT)
    (tmp_path / "stale.css.gz").write_bytes(gzip.compress(b"old"))
    old = os.stat(tmp_path / "stale.css").st_mtime_ns - 10**9
    os.utime(tmp_path / "stale.css.gz", ns=(old, old))
    (tmp_path / "icon.png").write_bytes(TEXT)
    (tmp_path / "stdlib.zip").write_bytes(TEXT)
    (tmp_path / "python_stdlib_compiled.zip").write_bytes(TEXT)  # a stored zip
    (tmp_path / "icon.png.gz").write_bytes(gzip.compress(TEXT))
    server, url = start_server(tmp_path)
    yield url
    server.shutdown()
    server.server_close()


def decoded(response, body: bytes) -> bytes:
    coding = response.getheader("Content-Encoding")
    assert coding in (None, "gzip"), coding
    return gzip.decompress(body) if coding == "gzip" else body


@pytest.mark.parametrize(
    ("accept", "path", "coding"),
    [
        ("gzip, deflate, br, zstd", "/pre.mjs", "br"),
        ("gzip, deflate, br", "/plain.js", "gzip"),  # no br sibling: gzip made here
        ("br", "/plain.js", None),  # br only from a sibling; identity stays acceptable
        ("gzip;q=1.0, br;q=0.5", "/pre.mjs", "gzip"),
        ("br;q=0, gzip", "/pre.mjs", "gzip"),
        ("gzip;q=0, br;q=0", "/pre.mjs", None),
        ("identity", "/pre.mjs", None),
        ("gzip;q=0.5, identity", "/plain.js", None),
        ("", "/pre.mjs", None),
        ("*", "/pre.mjs", "br"),
        ("*", "/plain.js", "gzip"),
        ("*;q=0.5, br;q=0", "/pre.mjs", "gzip"),
        ("x-gzip", "/plain.js", "gzip"),
        ("GZIP", "/big.wasm", "gzip"),
        ("gzip", "/python_stdlib_compiled.zip", "gzip"),
    ],
)
def test_content_coding_negotiation(compressing, accept, path, coding):
    response, body = request(compressing, path, {"Accept-Encoding": accept})
    assert response.status == 200
    assert response.getheader("Content-Encoding") == coding
    assert response.getheader("Vary") == "Accept-Encoding"
    assert response.getheader("Content-Length") == str(len(body))
    if coding == "br":
        assert body == b"BROTLI-SIBLING"
    elif coding == "gzip" and path == "/pre.mjs":
        assert decoded(response, body) == b"from the gz sibling"
    else:
        assert decoded(response, body) == TEXT


def test_gzip_on_the_fly_is_smaller_and_decodes_to_the_file(compressing):
    response, body = request(compressing, "/big.wasm", {"Accept-Encoding": "gzip"})
    assert response.getheader("Content-Encoding") == "gzip"
    assert len(body) < len(TEXT) // 10
    assert decoded(response, body) == TEXT
    assert response.getheader("Content-Type") == "application/wasm"


def test_a_sibling_older_than_the_file_is_ignored(compressing):
    response, body = request(compressing, "/stale.css", {"Accept-Encoding": "gzip"})
    assert response.getheader("Content-Encoding") == "gzip"
    assert decoded(response, body) == TEXT


@pytest.mark.parametrize("path", ["/icon.png", "/stdlib.zip"])
def test_compressed_formats_go_out_as_they_are(compressing, path):
    response, body = request(compressing, path, {"Accept-Encoding": "gzip, br"})
    assert response.getheader("Content-Encoding") is None
    assert response.getheader("Vary") is None
    assert body == TEXT


def test_each_encoding_has_its_own_etag_and_304(compressing):
    tags = {}
    for accept in ("br", "gzip", "identity"):
        response, _ = request(compressing, "/pre.mjs", {"Accept-Encoding": accept})
        tags[accept] = response.getheader("ETag")
    assert len(set(tags.values())) == 3
    for accept, tag in tags.items():
        response, body = request(compressing, "/pre.mjs",
                                 {"Accept-Encoding": accept, "If-None-Match": tag})
        assert (response.status, body) == (304, b"")
        assert response.getheader("ETag") == tag
        assert response.getheader("Vary") == "Accept-Encoding"
    # A body cached in one encoding is not validated for a request in another.
    response, body = request(compressing, "/pre.mjs",
                             {"Accept-Encoding": "gzip", "If-None-Match": tags["br"]})
    assert response.status == 200
    assert decoded(response, body) == b"from the gz sibling"


def test_a_changed_file_is_gzipped_afresh(compressing, tmp_path):
    request(compressing, "/plain.js", {"Accept-Encoding": "gzip"})
    (tmp_path / "plain.js").write_bytes(b"changed " * 50)
    later = os.stat(tmp_path / "plain.js").st_mtime_ns + 10**9
    os.utime(tmp_path / "plain.js", ns=(later, later))
    response, body = request(compressing, "/plain.js", {"Accept-Encoding": "gzip"})
    assert decoded(response, body) == b"changed " * 50


def test_head_of_an_encoded_file_gives_the_encoded_length(compressing):
    get, body = request(compressing, "/plain.js", {"Accept-Encoding": "gzip"})
    head, nothing = request(compressing, "/plain.js", {"Accept-Encoding": "gzip"}, "HEAD")
    assert nothing == b""
    assert head.getheader("Content-Encoding") == "gzip"
    assert head.getheader("Content-Length") == get.getheader("Content-Length") == str(len(body))


@pytest.mark.parametrize("accept", ["gzip", "identity"])
def test_a_range_request_gets_the_whole_file(compressing, accept):
    """Ranges are not supported: 200 with the whole (possibly encoded) body, never a
    partial body labelled as the whole."""
    response, body = request(compressing, "/plain.js",
                             {"Accept-Encoding": accept, "Range": "bytes=0-9"})
    assert response.status == 200
    assert response.getheader("Content-Range") is None
    assert decoded(response, body) == TEXT


def test_no_compress_serves_files_as_they_are(tmp_path):
    (tmp_path / "pre.mjs").write_bytes(TEXT)
    (tmp_path / "pre.mjs.br").write_bytes(b"BROTLI-SIBLING")
    server, url = start_server(tmp_path, compress=False)
    try:
        response, body = request(url, "/pre.mjs", {"Accept-Encoding": "br, gzip"})
    finally:
        server.shutdown()
        server.server_close()
    assert response.getheader("Content-Encoding") is None
    assert body == TEXT


def test_the_rendered_service_worker_is_gzipped_when_accepted():
    from tools.precache import render_service_worker
    from tools.serve import ROOT

    server, url = start_server(ROOT)
    try:
        response, body = request(url, "/service-worker.js", {"Accept-Encoding": "gzip, br"})
        plain, plain_body = request(url, "/service-worker.js")
    finally:
        server.shutdown()
        server.server_close()
    assert response.getheader("Content-Encoding") == "gzip"
    assert response.getheader("Vary") == "Accept-Encoding"
    assert gzip.decompress(body) == plain_body == render_service_worker(ROOT)
    assert plain.getheader("Content-Encoding") is None


def _report(server, error: BaseException) -> None:
    """Have the server report `error` as if a request handler had raised it."""
    try:
        raise error
    except BaseException:
        server.handle_error(None, ("127.0.0.1", 1))


@pytest.mark.parametrize("error", [ConnectionResetError(104, "reset"), BrokenPipeError(32, "pipe")])
def test_a_browser_dropping_its_connection_prints_no_traceback(tmp_path, capsys, error):
    server, _ = start_server(tmp_path)
    try:
        _report(server, error)
        _report(server, ValueError("a real fault"))
    finally:
        server.shutdown()
        server.server_close()
    err = capsys.readouterr().err
    assert type(error).__name__ not in err
    assert "ValueError: a real fault" in err
