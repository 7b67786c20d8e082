"""Klondike's dead test: :func:`dead` proves that some card can never reach its foundation
(docs/solver.md §7.18, §7.24), so the search need not expand the position.

It is a least fixed point over bit masks of cards (:mod:`.klondike_bits`) that over-estimates
what can ever happen, and then the twins' test; the search (klondike.py) memoizes what each
column gives it (:func:`column_bits`).
"""

from __future__ import annotations

from ..rules.cards import DOWN, KING, RANK_MASK
from ..rules.klondike import COLUMNS, F0, alternating_run
from ..rules.state import Pile
from .klondike_bits import (
    ACES,
    ALL,
    BLACK_LANES,
    HOME,
    KING_BITS,
    RED_LANES,
    UP,
    pair,
)

ColumnBits = tuple[int, int, int, dict[int, int], int, tuple[tuple[int, int], ...], int]


def dead(piles: tuple[Pile, ...] | list[Pile],
         columns: dict[Pile, ColumnBits] | None = None, twins: bool = True) -> bool:
    """True when some card can provably never reach its foundation (so: lost).

    First a least fixed point (:func:`_closure`) that over-estimates what can ever happen,
    ignoring that a card can hold only one card at a time and the order of events. Then
    the twins' test, which asks the same fixed point what can happen *before* a card first
    moves (docs/solver.md §7.24): a face-down card Y whose twin T (same rank and colour)
    is in the talon, or lies face down or at the foot of its run, is stuck when

    - until Y moves, Y's Ace-to-predecessor can't all go home, nor can T (a lower card of
      T's suit lies under Y), and one place of theirs, P2, never lies exposed;
    - as long as T stays where it is (in the talon, or at its spot), Y can't move.

    For then Y's first move needs T moved first, and T's only way out is onto the other
    place P, where it stays (it can't go home, nor to P2), covering the one place Y could
    take. ``twins`` False: the fixed point alone.

    ``columns`` memoizes what each column tuple contributes.
    """
    if columns is None:
        columns = {}
    in_column = movable = uncovered = 0
    under: dict[int, int] = {}  # column card's bit -> the bit of the card under it (see below)
    emptyable = False
    for column in piles[:COLUMNS]:
        if not column:
            emptyable = True
            continue
        bits = columns.get(column)
        if bits is None:
            bits = columns[column] = column_bits(column)
        in_column |= bits[0]
        movable |= bits[1]
        uncovered |= bits[2]
        under.update(bits[3])
    home = HOME[len(piles[F0])] | HOME[len(piles[F0 + 1])] << 16 | \
        HOME[len(piles[F0 + 2])] << 32 | HOME[len(piles[F0 + 3])] << 48
    start = (in_column, movable, uncovered, under, emptyable, home)
    talon_bits = ALL & ~in_column & ~home
    # the plain fixed point: _closure(start, 0, 0, 0) >= 0 (its rules are in its docstring),
    # written out, as it is asked of every position and most are dead
    found_tops = home & ~(home >> 1)  # each foundation's top card
    # every card is in a column, the talon or on a foundation
    talon_or_tops = (ALL & ~in_column & ~home) | found_tops
    found = home
    loose = ALL & ~in_column  # talon and foundation cards
    exposed = uncovered
    left = 0
    while True:
        reach = home | loose | uncovered
        home = ((reach + ACES) & ~reach) - ACES
        if home == ALL:
            break
        black = (exposed | (exposed >> 48)) & 0xFFFF
        red = ((exposed >> 16) | (exposed >> 32)) & 0xFFFF
        onto = (black >> 1) * RED_LANES | (red >> 1) * BLACK_LANES
        if emptyable:
            onto |= KING_BITS
        new_left = ((uncovered & home) | ((uncovered | movable) & onto)) & in_column & ~left
        new_exposed = (talon_or_tops | found & (exposed >> 1)) & onto & ~exposed
        if not new_left and not new_exposed:
            return True
        exposed |= new_exposed
        freed, left, emptied = _walk_down(new_left, left | new_left, under, onto)
        emptyable |= emptied
        uncovered |= freed
        exposed |= freed
    if not twins:
        return False
    lone: list[tuple[int, int]] = []
    lone_bits = down = 0
    for column in piles[:COLUMNS]:
        if column:
            bits = columns[column]
            lone += bits[5]
            down |= bits[6]
    for bit, _ in lone:
        lone_bits |= bit
    for y, below in lone:
        # (asked only where it has been seen to fire: Y face down, T in the talon or a
        # place of Y or a lower card of its suit under Y)
        if not y & down:
            continue
        twin = _TWIN_BITS[y]
        if not below & _LOWER_BITS[twin] or not (
                twin & talon_bits or twin & lone_bits and below & _BLOCKS_BITS[y]):
            continue
        # until Y moves: neither T nor Y's predecessor home, and which places lie exposed
        places = _PLACES_BITS[y]
        exposed = _closure(start, y, twin | y >> 1, 0, places)
        if exposed < 0:
            continue
        open_places = places & exposed
        if not open_places:
            return True
        if open_places != places and _closure(start, twin, 0, y) >= 0:
            return True
    return False


def _walk_down(new_left: int, left: int, under: dict[int, int], onto: int
               ) -> tuple[int, int, bool]:
    """What the cards of ``new_left`` leaving uncovers: under each, the card below it is
    uncovered, and leaves at once too when one of its places (``onto``) lies exposed, and
    so on down. Returns the cards uncovered, ``left`` with those that leave added, and
    whether a column can be emptied (a bottom card, not a King, left)."""
    freed = 0
    emptied = False
    while new_left:
        low = new_left & -new_left
        new_left ^= low
        while True:
            below = under[low]
            if below <= 0:  # it was the bottom card: -1 unless a King
                if below:
                    emptied = True
                break
            freed |= below
            if left & below or not onto & below:
                break
            left |= below
            low = below
    return freed, left, emptied


