"""The live verdict and the way back to a winnable position, in CPython (web/desk.py).

Every render payload says what is known of the position in play ("verdict": "won",
"lost", "unknown" or None while unsearched); the background watch settles it and, on a
lost position, walks back through the line of play, newest first, to the latest
position the solver proves winnable; the "rewind" intent undoes back to it. Everything
is checked against engine.solve on small Beleaguered Castle positions (the solver
settles each in a few hundred positions at most, so a budget never decides).
"""

from __future__ import annotations

import pytest

import engine
from engine import Move
from tests.web.test_table_solver import CountingSolver, make_table, watch
from web import solving

# Beleaguered Castle deal 15 and five moves from it: the positions after 0, 1 and 2 of
# them the solver wins, the third (t7-t1) loses it (checked below, move by move).
DEAL = 15
MOVES = [Move("t1", "t3"), Move("t0", "t3"), Move("t7", "t1"), Move("t0", "t6"),
         Move("t4", "t2")]
LAST_WINNABLE = 2
# Beleaguered Castle deal 2 cannot be won from its very start.
LOST_DEAL = 2
# A winnable Castle deal that is not on the shipped list (its win takes tens of thousands
# of positions).
UNLISTED = 9
DAY_DATE = "2026-12-01"


@pytest.fixture
def counting(monkeypatch):
    CountingSolver.started = 0
    monkeypatch.setattr(solving.engine, "Solver", CountingSolver)
    return CountingSolver


def solved(game: engine.Game) -> str:
    """The solver's answer on ``game``'s position (a generous budget: never "unknown")."""
    result = engine.solve(game, budget_ms=60_000, max_nodes=50_000).result
    assert result in ("won", "lost")
    return result


def positions() -> list[engine.Game]:
    """The games after 0, 1, ... len(MOVES) moves of deal DEAL."""
    game = engine.new_game("beleaguered-castle", DEAL)
    games = [game.copy()]
    for move in MOVES:
        game.play(move)
        games.append(game.copy())
    return games


def play(table, moves: list[Move]) -> dict:
    payload = {}
    for move in moves:
        payload = table.handle("play", {"src": move.src, "dst": move.dst, "count": move.count})
        assert payload["event"] == "move"
    return payload


def dealt(seed: int = DEAL):
    table = make_table()
    table.start(f"?game=beleaguered-castle&deal={seed}")
    return table


def test_the_chosen_line_loses_after_its_third_move():
    answers = [solved(game) for game in positions()]
    assert answers == ["won"] * (LAST_WINNABLE + 1) + ["lost"] * (len(MOVES) - LAST_WINNABLE)
    assert all(game.status == "playing" for game in positions())  # moves are left


def test_the_verdict_follows_the_solver_after_every_move():
    table = dealt()
    assert table.handle("state")["verdict"] is None  # not searched yet: nothing claimed
    for n, game in enumerate(positions()):
        if n:
            assert play(table, [MOVES[n - 1]])["move_count"] == n
        answer = watch(table)
        assert answer["verdict"] == solved(game), n
        assert table.handle("state")["verdict"] == answer["verdict"]
        assert answer["unwinnable"] is (answer["verdict"] == "lost")


def test_a_followed_winning_line_makes_the_next_positions_winnable_at_once(counting):
    table = dealt()
    assert watch(table)["verdict"] == "won"
    line = table.desk.line.moves
    assert counting.started == 1
    for n in range(1, 8):
        payload = play(table, [line[n - 1]])
        assert payload["verdict"] == "won"  # in the move's own render: no "thinking"
    assert counting.started == 1


def test_positions_after_a_proven_loss_are_lost_without_a_search(counting):
    table = dealt()
    play(table, MOVES[:LAST_WINNABLE + 1])
    assert watch(table)["verdict"] == "lost"
    started = counting.started
    table.desk.rewind_budget_ms = 0.0  # no walk back: only the verdict is under test
    payload = play(table, MOVES[LAST_WINNABLE + 1:])
    assert payload["verdict"] == "lost" and payload["unwinnable"] is True
    assert watch(table)["verdict"] == "lost"
    assert counting.started == started


def test_an_undo_from_a_winnable_position_is_winnable_without_a_search(counting):
    table = dealt()
    play(table, MOVES[:2])  # quickly: nothing searched on the way
    assert watch(table)["verdict"] == "won" and counting.started == 1
    for _ in range(2):
        assert table.handle("undo")["verdict"] == "won"  # it leads to a winnable one
    assert counting.started == 1


def test_an_unknown_verdict_is_never_a_loss():
    table = make_table()
    table.start("?game=spider-4&deal=1")
    table.desk.watch_max_nodes = 200  # far too few for this deal
    answer = watch(table)
    assert answer["verdict"] == "unknown"
    assert answer["unwinnable"] is False and answer["rewind"] is None


