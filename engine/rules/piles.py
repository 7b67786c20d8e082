"""Pile operations and checks shared by the games.

Every function works on a ``list`` of piles (tuples of card ints) by pile index, so
each game's ``apply`` stays a few lines long and pure: it copies ``state.piles`` into
a list, calls these, and returns a new State.

>>> piles = [(), (1 | DOWN, 2 | DOWN)]
>>> turn_stock(piles, 1, 0); piles
[(2,), (65,)]
>>> turn_stock(piles, 1, 0); recycle(piles, 1, 0); piles   # out again in the same order
[(), (65, 66)]
"""

from .cards import DOWN, RANK_MASK, card_text, make_card
from .compat import TYPE_CHECKING
from .state import Pile, State

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


def flip_top(pile: Pile) -> Pile:
    """``pile`` with its top card turned face up."""
    if pile and pile[-1] & DOWN:
        return pile[:-1] + (pile[-1] & ~DOWN,)
    return pile


def top_run(pile: Pile, follows: "Callable[[int, int], bool]") -> int:
    """How many top cards of ``pile`` are face up, each on one it ``follows(below, above)``.

    >>> top_run((5, 4 | DOWN, 3, 2), lambda below, above: below == above + 1)
    2
    """
    n = len(pile)
    if not n or pile[-1] & DOWN:
        return 0
    k = 1
    while k < n:
        below, above = pile[-k - 1], pile[-k]
        if below & DOWN or not follows(below, above):
            break
        k += 1
    return k


def move_cards(piles: list[Pile], src: int, dst: int, count: int) -> None:
    """Move the top ``count`` cards of ``src`` onto ``dst``; an exposed face-down card flips."""
    group = piles[src][-count:]
    piles[src] = flip_top(piles[src][:-count])
    piles[dst] = piles[dst] + group


def turn_stock(piles: list[Pile], stock: int, waste: int) -> None:
    """Turn the top card of the stock face up onto the waste."""
    piles[waste] = piles[waste] + (piles[stock][-1] & ~DOWN,)
    piles[stock] = piles[stock][:-1]


def recycle(piles: list[Pile], stock: int, waste: int) -> None:
    """Turn the waste over to be the stock: its cards come out again in the same order."""
    piles[stock] = tuple(c | DOWN for c in reversed(piles[waste]))
    piles[waste] = ()


def suit_foundation_takes(foundation: Pile, card: int) -> bool:
    """True when a one-suit foundation built up from the Ace takes ``card`` next.

    The games keep foundation ``f<i>`` for suit ``i`` (spades, hearts, diamonds, clubs),
    so the caller passes the foundation of the card's suit; a pile of ``n`` cards holds
    Ace..n and takes rank ``n + 1``.
    """
    return (card & RANK_MASK) == len(foundation) + 1 and not card & DOWN


def check_unique(state: State) -> None:
    """ValueError when a card appears twice (one deck: every card is unique)."""
    seen: set[int] = set()
    for pile in state.piles:
        for card in pile:
            face = card & ~DOWN
            if face in seen:
                raise ValueError(f"card {card_text(face)} appears twice")
            seen.add(face)


def check_faces(piles: "Iterable[Pile]", down: bool, what: str) -> None:
    """ValueError unless every card of ``piles`` lies face down (``down``) or face up."""
    for pile in piles:
        for card in pile:
            if bool(card & DOWN) != down:
                side = "face down" if down else "face up"
                raise ValueError(f"{what} cards lie {side}, not {card_text(card)}")


def check_suit_foundations(foundations: "Iterable[Pile]") -> None:
    """ValueError unless foundation ``f<i>`` holds suit ``i`` from the Ace up, in order."""
    for suit, pile in enumerate(foundations):
        for rank, card in enumerate(pile, start=1):
            want = make_card(rank, suit)
            if card != want:
                raise ValueError(f"foundation f{suit} is built from the Ace of its suit: "
                                 f"card {rank} must be {card_text(want)}, not {card_text(card)}")
