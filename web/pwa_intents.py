"""The table's statistics and sharing: results counted, the stats view, export, share.

Pure Python (no browser imports). :class:`PwaIntents` is mixed into web.controller.Table,
so these intents come through the page's one dispatch like every other action:

- ``stats`` / ``stats_reset`` / ``stats_export`` / ``stats_import``: the statistics view
  (web/pwa-ui.js asks through ``ppTable.act`` and shows the answer; nothing goes to the
  board);
- ``share``: the share link of the deal on the table (web/share.py).

Rules (spider.txt sections 8 and 10, for every game): a win is counted when it happens,
once; leaving a game that has at least one move and no counted result (a new game, a
restart, opening a share link) counts it as a loss, and the page asks the player first
(the payload's ``in_progress``); the undo count is recorded but never a penalty.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import engine
from web import labels, share
from web.stats import Result, StatsFileError, chart_svg, summary

if TYPE_CHECKING:
    from web.stats import StatsBook
    from web.storage import Storage

Payload = dict[str, Any]


class PwaIntents:
    """Statistics and sharing for a Table (which provides game, clock, stats, storage)."""

    game: engine.Game
    stats: StatsBook
    storage: Storage
    recorded: bool
    pending_link: share.Link | None
    game_id: str
    notices: list[dict[str, Any]]

    # -- counting results -----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """A game with at least one move (undone or not) whose result is not counted yet."""
        game = self.game
        return (game.can_undo or game.can_redo) and not self.recorded

    def record_result(self, won: bool) -> None:
        """Count the current game in the statistics (once, whichever tab ends it)."""
        game = self.game
        clock = self.clock  # type: ignore[attr-defined]
        self.stats.record(game.variant, Result(won, clock.ms(), game.move_count,
                                               game.undo_count, game.seed), self.game_id)
        self.recorded = True

    def abandon(self) -> None:
        """The player leaves the current game: a game in progress counts as a loss."""
        if self.in_progress:
            self.record_result(won=False)

    def add_pwa_fields(self, payload: Payload) -> None:
        """Render payload extras: in_progress, a link waiting for consent, storage notices."""
        payload["in_progress"] = self.in_progress
        if self.pending_link is not None:
            link, self.pending_link = self.pending_link, None
            payload["link"] = {"variant": link.variant, "deal": link.deal,
                               "title": labels.title(link.variant)}
        notices = self.notices + self.storage.take_notices()
        self.notices = []
        if notices:
            payload["notices"] = notices

    # -- the statistics view --------------------------------------------------------------

    def do_stats(self, variant: str | None = None) -> Payload:
        """The statistics of ``variant`` (default: the game on the table) for the view."""
        if variant not in engine.VARIANTS:
            variant = self.game.variant
        self.stats.refresh()
        vs = self.stats.stats.of(variant)
        return {
            "event": "stats",
            "variant": variant,
            "title": labels.title(variant),
            "variants": [[v, labels.title(v)] for v in engine.VARIANTS],
            "rows": summary(vs),
            "played": vs.played,
            "chart": chart_svg(vs.recent),
            "saving": not (self.storage.write_failed or self.storage.read_failed),
            "damaged": self.storage.damaged_count(),
        }

    def do_stats_reset(self, variant: str | None = None, everything: bool = False) -> Payload:
        """Forget the statistics of ``variant`` (or of every game); the page confirmed."""
        self.stats.reset(None if everything else variant if variant in engine.VARIANTS
                         else self.game.variant)
        answer = self.do_stats(variant)
        answer["message"] = ("All statistics were reset." if everything
                             else f"Statistics of {answer['title']} were reset.")
        return answer

    def do_stats_export(self, now: str = "") -> Payload:
        """The export file: its text and a file name."""
        day = now[:10] if len(now) >= 10 else "export"
        return {"event": "stats_export", "text": self.stats.export(now),
                "filename": f"pocket-patience-stats-{day}.json"}

    def do_stats_import(self, text: str = "", variant: str | None = None) -> Payload:
        """Replace the statistics with a file's; a bad file changes nothing and says why."""
        try:
            imported = self.stats.import_text(str(text))
        except StatsFileError as error:
            answer = self.do_stats(variant)
            answer.update(ok=False, message=f"Nothing was imported: {error}")
            return answer
        answer = self.do_stats(variant)
        games = sum(vs.played for vs in imported.variants.values())
        answer.update(ok=True, message=f"Statistics imported: {games} games.")
        return answer

    # -- damaged data kept aside ----------------------------------------------------------

    def do_damaged_export(self, now: str = "") -> Payload:
        """The damaged values kept aside, as a file for the player to download."""
        day = now[:10] if len(now) >= 10 else "export"
        return {"event": "damaged_export", "text": self.storage.damaged_export(),
                "filename": f"pocket-patience-damaged-data-{day}.json"}

    def do_damaged_clear(self) -> Payload:
        """Delete the damaged values kept aside (the page asked the player first)."""
        count = self.storage.damaged_clear()
        return {"event": "damaged_clear", "damaged": self.storage.damaged_count(),
                "message": f"Deleted {count} damaged saved value{'s' if count != 1 else ''}."}

    # -- sharing ----------------------------------------------------------------------------

    def do_share(self, page: str = "") -> Payload:
        """The share link of the deal on the table, for the app at ``page``."""
        game = self.game
        title = labels.title(game.variant)
        return {"event": "share", "url": share.make_link(str(page), game.variant, game.seed),
                "title": f"Pocket Patience: {title}", "text": share.share_text(title, game.seed)}
