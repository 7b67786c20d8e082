"""What the page keeps in localStorage: settings and the game in progress.

Every key is namespaced ``pp:v1:<name>`` and holds JSON. The backend is anything with
``getItem`` / ``setItem`` / ``removeItem`` (the browser's ``localStorage``, or a dict-backed
fake in tests). Storage can be missing, full or forbidden (private browsing): every read
then gives the default and every write is skipped, so the game always plays on.

Keys:
    pp:v1:settings   {"variant": str, "tap": "auto" | "select", "four_colour": bool}
    pp:v1:game       {"record": Game.record(), "elapsed_ms": int} (the autosave)
"""

from __future__ import annotations

import json
from typing import Any

PREFIX = "pp:v1:"
SETTINGS = "settings"  # names; the backend key is PREFIX + name
GAME = "game"

DEFAULT_SETTINGS: dict[str, Any] = {"variant": "spider-1", "tap": "auto", "four_colour": True}
TAP_MODES = ("auto", "select")


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
    """Typed access to the app's localStorage keys."""

    def __init__(self, backend: Any) -> None:
        self.backend = backend if backend is not None else MemoryBackend()

    def read(self, key: str) -> Any:
        """The JSON value under ``pp:v1:<key>``, or None when absent, unreadable or unavailable."""
        try:
            text = self.backend.getItem(PREFIX + key)
            return None if text is None else json.loads(str(text))
        except Exception:  # storage forbidden, or not JSON
            return None

    def write(self, key: str, value: Any) -> bool:
        """Store ``value`` as JSON under ``pp:v1:<key>``; False when storage refused it."""
        try:
            self.backend.setItem(PREFIX + key, json.dumps(value, separators=(",", ":")))
            return True
        except Exception:  # quota exceeded, storage forbidden
            return False

    def remove(self, key: str) -> None:
        """Forget ``pp:v1:<key>`` (quietly, whatever the storage says)."""
        try:
            self.backend.removeItem(PREFIX + key)
        except Exception:
            pass

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
        if out["variant"] not in variants:
            out["variant"] = variants[0]
        return out

    def save_settings(self, settings: dict[str, Any]) -> bool:
        """Store the settings."""
        return self.write(SETTINGS, settings)

    def saved_game(self) -> dict[str, Any] | None:
        """The autosaved game ``{"record": ..., "elapsed_ms": ...}``, if there is one."""
        saved = self.read(GAME)
        if isinstance(saved, dict) and isinstance(saved.get("record"), dict):
            return saved
        return None

    def save_game(self, record: dict[str, Any], elapsed_ms: int) -> bool:
        """Autosave the game in progress."""
        return self.write(GAME, {"record": record, "elapsed_ms": int(elapsed_ms)})

    def forget_game(self) -> None:
        """Drop the autosave (the game ended)."""
        self.remove(GAME)
