"""Spider, docs/rules/spider.md: one test (or more) per numbered section and per row
of the edge-case table in §9. Test names start with the section they check:
``test_s4_...`` is §4, ``test_s9_row3_...`` the third row of the table.

Positions are built with engine.from_position: piles bottom to top, lower case face
down, unnamed piles empty.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine import IllegalMove, Move
from engine.rules.cards import card_text
from engine.rules.variants import DEAL_MAX, DEAL_MIN
from tests.engine.helpers import (
    PROPERTY,
    SPIDER_COLUMNS,
    cards,
    full_run,
    identities,
    pick,
    piles,
    playouts,
    run,
    snapshot,
    spider_apply,
    spider_moves,
    text_face_up,
)

STRICT = ("spider-1", "spider-2", "spider-4")
ALL_SPIDER = STRICT + ("spider-relaxed-1", "spider-relaxed-2", "spider-relaxed-4")
DEAL = Move("stock", "tableau", 10)
SEEDS = (1, 2, 777, 123456, DEAL_MAX)


def game_of(variant: str = "spider-4", **columns: list[str]) -> engine.Game:
    """A Spider game from keyword piles: ``game_of(t0=cards("kh QS"), stock=...)``."""
    return engine.from_position(variant, columns)


def filled(variant: str = "spider-4", **columns: list[str]) -> engine.Game:
    """Like game_of, but every column not named holds one face-up 2 of diamonds (so no
    column is empty and a deal is possible; a 2 takes only an Ace)."""
    for col in SPIDER_COLUMNS:
        columns.setdefault(col, ["2D"])
    return engine.from_position(variant, columns)


def assert_illegal(game: engine.Game, move: Move) -> None:
    """``move`` is not listed, and playing it raises IllegalMove and changes nothing."""
    assert move not in game.legal_moves()
    before = snapshot(game)
    with pytest.raises(IllegalMove):
        game.play(move)
    assert snapshot(game) == before


# ---------------------------------------------------------------- 1 and 8: objective, winning


def _seven_cleared() -> dict[str, list[str]]:
    return {f"f{i}": full_run("S") for i in range(7)}


@pytest.mark.parametrize("variant", ["spider-1", "spider-relaxed-1"])
def test_s1_s8_the_eighth_cleared_sequence_wins(variant: str) -> None:
    """§1 and §8: eight sequences cleared to the foundation win the game."""
    game = engine.from_position(variant, {
        **_seven_cleared(), "t0": run("KS", "2S"), "t1": cards("AS")})
    assert game.status == "playing" and game.position()["cleared"] == 7
    game.play(Move("t1", "t0"))
    pos = game.position()
    assert pos["status"] == game.status == "won"
    assert pos["cleared"] == 8 and pos["piles"]["f7"] == full_run("S")
    assert all(pos["piles"][c] == [] for c in SPIDER_COLUMNS)
    assert game.legal_moves() == []
    with pytest.raises(IllegalMove):
        game.play(Move("t0", "t1"))
    assert game.undo() and game.status == "playing", "a win can be undone too"


def test_s1_each_completed_sequence_moves_to_the_foundation() -> None:
    """§1: a completed same-suit K..A sequence leaves the tableau for a foundation."""
    game = game_of("spider-2", t0=run("KH", "2H"), t1=cards("AH"), t2=["9S"])
    game.play(Move("t1", "t0"))
    assert piles(game)["f0"] == full_run("H") and piles(game)["t0"] == []
    assert game.position()["cleared"] == 1 and game.status == "playing"


# ---------------------------------------------------------------- 2: deck and difficulty

EXPECTED_DECK = {
    1: Counter({r + "S": 8 for r in "A23456789TJQK"}),
    2: Counter({r + s: 4 for r in "A23456789TJQK" for s in "SH"}),
    4: Counter({r + s: 2 for r in "A23456789TJQK" for s in "SHDC"}),
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", ALL_SPIDER)
def test_s2_deck_of_each_difficulty(variant: str, seed: int) -> None:
    """§2: 104 cards; 1 suit = spades x8 per rank, 2 suits = spades and hearts x4,
    4 suits = every rank twice per suit."""
    game = engine.new_game(variant, seed)
    deck = identities(game)
    assert sum(deck.values()) == 104
    assert deck == EXPECTED_DECK[int(variant[-1])]


# ---------------------------------------------------------------- 3: tableau setup


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", ALL_SPIDER)
def test_s3_opening_layout(variant: str, seed: int) -> None:
    """§3: 54 cards in ten columns of 6,6,6,6,5,5,5,5,5,5; only the last (exposed)
    card of each column face up; 50 face-down cards in the stock; empty foundations; no
    waste pile."""
    game = engine.new_game(variant, seed)
    pos = game.position()
    cols = [pos["piles"][c] for c in SPIDER_COLUMNS]
    assert [len(c) for c in cols] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert sum(map(len, cols)) == 54
    for col in cols:
        assert [text_face_up(c) for c in col] == [False] * (len(col) - 1) + [True]
    stock = pos["piles"]["stock"]
    assert len(stock) == 50 and not any(text_face_up(c) for c in stock)
    assert all(pos["piles"][f"f{i}"] == [] for i in range(8))
    assert "waste" not in pos["piles"] and "waste" not in game.rules.pile_ids
    assert (pos["status"], pos["cleared"], pos["deals_left"]) == ("playing", 0, 5)


@pytest.mark.parametrize("variant", STRICT)
def test_s3_s6_the_stock_is_five_deals_of_ten(variant: str) -> None:
    """§3 and §6: the stock is five deals of ten; after the fifth it is empty and
    the game goes on with tableau moves only."""
    game = engine.new_game(variant, 31337)
    for left in (4, 3, 2, 1, 0):
        before = [len(piles(game)[c]) for c in SPIDER_COLUMNS]
        game.play(DEAL)
        assert [len(piles(game)[c]) for c in SPIDER_COLUMNS] == [n + 1 for n in before]
        assert len(piles(game)["stock"]) == 10 * left
        assert game.position()["deals_left"] == left
    assert DEAL not in game.legal_moves()
    assert game.status == "playing" and game.legal_moves(), "tableau moves remain"


# ---------------------------------------------------------------- 4: legal tableau moves


def test_s4_single_card_on_next_higher_rank_of_any_suit() -> None:
    """§4: any suit is allowed for a single card placed on the next-higher rank."""
    game = game_of(t0=cards("KH"), t1=cards("KS"), t2=cards("QS"), t3=cards("QD"))
    for src in ("t2", "t3"):
        for dst in ("t0", "t1"):
            assert Move(src, dst) in game.legal_moves()
    game.play(Move("t2", "t0"))
    assert piles(game)["t0"] == ["KH", "QS"] and piles(game)["t2"] == []


@pytest.mark.parametrize("target", ["AH", "TH", "JH", "KS"])
def test_s4_single_card_only_on_exactly_one_rank_higher(target: str) -> None:
    """§4: a Jack goes on a Queen only; not on a lower, equal or much higher card."""
    game = filled(t0=[target], t1=cards("JS"))
    assert_illegal(game, Move("t1", "t0"))


def test_s4_rules_example_picking_up_the_9_moves_9_8_7() -> None:
    """§4 example: hearts 10-9-8-7; picking up the 9 moves 9-8-7 onto a 10 elsewhere."""
    game = filled(t0=cards("TH 9H 8H 7H"), t1=cards("TS"))
    game.play(Move("t0", "t1", 3))
    assert piles(game)["t1"] == cards("TS 9H 8H 7H")
    assert piles(game)["t0"] == ["TH"]


def test_s4_rules_example_picking_up_the_8_moves_only_8_7() -> None:
    """§4 example: picking up the 8 moves only 8-7 (onto a 9)."""
    game = filled(t0=cards("TH 9H 8H 7H"), t1=cards("9C"))
    assert Move("t0", "t1", 2) in game.legal_moves()
    assert Move("t0", "t1", 3) not in game.legal_moves()
    game.play(Move("t0", "t1", 2))
    assert piles(game)["t1"] == cards("9C 8H 7H") and piles(game)["t0"] == cards("TH 9H")


def test_s4_alternating_suits_are_not_movable_as_a_unit() -> None:
    """§4: a group of two or more moves only as a same-suit descending run."""
    game = filled(t0=cards("TS 9H 8S 7H"), t1=cards("JD"), t2=cards("TC"), t3=cards("9D"),
                  t4=cards("8C"))
    for count, dst in ((4, "t1"), (3, "t2"), (2, "t3")):
        assert_illegal(game, Move("t0", dst, count))
    assert [m for m in game.legal_moves() if m.src == "t0"] == [Move("t0", "t4")]


def test_s4_partly_same_suit_group_moves_only_its_same_suit_part() -> None:
    """§4: the whole group must be one suit; 9S-8H-7H moves 8H-7H but not 9S-8H-7H."""
    game = filled(t0=cards("9S 8H 7H"), t1=cards("TD"), t2=cards("9C"))
    assert Move("t0", "t2", 2) in game.legal_moves()
    assert_illegal(game, Move("t0", "t1", 3))


def test_s4_card_or_group_moves_into_an_empty_column_regardless_of_rank() -> None:
    """§4: a card or valid group moves into an empty column, whatever its rank."""
    game = game_of(t0=cards("4d TH 9H 8H"), t1=cards("5C 3S"))
    for count in (1, 2, 3):
        assert Move("t0", "t5", count) in game.legal_moves()
    assert Move("t1", "t5") in game.legal_moves()
    game.play(Move("t0", "t5", 3))
    assert piles(game)["t5"] == cards("TH 9H 8H") and piles(game)["t0"] == ["4D"]


def test_s4_face_down_cards_never_move() -> None:
    """§4: only face-up cards move; a group may not include a face-down card."""
    game = game_of(t0=cards("th 9H"), t1=cards("JS"), t2=cards("kh"))
    assert_illegal(game, Move("t0", "t1", 2))
    assert_illegal(game, Move("t0", "t3", 2))
    assert not [m for m in game.legal_moves() if m.src == "t2"]


@pytest.mark.parametrize("variant", ["spider-4", "spider-relaxed-4"])
def test_s4_complete_move_list_of_a_small_position(variant: str) -> None:
    """§4: the exact legal moves of a position without empty columns or stock."""
    game = engine.from_position(variant, {
        "t0": cards("5d TH 9H 8H"), "t1": ["JS"], "t2": ["9C"], "t3": ["TC"],
        **{f"t{i}": ["2D"] for i in range(4, 10)}})
    assert set(game.legal_moves()) == {
        Move("t0", "t2"),        # 8H on 9C
        Move("t0", "t3", 2),     # 9H 8H on TC
        Move("t0", "t1", 3),     # TH 9H 8H on JS
        Move("t2", "t3"),        # 9C on TC
        Move("t3", "t1"),        # TC on JS
    }


# ---------------------------------------------------------------- 5: revealing face-down cards


def test_s5_exposed_face_down_card_flips_and_only_the_top_one() -> None:
    """§5: removing the last face-up card flips the next face-down card; the ones
    under it stay face down until it is moved."""
    game = game_of(t0=cards("as 7d 4c QH"), t1=["KS"])
    game.play(Move("t0", "t1"))
    assert piles(game)["t0"] == cards("as 7d 4C")
    game.play(Move("t0", "t2"))  # 4C to an empty column
    assert piles(game)["t0"] == cards("as 7D")


def test_s5_group_move_flips_the_card_under_the_group() -> None:
    """§5, after a group move."""
    game = game_of(t0=cards("jc 5s 9H 8H"), t1=["TS"])
    game.play(Move("t0", "t1", 2))
    assert piles(game)["t0"] == cards("jc 5S")


def test_s5_no_flip_when_the_exposed_card_is_already_face_up() -> None:
    """§5: only a face-down card is turned; a face-up card under the move stays as is."""
    game = game_of(t0=cards("5s JD 9H"), t1=["TS"])
    game.play(Move("t0", "t1"))
    assert piles(game)["t0"] == cards("5s JD")


def test_s5_moving_the_last_card_leaves_an_empty_column() -> None:
    game = game_of(t0=["9H"], t1=["TS"])
    game.play(Move("t0", "t1"))
    assert piles(game)["t0"] == []


# ---------------------------------------------------------------- 6: dealing from the stock

STOCK_TEXT = "ac 2c 3c 4c 5c 6c 7c 8c 9c tc"  # bottom .. top: tc is the top card


def test_s6_deal_puts_one_face_up_card_on_each_column_from_the_stock_top() -> None:
    """§6 and §11.3: one face-up card per column; t0 gets the stock's top card
    (the last in the list), t1 the next, and so on."""
    game = filled(t0=cards("9h KS"), stock=cards("qs js " + STOCK_TEXT))
    game.play(DEAL)
    got = piles(game)
    assert got["t0"] == cards("9h KS TC")
    assert [got[f"t{i}"][-1] for i in range(10)] == cards("TC 9C 8C 7C 6C 5C 4C 3C 2C AC")
    assert all(len(got[f"t{i}"]) == 2 for i in range(1, 10))
    assert got["stock"] == cards("qs js")


def test_s6_deal_text_is_stock_tableau_10() -> None:
    game = filled(stock=cards(STOCK_TEXT))
    assert engine.parse_move(game, "stock-tableau:10") == DEAL == game.legal_moves()[-1]
    assert str(DEAL) == "stock-tableau:10"


@pytest.mark.parametrize("empty", SPIDER_COLUMNS)
def test_s6_s9_row5_no_deal_while_a_column_is_empty(empty: str) -> None:
    """§6 and §9 row 5 (deal while a column is empty: not allowed)."""
    donor = "t1" if empty == "t0" else "t0"
    game = filled(stock=cards(STOCK_TEXT), **{empty: [], donor: cards("5h 6S")})
    assert_illegal(game, DEAL)
    game.play(Move(donor, empty))  # fill the column
    assert DEAL in game.legal_moves()


def test_s6_deal_is_legal_only_while_the_stock_holds_a_deal() -> None:
    """§6: a stock with fewer than ten cards holds no deal."""
    assert_illegal(filled(stock=cards("ac 2c 3c 4c 5c")), DEAL)
    assert_illegal(filled(), DEAL)


def test_s6_deal_can_go_on_any_card_whatever_its_rank() -> None:
    """§6: a deal covers every column's top card, rank and suit regardless."""
    game = filled(t0=cards("AH"), t1=cards("KS QS"), stock=cards("ks " + STOCK_TEXT[3:]))
    game.play(DEAL)
    assert piles(game)["t0"] == cards("AH TC") and piles(game)["t1"] == cards("KS QS 9C")


