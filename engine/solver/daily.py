"""The daily deal: one proven-winnable deal a game and a date, the same on every device.

Derived from the date alone, offline, with no list: each date has its own sequence of
:data:`CANDIDATES` candidate deal numbers (:func:`candidates`), and the daily deal is the
first of them that the solver wins within a fixed number of positions,
:data:`BUDGET` (never a time: a slow phone and a fast desktop must agree). The search of a
candidate is the engine's :class:`~engine.solver.search.Solver`, whose answer depends on
the positions it may expand only, not on the clock, the slicing or the hash seed, so every
device that runs the same solver computes the same deal, in CPython and in Pyodide.

The candidates of a date are a bijection (:func:`scramble`) of the numbers
``ordinal * CANDIDATES + k``: no two dates share a candidate, so no deal is ever the daily
of two dates. A date whose every candidate fails (never seen: the chance is below one in
10**20 for every game) falls back to a pinned pool of the shipped winnable list.

The shipped winnable lists are not used as a shortcut: they say a deal is winnable, not
that this search wins it within the budget, so a date's deal would depend on the list a
device has.

>>> from datetime import date
>>> daily_deal("klondike", date(2026, 12, 1)) == daily_deal("klondike", "2026-12-01")
True
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

from ..rules.game import new_game
from ..rules.rng import Pcg32, shuffled
from ..rules.state import Rules
from ..rules.variants import variant
from .search import Solver
from .space import Space

CANDIDATES = 64  # candidate deals a date (the ordinals of dates up to 9999 times this < 2**32)
# Positions the solver may expand to win a candidate: small, so a date's search stays cheap
# on a phone (docs/solver.md, "The daily deal", has the measured costs). Spider with four
# suits needs many: few of its deals are won within fewer than 10,000.
BUDGET = {
    "klondike": 1_000, "doublets": 2_000, "beleaguered-castle": 3_000,
    "spider-1": 3_000, "spider-relaxed-1": 3_000,
    "spider-2": 6_000, "spider-relaxed-2": 6_000,
    "spider-relaxed-4": 10_000, "spider-4": 30_000,
}
# The fallback pool: the first deals of each winnable list (the whole list when this was
# written), dealt in cycles in an order shuffled per cycle.
POOL = {
    "spider-1": 1000, "spider-2": 1000, "spider-4": 1000,
    "spider-relaxed-1": 1000, "spider-relaxed-2": 1000, "spider-relaxed-4": 1000,
    "klondike": 2345, "beleaguered-castle": 1000, "doublets": 1000,
}
_WORD = (1 << 32) - 1
# A table's letters: the index of a date's candidate, as base64 digits.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
DATA = Path(__file__).resolve().parent / "data"
_TABLES: dict[str, tuple[date, str]] = {}


def parse_day(text: str) -> date:
    """A date written ``YYYY-MM-DD``; ValueError with a message otherwise."""
    if not (isinstance(text, str) and len(text) == 10 and text[4] == "-" == text[7]
            and text.replace("-", "").isascii() and text.replace("-", "").isdigit()):
        raise ValueError(f"a date is written YYYY-MM-DD, not {str(text)[:20]!r}")
    return date.fromisoformat(text)


def as_day(day: date | str) -> date:
    """``day`` as a date (from its ``YYYY-MM-DD`` text if need be)."""
    return parse_day(day) if isinstance(day, str) else day


def round_keys(key: int) -> tuple[int, ...]:
    """The four round keys of :func:`scramble` for ``key``, from the engine's generator."""
    rng = Pcg32(key)
    return tuple(rng.next_u32() for _ in range(4))


def scramble(number: int, keys: tuple[int, ...]) -> int:
    """A bijection of the 32-bit numbers, chosen by the round ``keys``: a four-round
    Feistel network (each round mixes one half into the other by integer arithmetic, which
    never changes with the Python version)."""
    left, right = number >> 16, number & 0xFFFF
    for round_key in keys:
        mixed = ((right ^ round_key) * 0x45D9F3B) & _WORD
        mixed = ((mixed ^ (mixed >> 16)) * 0x45D9F3B) & _WORD
        left, right = right, left ^ ((mixed ^ (mixed >> 16)) & 0xFFFF)
    return (left << 16) | right


def _keys(variant: str) -> tuple[int, ...]:
    return round_keys(zlib.crc32(f"daily {variant}".encode("ascii")))


def candidates(variant: str, day: date | str) -> Iterator[int]:
    """The candidate deal numbers of ``day``, in order (:data:`CANDIDATES` of them); no
    other date has any of them. ValueError for a variant with no daily."""
    if variant not in BUDGET:
        raise ValueError(f"no daily deal for {variant!r}")
    keys = _keys(variant)
    first = as_day(day).toordinal() * CANDIDATES
    for k in range(CANDIDATES):
        deal = scramble(first + k, keys)
        while deal == 0:  # (walk the cycle on: deal numbers start at 1, still a bijection)
            deal = scramble(deal, keys)
        yield deal


def is_candidate(variant: str, day: date | str, seed: int) -> bool:
    """Whether ``seed`` is one of the candidates of ``day`` (a cheap check of a deal said
    to be that date's daily)."""
    return variant in BUDGET and seed in set(candidates(variant, day))


def table_path(variant: str) -> Path:
    """Where the table of ``variant``'s dailies found ahead is kept (it may be missing)."""
    return DATA / f"daily-{variant}.txt"


