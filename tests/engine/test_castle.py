"""Beleaguered Castle: every section and the worked example of docs/rules/beleaguered-castle.md.

Sections cited by number: §1 Aim and equipment, §2 Setup and deal, §3 Legal actions,
§4 Scoring, §5 Ending the game, §6 Context and variants, §7 Worked example, §8 Common
questions, §9 what the engine decides (foundation f<i> holds suit i, S H D C).
"""

from __future__ import annotations

from collections import Counter

import pytest

import engine
from engine import Move
from engine.rules.cards import RANK_MASK, standard_deck
from engine.rules.rng import shuffled
from engine.rules.variants import DEAL_MAX
from tests.engine.helpers import cards, piles

SEEDS = (1, 2, 3, 77, 123456, DEAL_MAX)
ACES = {"f0": "AS", "f1": "AH", "f2": "AD", "f3": "AC"}


def suit_run(suit: str, top: str) -> str:
    """Foundation text from the Ace of ``suit`` up to rank ``top``."""
    ranks = "A23456789TJQK"
    return " ".join(r + suit for r in ranks[: ranks.index(top) + 1])


def game(**pile_texts: str) -> engine.Game:
    """A Castle position; foundations default to their Aces (§2 Setup and deal)."""
    texts = dict(ACES, **pile_texts)
    return engine.from_position("beleaguered-castle", {p: cards(t) for p, t in texts.items()})


def legal(g: engine.Game) -> set[str]:
    return {str(m) for m in g.legal_moves()}


# ------------------------------------------------------------ §1, §2, §6: the deal


@pytest.mark.parametrize("seed", SEEDS)
def test_setup_aces_out_and_8_face_up_rows_of_6(seed: int) -> None:
    """§2 Setup and deal: the 4 Aces in the centre (f<i> = suit i); the other 48 cards in
    8 face-up rows of 6. §1: 52 cards without jokers. §6: unlike Streets and Alleys, no
    Ace is left in the deal."""
    p = piles(engine.new_game("beleaguered-castle", seed))
    assert {f: p[f] for f in ACES} == {f: [a] for f, a in ACES.items()}
    rows = [p[f"t{i}"] for i in range(8)]
    assert all(len(r) == 6 for r in rows)
    dealt = [t for r in rows for t in r]
    assert all(t.isupper() for t in dealt)
    assert not any(t[0] == "A" for t in dealt)
    every = Counter(t for pile in p.values() for t in pile)
    assert len(every) == 52 and set(every.values()) == {1}


def test_no_stock_no_free_cell_no_redeal() -> None:
    """§2: there is no stock and no free cell; §6: no FreeCell cells;
    §8 row 3, no draw or redeal: the only piles are 8 rows and
    4 foundations, and no move ever comes from a stock."""
    rules = engine.new_game("beleaguered-castle", 1).rules
    assert rules.pile_ids == tuple(f"t{i}" for i in range(8)) + ("f0", "f1", "f2", "f3")


@pytest.mark.parametrize("seed", SEEDS)
def test_deal_pops_the_shuffled_48_round_the_rows(seed: int) -> None:
    """§9.2: the 48 non-Aces are shuffled with engine.rng.shuffled and dealt from the
    end of the list (pop = top of the deck), one to each row t0..t7 in turn."""
    deck = shuffled([c for c in standard_deck() if c & RANK_MASK != 1], seed)
    rows: list[list[int]] = [[] for _ in range(8)]
    for _ in range(6):
        for row in rows:
            row.append(deck.pop())
    state = engine.new_game("beleaguered-castle", seed).state
    assert [list(r) for r in state.piles[:8]] == rows


# ------------------------------------------------------------ §3 Legal actions


def test_one_rank_higher_regardless_of_suit_or_colour() -> None:
    """§3.1: move one available card onto another row end exactly 1 rank higher,
    regardless of suit or colour: 7♥ fits on 8♣ (and on 8♥, 8♦, 8♠)."""
    g = game(t0="7H", t1="8C", t2="8H", t3="8D", t4="8S")
    assert {"t0-t1", "t0-t2", "t0-t3", "t0-t4"} <= legal(g)


def test_not_two_ranks_higher_nor_the_same_rank() -> None:
    """§3.1: exactly 1 rank higher: 7♥ does not go on 9♣ nor on 7♣, nor 7♣ on 7♥."""
    g = game(t0="7H", t1="9C", t2="7C")
    assert not {"t0-t1", "t0-t2", "t2-t0"} & legal(g)


def test_only_each_outermost_card_is_available() -> None:
    """§2: overlap outward; only each outermost card is available: the 7♥ under the 2♠
    cannot move onto the 8♣."""
    g = game(t0="7H 2S", t1="8C")
    assert "t0-t1" not in legal(g)


def test_an_empty_row_accepts_any_card_not_only_a_king() -> None:
    """§3.2: an empty row accepts any available card, not only a king (§8 row 2)."""
    g = game(t0="KH 5D", t1="QS 3C", t2="")
    assert {"t0-t2", "t1-t2"} <= legal(g)
    g.play(Move("t1", "t2"))
    assert piles(g)["t2"] == ["3C"]


