"""Entry script of the page: deal a game with the engine and show it.

For now the table is a placeholder that only honours the DOM contract of DESIGN.md: one
element per pile with `data-pile`, holding its cards bottom to top, each with `data-card`
(the card text when face up, "down" when face down). The real card table replaces
`render`; the rest (which deal to open, marking the page ready) stays.
"""

import html
import random

from pyscript import document, window

DEFAULT_VARIANT = "spider-1"
MAX_DEAL = 2**32 - 1


def requested_deal(variants: tuple[str, ...]) -> tuple[str, int]:
    """The deal named by `?game=<variant>&deal=<number>`, else a random Spider deal."""
    params = window.URLSearchParams.new(window.location.search)
    variant = params.get("game")
    if variant not in variants:
        variant = DEFAULT_VARIANT
    deal = params.get("deal") or ""
    seed = int(deal) if deal.isascii() and deal.isdigit() and 1 <= int(deal) <= MAX_DEAL else None
    return variant, seed if seed is not None else random.randint(1, MAX_DEAL)


def card_html(card: str) -> str:
    if card.islower():  # face down: the DOM never reveals a hidden card
        return '<span data-card="down"></span>'
    text = html.escape(card)
    return f'<span data-card="{text}">{text}</span>'


def render(table, position: dict) -> None:
    piles = "".join(
        f'<div data-pile="{html.escape(pile)}">{"".join(card_html(c) for c in cards)}</div>'
        for pile, cards in position["piles"].items()
    )
    table.innerHTML = piles
    table.dataset.variant = position["variant"]
    table.dataset.deal = str(position["seed"])


def fail(error: BaseException) -> None:
    """Say on the loading screen that the app could not start (tests wait for this too)."""
    document.documentElement.dataset.app = "error"
    document.getElementById("loading-stage").textContent = (
        f"Pocket Patience could not start.\n{type(error).__name__}: {error}"
    )


def main() -> None:
    import engine  # here, so that an engine that fails to import shows on the loading screen

    variant, seed = requested_deal(engine.VARIANTS)
    game = engine.new_game(variant, seed=seed)
    render(document.getElementById("table"), game.position())
    document.documentElement.dataset.app = "ready"


try:
    main()
except Exception as error:
    fail(error)
    raise
