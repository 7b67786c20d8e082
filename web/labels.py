"""Words the table shows: game titles, pile names, card names, progress lines.

Pure Python (no browser imports), so the controller and its tests share it.
"""

from __future__ import annotations

import engine
from engine.rules.cards import RANKS, SUITS, parse_card

TITLES = {
    "spider-1": "Spider · 1 suit",
    "spider-2": "Spider · 2 suits",
    "spider-4": "Spider · 4 suits",
    "spider-relaxed-1": "Relaxed Spider · 1 suit",
    "spider-relaxed-2": "Relaxed Spider · 2 suits",
    "spider-relaxed-4": "Relaxed Spider · 4 suits",
    "klondike": "Klondike",
    "beleaguered-castle": "Beleaguered Castle",
    "doublets": "Doublets",
}
SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def title(variant: str) -> str:
    """The menu name of ``variant`` (its id when it has none yet)."""
    return TITLES.get(variant, variant.replace("-", " ").capitalize())


def family(variant: str) -> str:
    """Which table layout a variant uses: spider, klondike, castle or doublets."""
    if variant.startswith("spider"):
        return "spider"
    if variant == "beleaguered-castle":
        return "castle"
    return variant


def card_names() -> dict[str, str]:
    """Accessible names of all 52 face-up card texts, e.g. ``{"QH": "Queen of hearts"}``."""
    return {r + s: engine.card_name(parse_card(r + s)) for s in SUITS for r in RANKS}


def pile_name(variant: str, pile: str) -> str:
    """A pile's label: "Column 3", "Row 1", "Reserve 2", "Hearts foundation", "Stock"."""
    if pile in ("stock", "waste"):
        return pile.capitalize()
    kind, number = pile[0], int(pile[1:]) + 1
    fam = family(variant)
    if kind == "t":
        return f"Row {number}" if fam == "castle" else f"Column {number}"
    if kind == "r":
        return f"Reserve {number}"
    if kind == "f":
        if fam in ("klondike", "castle") and number <= 4:
            return f"{SUIT_WORDS[number - 1].capitalize()} foundation"
        if fam == "spider":
            return f"Completed sequence {number}"
        return "Foundation"
    return pile


def progress(variant: str, position: dict) -> str:
    """The status bar's progress: sequences cleared or cards on the foundations."""
    fam = family(variant)
    piles = position["piles"]
    if fam == "spider":
        cleared = position.get("cleared", sum(1 for p, c in piles.items() if p[0] == "f" and c))
        return f"Completed {cleared}/8"
    if fam == "doublets":
        on = len(piles.get("f0", []))
        return f"Foundation {on}/48"
    on = sum(len(c) for p, c in piles.items() if p.startswith("f"))
    return f"Foundations {on}/52"
