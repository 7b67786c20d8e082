"""The daily deal at the table: found on the device in slices, kept per date and variant.

The daily deal of a date is read from its game's table found ahead, or, for a date no
table covers, searched for (engine/solver/daily.py), which takes from a few to some
tens of thousands of solver positions; so the page never waits for it on the way to the
first table and never in one long task:

- ``daily_find`` (``{variant, date, ms}``) runs one slice of the search for that daily
  and answers ``{"event": "daily_find", "found": bool, "deal": int | None, ...}``; the
  New game menu calls it, one task a slice, showing "Finding today's deal…", before it
  asks ``daily`` to deal it (known then, so dealt at once);
- a link to a daily deal (``?game=..&deal=..&daily=..``) opens its deal at once; unless
  the date's daily is known already, the page checks it with the same ``daily_find``
  slices afterwards (the render payload's ``daily_check``) and the table becomes that
  date's daily when the deal is it (a render payload, event "daily").

Found deals are kept in storage under ``dailies`` (:data:`KEEP` dates a variant), with
the solver budgets they were found with: a later version whose budgets differ searches
again. The record is a cache, so it is validated on read and anything wrong in it is
dropped (never set aside: it holds nothing the player made).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

import engine
from engine.rules.variants import DEAL_MAX, DEAL_MIN
from web import labels
from web.dailylink import confirm, field, known
from web.jsontext import JsonTextError, loads
from web.stats import is_day
from web.storage import StorageError, unwrap

if TYPE_CHECKING:
    from typing import Protocol

    from web.host import Host
    from web.solving import Trash

    class Desk(Protocol):
        """What the daily's search uses of the solver's desk (web/desk.py)."""

        table: Host
        trash: Trash

        def hold(self) -> None: ...

Payload = dict[str, Any]

CACHE = "dailies"  # the storage key
KEEP = 8  # the latest dates kept a variant
SLICE_MS = 8.0  # the most a slice may take
CACHE_CHARS = 20_000
# What the search imports, one module a slice (one of them takes tens of ms in the browser).
MODULES = ("heapq", "pathlib", "engine.solver", "engine.solver.daily")


class Dailies:
    """The daily deals of one table: known ones, the search under way, a link's check."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.table = desk.table
        self.search: Any = None  # the engine's DailySearch under way
        self.check: tuple[str, str, int] | None = None  # (variant, date, deal) of a link

    # -- the record of found deals --------------------------------------------------------

    def budgets(self) -> dict[str, int]:
        from engine.solver.daily import BUDGET

        return BUDGET

    def read(self) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
        """The record: the budgets it was found with and the deals ``{variant: {date:
        deal}}``, what is usable of it (nothing when it cannot be read: it is dropped).

        Checked without the solver: the shape, the variants, the dates and the deal
        numbers' range (:meth:`known` checks the rest, once the solver is loaded)."""
        storage = self.table.storage
        text = storage.read_text(CACHE)
        if text is None:
            return {}, {}
        try:
            data = unwrap(loads(text, CACHE_CHARS))
            budgets = {variant: budget for variant, budget in data["budgets"].items()
                       if type(budget) is int}
            deals = {variant: {day: deal for day, deal in days.items()
                               if is_day(day) and type(deal) is int
                               and DEAL_MIN <= deal <= DEAL_MAX}
                     for variant, days in data["deals"].items() if variant in engine.VARIANTS}
        except (JsonTextError, StorageError, TypeError, KeyError, AttributeError):
            storage.remove(CACHE)  # unusable: each daily is found again when needed
            return {}, {}
        return budgets, deals

    def recorded(self, variant: str, day: str) -> int | None:
        """The deal recorded for ``variant`` on ``day``, checked without the solver."""
        return self.read()[1].get(variant, {}).get(day)

    def known(self, variant: str, day: str) -> int | None:
        """The daily deal of ``variant`` on ``day`` if found before on this device: found
        with today's budget, and one of the date's candidates (else found again)."""
        from engine.solver.daily import is_candidate

        budgets, deals = self.read()
        deal = deals.get(variant, {}).get(day)
        if deal is None or budgets.get(variant) != self.budgets().get(variant) \
                or not is_candidate(variant, day, deal):
            return None
        return deal

    def keep(self, variant: str, day: str, deal: int) -> None:
        """Record a found deal (the latest :data:`KEEP` dates of each variant stay; deals
        found with other budgets go)."""
        budgets, deals = self.read()
        now = self.budgets()
        deals = {v: days for v, days in deals.items() if budgets.get(v) == now.get(v)}
        days = deals.setdefault(variant, {})
        days[day] = deal
        deals[variant] = dict(sorted(days.items())[-KEEP:])
        self.table.storage.write(CACHE, {"budgets": dict(self.budgets()), "deals": deals})

    # -- finding one ----------------------------------------------------------------------

    def import_next(self) -> bool:
        """Import the next module the search needs, if one is missing (that is a slice)."""
        family = f"engine.solver.{labels.family(self.search_variant)}"
        for name in (*MODULES, family):
            if name not in sys.modules:
                try:
                    importlib.import_module(name)
                except ImportError:  # a family with no space of its own
                    continue
                return True
        return False

    search_variant = ""

    def find(self, variant: Any = None, date: Any = "", ms: Any = SLICE_MS) -> Payload:
        """One slice of the search for the daily deal of ``variant`` on ``date``."""
        variant = variant if variant in engine.VARIANTS else self.table.game.variant
        if not is_day(date):
            return {"event": "daily_find", "found": False, "deal": None,
                    "error": f"a date is written YYYY-MM-DD, not {str(date)[:20]!r}"}
        slice_ms = max(1.0, min(float(ms) if isinstance(ms, (int, float)) else SLICE_MS,
                                SLICE_MS))
        answer: Payload = {"event": "daily_find", "variant": variant, "date": date}
        self.search_variant = variant
        desk = self.desk
        if desk.trash:  # what earlier searches left goes first, a slice at a time
            desk.trash.empty(slice_ms)
            return dict(answer, found=False, deal=None)
        if self.import_next():
            return dict(answer, found=False, deal=None)
        search = self.search
        under_way = search is not None and (search.variant, search.day.isoformat()) == \
            (variant, date)
        try:
            deal = None if under_way else self.known(variant, date)
            if deal is None:
                deal = self.step(variant, date, slice_ms)
        except ValueError as error:  # a damaged table of dailies, a game with none
            self.drop()
            return dict(answer, found=False, deal=None, error=str(error))
        if deal is None:
            search = self.search
            return dict(answer, found=False, deal=None, tried=search.tried,
                        positions=search.positions)
        confirmed = confirm(self, variant, date, deal)
        if confirmed is not None:
            return confirmed
        return dict(answer, found=True, deal=deal)

    def step(self, variant: str, date: str, ms: float) -> int | None:
        """A slice of the search (begun or carried on); the deal once found (recorded)."""
        from engine.solver.daily import DailySearch, as_day

        search = self.search
        if search is None or (search.variant, search.day) != (variant, as_day(date)):
            self.drop()
            search = self.search = DailySearch(variant, date)
            self.desk.hold()
        deal = search.step(ms)
        self.desk.trash.add(search.released())
        if deal is not None:
            self.search = None
            self.keep(variant, date, deal)
        return deal

    def drop(self) -> None:
        """Stop the search under way (its tables are freed slowly)."""
        if self.search is not None:
            self.desk.trash.add(self.search.released())
            self.search = None

    def deal_of(self, variant: str, date: str) -> int:
        """The daily deal, found now to the end if need be (CPython, tests: the page asks
        only once :meth:`find` has found it)."""
        deal = self.known(variant, date)
        if deal is None:
            from engine.solver.daily import daily_deal

            deal = daily_deal(variant, date)
            self.keep(variant, date, deal)
        return deal

    # -- the table's intents --------------------------------------------------------------

    def is_daily(self, variant: str, seed: int, day: str) -> bool:
        """Whether deal ``seed`` is known to be the daily of ``day`` (web/dailylink.py)."""
        return known(self, variant, seed, day)

    def daily(self, variant: str | None = None, date: str = "") -> Payload:
        """Deal the daily deal of ``variant`` (default: the one on the table) for ``date``,
        the page's local date (``YYYY-MM-DD``)."""
        variant = variant if variant in engine.VARIANTS else self.table.game.variant
        if not is_day(date):
            return self.table.render("illegal", announce="No daily deal: a date is written "
                                     f"YYYY-MM-DD, not {str(date)[:20]!r}.")
        seed = self.deal_of(variant, date)
        self.table.open(variant, seed, date)
        return self.table.render("new", announce=f"Daily deal of {date}: "
                                                 f"{labels.title(variant)}, deal {seed}.")

    def fields(self, payload: Payload) -> None:
        """A link's daily to check in the page, while its deal is on the table."""
        field(self, payload)


__all__ = ["CACHE", "KEEP", "Dailies"]
