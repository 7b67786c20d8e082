"""Autosave, statistics and share links through the table's controller, in CPython
(docs/rules/play-controls.md §8 autosave, §9 share links, §11 statistics: an abandoned
game counts as a loss; the undo count is recorded, never a penalty)."""

from __future__ import annotations

import json

import engine
from tests.web.fakes import HandClock
from web.controller import Table
from web.storage import GAME, PREFIX, MemoryBackend, Storage

ROOT = PREFIX + "/"  # the keys of the app served at the site's root

RANKS = "A23456789TJQK"


class RefusingBackend(MemoryBackend):
    """localStorage when the quota is full or storage is refused: every write throws."""

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        raise RuntimeError("QuotaExceededError")


def table(backend=None, clock=None) -> Table:
    return Table(Storage(backend if backend is not None else MemoryBackend()),
                 now=clock or HandClock())


def first_moves(t: Table, n: int) -> None:
    for _ in range(n):
        move = next(m for m in t.game.legal_moves())
        t.play(move)


def nearly_won_klondike() -> engine.Game:
    """Klondike with every card home but the king of clubs (docs/rules/klondike.md §8)."""
    found = {f"f{i}": [r + s for r in RANKS] for i, s in enumerate("SHDC")}
    found["f3"] = found["f3"][:-1]
    return engine.from_position("klondike", dict(found, t0=["KC"]))


def test_autosave_restores_the_exact_game_with_undo_and_redo_lines():
    backend = MemoryBackend()
    t = table(backend)
    t.start("?game=spider-2&deal=77")
    first_moves(t, 4)
    t.handle("undo")
    t.handle("undo")
    before = t.game.record()
    again = table(backend)
    payload = again.start("")
    assert again.game.record() == before
    assert payload["can_redo"] and payload["can_undo"]
    again.handle("redo")
    assert again.game.move_count == before["cursor"] + 1


def test_every_stored_value_carries_its_schema_version():
    backend = MemoryBackend()
    t = table(backend)
    t.start("")
    first_moves(t, 1)
    t.handle("settings", {"tap": "select"})
    for key in (ROOT + "game", ROOT + "game.0", ROOT + "settings"):
        assert json.loads(backend.items[key])["schema"] == 1


def test_first_build_values_without_an_envelope_are_migrated():
    backend = MemoryBackend()
    game = engine.new_game("klondike", 5)
    game.play(game.legal_moves()[0])
    backend.items[PREFIX + GAME] = json.dumps({"record": game.record(), "elapsed_ms": 4000})
    t = table(backend)
    payload = t.start("")
    assert t.game.record() == game.record() and payload["elapsed_ms"] == 4000
    assert "notices" not in payload


def test_unknown_version_or_corrupt_game_is_kept_aside_and_a_fresh_game_starts():
    for raw, words in ((json.dumps({"schema": 9, "record": {}}), "newer version"),
                       ("{not json", "not JSON"),
                       (json.dumps({"schema": 1, "record": {"variant": "spider-1", "seed": 1,
                                                           "moves": ["t9-t0:13"], "cursor": 1}}),
                        "cannot be played")):
        backend = MemoryBackend()
        backend.items[ROOT + GAME] = raw
        t = table(backend)
        payload = t.start("")
        [notice] = payload["notices"]
        assert words in notice["text"] and notice["title"] == "Saved data could not be read"
        assert t.game.move_count == 0
        assert t.storage.damaged_export().count(json.dumps(raw)[1:-1]) == 1


def test_storage_that_throws_on_write_lets_play_go_on_and_says_so_once():
    t = table(RefusingBackend())
    payload = t.start("")
    assert "will not be kept" in payload["notices"][0]["text"]
    first_moves(t, 2)
    payload = t.handle("undo")
    assert payload["event"] == "undo" and "notices" not in payload


