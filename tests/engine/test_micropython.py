"""The rules engine runs unchanged under MicroPython and plays exactly as in CPython.

MicroPython (the WebAssembly build vendor/pyscript loads, pinned in package.json's
dependencies, installed by `npm ci`) can draw the first table before Pyodide has
loaded (docs/architecture.md §8), so engine/__init__.py and engine/rules must run there as
they are. tools/micropython.mjs runs MicroPython under Node with those files copied from
this repository; the same program (PLAY below) then runs in both interpreters: it deals
every variant with several deal numbers (the largest too, beyond MicroPython's 31-bit
small ints), plays a deterministic line of moves through the move texts, undoes and
redoes, asks for hints, safe moves and finishes, replays the record, sets up positions and
reads bad input. Everything it saw must be equal, in order. Anything engine/rules uses that
MicroPython lacks fails here: as an import error, or as a difference.
"""

import json
import re
from pathlib import Path

import pytest

from engine.rules.variants import DEAL_MAX
from tools.micropython import PACKAGE, last_line

ROOT = Path(__file__).resolve().parents[2]
RULES = sorted(p.stem for p in (ROOT / "engine" / "rules").glob("*.py"))
SEEDS = (1, 7, 123456, DEAL_MAX)
MOVES = 80  # per deal: 9 variants x 4 deals, about 2,800 moves in all

# Runs in both interpreters, so it keeps to what both run (no typing, no zip(strict=)...).
PLAY = '''
import engine
from engine.rules.variants import REGISTRY


def texts(moves):
    return None if moves is None else [str(m) for m in moves]


def error(call, *args):
    """The class of the exception ``call`` raises (messages may differ: repr of non-ASCII
    text), or what it returns."""
    try:
        return ["ok", str(call(*args))]
    except Exception as exc:
        return ["raised", type(exc).__name__, isinstance(exc, ValueError)]


def play(variant, seed, moves):
    game = engine.new_game(variant, seed)
    seen = [[list(map(list, game.state.piles)), game.state.passes]]
    for i in range(moves):
        if game.status != "playing":
            break
        legal = game.legal_moves()
        move = sorted(legal, key=str)[(7 * i + seed) % len(legal)]
        step = {"legal": texts(legal), "move": str(move)}
        game.play(engine.parse_move(game, str(move)))
        if i % 5 == 0:
            step["hint"] = str(engine.hint(game))
            step["safe"] = texts(engine.safe_moves(game))
            step["finish"] = texts(engine.finish_moves(game))
            step["position"] = game.position()
        if i % 11 == 3:
            before = game.state
            step["undo"] = [game.undo(), game.can_redo, game.redo(), game.state == before]
        step["state"] = [list(map(list, game.state.piles)), game.state.passes]
        step["status"] = [game.status, game.move_count, game.can_undo, game.can_redo]
        seen.append(step)
    record = game.record()
    again = engine.replay(record)
    other = game.copy()
    seen.append({"record": record, "replayed": again.position() == game.position(),
                 "line": texts(game.line), "undo_count": game.undo_count, "repr": repr(game),
                 "header": game.header(), "copy": [other.undo(), other.state == game.state,
                                                   other.position(), game.can_undo],
                 "not a move": error(game.play, "t0-t1")})
    return seen


def setups():
    home = {}
    for i in range(1, 4):
        home["f" + str(i)] = [r + "SHDC"[i] for r in "A23456789TJQK"]
    spades = [r.lower() + "s" for r in "KQJT98765432"]
    out = []
    game = engine.from_position("klondike", dict(home, t0=["AS"], stock=spades))
    out.append([texts(engine.finish_moves(game)), engine.play_finish(game), game.status,
                game.position()])
    game = engine.from_position("klondike", {"t0": ["4H"], "t1": ["AS"], "t2": ["2S"]})
    out.append(texts(engine.safe_moves(game)))
    game = engine.from_position("beleaguered-castle", {"t0": ["2S"], "f0": ["AS"]})
    out.append([texts(game.legal_moves()), texts(engine.safe_moves(game)), game.status])
    game = engine.from_position("doublets", {"r0": ["2S"], "f0": ["AH"]}, passes=2)
    out.append([texts(game.legal_moves()), game.position()])
    bad = [("klondike", {"t0": ["AS", "AS"]}, 0), ("klondike", {"t9": []}, 0),
           ("klondike", {"t0": ["XX"]}, 0), ("doublets", {"f0": []}, 3),
           ("spider-1", {"stock": ["KS"]}, 0), ("beleaguered-castle", {"f0": ["2S"]}, 0)]
    for variant, piles, passes in bad:
        out.append(error(engine.from_position, variant, piles, passes))
    game = engine.new_game("spider-2", 5)
    for text in ("t0-t1", "t0-t1:2", "t0-t1:0", "t0-t1:x", "t0-t1:\\u00b2", "t0-t1: 2",
                 "t0", "zz-t1", "stock-tableau:10", "", "t0-t1:1.0"):
        out.append(error(engine.parse_move, game, text))
    for variant, seed in (("klondike", 0), ("nope", 1), ("klondike", True), ("doublets", 2**32)):
        out.append(error(engine.new_game, variant, seed))
    for record in ({}, {"variant": "klondike", "seed": 1, "moves": ["t0-t9"], "cursor": 0}):
        out.append(error(engine.replay, record))
    out.append([[engine.card_name(c), engine.card_text(c)] for c in (1, 65, 28, 61, 45)])
    for text in ("QH", "qh", "1S", "", None):
        out.append(error(engine.parse_card, text))
    out.append([[v.id, v.title, v.family, list(map(list, v.roles)), list(v.rules.pile_ids)]
                for v in REGISTRY])
    return out


def run(rules, variants, seeds, moves):
    for name in rules:
        __import__("engine.rules." + name)
    out = {"setups": setups(), "deals": []}
    for variant in variants:
        for seed in seeds:
            out["deals"].append([variant, seed, play(variant, seed, moves)])
    return out
'''


