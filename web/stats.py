"""Statistics per variant: games played, won and lost, streaks, best results, recent games.

Pure Python (no browser imports). :class:`Stats` is the value; :class:`StatsBook` keeps it
in a storage object (anything with ``read(key)`` / ``write(key, value) -> bool``, such as
web.storage.Storage) so CPython tests inject a fake one. Rules (docs/rules/play-controls.md
§11, for every game): no points; moves, elapsed time and win/loss per variant are
recorded; the undo count is recorded but never a penalty; an abandoned game counts as a
loss.

The export file is JSON::

    {"app": "pocket-patience", "kind": "statistics", "schema": 1,
     "exported": "2025-01-31T12:00:00Z", "variants": {"spider-1": {...}, ...}}

and :func:`parse_export` checks every field of it before anything is replaced: a bad file
raises :class:`StatsFileError` with a message for the player and changes nothing.
"""

import html
import json
from datetime import date, timedelta

from engine.rules.variants import DEAL_MAX
from web import jsontext
from web.compat import TYPE_CHECKING, dumps_indented, isascii, record, round1, tenths

if TYPE_CHECKING:
    from typing import Any

SCHEMA = 1
APP = "pocket-patience"
KIND = "statistics"
KEY = "stats"          # storage key (the storage adds its own prefix)
RECENT = 30            # recent results kept per variant (for the chart)
CHART_GAMES = 20       # results the chart shows
MAX_COUNT = 10**9      # sanity bound on counters in files
MAX_MS = 10**11        # about three years of play: beyond this a time is not believable
MAX_FILE_CHARS = 1_000_000
GAMES_KEPT = 500       # ids of counted games kept (a game is counted once, in any tab)


class StatsFileError(ValueError):
    """Statistics data that cannot be used; ``str(error)`` says why, for the player."""


class Result(record("Result", ("won", "time_ms", "moves", "undos", "deal", "daily"),
                    (0, 0, ""))):
    """One finished game: won or lost (bool), its time (int ms) and moves, undos used, the
    deal, and the date (``YYYY-MM-DD``) when it was that date's daily deal, else "".

    An immutable record (web/compat.py: a namedtuple), as are :class:`VariantStats`."""

    __slots__ = ()

    def to_json(self) -> "dict[str, Any]":
        data = {"won": self.won, "time_ms": self.time_ms, "moves": self.moves,
                "undos": self.undos, "deal": self.deal}
        if self.daily:
            data["daily"] = self.daily
        return data


def day_after(day: str) -> str:
    """The ``YYYY-MM-DD`` date after ``day``."""
    return (date.fromisoformat(day) + timedelta(days=1)).isoformat()


def is_day(value: "Any") -> bool:
    """True for a real date written ``YYYY-MM-DD``."""
    if not isinstance(value, str) or len(value) != 10 or not isascii(value):
        return False
    try:
        return date.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


# The fields of VariantStats, all optional:
#   played, won, lost       int, 0
#   streak, best_streak     int, 0: the current run of wins and the longest
#   best_time_ms            int | None: the fastest win
#   fewest_moves            int | None: the shortest win
#   win_time_total_ms       int, 0: the sum of the times of all wins (for the average)
#   undos                   int, 0: made in finished games (recorded, never a penalty)
#   recent                  tuple[Result, ...], (): the latest RECENT results
#   daily_won, daily_streak, daily_best     int, 0: dailies won, the run of consecutive
#                           dates won that ends with ``daily_last``, and the longest such run
#   daily_last              str | None: the last date whose daily was won
VARIANT_FIELDS = ("played", "won", "lost", "streak", "best_streak", "best_time_ms",
                  "fewest_moves", "win_time_total_ms", "undos", "recent", "daily_won",
                  "daily_streak", "daily_best", "daily_last")
_DAILY_FIELDS = ("daily_won", "daily_streak", "daily_best", "daily_last")


