"""What the page keeps in localStorage, and how nothing in it is ever lost.

Keys are scoped to the app's folder, so that two copies of the app on one origin (say
/a/ and /b/ of a project site) never read or overwrite each other's data::

    pp:v1:<scope><name>        e.g. pp:v1:/settings, pp:v1:/pp/game

Values are JSON objects that carry their schema version next to their fields,
``{"schema": <int>, ...}``, so a later version can read, migrate or refuse what an earlier
one wrote. Reading goes through :data:`MIGRATIONS`; an object without "schema" is schema 0
(the first table build) and is migrated like any other. Keys written before values were
scoped (``pp:v1:<name>``) are moved into the scope of the first copy that starts.

Nothing a player has is destroyed:

- A value that is too large, too deeply nested, not JSON, from a newer app, or that a
  reader finds unusable is *set aside*: copied under ``unreadable:<when>:<name>:<hash>``
  (each distinct value once; at most :data:`DAMAGED_ITEMS` copies and
  :data:`DAMAGED_CHARS` characters, the oldest dropped first) before the original key is
  cleared. The player is told once, and can download the copies or delete them.
  If there is no room for a copy, the original stays where it is and that key is never
  written again in this session.
- A read that fails (the browser throws) is not "nothing stored": from then on nothing is
  written in this session, so the data the browser could not give is never overwritten.
- A write that fails (quota, private mode) sets :attr:`Storage.write_failed`; the game
  plays on and the player is told once.

The backend is anything with ``getItem`` / ``setItem`` / ``removeItem`` (and ``keys()``
to list its keys): the browser's localStorage (web/main.py) or :class:`MemoryBackend`.

Keys (besides "schema"):
    settings   {"variant": str, "tap": "auto" | "select", "four_colour": bool,
                "large_print": bool, "dark": bool, "left_handed": bool,
                "speed": "off" | "slow" | "normal" | "fast", "auto_move": bool,
                "autofinish": bool, "winnable": [variant, ...],
                "level": {variant: "easy" | "medium" | "hard"}}
    game, game.<n>   the game in progress (web/saves.py)
    stats      {"variants": {variant: {...}}, "games": [...], "epoch": str} (web/stats.py)
    dailies    {"budgets": {variant: int}, "deals": {variant: {date: deal}}}, daily deals
               found on this device (web/dailies.py; a cache, dropped when unusable)
"""

import json
import time

from web.compat import TYPE_CHECKING, crc32, dumps_indented
from web.jsontext import JsonTextError, loads

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    Migration = Callable[[Any], Any]
    Notice = dict[str, Any]

PREFIX = "pp:v1:"
SETTINGS = "settings"  # key names; Storage adds the prefix and the scope
GAME = "game"
STATS = "stats"
DAMAGED = "unreadable:"
SCHEMA = 1
LEGACY_NAMES = (SETTINGS, GAME, STATS)

DAMAGED_ITEMS = 8  # copies of damaged values kept at most
DAMAGED_CHARS = 1_500_000  # and characters in all (localStorage holds about 5 million)
VALUE_CHARS = 1_000_000  # the largest value read as JSON

# Two-colour suits by default: four colours fight Klondike's red-on-black building rule.
# Cards move home by themselves only when the player asks: moves one did not make confuse.
DEFAULT_SETTINGS: "dict[str, Any]" = {"variant": "spider-1", "tap": "auto", "four_colour": False,
                                    "large_print": False, "dark": False, "left_handed": False,
                                    "speed": "normal", "auto_move": False, "autofinish": True,
                                    "winnable": (), "level": {}}
TAP_MODES = ("auto", "select")
SPEEDS = ("off", "slow", "normal", "fast")
# The settings that are on or off: the page shows each as a checkbox.
FLAGS = ("four_colour", "large_print", "dark", "left_handed", "auto_move", "autofinish")

# What each stored value is called when the player is told about it.
NAMES = {SETTINGS: "settings", GAME: "saved game", STATS: "statistics"}
READ_TITLE = "Saved data could not be read"
SAVE_TITLE = "Progress is not being saved"

