"""The solver's side of a table whose main thread runs web/forward.py's ForwardingDesk.

Runs where the solver is (Pyodide in a worker; CPython in the tests): a mirror of the
player's table, with the real web.desk.SolverDesk, kept in step by the main desk's
``sync`` messages (the game's ``record()``, its undo spans, its daily date), answers its
requests in the same JSON text (web/forward.py lists the messages). A sync carries the
moves after those the mirror shares with the player's line, which the mirror plays (or
takes back) in place. :meth:`DeskWorker.step`
does one slice of work at a time, most wanted first: a hint the player waits for, a
daily deal the menu waits for, the watch of the position in play (its verdict, the way
back from a lost one), the sizes of the winnable lists, the next new deals drawn ahead.
The worker's loop receives the messages that came between two slices, so a move drops a
search within a slice.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import engine
from web.controller import Table
from web.desk import SolverDesk
from web.jsontext import JsonTextError, loads
from web.storage import MemoryBackend, Storage

DAILIES = "dailies"
SLICE_MS = 20.0  # a worker's slice: nothing else waits on this thread but the messages
MESSAGE_CHARS = 2_000_000
AHEAD = 40  # moves of a winning line sent ahead with a watch answer (the main desk reads
# each answer while cards may be flying: a short line is quick to read, and the next
# answer, for the position after a move, brings the line on)
HINT_FIELDS = ("event", "hint", "announce", "hint_proven", "hint_words")


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def table_playing(table: Table) -> bool:
    return table.game.status == "playing"


class DeskWorker:
    """A mirror table with the solver, answering a ForwardingDesk's requests."""

    def __init__(self, post: Callable[[str], None] | None = None,
                 rng: random.Random | None = None, slice_ms: float = SLICE_MS) -> None:
        self.outbox: list[str] = []
        self.post = post or self.outbox.append
        self.table = Table(Storage(MemoryBackend()), rng=rng or random.Random(),
                           desk=SolverDesk)
        self.desk: SolverDesk = self.table.desk  # type: ignore[assignment]
        self.desk.watch_slice_ms = slice_ms
        self.slice_ms = slice_ms
        self.seq = 0  # of the sync the mirror is in
        self.hinting = False  # a hint of this seq is under way
        self.hint_asked = False  # and the player asked for it (else the watch did)
        self.last_hint = ""  # the last hint sent, for this seq
        self.watching = False  # the watch of this seq is not done
        self.last_watch = ""  # the last watch answer sent, for this seq
        self.hint_told = False  # the watch has offered a known hint, for this seq
        self.hint_for = -1  # a hint asked for a sync not received yet
        self.count = 0  # numbers the watch answers: the newest counts, whatever the order
        self.texts: list[str] = []  # the texts of the mirror's line of moves
        self.counting = False  # the lists' sizes are still to be sent
        self.dailies: list[tuple[str, str]] = []  # (variant, date) asked for, oldest first
        self.draws: dict[str, tuple[bool, str | None]] = {}  # variant -> (winnable, level)

    def send(self, kind: str, **fields: Any) -> None:
        fields["kind"] = kind
        self.post(dumps(fields))

    def start(self) -> None:
        """Say the solver is up; the sizes of its lists for the menus come once the
        position in play is settled (reading the lists may wait for files in the page)."""
        self.send("ready")
        self.counting = True

    def counts(self) -> None:
        self.counting = False
        self.send("counts", winnable_counts=self.desk.winnable_counts(),
                  level_counts=self.desk.level_counts())

    # -- the messages ---------------------------------------------------------------------

    def receive(self, text: str) -> None:
        """One request from the main desk (a malformed one is ignored)."""
        try:
            message = loads(text, MESSAGE_CHARS)
            kind = message.get("kind")
        except (JsonTextError, AttributeError):
            return
        if kind == "sync":
            self.sync(message)
        elif kind == "hint" and isinstance(message.get("seq"), int):
            if message["seq"] == self.seq:
                self.hint()
            elif message["seq"] > self.seq:
                self.hint_for = message["seq"]
        elif kind == "daily_find":
            self.ask_daily(message)
        elif kind == "draw" and message.get("variant") in engine.VARIANTS:
            level = message.get("level")
            self.draws[message["variant"]] = (message.get("winnable") is True,
                                              level if isinstance(level, str) else None)

    def sync(self, message: dict[str, Any]) -> None:
        """Put the main table's game on the mirror (what searches found stays): the moves
        after those it keeps played in place, or, for another game, the game replayed."""
        seq, keep = message.get("seq"), message.get("keep")
        if not isinstance(seq, int) or seq <= self.seq:  # (an older one, come late)
            return
        try:
            head = dict(message["head"])
            moves = [str(m) for m in message["moves"]]
            spans = [(int(s), int(e), str(k)) for s, e, k in message.get("spans") or ()]
            if not isinstance(keep, int) or keep < 0 or (keep and (
                    message.get("base") != self.seq or keep > len(self.texts))):
                raise LookupError("not built on the line the mirror has")
            texts = self.texts[:keep] + moves
            if not (keep and self.follow(head, keep, moves)):
                game = engine.replay(dict(head, moves=texts))
                self.table.adopt(game)
        except (KeyError, TypeError, ValueError, LookupError, engine.IllegalMove):
            self.send("resync", seq=seq)  # the next sync brings the whole line
            return
        self.seq, self.texts = seq, texts
        daily = message.get("daily")
        self.table.daily = daily if isinstance(daily, str) else ""
        self.table.spans = spans
        self.desk.position_changed()
        self.hinting = False
        self.watching = True
        self.last_watch = ""
        self.hint_told = False
        self.last_hint = ""
        if self.hint_for == seq:
            self.hint()

    def follow(self, head: dict[str, Any], keep: int, moves: list[str]) -> bool:
        """Bring the mirror's game to the player's line in place: back to the ``keep``
        moves shared, then ``moves`` played, then the undo cursor where the player's is.
        False when the game is another (it is then replayed)."""
        game = self.table.game
        if game.header() != dict(head, cursor=game.move_count, undo_count=game.undo_count) \
                or (not moves and len(game.line) != keep):
            return False
        cursor = head.get("cursor")
        if not isinstance(cursor, int) or not 0 <= cursor <= keep + len(moves):
            raise ValueError("a cursor outside the line")
        while game.move_count > keep and game.undo():
            pass
        while game.move_count < keep and game.redo():
            pass
        for text in moves:
            game.play(engine.parse_move(game, text))
        while game.move_count > cursor and game.undo():
            pass
        while game.move_count < cursor and game.redo():
            pass
        game.undo_count = head.get("undo_count", game.undo_count)
        return True

    def hint(self, asked: bool = True) -> None:
        """Start the hint of the position in play (answered at once when known): ``asked``
        by the player, always answered; else the watch's, sent unasked unless it is the
        hint sent last for this position (the main desk keeps that one)."""
        self.hinting = True
        self.hint_asked = asked
        self.answer_hint(self.table.handle("hint"))

    def answer_hint(self, payload: dict[str, Any]) -> None:
        event = payload.get("event")
        if event == "thinking":
            return
        self.hinting = False
        if event == "hint_cancelled":
            return
        fields = {name: payload[name] for name in HINT_FIELDS if name in payload}
        text = dumps(fields)
        if self.hint_asked or text != self.last_hint:
            self.last_hint = text
            self.send("hint", seq=self.seq, **fields)

    def ask_daily(self, message: dict[str, Any]) -> None:
        """Queue the search for a daily deal, with the main's record of found ones."""
        key = (message.get("variant"), message.get("date"))
        if not all(isinstance(k, str) for k in key):
            return
        cache = message.get("cache")
        if isinstance(cache, str):
            self.table.storage.write_text(DAILIES, cache)
        if key not in self.dailies:
            self.dailies.append(key)  # type: ignore[arg-type]

    # -- the work, a slice at a time ------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Whether there is work left (else the loop waits for a message)."""
        return self.hinting or bool(self.dailies) or self.watching or self.counting \
            or bool(self.draws)

    def step(self) -> bool:
        """One slice of the most wanted work; whether work is left."""
        table = self.table
        if self.hinting:
            self.answer_hint(table.handle("hint_step"))
        elif self.listed_draw() is not None:  # quick, and a new game may wait for it
            self.draw(self.listed_draw())
        elif self.dailies:
            self.find_daily()
        elif self.watching:
            self.watch()
        elif self.counting:
            self.counts()
        elif self.draws:
            self.draw()
        return self.busy

    def find_daily(self) -> None:
        variant, date = self.dailies[0]
        answer = self.desk.dailies.find(variant, date, self.slice_ms)
        if answer.get("found") or answer.get("error"):
            del self.dailies[0]
            self.send("daily_find", variant=variant, date=date, found=bool(answer["found"]),
                      deal=answer.get("deal"), error=answer.get("error"),
                      cache=self.table.storage.read_text(DAILIES))

    def watch(self) -> None:
        """A slice of the watch; its answer goes out when it says something new."""
        answer = self.table.handle("watch", {"ms": self.slice_ms})
        self.watching = not answer["done"]
        back = answer.get("rewind")
        moves = 0
        if back and back.get("back"):
            look = self.desk.look_back
            moves = self.desk.undo_steps(look.found)[1] if look and look.found else 0
        answer["moves"] = moves
        line = self.desk.line if answer["verdict"] == "won" else None
        if line is not None:  # the main desk follows a move along it at once
            at = line.index[self.table.game.state]
            answer["ahead"] = [str(m) for m in line.moves[at:at + AHEAD]]
        text = dumps(answer)
        if text != self.last_watch:
            self.last_watch = text
            self.count += 1
            self.send("watch", seq=self.seq, n=self.count, **answer)
        desk = self.desk
        if not self.hint_told and table_playing(self.table) and not self.hinting \
                and (desk.unwinnable or desk.known_hint() is not None):
            # The hint is known without a search: the main desk shows it at once.
            self.hint_told = True
            self.hint(asked=False)

    def listed_draw(self) -> str | None:
        """A variant whose next deal is drawn from a list (winnable only): no search."""
        return next((v for v, (winnable, _) in self.draws.items() if winnable), None)

    def draw(self, variant: str | None = None) -> None:
        """Draw the next new deal of a variant, under the settings it was asked with."""
        variant = variant or next(iter(self.draws))
        winnable, level = self.draws.pop(variant)
        settings = self.table.settings
        settings["winnable"] = [variant] if winnable else []
        settings["level"] = {variant: level} if level else {}
        seed = self.desk.draw_seed(variant)
        self.send("draw", variant=variant, winnable=winnable, level=level, seed=seed)


__all__ = ["DeskWorker"]