class VariantStats(record("VariantStats", VARIANT_FIELDS,
                          (0, 0, 0, 0, 0, None, None, 0, 0, (), 0, 0, 0, None))):
    """The record of one variant (its fields above)."""

    __slots__ = ()

    def replace(self, **changes: "Any") -> "VariantStats":
        """These statistics with some fields changed (dataclasses.replace)."""
        values = list(self)
        for name, value in changes.items():
            values[VARIANT_FIELDS.index(name)] = value
        return VariantStats(*values)

    @property
    def win_rate(self) -> float | None:
        """Won / played, None before the first game."""
        return self.won / self.played if self.played else None

    @property
    def average_win_ms(self) -> int | None:
        """Mean time of the wins, None before the first win."""
        return self.win_time_total_ms // self.won if self.won else None

    def daily_streak_on(self, today: str) -> int:
        """The daily streak as it stands on ``today``: a date missed since the last daily
        won (today's may still be played) has broken it."""
        last = self.daily_last
        return self.daily_streak if last is not None and today <= day_after(last) else 0

    def add_daily(self, day: str) -> "VariantStats":
        """These statistics with the daily of ``day`` won. A date already won counts once;
        a daily of a date before the last one won counts as won but leaves the streak,
        which runs over dates in order."""
        last = self.daily_last
        if last is not None and day <= last:
            return self if day == last else self.replace(daily_won=self.daily_won + 1)
        streak = self.daily_streak + 1 if last is not None and day == day_after(last) else 1
        return self.replace(daily_won=self.daily_won + 1, daily_streak=streak,
                       daily_best=max(self.daily_best, streak), daily_last=day)

    def add(self, result: "Result") -> "VariantStats":
        """These statistics with ``result`` added."""
        recent = (tuple(self.recent) + (result,))[-RECENT:]
        if result.won:
            base = self.add_daily(result.daily) if result.daily else self
            streak = self.streak + 1
            return base.replace(
                played=self.played + 1, won=self.won + 1, streak=streak,
                best_streak=max(self.best_streak, streak),
                best_time_ms=_least(self.best_time_ms, result.time_ms),
                fewest_moves=_least(self.fewest_moves, result.moves),
                win_time_total_ms=self.win_time_total_ms + result.time_ms,
                undos=self.undos + result.undos, recent=recent)
        return self.replace(played=self.played + 1, lost=self.lost + 1, streak=0,
                       undos=self.undos + result.undos, recent=recent)

    def to_json(self) -> "dict[str, Any]":
        data = dict(zip(VARIANT_FIELDS, self))  # noqa: B905 - as long; MicroPython's zip takes no strict=
        data["recent"] = [r.to_json() for r in self.recent]
        if not self.daily_won:  # the daily figures only once there are some
            for name in _DAILY_FIELDS:
                del data[name]
        return data


def _least(old: int | None, new: int) -> int:
    return new if old is None else min(old, new)


class Stats:
    """Statistics of every variant played so far (variants never played are absent): a
    value, never changed once made."""

    def __init__(self, variants: "dict[str, VariantStats] | None" = None) -> None:
        self.variants = {} if variants is None else variants

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stats) and self.variants == other.variants

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment] - equal by value, and mutable inside

    def __repr__(self) -> str:
        return f"Stats({self.variants!r})"

    def of(self, variant: str) -> "VariantStats":
        """The statistics of ``variant`` (zeros if never played)."""
        return self.variants.get(variant, VariantStats())

    def add(self, variant: str, result: "Result") -> "Stats":
        """These statistics with one more finished game of ``variant``."""
        variants = dict(self.variants)
        variants[variant] = self.of(variant).add(result)
        return Stats(variants)

    def to_json(self) -> "dict[str, Any]":
        return {name: vs.to_json() for name, vs in sorted(self.variants.items())}


# -- reading and checking -----------------------------------------------------------------

def _count(data: "dict[str, Any]", key: str, where: str, optional: bool = False,
           limit: int = MAX_COUNT) -> int | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
        raise StatsFileError(f"{where}: “{key}” must be a whole number from 0 to {limit}.")
    return value


