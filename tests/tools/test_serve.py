"""tools/serve.py: content types, revalidation, no dot-paths, concurrent connections."""

from __future__ import annotations

import http.client
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
