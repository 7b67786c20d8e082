"""The table's controller: the game being played, player intents in, render data out.

Pure Python with no browser imports, so CPython tests drive it exactly as the page does.
The page (web/table/table.js) calls :meth:`Table.handle` once per player action with an intent
and gets back everything it needs to redraw: the position with hidden cards masked as
"down", the legal moves (so a drag knows where a group may land without asking again),
the counters, and a sentence for the live region. The engine decides every rule; this
module only asks it (``legal_moves``, ``play``, ``hint``) and ranks legal moves for taps.

A Table is made of parts, each in its own module, and :attr:`Table.intents` says which
part answers which intent:

- the table itself (here): the game, its clock, the moves, opening and saving games;
- the records (web/storage.py, web/saves.py): settings, the autosave, damaged data;
- the scores (web/scores.py): statistics, results counted once, the share link;
- the solver desk (web/desk.py): proven hints, the live verdict and the way back to a
  winnable position, winnable deals.
"""

import engine
from engine.rules.cards import SUIT_MASK, parse_card
from engine.rules.variants import DEAL_MAX, DEAL_MIN
from web import labels, share
from web.compat import TYPE_CHECKING, Random, monotonic, ordered
from web.saves import GameSaves
from web.scores import Scores
from web.stats import StatsBook
from web.storage import FLAGS, SPEEDS, TAP_MODES

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from web.saves import Saved
    from web.storage import Notice, Storage

    Payload = dict[str, Any]

# Intents that never act on the game in play: they do not wait to follow another tab.
UNSYNCED = frozenset({"watch", "hint_step"})
FOLLOWED = "This game was changed in another tab: it is shown here as it is now."


class Clock:
    """Elapsed playing time: starts with the first move, pauses while hidden or finished."""

    def __init__(self, now: "Callable[[], float]" = monotonic, elapsed_ms: int = 0,
                 started: bool = False) -> None:
        self._now = now
        self._elapsed = elapsed_ms / 1000
        self._since: float | None = None
        self.started = started
        self.hidden = False
        self.finished = False

    @property
    def running(self) -> bool:
        """True while time is being counted."""
        return self._since is not None

    def ms(self) -> int:
        """Elapsed milliseconds so far."""
        extra = self._now() - self._since if self._since is not None else 0.0
        return int((self._elapsed + extra) * 1000)

    def update(self, *, started: bool | None = None, hidden: bool | None = None,
               finished: bool | None = None) -> None:
        """Change what the clock knows and run or pause it accordingly."""
        if started is not None:
            self.started = self.started or started
        if hidden is not None:
            self.hidden = hidden
        if finished is not None:
            self.finished = finished
        should_run = self.started and not self.hidden and not self.finished
        if should_run and self._since is None:
            self._since = self._now()
        elif not should_run and self._since is not None:
            self._elapsed += self._now() - self._since
            self._since = None


# What a whole table's payload says of its game that is the same for every deal of it, by
# the game and its piles: made once (every new deal sends it; under MicroPython on a slow
# phone the names alone took a few ms of the new deal's task).
_TABLE_FIELDS: "dict[tuple[str, tuple[str, ...]], dict[str, Any]]" = {}


def table_fields(game: "engine.Game", piles: "list[str]") -> "dict[str, Any]":
    """The piles' names and roles, the range of deal numbers and the games on offer (the
    caller does not change them: they are shared by every payload of the game)."""
    variant = game.variant
    key = (variant, tuple(piles))
    fields = _TABLE_FIELDS.get(key)
    if fields is None:
        fields = {
            "pile_names": ordered([(pid, labels.pile_name(variant, pid)) for pid in piles]),
            "roles": ordered([(pid, game.rules.role(pid)) for pid in piles]),
            "deal_range": [DEAL_MIN, DEAL_MAX],
            "variants": [[v, labels.title(v)] for v in engine.VARIANTS],
        }
        _TABLE_FIELDS[key] = fields
    return fields


def move_list(move: "engine.Move | None") -> "list[Any] | None":
    """A move as ``[src, dst, count]`` for JSON."""
    return None if move is None else [move.src, move.dst, move.count]


def is_stock_action(move: "engine.Move") -> bool:
    """A deal, stock turn, recycle or redeal: played by touching the stock."""
    return move.src == "stock" or move.dst == "stock"


