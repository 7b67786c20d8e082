"""What the page keeps in localStorage: settings, the game in progress, statistics.

Every key is namespaced ``pp:v1:<name>`` and every value is a JSON object that carries its
schema version next to its fields::

    {"schema": <int>, ...the value's fields}

so that a later version of the app can read, migrate or refuse what an earlier one wrote.
Reading goes through :data:`MIGRATIONS` (one step per schema version, oldest first); an
object without "schema" is schema 0 (how the first table build stored values) and is
migrated like any other. A value that is not JSON, has a schema this app does not know
(a newer app wrote it), or whose migration fails is not used: the reader gets None, the
raw text is copied to ``pp:v1:unreadable:<name>`` (nothing a player had is destroyed), and
a sentence for the player is added to :attr:`Storage.problems`.

The backend is anything with ``getItem`` / ``setItem`` / ``removeItem`` (the browser's
``localStorage``, or :class:`MemoryBackend` in tests). Storage can be missing, full or
forbidden (private browsing): reads then give the default, writes are skipped and
:attr:`Storage.write_failed` is set so the page can say progress cannot be saved; the
game always plays on.

Keys (besides "schema"):
    pp:v1:settings   {"variant": str, "tap": "auto" | "select", "four_colour": bool,
                      "winnable": [variant, ...]}  (variants whose new deals are drawn from
                      the proven-winnable lists; absent in older data: read as [])
    pp:v1:game       {"record": Game.record(), "elapsed_ms": int, "recorded": bool}
    pp:v1:stats      {"variants": {variant: {...}}} (web/stats.py)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

PREFIX = "pp:v1:"
SETTINGS = "settings"  # key names; Storage adds the prefix
GAME = "game"
UNREADABLE = PREFIX + "unreadable:"
SCHEMA = 1

# A field added later needs no new schema when the reader gives it a default (below).
DEFAULT_SETTINGS: dict[str, Any] = {"variant": "spider-1", "tap": "auto", "four_colour": True,
                                    "winnable": ()}
TAP_MODES = ("auto", "select")

# What each stored value is called when the player is told about it.
NAMES = {"settings": "settings", "game": "saved game", "stats": "statistics"}

Migration = Callable[[Any], Any]


def _from_schema_0(value: Any) -> Any:
    """Schema 0 (no envelope, the first table build) holds the same data as schema 1."""
    return value


# MIGRATIONS[n] turns data of schema n into data of schema n + 1.
MIGRATIONS: dict[int, Migration] = {0: _from_schema_0}


class StorageError(ValueError):
    """A stored value that cannot be used (says why)."""


def unwrap(value: Any, schema: int = SCHEMA,
           migrations: dict[int, Migration] | None = None) -> Any:
    """The fields of a stored value, migrated to ``schema``; StorageError if impossible."""
    steps = MIGRATIONS if migrations is None else migrations
    if not isinstance(value, dict):
        raise StorageError("not an object")
    data = dict(value)
    version = data.pop("schema", 0)
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise StorageError(f"bad schema version {version!r}")
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


def wrap(data: dict[str, Any], schema: int = SCHEMA) -> dict[str, Any]:
    """The object stored for ``data``: its fields and the schema version."""
    if not isinstance(data, dict) or "schema" in data:
        raise TypeError("stored values are objects without a 'schema' field of their own")
    return {"schema": schema, **data}


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


class Storage:
    """Typed, versioned access to the app's localStorage keys."""

    def __init__(self, backend: Any, migrations: dict[int, Migration] | None = None,
                 schema: int = SCHEMA) -> None:
        self.available = backend is not None
        self.backend = backend if backend is not None else MemoryBackend()
        self.migrations = MIGRATIONS if migrations is None else migrations
        self.schema = schema
        self.problems: list[str] = []   # what could not be restored, for the player
        self.write_failed = not self.available

    def _full_key(self, key: str) -> str:
        return key if key.startswith(PREFIX) else PREFIX + key

    def read(self, key: str) -> Any:
        """The data under ``key``, or None when absent, unreadable or unavailable."""
        key = self._full_key(key)
        try:
            text = self.backend.getItem(key)
        except Exception:  # storage forbidden
            return None
        if text is None:
            return None
        text = str(text)
        try:
            return unwrap(json.loads(text), self.schema, self.migrations)
        except (ValueError, RecursionError) as exc:
            reason = exc if isinstance(exc, StorageError) else "not readable"
            self._set_aside(key, text, str(reason))
            return None

    def _set_aside(self, key: str, text: str, reason: str) -> None:
        """Keep an unusable value under an "unreadable" key and tell the player."""
        name = key.removeprefix(PREFIX)
        self.problems.append(f"The {NAMES.get(name, name)} could not be restored ({reason}).")
        try:
            self.backend.setItem(UNREADABLE + name, text)
            self.backend.removeItem(key)
        except Exception:
            pass

    def write(self, key: str, value: Any) -> bool:
        """Store ``value`` under ``key``; False (and :attr:`write_failed`) when refused."""
        try:
            text = json.dumps(wrap(value, self.schema), separators=(",", ":"))
            self.backend.setItem(self._full_key(key), text)
            return True
        except Exception:  # quota exceeded, storage forbidden
            self.write_failed = True
            return False

    def remove(self, key: str) -> None:
        """Forget ``key`` (quietly, whatever the storage says)."""
        try:
            self.backend.removeItem(self._full_key(key))
        except Exception:
            pass

    def take_problems(self) -> list[str]:
        """The problems met so far (each is reported once)."""
        problems, self.problems = self.problems, []
        return problems

    def settings(self, variants: tuple[str, ...]) -> dict[str, Any]:
        """The saved settings with defaults for anything missing or invalid."""
        saved = self.read(SETTINGS)
        out = dict(DEFAULT_SETTINGS)
        if isinstance(saved, dict):
            if saved.get("variant") in variants:
                out["variant"] = saved["variant"]
            if saved.get("tap") in TAP_MODES:
                out["tap"] = saved["tap"]
            if isinstance(saved.get("four_colour"), bool):
                out["four_colour"] = saved["four_colour"]
            if isinstance(saved.get("winnable"), list):
                out["winnable"] = [v for v in variants if v in saved["winnable"]]
        if out["variant"] not in variants:
            out["variant"] = variants[0]
        out["winnable"] = list(out["winnable"])
        return out

    def save_settings(self, settings: dict[str, Any]) -> bool:
        """Store the settings."""
        return self.write(SETTINGS, settings)

    def saved_game(self) -> dict[str, Any] | None:
        """The autosaved game ``{"record": ..., "elapsed_ms": ...}``, if there is one."""
        saved = self.read(GAME)
        if isinstance(saved, dict) and isinstance(saved.get("record"), dict):
            return saved
        if saved is not None:
            self.problems.append("The saved game could not be restored (it is incomplete).")
            self.remove(GAME)
        return None

    def save_game(self, record: dict[str, Any], elapsed_ms: int, recorded: bool = False) -> bool:
        """Autosave the game in progress (``recorded``: its result is in the statistics)."""
        return self.write(GAME, {"record": record, "elapsed_ms": int(elapsed_ms),
                                 "recorded": bool(recorded)})

    def forget_game(self) -> None:
        """Drop the autosave (the game ended)."""
        self.remove(GAME)
