"""Small helpers shared by the engine tests: readable positions, runs, random play, and
an independent reading of the Spider rules (the ``spider_*`` functions, see below).

The hypothesis settings of the property tests live here too, as a named profile, so
each property test says ``@PROPERTY`` and one environment variable scales them all:
``ENGINE_PROPERTY_PROFILE=engine-thorough`` runs many more examples.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import engine
from engine.rules.cards import DOWN, KING, RANKS, card_text, make_card
from engine.rules.doublets import doubled
from engine.rules.game import Game
from engine.rules.moves import Move
from engine.rules.state import State

T = TypeVar("T")

_COMMON: dict[str, Any] = {
    "deadline": None,  # playouts vary in length; time is bounded by max_examples instead
    "suppress_health_check": [HealthCheck.too_slow],
}
settings.register_profile("engine", max_examples=20, **_COMMON)
settings.register_profile("engine-thorough", max_examples=300, **_COMMON)
PROPERTY = settings(settings.get_profile(os.environ.get("ENGINE_PROPERTY_PROFILE", "engine")))


def cards(text: str) -> list[str]:
    """``"kh QS"`` -> ``["kh", "QS"]``: a pile written bottom to top."""
    return text.split()


def run(high: str, low: str, down: bool = False) -> list[str]:
    """The same-suit descending run from ``high`` to ``low``, e.g. ``run("KS", "2S")``."""
    suit = high[1]
    assert low[1] == suit, "run() builds one suit; write mixed runs out with cards()"
    hi, lo = RANKS.index(high[0]), RANKS.index(low[0])
    out = [RANKS[r] + suit for r in range(hi, lo - 1, -1)]
    return [t.lower() for t in out] if down else out


def full_run(suit: str) -> list[str]:
    """A complete King..Ace run of ``suit`` (one of S H D C)."""
    return run("K" + suit, "A" + suit)


def piles(game: Game) -> dict[str, list[str]]:
    """The position's piles (card texts, bottom to top)."""
    return game.position()["piles"]


