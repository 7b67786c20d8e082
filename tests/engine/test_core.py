"""The engine core: cards, PCG32 and the shuffle, move text, parse_move, from_position, Game.

Rules-independent behaviour; the rules of each game are tested in its own file.
"""

from __future__ import annotations

import pytest

import engine
from engine.rules import rng
from engine.rules.cards import (
    DOWN,
    card_name,
    card_text,
    is_down,
    is_red,
    make_card,
    parse_card,
    rank_of,
    standard_deck,
    suit_of,
)
from engine.rules.moves import IllegalMove, Move, read_move
from engine.rules.variants import DEAL_MAX, DEAL_MIN
from tests.engine.helpers import cards, piles, snapshot

# ---------------------------------------------------------------- cards


@pytest.mark.parametrize("suit", range(4))
@pytest.mark.parametrize("rank", range(1, 14))
def test_card_bits_and_text_round_trip(rank: int, suit: int) -> None:
    """Every card: rank and suit bits, face-up text upper case, face-down lower case."""
    card = make_card(rank, suit)
    assert (rank_of(card), suit_of(card), is_down(card)) == (rank, suit, False)
    text = card_text(card)
    assert text == "A23456789TJQK"[rank - 1] + "SHDC"[suit]
    assert parse_card(text) == card
    down = card | DOWN
    assert (rank_of(down), suit_of(down), is_down(down)) == (rank, suit, True)
    assert card_text(down) == text.lower()
    assert parse_card(text.lower()) == down
    assert is_red(card) == is_red(down) == (suit in (1, 2))


def test_card_names() -> None:
    """Accessible names never reveal a face-down card."""
    assert card_name(parse_card("QH")) == "Queen of hearts"
    assert card_name(parse_card("AS")) == "Ace of spades"
    assert card_name(parse_card("TC")) == "Ten of clubs"
    assert card_name(parse_card("qh")) == "face-down card"


@pytest.mark.parametrize("text", ["", "Q", "QSS", "1S", "10H", "QX", "qS", "Qs", " QS", None, 12,
                                  ["QS"]])
def test_parse_card_rejects_unreadable_text(text: object) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)  # type: ignore[arg-type]


def test_standard_deck() -> None:
    deck = standard_deck()
    assert len(deck) == len(set(deck)) == 52
    assert not any(is_down(c) for c in deck)
    assert sorted(standard_deck((0, 1), copies=4)) == sorted(
        [make_card(r, s) for r in range(1, 14) for s in (0, 1)] * 4)


# ---------------------------------------------------------------- PCG32, written from its paper

_M64 = (1 << 64) - 1


class ReferencePcg32:
    """PCG-XSH-RR 64/32 as O'Neill's paper and pcg32_srandom_r describe it (written here
    independently of engine.rng): ``inc = initseq << 1 | 1``; seeding steps once, adds
    ``initstate``, steps again; output uses the old state."""

    def __init__(self, initstate: int, initseq: int) -> None:
        self.state = 0
        self.inc = (initseq << 1 | 1) & _M64
        self.step()
        self.state = (self.state + initstate) & _M64
        self.step()

    def step(self) -> int:
        old = self.state
        self.state = (old * 6364136223846793005 + self.inc) & _M64
        xorshifted = ((old ^ (old >> 18)) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((32 - rot) % 32))) & 0xFFFFFFFF

    def bounded(self, bound: int) -> int:
        """pcg32_boundedrand_r: reject the lowest (2**32 mod bound) outputs."""
        threshold = (2**32 - bound) % bound
        while True:
            r = self.step()
            if r >= threshold:
                return r % bound


# pcg32-demo (pcg-c-basic) with initstate 42, initseq 54: the published first outputs.
PUBLISHED_42_54 = [0xA15C02B7, 0x7B47F409, 0xBA1D3330, 0x83D2F293, 0xBFA4784B, 0xCBED606E]
# The engine uses PCG's default increment 1442695040888963407 = 721347520444481703 << 1 | 1.
DEFAULT_SEQ = 721347520444481703


def test_reference_pcg32_reproduces_the_published_demo_stream() -> None:
    ref = ReferencePcg32(42, 54)
    assert [ref.step() for _ in range(6)] == PUBLISHED_42_54


def test_engine_pcg32_on_stream_54_gives_the_published_outputs(monkeypatch) -> None:
    """Same algorithm as the reference: switch the engine to stream 54, compare directly."""
    monkeypatch.setattr(rng, "_INC", 54 << 1 | 1)
    gen = rng.Pcg32(42)
    assert [gen.next_u32() for _ in range(6)] == PUBLISHED_42_54


