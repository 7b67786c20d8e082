"""The solver desk: proven hints, the live verdict, the way back, winnable deals.

Pure Python (no browser imports). :class:`SolverDesk` is one part of web.controller.Table
(it reads the game on its table and asks the table to render); web/table/table.js drives the
searches in slices through the page's one dispatch, yielding to the browser between calls:

- ``hint``: a position on a winning line found earlier answers at once; a position already searched
  answers at once (the line's move, or the heuristic ``engine.hint`` when it was not
  won); otherwise the solver gets a first slice and, when undecided, the answer is
  ``{"event": "thinking"}`` and the page calls ``hint_step`` (one slice each) until a
  render payload with the hint comes back (the solver's first move of a win, else the
  heuristic hint) or ``{"event": "hint_cancelled"}`` (the position changed meanwhile);
- ``watch``: one background slice, run by the page between tasks after each render: on
  the position in play until its verdict is known, then, on a position proved lost, on
  the walk back through the history for the latest position the solver proves winnable
  (web/solving.py LookBack); ``{"event": "watch", "done": bool, "verdict": "won" |
  "lost" | "unknown" | None, "unwinnable": bool, "rewind": ...}``.
  "verdict" (also in every render payload) is what is known of the position in play:
  searched, on a winning line found earlier, the start of a deal proven winnable ahead
  (listed, or the daily), or implied by the line of play;
  "unwinnable" is true only where a search proved the position lost (or one before
  it), never on a guess; "rewind" is None unless the position is lost, then
  ``{"looking": bool, "back": int}`` (``back`` 0 while looking or when no earlier
  position was proved winnable);
- ``rewind``: undo back to that position (a run of plain undos: redo plays them again);
- ``new`` with no deal number draws from ``engine.winnable_deals(variant)`` when the
  player chose winnable deals of that variant, or from the deals rated at the level
  chosen (engine/solver/rating.py: Easy, Medium, Hard), when the variant has them;
- ``daily`` and ``daily_find``: the daily deal of a variant for the page's local date,
  found in slices (web/dailies.py), which the table then knows it is playing.

The solver's lists are read on first use (a menu opening, a deal drawn from them), never
on the way to the first table.

Any change of position drops the search under way (its answer would be for a position
no longer on the table) and the walk back; what searches found (verdicts, the newest
winning lines) stays, keyed by variant and position.
"""

from __future__ import annotations

import gc
import importlib
import sys
from typing import TYPE_CHECKING, Any

import engine
from web import labels
from web.dailies import Dailies
from web.solving import (
    LOST,
    UNKNOWN,
    WON,
    Line,
    Lines,
    LookBack,
    Search,
    Trash,
    Verdicts,
    implied,
)

if TYPE_CHECKING:
    from web.host import Host

Payload = dict[str, Any]

HINT_BUDGET_MS = 400.0  # solver time a hint may take in all
HINT_SLICE_MS = 10.0  # one slice of a hint search (the page yields between slices)
WATCH_BUDGET_MS = 2000.0  # solver time the background watch spends on one position
WATCH_MAX_NODES = 20_000  # and positions it may expand there
WATCH_SLICE_MS = 4.0  # one idle slice of the watch (short: input may arrive meanwhile)
# A random deal the solver proves lost this quickly is passed over for another: 280 of
# Beleaguered Castle's deals 1..1000 are proven lost within 20,000 positions, 250 of them
# within 2,000 (115 at the first position).
OPENING_CHECK_NODES = 2_000
OPENING_CHECK_MS = 30.0
OPENING_DRAWS = 12  # tries before a lost deal is dealt anyway
# The solver's modules, imported by the watch one per slice before its first search (in
# the browser, one of them takes tens of ms to run): the standard library's it needs
# first, then the solver's package, then the space of the family (engine/solver/<family>.py).
SOLVER_MODULES = ("heapq", "pathlib", "engine.solver")
REWIND_BUDGET_MS = 8000.0  # solver time the walk back from a lost position may spend in all


