"""Relaxed Spider, docs/rules/spider-relaxed.md: what differs from
docs/rules/spider.md (any face-up descending run moves as one group, mixed suits included) and what
stays (only a same-suit King..Ace run clears; deals need ten non-empty columns; layout).

Test names start with the section they check: cards_and_setup §2, tableau_rules §4,
completing_sequences §5, dealing_from_stock §6, playing_your_cards (undo) is
docs/rules/play-controls.md §5.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine import IllegalMove, Move
from engine.rules.variants import DEAL_MAX, DEAL_MIN, rules_for
from tests.engine import helpers as h
from tests.engine.helpers import SPIDER_COLUMNS, cards, full_run, piles, run

RELAXED = ("spider-relaxed-1", "spider-relaxed-2", "spider-relaxed-4")
DEAL = Move("stock", "tableau", 10)
MIXED = cards("TS 9H 8C 7D")


def relaxed(variant: str = "spider-relaxed-4", **columns: list[str]) -> engine.Game:
    return engine.from_position(variant, columns)


def filled(variant: str = "spider-relaxed-4", **columns: list[str]) -> engine.Game:
    """Every column not named holds one 2 of diamonds: no empty column."""
    for col in SPIDER_COLUMNS:
        columns.setdefault(col, ["2D"])
    return engine.from_position(variant, columns)


# ---------------------------------------------------------------- the difference


def test_tableau_rules_any_face_up_descending_run_moves_mixed_suits_included() -> None:
    """§4.3: any face-up descending run moves as one group, mixed suits included --
    every tail of the run may be picked up."""
    game = filled(t0=cards("4c") + MIXED, t1=["JD"], t2=["TH"], t3=["9S"], t4=["8H"])
    from_t0 = {m for m in game.legal_moves() if m.src == "t0"}
    assert from_t0 == {Move("t0", "t1", 4), Move("t0", "t2", 3), Move("t0", "t3", 2),
                       Move("t0", "t4", 1)}


def test_tableau_rules_mixed_run_moves_as_one_group_in_order() -> None:
    """§4.3-§4.4: the stack moves as a unit, keeping its order; the card under it flips."""
    game = filled(t0=cards("4c") + MIXED, t1=["JD"])
    game.play(Move("t0", "t1", 4))
    assert piles(game)["t1"] == ["JD"] + MIXED
    assert piles(game)["t0"] == ["4C"]
    assert game.move_count == 1


@pytest.mark.parametrize("suits", ["1", "2", "4"])
def test_the_same_mixed_group_is_illegal_in_standard_spider(suits: str) -> None:
    """The one difference: standard Spider (docs/rules/spider.md §4) refuses the mixed group
    that the relaxed game moves. Checked on the same position for each suit count."""
    group = cards("TS 9H 8S 7H") if suits != "1" else cards("TS 9S 8S 7S")
    position = {"t0": group, "t1": ["JD"], **{f"t{i}": ["2D"] for i in range(2, 10)}}
    strict = engine.from_position(f"spider-{suits}", position)
    loose = engine.from_position(f"spider-relaxed-{suits}", position)
    assert Move("t0", "t1", 4) in loose.legal_moves()
    if suits == "1":  # all spades: the run is same-suit, both games allow it
        assert strict.legal_moves() == loose.legal_moves()
    else:
        with pytest.raises(IllegalMove):
            strict.play(Move("t0", "t1", 4))
        assert set(strict.legal_moves()) < set(loose.legal_moves())


def test_tableau_rules_a_group_goes_on_exactly_one_rank_higher_any_suit() -> None:
    """§4.1: a card or a stack goes onto a card exactly one rank higher, whatever the
    suits."""
    game = filled(t0=MIXED, t1=["JS"], t2=["QD"], t3=["TD"], t4=["JH"])
    assert Move("t0", "t1", 4) in game.legal_moves()
    assert Move("t0", "t4", 4) in game.legal_moves()
    for dst in ("t2", "t3"):
        with pytest.raises(IllegalMove):
            game.play(Move("t0", dst, 4))


def test_tableau_rules_the_run_must_descend_and_be_face_up() -> None:
    """A face-down card, a gap in rank or an equal rank ends the movable run."""
    game = filled(t0=cards("th 9H 8C"), t1=cards("9S 9H 8C"), t2=cards("JS 9H 8C"),
                  t3=["JD"], t4=["TC"])
    for src in ("t0", "t1", "t2"):
        assert max(m.count for m in game.legal_moves() if m.src == src) == 2
    before = h.snapshot(game)
    for move in (Move("t0", "t3", 3), Move("t1", "t4", 3), Move("t2", "t3", 3)):
        with pytest.raises(IllegalMove):
            game.play(move)
    assert h.snapshot(game) == before


def test_tableau_rules_empty_columns_accept_any_card_or_stack() -> None:
    game = relaxed(t0=cards("5h") + MIXED, t1=["AH"])
    for count in (1, 2, 3, 4):
        assert Move("t0", "t9", count) in game.legal_moves()
    assert Move("t1", "t9") in game.legal_moves()
    game.play(Move("t0", "t9", 4))
    assert piles(game)["t9"] == MIXED and piles(game)["t0"] == ["5H"]


# ---------------------------------------------------------------- what stays: clearing


def test_completing_sequences_mixed_suit_king_to_ace_never_clears() -> None:
    """§5.2: a mixed-suit run moves anywhere and never clears -- built with a group move, then
    moved whole to an empty column."""
    top = cards("KS QS JS TS 9S 8S 7S")
    tail = cards("6H 5S 4S 3S 2S AS")
    game = relaxed("spider-relaxed-2", t0=top, t1=cards("9h") + tail, t2=["5D"])
    game.play(Move("t1", "t0", 6))
    assert piles(game)["t0"] == top + tail and game.position()["cleared"] == 0
    assert piles(game)["t1"] == ["9H"]
    game.play(Move("t0", "t3", 13))  # the whole mixed K..A moves as one stack
    assert piles(game)["t3"] == top + tail and piles(game)["t0"] == []
    assert game.position()["cleared"] == 0 and all(not piles(game)[f"f{i}"] for i in range(8))


def test_completing_sequences_same_suit_king_to_ace_clears_at_once() -> None:
    """§5.1: a single-suit K..A on top of a column clears automatically;
    the cards under it stay, and the exposed ones flip."""
    game = relaxed("spider-relaxed-4", t0=cards("3c JD") + run("KC", "6C"),
                   t1=cards("8h") + run("5C", "AC"))
    game.play(Move("t1", "t0", 5))
    assert piles(game)["f0"] == full_run("C")
    assert piles(game)["t0"] == cards("3c JD") and piles(game)["t1"] == ["8H"]
    assert game.position()["cleared"] == 1


def test_completing_sequences_a_same_suit_run_under_a_mixed_top_does_not_clear() -> None:
    """§5.1: only the top of a column counts: K..A spades with a card of
    another run on it is not complete until that card leaves."""
    game = relaxed("spider-relaxed-2", t0=run("KS", "2S"), t1=cards("AH"), t2=cards("AS"))
    game.play(Move("t1", "t0"))  # a mixed K..A (ace of hearts on top)
    assert game.position()["cleared"] == 0
    game.play(Move("t0", "t3"))  # take the ace of hearts away again
    assert game.position()["cleared"] == 0
    game.play(Move("t2", "t0"))
    assert game.position()["cleared"] == 1 and piles(game)["f0"] == full_run("S")


def test_completing_sequences_deal_can_complete_a_run() -> None:
    """§6.1: a deal can complete runs, which then clear as in §5."""
    game = filled("spider-relaxed-2", t4=run("KH", "2H"),
                  stock=cards("2s 3s 4s 5s 6s ah 8s 9s ts js"))
    game.play(DEAL)
    assert piles(game)["f0"] == full_run("H") and piles(game)["t4"] == []


def test_completing_sequences_won_at_eight() -> None:
    """§1: clearing the eighth sequence wins."""
    game = relaxed("spider-relaxed-4",
                   **{f"f{i}": full_run("SHDC"[i % 4]) for i in range(7)},
                   t0=run("KC", "2C"), t1=["AC"])
    game.play(Move("t1", "t0"))
    assert game.status == "won" and game.position()["cleared"] == 8


# ---------------------------------------------------------------- what stays: setup, deals, undo


@pytest.mark.parametrize("variant", RELAXED)
def test_cards_and_setup(variant: str) -> None:
    """§2: 104 cards; columns 1-4 have 6 cards, 5-10 have 5; only the top card
    face up; 50 in the stock; no waste. spider-relaxed-4 is two 52-card decks."""
    game = engine.new_game(variant, 4242)
    pos = piles(game)
    assert [len(pos[c]) for c in SPIDER_COLUMNS] == [6] * 4 + [5] * 6
    assert all(c[-1][1].isupper() and all(x[1].islower() for x in c[:-1])
               for c in (pos[col] for col in SPIDER_COLUMNS))
    assert len(pos["stock"]) == 50 and "waste" not in pos
    assert sum(h.identities(game).values()) == 104
    if variant == "spider-relaxed-4":
        two_decks = Counter({r + s: 2 for r in "A23456789TJQK" for s in "SHDC"})
        assert h.identities(game) == two_decks


@pytest.mark.parametrize("variant", RELAXED)
def test_relaxed_deals_the_same_cards_as_standard_spider(variant: str) -> None:
    """§7.2, same layout and deck: deal n of the relaxed game is deal n of standard Spider."""
    strict = variant.replace("relaxed-", "")
    for seed in (1, 65536, DEAL_MAX):
        a, b = engine.new_game(variant, seed), engine.new_game(strict, seed)
        assert a.position()["piles"] == b.position()["piles"]


def test_dealing_from_stock_needs_all_ten_columns() -> None:
    """§6: one row of ten face-up cards, only when all 10 columns are
    non-empty."""
    stock = cards("ac 2c 3c 4c 5c 6c 7c 8c 9c tc")
    game = filled(t6=[], t0=cards("QH JD"), stock=stock)
    with pytest.raises(IllegalMove):
        game.play(DEAL)
    game.play(Move("t0", "t6"))
    game.play(DEAL)
    assert [piles(game)[c][-1] for c in SPIDER_COLUMNS] == [t.upper() for t in reversed(stock)]


def test_playing_your_cards_undo_takes_back_stock_deals_and_groups() -> None:
    """docs/rules/play-controls.md §5: unlimited undo that takes back stock deals too."""
    game = engine.new_game("spider-relaxed-4", 2718)
    start = game.position()
    game.play(DEAL)
    group_moves = [m for m in game.legal_moves() if 1 < m.count < 10]
    assert group_moves, "this deal has a group move after the first deal"
    game.play(group_moves[0])
    game.play(DEAL)
    assert game.move_count == 3
    while game.undo():
        pass
    assert game.position() == start and game.undo_count == 3


# ---------------------------------------------------------------- relaxed vs standard, in play


@pytest.mark.parametrize("suits", ["1", "2", "4"])
@h.PROPERTY
@given(seed=st.integers(DEAL_MIN, DEAL_MAX), choices=h.playouts(200))
def test_relaxed_moves_are_standard_moves_plus_mixed_groups(
        suits: str, seed: int, choices: list[int]) -> None:
    """In every position of relaxed play, the relaxed moves are the standard moves plus
    moves of two or more cards that are not all one suit -- nothing else differs."""
    game = engine.new_game(f"spider-relaxed-{suits}", seed)
    strict = rules_for(f"spider-{suits}")
    for choice in choices:
        loose = set(game.legal_moves())
        standard = set(strict.moves(game.state))
        assert standard <= loose
        for move in loose - standard:
            group = piles(game)[move.src][-move.count:]
            assert move.count >= 2 and len({c[1] for c in group}) > 1, move
        if game.status != "playing":
            break
        game.play(h.pick(game, choice))
