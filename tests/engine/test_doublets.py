"""Doublets: every rule and the worked example of docs/rules/doublets.md.

Sections cited: §1 Object, §2 The deal, §3 The foundation (with its worked example), §4
Kings, §5 The reserve, §6 The stock, §7 The waste, §8 row 3 (no packing on the reserve)
and §9, what the engine decides: the foundation is f0, the reserve r0..r6; State.passes
counts the redeals used; won when the 48 non-Kings are on the foundation; Rules.info
gives the rank needed next and the redeals left.
"""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Move
from engine.rules.cards import DOWN, KING, RANK_MASK, RANKS, standard_deck
from engine.rules.doublets import doubled
from engine.rules.rng import shuffled
from engine.rules.variants import DEAL_MAX
from tests.engine.helpers import cards, piles

SEEDS = (1, 2, 5, 13, 123456, DEAL_MAX)
RESERVE = [f"r{i}" for i in range(7)]
DOUBLING = "A 2 4 8 3 6 Q J 9 5 T 7".split()  # docs/rules/doublets.md §3.4


def game(passes: int = 0, **pile_texts: str) -> engine.Game:
    """A Doublets position from space-separated card texts per pile id."""
    return engine.from_position("doublets", {p: cards(t) for p, t in pile_texts.items()},
                                passes=passes)


def reserve(*texts: str) -> dict[str, str]:
    """Reserve spaces r0, r1, ... holding one card each."""
    return {f"r{i}": t for i, t in enumerate(texts)}


def legal(g: engine.Game) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# ------------------------------------------------------------ §2 the deal


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_seven_reserve_cards_one_foundation_card_44_in_the_stock(seed: int) -> None:
    """§3.1: one foundation, dealt face up from the beginning; §5.1: 7 reserve cards;
    §9.2: the other 44 cards are the stock (face down), the waste starts empty, and
    none of the 8 dealt cards is a King (§2)."""
    p = piles(engine.new_game("doublets", seed))
    dealt = [p[r][0] for r in RESERVE] + p["f0"]
    assert all(len(p[r]) == 1 for r in RESERVE) and len(p["f0"]) == 1
    assert all(t.isupper() and t[0] != "K" for t in dealt)
    assert len(p["stock"]) == 44 and all(t.islower() for t in p["stock"])
    assert p["waste"] == []
    every = Counter(t.upper() for pile in p.values() for t in pile)
    assert len(every) == 52 and set(every.values()) == {1}


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_sends_a_king_to_the_bottom_of_the_stock_and_deals_the_next_card(seed: int) -> None:
    """§2: a King dealt to the reserve goes to the bottom of the stock and the next card is
    dealt in its place (the foundation card too, §9.2). Cards come from the end of
    engine.rng.shuffled (pop = top): r0..r6, then f0."""
    deck = shuffled(standard_deck(), seed)
    dealt: list[int] = []
    while len(dealt) < 8:
        card = deck.pop()
        if card & RANK_MASK == KING:
            deck.insert(0, card)
        else:
            dealt.append(card)
    state = engine.new_game("doublets", seed).state
    assert [p[0] for p in state.piles[:8]] == dealt
    assert [c & ~DOWN for c in state.piles[8]] == deck


def test_deal_13_sends_three_kings_under_the_stock() -> None:
    """§2 (deal 13: KC, KD and KS come up while the reserve is dealt): each King goes
    under the stock in turn, so the last one sent lies at the very bottom."""
    p = piles(engine.new_game("doublets", 13))
    assert p["stock"][:4] == ["ks", "kd", "kc", "4s"]
    assert not any(p[r][0][0] == "K" for r in RESERVE)


def test_info_says_which_rank_the_foundation_needs_and_the_redeals_left() -> None:
    """§9.6: Rules.info gives e.g. {"needs": "4", "redeals_left": 2} (deal 1's
    foundation card is 2C)."""
    pos = engine.new_game("doublets", 1).position()
    assert pos["piles"]["f0"] == ["2C"]
    assert (pos["needs"], pos["redeals_left"]) == ("4", 2)


# ------------------------------------------------------------ §3 Foundation


def test_doubling_table_subtracts_13_above_12() -> None:
    """§3.2: each card is the double of the last one's rank, less 13 when the double is
    over 12; §4: no rank ever needs a King."""
    assert [doubled(r) for r in range(1, 13)] == [2, 4, 6, 8, 10, 12, 1, 3, 5, 7, 9, 11]
    assert KING not in {doubled(r) for r in range(1, 13)}


