"""pyscript.toml lists every engine/ file and web/ module, so the browser has them."""

from __future__ import annotations

import re
import tomllib

from tools import check_pyscript_files as check


def test_pyscript_toml_lists_every_python_module():
    problems = check.differences(check.expected_files(), check.listed_files())
    assert not problems, (
        "\n".join(problems) + "\nfix: python tools/check_pyscript_files.py --write"
    )


def test_mpy_toml_lists_the_first_tables_bytecode():
    problems = check.differences(check.expected_mpy_files(), check.listed_files(check.MPY_CONFIG))
    assert not problems, "\n".join(problems) + "\nfix: python tools/check_pyscript_files.py --write"
    listed = check.listed_files(check.MPY_CONFIG)
    assert "./build/mpy/web/controller.mpy" in listed
    assert not [src for src in listed if "/solver/" in src or src.endswith(".py")]


def test_the_page_preloads_the_first_tables_bytecode():
    """The loader fetches the bytecode only once it runs; index.html asks for it from its
    head: the one pack, no module one by one (kept by the tool)."""
    page = check.PAGE.read_text()
    assert check.page_with_preloads(page) == page
    preloaded = re.findall(r'<link rel="preload" href="(\./build/mpy/[^"]+)"', page)
    assert preloaded == [check.PACK_URL]
    broken = page.replace(check.PACK_URL, "./x.pack")
    assert broken != page and check.page_with_preloads(broken) == page


def test_mpy_toml_lists_the_bytecode_in_the_order_the_loader_imports_it():
    assert list(check.listed_files(check.MPY_CONFIG)) == list(check.expected_mpy_files())
    listed = check.listed_files(check.MPY_CONFIG)
    web = [dst for dst in listed.values() if dst.startswith("web/")]
    assert web.index("web/stats.mpy") < web.index("web/controller.mpy")


def test_the_page_fetches_the_bytecode_as_the_one_pack_mpy_toml_names():
    # web/start/micropython-loader.mjs loads MicroPython from ./vendor/ and fetches the
    # pack tools/mpy_build.py writes, the one mpy.toml names and the head preloads.
    assert tomllib.loads(check.MPY_CONFIG.read_text())["pack"] == check.PACK_URL
    loader = (check.ROOT / "web" / "start" / "micropython-loader.mjs").read_text()
    assert 'from "../../vendor/micropython/micropython.mjs"' in loader
    assert f'new URL("{check.PACK_URL.removeprefix("./")}", ROOT)' in loader
    assert check.preload_lines() in check.PAGE.read_text()


def test_rewrite_replaces_only_the_files_table(tmp_path):
    config = tmp_path / "pyscript.toml"
    config.write_text(
        'interpreter = "x.mjs"\n\n[files]\n"./old.py" = "old.py"\n\n[js_modules.main]\n'
        '"./a.js" = "a"\n'
    )
    files = {"./engine/a.py": "engine/a.py", "./engine/b.py": "engine/b.py"}

    assert check.rewrite(config, files) is True
    assert check.rewrite(config, files) is False

    data = tomllib.loads(config.read_text())
    assert data["files"] == files
    assert data["interpreter"] == "x.mjs"
    assert data["js_modules"] == {"main": {"./a.js": "a"}}


def test_rewrite_appends_a_missing_files_table(tmp_path):
    config = tmp_path / "pyscript.toml"
    config.write_text('interpreter = "x.mjs"\n')

    assert check.rewrite(config, {"./web/a.py": "web/a.py"}) is True
    assert tomllib.loads(config.read_text())["files"] == {"./web/a.py": "web/a.py"}


def test_expected_files_skips_the_entry_script_and_caches(tmp_path):
    names = (
        "engine/__init__.py", "engine/__pycache__/x.py", "engine/__pycache__/x.cpython-311.pyc",
        "engine/solver/data/winnable-spider-1.txt", "engine/rules/__pycache__/y.pyc",
        "engine/rules/cards.py", "engine/.x.swp",
        "web/main.py", "web/ui.py", "web/table/table.js",
    )
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")

    assert check.expected_files(tmp_path) == {
        "./engine/__init__.py": "engine/__init__.py",
        "./engine/rules/cards.py": "engine/rules/cards.py",
        "./web/ui.py": "web/ui.py",
    }
    # The solver's files (its lists of deals too) come after the first table.
    assert check.expected_later_files(tmp_path) == {
        "./engine/solver/data/winnable-spider-1.txt": "engine/solver/data/winnable-spider-1.txt",
    }


def test_the_solver_is_listed_apart_from_the_files_pyscript_copies():
    first, later = check.listed_files(), check.listed_files(table=check.LATER_TABLE)
    assert not [dst for dst in first.values() if dst.startswith("engine/solver/")]
    assert "./engine/solver/__init__.py" in later
    assert "./engine/solver/data/rated-klondike.txt" in later
    assert all(dst.startswith("engine/solver/") for dst in later.values())


def test_rewrite_writes_both_tables(tmp_path):
    config = tmp_path / "pyscript.toml"
    config.write_text('interpreter = "x.mjs"\n\n[files]\n"./old.py" = "old.py"\n')
    files = {"./engine/a.py": "engine/a.py"}
    later = {"./engine/solver/b.py": "engine/solver/b.py"}

    assert check.rewrite(config, files, later) is True
    assert check.rewrite(config, files, later) is False
    data = tomllib.loads(config.read_text())
    assert data["files"] == files and data[check.LATER_TABLE] == later
