"""Words the table shows: game titles, pile names, card names, progress lines.

Pure Python (no browser imports), so the controller and its tests share it; it runs in
CPython and MicroPython alike (web/compat.py).
"""

import engine
from engine.rules.cards import RANKS, SUITS, parse_card
from engine.rules.variants import REGISTRY, rules_for
from web.compat import capitalize

TITLES = {v.id: v.title for v in REGISTRY}
_FAMILIES = {v.id: v.family for v in REGISTRY}
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def title(variant: str) -> str:
    """The menu name of ``variant`` (its id when it has none yet)."""
    return TITLES.get(variant, capitalize(variant.replace("-", " ")))


def family(variant: str) -> str:
    """Which table layout a variant uses: spider, klondike, castle or doublets."""
    return _FAMILIES.get(variant, variant)


def card_names() -> dict[str, str]:
    """Accessible names of all 52 face-up card texts, e.g. ``{"QH": "Queen of hearts"}``."""
    return {r + s: engine.card_name(parse_card(r + s)) for s in SUITS for r in RANKS}


def pile_name(variant: str, pile: str) -> str:
    """A pile's label: "Column 3", "Row 1", "Reserve 2", "Hearts foundation", "Stock"."""
    rules = rules_for(variant)
    role = rules.role(pile) if pile in rules.index else None
    if role is None:
        return pile
    if role in ("stock", "waste"):
        return capitalize(pile)
    number = int(pile[1:]) + 1
    fam = family(variant)
    if role == "tableau":
        return f"Row {number}" if fam == "castle" else f"Column {number}"
    if role == "reserve":
        return f"Reserve {number}"
    if role == "foundation":
        if fam in ("klondike", "castle") and number <= 4:
            return f"{capitalize(SUIT_WORDS[number - 1])} foundation"
        if fam == "spider":
            return f"Completed sequence {number}"
        return "Foundation"
    return pile


def progress(variant: str, position: dict) -> str:
    """The status bar's progress: sequences cleared or cards on the foundations."""
    fam = family(variant)
    piles = position["piles"]
    role = rules_for(variant).role
    if fam == "spider":
        cleared = position.get("cleared", sum(1 for p, c in piles.items()
                                               if role(p) == "foundation" and c))
        return f"Completed {cleared}/8"
    if fam == "doublets":
        on = len(piles.get("f0", []))
        return f"Foundation {on}/48"
    on = sum(len(c) for p, c in piles.items() if role(p) == "foundation")
    return f"Foundations {on}/52"
