"""Game records: record() is plain JSON; replay(record) rebuilds the game exactly, and a
malformed or tampered record is a ValueError, never another error or a half-built game."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine import Move
from engine.rules.variants import DEAL_MAX
from tests.engine.helpers import PROPERTY, cards, full_run, run, snapshot

DEAL = Move("stock", "tableau", 10)


def _played() -> engine.Game:
    """spider-2 deal 5: three moves, one undone (a redo line), one undo counted."""
    game = engine.new_game("spider-2", 5)
    game.play(game.legal_moves()[0])
    game.play(DEAL)
    game.play(game.legal_moves()[-2])
    game.undo()
    return game


def _custom() -> engine.Game:
    game = engine.from_position("spider-1", {
        "t0": cards("4s") + run("KS", "2S"), "t1": ["AS"], "t2": cards("9s 5S")}, seed=9)
    game.play(Move("t1", "t0"))
    return game


def test_record_is_plain_json_with_the_documented_keys() -> None:
    game = _played()
    rec = game.record()
    assert json.loads(json.dumps(rec)) == rec
    assert rec["variant"] == "spider-2" and rec["seed"] == 5
    assert rec["moves"] == [str(m) for m in game.moves] + [rec["moves"][-1]]
    assert (rec["cursor"], len(rec["moves"]), rec["undo_count"]) == (2, 3, 1)
    assert rec["moves"][1] == "stock-tableau:10"
    assert "start" not in rec, "a dealt game is named by its variant and deal number"


@pytest.mark.parametrize("through_json", [False, True])
@pytest.mark.parametrize("make", [_played, _custom])
def test_replay_rebuilds_the_same_game(make, through_json: bool) -> None:
    """Same position, moves, cursor, counters, and the same undo/redo behaviour."""
    game = make()
    rec = game.record()
    again = engine.replay(json.loads(json.dumps(rec)) if through_json else rec)
    assert snapshot(again) == snapshot(game)
    for step in ("undo", "redo"):  # all the way back, then all the way forward, in step
        while True:
            done = getattr(game, step)()
            assert getattr(again, step)() == done
            assert snapshot(again) == snapshot(game)
            if not done:
                break


def test_custom_start_is_part_of_the_record() -> None:
    """A game built with from_position records its start position, then replays from it."""
    game = _custom()
    rec = game.record()
    assert rec["start"]["piles"]["t0"] == cards("4s") + run("KS", "2S")
    assert rec["start"]["passes"] == 0 and rec["seed"] == 9
    again = engine.replay(rec)
    assert again.position() == game.position() and again.position()["piles"]["f0"] == full_run("S")


def test_a_won_game_replays_as_won() -> None:
    game = engine.from_position("spider-1", {**{f"f{i}": full_run("S") for i in range(7)},
                                             "t0": run("KS", "2S"), "t1": ["AS"]})
    game.play(Move("t1", "t0"))
    again = engine.replay(game.record())
    assert again.status == "won" and again.position() == game.position()


def test_replay_leaves_the_record_untouched() -> None:
    rec = _played().record()
    kept = copy.deepcopy(rec)
    engine.replay(rec)
    assert rec == kept


# ---------------------------------------------------------------- malformed and tampered


def _set(key: str, value: Any):
    def change(rec: dict[str, Any]) -> None:
        rec[key] = value
    change.__name__ = f"{key}={value!r}"
    return change


def _drop(key: str):
    def change(rec: dict[str, Any]) -> None:
        del rec[key]
    change.__name__ = f"no {key}"
    return change


def _move(i: int, text: Any):
    def change(rec: dict[str, Any]) -> None:
        rec["moves"][i] = text
    change.__name__ = f"moves[{i}]={text!r}"
    return change


def _append(text: Any):
    def change(rec: dict[str, Any]) -> None:
        rec["moves"].append(text)
        rec["cursor"] = len(rec["moves"])
    change.__name__ = f"moves+[{text!r}]"
    return change


TAMPERINGS = [
    _drop("variant"), _set("variant", "spider-9"), _set("variant", None),
    _set("variant", ["spider-2"]), _set("variant", {"id": "spider-2"}), _set("variant", 2),
    _drop("seed"), _set("seed", 0), _set("seed", -5), _set("seed", DEAL_MAX + 1), _set("seed", "5"),
    _set("seed", 5.0), _set("seed", True), _set("seed", None), _set("seed", [5]),
    _drop("moves"), _set("moves", None), _set("moves", "t0-t1"), _set("moves", {"0": "t0-t1"}),
    _set("moves", [1, 2]), _move(0, ["t0", "t1"]), _move(0, None), _move(0, 3),
    _move(0, "garbage"), _move(0, "t0-zz"), _move(0, "stock-tableau:11"), _move(0, "t0-t0"),
    _move(1, "t0-t1:0"), _move(2, "t9-t9:99"), _append("f0-t0"), _append("t0"),
    _drop("cursor"), _set("cursor", -1), _set("cursor", 4), _set("cursor", 99),
    _set("cursor", "1"), _set("cursor", 1.0), _set("cursor", True), _set("cursor", None),
    _set("undo_count", -1), _set("undo_count", "1"), _set("undo_count", False),
    _set("undo_count", 0.5), _set("start", "t0"), _set("start", []), _set("start", {}),
    _set("start", {"piles": "t0"}), _set("start", {"piles": {"t0": ["ZZ"]}}),
    _set("start", {"piles": {"t0": "KS"}}), _set("start", {"piles": {"w9": []}}),
    _set("start", {"piles": {}, "passes": -1}), _set("start", {"piles": {}, "passes": "0"}),
    _set("start", {"piles": {}}),  # an empty table: the recorded moves are illegal there
]


@pytest.mark.parametrize("tamper", TAMPERINGS, ids=lambda t: t.__name__)
def test_tampered_record_is_a_value_error(tamper) -> None:
    rec = _played().record()
    tamper(rec)
    with pytest.raises(ValueError):
        engine.replay(rec)


@pytest.mark.parametrize("record", [None, [], "spider-2 5", 5, b"{}", json.dumps({"a": 1}), {}])
def test_a_record_that_is_no_object_is_a_value_error(record: Any) -> None:
    with pytest.raises(ValueError):
        engine.replay(record)


@pytest.mark.parametrize("tamper", [_drop("seed"), _set("seed", 0), _drop("variant"),
                                    _set("start", {"piles": {"t0": ["AS"]}})],
                         ids=lambda t: t.__name__)
def test_tampered_custom_record_is_a_value_error(tamper) -> None:
    rec = _custom().record()
    tamper(rec)
    with pytest.raises(ValueError):
        engine.replay(rec)


def test_moves_after_the_game_is_over_are_a_value_error() -> None:
    game = engine.from_position("spider-1", {**{f"f{i}": full_run("S") for i in range(7)},
                                             "t0": run("KS", "2S"), "t1": ["AS"]})
    game.play(Move("t1", "t0"))
    assert game.status == "won"
    rec = game.record()
    rec["moves"].append("t2-t3")
    rec["cursor"] = 2
    with pytest.raises(ValueError):
        engine.replay(rec)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2**33) | st.floats(allow_nan=False)
    | st.text(max_size=12) | st.sampled_from(["spider-1", "t0-t1", "stock-tableau:10", "KS"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=8)
KEYS = ["variant", "seed", "moves", "cursor", "undo_count", "start"]


@settings(PROPERTY, max_examples=5 * PROPERTY.max_examples)  # cheap: no playouts
@given(changes=st.dictionaries(st.sampled_from(KEYS), JSON, min_size=1, max_size=3),
       drops=st.sets(st.sampled_from(KEYS), max_size=2),
       extra_moves=st.lists(st.text(max_size=8) | st.sampled_from(["t0-t1", "t3-t5:2"]),
                            max_size=3))
def test_any_garbled_record_replays_or_is_a_value_error(
        changes: dict[str, Any], drops: set[str], extra_moves: list[str]) -> None:
    """Whatever a stored record has become, replay returns a game or raises ValueError."""
    rec = _played().record()
    rec.update(changes)
    for key in drops:
        rec.pop(key, None)
    if isinstance(rec.get("moves"), list):
        rec["moves"] = rec["moves"] + extra_moves
    try:
        game = engine.replay(rec)
    except ValueError:
        return
    assert game.status in ("playing", "won", "lost")
    assert engine.replay(game.record()).position() == game.position()