def read_result(data: "Any", where: str) -> "Result":
    """A recent-game entry, checked."""
    if not isinstance(data, dict):
        raise StatsFileError(f"{where}: each recent game must be an object.")
    if not isinstance(data.get("won"), bool):
        raise StatsFileError(f"{where}: “won” must be true or false.")
    daily = data.get("daily", "")
    if daily != "" and not is_day(daily):
        raise StatsFileError(f"{where}: “daily” must be a date written YYYY-MM-DD.")
    return Result(
        won=data["won"],
        time_ms=_count(data, "time_ms", where, limit=MAX_MS),  # type: ignore[arg-type]
        moves=_count(data, "moves", where),  # type: ignore[arg-type]
        undos=_count(data, "undos", where),  # type: ignore[arg-type]
        deal=_count(data, "deal", where, limit=DEAL_MAX),  # type: ignore[arg-type]
        daily=daily,
    )


def read_variant(data: "Any", where: str) -> "VariantStats":
    """One variant's statistics, checked field by field and for consistency."""
    if not isinstance(data, dict):
        raise StatsFileError(f"{where}: must be an object.")
    played = _count(data, "played", where)
    won = _count(data, "won", where)
    lost = _count(data, "lost", where)
    streak = _count(data, "streak", where)
    best_streak = _count(data, "best_streak", where)
    best_time = _count(data, "best_time_ms", where, optional=True, limit=MAX_MS)
    fewest = _count(data, "fewest_moves", where, optional=True)
    total = _count(data, "win_time_total_ms", where, limit=MAX_MS * 1000)
    undos = _count(data, "undos", where)
    recent_data = data.get("recent", [])
    if not isinstance(recent_data, list) or len(recent_data) > RECENT:
        raise StatsFileError(f"{where}: “recent” must be a list of at most {RECENT} games.")
    recent = tuple(read_result(r, f"{where}, recent game {i + 1}")
                   for i, r in enumerate(recent_data))
    assert played is not None and won is not None and lost is not None
    assert streak is not None and best_streak is not None and total is not None
    if won + lost != played:
        raise StatsFileError(f"{where}: won ({won}) and lost ({lost}) do not add up to "
                             f"played ({played}).")
    if not streak <= best_streak <= won:
        raise StatsFileError(f"{where}: the streaks do not fit the number of wins.")
    if (best_time is None) != (won == 0) or (fewest is None) != (won == 0):
        raise StatsFileError(f"{where}: best time and fewest moves must be given exactly "
                             f"when there are wins.")
    if len(recent) > played:
        raise StatsFileError(f"{where}: more recent games than games played.")
    # The daily figures came later: a file without them has none.
    daily_won = _count(data, "daily_won", where, optional=True) or 0
    daily_streak = _count(data, "daily_streak", where, optional=True) or 0
    daily_best = _count(data, "daily_best", where, optional=True) or 0
    daily_last = data.get("daily_last")
    if daily_last is not None and not is_day(daily_last):
        raise StatsFileError(f"{where}: “daily_last” must be a date written YYYY-MM-DD.")
    if not daily_streak <= daily_best <= daily_won <= won \
            or (daily_last is None) != (daily_won == 0) or (daily_won > 0) != (daily_streak > 0):
        raise StatsFileError(f"{where}: the daily streaks do not fit the dailies won.")
    return VariantStats(played, won, lost, streak, best_streak, best_time, fewest, total,
                        undos or 0, recent, daily_won, daily_streak, daily_best, daily_last)


def read_variants(data: "Any", known: tuple[str, ...] | list[str],
                  lenient: bool = False) -> "tuple[Stats, list[str]]":
    """Statistics from ``{variant: {...}}``; with ``lenient`` bad entries are skipped.

    Returns the statistics and the problems met (always empty when not lenient: the first
    problem raises StatsFileError).
    """
    if not isinstance(data, dict):
        raise StatsFileError("The statistics must be an object with one entry per game.")
    good: dict[str, VariantStats] = {}
    problems: list[str] = []
    for name, entry in data.items():
        try:
            if name not in known:
                raise StatsFileError(f"“{str(name)[:40]}” is not a game this app knows")
            good[name] = read_variant(entry, name)
        except StatsFileError as exc:
            if not lenient:
                raise
            problems.append(str(exc))
    return Stats(good), problems