def _from_schema_0(value: "Any") -> "Any":
    """Schema 0 (no envelope, the first table build) holds the same data as schema 1."""
    return value


# MIGRATIONS[n] turns data of schema n into data of schema n + 1.
MIGRATIONS: "dict[int, Migration]" = {0: _from_schema_0}


class StorageError(ValueError):
    """A stored value that cannot be used (says why)."""


def scope_of(path: str) -> str:
    """The app's folder for a page path: ``/pp/index.html`` -> ``/pp/``, ``""`` -> ``/``."""
    folder = path[: path.rfind("/") + 1] if "/" in path else ""
    return folder if folder.startswith("/") else "/" + folder


def unwrap(value: "Any", schema: int = SCHEMA,
           migrations: "dict[int, Migration] | None" = None) -> "Any":
    """The fields of a stored value, migrated to ``schema``; StorageError if impossible."""
    steps = MIGRATIONS if migrations is None else migrations
    if not isinstance(value, dict):
        raise StorageError("not an object")
    data = dict(value)
    version = data.pop("schema", 0)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise StorageError(f"bad schema version {str(version)[:20]!r}")
    if version > schema:
        raise StorageError(f"written by a newer version of the app (schema {version})")
    while version < schema:
        step = steps.get(version)
        if step is None:
            raise StorageError(f"no way to read schema {version}")
        try:
            data = step(data)
        except Exception as exc:
            raise StorageError(f"could not be converted from schema {version}: {exc}") from None
        version += 1
    return data


def wrap(data: "dict[str, Any]", schema: int = SCHEMA) -> "dict[str, Any]":
    """The object stored for ``data``: its fields and the schema version."""
    if not isinstance(data, dict) or "schema" in data:
        raise TypeError("stored values are objects without a 'schema' field of their own")
    wrapped = {"schema": schema}
    wrapped.update(data)
    return wrapped