def test_abandoned_game_with_a_move_counts_as_a_loss_and_an_untouched_one_does_not():
    t = table()
    t.start("?game=klondike&deal=3")
    assert t.render("none")["in_progress"] is False
    t.handle("new", {"variant": "klondike", "seed": 4})
    assert t.stats.stats.of("klondike").played == 0
    first_moves(t, 1)
    assert t.render("none")["in_progress"] is True
    t.handle("new", {"variant": "klondike", "seed": 5})
    vs = t.stats.stats.of("klondike")
    assert (vs.played, vs.lost, vs.won) == (1, 1, 0)
    assert vs.recent[-1].deal == 4


def test_a_win_is_counted_once_with_time_moves_and_undos():
    clock = HandClock()
    t = table(clock=clock)
    t.start("")
    t.adopt(nearly_won_klondike())
    t.handle("undo")  # nothing to undo: not an undo
    clock.t += 1
    t.handle("play", {"src": "t0", "dst": "f3"})
    clock.t += 60
    assert t.game.status == "won"
    t.handle("undo")
    t.handle("redo")
    vs = t.stats.stats.of("klondike")
    assert (vs.played, vs.won, vs.streak) == (1, 1, 1)
    assert vs.fewest_moves == 1 and vs.best_time_ms == 0
    t.handle("new", {})  # a won game is not a loss when left
    assert t.stats.stats.of("klondike").lost == 0


def test_statistics_survive_a_reload_and_can_be_exported_and_imported():
    backend = MemoryBackend()
    t = table(backend)
    t.start("?game=doublets&deal=8")
    first_moves(t, 1)
    t.handle("new", {"variant": "doublets", "seed": 9})
    again = table(backend)
    again.start("")
    view = again.handle("stats", {"variant": "doublets"})
    assert dict(view["rows"])["Lost"] == "1" and "<svg" in view["chart"]
    exported = again.handle("stats_export", {"now": "2030-01-02T03:04:05Z"})
    assert exported["filename"] == "pocket-patience-stats-2030-01-02.json"
    again.handle("stats_reset", {"everything": True})
    assert again.handle("stats", {"variant": "doublets"})["played"] == 0
    answer = again.handle("stats_import", {"text": exported["text"], "variant": "doublets"})
    assert answer["ok"] and answer["played"] == 1
    bad = again.handle("stats_import", {"text": "{}", "variant": "doublets"})
    assert not bad["ok"] and "Nothing was imported" in bad["message"] and bad["played"] == 1


def test_a_link_waits_for_consent_while_a_game_is_in_progress():
    backend = MemoryBackend()
    t = table(backend)
    t.start("?game=spider-1&deal=10")
    first_moves(t, 2)
    saved = t.game.record()
    other = table(backend)
    payload = other.start("?game=klondike&deal=99")
    assert other.game.record() == saved
    assert payload["link"] == {"variant": "klondike", "deal": 99, "title": "Klondike"}
    other.handle("new", {"variant": "klondike", "seed": 99})  # the player agreed
    assert other.game.seed == 99 and other.stats.stats.of("spider-1").lost == 1


def test_a_bad_link_opens_nothing_and_leaves_game_and_statistics_alone():
    backend = MemoryBackend()
    t = table(backend)
    t.start("?game=spider-1&deal=10")
    first_moves(t, 2)
    saved, stats_before = t.game.record(), backend.items.get(ROOT + "stats")
    for query in ("?game=nope&deal=1", "?game=klondike&deal=0", "?game=klondike&deal=x1"):
        other = table(backend)
        payload = other.start(query)
        assert other.game.record() == saved
        assert "Your current game is still here" in payload["notices"][0]["text"]
        assert backend.items.get(ROOT + "stats") == stats_before


def test_share_link_names_the_deal_on_the_table():
    t = table()
    t.start("?game=spider-relaxed-4&deal=4294967295")
    answer = t.handle("share", {"page": "https://h.example/pp/index.html?game=x#y"})
    assert answer["url"] == "https://h.example/pp/?game=spider-relaxed-4&deal=4294967295"