def read_table(variant: str) -> tuple[date, str]:
    """The dailies found ahead for ``variant`` (tools/make_dailies.py): the first date and
    a letter a date from it, the index in :data:`LETTERS` of the date's candidate the
    search won first. No table: an empty one. Read on first use, once a process."""
    table = _TABLES.get(variant)
    if table is None:
        first, letters = date.min, ""
        try:
            text = table_path(variant).read_text(encoding="ascii")
        except FileNotFoundError:
            text = ""
        rows = [line.strip() for line in text.split("\n")
                if line.strip() and not line.startswith("#")]
        if rows and rows[0].startswith("first "):
            first = parse_day(rows[0].removeprefix("first "))
            letters = "".join(rows[1:])
            if letters.strip(LETTERS):
                raise ValueError(f"{table_path(variant).name}: not a table of dailies")
        table = _TABLES[variant] = (first, letters)
    return table


def tabled(variant: str, day: date) -> int | None:
    """The daily of ``day`` from the table found ahead, if the table covers it."""
    first, letters = read_table(variant)
    at = day.toordinal() - first.toordinal()
    if not (letters and 0 <= at < len(letters)):
        return None
    index = LETTERS.index(letters[at])
    return next(deal for k, deal in enumerate(candidates(variant, day)) if k == index)


def pinned_space(rules: Rules) -> Space[Any] | None:
    """The search space a game's dailies were defined with, where the solver's own has moved
    on since (None: the solver's own). A date no table covers is searched on the device, so
    its daily would otherwise change with the solver's tuning, and two versions of the app
    would deal two different dailies on one date (the spaces keep their dailies' weights:
    engine/solver/spider.py DAILY_WEIGHTS)."""
    family = variant(rules.variant).family
    if family == "spider":
        from .spider import daily_space
        return daily_space(rules)
    if family == "klondike":
        from .klondike import daily_space as klondike_daily
        return klondike_daily(rules)
    return None


class DailySearch:
    """The search for the daily deal of a variant and a date, in slices: call
    :meth:`step` until :attr:`deal` is set. The answer does not depend on the slicing.
    A date the table found ahead covers needs no search (``table=False``: search anyway)."""

    def __init__(self, variant: str, day: date | str, table: bool = True) -> None:
        if variant not in BUDGET:
            raise ValueError(f"no daily deal for {variant!r}")
        self.variant = variant
        self.day = as_day(day)
        self.budget = BUDGET[variant]
        self._candidates = candidates(variant, self.day)
        self.deal: int | None = None
        self.tried = 0  # candidates searched (the one under way included)
        self.positions = 0  # positions expanded in all, the one under way included
        self._done_positions = 0
        self._seed = 0
        self._solver: Solver | None = None
        self._dropped: list[object] = []
        if table:
            self.deal = tabled(variant, self.day)

    @property
    def done(self) -> bool:
        """Whether the deal is known."""
        return self.deal is not None

    def step(self, ms: float = 30.0) -> int | None:
        """Search for about ``ms`` milliseconds; the deal once known, else None."""
        if self.deal is not None:
            return self.deal
        solver = self._solver
        if solver is None:
            seed = next(self._candidates, None)
            if seed is None:  # every candidate failed: the pinned pool
                self.deal = pool_deal(self.variant, self.day)
                return self.deal
            self._seed, self.tried = seed, self.tried + 1
            game = new_game(self.variant, seed)
            solver = self._solver = Solver(game, self.budget, pinned_space(game.rules))
            if solver.result is None:
                return None  # making the solver was this slice (it settles the deal)
        result = solver.step(ms)
        self.positions = self._done_positions + solver.nodes
        if result is None:
            return None
        self._dropped += solver.released()
        self._done_positions, self._solver = self.positions, None
        if result == "won":
            self.deal = self._seed
        return self.deal

    def released(self) -> list[object]:
        """The solver tables let go of since the last call, for the caller to free a
        little at a time (see :meth:`Solver.released`)."""
        dropped, self._dropped = self._dropped, []
        return dropped

    def run(self) -> int:
        """Search to the end at once; the deal."""
        while self.step(1000.0) is None:
            self._dropped.clear()
        self._dropped.clear()
        return self.deal  # type: ignore[return-value]


_FOUND: dict[tuple[str, date], int] = {}


def daily_deal(variant: str, day: date | str) -> int:
    """The deal number of the daily ``variant`` game of ``day`` (searched once a process)."""
    day = as_day(day)
    deal = _FOUND.get((variant, day))
    if deal is None:
        deal = _FOUND[(variant, day)] = DailySearch(variant, day).run()
    return deal


def pool_deal(variant: str, day: date) -> int:
    """The fallback of a date whose candidates all failed: the pinned pool of the shipped
    winnable list, dealt in cycles shuffled per cycle."""
    from .winnable import winnable_deals

    deals = winnable_deals(variant)[:POOL.get(variant, 0)]
    if not deals:
        raise ValueError(f"no daily deal for {variant!r}: it has no winnable deals")
    cycle, index = divmod(day.toordinal() - date(1970, 1, 1).toordinal(), len(deals))
    order = shuffled(list(range(len(deals))), zlib.crc32(f"daily {variant} {cycle}".encode()))
    return deals[order[index]]


__all__ = ["BUDGET", "CANDIDATES", "LETTERS", "DailySearch", "as_day", "candidates",
           "daily_deal", "is_candidate", "parse_day", "pool_deal", "read_table", "round_keys",
           "scramble", "table_path", "tabled"]