class Table:
    """One table: the current Game, its clock, settings, autosave, statistics and solver."""

    def __init__(self, storage: "Storage", now: "Callable[[], float]" = monotonic,
                 rng: "Random | None" = None, desk: "Callable[[Table], Any] | None" = None) -> None:
        """``desk`` makes the solver's part of the table (web.desk.SolverDesk by default,
        imported only then: it stays with Pyodide when MicroPython runs the table)."""
        self.storage = storage
        storage.adopt_unscoped()
        self.saves = GameSaves(storage)
        self.now = now
        self.rng = rng or Random()
        if desk is None:
            from web.desk import SolverDesk as desk
        self.desk = desk(self)
        self.settings = storage.settings(engine.VARIANTS)
        self.game: engine.Game = engine.new_game(self.settings["variant"], self.random_seed())
        self.game_id = self.new_id()
        self.clock = Clock(now)
        self.notices: list[Notice] = []  # messages for dialogs (e.g. a bad link), shown once
        self.stats = StatsBook(storage, engine.VARIANTS)
        self.recorded = False  # the current game's result is in the statistics
        self.daily = ""  # the date ("YYYY-MM-DD") whose daily deal is on the table, if any
        self.pending_link: share.Link | None = None  # a link to open once the player agrees
        # (cursor before, cursor after) of each run of moves one undo takes back whole (a
        # finish; a move and the safe cards that went home after it), in the game in play
        self.spans: list[tuple[int, int, str]] = []
        self.scores = Scores(self)
        desk, scores = self.desk, self.scores
        self.intents: dict[str, Callable[..., Payload]] = {
            "state": self.do_state, "sync": self.do_sync, "visibility": self.do_visibility,
            "play": self.do_play, "tap": self.do_tap, "foundation": self.do_foundation,
            "stock": self.do_stock, "undo": self.do_undo, "redo": self.do_redo,
            "restart": self.do_restart, "new": self.do_new, "settings": self.do_settings,
            "finish": self.do_finish, "read": self.do_read,
            "hint": desk.hint, "hint_step": desk.hint_step, "watch": desk.watch,
            "daily": desk.dailies.daily, "daily_find": desk.dailies.find,
            "rewind": desk.rewind,
            "stats": scores.stats, "stats_reset": scores.stats_reset,
            "stats_export": scores.stats_export, "stats_import": scores.stats_import,
            "damaged_export": scores.damaged_export, "damaged_clear": scores.damaged_clear,
            "share": scores.share,
        }

    # -- opening a game -------------------------------------------------------------------

    def random_seed(self) -> int:
        """A random deal number."""
        return self.rng.randint(DEAL_MIN, DEAL_MAX)

    def new_id(self) -> str:
        """An id for a newly dealt game: its result is counted once, whichever tab ends it."""
        return f"{self.rng.getrandbits(64):016x}"

    def start(self, query: str = "") -> "Payload":
        """Open the game the page starts with: a link's deal, else the autosave, else a new deal.

        ``query`` is the page's ``location.search``. A bad link leaves a notice and opens
        what would have opened without it, so nothing is lost.
        """
        link = self.parse_link(query)
        saved = self.restore()
        if link is not None:
            variant, seed, daily = link
            game = saved.game if saved is not None else None
            if saved is not None and (game.variant, game.seed) == (variant, seed):
                self.resume(saved)
            elif saved is not None and (game.can_undo or game.can_redo) \
                    and not saved.recorded:
                # A game in progress: keep it until the player agrees to leave it.
                self.resume(saved)
                self.pending_link = link
            else:  # (a daily date only if it is that date's deal: do_new checks it too)
                self.open(variant, seed, daily if self.desk.is_daily(variant, seed, daily)
                          else "")
        elif saved is not None:
            self.resume(saved)
        else:
            self.open(self.settings["variant"],
                      self.desk.draw_seed(self.settings["variant"], check=False))
        return self.render("start", announce=f"{labels.title(self.game.variant)}, deal "
                                              f"{self.game.seed}.")

    def parse_link(self, query: str) -> "share.Link | None":
        """The deal of ``?game=..&deal=..[&daily=..]``; None if absent; sets a notice if bad."""
        try:
            link = share.parse_link(query, engine.VARIANTS, labels.TITLES)
        except share.LinkError as error:
            self.notices.append({"title": "Link not opened",
                                 "text": f"{error} Your current game is still here."})
            return None
        return link

    def restore(self) -> "Saved | None":
        """The autosaved game still in play (a damaged save is kept aside, not used)."""
        saved = self.saves.load()
        if saved is None or saved.game.status == "won":
            return None
        return saved

    def resume(self, saved: "Saved") -> None:
        """Put a saved game on the table as it was saved."""
        recorded = saved.recorded or self.stats.counted(saved.game_id)
        self.adopt(saved.game, saved.elapsed_ms, recorded, saved.game_id, saved.daily)
        self.spans = list(saved.spans)

    def adopt(self, game: "engine.Game", elapsed_ms: int = 0, recorded: bool = False,
              game_id: str | None = None, daily: str = "") -> None:
        """Make ``game`` the one on the table, with its clock (a resumed game's time goes on);
        ``daily`` is the date whose daily deal it is, if it is one."""
        self.game = game
        self.daily = daily
        self.game_id = game_id or self.new_id()
        self.spans = []
        self.desk.game_replaced()
        self.recorded = recorded
        self.pending_link = None
        self.clock = Clock(self.now, elapsed_ms, started=game.move_count > 0)
        self.clock.update(finished=game.status != "playing")
        if self.settings["variant"] != game.variant:
            self.settings["variant"] = game.variant
            self.storage.save_settings(self.settings)

    def open(self, variant: str, seed: int, daily: str = "") -> None:
        """Deal ``seed`` of ``variant`` as a fresh game (the one left counts as a loss); the
        daily deal of date ``daily`` when given."""
        self.scores.abandon()
        self.adopt(engine.new_game(variant, seed), daily=daily)
        self.save()

    # -- the intents ----------------------------------------------------------------------

    def handle(self, kind: str, data: "dict[str, Any] | None" = None) -> "Payload":
        """Act on one player intent and return the render payload."""
        data = data or {}
        if kind not in UNSYNCED and self.saves.changed_elsewhere():
            return self.follow()
        handler = self.intents.get(kind)
        if handler is None:
            return self.render("none", announce="")
        return handler(**data)

    def do_state(self) -> "Payload":
        """Nothing to do: the current payload."""
        return self.render("none")

    def do_sync(self) -> "Payload":
        """Another tab wrote the app's data: take in its statistics (the game, if changed,
        was followed before this intent ran)."""
        self.stats.refresh()
        return self.render("none")

    def follow(self) -> "Payload":
        """Another tab moved on in the saved game, or saved another one: show it here
        rather than ever writing over it."""
        self.stats.refresh()
        saved = self.restore()
        if saved is None:  # the other tab ended the game: keep it on view, counted or not
            self.recorded = self.recorded or self.stats.counted(self.game_id)
        else:
            self.resume(saved)
        return self.render("sync", announce=FOLLOWED)

    def do_play(self, src: str, dst: str, count: int = 1) -> "Payload":
        """Play the move a drag or a keyboard drop names, if legal."""
        try:
            move = engine.Move(str(src), str(dst), int(count))
        except (TypeError, ValueError):
            return self.render("illegal", announce="That move is not allowed.")
        return self.play(move)

    def do_tap(self, pile: str, count: int = 1) -> "Payload":
        """Send the group of ``count`` cards on top of ``pile`` to its best destination."""
        if pile == "stock":
            return self.do_stock()
        move = self.best_move(pile, int(count))
        if move is None:
            return self.render("illegal", announce="That card cannot move now.")
        return self.play(move)

    def do_foundation(self, pile: str, count: int = 1) -> "Payload":
        """Send the group on ``pile`` to a foundation, where that is legal."""
        rules = self.game.rules
        if pile not in rules.index or rules.role(pile) == "foundation":
            return self.render("illegal", announce="That card cannot go to a foundation now.")
        moves = [m for m in self.game.legal_moves() if m.src == pile and m.count == int(count)
                 and rules.role(m.dst) == "foundation"]
        if not moves:
            return self.render("illegal", announce="That card cannot go to a foundation now.")
        return self.play(moves[0])

    def do_stock(self) -> "Payload":
        """Deal, turn, recycle or redeal: whatever touching the stock does now."""
        moves = [m for m in self.game.legal_moves() if is_stock_action(m)]
        if moves:
            return self.play(moves[0])
        return self.render("illegal", announce=self.why_no_stock())

    def do_finish(self) -> "Payload":
        """Play every card home, when the rules say the rest is won by force."""
        start = self.game.move_count
        if not engine.play_finish(self.game):
            return self.render("illegal", announce="The cards cannot all go home by "
                                                   "themselves yet.")
        self.play_span(start, [], "Finish")
        self.clock.update(started=True)
        self.after_change()
        return self.render("finish", announce="Every card goes home. " + self.status_words())

    def play_span(self, start: int, moves: "list[engine.Move]", kind: str) -> None:
        """Play ``moves`` (engine moves, legal in turn) and make one span, called ``kind``
        ("Finish", "Move"), of them and of whatever was played since the cursor stood at
        ``start``."""
        for move in moves:
            self.game.play(move)
        end = self.game.move_count
        self.spans = [s for s in self.spans if s[1] <= start]  # the old redo line is gone
        if end - start > 1:
            self.spans.append((start, end, kind))

    def step_span(self, at: int, step: "Callable[[], bool]") -> str | None:
        """Undo (``at`` 1) or redo (``at`` 0) a whole span when the cursor stands at that
        end of one; its kind, or None when the cursor stands at no such end."""
        cursor = self.game.move_count
        span = next((s for s in self.spans if s[at] == cursor), None)
        if span is None:
            return None
        for _ in range(span[1] - span[0]):
            step()
        self.after_change()
        return span[2]

    def do_undo(self) -> "Payload":
        """Take back the last move (a finish, or a move with the safe cards that went home
        after it: all of it)."""
        kind = self.step_span(1, self.game.undo)
        if kind is not None:
            return self.render("undo", announce=f"{kind} undone.")
        last = self.game.moves[-1] if self.game.can_undo else None
        if not self.game.undo():
            return self.render("none", announce="Nothing to undo.")
        self.after_change()
        back = engine.Move(last.dst, last.src, last.count) if last else None
        return self.render("undo", back, announce="Move undone.")

    def do_redo(self) -> "Payload":
        """Play again the last undone move (a finish, or a move and its safe cards home:
        all of it)."""
        kind = self.step_span(0, self.game.redo)
        if kind is not None:
            return self.render("redo", announce=f"{kind} redone. " + self.status_words())
        if not self.game.redo():
            return self.render("none", announce="Nothing to redo.")
        self.after_change()
        move = self.game.moves[-1]
        return self.render("redo", move, announce="Move redone. " + self.status_words())

    def do_restart(self) -> "Payload":
        """Start the same deal over (the page asked for confirmation first); a daily deal
        stays that date's daily."""
        self.open(self.game.variant, self.game.seed, self.daily)
        return self.render("new", announce="Deal restarted.")

    def do_new(self, variant: str | None = None, seed: int | None = None,
               daily: str = "", wait: bool = False) -> "Payload":
        """A new game of ``variant`` (default: the current one), deal ``seed`` or random;
        ``daily`` (with ``seed``) when it is the daily deal a link named. With ``wait``,
        "drawing" (nothing dealt) while the solver's worker is drawing the deal the
        settings ask for (web/forward.py): the page asks again when it answers."""
        variant = variant if variant in engine.VARIANTS else self.game.variant
        if isinstance(seed, bool) or not isinstance(seed, int) \
                or not DEAL_MIN <= seed <= DEAL_MAX:
            pending = getattr(self.desk, "draw_pending", None)
            if wait is True and pending is not None and pending(variant):
                return {"event": "drawing"}
            seed = self.desk.draw_seed(variant)
        daily = daily if isinstance(daily, str) and self.desk.is_daily(variant, seed, daily) \
            else ""
        self.open(variant, seed, daily)
        return self.render("new", announce=f"New game: {labels.title(variant)}, deal {seed}.")

    def do_visibility(self, hidden: bool) -> "Payload":
        """The page was hidden or shown: pause or resume the clock (and save)."""
        self.clock.update(hidden=bool(hidden))
        if hidden:
            self.save()
        return self.render("none")

    def do_settings(self, **changes: "Any") -> "Payload":
        """Change settings (tap mode, animation speed, the on/off ones of web/storage.py,
        per variant: winnable deals only and the level of new deals); a value of the wrong kind
        is ignored."""
        if changes.get("tap") in TAP_MODES:
            self.settings["tap"] = changes["tap"]
        if changes.get("speed") in SPEEDS:
            self.settings["speed"] = changes["speed"]
        for flag in FLAGS:
            if isinstance(changes.get(flag), bool):
                self.settings[flag] = changes[flag]
        if "winnable" in changes:
            self.desk.change_winnable(changes["winnable"])
        if "level" in changes:
            self.desk.change_level(changes["level"])
        self.storage.save_settings(self.settings)
        return self.render("settings")

    # -- helpers --------------------------------------------------------------------------

    def play(self, move: "engine.Move") -> "Payload":
        """Play ``move`` if the engine allows it, then (with the setting on) the safe cards
        home; the payload says what happened, and one undo takes it all back."""
        game = self.game
        before = game.position()
        start = game.move_count
        try:
            game.play(move)
        except engine.IllegalMove:
            return self.render("illegal", announce="That move is not allowed.")
        words = self.describe(move, before) + ". " + self.consequences(before, status=False)
        auto = engine.safe_moves(game) if self.settings["auto_move"] else []
        moved = game.position() if auto else before
        self.play_span(start, auto, "Move")  # (a new line of play: later spans are gone)
        if auto:
            words += " " + self.went_home(moved, auto) + " " + self.consequences(moved)
        else:
            words += " " + self.status_words()
        self.clock.update(started=True)
        self.after_change()
        return self.render("move", move, announce=" ".join(words.split()))

    def went_home(self, before: "Payload", moves: "list[engine.Move]") -> str:
        """The safe cards that went home by themselves, in words."""
        piles = {pid: list(cards) for pid, cards in before["piles"].items()}
        names = []
        for move in moves:  # (a card below one that went home may have been face down)
            card = piles[move.src].pop().upper()
            piles[move.dst].append(card)
            names.append(self.card_words(card))
        return "Home by themselves: " + ", ".join(names) + "." if len(names) > 1 \
            else f"{names[0]} goes home by itself."

    def after_change(self) -> None:
        """Keep the clock, the autosave and the solver in step with the game."""
        self.desk.position_changed()
        status = self.game.status
        self.clock.update(finished=status != "playing")
        if status == "won":
            if not self.recorded:
                self.scores.record_result(won=True)
            self.saves.forget()
        else:
            self.save()

    def save(self) -> None:
        """Autosave the game, its time and whether its result is already counted; never
        over a save that another tab wrote meanwhile (the next intent follows that one)."""
        if not self.saves.changed_elsewhere():
            self.saves.save(self.game, self.game_id, self.clock.ms(), self.recorded, self.daily,
                            self.spans)

    def best_move(self, pile: str, count: int) -> "engine.Move | None":
        """The best legal move of the top ``count`` cards of ``pile`` for a tap.

        Preference: a foundation, then a build on the same suit, then another build, then an
        empty pile. Among equals, the engine's hint move wins if it is one of them, else the
        first in the engine's move order.
        """
        game = self.game
        candidates = [m for m in game.legal_moves()
                      if m.src == pile and m.count == count and not is_stock_action(m)]
        if not candidates:
            return None
        piles = dict(zip(game.rules.pile_ids, game.state.piles))  # noqa: B905 - as long; MicroPython's zip takes no strict=
        moved = piles[pile][-count]

        def kind(move: "engine.Move") -> int:
            target = piles[move.dst]
            if game.rules.role(move.dst) == "foundation":
                return 3
            if target and target[-1] & SUIT_MASK == moved & SUIT_MASK:
                return 2
            return 1 if target else 0

        top = max(kind(m) for m in candidates)
        best = [m for m in candidates if kind(m) == top]
        if len(best) > 1:
            hinted = engine.hint(game)
            if hinted in best:
                return hinted
        return best[0]

    def why_no_stock(self) -> str:
        """Why touching the stock does nothing now."""
        piles = self.game.position()["piles"]
        if self.game.status != "playing":
            return "The game is over."
        if piles.get("stock"):
            if labels.family(self.game.variant) == "spider":
                return "Every column needs a card before a deal."
            return "The stock cannot be used now."
        if "redeals_left" in self.game.position():
            return "No redeals left."
        return "The stock is empty."

    def card_words(self, text: str) -> str:
        """A card's name for announcements."""
        return engine.card_name(parse_card(text))

    def describe(self, move: "engine.Move", before: "Payload | None" = None) -> str:
        """A move in words: "Queen of hearts to column 4", "Deal a row"."""
        pos = before or self.game.position()
        variant = self.game.variant
        if move.src == "stock":
            if move.dst == "tableau":
                return "Deal a row"
            if before is not None:
                return "Turn over " + self.card_words(pos["piles"]["stock"][-1].upper())
            return "Turn over the stock"
        if move.dst == "stock":
            return "Turn the waste over to make a new stock"
        cards = pos["piles"][move.src]
        first = cards[-move.count]
        what = self.card_words(first)
        if move.count > 1:
            what = f"{move.count} cards from {what}"
        return f"{what} to {labels.pile_name(variant, move.dst).lower()}"

    def consequences(self, before: "Payload", status: bool = True) -> str:
        """What happened on its own after a move: clears, flips, win or loss (unless
        ``status`` is False)."""
        after = self.game.position()
        words = []
        if after.get("cleared", 0) > before.get("cleared", 0):
            words.append("Sequence completed.")
        for pid in self.game.rules.pile_ids:  # a face-down card that is face up now
            cards = after["piles"][pid]  # (in the piles' order: MicroPython's dicts keep none)
            was = before["piles"].get(pid, [])
            top = len(cards) - 1
            if cards and cards[-1].isupper() and top < len(was) and was[top].islower():
                words.append(f"{self.card_words(cards[-1])} turned up.")
        if status:
            words.append(self.status_words())
        return " ".join(w for w in words if w)

    def do_read(self) -> "Payload":
        """The whole table in words, pile by pile, for a player who cannot see it."""
        variant = self.game.variant
        parts = []
        piles = self.game.position()["piles"]
        for pid in self.game.rules.pile_ids:  # in the piles' order, whatever the dict's
            cards = piles[pid]
            name = labels.pile_name(variant, pid)
            down = sum(1 for c in cards if c.islower())
            up = [self.card_words(c) for c in cards if c.isupper()]
            if not cards:
                parts.append(f"{name} empty")
            elif pid == "stock":
                parts.append(f"{name} {len(cards)} cards")
            else:
                shown = up[-1] if len(up) < 2 else f"{up[0]} down to {up[-1]}"
                hidden = f"{down} face down" + (", then " if up else "") if down else ""
                parts.append(f"{name}: {hidden}{shown if up else ''}")
        return self.render("none", announce=". ".join(parts) + ".")

    def status_words(self) -> str:
        """"You won!" / "No moves left." / ""."""
        status = self.game.status
        if status == "won":
            return "You won!"
        if status == "lost":
            return "No moves left."
        return ""

    def render(self, event: str, move: "engine.Move | None" = None, *,
               hint: "engine.Move | None" = None, announce: str = "") -> "Payload":
        """Everything the page needs to redraw after ``event``."""
        game = self.game
        position = game.position()
        texts = position.pop("piles")
        ids = [pid for pid in game.rules.pile_ids if pid in texts]  # the page's order
        ids += [pid for pid in texts if pid not in ids]
        piles = ordered([(pid, ["down" if c.islower() else c for c in texts[pid]])
                         for pid in ids])
        variant, seed = position.pop("variant"), position.pop("seed")
        status = position.pop("status")
        if status == "won":  # a full foundation needs nothing more ("needs A" misleads)
            position.pop("needs", None)
        pos_for_progress = dict(position, piles=piles)
        payload: Payload = {
            "type": "render",
            "event": event,
            "variant": variant,
            "seed": seed,
            "status": status,
            "family": labels.family(variant),
            "title": labels.title(variant),
            "piles": piles,
            "info": position,
            "moves": [move_list(m) for m in game.legal_moves()],
            "move": move_list(move),
            "hint": move_list(hint),
            "move_count": game.move_count,
            "can_undo": game.can_undo,
            "can_redo": game.can_redo,
            "can_finish": game.status == "playing" and game.rules.won_by_force(game.state),
            "elapsed_ms": self.clock.ms(),
            "clock_running": self.clock.running,
            "progress": labels.progress(variant, pos_for_progress),
            "announce": announce,
            "daily": self.daily,
        }
        if event in ("start", "new", "sync"):
            payload.update(table_fields(game, list(piles)))
            payload["settings"] = dict(self.settings)
        if event == "settings":
            payload["settings"] = dict(self.settings)
        if event == "start":
            payload["card_names"] = labels.card_names()
        self.scores.fields(payload)
        self.desk.fields(payload, event)
        return payload


__all__ = ["Clock", "Table"]