def export_document(stats: "Stats", exported_at: str) -> str:
    """The JSON text of an export file."""
    doc = {"app": APP, "kind": KIND, "schema": SCHEMA, "exported": exported_at,
           "variants": stats.to_json()}
    return dumps_indented(doc) + "\n"


def parse_export(text: str, known: tuple[str, ...] | list[str]) -> "Stats":
    """The statistics in an export file's text; StatsFileError (nothing usable) otherwise."""
    if not isinstance(text, str) or len(text) > MAX_FILE_CHARS:
        raise StatsFileError("This file is too large to be a statistics file.")
    try:
        doc = jsontext.loads(text, MAX_FILE_CHARS)
    except jsontext.JsonTextError as exc:
        raise StatsFileError(f"This file is not a statistics file (it is {exc}).") from None
    if not isinstance(doc, dict) or doc.get("app") != APP or doc.get("kind") != KIND:
        raise StatsFileError("This file is not a Pocket Patience statistics file.")
    schema = doc.get("schema")
    if isinstance(schema, bool) or not isinstance(schema, int):
        raise StatsFileError("This statistics file has no valid format version.")
    if schema > SCHEMA:
        raise StatsFileError("This statistics file comes from a newer version of the app; "
                             "update the app, then import it again.")
    if schema < 1:
        raise StatsFileError("This statistics file has an unknown format version.")
    stats, _ = read_variants(doc.get("variants"), known)
    return stats


# -- keeping them -------------------------------------------------------------------------

class StatsBook:
    """The statistics kept in storage: record results, reset, export and import.

    Several tabs of the app write the same statistics, so a result is never added to a
    copy held in memory and written over what another tab stored: each write re-reads the
    stored statistics first, and every finished game has an id, kept in the stored list of
    counted games, so it is counted exactly once whichever tabs record it. A tab also
    remembers the results it recorded in this visit; if another tab's write (made from a
    copy read a moment too early) lost one of them, :meth:`refresh` puts it back.
    """

    def __init__(self, storage: "Any", known: tuple[str, ...] | list[str]) -> None:
        self.storage = storage
        self.known = tuple(known)
        self.problems: list[str] = []
        self.games: list[str] = []  # ids of the games counted, newest last
        self.mine: list[tuple[str, str, Result]] = []  # (id, variant, result) counted here
        self.stats = self.load()

    def load(self) -> "Stats":
        """The stored statistics; a bad entry is reported and the whole value kept aside
        (the other entries are used)."""
        data = self.storage.read(KEY)
        self.games = []
        if data is None:
            return Stats()
        try:
            stats, problems = read_variants(data.get("variants") if isinstance(data, dict)
                                            else data, self.known, lenient=True)
        except StatsFileError as exc:
            stats, problems = Stats(), [str(exc)]
        games = data.get("games") if isinstance(data, dict) else None
        if isinstance(games, list):
            self.games = [g for g in games if isinstance(g, str) and len(g) <= 40][-GAMES_KEPT:]
        if problems:
            self.problems = problems
            aside = getattr(self.storage, "set_aside", None)
            if aside is not None:  # keep the whole value, then store the entries that work
                aside(KEY, json.dumps(data), "; ".join(problems)[:300])
                self.storage.write(KEY, {"variants": stats.to_json(), "games": self.games})
        return stats

    def refresh(self) -> bool:
        """Read the statistics again (another tab may have written them); put back any
        result of this visit that a write from another tab lost. True if anything changed."""
        before = (self.stats, self.games)
        self.stats = self.load()
        lost = [(gid, variant, result) for gid, variant, result in self.mine
                if gid not in self.games]
        for gid, variant, result in lost:
            self.stats = self.stats.add(variant, result)
            self.games.append(gid)
        if lost:
            self.save()
        return (self.stats, self.games) != before

    def save(self) -> bool:
        """Write the statistics; False when storage refused."""
        self.games = self.games[-GAMES_KEPT:]
        return bool(self.storage.write(KEY, {"variants": self.stats.to_json(),
                                             "games": self.games}))

    def record(self, variant: str, result: "Result", game_id: str = "") -> bool:
        """Add a finished game of ``variant`` unless game ``game_id`` is counted already;
        False when it could not be saved."""
        self.refresh()
        if game_id and game_id in self.games:
            return True
        result = Result(result.won, min(result.time_ms, MAX_MS), result.moves, result.undos,
                        result.deal, result.daily)
        self.stats = self.stats.add(variant, result)
        if game_id:
            self.games.append(game_id)
            self.mine.append((game_id, variant, result))
        return self.save()

    def counted(self, game_id: str) -> bool:
        """True when game ``game_id`` is in the statistics (this tab or another counted it)."""
        return game_id in self.games

    def reset(self, variant: str | None = None) -> bool:
        """Forget the statistics of ``variant``, or of every variant (the ids of the games
        counted are kept, so no tab counts one of them again)."""
        self.refresh()
        if variant is None:
            self.stats = Stats()
        else:
            self.stats = Stats({k: v for k, v in self.stats.variants.items() if k != variant})
        self.mine = [m for m in self.mine if variant is not None and m[1] != variant]
        return self.save()

    def export(self, exported_at: str) -> str:
        """The export file's text."""
        return export_document(self.stats, exported_at)

    def import_text(self, text: str) -> "Stats":
        """Replace the statistics with a file's; StatsFileError leaves them unchanged."""
        stats = parse_export(text, self.known)
        self.refresh()
        self.stats = stats
        self.mine = []
        self.save()
        return stats