def cpython(variants: tuple[str, ...]) -> dict:
    """PLAY run in this CPython, through JSON as MicroPython's output is."""
    namespace: dict = {}
    exec(compile(PLAY, "PLAY", "exec"), namespace)
    return json.loads(json.dumps(namespace["run"](RULES, variants, SEEDS, MOVES)))


def micropython(tmp_path: Path, variants: tuple[str, ...]) -> dict:
    """PLAY run under MicroPython in Node (tools/micropython.py)."""
    return json.loads(last_line(PLAY + "\nimport json\nprint(json.dumps(run("
                                f"{RULES!r}, {variants!r}, {SEEDS!r}, {MOVES!r})))\n",
                                tmp_path, "play.py"))


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    """The program's output in MicroPython and in CPython, every variant."""
    import engine

    variants = tuple(engine.VARIANTS)
    return micropython(tmp_path_factory.mktemp("mpy"), variants), cpython(variants)


def test_every_deal_plays_the_same_under_micropython(both: tuple[dict, dict]) -> None:
    mpy, cpy = both
    assert [d[:2] for d in mpy["deals"]] == [d[:2] for d in cpy["deals"]]
    for (variant, seed, mine), (_, _, theirs) in zip(mpy["deals"], cpy["deals"], strict=True):
        assert mine[0] == theirs[0], f"{variant} deal {seed}: another opening position"
        for i, (a, b) in enumerate(zip(mine[1:], theirs[1:], strict=True)):
            assert a == b, f"{variant} deal {seed}, step {i + 1}: {a} != {b}"


def test_the_deals_were_played_for_real(both: tuple[dict, dict]) -> None:
    """The comparison above covers play, not just deals: many moves, hints and finishes."""
    _, cpy = both
    steps = [s for _, _, seen in cpy["deals"] for s in seen[1:-1]]
    assert len(steps) > 1500
    assert {s["status"][0] for s in steps} >= {"playing", "lost"}
    assert sum("undo" in s for s in steps) > 100
    assert sum(s.get("hint") not in (None, "None") for s in steps) > 100
    assert any(s.get("safe") for s in steps)
    assert sum(len(s["legal"]) for s in steps) > 5 * len(steps)
    moves = {s["move"] for s in steps}
    assert any(m.startswith("stock-") for m in moves) and any(":" in m for m in moves)


def test_set_up_positions_and_bad_input_behave_the_same(both: tuple[dict, dict]) -> None:
    mpy, cpy = both
    assert mpy["setups"] == cpy["setups"]
    finish = cpy["setups"][0]
    assert len(finish[0]) == 25 and finish[1] == 25 and finish[2] == "won"
    assert sum(s[0] == "raised" for s in cpy["setups"] if s and s[0] in ("ok", "raised")) >= 15


def test_the_pinned_micropython_is_the_one_pyscript_loads() -> None:
    """package.json pins the MicroPython that vendor/pyscript loads, and it is installed."""
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"][PACKAGE]
    cores = sorted((ROOT / "vendor" / "pyscript").glob("core-*.js"))
    if not cores:
        pytest.fail("vendor/pyscript is missing: run `make vendor` (`make test` runs it)")
    found = {m for core in cores for m in re.findall(
        r'type:"micropython",module:\(\w+="([^"]+)"\)', core.read_text())}
    assert found == {pinned}
    installed = ROOT / "node_modules" / PACKAGE / "package.json"
    if not installed.exists():
        pytest.fail(f"{installed.relative_to(ROOT)} is missing: run `npm ci`")
    assert json.loads(installed.read_text())["version"] == pinned


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The program's output under MicroPython importing the engine from the bytecode
    tools/mpy_build.py writes (no source in its file system), every variant."""
    import engine
    from tools.mpy_build import PACK, build

    tree = tmp_path_factory.mktemp("mpy-tree")
    written = build(tree)
    assert written and all(p.suffix == ".mpy" or p.name == PACK  # (the same, as one file)
                           for p in tree.rglob("*") if p.is_file())
    # (after the run: the package imports its rules' modules on first use)
    program = (PLAY + "\nimport json, sys\nseen = run(" + f"{RULES!r}, "
               f"{tuple(engine.VARIANTS)!r}, {SEEDS!r}, {MOVES!r})\n"
               "print(json.dumps([sys.modules['engine.rules.game'].__file__, seen]))\n")
    return json.loads(last_line(program, tmp_path_factory.mktemp("mpy-run"), "play.py",
                                tree=tree))


def test_the_precompiled_engine_plays_the_same(compiled: list, both: tuple[dict, dict]) -> None:
    """The page's MicroPython imports the engine as .mpy bytecode from mpy-cross: the
    bytecode loads (mpy-cross is the page's MicroPython version) and plays every deal as
    the source does in CPython."""
    origin, seen = compiled
    assert origin.endswith("engine/rules/game.mpy")
    assert seen == both[1]