# ---------------------------------------------------------------- 7: completing a sequence


def test_s7_clear_after_a_move_and_the_exposed_card_flips() -> None:
    """§7: the clear is automatic and immediate; the card underneath flips face up."""
    game = game_of("spider-1", t0=cards("3s 5s") + run("KS", "2S"), t1=cards("9s AS"))
    game.play(Move("t1", "t0"))
    got = piles(game)
    assert got["f0"] == full_run("S")
    assert got["t0"] == cards("3s 5S")
    assert got["t1"] == ["9S"], "the source column flips too"
    assert game.position()["cleared"] == 1


def test_s7_clear_after_a_group_move() -> None:
    game = game_of("spider-4", t0=run("KD", "6D"), t1=cards("kc") + run("5D", "AD"))
    game.play(Move("t1", "t0", 5))
    assert piles(game)["f0"] == full_run("D")
    assert piles(game)["t0"] == [] and piles(game)["t1"] == ["KC"]


def test_s7_clear_after_a_deal() -> None:
    """§7: a deal can complete a sequence, which clears at once."""
    game = filled("spider-2", t0=cards("jh") + run("KH", "2H"),
                  stock=cards("2s 3s 4s 5s 6s 7s 8s 9s ts ah"))
    game.play(DEAL)
    got = piles(game)
    assert got["f0"] == full_run("H") and got["t0"] == ["JH"]
    assert got["t1"] == cards("2D TS")