def test_engine_increment_is_pcg_default() -> None:
    assert rng._INC == DEFAULT_SEQ << 1 | 1 == 1442695040888963407


@pytest.mark.parametrize("seed", [1, 2, 42, 123456, 2**31, DEAL_MAX])
def test_engine_pcg32_matches_reference(seed: int) -> None:
    gen, ref = rng.Pcg32(seed), ReferencePcg32(seed, DEFAULT_SEQ)
    assert [gen.next_u32() for _ in range(500)] == [ref.step() for _ in range(500)]


@pytest.mark.parametrize("bound", [1, 2, 3, 6, 13, 52, 104, 1000, 2**31 + 1, 3 * 2**30, 2**32 - 1])
def test_below_is_pcg_bounded_rand(bound: int) -> None:
    """``below`` is the unbiased rejection method (including large bounds that reject a lot)."""
    gen, ref = rng.Pcg32(7), ReferencePcg32(7, DEFAULT_SEQ)
    got = [gen.below(bound) for _ in range(300)]
    assert got == [ref.bounded(bound) for _ in range(300)]
    assert all(0 <= x < bound for x in got)


def reference_shuffle(items: list[int], seed: int) -> list[int]:
    """Durstenfeld's Fisher-Yates from the last position down, j uniform in 0..i."""
    out, gen = list(items), ReferencePcg32(seed, DEFAULT_SEQ)
    for i in range(len(out) - 1, 0, -1):
        j = gen.bounded(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@pytest.mark.parametrize("seed", [1, 99, 123456, DEAL_MAX])
def test_shuffled_is_fisher_yates_over_pcg32(seed: int) -> None:
    items = list(range(104))
    before = list(items)
    out = rng.shuffled(items, seed)
    assert items == before, "the input list is left alone"
    assert sorted(out) == items
    assert out == reference_shuffle(items, seed)
    assert out == rng.shuffled(items, seed)
    assert out != rng.shuffled(items, seed + 1)


def test_shuffle_position_spread_is_plausible() -> None:
    """A loose sanity check: card 0 lands in each of 8 slots roughly 1/8 of the time."""
    counts = [0] * 8
    for seed in range(1, 4001):
        counts[rng.shuffled(list(range(8)), seed).index(0)] += 1
    assert all(380 < c < 620 for c in counts), counts


# ---------------------------------------------------------------- move text


@pytest.mark.parametrize(("move", "text"), [
    (Move("t3", "t7"), "t3-t7"),
    (Move("t3", "t7", 4), "t3-t7:4"),
    (Move("stock", "tableau", 10), "stock-tableau:10"),
    (Move("waste", "f2"), "waste-f2"),
    (Move("r6", "t0", 1), "r6-t0"),
])
def test_move_text_round_trip(move: Move, text: str) -> None:
    assert str(move) == text
    assert read_move(text) == move


def test_read_move_accepts_explicit_count_one_and_spaces() -> None:
    assert read_move("t0-t1:1") == Move("t0", "t1", 1)
    assert read_move("  t0-t1:12 \n") == Move("t0", "t1", 12)


@pytest.mark.parametrize("text", ["", "t0", "t0-", "-t1", "t0t1", "t0-t1:0", "t0-t1:-1", "t0-t1:x",
                                  "t0-t1:1.5", "t0-t1:²", ":3", None, 5, Move("t0", "t1")])
def test_read_move_rejects_unreadable_text(text: object) -> None:
    with pytest.raises(ValueError) as info:
        read_move(text)  # type: ignore[arg-type]
    assert not isinstance(info.value, IllegalMove)


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)
    assert engine.IllegalMove is IllegalMove


# ---------------------------------------------------------------- parse_move


def test_parse_move_reads_every_legal_move_of_a_deal_back() -> None:
    for variant in engine.VARIANTS:
        game = engine.new_game(variant, 2024)
        for move in game.legal_moves():
            assert engine.parse_move(game, str(move)) == move