def test_example_six_takes_the_queen_and_the_queen_takes_the_jack() -> None:
    """§3.3, the worked example: on a 6 a Queen (12); 24 is 11 over 13, so a Jack (11)
    comes next."""
    g = game(f0="6S", stock="4c", **reserve("QD", "JH", "5C", "7C", "8C", "9C", "TC"))
    assert g.position()["needs"] == "Q"
    assert legal(g) == {"r0-f0", "stock-waste"}
    g.play(Move("r0", "f0"))
    assert g.position()["needs"] == "J"
    assert "r1-f0" in legal(g)


def test_example_sequence_from_the_ace_regardless_of_suit() -> None:
    """§3.4: A 2 4 8 3 6 Q J 9 5 T 7 A and round again, §3.2: regardless of suit; emptied
    reserve spaces refill from the stock."""
    g = game(f0="AS", stock="ad 7h tc 5s 9d", **reserve("2H", "4C", "8D", "3S", "6H", "QC", "JD"))
    played = []
    for want in DOUBLING[1:] + ["A"]:
        assert g.position()["needs"] == want
        to_foundation = [m for m in g.legal_moves() if m.dst == "f0"]
        assert len(to_foundation) == 1
        g.play(to_foundation[0])
        played.append(piles(g)["f0"][-1][0])
    assert played == DOUBLING[1:] + ["A"]
    assert g.position()["needs"] == "2"


def test_kings_are_dead_cards() -> None:
    """§4: Kings are dead: a King in the reserve or on top of the waste
    never goes anywhere."""
    g = game(f0="6S", stock="4c", waste="QD KH", **reserve("KS", "2H", "5C", "7C", "8C", "9C",
                                                           "TC"))
    assert legal(g) == {"stock-waste"}


def test_a_king_placed_in_the_reserve_stays_there_for_good() -> None:
    """§4: a King in the reserve stays there: a King refilling a
    space (here from the stock) is never played, and the space never refills again."""
    g = game(f0="AS", stock="4d kh", **reserve("2H", "5C", "7C", "8C", "9C", "TC", "JC"))
    g.play(Move("r0", "f0"))
    assert piles(g)["r0"] == ["KH"]
    g.play(Move("stock", "waste"))
    g.play(Move("waste", "f0"))
    assert piles(g)["r0"] == ["KH"]
    assert not any(m.src == "r0" for m in g.legal_moves())


# ------------------------------------------------------------ §5 Reserve


def test_any_reserve_card_is_available_for_the_foundation() -> None:
    """§5.2: every reserve card may be played to the foundation: every space holding
    the rank needed may play."""
    g = game(f0="AS", **reserve("2H", "5C", "2D", "8C", "9C", "2C", "JC"))
    assert {"r0-f0", "r2-f0", "r5-f0"} == {m for m in legal(g) if m.endswith("-f0")}


def test_no_packing_on_the_reserve() -> None:
    """§8 row 3: nothing is built on the reserve: no move ends on a
    reserve space, in a set-up or in a real deal."""
    g = game(f0="AS", stock="3d", waste="4H", **reserve("2H", "5C", "7C", "8C", "9C", "TC", "JC"))
    for seed in SEEDS:
        g2 = engine.new_game("doublets", seed)
        assert not any(m.dst.startswith("r") for m in g2.legal_moves())
    assert not any(m.dst.startswith("r") for m in g.legal_moves())


def test_a_space_refills_at_once_from_the_waste() -> None:
    """§5.3: an empty place refills at once from the waste: the top waste card
    fills the space the played card left; the stock is untouched."""
    g = game(f0="AS", stock="3d", waste="4H 9S", **reserve("5C", "2H", "7C", "8C", "9C", "TC",
                                                           "JC"))
    g.play(Move("r1", "f0"))
    assert piles(g)["r1"] == ["9S"]
    assert piles(g)["waste"] == ["4H"] and piles(g)["stock"] == ["3d"]


def test_a_space_refills_from_the_stock_when_the_waste_is_empty() -> None:
    """§5.3: a place refills from the waste or, when the waste is empty, from the stock: the top
    stock card, face up."""
    g = game(f0="AS", stock="3d 6h", **reserve("5C", "2H", "7C", "8C", "9C", "TC", "JC"))
    g.play(Move("r1", "f0"))
    assert piles(g)["r1"] == ["6H"] and piles(g)["stock"] == ["3d"]


def test_a_space_stays_empty_when_waste_and_stock_are_empty() -> None:
    """§5.3, §9.4: with no waste and no stock there is nothing to fill the space with."""
    g = game(f0="AS", **reserve("5C", "2H"))
    g.play(Move("r1", "f0"))
    assert piles(g)["r1"] == []


# ------------------------------------------------------------ §6 Stock, §7 Waste


