"""Klondike: every rule line and worked example of docs/rules/klondike.md.

Sections cited: §1 Object, §2 The rules in brief, §3 Tableau, §4 Stock and waste, §5
Foundations, §6 Worked examples, §7 Playing well (what the engine must not do for the
player), §8 How the game ends, §9 Common questions, §10 what the engine decides:
foundation f<i> holds suit i (S H D C); a recycle is ``waste-stock:<cards>``; status
"lost" is the rules' "blocked position".
"""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Move
from engine.rules.cards import DOWN, standard_deck
from engine.rules.klondike import KlondikeRules, alternating_run, fits_column
from engine.rules.rng import shuffled
from engine.rules.variants import DEAL_MAX
from tests.engine.helpers import cards, piles

SEEDS = (1, 2, 3, 77, 123456, DEAL_MAX)
SUIT_RUNS = {s: [r + s for r in "A23456789TJQK"] for s in "SHDC"}
BLOCK = "9h 2S"  # a column with no move: no red 3 and no AS on f0 in these positions


def game(**pile_texts: str) -> engine.Game:
    """A Klondike position from space-separated card texts per pile id."""
    return engine.from_position("klondike", {p: cards(t) for p, t in pile_texts.items()})


def legal(g: engine.Game) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# ------------------------------------------------------------ §3-§5 the layout


@pytest.mark.parametrize("seed", SEEDS)
def test_layout_seven_columns_of_1_to_7_cards_only_the_top_face_up(seed: int) -> None:
    """§3: 7 columns contain 1 to 7 cards; only the top card of each
    column begins face up."""
    p = piles(engine.new_game("klondike", seed))
    for i in range(7):
        column = p[f"t{i}"]
        assert len(column) == i + 1
        assert column[-1].isupper()
        assert all(t.islower() for t in column[:-1])


@pytest.mark.parametrize("seed", SEEDS)
def test_layout_24_undealt_cards_form_the_stock(seed: int) -> None:
    """§4 and §9 row 1: the 24 cards left after the 28 of the tableau are the stock.
    Foundations and waste start empty;
    the pack is 52 distinct cards."""
    g = engine.new_game("klondike", seed)
    p = piles(g)
    assert len(p["stock"]) == 24 and all(t.islower() for t in p["stock"])
    assert p["waste"] == [] and all(p[f"f{i}"] == [] for i in range(4))
    every = Counter(t.upper() for pile in p.values() for t in pile)
    assert len(every) == 52 and set(every.values()) == {1}


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_pops_the_shuffled_deck_row_by_row(seed: int) -> None:
    """§10.2: deals take cards from the end of engine.rng.shuffled (pop = top of the
    deck); row r gives one card to each of t<r>..t6; the rest is the stock, top last."""
    deck = shuffled(standard_deck(), seed)
    columns: list[list[int]] = [[] for _ in range(7)]
    for row in range(7):
        for col in range(row, 7):
            columns[col].append(deck.pop())
    state = engine.new_game("klondike", seed).state
    assert [[c & ~DOWN for c in col] for col in state.piles[:7]] == columns
    assert [c & ~DOWN for c in state.piles[KlondikeRules.pile_ids.index("stock")]] == deck


# ------------------------------------------------------------ §2, §6 tableau moves


def test_concrete_legal_move_black_7_on_red_8() -> None:
    """§6 row 1: a black 7 on a red 8 is legal (§2.1: build down in alternating
    colours)."""
    g = game(t0="8H", t1="8D", t2="7S", t3="7C")
    assert {"t2-t0", "t2-t1", "t3-t0", "t3-t1"} <= legal(g)
    g.play(Move("t2", "t0"))
    assert piles(g)["t0"] == ["8H", "7S"]


