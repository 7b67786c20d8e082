"""The solver's desk of a table whose solver runs elsewhere: in a worker, across messages.

The table on the main thread (web/controller.py, under MicroPython or Pyodide) gets this
desk instead of web.desk.SolverDesk: it runs no solver code and imports nothing of
engine/solver, so the first table never waits for the solver (docs/architecture.md §8).
The solver's side, web/deskworker.py, keeps a mirror of the table with the real
SolverDesk in a worker. Messages are JSON text both ways (:data:`post` sends one; the
page's transport hands each answer to :meth:`ForwardingDesk.receive`):

to the worker
    ``sync`` (``seq``; ``base``, the seq it builds on; the game's ``head``, its
    ``header()``; ``keep``, how many moves of the line the worker has stay, and ``moves``,
    the texts of the line's moves after them, so that a move costs the same at move 500 as
    at move 5; its undo ``spans`` and ``daily``): the position in play changed; ``hint``
    (``seq``); ``daily_find`` (``variant``, ``date``, ``cache``: the record of found dailies
    in storage); ``draw`` (``variant``, ``winnable``, ``level``): draw the next new deal
    of a variant ahead.
from the worker
    ``ready`` (or ``error``: it could not start); ``counts`` (the winnable lists' sizes,
    for the menus); ``watch`` (``seq``, what SolverDesk.watch answers, the moves the
    way back undoes, and on a winning line the texts of its next moves, ``ahead``);
    ``hint`` (``seq``, the hint's render fields); ``daily_find`` (``found``, ``deal``,
    the new ``cache``); ``draw`` (a deal number drawn for a variant
    under the settings named); ``resync`` (it could not build on a sync: it missed the
    one before; the next sync carries the whole line).

Every answer about a position names the ``seq`` of the sync it was found for; one for an
older position is dropped. A move along the winning line the worker sent ahead is
winnable at once, and a move from a position proved lost is lost at once, before the
worker's answer for it (as SolverDesk knows them at once). Until the worker is up, or has
answered, the desk says what it knows: no verdict yet ("watch" not done, so the page keeps
asking), a hint from ``engine.hint`` (the rules' own heuristic), a random deal without the
opening check, the daily deal "not found yet" (the page's search keeps asking). A new game
from a list (winnable only, a level) waits while the worker, up, is drawing it
(:meth:`ForwardingDesk.draw_pending`: the controller answers "drawing").
"""

import json

import engine
from web import labels
from web.compat import TYPE_CHECKING
from web.dailylink import confirm, field, known
from web.jsontext import JsonTextError, loads
from web.stats import is_day
from web.storage import StorageError, unwrap

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from web.controller import Table

    Payload = dict[str, Any]

# How long a hint waits for the worker before the heuristic answers: the worker's own
# search stops at web/desk.py's HINT_BUDGET_MS of solver time, but a slow or busy machine
# (a phone, a worker in the middle of a slice) stretches it; this covers a worker gone.
HINT_WAIT_S = 5.0
DAILIES = "dailies"  # the storage key of the found dailies (web/dailies.py's CACHE)
CACHE_CHARS = 20_000
MESSAGE_CHARS = 2_000_000  # a message from the worker is read with this limit
MEMO = 32  # positions (with their history) whose answers are kept for a return to them

# The levels of rated deals: engine/solver/rating.py's LEVELS, which the main thread does
# not import (tests/web/test_forward_desk.py checks they are the same).
LEVELS = ("easy", "medium", "hard")
NO_HINT_YET = "No earlier position is known to be winnable yet."
NOT_LOST = "Nothing to go back to: this position is not known to be lost."


def rewind_words(undos: int) -> str:
    """What the table says after going back to a winnable position."""
    said = "1 move" if undos == 1 else f"{undos} moves"
    return f"Back {said}: this position can be won."