def test_never_a_sequence_as_a_unit() -> None:
    """§3.3: never move a sequence as a unit (§8 row 1: a whole run moves only
    through a sequence of legal individual moves): 8♦ 7♣ does not go together onto 9♠
    nor into the empty row; every legal move in real deals moves one card."""
    g = game(t0="8D 7C", t1="9S", t2="")
    assert not any(m.count > 1 for m in g.legal_moves())
    with pytest.raises(engine.IllegalMove):
        g.play(Move("t0", "t1", 2))
    for seed in SEEDS:
        assert all(m.count == 1 for m in engine.new_game("beleaguered-castle", seed).legal_moves())


def test_the_run_moves_card_by_card() -> None:
    """§8 row 1: a whole run moves only as a series of legal single-card moves: 8♦ 7♣ reach the
    9♠ through the empty row."""
    g = game(t0="8D 7C", t1="9S", t2="")
    for text in ("t0-t2", "t0-t1", "t2-t1"):
        g.play(engine.parse_move(g, text))
    assert piles(g)["t1"] == ["9S", "8D", "7C"]


def test_a_foundation_accepts_the_next_card_of_its_own_suit() -> None:
    """§3.4: a foundation accepts the next card of its own suit: 2♦ on A♦, not 3♦ on A♦,
    not 2♠ on A♦."""
    g = game(t0="2D", t1="3D", t2="2S")
    assert "t0-f2" in legal(g)
    assert not {"t1-f2", "t2-f2", "t0-f0", "t0-f1", "t0-f3"} & legal(g)
    assert "t2-f0" in legal(g)


def test_no_king_to_ace_wrap() -> None:
    """§3.4: there is no K–A wrap: a foundation that reached its King takes nothing more."""
    g = game(f0=suit_run("S", "Q"), t0="KS")
    g.play(Move("t0", "f0"))
    assert piles(g)["f0"][-1] == "KS"
    assert not any(m.dst == "f0" for m in g.legal_moves())


def test_foundation_cards_cannot_return() -> None:
    """§3.5: foundation cards cannot return: even onto a row one rank higher or into an
    empty row, no move starts at a foundation."""
    g = game(f1=suit_run("H", "7"), t0="8C", t1="")
    assert not any(m.src.startswith("f") for m in g.legal_moves())


# ------------------------------------------------------------ §7 Worked example


def test_worked_example_seven_of_hearts_onto_eight_of_clubs_then_two_of_diamonds_home() -> None:
    """§7 Worked example: one row ends 2♦, 7♥ and another in 8♣. Move 7♥ onto 8♣
    (different suits are legal); this uncovers 2♦, and with A♦ on its foundation the 2♦
    goes there. The two cards cannot move together as a packet."""
    g = game(t0="2D 7H", t1="8C")
    assert "t0-t1" in legal(g)
    assert "t0-t1:2" not in legal(g)
    assert "t0-f2" not in legal(g)  # 2♦ is covered
    g.play(Move("t0", "t1"))
    assert piles(g)["t1"] == ["8C", "7H"] and piles(g)["t0"] == ["2D"]
    assert "t0-f2" in legal(g)
    g.play(Move("t0", "f2"))
    assert piles(g)["f2"] == ["AD", "2D"] and piles(g)["t0"] == []


# ------------------------------------------------------------ 04, 05


def test_scoring_records_foundation_cards_but_only_52_wins() -> None:
    """§4 Scoring: the number of foundation cards may be recorded (position extra
    foundation_cards); it is not another winning condition: 51 is still play."""
    g = game(f0=suit_run("S", "K"), f1=suit_run("H", "K"), f2=suit_run("D", "K"),
             f3=suit_run("C", "Q"), t0="KC")
    assert g.position()["foundation_cards"] == 51
    assert g.status == "playing"


def test_win_when_all_four_foundations_end_in_kings() -> None:
    """§5.1: win when all 4 foundations end in kings and no cards remain elsewhere."""
    g = game(f0=suit_run("S", "K"), f1=suit_run("H", "K"), f2=suit_run("D", "K"),
             f3=suit_run("C", "Q"), t0="KC")
    g.play(Move("t0", "f3"))
    assert g.status == "won"
    assert g.position()["foundation_cards"] == 52


def test_no_legal_continuation_is_lost() -> None:
    """§5.2: with no legal continuation the puzzle is unsolved (status "lost"); no stock
    or redeal rescues it."""
    g = game(**{f"t{i}": t for i, t in enumerate("5S 5H 5D 5C 9S 9H 9D 9C".split())})
    assert g.legal_moves() == []
    assert g.status == "lost"


def test_repeating_moves_is_not_victory() -> None:
    """§5.3: repeating moves is not victory: moving a card back and forth between two
    eights leaves the game in play with the same foundations."""
    g = game(t0="8C 7H", t1="8S")
    for _ in range(3):
        g.play(Move("t0", "t1"))
        g.play(Move("t1", "t0"))
    assert g.status == "playing"
    assert g.position()["foundation_cards"] == 4


@pytest.mark.parametrize(
    "pile_texts",
    [
        {"f0": "AH"},  # f0 holds spades
        {"f2": "AD 3D"},  # one rank at a time
        {"t0": "9h"},  # every card lies face up
        {"t0": "9H", "t1": "9H"},  # one pack
    ],
)
def test_from_position_rejects_positions_castle_cannot_reach(pile_texts: dict) -> None:
    """from_position checks set-ups against §1-§3."""
    with pytest.raises(ValueError):
        game(**pile_texts)
