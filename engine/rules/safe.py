"""Safe moves home: foundation moves no line of play could ever want to have held back.

The table plays them for a player who turns on "auto-move safe cards"; the engine itself
never moves a card on its own (docs/rules/klondike.md §7 row 6). What is safe depends on
the game:

- Klondike: a card another card could still want to be built on stays out. A card of rank
  r only ever holds a card of rank r - 1 of the other colour, so it is safe home once both
  foundations of the other colour hold r - 1 (Aces and Twos are always safe).
- Beleaguered Castle: rows build down regardless of suit, so a card of rank r is safe home
  once every other foundation holds r - 1 (the Twos at once: the Aces start home).
- Doublets: nothing. Every card goes to the one foundation, and which copy of a rank to
  play there, and when, is the whole game: a reserve card held back for the next round
  of its rank keeps a space that would otherwise take a waste card, so no move home is
  safe in the sense above.
- Spider: no single card goes home (whole runs clear by themselves), so nothing.

>>> import engine
>>> game = engine.from_position("klondike", {"t0": ["4H"], "t1": ["AS"], "t2": ["2S"]})
>>> [str(m) for m in safe_moves(game)]  # the ace, then the two; the 4 waits for black 3s
['t1-f0', 't2-f0']
"""

from .cards import RANK_MASK, is_red, make_card
from .compat import TYPE_CHECKING
from .game import Game
from .moves import Move
from .state import Pile, Rules, State

# At most every card of two decks goes home, one move each.
STEP_LIMIT = 104

if TYPE_CHECKING:
    from collections.abc import Callable

    SafeTest = Callable[[Rules, State, Move], bool]


def _height(pile: Pile) -> int:
    """The rank on top of a suit foundation (0 when empty)."""
    return pile[-1] & RANK_MASK if pile else 0


def _moved_card(rules: Rules, state: State, move: Move) -> int:
    return state.piles[rules.index[move.src]][-1]


def klondike_safe(rules: Rules, state: State, move: Move) -> bool:
    """Safe when both foundations of the other colour hold the rank below (see above);
    foundation ``f<i>`` holds suit ``i``, so the suit says which piles those are."""
    card = _moved_card(rules, state, move)
    rank = card & RANK_MASK
    opposite = [_height(state.piles[i]) for suit, i in enumerate(rules.roles.foundation)
                if is_red(make_card(1, suit)) != is_red(card)]
    return rank <= 2 or rank <= min(opposite) + 1


def castle_safe(rules: Rules, state: State, move: Move) -> bool:
    """Safe when every other foundation holds the rank below (see above)."""
    card = _moved_card(rules, state, move)
    dst = rules.index[move.dst]
    others = [_height(state.piles[i]) for i in rules.roles.foundation if i != dst]
    return (card & RANK_MASK) <= min(others) + 1


SAFE_TESTS: "dict[str, SafeTest]" = {
    "klondike": klondike_safe,
    "beleaguered-castle": castle_safe,
}


def safe_moves(game: Game) -> list[Move]:
    """The safe moves home from here, one after another, each played on the position the
    one before left (first in the rules' order); [] when there is none or the game has
    none (Spider, Doublets)."""
    rules = game.rules
    test = SAFE_TESTS.get(rules.variant)
    if test is None or game.status != "playing":
        return []
    state, moves = game.state, []
    for _ in range(STEP_LIMIT):
        if rules.is_won(state):
            break
        move = next((m for m in rules.moves(state) if rules.role(m.dst) == "foundation"
                     and rules.role(m.src) != "foundation" and test(rules, state, m)), None)
        if move is None:
            break
        state = rules.apply(state, move)
        moves.append(move)
    return moves


__all__ = ["SAFE_TESTS", "safe_moves"]