def _closure(start: tuple[int, int, int, dict[int, int], bool, int], hold: int,
             goal_home: int, goal_left: int, goal_exposed: int = -1) -> int:
    """The least fixed point of what can happen while the cards of ``hold`` stay where they
    are (a column card never leaves its spot, a talon card never enters a column): -1 as
    soon as some card of ``goal_home`` can reach its foundation, some card of ``goal_left``
    can leave its spot, every card of ``goal_exposed`` (-1: none) can lie exposed at a
    column's top, or every card can reach its foundation; otherwise the cards that can lie
    exposed at a column's top.

    - a column card is *uncovered* if it is a column's top or the card on it can leave;
    - a column card can *leave* when it can move (it is in the top run or uncovered) and
      it can go to its foundation (uncovered, and the card below it in its suit can), or
      onto a card of one rank higher and the other colour that can lie exposed, or, as a
      King, into a column that can be emptied (a column whose bottom card, not a King,
      can leave);
    - a talon card can lie exposed in a column if it has such a place, and so can a
      foundation card on top of its foundation, or one whose card above can lie exposed
      (a foundation's cards come off from the top, each to a place in a column);
    - a card can reach its foundation if the card below it in its suit can and it lies
      in the talon or on a foundation, or is uncovered.

    A card under another in the same column only becomes uncovered if some run card
    between them left and took the upper one along, so no exception is needed for it.

    The sets are bit masks over the card numbers (suit * 16 + rank), so a whole rule is a
    few integer operations.
    """
    in_column, movable, uncovered, under, emptyable, home = start
    found_tops = home & ~(home >> 1)  # each foundation's top card
    # every card is in a column, the talon or on a foundation
    talon_or_tops = (ALL & ~in_column & ~home) | found_tops
    found = home
    loose = ALL & ~in_column  # talon and foundation cards
    exposed = uncovered
    left = hold  # (held column cards never leave; so none is counted twice)
    free = ~hold
    while True:
        # home: the longest run up from the Ace of each suit of cards home, loose or uncovered
        reach = home | loose | (uncovered & free)
        home = ((reach + ACES) & ~reach) - ACES
        if home == ALL or home & goal_home:
            return -1
        # the cards one of whose places (one rank higher, other colour) lies exposed
        black = (exposed | (exposed >> 48)) & 0xFFFF
        red = ((exposed >> 16) | (exposed >> 32)) & 0xFFFF
        onto = (black >> 1) * RED_LANES | (red >> 1) * BLACK_LANES
        if emptyable:
            onto |= KING_BITS
        new_left = ((uncovered & home) | ((uncovered | movable) & onto)) & in_column & ~left
        # a foundation card comes out only after the one on it did
        new_exposed = (talon_or_tops | found & (exposed >> 1)) & onto & ~exposed & free
        if not new_left and not new_exposed:
            return exposed
        exposed |= new_exposed
        freed, left, emptied = _walk_down(new_left, left | new_left, under, onto)
        emptyable |= emptied
        if left & goal_left:
            return -1
        uncovered |= freed
        exposed |= freed
        if exposed & goal_exposed == goal_exposed:
            return -1


_TWIN_BITS = {1 << c: 1 << (c ^ 0x30) for c in range(64) if 1 < c & RANK_MASK < KING}  # same
# rank and colour (spades 0 and clubs 3, hearts 1 and diamonds 2: the suit's bits flipped)
_CARDS = [c for c in range(64) if 1 <= c & RANK_MASK <= KING]
_LOWER_BITS = {1 << c: ((1 << (c & RANK_MASK)) - 2) << (c & 0x30) for c in _CARDS}  # the
# lower cards of a card's suit
_PLACES_BITS = {1 << c: sum(1 << p for p in pair(c, 1)) for c in _CARDS}  # the cards a card
# may be built on
_BLOCKS_BITS = {bit: _PLACES_BITS[bit] | _LOWER_BITS[bit] for bit in _PLACES_BITS}


def column_bits(column: Pile) -> ColumnBits:
    """What a column gives :func:`dead`: its cards, its run's cards and its top card as bit
    masks, the bit of the card under each of its cards (for the bottom card -1, or 0 for a
    King), the length of its run, the cards that move only from their spot (face down or
    at the foot of the run; not Aces or Kings), each with the cards under it, and its face
    down cards."""
    cards = movable = 0
    under: dict[int, int] = {}
    below = 0
    for card in column:
        bit = 1 << (card & UP)
        cards |= bit
        under[bit] = below or (0 if card & RANK_MASK == KING else -1)
        below = bit
    run = alternating_run(column)
    for card in column[len(column) - run:]:
        movable |= 1 << card
    # the cards that move only from their spot (face down or at the foot of the run), not
    # Aces or Kings, each with the cards under it
    lone = []
    under_it = down = 0
    foot = len(column) - run
    for i, card in enumerate(column[:foot + 1]):
        bit = 1 << (card & UP)
        if card & DOWN:
            down |= bit
        if 1 < card & RANK_MASK < KING and (card & DOWN or i == foot):
            lone.append((bit, under_it))
        under_it |= bit
    return cards, movable, below, under, run, tuple(lone), down
