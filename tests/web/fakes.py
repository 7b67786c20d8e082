"""Doubles for the CPython tests: the browser's localStorage stand-ins and clocks."""

from __future__ import annotations

import json
from typing import Any


class MemoryStore:
    """read/write JSON values by key, like web.storage.Storage over a dict."""

    def __init__(self, values: dict[str, Any] | None = None, refuse_writes: bool = False):
        self.values: dict[str, Any] = dict(values or {})
        self.refuse_writes = refuse_writes
        self.writes = 0

    def read(self, key: str) -> Any:
        value = self.values.get(key)
        return None if value is None else json.loads(json.dumps(value))

    def write(self, key: str, value: Any) -> bool:
        if self.refuse_writes:
            return False
        self.values[key] = json.loads(json.dumps(value))
        self.writes += 1
        return True


class HandClock:
    """A monotonic clock that moves only when a test moves it (``clock.t += 60``)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


class TickingClock:
    """A ``time`` module whose perf_counter moves one millisecond each time it is read:
    a search's time budget counted in clock reads, which a busy machine cannot stretch."""

    def __init__(self) -> None:
        self.reads = 0

    def perf_counter(self) -> float:
        self.reads += 1
        return self.reads / 1000