# -- showing them -------------------------------------------------------------------------

def clock_text(ms: int | None) -> str:
    """``ms`` as m:ss or h:mm:ss; an em dash for None."""
    if ms is None:
        return "—"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def summary(vs: "VariantStats", today: str = "") -> list[tuple[str, str]]:
    """The figures of one variant as (label, text) rows, in display order (the daily
    streak as it stands on ``today``, ``YYYY-MM-DD``)."""
    rate = vs.win_rate
    return [
        ("Played", str(vs.played)),
        ("Won", str(vs.won)),
        ("Lost", str(vs.lost)),
        # f"{rate:.0%}", whose ties MicroPython rounds up: round() is half-even in both
        ("Win rate", "—" if rate is None else f"{round(rate * 100)}%"),
        ("Current streak", str(vs.streak)),
        ("Best streak", str(vs.best_streak)),
        ("Best time", clock_text(vs.best_time_ms)),
        ("Fewest moves", "—" if vs.fewest_moves is None else str(vs.fewest_moves)),
        ("Average time of wins", clock_text(vs.average_win_ms)),
        ("Undos used", str(vs.undos)),
        ("Daily streak", str(vs.daily_streak_on(today or date.today().isoformat()))),
        ("Best daily streak", str(vs.daily_best)),
        ("Dailies won", str(vs.daily_won)),
    ]