class SolverDesk:
    """Solver-backed hints, lost-position notices and winnable deals for one table."""

    hint_budget_ms = HINT_BUDGET_MS
    hint_slice_ms = HINT_SLICE_MS
    watch_budget_ms = WATCH_BUDGET_MS
    watch_max_nodes: int | None = WATCH_MAX_NODES
    watch_slice_ms = WATCH_SLICE_MS
    rewind_budget_ms = REWIND_BUDGET_MS
    # The page sets this: no cyclic garbage collection while a search's tables are alive.
    # They hold a great many objects (and make no cycles); a collection scanning them took
    # up to ~50 ms in Pyodide. Collection resumes once the search and its trash are gone.
    hold_gc = False

    def __init__(self, table: Host) -> None:
        self.table = table
        self.search: Search | None = None
        self.hint_waiting = False  # a hint waits for ``search``
        self.lines = Lines()  # winning lines found, newest last
        self.verdicts = Verdicts()
        self.trash = Trash()  # what searches leave behind, freed in idle slices
        self.gc_held = False
        self.look_back: LookBack | None = None  # from the lost position in play
        self.learned = 0  # counts what searches found: a verdict implied before may change
        self._implied: tuple[Any, int, str | None] | None = None  # (state, learned, verdict)
        # The deal in play, once looked up: (variant, seed, daily), and whether it was
        # proven winnable ahead (a listed deal, a daily deal).
        self._deal: tuple[tuple[str, int, str], bool] | None = None
        self.dailies = Dailies(self)

    def drop_search(self) -> None:
        """Stop the search under way; its tables are freed later, a little at a time."""
        if self.search is not None:
            self.search.discard()
        self.search = None
        self.hint_waiting = False

    def new_search(self, budget_ms: float, max_nodes: int | None = None,
                   game: engine.Game | None = None) -> Search:
        """A search of the position in play, or of ``game`` (replacing any other)."""
        self.drop_search()
        self.search = Search(game or self.table.game, budget_ms, max_nodes, self.trash)
        self.hold()
        return self.search

    def hold(self) -> None:
        """No cyclic collection while a search is alive (see :attr:`hold_gc`)."""
        if self.hold_gc and not self.gc_held and gc.isenabled():
            gc.disable()
            self.gc_held = True

    def release_gc(self) -> None:
        """Let the collector run again once no search and no trash is left."""
        if self.gc_held and self.search is None and self.dailies.search is None \
                and not self.trash:
            gc.enable()
            self.gc_held = False

    def position_changed(self) -> None:
        """The position on the table changed: drop what belonged to the old one."""
        self.drop_search()
        self.look_back = None
        self._implied = None

    def game_replaced(self) -> None:
        """Another game is on the table: the search and the walk back of the old one stop;
        what was found stays (the same deal dealt again starts on the same winning line)."""
        self.position_changed()

    def line_at(self, state: Any) -> Line | None:
        """A winning line through ``state`` (a position of the game in play), if known."""
        return self.lines.find(self.table.game.variant, state)

    @property
    def line(self) -> Line | None:
        """The winning line through the position in play, if known."""
        return self.line_at(self.table.game.state)

    def key(self, state: Any) -> tuple[str, Any]:
        """The verdicts' key of a position of the game in play."""
        return self.table.game.variant, state

    # -- hints ----------------------------------------------------------------------------

    def hint(self) -> Payload:
        """Point at the first move of a winning line, else at the heuristic's best move."""
        game = self.table.game
        if game.status != "playing":
            return self.table.render("none", announce="No hint: the game is over.")
        if self.unwinnable:  # a move would only hide the proof: point back instead
            payload = self.table.render("none", announce="No hint: this game can no longer "
                                        "be won from here. Undo to try another way.")
            payload["hint_words"] = True
            return payload
        known = self.known_hint()
        if known is not None:
            return known
        if self.search is None or self.search.state != game.state:
            self.new_search(self.hint_budget_ms)
        elif not self.hint_waiting:  # the watch is searching this position: carry on
            self.search.allow(self.hint_budget_ms)
        self.hint_waiting = True
        return self.hint_step()

    def hint_step(self) -> Payload:
        """One more slice of the hint's search: the hint once decided, else "thinking"."""
        search = self.search
        if not self.hint_waiting or search is None or search.state != self.table.game.state:
            self.hint_waiting = False
            return {"event": "hint_cancelled"}
        if search.step(self.hint_slice_ms) is None:
            return {"event": "thinking"}
        self.finish(search)
        return self.known_hint() or self.table.render("none", announce="No moves left.")

    def known_hint(self) -> Payload | None:
        """The hint when nothing needs searching: a line's move, or the heuristic's move
        when this position was searched and not won; None when a search is needed."""
        game = self.table.game
        line = self.line
        move = line.move_at(game.state) if line is not None else None
        proven = move is not None
        if move is None:
            if self.verdicts.get(self.key(game.state)) is None:
                return None
            move = engine.hint(game)
        if move is None:
            return self.table.render("none", announce="No moves left.")
        words = "Hint: " + self.table.describe(move) + "."
        payload = self.table.render("hint", hint=move, announce=words)
        payload["hint_proven"] = proven
        return payload

    def finish(self, search: Search) -> None:
        """Keep what a finished search found; it no longer runs."""
        result = search.result or UNKNOWN
        self.verdicts.put(self.key(search.state), result)
        self.learned += 1
        if result == WON:
            self.lines.add(Line(self.table.game.rules, search.state, search.moves))
        search.discard()  # its tables: freed a little at a time, not all at once here
        if self.search is search:
            self.search = None
            self.hint_waiting = False

    # -- the verdict and the watch ---------------------------------------------------------

    def known(self, state: Any) -> str | None:
        """What is proven of ``state``: on a winning line, the start of a deal proven
        winnable ahead (:meth:`look_up_deal`), or its own search's verdict."""
        if self.line_at(state) is not None:
            return WON
        found = self.verdicts.get(self.key(state))
        if found in (None, UNKNOWN) and self.proven_start(state):
            return WON
        return found

    def proven_start(self, state: Any) -> bool:
        """True when ``state`` is the start of the deal in play and that deal was proven
        winnable ahead (:meth:`look_up_deal`)."""
        deal = self._deal
        return deal is not None and deal[1] and deal[0] == self.deal_in_play() \
            and state == self.table.game.start

    def awaits_line(self) -> bool:
        """True while the position in play is such a start and no search has answered for
        it: the watch still searches it, for the line that makes the hints proven."""
        state = self.table.game.state
        return self.line is None and self.verdicts.get(self.key(state)) is None \
            and self.proven_start(state)

    def deal_in_play(self) -> tuple[str, int, str]:
        """(variant, deal number, daily date or "") of the game in play."""
        game = self.table.game
        return game.variant, game.seed, self.table.daily

    def look_up_deal(self) -> None:
        """Look up, once a game, whether its deal was proven winnable ahead: a deal of
        the variant's winnable list, or the daily deal of a date (each found by a search
        that won it). Its start is then winnable though the watch's search may not reach
        the win (a Hard deal can take a hundred times the positions it may expand)."""
        game = self.table.game
        deal = self.deal_in_play()
        if self._deal is not None and self._deal[0] == deal:
            return
        proven = not game.custom and (bool(deal[2])
                                      or game.seed in engine.winnable_deals(game.variant))
        self._deal = (deal, proven)
        if proven:
            self.learned += 1

    def verdict(self) -> str | None:
        """What is known of the position in play: "won" (on a winning line, searched, or
        leading to a position proved winnable), "lost" (proved, or reached from a position
        proved lost), "unknown" (searched without an answer), or None (not searched)."""
        game = self.table.game
        found = self.known(game.state)
        if found is not None:
            return found
        cached = self._implied
        if cached is None or cached[0] is not game.state or cached[1] != self.learned:
            any_lost = self.verdicts.holds(game.variant, LOST)
            cached = self._implied = (game.state, self.learned,
                                      implied(game, self.known, any_lost))
        return cached[2]

    @property
    def unwinnable(self) -> bool:
        """True when the position in play was proved lost (the game may still have moves)."""
        return self.table.game.status == "playing" and self.verdict() == LOST

    def watch(self, ms: float | None = None) -> Payload:
        """One background slice (at most ``ms``): freeing what earlier searches left, else
        searching the position in play, else walking back from it when it is lost; "done"
        once there is nothing left to do."""
        game = self.table.game
        limit = self.watch_slice_ms if ms is None else min(float(ms), self.watch_slice_ms)
        slice_ms = max(1.0, limit)
        if self.trash:  # first the trash (its slice is spent; the search comes next call)
            self.trash.empty(slice_ms)
            return self.watch_answer(done=False)
        playing = game.status == "playing"
        if playing and self.import_next():  # that was the slice
            return self.watch_answer(done=False)
        if playing:
            self.look_up_deal()
        verdict = self.verdict()
        if playing and not self.hint_waiting:  # a waiting hint drives the search itself
            if verdict is None or self.awaits_line():
                search = self.search
                if search is None or search.state != game.state:
                    search = self.new_search(self.watch_budget_ms, self.watch_max_nodes)
                if search.step(slice_ms) is not None:
                    self.finish(search)
            elif verdict == LOST:
                self.walk_back(slice_ms)
        walking = self.look_back is None or not self.look_back.done
        decided = not playing or (self.verdict() is not None
                                  and not (self.verdict() == LOST and walking)
                                  and not self.awaits_line())
        return self.watch_answer(done=decided and not self.trash)

    def import_next(self) -> bool:
        """Import the next solver module the game in play needs, if any is missing."""
        family = f"engine.solver.{labels.family(self.table.game.variant)}"
        for name in (*SOLVER_MODULES, family):
            if name not in sys.modules:
                try:
                    importlib.import_module(name)
                except ImportError:  # a family with no space of its own: the generic one
                    continue
                return True
        return False

    def walk_back(self, slice_ms: float) -> None:
        """One slice of the walk back from the lost position in play."""
        look = self.look_back
        if look is None or look.state is not self.table.game.state:
            look = self.look_back = LookBack(self.table.game, self.rewind_budget_ms, self.known)
        search = self.search
        if search is None or search.state != look.probe.state:
            probe = look.next(self.known)
            if probe is None:
                return
            search = self.new_search(self.watch_budget_ms, self.watch_max_nodes, probe)
        spent = search.spent_ms
        result = search.step(slice_ms)
        look.spent_ms += search.spent_ms - spent
        if result is not None:
            self.finish(search)
            look.settle(result)

    def rewind_info(self) -> dict[str, Any] | None:
        """The walk back as the page shows it: None unless the position in play is lost;
        ``back`` counts undos as the player's Undo goes (see :meth:`undo_steps`)."""
        if not self.unwinnable:
            return None
        look = self.look_back
        if look is None or look.state is not self.table.game.state:
            return {"looking": True, "back": 0}
        back = self.undo_steps(look.found)[0] if look.found else 0
        return {"looking": not look.done, "back": back}

    def undo_steps(self, back: int) -> tuple[int, int]:
        """(undos, moves) from the position in play to the one ``back`` moves before it.

        The player's Undo takes a span back in one (a finish; a move and the safe cards
        that went home after it), so a span counts once, and a position inside one (never
        shown) gives way to the span's start: it comes before, so it is winnable too."""
        spans = self.table.spans
        cursor = self.table.game.move_count
        target = cursor - back
        for start, end, _ in spans:
            if start < target < end:
                target = start
        undos, at = 0, cursor
        while at > target:
            at = next((start for start, end, _ in spans if end == at), at - 1)
            undos += 1
        return undos, cursor - target

    def rewind(self) -> Payload:
        """Undo back to the latest position the walk back proved winnable: a run of plain
        undos (redo plays them again)."""
        look = self.look_back
        found = look.found if look is not None and self.unwinnable else None
        if not found:
            words = "No earlier position is known to be winnable yet." if self.unwinnable \
                else "Nothing to go back to: this position is not known to be lost."
            return self.table.render("illegal", announce=words)
        undos, moves = self.undo_steps(found)
        for _ in range(moves):
            self.table.game.undo()
        self.table.after_change()
        said = "1 move" if undos == 1 else f"{undos} moves"
        return self.table.render("rewind", announce=f"Back {said}: this position can be won.")

    def watch_answer(self, done: bool) -> Payload:
        """The answer to a watch slice."""
        self.release_gc()
        return {"event": "watch", "done": done, "verdict": self.verdict(),
                "unwinnable": self.unwinnable, "rewind": self.rewind_info()}

    # -- winnable deals, their difficulty, the daily deal ----------------------------------

    def winnable_counts(self) -> dict[str, int]:
        """How many proven-winnable deal numbers are shipped for each variant."""
        return {v: len(engine.winnable_deals(v)) for v in engine.VARIANTS}

    opening_check_nodes = OPENING_CHECK_NODES
    opening_check_ms = OPENING_CHECK_MS

    def level_counts(self) -> dict[str, dict[str, int]]:
        """How many deals of each variant are rated at each level (none: not rated)."""
        from engine.solver.rating import ratings

        return {v: {level: len(deals) for level, deals in ratings(v).levels.items() if deals}
                for v in engine.VARIANTS}

    def draw_seed(self, variant: str, check: bool = True) -> int:
        """A random deal number for a new game of ``variant``: when the player asked for
        winnable deals of it, from the deals rated at the level chosen for it, else from
        its whole proven-winnable list (when there are such deals); else a random deal,
        passing over one that a short search proves lost from the start (``check``: the
        first table of a visit skips it, to keep the solver off that path).
        """
        if variant in self.table.settings.get("winnable", ()):
            level = self.table.settings.get("level", {}).get(variant)
            deals: tuple[int, ...] = ()
            if level:
                from engine.solver.rating import rated_deals

                deals = rated_deals(variant, level)
            deals = deals or engine.winnable_deals(variant)
            if deals:
                return self.table.rng.choice(deals)
        seed = self.table.random_seed()
        for _ in range(OPENING_DRAWS if check else 0):
            if not self.opens_lost(variant, seed):
                break
            seed = self.table.random_seed()
        return seed

    def opens_lost(self, variant: str, seed: int) -> bool:
        """Whether a short search proves deal ``seed`` of ``variant`` lost from the start."""
        answer = engine.solve(engine.new_game(variant, seed), self.opening_check_ms,
                              self.opening_check_nodes)
        return answer.result == "lost"

    def is_daily(self, variant: str, seed: int, day: str) -> bool:
        """True when deal ``seed`` of ``variant`` is known to be the daily deal of date
        ``day`` (web/dailies.py: when not known yet, the page checks it after the table)."""
        return self.dailies.is_daily(variant, seed, day)

    def change_level(self, changes: Any) -> None:
        """Choose the level of new deals per variant: ``{variant: "easy" | "medium" |
        "hard" | None}`` (None: any winnable deal, or any deal)."""
        from engine.solver.rating import LEVELS

        if not isinstance(changes, dict):
            return
        levels = dict(self.table.settings.get("level", {}))
        for variant, level in changes.items():
            if variant in engine.VARIANTS and level in (None, *LEVELS):
                levels.pop(variant, None)
                if level:
                    levels[variant] = level
        self.table.settings["level"] = levels

    def change_winnable(self, changes: Any) -> None:
        """Turn "Winnable deals only" on or off per variant: ``{variant: bool}``."""
        if not isinstance(changes, dict):
            return
        chosen = set(self.table.settings.get("winnable", ()))
        for variant, on in changes.items():
            if variant in engine.VARIANTS and isinstance(on, bool):
                if on:
                    chosen.add(variant)
                else:
                    chosen.discard(variant)
        self.table.settings["winnable"] = [v for v in engine.VARIANTS if v in chosen]

    def fields(self, payload: Payload, event: str) -> None:
        """Render payload extras: the verdict, the proven-lost flag and the walk back; the
        winnable lists' sizes for menus.

        The sizes only come with "settings" (the menu asks once, as it first opens): they
        need the solver's package and lists, which the first table does not."""
        payload["verdict"] = self.verdict()
        payload["unwinnable"] = self.unwinnable
        payload["rewind"] = self.rewind_info()
        self.dailies.fields(payload)
        if event == "settings":
            payload["winnable_counts"] = self.winnable_counts()
            payload["level_counts"] = self.level_counts()


__all__ = ["SolverDesk"]
