"""engine.hint: docs/rules/play-controls.md §7 "Hint".

The hint highlights the most useful move, preferring one that turns a face-down card up
or joins cards of the same suit, and points at the stock when nothing on the board
helps. The play controls apply to every game (play-controls.md §1), so the same goes
for Klondike, Beleaguered Castle and Doublets: prefer a move that advances
a foundation or uncovers a card, point at the stock (turn, recycle, redeal) when
nothing helps, and never a move that merely shuffles back and forth (a whole pile into
an empty pile, a card off a card it already legally sits on, undoing the last move).
"""

from __future__ import annotations

import pytest

import engine
from engine import Move
from tests.engine.helpers import cards

DEAL = Move("stock", "tableau", 10)
SPIDER_STOCK = " ".join(["as"] * 10)
KING_COLUMNS = {f"t{i}": "KS" for i in range(10)}  # single Kings: no move without a gap
KLONDIKE_FILL = {"t2": "kh JC", "t3": "qh JS", "t4": "qd TC", "t5": "jh TS", "t6": "jd QC"}
CASTLE_FILL = {"t3": "5S", "t4": "5H", "t5": "5C", "t6": "5D", "t7": "JC"}
CASTLE_ACES = {"f0": "AS", "f1": "AH", "f2": "AD", "f3": "AC"}


def position(variant: str, **pile_texts: str) -> engine.Game:
    return engine.from_position(variant, {p: cards(t) for p, t in pile_texts.items()})


def spider(**pile_texts: str) -> engine.Game:
    """A spider-4 position; columns not named hold a single King each."""
    return position("spider-4", **dict(KING_COLUMNS, **pile_texts))


def klondike(**pile_texts: str) -> engine.Game:
    """A Klondike position; t2..t6 hold blocked columns unless named."""
    return position("klondike", **dict(KLONDIKE_FILL, **pile_texts))


def castle(**pile_texts: str) -> engine.Game:
    """A Castle position with the Aces out; t3..t7 hold blocked rows unless named."""
    return position("beleaguered-castle", **{**CASTLE_ACES, **CASTLE_FILL, **pile_texts})


def doublets(passes: int = 0, **pile_texts: str) -> engine.Game:
    return engine.from_position("doublets", {p: cards(t) for p, t in pile_texts.items()},
                                passes=passes)


# ------------------------------------------------------------ Spider


def test_spider_prefers_turning_over_a_face_down_card() -> None:
    """Hint: "preferring one that turns over a face-down card": 7S off the face-down 5d
    onto 8H beats joining 6S to 7S."""
    g = spider(t0="5d 7S", t1="8H", t2="6S")
    assert {"t0-t1", "t2-t0"} <= {str(m) for m in g.legal_moves()}
    assert engine.hint(g) == Move("t0", "t1")


def test_spider_prefers_joining_cards_of_the_same_suit() -> None:
    """Hint: "or joins cards of the same suit": 5H onto 6H rather than onto 6S."""
    g = spider(t0="9C 5H", t1="6S", t2="6H")
    assert engine.hint(g) == Move("t0", "t2")


def test_spider_relaxed_joins_a_mixed_run_onto_its_suit() -> None:
    """Hint in relaxed Spider: a mixed descending run moves as a unit; the hint sends it
    where its top card joins its own suit."""
    g = position("spider-relaxed-4", **dict(KING_COLUMNS, t0="9C 5H 4S", t1="6S", t2="6H"))
    assert engine.hint(g) == Move("t0", "t2", 2)


def test_spider_points_at_the_stock_when_nothing_helps() -> None:
    """Hint: "When nothing on the board helps, it points at the Stock": 8S already sits on
    9H, so moving it to 9D helps nothing; the hint is the deal."""
    g = spider(t0="9H 8S", t1="9D", stock=SPIDER_STOCK)
    assert Move("t0", "t1") in g.legal_moves()
    assert engine.hint(g) == DEAL


def test_spider_never_moves_a_card_off_a_card_it_legally_sits_on() -> None:
    """Never a back-and-forth move: with no stock, 8S from 9H to 9D is the only legal
    move and the hint offers nothing."""
    g = spider(t0="9H 8S", t1="9D")
    assert g.legal_moves() == [Move("t0", "t1")]
    assert engine.hint(g) is None