def test_the_walk_back_finds_the_latest_winnable_position():
    table = dealt()
    payload = play(table, MOVES)
    assert payload["verdict"] is None and payload["rewind"] is None  # not searched yet
    answer = watch(table)
    back = len(MOVES) - LAST_WINNABLE
    assert answer["verdict"] == "lost"
    assert answer["rewind"] == {"looking": False, "back": back}
    games = positions()
    assert solved(games[-1 - back]) == "won"
    assert all(solved(game) == "lost" for game in games[-back:])  # none later is winnable


def test_the_walk_back_is_shown_as_looking_until_it_ends():
    table = dealt()
    play(table, MOVES)
    table.desk.watch_slice_ms = 1.0
    seen = [table.handle("watch", {"ms": 1})["rewind"]]
    while not seen[-1] or seen[-1]["looking"]:
        seen.append(table.handle("watch", {"ms": 1})["rewind"])
        assert len(seen) < 10_000
    assert {"looking": True, "back": 0} in seen
    assert seen[-1] == {"looking": False, "back": len(MOVES) - LAST_WINNABLE}


def test_the_walk_back_searches_newest_first_and_stops_at_the_first_win(counting):
    table = dealt()
    play(table, MOVES)
    watch(table)
    # The position in play and each one back to the winnable one: one search each.
    assert counting.started == len(MOVES) - LAST_WINNABLE + 1
    games = positions()
    for game in games[1:LAST_WINNABLE]:  # older than the one found: never searched
        assert table.desk.known(game.state) is None
    assert table.desk.known(games[0].state) == "won"  # a listed deal's start: proven ahead


def test_a_listed_deal_reads_winnable_where_the_watch_alone_cannot_tell():
    """A deal on the winnable list was won by a search far longer than the watch's: the
    start of a Hard one says "Winnable", not "Not sure yet". A deal off the list that
    the watch leaves undecided stays unknown."""
    assert DEAL in engine.winnable_deals("beleaguered-castle")
    assert UNLISTED not in engine.winnable_deals("beleaguered-castle")
    for seed, verdict in ((DEAL, "won"), (UNLISTED, "unknown")):
        table = dealt(seed)
        table.desk.watch_max_nodes = 10  # too few for either deal's win
        assert watch(table)["verdict"] == verdict
        assert table.desk.line is None
        assert table.desk.verdicts.get(table.desk.key(table.game.state)) == "unknown"
        assert table.handle("hint")["hint_proven"] is False


def test_a_listed_deal_is_winnable_at_once_and_still_searched_for_its_line(counting):
    table = dealt()
    answers = [table.handle("watch", {"ms": 1})]
    while not answers[-1]["done"]:
        answers.append(table.handle("watch", {"ms": 1}))
        assert len(answers) < 10_000
    assert len(answers) > 1 and all(a["verdict"] == "won" for a in answers)
    assert counting.started == 1 and table.desk.line is not None
    assert table.handle("hint")["hint_proven"] is True  # from the line the watch found


def test_the_walk_back_may_end_at_the_start_of_a_listed_deal():
    table = dealt()
    play(table, MOVES)
    for game in positions()[:LAST_WINNABLE + 1]:  # every earlier search left undecided
        table.desk.verdicts.put(table.desk.key(game.state), "unknown")
    assert watch(table)["rewind"] == {"looking": False, "back": len(MOVES)}
    assert table.handle("rewind")["move_count"] == 0


def test_a_daily_deal_reads_winnable_from_its_start():
    table = make_table()
    table.start("")
    payload = table.handle("daily", {"variant": "klondike", "date": DAY_DATE})
    assert payload["daily"] == DAY_DATE
    assert table.game.seed not in engine.winnable_deals("klondike")  # the daily proves it
    table.desk.watch_max_nodes = 1
    assert watch(table)["verdict"] == "won" and table.desk.line is None
    move = engine.hint(table.game)
    played = table.handle("play", {"src": move.src, "dst": move.dst, "count": move.count})
    assert played["event"] == "move" and played["verdict"] is None  # past the start
    assert table.handle("restart")["verdict"] == "won"


def test_rewind_undoes_to_the_position_found_and_redo_plays_the_moves_again():
    table = dealt()
    play(table, MOVES)
    watch(table)
    back = len(MOVES) - LAST_WINNABLE
    payload = table.handle("rewind")
    assert payload["event"] == "rewind" and payload["move_count"] == LAST_WINNABLE
    assert payload["announce"] == f"Back {back} moves: this position can be won."
    assert table.game.state == positions()[LAST_WINNABLE].state
    assert payload["verdict"] == "won" and payload["unwinnable"] is False
    assert payload["rewind"] is None and payload["can_redo"] is True
    for n in range(1, back + 1):  # the undone moves come back one redo at a time
        redone = table.handle("redo")
        assert redone["move_count"] == LAST_WINNABLE + n
        assert engine.Move(*redone["move"]) == MOVES[LAST_WINNABLE + n - 1]
        assert redone["verdict"] == "lost"  # remembered, not searched again
    assert table.handle("redo")["event"] == "none"
    assert table.handle("undo")["move_count"] == len(MOVES) - 1