def test_s7_a_deal_completing_several_sequences_clears_each_in_turn() -> None:
    """§7: more than one complete sequence from one deal: each clears, in column order."""
    game = filled("spider-4",
                  t2=run("KC", "2C"), t5=cards("9h") + run("KS", "2S"), t7=run("KH", "2H"),
                  stock=cards("5d 6d ah 8d as 9d 2c ac 3d 4d"))
    game.play(DEAL)
    got = piles(game)
    assert (got["f0"], got["f1"], got["f2"]) == (full_run("C"), full_run("S"), full_run("H"))
    assert got["f3"] == []
    assert (got["t2"], got["t5"], got["t7"]) == ([], ["9H"], [])
    assert game.position()["cleared"] == 3


def test_s7_mixed_suit_king_to_ace_does_not_clear() -> None:
    """§7: a mixed-suit sequence with the correct ranks does not clear."""
    mixed = cards("KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2H")
    game = game_of("spider-2", t0=mixed, t1=["AS"], t2=["AH"])
    game.play(Move("t1", "t0"))
    assert piles(game)["t0"] == mixed + ["AS"] and game.position()["cleared"] == 0
    assert piles(game)["f0"] == []
    game.undo()
    game.play(Move("t2", "t0"))  # same suit as the 2: still not all one suit
    assert len(piles(game)["t0"]) == 13 and game.position()["cleared"] == 0