def common_prefix(a: tuple, b: tuple) -> int:
    """How many moves two lines share from the start (compared a slice at a time, in a
    bisection: each comparison runs in the interpreter's own code)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n  # a[:low] == b[:low], a[:high] != b[:high]
    while high - low > 1:
        middle = (low + high) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle
    return low


def implied(before: "Any", state: "dict[str, Any] | None", after: "Any") -> "Any":
    """What the worker's answer for the position ``before`` says of the position ``after``
    when that one was reached from it by moves (the same game): on the winning line it
    sent ahead, winnable; after a position proved lost, lost (an earlier winnable position
    is looked for when one was found or looked for before). Not "done": the worker's own
    answer still comes. None when nothing follows."""
    if state is None or before is None or before[:3] != after[:3]:
        return None
    old, new = before[3], after[3]
    played = len(new) - len(old)
    if played < 1 or new[:len(old)] != old:
        return None
    verdict = state.get("verdict")
    if verdict == "won":
        ahead = state.get("ahead") or []
        if len(ahead) < played or [str(m) for m in new[len(old):]] != ahead[:played]:
            return None
        return {"verdict": "won", "unwinnable": False, "rewind": None,
                "ahead": ahead[played:]}
    if verdict == "lost":
        back = state.get("rewind") or {}
        looking = bool(back.get("looking") or back.get("back"))
        return {"verdict": "lost", "unwinnable": True,
                "rewind": {"looking": looking, "back": 0}}
    return None


def dumps(message: "dict[str, Any]") -> str:
    """A message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"))