class MemoryBackend:
    """A dict with the localStorage methods (tests, and when storage is unavailable)."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def getItem(self, key: str) -> str | None:  # noqa: N802 - the Web Storage API's name
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        self.items[key] = value

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.items.pop(key, None)

    def keys(self) -> list[str]:
        return list(self.items)


class Storage:
    """Scoped, versioned access to the app's localStorage keys that never loses a value."""

    def __init__(self, backend: "Any", scope: str = "/", migrations: "dict[int, Migration] | None"
                 = None, schema: int = SCHEMA, now: "Callable[[], float]" = time.time) -> None:
        self.available = backend is not None
        self.backend = backend if backend is not None else MemoryBackend()
        self.scope = scope
        self.prefix = PREFIX + scope
        self.migrations = MIGRATIONS if migrations is None else migrations
        self.schema = schema
        self.now = now
        self.notices: list[Notice] = []  # what the player has to be told, once each
        self._told: set[str] = set()
        self.write_failed = not self.available
        self.read_failed = False
        self.frozen: set[str] = set()  # keys holding damaged data there was no room to copy

    # -- keys and raw text ----------------------------------------------------------------

    def key(self, name: str) -> str:
        """The full localStorage key of ``name`` in this copy's scope."""
        return self.prefix + name

    def keys(self) -> list[str]:
        """The names (scope removed) of this copy's keys; [] when they cannot be listed."""
        try:
            found = list(self.backend.keys())
        except Exception:
            return []
        return [k[len(self.prefix):] for k in found
                if isinstance(k, str) and k.startswith(self.prefix)]

    def read_text(self, name: str) -> str | None:
        """The raw text under ``name``; None when absent. A failing read stops all writes."""
        try:
            text = self.backend.getItem(self.key(name))
        except Exception as exc:
            self.read_failed = True
            self.tell(SAVE_TITLE, "This browser would not give back what the game saved "
                      f"({str(exc)[:80]}). You can play, but nothing will be saved in this "
                      "visit, so that what is stored is not overwritten.")
            return None
        return None if text is None else str(text)

    def write_text(self, name: str, text: str) -> bool:
        """Store ``text`` under ``name``; False (and :attr:`write_failed`) when refused."""
        key = self.key(name)
        if self.read_failed or key in self.frozen:
            return False
        try:
            self.backend.setItem(key, text)
            return True
        except Exception:  # quota exceeded, storage forbidden
            if not self.write_failed:
                self.write_failed = True
                self.tell(SAVE_TITLE, "This browser does not let the game save: you can "
                          "play, but progress and statistics will not be kept.")
            return False

    def remove(self, name: str) -> None:
        """Forget ``name`` (quietly, whatever the storage says)."""
        key = self.key(name)
        if self.read_failed or key in self.frozen:
            return
        try:
            self.backend.removeItem(key)
        except Exception:
            pass

    # -- values ---------------------------------------------------------------------------

    def read(self, name: str, max_chars: int = VALUE_CHARS) -> "Any":
        """The data under ``name``, or None when absent, unreadable (set aside) or failing."""
        text = self.read_text(name)
        if text is None:
            return None
        try:
            return unwrap(loads(text, max_chars), self.schema, self.migrations)
        except (JsonTextError, StorageError) as exc:
            self.set_aside(name, text, str(exc))
            return None

    def write(self, name: str, value: "dict[str, Any]") -> bool:
        """Store ``value`` (an object) under ``name`` with its schema version."""
        return self.write_text(name, json.dumps(wrap(value, self.schema), separators=(",", ":")))

    # -- damaged values -------------------------------------------------------------------

    def set_aside(self, name: str, text: str, reason: str, also: tuple[str, ...] = ()) -> None:
        """Keep ``text`` (what was stored under ``name``) as a damaged copy, then clear
        ``name`` and the keys ``also`` that belong to it; tell the player once."""
        what = NAMES.get(name, name)
        kept = self._keep_copy(name, text)
        if kept:
            for part in (name,) + tuple(also):
                self.remove(part)
            words = (f"The {what} could not be used ({reason}). A copy is kept: Download "
                     "it to look at it, or Delete it.")
        else:
            self.frozen.update(self.key(part) for part in (name,) + tuple(also))
            words = (f"The {what} could not be used ({reason}), and there is no room to "
                     "keep a copy, so it is left as it is and will not be overwritten "
                     "in this visit.")
        self.tell(READ_TITLE, words, damaged=True)

    def _keep_copy(self, name: str, text: str) -> bool:
        """Store a copy of ``text`` unless the same one is kept; False if there is no room."""
        digest = f"{crc32(text.encode('utf-8', 'replace')):08x}{len(text):x}"
        copies = self.damaged()
        if any(c["name"] == name and c["key"].endswith(f":{digest}") for c in copies):
            return True
        if self.read_failed or len(text) > DAMAGED_CHARS:
            return False
        while copies and (len(copies) >= DAMAGED_ITEMS
                          or sum(c["chars"] for c in copies) + len(text) > DAMAGED_CHARS):
            self.remove(copies.pop(0)["key"])
        when = int(self.now() * 1000)
        return self.write_text(f"{DAMAGED}{when:013d}:{name}:{digest}", text)

    def damaged_count(self) -> int:
        """How many damaged copies are kept (their keys only are read)."""
        return sum(1 for k in self.keys() if k.startswith(DAMAGED))

    def damaged(self) -> "list[dict[str, Any]]":
        """The damaged copies kept, oldest first: ``{"key", "name", "when", "chars"}``."""
        found = []
        for key in sorted(k for k in self.keys() if k.startswith(DAMAGED)):
            parts = key[len(DAMAGED):].split(":")
            text = self.read_text(key) or ""
            when = int(parts[0]) if parts[0].isdigit() else 0
            name = parts[1] if len(parts) == 3 else parts[-1]
            found.append({"key": key, "name": name, "when": when, "chars": len(text)})
        return found

    def damaged_export(self) -> str:
        """Every damaged copy as one JSON document, for the player to download."""
        items = [{"name": c["name"], "when_ms": c["when"], "text": self.read_text(c["key"])}
                 for c in self.damaged()]
        doc = {"app": "pocket-patience", "kind": "damaged-data", "scope": self.scope,
               "items": items}
        return dumps_indented(doc) + "\n"

    def damaged_clear(self) -> int:
        """Delete the damaged copies; how many there were."""
        copies = self.damaged()
        for c in copies:
            self.remove(c["key"])
        return len(copies)

    # -- telling the player ---------------------------------------------------------------

    def tell(self, title: str, text: str, damaged: bool = False) -> None:
        """Add a notice for the player, unless the same one was given already."""
        if text in self._told:
            return
        self._told.add(text)
        self.notices.append({"title": title, "text": text, "damaged": damaged})

    def take_notices(self) -> "list[Notice]":
        """The notices not yet shown (each is shown once)."""
        notices, self.notices = self.notices, []
        return notices

    # -- moving keys written before values were scoped ------------------------------------

    def adopt_unscoped(self) -> None:
        """Move ``pp:v1:<name>`` keys of an older version into this scope (the first copy
        to start takes them); a key this scope already holds is left where it is."""
        for name in LEGACY_NAMES:
            self._move(PREFIX + name, name)
        try:
            old = [k for k in self.backend.keys() if isinstance(k, str)
                   and k.startswith(PREFIX + DAMAGED)]
        except Exception:
            old = []
        for key in old:
            name = key[len(PREFIX + DAMAGED):]
            text = self._raw(key)
            if text is not None and self._keep_copy(name, text):
                self._drop(key)

    def _move(self, old_key: str, name: str) -> None:
        text = self._raw(old_key)
        if text is None or self.read_text(name) is not None or self.read_failed:
            return
        if self.write_text(name, text):
            self._drop(old_key)

    def _raw(self, key: str) -> str | None:
        try:
            text = self.backend.getItem(key)
        except Exception:
            return None
        return None if text is None else str(text)

    def _drop(self, key: str) -> None:
        try:
            self.backend.removeItem(key)
        except Exception:
            pass

    # -- settings -------------------------------------------------------------------------

    def settings(self, variants: tuple[str, ...]) -> "dict[str, Any]":
        """The saved settings with defaults for anything missing; a wrong field is reported
        (and the value kept aside) rather than silently reset."""
        text = self.read_text(SETTINGS)
        saved = self.read(SETTINGS, max_chars=20_000)
        out = dict(DEFAULT_SETTINGS)
        wrong = []
        if isinstance(saved, dict):
            checks: dict[str, Callable[[Any], bool]] = {
                "variant": lambda v: v in variants, "tap": lambda v: v in TAP_MODES,
                "speed": lambda v: v in SPEEDS, "winnable": lambda v: isinstance(v, list),
                "level": lambda v: isinstance(v, dict)}
            checks.update((flag, lambda v: isinstance(v, bool)) for flag in FLAGS)
            for field, ok in checks.items():
                if field in saved:
                    if ok(saved[field]):
                        out[field] = saved[field]
                    else:
                        wrong.append(field)
        if wrong and text is not None:
            self.set_aside(SETTINGS, text, "these could not be read: " + ", ".join(wrong))
        out["winnable"] = [v for v in variants if v in out["winnable"]]
        out["level"] = {v: level for v, level in out["level"].items()
                        if v in variants and isinstance(level, str)}
        if out["variant"] not in variants:
            out["variant"] = variants[0]
        return out

    def save_settings(self, settings: "dict[str, Any]") -> bool:
        """Store the settings."""
        return self.write(SETTINGS, settings)


__all__ = ["DAMAGED", "DEFAULT_SETTINGS", "FLAGS", "GAME", "SPEEDS", "TAP_MODES", "MemoryBackend",
           "PREFIX", "SETTINGS", "STATS", "Storage", "StorageError", "scope_of", "unwrap",
           "wrap"]