def _nice_ceiling(ms: int) -> int:
    """The smallest round time (whole minutes, 5 or 10 of them, ...) at or above ``ms``,
    for the top of the chart's time axis."""
    for step in (30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000):
        if ms <= step * 4:
            return max(step, -(-ms // step) * step)
    return -(-ms // 3_600_000) * 3_600_000


def chart_svg(recent: "tuple[Result, ...] | list[Result]", games: int = CHART_GAMES) -> str:
    """An inline SVG of the last ``games`` results, oldest on the left: a green bar per
    win as tall as its time, against a labelled time axis; a red mark under the axis per
    loss. Games are numbered along the bottom; with few games each bar also carries its
    time, so even a single game reads as a result rather than a lone bar. The SVG's title
    sums the games up and its description lists each one (the text alternative).

    Every text in it is escaped, though it holds only numbers this module made.
    """
    shown = list(recent)[-games:]
    won = sum(r.won for r in shown)
    n = len(shown)
    label = (f"Last {n} game{'s' if n != 1 else ''}: {won} won, {n - won} lost"
             if shown else "No finished games yet")
    width, height = 260, 150  # narrow: on a phone its words are no smaller than the page's
    x0, x1, top, base = 40, 252, 24, 112  # the plot: left, right, top, time-zero line
    esc = html.escape
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'role="img" aria-labelledby="chart-title chart-desc" data-chart="recent" '
             f'font-size="11" fill="currentColor">',
             f'<title id="chart-title">{esc(label)}</title>']
    lines = []
    for i, r in enumerate(shown, 1):
        lines.append(f"Game {i}, deal {r.deal}: "
                     + (f"won in {clock_text(r.time_ms)}, {r.moves} moves" if r.won
                        else f"lost after {r.moves} moves"))
    parts.append(f'<desc id="chart-desc">{esc("; ".join(lines) or label)}</desc>')
    if not shown:
        parts.append(f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle" '
                     f'opacity="0.75">{esc(label)}</text></svg>')
        return "".join(parts)
    slowest = max((r.time_ms for r in shown if r.won), default=0)
    ceiling = _nice_ceiling(max(slowest, 1))
    # The time axis: zero, half and the top, each a faint line with its time.
    parts.append('<g font-size="10" text-anchor="end" opacity="0.8">')
    for frac in (0, 0.5, 1):
        y = round1(base - (base - top) * frac)
        parts.append(f'<line x1="{x0}" y1="{tenths(y)}" x2="{x1}" y2="{tenths(y)}" '
                     f'stroke="currentColor" '
                     f'stroke-opacity="{0.45 if frac == 0 else 0.15}"/>'
                     f'<text x="{x0 - 5}" y="{y + 3.5}">'
                     f'{esc(clock_text(round(ceiling * frac)))}</text>')
    parts.append("</g>")
    parts.append(f'<text x="{x0 - 5}" y="{top - 10}" font-size="10" text-anchor="end" '
                 f'opacity="0.8">time</text>')
    # Legend, top right.
    parts.append(f'<g font-size="10"><rect x="{x1 - 112}" y="{top - 19}" width="9" height="9" '
                 f'rx="1.5" fill="#3fae6a"/><text x="{x1 - 99}" y="{top - 11}">won</text>'
                 f'<rect x="{x1 - 62}" y="{top - 19}" width="9" height="9" rx="1.5" '
                 f'fill="#d0574a"/><text x="{x1 - 49}" y="{top - 11}">lost</text></g>')
    slots = max(n, 6)  # a lone game is one bar of six, not a bar across the chart
    slot = (x1 - x0) / slots
    bar = round1(min(slot * 0.7, 26))
    every = 1 if n <= 10 else 5
    for i, r in enumerate(shown):
        cx = x0 + slot * (i + 0.5)
        x = round1(cx - bar / 2)
        if r.won:
            h = round1(max(2.0, (base - top) * r.time_ms / ceiling))
            y, colour, word = round1(base - h), "#3fae6a", "won"
            tip = f"Game {i + 1}, deal {r.deal}: won in {clock_text(r.time_ms)}, {r.moves} moves"
        else:
            h, y, colour, word = 9, base + 2, "#d0574a", "lost"
            tip = f"Game {i + 1}, deal {r.deal}: lost after {r.moves} moves"
        parts.append(f'<rect x="{tenths(x)}" y="{tenths(y)}" width="{tenths(bar)}" '
                     f'height="{tenths(h)}" rx="1.5" '
                     f'fill="{colour}" data-result="{word}"><title>{esc(tip)}'
                     f"</title></rect>")
        if n <= 10 and r.won:
            parts.append(f'<text x="{tenths(cx)}" y="{tenths(y - 3)}" font-size="9" '
                         f'text-anchor="middle">{esc(clock_text(r.time_ms))}</text>')
        if (i + 1) % every == 0 or i == 0 or i == n - 1:
            parts.append(f'<text x="{tenths(cx)}" y="{base + 24}" font-size="10" '
                         f'text-anchor="middle" opacity="0.8">{i + 1}</text>')
    parts.append(f'<text x="{(x0 + x1) / 2}" y="{height - 3}" font-size="10" '
                 f'text-anchor="middle" opacity="0.8">games, oldest to latest</text>')
    parts.append("</svg>")
    return "".join(parts)


__all__ = ["KEY", "SCHEMA", "Result", "Stats", "StatsBook", "StatsFileError", "VariantStats",
           "chart_svg", "clock_text", "day_after", "export_document", "is_day", "parse_export",
           "read_variants", "summary"]