def test_spider_never_moves_a_whole_pile_into_an_empty_pile() -> None:
    """Never a back-and-forth move: KS QS (or the QS alone, which sits on its KS) into
    the empty column changes nothing."""
    g = spider(t0="KS QS", t1="")
    assert {Move("t0", "t1", 2), Move("t0", "t1")} <= set(g.legal_moves())
    assert engine.hint(g) is None


def test_spider_never_undoes_the_previous_move() -> None:
    """Never a back-and-forth move: after 5H left 6H for 6S, putting it back would join
    the suit again, but it only undoes the last move; the hint is the deal. The same
    position without that history does hint the join."""
    g = spider(t0="6H 5H", t1="6S", stock=SPIDER_STOCK)
    g.play(Move("t0", "t1"))
    assert engine.hint(g) == DEAL
    fresh = engine.from_position("spider-4", g.rules.texts(g.state))
    assert engine.hint(fresh) == Move("t1", "t0")


def test_spider_empties_a_column_that_another_card_can_use() -> None:
    """Hint: an empty column helps in Spider (any card may enter it): 5H alone onto 6S."""
    g = spider(t0="5H", t1="6S", t2="2d 3S")
    assert engine.hint(g) == Move("t0", "t1")


# ------------------------------------------------------------ Klondike


def test_klondike_advances_a_foundation() -> None:
    """play-controls.md §7: advances a foundation: 2H to its Ace beats 2H onto 3S."""
    g = klondike(f1="AH", waste="2H", t0="3S")
    assert Move("waste", "t0") in g.legal_moves()
    assert engine.hint(g) == Move("waste", "f1")


def test_klondike_turning_a_hidden_card_beats_a_foundation_move() -> None:
    """docs/rules/klondike.md §7 row 1: turning a face-down tableau card usually opens
    more choices than sending an available card to a foundation."""
    g = klondike(t0="kd 7S", t1="8H", t2="2C", f3="AC")
    assert Move("t2", "f3") in g.legal_moves()
    assert engine.hint(g) == Move("t0", "t1")


def test_klondike_checks_the_tableau_before_drawing() -> None:
    """docs/rules/klondike.md §7 row 3: look over the tableau again before drawing."""
    g = klondike(t0="2d 7S", t1="8H", stock="7c")
    assert engine.hint(g) == Move("t0", "t1")


def test_klondike_points_at_the_stock_then_the_recycle() -> None:
    """Hint: when nothing on the table helps it turns the stock, and when the stock is
    empty it recycles the waste."""
    assert engine.hint(klondike(t0="9h 2S", t1="3S", stock="4c 9d 2h")) == Move("stock", "waste")
    g = klondike(t0="9h 2S", t1="3S", waste="2H 9D 4C")
    assert engine.hint(g) == Move("waste", "stock", 3)


def test_klondike_plays_a_waste_card_into_the_tableau() -> None:
    """Hint: a waste card that fits a column is played rather than turning past it."""
    g = klondike(t0="9h 2S", t1="3S", stock="4c 9d", waste="2H")
    assert engine.hint(g) == Move("waste", "t1")


def test_klondike_empties_a_column_only_when_a_king_can_use_it() -> None:
    """docs/rules/klondike.md §7 row 2: empty a column only when a King can use it:
    5H onto 6S helps nothing without a King to fill t0, and is the hint with KD on the
    waste."""
    assert engine.hint(klondike(t0="5H", t1="6S", stock="7c")) == Move("stock", "waste")
    g = klondike(t0="5H", t1="6S", stock="7c", waste="KD")
    assert engine.hint(g) == Move("t0", "t1")
    g.play(Move("t0", "t1"))
    assert engine.hint(g) == Move("waste", "t0")


def test_klondike_uncovers_a_card_for_its_foundation() -> None:
    """play-controls.md §7: uncovers a card: 5H leaves the 6S it legally sits on only because
    the 6S can then go to its foundation."""
    g = klondike(t0="6S 5H", t1="6C", f0="AS 2S 3S 4S 5S", stock="7c")
    assert engine.hint(g) == Move("t0", "t1")
    g.play(Move("t0", "t1"))
    assert engine.hint(g) == Move("t0", "f0")


