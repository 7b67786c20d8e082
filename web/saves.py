"""The autosave of the game in progress: written in parts, so a move costs the same at
move 5,000 as at move 5, and read back exactly, or kept aside when it cannot be.

The save is a small head and the moves in chunks of :data:`CHUNK`::

    game      {"id", "variant", "seed", "count", "cursor", "undo_count", "elapsed_ms",
               "recorded", ["start"], ["daily"], ["spans"]}
    game.<n>  {"id", "moves": "t0-t1 stock-waste ..."}  moves n*CHUNK .. (n+1)*CHUNK-1

"spans" lists the runs of moves one undo takes back together (a finish, a move and the
safe cards that went home after it) as ``[start, end, kind]``; the latest :data:`SPANS`
only, and a field that does not make sense is dropped (each move then undoes alone):
it groups undos and holds nothing of the game itself.

A move rewrites the head and the last chunk only (an undo, the head only). The chunks are
written before the head, and each names the game it belongs to.

Two tabs of the app share one save. This tab remembers the head text it last read or
wrote (:attr:`GameSaves.seen`); when the stored head differs, another tab has moved on,
and :meth:`GameSaves.changed_elsewhere` says so before this tab writes anything, so the
controller follows the other tab instead of overwriting its moves.

A save written before saves came in parts (``{"record": Game.record(), "elapsed_ms",
"recorded"}`` under the same key) is read as well; the next save rewrites it in parts.
"""

import json

import engine
from web.compat import TYPE_CHECKING, crc32, record
from web.jsontext import JsonTextError, loads
from web.stats import MAX_MS, is_day
from web.storage import GAME, StorageError, unwrap, wrap

if TYPE_CHECKING:
    from typing import Any

    from web.storage import Storage

    Span = tuple[int, int, str]  # moves start..end of the line undo together; what they were

CHUNK = 200  # moves a chunk holds
HEAD_CHARS = 20_000
CHUNK_CHARS = 20 * CHUNK + 200
SPANS = 200  # the latest spans kept in the head (older ones undo a move at a time)
SPAN_KINDS = frozenset({"Finish", "Move"})

class Saved(record("Saved", ("game", "game_id", "elapsed_ms", "recorded", "daily", "spans"),
                   ("", ()))):
    """A game read back from the save, with what the table keeps beside it: the
    engine.Game, its id (str), the time played (int ms), whether its result is counted,
    the date ("YYYY-MM-DD") whose daily deal it is (else "") and the spans, a tuple of
    Span: moves that undo together (web.controller.Table.spans)."""

    __slots__ = ()


def chunk_name(n: int) -> str:
    """The key name of chunk ``n``."""
    return f"{GAME}.{n}"