def test_concrete_illegal_move_red_7_on_red_8() -> None:
    """§6 row 3: a red 7 on a red 8 is illegal (and a
    black 7 on a black 8: the colours must alternate)."""
    g = game(t0="8H", t1="7D", t2="8S", t3="7C")
    assert "t1-t0" not in legal(g)
    assert "t3-t2" not in legal(g)
    with pytest.raises(engine.IllegalMove):
        g.play(Move("t1", "t0"))


def test_build_down_means_exactly_one_rank_lower() -> None:
    """§2.1: build tableau columns downward: a 6 or an 8 does not go on a red 8,
    only a 7."""
    g = game(t0="8H", t1="6S", t2="8C", t3="9S")
    assert not any(m.dst == "t0" for m in g.legal_moves())
    assert "t0-t3" in legal(g)  # the 8 itself goes down onto the 9 of the other colour


def test_any_part_of_an_alternating_run_moves_as_a_unit() -> None:
    """§10.4: any face-up run in alternating colours moves as a unit, part of a run
    too; only the face-up run moves, never the face-down card under it."""
    g = game(t0="2c KD QS JH TC", t1="KH", t2="QC", t4="JD")
    assert alternating_run(g.state.piles[0]) == 4
    assert {"t0-t4", "t0-t2:2", "t0-t1:3", "t0-t3:4"} <= legal(g)
    assert not any(m.count == 5 for m in g.legal_moves())
    g.play(Move("t0", "t1", 3))
    assert piles(g)["t1"] == ["KH", "QS", "JH", "TC"]
    assert piles(g)["t0"] == ["2c", "KD"]


def test_only_a_king_enters_an_empty_column() -> None:
    """§2.2: only a King, alone or with its sequence, can enter an empty column;
    §6 rows 2 and 4: starting an empty column with any rank other than a King is
    illegal, and moving a valid King-led sequence into it is legal."""
    g = game(t0="", t1="5s KD QC", t2="3d QH", t3="4c KS", waste="QD")
    assert {"t1-t0:2", "t3-t0"} <= legal(g)  # a King-led sequence; a King alone
    assert not {"t1-t0", "t2-t0", "waste-t0"} & legal(g)  # a Queen, alone or not


# ------------------------------------------------------------ automatic flip


def test_an_exposed_face_down_card_flips_automatically() -> None:
    """§3 (only the top card begins face up; a column's new top card turns
    face up): moving the face-up cards away turns the next card over, and undo turns it
    back down."""
    g = game(t0="as 9d 8H", t1="TS", t2="9C")
    g.play(Move("t0", "t2"))
    assert piles(g)["t0"] == ["as", "9D"]
    g.play(Move("t0", "t1"))
    assert piles(g)["t0"] == ["AS"]
    g.undo()
    g.undo()
    assert piles(g)["t0"] == ["as", "9d", "8H"]


# ------------------------------------------------------------ §2.3, §4 stock and waste


def test_turn_one_stock_card_at_a_time_onto_the_waste() -> None:
    """§2.3: turn one stock card at a time (a Move stock->waste, count 1): the top of the
    stock (its last card) lands face up on the waste."""
    g = game(t0=BLOCK, t1="3S", stock="4c 9d 2h")
    assert legal(g) == {"stock-waste"}
    g.play(Move("stock", "waste"))
    assert piles(g)["stock"] == ["4c", "9d"] and piles(g)["waste"] == ["2H"]
    g.play(Move("stock", "waste"))
    assert piles(g)["waste"] == ["2H", "9D"]


def test_only_the_top_waste_card_is_available() -> None:
    """§2.3: only the top waste card is available: 7S under 9D does not go on the 8H,
    the 9D goes on the TS."""
    g = game(t0="8H", t1="TS", waste="7S 9D")
    assert "waste-t0" not in legal(g)
    assert "waste-t1" in legal(g)
    assert not any(m.src == "waste" and m.dst != "stock" and m.count > 1
                   for m in g.legal_moves())