def test_parse_move_errors() -> None:
    game = engine.from_position("spider-4", {"t0": cards("KH"), "t1": cards("5S")})
    assert engine.parse_move(game, "t1-t2") == Move("t1", "t2")
    assert engine.parse_move(game, "t1-t2:1") == Move("t1", "t2")
    with pytest.raises(IllegalMove):
        engine.parse_move(game, "t1-t0")  # known piles, illegal here
    with pytest.raises(IllegalMove):
        engine.parse_move(game, "stock-tableau:10")  # nothing to deal
    for text in ("t1-zz", "x9-t0", "waste-t0"):  # piles this game does not have
        with pytest.raises(ValueError, match="unknown pile") as info:
            engine.parse_move(game, text)
        assert not isinstance(info.value, IllegalMove)
    with pytest.raises(ValueError, match="unreadable"):
        engine.parse_move(game, "t1 to t2")


# ---------------------------------------------------------------- new_game and from_position

BAD_SEEDS = [DEAL_MIN - 1, -1, DEAL_MAX + 1, 2**64, "12", "1", 1.5, 1.0, True, False, None, [1]]
BAD_VARIANTS = ["spider-9", "", "Spider-1", "spider", " spider-1", None, 1, ["spider-1"],
                {"spider-1": 1}]


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_new_game_rejects_bad_deal_numbers(seed: object) -> None:
    with pytest.raises(ValueError, match=f"{DEAL_MIN} to {DEAL_MAX}"):
        engine.new_game("spider-1", seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", BAD_VARIANTS)
def test_new_game_rejects_unknown_variants_naming_the_ids(variant: object) -> None:
    with pytest.raises(ValueError, match="unknown variant") as info:
        engine.new_game(variant, 1)  # type: ignore[arg-type]
    assert all(v in str(info.value) for v in engine.VARIANTS)


@pytest.mark.parametrize("seed", [DEAL_MIN, DEAL_MAX])
def test_deal_number_range_ends_are_valid(seed: int) -> None:
    game = engine.new_game("spider-4", seed)
    assert (game.seed, game.status, game.move_count) == (seed, "playing", 0)


def test_a_game_keeps_its_start_and_whether_it_was_dealt() -> None:
    """The solver's desk takes a listed deal's start as proven winnable: only a dealt
    game's start is its deal's."""
    game = engine.new_game("beleaguered-castle", 15)
    dealt = game.state
    game.play(game.legal_moves()[0])
    assert game.state != dealt and game.start == dealt and game.copy().start == dealt
    assert not game.custom and not game.copy().custom
    set_up = engine.from_position("beleaguered-castle", game.rules.texts(dealt), seed=15)
    assert set_up.start == dealt and set_up.custom and set_up.copy().custom


def test_from_position_builds_readable_positions() -> None:
    """Unnamed piles start empty; lower case is face down; the stock lists face-down cards."""
    game = engine.from_position("spider-2", {"t0": ["kh", "QS"], "t3": [], "stock": cards("as 2h")})
    got = piles(game)
    assert got["t0"] == ["kh", "QS"]
    assert game.state.piles[0] == (parse_card("KH") | DOWN, parse_card("QS"))
    assert got["stock"] == ["as", "2h"]
    assert all(got[p] == [] for p in got if p not in ("t0", "stock"))
    assert set(got) == set(game.rules.pile_ids)
    assert (game.seed, game.state.passes, game.move_count) == (1, 0, 0)
    assert engine.from_position("spider-2", {}, passes=2, seed=77).state.passes == 2


@pytest.mark.parametrize(("args", "match"), [
    (("spider-7", {}), "unknown variant"),
    (("spider-1", [("t0", ["KS"])]), "piles"),
    (("spider-1", {"t10": ["KS"]}), "unknown piles"),
    (("spider-1", {"waste": ["KS"]}), "unknown piles"),
    (("spider-1", {"t0": "KS"}), "list"),
    (("spider-1", {"t0": ["K"]}), "not a card"),
    (("spider-1", {"t0": [13]}), "not a card"),
    (("spider-1", {}, -1), "passes"),
    (("spider-1", {}, True), "passes"),
    (("spider-1", {}, "0"), "passes"),
    (("spider-1", {}, 0, 0), "deal number"),
])
def test_from_position_rejects_bad_set_ups(args: tuple, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        engine.from_position(*args)


# ---------------------------------------------------------------- Game: play, undo, redo, copy


def _small_game() -> engine.Game:
    return engine.from_position("spider-4", {
        "t0": cards("5d KH"), "t1": cards("7c QS"), "t2": cards("JD"),
    })


@pytest.mark.parametrize("move", [
    Move("t1", "t0"),          # 7C on QS: wrong rank
    Move("t0", "t1", 2),       # KH QS is no same-suit run, and 7C is no target
    Move("t0", "t3", 3),       # a face-down card cannot move
    Move("t1", "t0", 0),
    Move("t1", "t0", -1),
    Move("t1", "t1"),
    Move("t9", "t0"),          # nothing there
    Move("stock", "tableau", 10),
    Move("zz", "t0"),
    Move("t2", "t0", 1.5),     # type: ignore[arg-type]
    "t2-t0",                   # text is not a Move: use parse_move
    ("t2", "t0", 1),
    None,
])
def test_illegal_move_raises_and_leaves_the_game_unchanged(move: object) -> None:
    """IllegalMove (a ValueError): position, record, history and status all stay the same."""
    game = _small_game()
    game.play(Move("t1", "t0"))
    game.play(Move("t2", "t0"))
    game.undo()  # some history and a redo line to keep
    assert piles(game)["t0"] == ["5d", "KH", "QS"] and game.can_redo
    before = snapshot(game)
    with pytest.raises(IllegalMove):
        game.play(move)  # type: ignore[arg-type]
    assert snapshot(game) == before


def test_move_with_equal_but_odd_count_is_played_as_the_listed_move() -> None:
    """Move('t1', 't0', 1.0) equals the legal move; the game stores the int-count one."""
    game = _small_game()
    game.play(Move("t1", "t0", 1.0))  # type: ignore[arg-type]
    assert piles(game)["t0"] == ["5d", "KH", "QS"]
    assert type(game.moves[0].count) is int
    assert game.record()["moves"] == ["t1-t0"]


def test_undo_redo_and_counters() -> None:
    game = _small_game()
    start = game.position()
    assert (game.can_undo, game.can_redo, game.undo(), game.redo()) == (False, False, False, False)
    assert game.undo_count == 0, "a refused undo is not counted"
    game.play(Move("t1", "t0"))
    after_one = game.position()
    game.play(Move("t2", "t0"))
    assert game.move_count == 2 and game.moves == [Move("t1", "t0"), Move("t2", "t0")]
    assert game.undo() and game.position() == after_one
    assert game.undo() and game.position() == start
    assert (game.undo_count, game.move_count, game.can_undo, game.can_redo) == (2, 0, False, True)
    assert game.redo() and game.position() == after_one
    assert game.moves == [Move("t1", "t0")]
    # a new move drops the redo line
    game.play(Move("t2", "t3"))
    assert not game.can_redo and not game.redo()
    assert game.moves == [Move("t1", "t0"), Move("t2", "t3")]
    assert game.undo_count == 2


def test_copy_is_independent() -> None:
    game = _small_game()
    game.play(Move("t1", "t0"))
    twin = game.copy()
    assert twin.position() == game.position() and twin.record() == game.record()
    twin.undo()
    twin.play(Move("t2", "t5"))
    assert game.moves == [Move("t1", "t0")] and game.position() != twin.position()
    assert game.undo_count == 0


def test_legal_moves_returns_a_fresh_list() -> None:
    game = _small_game()
    moves = game.legal_moves()
    moves.clear()
    assert game.legal_moves() and game.is_legal(Move("t1", "t0"))


def test_position_shape() -> None:
    game = engine.new_game("spider-1", 5)
    pos = game.position()
    assert {"variant", "seed", "status", "piles"} <= set(pos)
    assert (pos["variant"], pos["seed"], pos["status"]) == ("spider-1", 5, "playing")
    assert list(pos["piles"]) == list(game.rules.pile_ids)
    assert "spider-1 deal 5," in repr(game)


def test_the_package_imports_its_modules_on_first_use_and_names_only_its_api() -> None:
    """Importing engine runs no rules module (the page imports them one by one, a few to a
    task); each public name then comes from its module and stays; another name is an
    AttributeError, as on any module."""
    import subprocess
    import sys

    program = (
        "import sys, engine\n"
        "before = sorted(m for m in sys.modules if m.startswith('engine.'))\n"
        "game = engine.new_game('klondike', 3)\n"
        "from engine import Move, hint\n"
        "after = 'engine.rules.game' in sys.modules and 'engine.solver' not in sys.modules\n"
        "kept = 'new_game' in vars(engine) and engine.Move is Move\n"
        "try:\n    engine.no_such_name\nexcept AttributeError:\n    missing = True\n"
        "else:\n    missing = False\n"
        "print(before, after, kept, missing, hint(game) in game.legal_moves())\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "['engine.rules', 'engine.rules.compat'] True True True True"