def chunks_for(count: int) -> int:
    """How many chunks ``count`` moves take."""
    return -(-count // CHUNK)


def read_spans(value: "Any", count: int) -> "tuple[Span, ...]":
    """The spans of a head, in order and within its ``count`` moves; () when the field is
    absent or makes no sense."""
    if not isinstance(value, list) or len(value) > SPANS:
        return ()
    spans: list[Span] = []
    for item in value:
        if not (isinstance(item, list) and len(item) == 3 and item[2] in SPAN_KINDS
                and all(type(n) is int for n in item[:2])):
            return ()
        start, end, kind = item
        if not (spans[-1][1] if spans else 0) <= start < end <= count:
            return ()
        spans.append((start, end, kind))
    return tuple(spans)


def _count(value: "Any", what: str, top: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 \
            or (top is not None and value > top):
        raise StorageError(f"its {what} is not a whole number in range")
    return value


class GameSaves:
    """Reads and writes the autosave of one app copy's game in progress."""

    def __init__(self, storage: "Storage") -> None:
        self.storage = storage
        self.seen: str | None = None  # the head text this tab last read or wrote
        self._id: str | None = None  # the game whose chunks are stored
        self._line: tuple[engine.Move, ...] = ()  # its line as stored
        self._chunks = 0

    def changed_elsewhere(self) -> bool:
        """True when the stored head is not the one this tab last read or wrote."""
        storage = self.storage
        return not storage.read_failed and storage.read_text(GAME) != self.seen

    # -- reading --------------------------------------------------------------------------

    def load(self) -> "Saved | None":
        """The saved game; None when there is none (or it was damaged: then kept aside)."""
        storage = self.storage
        text = storage.read_text(GAME)
        self.seen = text
        if text is None:
            self._id, self._line, self._chunks = None, (), 0
            return None
        parts: list[str | None] = []
        try:
            head = unwrap(loads(text, HEAD_CHARS if '"record"' not in text else 10**7),
                          storage.schema, storage.migrations)
            if "record" in head:
                saved = self._from_record(head, text)
            else:
                saved = self._from_parts(head, parts)
        except (JsonTextError, StorageError, ValueError, TypeError, KeyError) as exc:
            reason = str(exc) if isinstance(exc, ValueError) else f"{type(exc).__name__}"
            whole = text if not parts else json.dumps({"head": text, "chunks": parts})
            storage.set_aside(GAME, whole, reason[:200],
                              also=tuple(chunk_name(n) for n in range(len(parts))))
            self.seen = storage.read_text(GAME)
            self._id, self._line, self._chunks = None, (), 0
            return None
        self._id, self._line = saved.game_id, saved.game.line
        self._chunks = chunks_for(len(self._line)) if "record" not in head else 0
        return saved

    def _from_parts(self, head: "dict[str, Any]", parts: list[str | None]) -> "Saved":
        game_id = head.get("id")
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 40:
            raise StorageError("it names no game")
        count = _count(head.get("count"), "move count", 10**6)
        moves: list[str] = []
        for n in range(chunks_for(count)):
            part = self.storage.read_text(chunk_name(n))
            parts.append(part)
            if part is None:
                raise StorageError(f"part {n + 1} of its moves is missing")
            chunk = unwrap(loads(part, CHUNK_CHARS), self.storage.schema,
                           self.storage.migrations)
            if chunk.get("id") != game_id or not isinstance(chunk.get("moves"), str):
                raise StorageError(f"part {n + 1} of its moves belongs to another game")
            moves.extend(chunk["moves"].split())
        if len(moves) < count:
            raise StorageError("some of its moves are missing")
        record = {k: head.get(k) for k in ("variant", "seed", "cursor", "undo_count")}
        if "start" in head:
            record["start"] = head["start"]
        record["moves"] = moves[:count]
        return self._saved(record, game_id, head)

    def _from_record(self, head: "dict[str, Any]", text: str) -> "Saved":
        record = head["record"]
        if not isinstance(record, dict):
            raise StorageError("it holds no game record")
        game_id = "s1-" + f"{crc32(text.encode()):08x}"  # the same in every tab
        return self._saved(record, game_id, head)

    def _saved(self, record: "dict[str, Any]", game_id: str, head: "dict[str, Any]") -> "Saved":
        game = engine.replay(record)
        elapsed = head.get("elapsed_ms", 0)
        valid = isinstance(elapsed, int) and not isinstance(elapsed, bool)
        elapsed = min(max(elapsed, 0), MAX_MS) if valid else 0
        daily = head.get("daily", "")
        if daily and not is_day(daily):
            raise StorageError("its daily date is not a date")
        spans = read_spans(head.get("spans"), len(game.line))
        return Saved(game, game_id, elapsed, head.get("recorded") is True, daily, spans)

    # -- writing --------------------------------------------------------------------------

    def save(self, game: "engine.Game", game_id: str, elapsed_ms: int, recorded: bool,
             daily: str = "", spans: "list[Span] | tuple[Span, ...]" = ()) -> bool:
        """Write what changed since the last save of this game; False when refused."""
        storage = self.storage
        line = game.line
        old = self._line if game_id == self._id else ()
        written = self._chunks if game_id == self._id else 0
        ok = True
        needed = chunks_for(len(line))
        for n in range(needed):
            part = line[n * CHUNK:(n + 1) * CHUNK]
            if n < written and part == old[n * CHUNK:(n + 1) * CHUNK]:
                continue
            text = json.dumps(wrap({"id": game_id, "moves": " ".join(map(str, part))},
                                   storage.schema), separators=(",", ":"))
            ok = storage.write_text(chunk_name(n), text) and ok
        head = game.header()
        head.update(id=game_id, count=len(line), elapsed_ms=min(max(int(elapsed_ms), 0), MAX_MS),
                    recorded=bool(recorded))
        if daily:
            head["daily"] = daily
        if spans:
            head["spans"] = [list(span) for span in spans[-SPANS:]]
        text = json.dumps(wrap(head, storage.schema), separators=(",", ":"))
        ok = ok and storage.write_text(GAME, text)
        if ok:
            for n in range(needed, max(written, needed)):
                storage.remove(chunk_name(n))
            self.seen, self._id, self._line, self._chunks = text, game_id, line, needed
        return ok

    def forget(self) -> None:
        """Drop the save (the game ended)."""
        storage = self.storage
        storage.remove(GAME)
        for n in range(self._chunks):
            storage.remove(chunk_name(n))
        self.seen = storage.read_text(GAME)
        self._id, self._line, self._chunks = None, (), 0


__all__ = ["CHUNK", "GameSaves", "Saved", "chunk_name"]