def test_s7_clears_go_to_the_next_empty_foundation() -> None:
    game = game_of("spider-2", f0=full_run("S"), t0=run("KH", "2H"), t1=["AH"])
    game.play(Move("t1", "t0"))
    assert piles(game)["f0"] == full_run("S") and piles(game)["f1"] == full_run("H")


def test_s7_twelve_cards_do_not_clear() -> None:
    game = game_of("spider-1", t0=run("KS", "3S"), t1=["2S"])
    game.play(Move("t1", "t0"))
    assert piles(game)["t0"] == run("KS", "2S") and game.position()["cleared"] == 0


# ---------------------------------------------------------------- 8: winning and losing

DEAD_TOPS = cards("KS KH JS JH 9S 9H 7S 7H 5S 5H")  # no top is one rank below another


def test_s8_lost_when_no_tableau_move_and_no_deal() -> None:
    """§8: lost when no legal tableau move exists and no stock deal is available."""
    game = engine.from_position("spider-2", {f"t{i}": [t] for i, t in enumerate(DEAD_TOPS)})
    assert game.legal_moves() == [] and game.status == "lost"
    assert game.position()["status"] == "lost"
    with pytest.raises(IllegalMove):
        game.play(DEAL)


def test_s8_not_lost_while_a_deal_is_available() -> None:
    game = engine.from_position("spider-2", {
        **{f"t{i}": [t] for i, t in enumerate(DEAD_TOPS)}, "stock": cards(STOCK_TEXT)})
    assert game.legal_moves() == [DEAL] and game.status == "playing"