class ForwardingDesk:
    """The table's solver part, answered by a worker: requests out, answers merged in."""

    hold_gc = False  # (set by the page for SolverDesk; nothing to hold here)

    def __init__(self, table: "Table") -> None:
        self.table = table
        self.dailies = self  # the table's "daily" and "daily_find" intents come here too
        self.outbox: list[str] = []
        self.post: Callable[[str], None] = self.outbox.append  # the page sets its transport
        self.ready = False
        self.failed = False  # the worker could not start: no solver this visit
        self.seq = 0  # of the last sync sent
        self.sent = ""  # its text, but for the seq and the moves
        self.game_sent: Any = None  # the game it was of
        self.whole = 0  # the seq of the last sync that carried the whole line
        self.line_sent: tuple = ()  # the line of moves the worker has
        self.line: Any = None  # the position's key: the game and the line of play to it
        self.dirty = True  # the position may have changed since
        self.state: dict[str, Any] | None = None  # the worker's latest watch answer, this seq
        self.hints: dict[str, Any] | None = None  # its hint for this seq
        self.hint_since: float | None = None  # a hint waits for the worker since then
        self.counts: dict[str, Any] | None = None  # the winnable lists' sizes
        self.draws: dict[str, list[Any]] = {}  # variant -> [winnable, level, seed]
        self.drawing: dict[str, list[Any]] = {}  # variant -> [winnable, level] asked for
        self.found: dict[tuple[str, str], Any] = {}  # (variant, date) -> deal (or error)
        self.finding: set[tuple[str, str]] = set()
        self.check: tuple[str, str, int] | None = None  # a link's daily to confirm
        # what the worker said of recent positions (by line of play), shown again at once
        # on a return to one (an undo, a redo) while the worker answers anew
        self.memo: dict[Any, Any] = {}
        self.memo_order: list[Any] = []  # oldest first (MicroPython's dicts keep no order)

    # -- the messages ---------------------------------------------------------------------

    def send(self, kind: str, **fields: "Any") -> None:
        fields["kind"] = kind
        self.post(dumps(fields))

    def flush(self) -> None:
        """Tell the worker the position in play, when it changed since the last sync."""
        if not self.dirty:
            return
        self.dirty = False
        table = self.table
        game = table.game
        head = game.header()
        body = {"head": head, "spans": [list(s) for s in table.spans], "daily": table.daily}
        text = dumps(body)
        line = game.line
        sent = self.line_sent if game is self.game_sent else ()
        if text == self.sent and line == sent:
            return
        self.remember()
        keep = common_prefix(sent, line)
        self.sent, self.game_sent, self.line_sent = text, game, line
        # The position and the line of play to it (the moves undone since do not count).
        start = head.get("start")
        before, state = self.line, self.state
        self.line = (head["variant"], head["seed"], None if start is None else dumps(start),
                     line[:head["cursor"]])
        self.seq += 1
        if not keep:
            self.whole = self.seq
        self.state, self.hints = self.memo.get(self.line) or (None, None)
        if self.state is None:
            self.state = implied(before, state, self.line)
        body.update(seq=self.seq, base=self.seq - 1, keep=keep,
                    moves=[str(m) for m in line[keep:]])
        self.send("sync", **body)

    def resync(self) -> None:
        """The worker missed a sync: the next one carries the whole line."""
        self.game_sent, self.line_sent, self.sent = None, (), ""
        self.dirty = True
        self.flush()

    def remember(self) -> None:
        """Keep what the worker said of the position being left (the newest :data:`MEMO`)."""
        text = self.line
        if text is None or (self.state is None and self.hints is None):
            return
        if text not in self.memo:
            self.memo_order.append(text)
        self.memo[text] = (self.state, self.hints)
        while len(self.memo_order) > MEMO:
            del self.memo[self.memo_order.pop(0)]

    def receive(self, text: str) -> None:
        """An answer from the worker: kept when it is still about the position in play.

        The worker's messages are this app's own JSON (a few levels deep), read with
        ``json.loads`` alone: web/jsontext.py's depth scan, a Python loop over every
        character under MicroPython, cost more than the rest of an answer's handling
        together (a watch answer with its line ahead: ~20 ms a message on a desktop CPU)."""
        if not isinstance(text, str) or len(text) > MESSAGE_CHARS:
            return
        try:
            message = json.loads(text)
            kind = message.get("kind")
        except (ValueError, AttributeError):
            return
        self.flush()  # (an answer for the position before an unsent change is old)
        current = message.get("seq") == self.seq
        if kind == "ready":
            self.ready = True
            self.ask_draw(self.table.game.variant)
        elif kind == "error":  # (the worker's transport says so when it could not start)
            self.ready, self.failed = False, True
        elif kind == "resync" and isinstance(message.get("seq"), int) \
                and message["seq"] > self.whole:  # (not for a sync before a whole one)
            self.resync()
        elif kind == "counts":
            self.counts = {"winnable_counts": message.get("winnable_counts"),
                           "level_counts": message.get("level_counts")}
        elif kind == "watch" and current:
            state = self.state  # (the newest answer stands, whatever order they came in)
            if state is None or message.get("n", 0) > state.get("n", 0):
                self.state = message
        elif kind == "hint" and current:
            self.hints = message
        elif kind == "daily_find":
            self.took_daily(message)
        elif kind == "draw" and message.get("variant") in engine.VARIANTS:
            variant = message["variant"]
            drawn = [message.get("winnable"), message.get("level"), message.get("seed")]
            if self.drawing.get(variant) == drawn[:2]:
                del self.drawing[variant]
            if drawn[:2] == self.wanted(variant):
                self.draws[variant] = drawn
            else:  # drawn under settings changed since
                self.ask_draw(variant)

    # -- the position ---------------------------------------------------------------------

    def position_changed(self) -> None:
        """The position may have changed: the next look at it syncs the worker first."""
        self.dirty = True
        self.hint_since = None

    def game_replaced(self) -> None:
        self.position_changed()

    def known(self, name: str, default: "Any" = None) -> "Any":
        """A field of the worker's watch answer for the position in play."""
        self.flush()
        state = self.state
        return default if state is None else state.get(name, default)

    def verdict(self) -> "str | None":
        return self.known("verdict")

    @property
    def unwinnable(self) -> bool:
        return self.table.game.status == "playing" and self.known("unwinnable") is True

    def watch(self, ms: "Any" = None) -> "Payload":
        """What the worker found of the position in play; "done" once it has settled it
        (or at once when the game is over). Until then "waiting" says the answer comes
        from the worker, not from slices here: asking again at once only spins (the page
        may wait a little before the next call)."""
        done = self.table.game.status != "playing" or self.failed \
            or self.known("done") is True
        answer = {"event": "watch", "done": done, "verdict": self.verdict(),
                  "unwinnable": self.unwinnable, "rewind": self.known("rewind")}
        if not done:
            answer["waiting"] = True
        return answer

    # -- hints ----------------------------------------------------------------------------

    def hint(self) -> "Payload":
        """The worker's hint when it has one, else asks it ("thinking"); the rules' own
        hint while the worker is not up."""
        table = self.table
        if table.game.status != "playing" or not self.ready:
            return self.heuristic()
        self.flush()
        if self.hints is not None:
            return self.hint_payload(self.hints)
        self.hint_since = table.now()
        self.send("hint", seq=self.seq)
        return {"event": "thinking"}

    def hint_step(self) -> "Payload":
        """The worker's hint once it came; "thinking" meanwhile; the heuristic when it is
        too late; "hint_cancelled" when the position changed."""
        self.flush()
        since = self.hint_since
        if since is None:
            return {"event": "hint_cancelled"}
        if self.hints is not None:
            self.hint_since = None
            return self.hint_payload(self.hints)
        if self.table.now() - since >= HINT_WAIT_S:
            self.hint_since = None
            return self.heuristic()
        return {"event": "thinking"}

    def hint_payload(self, found: "dict[str, Any]") -> "Payload":
        """The table's render of the worker's hint (its words and flags as found there)."""
        move = found.get("hint")
        hint = engine.Move(move[0], move[1], move[2]) if isinstance(move, list) else None
        payload = self.table.render(found.get("event") or "none", hint=hint,
                                    announce=found.get("announce") or "")
        for name in ("hint_proven", "hint_words"):
            if name in found:
                payload[name] = found[name]
        return payload

    def heuristic(self) -> "Payload":
        """The rules' own hint (engine.hint), as SolverDesk gives it for a position searched
        and not won."""
        table = self.table
        game = table.game
        if game.status != "playing":
            return table.render("none", announce="No hint: the game is over.")
        move = engine.hint(game)
        if move is None:
            return table.render("none", announce="No moves left.")
        payload = table.render("hint", hint=move, announce="Hint: " + table.describe(move) + ".")
        payload["hint_proven"] = False
        return payload

    # -- the way back ---------------------------------------------------------------------

    def rewind(self) -> "Payload":
        """Undo back to the latest position the worker proved winnable (plain undos)."""
        table = self.table
        back = self.known("rewind") if self.unwinnable else None
        moves = self.known("moves", 0)
        if not back or not back.get("back") or not moves:
            return table.render("illegal", announce=NO_HINT_YET if self.unwinnable
                                else NOT_LOST)
        for _ in range(moves):
            table.game.undo()
        table.after_change()
        self.flush()
        if self.state is None:  # the worker proved this position winnable: say so at once
            # (not "done": its own answer for the position still comes)
            self.state = {"verdict": "won", "unwinnable": False, "rewind": None}
        return table.render("rewind", announce=rewind_words(back["back"]))

    # -- new deals ------------------------------------------------------------------------

    def wanted(self, variant: str) -> "list[Any]":
        """[winnable only, level] of new deals of ``variant`` as the player chose."""
        settings = self.table.settings
        return [variant in settings.get("winnable", ()),
                settings.get("level", {}).get(variant)]

    def ask_draw(self, variant: str) -> None:
        """Have the worker draw the next deal of ``variant`` ahead (once for the same
        settings)."""
        wanted = self.wanted(variant)
        if self.ready and self.drawing.get(variant) != wanted:
            self.drawing[variant] = wanted
            self.send("draw", variant=variant, winnable=wanted[0], level=wanted[1])

    def draw_pending(self, variant: str) -> bool:
        """True while the worker is drawing a deal of a list ("winnable only", a level)
        for ``variant`` under the settings in force: a new game asked for now would be a
        random one, so the page waits for the worker's answer (a list's draw is quick)."""
        wanted = self.wanted(variant)
        drawn = self.draws.get(variant)
        return self.ready and not self.failed and wanted[0] is True \
            and (drawn is None or drawn[:2] != wanted) and self.drawing.get(variant) == wanted

    def draw_seed(self, variant: str, check: bool = True) -> int:
        """The deal the worker drew ahead for ``variant`` under the settings in force (then
        the next is asked for); else a random deal, without the opening check."""
        drawn = self.draws.get(variant)
        seed = None
        if drawn is not None and drawn[:2] == self.wanted(variant) \
                and isinstance(drawn[2], int):
            seed = drawn[2]
            del self.draws[variant]
        self.ask_draw(variant)
        return seed if seed is not None else self.table.random_seed()

    def change_level(self, changes: "Any") -> None:
        """Choose the level of new deals per variant: ``{variant: "easy" | "medium" |
        "hard" | None}``."""
        if not isinstance(changes, dict):
            return
        levels = dict(self.table.settings.get("level", {}))
        for variant, level in changes.items():
            if variant in engine.VARIANTS and (level is None or level in LEVELS):
                levels.pop(variant, None)
                if level:
                    levels[variant] = level
        self.table.settings["level"] = levels
        for variant in changes:
            self.redraw(variant)

    def change_winnable(self, changes: "Any") -> None:
        """Turn "Winnable deals only" on or off per variant: ``{variant: bool}``."""
        if not isinstance(changes, dict):
            return
        chosen = set(self.table.settings.get("winnable", ()))
        for variant, on in changes.items():
            if variant in engine.VARIANTS and on in (True, False):
                if on:
                    chosen.add(variant)
                else:
                    chosen.discard(variant)
        self.table.settings["winnable"] = [v for v in engine.VARIANTS if v in chosen]
        for variant in changes:
            self.redraw(variant)

    def redraw(self, variant: "Any") -> None:
        """A deal drawn ahead under other settings is asked for again."""
        if variant in engine.VARIANTS:
            drawn = self.draws.get(variant)
            if drawn is not None and drawn[:2] != self.wanted(variant):
                del self.draws[variant]
            if variant not in self.draws:
                self.ask_draw(variant)

    # -- the daily deal -------------------------------------------------------------------

    def recorded(self, variant: str, day: str) -> "int | None":
        """The deal recorded in storage for ``variant`` on ``day`` (read as web/dailies.py
        reads it without the solver; the worker checks the rest)."""
        text = self.table.storage.read_text(DAILIES)
        try:
            deal = unwrap(loads(text, CACHE_CHARS))["deals"][variant][day]
        except (JsonTextError, StorageError, TypeError, KeyError, AttributeError):
            return None
        return deal if type(deal) is int else None

    def is_daily(self, variant: str, seed: int, day: str) -> bool:
        """Whether deal ``seed`` is known to be the daily of ``day`` (web/dailylink.py)."""
        return known(self, variant, seed, day)

    def took_daily(self, message: "dict[str, Any]") -> None:
        """The worker's search for a daily deal ended: kept, and its record stored."""
        key = (message.get("variant"), message.get("date"))
        if key not in self.finding:
            return
        self.finding.discard(key)
        if message.get("found") and type(message.get("deal")) is int:
            self.found[key] = message["deal"]
        elif message.get("error"):
            self.found[key] = str(message["error"])
        cache = message.get("cache")
        if isinstance(cache, str):
            self.table.storage.write_text(DAILIES, cache)

    def find(self, variant: "Any" = None, date: "Any" = "", ms: "Any" = None) -> "Payload":
        """The daily deal of ``variant`` on ``date`` once the worker found it (the page
        asks again until then)."""
        variant = variant if variant in engine.VARIANTS else self.table.game.variant
        if not is_day(date):
            return {"event": "daily_find", "found": False, "deal": None,
                    "error": f"a date is written YYYY-MM-DD, not {str(date)[:20]!r}"}
        answer = {"event": "daily_find", "variant": variant, "date": date}
        deal = self.found.get((variant, date))
        if isinstance(deal, str):
            del self.found[(variant, date)]
            return dict(answer, found=False, deal=None, error=deal)
        if deal is None:
            self.ask_daily(variant, date)
            return dict(answer, found=False, deal=None)
        confirmed = confirm(self, variant, date, deal)
        if confirmed is not None:
            return confirmed
        return dict(answer, found=True, deal=deal)

    def ask_daily(self, variant: str, date: str) -> None:
        if self.ready and (variant, date) not in self.finding:
            self.finding.add((variant, date))
            self.send("daily_find", variant=variant, date=date,
                      cache=self.table.storage.read_text(DAILIES))

    def daily(self, variant: "Any" = None, date: "Any" = "") -> "Payload":
        """Deal the daily deal of ``variant`` for ``date`` once found (the page asks after
        "daily_find" found it)."""
        table = self.table
        variant = variant if variant in engine.VARIANTS else table.game.variant
        if not is_day(date):
            return table.render("illegal", announce="No daily deal: a date is written "
                                "YYYY-MM-DD, not " + repr(str(date)[:20]) + ".")
        seed = self.found.get((variant, date))
        if type(seed) is not int:
            self.ask_daily(variant, date)
            return table.render("illegal", announce="The daily deal is not found yet.")
        table.open(variant, seed, date)
        return table.render("new", announce=f"Daily deal of {date}: {labels.title(variant)}, "
                                             f"deal {seed}.")

    # -- render fields --------------------------------------------------------------------

    def fields(self, payload: "Payload", event: str) -> None:
        """The verdict, the proven-lost flag and the way back as the worker found them; a
        link's daily to check; the lists' sizes with "settings" once the worker sent them."""
        payload["verdict"] = self.verdict()
        payload["unwinnable"] = self.unwinnable
        payload["rewind"] = self.known("rewind") if payload["unwinnable"] else None
        field(self, payload)
        if event == "settings" and self.counts is not None:
            payload.update(self.counts)


__all__ = ["ForwardingDesk", "common_prefix", "rewind_words"]