def test_turn_up_one_card_at_a_time() -> None:
    """§6.1: one card at a time from the stock onto the waste: a stock-waste
    move of one card, face up."""
    g = game(f0="AS", stock="3d 6h", **reserve("5C", "7C", "8C", "9C", "TC", "JC", "QC"))
    assert legal(g) == {"stock-waste"}
    g.play(Move("stock", "waste"))
    assert piles(g)["waste"] == ["6H"] and piles(g)["stock"] == ["3d"]


def test_only_the_top_waste_card_is_available() -> None:
    """§7: the waste's top card may be played to the foundation: the 2D under the
    9S is not; once the 9S is covered or gone, a 2 on top plays."""
    g = game(f0="AS", stock="2c", waste="2D 9S", **reserve("5C", "7C", "8C", "9C", "TC", "JC",
                                                           "QC"))
    assert "waste-f0" not in legal(g)
    g.play(Move("stock", "waste"))
    assert "waste-f0" in legal(g)
    g.play(Move("waste", "f0"))
    assert piles(g)["f0"] == ["AS", "2C"] and piles(g)["waste"] == ["2D", "9S"]


def test_two_redeals_three_deals_in_all() -> None:
    """§6.2: two redeals, three times through the cards in all: with the stock empty the waste
    turns over (waste-stock:<cards>, cards out again in the same order) twice; passes
    counts them and info gives the redeals left; a third is not allowed."""
    g = game(f0="AS", stock="3d 6h", **reserve("5C", "2H", "7C", "8C", "9C", "TC", "JC"))
    for left in (2, 1):
        assert g.position()["redeals_left"] == left
        g.play(Move("stock", "waste"))
        g.play(Move("stock", "waste"))
        assert piles(g)["waste"] == ["6H", "3D"]
        assert "waste-stock:2" in legal(g)
        g.play(Move("waste", "stock", 2))
        assert piles(g)["stock"] == ["3d", "6h"] and g.state.passes == 3 - left
    assert g.position()["redeals_left"] == 0
    g.play(Move("stock", "waste"))
    g.play(Move("stock", "waste"))
    assert not any(m.dst == "stock" for m in g.legal_moves())


def test_redeal_only_when_the_stock_is_empty() -> None:
    """§6.2: the redeal turns the waste over once the stock has run out."""
    g = game(f0="AS", stock="3d", waste="6H", **reserve("5C", "7C", "8C", "9C", "TC", "JC", "QC"))
    assert legal(g) == {"stock-waste"}


# ------------------------------------------------------------ §1, §9.5 end of the game


def test_won_when_the_48_non_kings_are_on_the_foundation() -> None:
    """§1: every card that can move goes to the foundation; Kings are dead (§4), so it is
    won when all 48 other cards are there (§9.5)."""
    cycles = [r + s for s in "SHDC" for r in DOUBLING]  # four doubling cycles, one suit each
    assert len(set(cycles)) == 48
    g = game(f0=" ".join(cycles[:-1]), **reserve("KS", "KH", "KD", "KC", "7C"))
    assert g.status == "playing" and g.position()["needs"] == "7"
    g.play(Move("r4", "f0"))
    assert g.status == "won"


def test_lost_when_no_play_no_stock_and_no_redeal_is_left() -> None:
    """§9.5: lost when no legal move exists: no foundation play, no stock card and
    no redeal left; with a redeal left the game goes on."""
    position = dict(f0="AS", waste="3D 6H", **reserve("5C", "7C", "8C", "9C", "TC", "JC", "QC"))
    assert game(passes=2, **position).status == "lost"
    g = game(passes=1, **position)
    assert g.status == "playing" and legal(g) == {"waste-stock:2"}


@pytest.mark.parametrize(
    ("passes", "pile_texts"),
    [
        (3, {"f0": "AS"}),  # two redeals at most
        (0, {"f0": "AS", "r0": "2H 3H"}),  # a space holds one card
        (0, {"f0": "AS", "stock": "3d"}),  # empty spaces refill at once
        (0, {"f0": "AS KS"}),  # no King on the foundation
        (0, {"f0": "AS 3S"}),  # built by doubling
        (0, {}),  # the foundation starts with a card
        (0, {"f0": "AS", **reserve(*"2H 3H 4H 5H 6H 7H 8H".split()), "stock": "9H"}),  # face down
    ],
)
def test_from_position_rejects_positions_doublets_cannot_reach(passes: int,
                                                               pile_texts: dict) -> None:
    """from_position checks set-ups against the rules above."""
    with pytest.raises(ValueError):
        game(passes, **pile_texts)


def test_needs_names_ranks_as_card_text() -> None:
    """info "needs" uses the card-text rank letters (T for ten)."""
    g = game(f0="5S")
    assert g.position()["needs"] == RANKS[9] == "T"