def test_s8_a_loss_can_be_undone() -> None:
    """§8: undo is unlimited, so a loss can be undone (here the deal that lost)."""
    game = engine.from_position("spider-2", {
        **{f"t{i}": ["2S"] for i in range(10)},
        "stock": [t.lower() for t in reversed(DEAD_TOPS)]})
    assert game.status == "playing"
    game.play(DEAL)
    assert [piles(game)[f"t{i}"][-1] for i in range(10)] == DEAD_TOPS
    assert game.status == "lost" and not game.legal_moves()
    assert game.undo()
    assert game.status == "playing" and game.legal_moves() == [DEAL]
    assert game.redo() and game.status == "lost"


# ---------------------------------------------------------------- 9: the edge-case table


def test_s9_row1_no_move_onto_a_face_down_card() -> None:
    """§9 row 1: move a card onto a face-down card -- not allowed; the target must
    be face up."""
    game = game_of(t0=["kh"], t1=["QS"], t2=cards("kd th"), t3=cards("9S"))
    assert_illegal(game, Move("t1", "t0"))
    assert_illegal(game, Move("t3", "t2"))


def test_s9_row2_no_mixed_suit_group_move() -> None:
    """§9 row 2: move a group with mixed suits -- not allowed."""
    game = filled(t0=cards("8C 7D"), t1=["9C"], t2=["9D"])
    assert_illegal(game, Move("t0", "t1", 2))
    assert_illegal(game, Move("t0", "t2", 2))


def test_s9_row3_single_card_onto_a_different_suit() -> None:
    """§9 row 3: a single card onto a different suit -- allowed if exactly one lower."""
    game = filled(t0=["9C"], t1=["8D"], t2=["7H"])
    game.play(Move("t1", "t0"))
    game.play(Move("t2", "t0"))
    assert piles(game)["t0"] == cards("9C 8D 7H")


def test_s9_row4_empty_column_takes_any_card_not_only_a_king() -> None:
    """§9 row 4: an empty column need not receive a King; any face-up card or valid
    run may go there."""
    game = filled(t0=[], t1=cards("8h 5C"), t2=cards("6D 5D 4D"))
    assert Move("t1", "t0") in game.legal_moves()
    game.play(Move("t2", "t0", 3))
    assert piles(game)["t0"] == cards("6D 5D 4D")


def test_s9_row5_no_deal_while_a_column_is_empty() -> None:
    """§9 row 5: deal while a column is empty -- not allowed, fill it first."""
    game = filled(t3=[], t4=cards("5h 6S"), stock=cards(STOCK_TEXT))
    assert_illegal(game, DEAL)
    game.play(Move("t4", "t3"))
    assert piles(game)["t4"] == ["5H"] and DEAL in game.legal_moves()


def test_s9_row6_run_completed_in_the_middle_of_a_column_clears() -> None:
    """§9 row 6: a run completed with cards remaining below it clears anyway."""
    game = game_of("spider-1", t0=cards("4s 7s 9S") + run("KS", "2S"), t1=["AS"])
    game.play(Move("t1", "t0"))
    assert piles(game)["t0"] == cards("4s 7s 9S") and piles(game)["f0"] == full_run("S")


