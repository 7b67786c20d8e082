"""The page boots offline-clean to a table that shows the engine's deal."""

from __future__ import annotations

import pytest

import engine

pytestmark = pytest.mark.e2e


def expected_piles(variant: str, seed: int) -> dict[str, list[str]]:
    """The DOM contract's view of a deal: face-down cards are only "down"."""
    position = engine.new_game(variant, seed=seed).position()
    return {
        pile: ["down" if card.islower() else card for card in cards]
        for pile, cards in position["piles"].items()
    }


DEALS = [("spider-1", 12345), ("spider-2", 2**32 - 1)]


@pytest.mark.parametrize(("variant", "seed"), DEALS)
def test_boots_to_the_engines_deal(app, browser_log, variant, seed):
    app.open(f"?game={variant}&deal={seed}")

    assert app.page.evaluate("document.documentElement.dataset.app") == "ready"
    assert app.piles() == expected_piles(variant, seed)
    assert not app.page.is_visible("#loading")
    assert browser_log.external_requests == []
    assert browser_log.console_errors == []
    assert browser_log.page_errors == []