def test_the_waste_recycles_into_the_stock_in_the_same_order() -> None:
    """§4, §10.3: the waste can be recycled (Move waste->stock, count =
    cards in the waste) once the stock is empty; the cards come out again in the same
    order."""
    g = game(t0=BLOCK, t1="3S", stock="4c 9d 2h")
    assert not any(m.dst == "stock" for m in g.legal_moves())  # not while the stock has cards
    for _ in range(3):
        g.play(Move("stock", "waste"))
    assert piles(g)["waste"] == ["2H", "9D", "4C"]
    assert legal(g) == {"waste-stock:3"}
    g.play(Move("waste", "stock", 3))
    assert piles(g)["stock"] == ["4c", "9d", "2h"] and piles(g)["waste"] == []
    turned = []
    for _ in range(3):
        g.play(Move("stock", "waste"))
        turned.append(piles(g)["waste"][-1])
    assert turned == ["2H", "9D", "4C"]


def test_recycling_has_no_pass_limit() -> None:
    """§9 row 2: the stock may be recycled without limit; §10.3: the state does not
    count passes, so going round the stock returns to the very same state."""
    g = game(t0=BLOCK, t1="3S", stock="4c 9d 2h")
    start = g.state
    for _ in range(10):
        for _ in range(3):
            g.play(Move("stock", "waste"))
        g.play(Move("waste", "stock", 3))
        assert g.state == start
    assert g.status == "playing"


# ------------------------------------------------------------ §2.4, §5 foundations


def test_foundations_take_their_own_suit_from_the_ace_up() -> None:
    """§2.4: build each foundation upward in one suit, starting with the Ace; §10.1:
    foundation f<i> holds suit i (S H D C), so an Ace goes to its own foundation only."""
    g = game(t0="AH", t1="2D", f2="AD", t2="3D", t3="2S", waste="AC")
    assert {"t0-f1", "t1-f2", "waste-f3"} <= legal(g)
    assert not {"t0-f0", "t0-f2", "t0-f3", "t2-f2", "t3-f0", "t3-f2"} & legal(g)
    g.play(Move("t1", "f2"))
    assert "t2-f2" in legal(g)


def test_a_card_of_another_suit_never_builds_on_a_foundation() -> None:
    """§5: each foundation is one suit: 2H does not go on AD's foundation."""
    g = game(f2="AD", t0="2H")
    assert not any(m.dst.startswith("f") for m in g.legal_moves())


def test_do_not_move_cards_to_the_foundations_automatically() -> None:
    """§7 row 6: the engine never sends a card to a foundation on its own: an
    Ace that turns face up stays in its column until the player moves it."""
    g = game(t0="as 9D", t1="TS")
    g.play(Move("t0", "t1"))
    assert piles(g)["t0"] == ["AS"] and piles(g)["f0"] == []
    assert "t0-f0" in legal(g)


def test_a_foundation_card_may_come_back_when_it_makes_a_legal_tableau_move() -> None:
    """§9 row 3: a card may come back from a foundation when it makes a legal tableau
    move: 5S back onto 6H, not onto 6S; a King back into an empty column."""
    g = game(f0=" ".join(SUIT_RUNS["S"][:5]), f3=" ".join(SUIT_RUNS["C"]), t0="6H", t1="6S",
             t2="")
    assert {"f0-t0", "f3-t2"} <= legal(g)
    assert "f0-t1" not in legal(g) and "f0-t2" not in legal(g)  # same colour; not a King
    g.play(Move("f0", "t0"))
    assert piles(g)["t0"] == ["6H", "5S"] and piles(g)["f0"] == SUIT_RUNS["S"][:4]


# ------------------------------------------------------------ §8 how the game ends