def test_s9_row7_undo_a_completed_run_restores_the_state_before_the_move() -> None:
    """§9 row 7: undo a completed run -- allowed; it restores the state before the
    move that created it (the clear and the flip are taken back with the move)."""
    game = game_of("spider-1", t0=cards("5s") + run("KS", "2S"), t1=cards("8s AS"))
    before = snapshot(game)
    game.play(Move("t1", "t0"))
    after = snapshot(game)
    assert game.position()["cleared"] == 1
    assert game.undo()
    assert snapshot(game)[:2] == before[:2]
    assert piles(game)["t1"] == cards("8s AS") and piles(game)["f0"] == []
    assert game.redo() and snapshot(game)[:2] == after[:2]


def test_s9_row7_undo_a_deal_that_cleared() -> None:
    """§9 row 7 with a clear made by a deal: undo gives back the stock and the run."""
    game = filled("spider-2", t0=run("KH", "2H"), stock=cards("2s 3s 4s 5s 6s 7s 8s 9s ts ah"))
    before = game.position()
    game.play(DEAL)
    assert game.position()["cleared"] == 1
    game.undo()
    assert game.position() == before


def test_s9_row8_no_redeal_after_the_stock_is_empty() -> None:
    """§9 row 8: re-deal after the stock is empty -- no, only five deals exist."""
    game = engine.new_game("spider-4", 99)
    for _ in range(5):
        game.play(DEAL)
    assert piles(game)["stock"] == []
    assert_illegal(game, DEAL)


# ---------------------------------------------------------------- 10: scoring and statistics


def test_s10_moves_and_undos_are_counted_and_there_is_no_points_score() -> None:
    """§10: no points score; the number of moves is recorded (deals count as
    moves); the undo count is tracked but does not change the moves counted."""
    game = engine.new_game("spider-1", 8)
    first = game.legal_moves()[0]
    game.play(first)
    game.play(DEAL)
    assert game.move_count == 2
    game.undo()
    assert (game.move_count, game.undo_count) == (1, 1)
    game.redo()
    assert (game.move_count, game.undo_count) == (2, 1)
    assert game.record()["undo_count"] == 1
    assert not {"score", "points"} & set(game.position())


# ---------------------------------------------------------------- every rule in real play


@pytest.mark.parametrize("variant", ALL_SPIDER)
@PROPERTY
@given(seed=st.integers(DEAL_MIN, DEAL_MAX), choices=playouts(250))
def test_spider_play_matches_an_independent_reading_of_the_rules(
        variant: str, seed: int, choices: list[int]) -> None:
    """§4-§7 in positions of real play: the engine's legal moves are exactly those
    the rules text allows, and each move has exactly the described result (move, flip,
    clears). §5 and §7 invariants hold throughout."""
    relaxed = "relaxed" in variant
    game = engine.new_game(variant, seed)
    for choice in choices:
        pos = piles(game)
        assert set(game.legal_moves()) == spider_moves(pos, relaxed)
        assert len(game.legal_moves()) == len(set(game.legal_moves())), "no duplicates"
        _check_invariants(game)
        if game.status != "playing":
            break
        move = pick(game, choice)
        game.play(move)
        assert piles(game) == spider_apply(pos, move), f"after {move}"
    _check_invariants(game)


def _check_invariants(game: engine.Game) -> None:
    """Facts of every position reached by play."""
    pos = piles(game)
    for col in SPIDER_COLUMNS:
        faces = [text_face_up(c) for c in pos[col]]
        assert faces == sorted(faces), "face-down cards lie only under face-up cards"
        assert not pos[col] or faces[-1], "an exposed card is face up (§5)"
    cleared = [pos[f"f{i}"] for i in range(8) if pos[f"f{i}"]]
    assert [pos[f"f{i}"] != [] for i in range(8)] == sorted(
        [pos[f"f{i}"] != [] for i in range(8)], reverse=True), "foundations fill in order"
    for pile in cleared:
        assert pile == full_run(pile[0][1])
    stock = pos["stock"]
    assert len(stock) % 10 == 0 and not any(text_face_up(c) for c in stock)
    info = game.position()
    assert (info["cleared"], info["deals_left"]) == (len(cleared), len(stock) // 10)
    assert (game.status == "won") == (len(cleared) == 8)
    assert sorted(card_text(c).upper() for p in game.state.piles for c in p) == sorted(
        card_text(c).upper() for c in game.rules.deck)