def test_rewind_after_a_single_losing_move_says_one_move():
    table = dealt()
    play(table, MOVES[:LAST_WINNABLE + 1])
    assert watch(table)["rewind"] == {"looking": False, "back": 1}
    assert table.handle("rewind")["announce"] == "Back 1 move: this position can be won."


def test_a_position_left_undecided_is_passed_on_the_way_back():
    table = dealt()
    play(table, MOVES)
    games = positions()
    table.desk.verdicts.put(table.desk.key(games[LAST_WINNABLE].state), "unknown")  # undecided
    assert watch(table)["rewind"] == {"looking": False, "back": len(MOVES) - 1}
    assert table.handle("rewind")["move_count"] == 1
    assert solved(table.game) == "won"


def test_no_way_back_on_a_deal_lost_from_the_start():
    table = dealt(LOST_DEAL)
    assert solved(engine.new_game("beleaguered-castle", LOST_DEAL)) == "lost"
    answer = watch(table)
    assert answer["verdict"] == "lost" and answer["rewind"] == {"looking": False, "back": 0}
    move = table.game.legal_moves()[0]
    payload = play(table, [move])
    assert payload["verdict"] == "lost"  # after a proven loss: lost at once
    assert watch(table)["rewind"] == {"looking": False, "back": 0}
    refused = table.handle("rewind")
    assert refused["event"] == "illegal" and refused["move_count"] == 1


def test_rewind_on_a_winnable_position_changes_nothing():
    table = dealt()
    watch(table)
    refused = table.handle("rewind")
    assert refused["event"] == "illegal" and refused["move_count"] == 0


def test_the_walk_back_gives_up_when_its_budget_is_spent():
    table = dealt()
    play(table, MOVES)
    table.desk.rewind_budget_ms = 0.0
    assert watch(table)["rewind"] == {"looking": False, "back": 0}


def test_a_move_during_the_walk_back_drops_it():
    table = dealt()
    play(table, MOVES)
    table.desk.watch_slice_ms = 1.0
    while table.desk.look_back is None:
        table.handle("watch", {"ms": 1})
    table.handle("undo")
    assert table.desk.look_back is None


def test_no_verdict_once_the_game_is_over():
    table = make_table()
    table.start("")
    rows = [["TS", "KH"], ["TH", "KS"], ["TD", "KC"], ["TC", "KD"],
            ["QS", "JH"], ["QH", "JS"], ["QD", "JC"], ["QC", "JD"]]
    piles = {f"t{i}": row for i, row in enumerate(rows)}
    piles.update({f"f{i}": [r + s for r in "A23456789"] for i, s in enumerate("SHDC")})
    table.adopt(engine.from_position("beleaguered-castle", piles))
    assert table.game.status == "lost"
    answer = watch(table)
    assert answer["verdict"] is None and answer["rewind"] is None


def test_a_verdict_belongs_to_its_variant(counting):
    """Spider and relaxed Spider deal alike: one's verdict and line are not the other's."""
    table = make_table()
    table.start("?game=spider-relaxed-1&deal=5")
    assert watch(table)["verdict"] == "won" and counting.started == 1
    payload = table.handle("new", {"variant": "spider-1", "seed": 5})
    assert table.game.state == engine.new_game("spider-relaxed-1", 5).state
    assert payload["verdict"] is None  # not searched under these rules yet
    assert watch(table)["verdict"] == "won" and counting.started == 2


def test_the_same_deal_dealt_again_starts_on_its_winning_line(counting):
    table = dealt()
    assert watch(table)["verdict"] == "won"
    line = table.desk.line.moves
    assert table.handle("restart")["verdict"] == "won"
    assert play(table, line[:3])["verdict"] == "won"
    assert counting.started == 1


def test_moves_back_count_as_the_players_undo_goes():
    """With safe cards going home by themselves, the fifth move sends the ace of spades
    home too: one undo takes both back, so it is still "3 moves back" (4 engine moves)."""
    table = dealt()
    table.handle("settings", {"auto_move": True})
    payload = play(table, MOVES)
    assert payload["move_count"] == len(MOVES) + 1  # t4-f0 went home after t4-t2
    assert watch(table)["rewind"] == {"looking": False, "back": 3}
    rewound = table.handle("rewind")
    assert rewound["move_count"] == LAST_WINNABLE
    assert rewound["announce"] == "Back 3 moves: this position can be won."
    for _ in range(3):  # three redos, the last one the move and its card home
        table.handle("redo")
    assert table.game.move_count == len(MOVES) + 1
    assert table.handle("state")["verdict"] == "lost"


def test_the_line_of_play_is_read_only_where_it_can_say_something():
    """A long game pays for no walk through its past while nothing of it is known lost,
    nor through a redo line it does not have."""
    game = positions()[-1]
    asked = []

    def known(state):
        asked.append(state)
        return None

    assert solving.implied(game, known, any_lost=False) is None and asked == []
    assert solving.implied(game, known, any_lost=True) is None
    assert len(asked) == len(MOVES)  # every earlier position, once
    game.undo()
    asked.clear()
    assert solving.implied(game, known, any_lost=False) is None and len(asked) == 1