def test_klondike_never_takes_a_foundation_card_back_for_nothing() -> None:
    """Never a back-and-forth move: 3S could come back onto 4H but would only go home
    again."""
    g = klondike(f0="AS 2S 3S", t0="4H", stock="7c")
    assert Move("f0", "t0") in g.legal_moves()
    assert engine.hint(g) == Move("stock", "waste")


# ------------------------------------------------------------ Beleaguered Castle


def test_castle_worked_example_uncovers_the_two_then_sends_it_home() -> None:
    """docs/rules/beleaguered-castle.md §7 worked example, as hints: 7♥ onto 8♣ (it uncovers 2♦,
    not a mere 7♣ off a King), then 2♦ to its foundation."""
    g = castle(t0="2D 7H", t1="8C", t2="KS 7C")
    assert Move("t2", "t1") in g.legal_moves()
    assert engine.hint(g) == Move("t0", "t1")
    g.play(Move("t0", "t1"))
    assert engine.hint(g) == Move("t0", "f2")


def test_castle_never_moves_a_card_off_a_card_it_legally_sits_on() -> None:
    """Never a back-and-forth move: 7♥ from 8♣ to 8♠ helps nothing."""
    g = castle(t0="8C 7H", t1="8S", t2="KD")
    assert Move("t0", "t1") in g.legal_moves()
    assert engine.hint(g) is None


def test_castle_never_moves_a_whole_row_into_an_empty_row() -> None:
    """Never a back-and-forth move: a lone card into an empty row is the same position."""
    g = castle(t0="9S", t1="", t2="KD")
    assert Move("t0", "t1") in g.legal_moves()
    assert engine.hint(g) is None


def test_castle_suggests_a_lasting_move_when_nothing_helps() -> None:
    """With no stock to point at, a move that cannot be put straight back (7♥ off the
    King onto 8♣) is still a hint."""
    g = castle(t0="KD 7H", t1="8C", t2="KH")
    assert engine.hint(g) == Move("t0", "t1")


# ------------------------------------------------------------ Doublets


def test_doublets_plays_to_the_foundation_then_turns_then_redeals() -> None:
    """Hint: advance the foundation when a reserve or waste card fits; otherwise turn the
    stock; with the stock empty, redeal."""
    g = doublets(f0="AS", stock="3d", waste="9C",
                 **{f"r{i}": t for i, t in enumerate("5C 2H 7C 8C TC JC QC".split())})
    assert engine.hint(g) == Move("r1", "f0")
    g.play(Move("r1", "f0"))  # r1 refills with 9C; 4 is needed
    assert engine.hint(g) == Move("stock", "waste")
    g.play(Move("stock", "waste"))
    assert engine.hint(g) == Move("waste", "stock", 1)


# ------------------------------------------------------------ every variant


def test_no_hint_when_the_game_is_over() -> None:
    """A won or lost game has no hint."""
    lost = castle(**{f"t{i}": t for i, t in enumerate("5S 5H 5D 5C 9S 9H 9D 9C".split())})
    assert lost.status == "lost" and engine.hint(lost) is None
    runs = {f"f{i}": " ".join(r + s for r in "A23456789TJQK") for i, s in enumerate("SHDC")}
    won = position("klondike", **runs)
    assert won.status == "won" and engine.hint(won) is None


@pytest.mark.parametrize("variant", engine.VARIANTS)
def test_hints_are_legal_and_never_go_straight_back(variant: str) -> None:
    """For all nine variants, following hints through real deals: every hint is a legal
    move, never the reverse of the move just played, and never returns to the position
    before that move."""
    for seed in (1, 2, 3):
        g = engine.new_game(variant, seed)
        for _ in range(80):
            move = engine.hint(g)
            if move is None:
                break
            assert move in g.legal_moves()
            if g.move_count and g.moves[-1].src != "stock" and g.moves[-1].dst != "stock":
                last = g.moves[-1]
                assert move != Move(last.dst, last.src, last.count)
                g.undo()
                before = g.state
                g.redo()
                after = g.rules.apply(g.state, move)
                assert after != before
            g.play(move)
