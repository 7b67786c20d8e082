"""Statistics and sharing, a part of the table: results counted, the stats view with
export and import, damaged saved data kept aside, the share link.

Pure Python (no browser imports), in the subset CPython and MicroPython share
(web/compat.py). :class:`Scores` is one part of web.controller.Table; its
intents come through the page's one dispatch like every other action:

- ``stats`` / ``stats_reset`` / ``stats_export`` / ``stats_import``: the statistics view
  (web/table/scores-view.js asks through ``ppTable.act`` and shows the answer; nothing goes to the
  board);
- ``damaged_export`` / ``damaged_clear``: the saved data that could not be read, kept
  aside by web/storage.py, as a file, or deleted;
- ``share``: the share link of the deal on the table (web/share.py).

Rules (docs/rules/play-controls.md §11): a win is counted when it happens, once;
leaving a game that has at least one move and no counted result (a new game, a restart,
opening a share link) counts it as a loss, and the page asks the player first (the
payload's ``in_progress``); the undo count is recorded but never a penalty.
"""

import engine
from web import labels, share
from web.compat import TYPE_CHECKING
from web.stats import Result, StatsFileError, chart_svg, clock_text, is_day, summary

if TYPE_CHECKING:
    from typing import Any

    from web.host import Host

    Payload = dict[str, Any]


class Scores:
    """Statistics, damaged-data and sharing intents for one table."""

    def __init__(self, table: "Host") -> None:
        self.table = table

    # -- counting results -----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """A game with at least one move (undone or not) whose result is not counted yet."""
        game = self.table.game
        return (game.can_undo or game.can_redo) and not self.table.recorded

    def record_result(self, won: bool) -> None:
        """Count the current game in the statistics (once, whichever tab ends it)."""
        game = self.table.game
        clock = self.table.clock
        self.table.stats.record(game.variant, Result(won, clock.ms(), game.move_count,
                                                     game.undo_count, game.seed,
                                                     self.table.daily), self.table.game_id)
        self.table.recorded = True

    def abandon(self) -> None:
        """The player leaves the current game: a game in progress counts as a loss."""
        if self.in_progress:
            self.record_result(won=False)

    def fields(self, payload: "Payload") -> None:
        """Render payload extras: in_progress, a link waiting for consent, storage notices."""
        payload["in_progress"] = self.in_progress
        if self.table.pending_link is not None:
            link, self.table.pending_link = self.table.pending_link, None
            payload["link"] = {"variant": link.variant, "deal": link.deal,
                               "title": labels.title(link.variant)}
            if link.daily:
                payload["link"]["daily"] = link.daily
        game = self.table.game
        if game.status == "won":  # the record the win stands in, for the end of the game
            vs = self.table.stats.stats.of(game.variant)
            payload["result"] = {"best_time_ms": vs.best_time_ms, "streak": vs.streak,
                                 "best_streak": vs.best_streak, "won": vs.won,
                                 "played": vs.played}
            if self.table.daily:
                payload["result"]["daily_streak"] = vs.daily_streak_on(self.table.daily)
        notices = self.table.notices + self.table.storage.take_notices()
        self.table.notices = []
        if notices:
            payload["notices"] = notices

    # -- the statistics view --------------------------------------------------------------

    def stats(self, variant: str | None = None, today: str = "") -> "Payload":
        """The statistics of ``variant`` (default: the game on the table) for the view;
        ``today`` is the page's local date (``YYYY-MM-DD``), for the daily streak."""
        if variant not in engine.VARIANTS:
            variant = self.table.game.variant
        self.table.stats.refresh()
        vs = self.table.stats.stats.of(variant)
        return {
            "event": "stats",
            "variant": variant,
            "title": labels.title(variant),
            "variants": [[v, labels.title(v)] for v in engine.VARIANTS],
            "rows": summary(vs, today if is_day(today) else ""),
            "played": vs.played,
            "chart": chart_svg(vs.recent),
            "saving": not (self.table.storage.write_failed or self.table.storage.read_failed),
            "damaged": self.table.storage.damaged_count(),
        }

    def stats_reset(self, variant: str | None = None, everything: bool = False,
                    today: str = "") -> "Payload":
        """Forget the statistics of ``variant`` (or of every game); the page confirmed."""
        self.table.stats.reset(None if everything else variant if variant in engine.VARIANTS
                         else self.table.game.variant)
        answer = self.stats(variant, today)
        answer["message"] = ("All statistics were reset." if everything
                             else f"Statistics of {answer['title']} were reset.")
        return answer

    def stats_export(self, now: str = "") -> "Payload":
        """The export file: its text and a file name."""
        day = now[:10] if len(now) >= 10 else "export"
        return {"event": "stats_export", "text": self.table.stats.export(now),
                "filename": f"pocket-patience-stats-{day}.json"}

    def stats_import(self, text: str = "", variant: str | None = None,
                     today: str = "") -> "Payload":
        """Replace the statistics with a file's; a bad file changes nothing and says why."""
        try:
            imported = self.table.stats.import_text(str(text))
        except StatsFileError as error:
            answer = self.stats(variant, today)
            answer.update(ok=False, message=f"Nothing was imported: {error}")
            return answer
        answer = self.stats(variant, today)
        games = sum(vs.played for vs in imported.variants.values())
        answer.update(ok=True, message=f"Statistics imported: {games} games.")
        return answer

    # -- damaged data kept aside ----------------------------------------------------------

    def damaged_export(self, now: str = "") -> "Payload":
        """The damaged values kept aside, as a file for the player to download."""
        day = now[:10] if len(now) >= 10 else "export"
        return {"event": "damaged_export", "text": self.table.storage.damaged_export(),
                "filename": f"pocket-patience-damaged-data-{day}.json"}

    def damaged_clear(self) -> "Payload":
        """Delete the damaged values kept aside (the page asked the player first)."""
        count = self.table.storage.damaged_clear()
        return {"event": "damaged_clear", "damaged": self.table.storage.damaged_count(),
                "message": f"Deleted {count} damaged saved value{'s' if count != 1 else ''}."}

    # -- sharing ----------------------------------------------------------------------------

    def share(self, page: str = "", result: bool = False) -> "Payload":
        """The share link of the deal on the table, for the app at ``page``; with
        ``result``, and the game won, the text tells how it was won."""
        game, daily = self.table.game, self.table.daily
        title = labels.title(game.variant)
        text = share.share_text(title, game.seed, daily)
        if result and game.status == "won":
            text = share.result_text(title, game.seed, clock_text(self.table.clock.ms()),
                                     game.move_count, daily)
        return {"event": "share",
                "url": share.make_link(str(page), game.variant, game.seed, daily),
                "title": f"Pocket Patience: {title}", "text": text}
