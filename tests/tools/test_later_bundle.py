"""The solver's files in one download (tools/later_bundle.py), for an import of the solver
that cannot wait: the dev server renders it, `make dist` writes it, and it holds exactly
the files of pyscript.toml's [files_after_start] table."""

from __future__ import annotations

import json
import shutil
import tomllib
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tools import later_bundle
from tools.build_dist import build
from tools.serve import start_server

ROOT = Path(__file__).resolve().parents[2]


def listed() -> dict[str, str]:
    return tomllib.loads((ROOT / "pyscript.toml").read_text())["files_after_start"]


def test_the_bundle_holds_every_later_file_as_it_is():
    files = json.loads(later_bundle.render(ROOT))
    table = listed()
    assert sorted(files) == sorted(table.values())
    assert "engine/solver/data/winnable-klondike.txt" in files
    for url, path in table.items():
        assert files[path] == (ROOT / url.removeprefix("./")).read_text(encoding="utf-8")


def test_a_file_that_is_not_text_means_no_bundle(tmp_path: Path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "a.py").write_text("A = 1\n")
    (tmp_path / "engine" / "b.bin").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "pyscript.toml").write_text(
        '[files_after_start]\n"./engine/a.py" = "engine/a.py"\n'
        '"./engine/b.bin" = "engine/b.bin"\n')
    assert later_bundle.render(tmp_path) is None
    (tmp_path / "engine" / "b.bin").unlink()
    assert later_bundle.render(tmp_path) is None  # a missing file: none either


def test_the_dev_server_renders_it_and_dist_holds_it(tmp_path: Path):
    server, base = start_server(ROOT)
    try:
        with urllib.request.urlopen(base + "/" + later_bundle.BUNDLE) as response:
            assert response.headers["Content-Type"] == "application/json"
            assert response.read() == later_bundle.render(ROOT)
    finally:
        server.shutdown()
        server.server_close()
    out = tmp_path / "dist"
    build(out)
    assert (out / later_bundle.BUNDLE).read_bytes() == later_bundle.render(ROOT)
    assert (out / (later_bundle.BUNDLE + ".gz")).is_file()


def test_a_folder_without_the_later_table_has_no_bundle(tmp_path: Path):
    shutil.copy(ROOT / "index.html", tmp_path / "index.html")
    (tmp_path / "pyscript.toml").write_text('name = "x"\n')
    server, base = start_server(tmp_path)
    try:
        with pytest.raises(urllib.error.HTTPError) as error:
            urllib.request.urlopen(base + "/" + later_bundle.BUNDLE)
        assert error.value.code == 404
    finally:
        server.shutdown()
        server.server_close()