def identities(game: Game) -> Counter[str]:
    """The multiset of card identities in every pile, ignoring which way they face."""
    return Counter(card_text(c & ~DOWN) for pile in game.state.piles for c in pile)


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything observable about a game, to compare before/after an action."""
    return (
        game.state,
        game.position(),
        game.record(),
        game.moves,
        game.move_count,
        game.undo_count,
        game.can_undo,
        game.can_redo,
        game.status,
        game.legal_moves(),
    )


def _choices(seed: int, steps: int) -> list[int]:
    rnd = random.Random(seed)
    return [rnd.randrange(2**16) for _ in range(steps)]


def playouts(max_steps: int = 300) -> st.SearchStrategy[list[int]]:
    """Choice lists for :func:`play_random`: long enough to reach deals, clears and wins
    (hypothesis's own lists stay short), shrinking towards fewer steps."""
    return st.builds(_choices, st.integers(0, 2**32 - 1), st.integers(0, max_steps))


def pick(game: Game, choice: int) -> engine.Move:
    """A legal move chosen by ``choice``: mostly the hint (so runs build and clear, games
    get won), otherwise the legal move at index ``choice // 3`` (modulo their number)."""
    legal = game.legal_moves()
    if choice % 3:
        move = engine.hint(game)
        if move is not None:
            return move
    return legal[(choice // 3) % len(legal)]


def play_random(game: Game, choices: list[int]) -> list[engine.Move]:
    """Play one legal move per entry of ``choices`` (see :func:`pick`).

    Stops early when the game is over. Returns the moves played.
    """
    played = []
    for choice in choices:
        if game.status != "playing":
            break
        move = pick(game, choice)
        game.play(move)
        played.append(move)
    return played


# ---------------------------------------------------------------- Spider, read independently
# Written straight from docs/rules/spider.md (§4-§7) and
# docs/rules/spider-relaxed.md (§4-§6) on the text form of a position, without engine
# internals, so tests can check the engine's move list and results in positions of real play.

SPIDER_COLUMNS = [f"t{i}" for i in range(10)]
SPIDER_FOUNDATIONS = [f"f{i}" for i in range(8)]
SPIDER_DEAL = Move("stock", "tableau", 10)


def text_rank(text: str) -> int:
    """1 (Ace) .. 13 (King) of a card text."""
    return RANKS.index(text[0].upper()) + 1


def text_suit(text: str) -> str:
    """The suit letter S H D C of a card text."""
    return text[1].upper()


def text_face_up(text: str) -> bool:
    """Upper case is face up."""
    return text[1].isupper()


def spider_movable(group: list[str], relaxed: bool) -> bool:
    """Section 4: one face-up card, or a face-up descending run (same suit unless relaxed)."""
    if not all(text_face_up(c) for c in group):
        return False
    for below, above in zip(group, group[1:], strict=False):
        if text_rank(below) != text_rank(above) + 1:
            return False
        if not relaxed and text_suit(below) != text_suit(above):
            return False
    return True


def spider_moves(piles: dict[str, list[str]], relaxed: bool) -> set[Move]:
    """Every legal move: spider.md §4 for the tableau, §6 for the deal."""
    out: set[Move] = set()
    for src in SPIDER_COLUMNS:
        col = piles[src]
        for k in range(1, len(col) + 1):
            group = col[-k:]
            if not spider_movable(group, relaxed):
                break
            for dst in SPIDER_COLUMNS:
                target = piles[dst]
                if dst == src:
                    continue
                if not target or (text_face_up(target[-1])
                                  and text_rank(target[-1]) == text_rank(group[0]) + 1):
                    out.add(Move(src, dst, k))
    if len(piles["stock"]) >= 10 and all(piles[c] for c in SPIDER_COLUMNS):
        out.add(SPIDER_DEAL)
    return out


def _spider_flip(col: list[str]) -> None:
    """Section 5: the newly exposed top card turns face up."""
    if col and not text_face_up(col[-1]):
        col[-1] = col[-1].upper()


def _spider_clear(piles: dict[str, list[str]], column: str) -> None:
    """Section 7: a face-up King..Ace run of one suit on top of a column leaves for a foundation."""
    col = piles[column]
    top = col[-13:]
    if (len(top) == 13 and all(text_face_up(c) for c in top)
            and [text_rank(c) for c in top] == list(range(13, 0, -1))
            and len({text_suit(c) for c in top}) == 1):
        free = next(f for f in SPIDER_FOUNDATIONS if not piles[f])
        piles[free] = top
        del col[-13:]
        _spider_flip(col)


def spider_apply(piles: dict[str, list[str]], move: Move) -> dict[str, list[str]]:
    """The position after ``move`` with its automatic flips and clears."""
    out = {pid: list(pile) for pid, pile in piles.items()}
    if move == SPIDER_DEAL:
        stock = out["stock"]
        for i, column in enumerate(SPIDER_COLUMNS):
            out[column].append(stock[-1 - i].upper())
        del stock[-10:]
        for column in SPIDER_COLUMNS:
            _spider_clear(out, column)
        return out
    src, dst = out[move.src], out[move.dst]
    group = src[-move.count:]
    del src[-move.count:]
    _spider_flip(src)
    dst.extend(group)
    _spider_clear(out, move.dst)
    return out


# --- brute force over the real rules (the solver tests' referee) ---------------------------


def reachable(game: Game, goal: Callable[[State], bool], limit: int = 50_000) -> bool | None:
    """Whether a state meeting ``goal`` is reachable from ``game``'s position with every
    legal move of the real rules, over exact states -- except that states whose tableau
    columns are the same up to order count as one (the rules treat every column alike;
    Spider's only once the stock is out). None when there are more than ``limit`` states."""
    rules, start = game.rules, game.state
    columns = sum(1 for pid in rules.pile_ids if pid.startswith("t"))
    spider = rules.variant.startswith("spider")

    def key(state: State) -> tuple[object, ...]:
        piles = state.piles
        if spider and piles[-1]:
            return tuple(piles), state.passes
        return tuple(sorted(piles[:columns])), piles[columns:], state.passes

    def children(state: State) -> Iterable[State]:
        # plays to a foundation last onto the stack, so first off it: wins come quickly
        for move in sorted(rules.moves(state), key=lambda m: m.dst.startswith("f")):
            yield rules.apply(state, move)

    return depth_first(start, children, goal, key, limit)


def depth_first(start: T, children: Callable[[T], Iterable[T]], goal: Callable[[T], bool],
                key: Callable[[T], Hashable] = lambda x: x,
                limit: int = 50_000) -> bool | None:
    """Whether a position meeting ``goal`` is reachable from ``start`` by ``children``,
    each position met once by its ``key``; None when there are more than ``limit``."""
    seen = {key(start)}
    stack = [start]
    while stack:
        position = stack.pop()
        if goal(position):
            return True
        for child in children(position):
            k = key(child)
            if k not in seen:
                seen.add(k)
                stack.append(child)
        if len(seen) > limit:
            return None
    return False


def brute_force(game: Game, limit: int = 50_000) -> bool | None:
    """Whether a win is reachable with the real rules (see :func:`reachable`)."""
    return reachable(game, game.rules.is_won, limit)


def replays_to_win(game: Game, moves: list[Move]) -> bool:
    """True when ``moves`` play legally from ``game``'s position (on a copy) to a win."""
    check = game.copy()
    for move in moves:
        check.play(move)
    return check.status == "won"


def check_against_brute_force(game: Game, limit: int = 50_000) -> bool | None:
    """Solve ``game`` and assert the answer is the brute force's (wins replayed); return
    whether it is winnable, or None (nothing checked) past ``limit`` brute-force states."""
    expected = brute_force(game, limit)
    if expected is None:
        return None
    answer = engine.solve(game, budget_ms=20_000)
    assert answer.result == ("won" if expected else "lost"), game.position()
    if expected:
        assert replays_to_win(game, answer.moves)
    return expected


def klondike_from(piles: dict[str, list[str]], rest: list[int], talon: int, cut: int,
                  columns: int) -> Game:
    """A Klondike position: ``piles`` (the foundations) with ``rest[:cut]`` as the waste,
    ``rest[cut:talon]`` face down as the stock and the other cards dealt over ``columns``
    columns, face down under each column's top card."""
    piles["waste"] = [card_text(c) for c in rest[:cut]]
    piles["stock"] = [card_text(c | DOWN) for c in rest[cut:talon]]
    for i, card in enumerate(rest[talon:]):
        pile = piles.setdefault(f"t{i % columns}", [])
        if pile:
            pile[-1] = pile[-1].lower()
        pile.append(card_text(card))
    return engine.from_position("klondike", piles)


def doublets_position(rng: random.Random, low: int, high: int) -> Game:
    """A Doublets position with ``low..high`` cards on the foundation, the talon cut
    anywhere, any number of redeals used."""
    deck = [make_card(r, s) for s in range(4) for r in range(1, KING + 1)]
    rng.shuffle(deck)
    rank = rng.randint(1, 12)
    found = []
    for _ in range(rng.randint(low, high)):
        card = next(c for c in deck if c & 15 == rank)
        deck.remove(card)
        found.append(card_text(card))
        rank = doubled(rank)
    piles: dict[str, list[str]] = {"f0": found}
    for i in range(7):
        piles[f"r{i}"] = [card_text(deck.pop())]
    cut = rng.randint(0, len(deck))
    piles["waste"] = [card_text(c) for c in deck[:cut]]
    piles["stock"] = [card_text(c | DOWN) for c in deck[cut:]]
    return engine.from_position("doublets", piles, passes=rng.randint(0, 2))