def test_win_when_all_52_cards_reach_the_foundations() -> None:
    """§8.1: you win when all 52 cards reach the foundations; with 51 the
    game goes on."""
    full = {f"f{i}": " ".join(SUIT_RUNS[s]) for i, s in enumerate("SHDC")}
    assert game(**full).status == "won"
    almost = dict(full, f3=" ".join(SUIT_RUNS["C"][:-1]), t0="KC")
    g = game(**almost)
    assert g.status == "playing"
    g.play(Move("t0", "f3"))
    assert g.status == "won"
    assert g.position()["foundation_cards"] == 52


def test_blocked_position_is_lost() -> None:
    """§8.2: blocked when no tableau, waste, foundation or stock action can change
    anything; §10.5: only turning and recycling is legal and no stock or
    waste card fits a column or a foundation, so going round the stock changes nothing."""
    g = game(t0="9h 2S", t1="3s 7D", stock="5c 4d", waste="QH")
    assert legal(g) == {"stock-waste"}
    assert g.status == "lost"
    with pytest.raises(engine.IllegalMove):
        g.play(Move("stock", "waste"))


def test_not_blocked_while_a_buried_stock_card_fits_a_column() -> None:
    """§8.2, §10.5: not blocked while some stock card can still be played (8S
    under the top of the stock fits on the 9H)... reachable by turning the stock."""
    g = game(t0="9H", t1="3s 7D", stock="8s 4d", waste="QH")
    assert legal(g) == {"stock-waste"}
    assert g.status == "playing"
    g.play(Move("stock", "waste"))
    g.play(Move("stock", "waste"))
    assert "waste-t0" in legal(g)


def test_not_blocked_while_a_waste_card_fits_a_foundation() -> None:
    """§8.2, §10.5: the 2C deep in the waste can still reach its foundation after a
    recycle, so the game is not blocked."""
    g = game(t0="9h 2S", f3="AC", waste="2C QH")
    assert legal(g) == {"waste-stock:2"}
    assert g.status == "playing"


def test_not_blocked_while_a_tableau_move_remains() -> None:
    """§8.2: a legal tableau action (2S onto 3H) keeps the game going."""
    g = game(t0="9h 2S", t1="3H")
    assert legal(g) == {"t0-t1"}
    assert g.status == "playing"


def test_no_move_and_nothing_in_the_stock_is_lost() -> None:
    """§8.2: no tableau, waste, foundation or stock action at all."""
    assert game(t0="9h 2S", t1="3s 7D").status == "lost"


def test_info_counts_the_foundation_cards() -> None:
    """Position extras: foundation_cards, for the player's progress."""
    g = game(f0="AS 2S", f1="AH", t0="KD")
    assert g.position()["foundation_cards"] == 3


# ------------------------------------------------------------ positions


@pytest.mark.parametrize(
    "pile_texts",
    [
        {"f0": "AH"},  # f0 holds spades
        {"f1": "AH 3H"},  # built one rank at a time
        {"stock": "AS"},  # stock cards lie face down
        {"waste": "as"},  # waste cards lie face up
        {"t0": "9h 8c"},  # a column's top card lies face up
        {"t0": "9H 8D"},  # face-up cards form an alternating run
        {"t0": "9H", "t1": "9H"},  # one pack: no card twice
    ],
)
def test_from_position_rejects_positions_klondike_cannot_reach(pile_texts: dict) -> None:
    """from_position checks the set-up against the rules (readable test
    positions must be real Klondike positions)."""
    with pytest.raises(ValueError):
        game(**pile_texts)


def test_fits_column_and_run_helpers() -> None:
    """The build rule as functions: other colour, one rank lower, King on empty."""
    card = engine.parse_card
    assert fits_column(card("7S"), (card("8H"),))
    assert not fits_column(card("7D"), (card("8H"),))
    assert not fits_column(card("7S"), (card("8h"),))
    assert fits_column(card("KC"), ())
    assert not fits_column(card("QC"), ())
    assert alternating_run(tuple(card(t) for t in cards("kd QS JH TS"))) == 3
    assert alternating_run(tuple(card(t) for t in cards("QS JH TD"))) == 1
    assert alternating_run(()) == 0
