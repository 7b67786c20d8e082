"""Cards as small integers, and their text form.

A card is an ``int``: bits 0-3 hold the rank (1 = Ace .. 13 = King), bits 4-5 the
suit (0 spades, 1 hearts, 2 diamonds, 3 clubs) and bit 6 is set when the card lies
face down. Integers keep game states cheap to copy and to hash.

>>> card_text(make_card(12, 1))
'QH'
>>> card_text(make_card(12, 1) | DOWN)
'qh'
>>> parse_card('TD') == make_card(10, 2)
True
"""

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = (
    "Ace", "Two", "Three", "Four", "Five", "Six", "Seven",
    "Eight", "Nine", "Ten", "Jack", "Queen", "King",
)
ACE, KING = 1, 13
DOWN = 64
RANK_MASK = 15
SUIT_MASK = 48

_TEXT: dict[int, str] = {}
_PARSE: dict[str, int] = {}


def make_card(rank: int, suit: int) -> int:
    """The face-up card of ``rank`` (1..13) and ``suit`` (0..3)."""
    return suit << 4 | rank


def rank_of(card: int) -> int:
    """The rank, 1 (Ace) .. 13 (King)."""
    return card & RANK_MASK


def suit_of(card: int) -> int:
    """The suit index, 0..3 for S H D C."""
    return (card & SUIT_MASK) >> 4


def is_red(card: int) -> bool:
    """Hearts and diamonds are red."""
    return (card & SUIT_MASK) in (16, 32)


def is_down(card: int) -> bool:
    """True when the card lies face down."""
    return bool(card & DOWN)


def card_text(card: int) -> str:
    """``'QH'`` face up, ``'qh'`` face down."""
    return _TEXT[card]


def parse_card(text: str) -> int:
    """The card of a text such as ``'QH'`` or ``'qh'``; ValueError if unreadable."""
    try:
        return _PARSE[text]
    except (KeyError, TypeError):
        raise ValueError(f"not a card: {text!r} (rank A23456789TJQK + suit SHDC)") from None


def card_name(card: int) -> str:
    """An accessible name: ``'Queen of hearts'`` or ``'face-down card'``."""
    if card & DOWN:
        return "face-down card"
    return f"{RANK_NAMES[rank_of(card) - 1]} of {SUIT_NAMES[suit_of(card)]}"


def standard_deck(suits: tuple[int, ...] = (0, 1, 2, 3), copies: int = 1) -> list[int]:
    """Face-up cards, ``copies`` times each suit in ``suits``, Ace to King within a suit."""
    return [make_card(r, s) for _ in range(copies) for s in suits for r in range(ACE, KING + 1)]


for _s in range(4):
    for _r in range(ACE, KING + 1):
        _c = make_card(_r, _s)
        _t = RANKS[_r - 1] + SUITS[_s]
        _TEXT[_c], _TEXT[_c | DOWN] = _t, _t.lower()
        _PARSE[_t], _PARSE[_t.lower()] = _c, _c | DOWN
