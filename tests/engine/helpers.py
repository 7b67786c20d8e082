"""Small helpers shared by the engine tests: readable positions, runs, random play.

The hypothesis settings of the property tests live here too, as a named profile, so
each property test says ``@PROPERTY`` and one environment variable scales them all:
``ENGINE_PROPERTY_PROFILE=engine-thorough`` runs many more examples.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, settings

import engine
from engine.cards import DOWN, RANKS, card_text
from engine.game import Game

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
