"""What a part of the table (web/desk.py, web/scores.py) may ask of the table it serves.

The parts are made by web.controller.Table and handed the table itself; this protocol
names what they use of it, so they depend on this small contract and not on the
controller module (which imports them).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Protocol

import engine
from web import share
from web.stats import StatsBook
from web.storage import Storage

if TYPE_CHECKING:
    from web.storage import Notice

Payload = dict[str, Any]


class Host(Protocol):
    """The table as its parts see it."""

    game: engine.Game
    game_id: str
    settings: dict[str, Any]
    rng: random.Random
    storage: Storage
    stats: StatsBook
    recorded: bool
    daily: str  # the date ("YYYY-MM-DD") whose daily deal is on the table, else ""
    pending_link: share.Link | None
    notices: list[Notice]
    spans: list[tuple[int, int, str]]  # (start, end, kind): moves one undo takes back

    def after_change(self) -> None:
        """Keep the clock, the autosave and the solver in step with a changed game."""

    @property
    def clock(self) -> Any:
        """The game's clock (web.controller.Clock): ``ms()`` played so far."""

    def render(self, event: str, move: engine.Move | None = None, *,
               hint: engine.Move | None = None, announce: str = "") -> Payload:
        """Everything the page needs to redraw after ``event``."""

    def describe(self, move: engine.Move, before: Payload | None = None) -> str:
        """A move in words."""

    def random_seed(self) -> int:
        """A random deal number."""

    def open(self, variant: str, seed: int, daily: str = "") -> None:
        """Deal ``seed`` of ``variant`` as a fresh game (the daily of ``daily``, if given)."""


__all__ = ["Host", "Payload"]
