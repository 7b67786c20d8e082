"""Versioned storage (issue 5, "Autosave and restore": a schema version in every stored
value, a migration path; missing, corrupt or unknown-version data never stops the app)."""

from __future__ import annotations

import json

from web.storage import PREFIX, UNREADABLE, MemoryBackend, Storage


def test_values_are_written_with_their_schema_and_read_back():
    backend = MemoryBackend()
    store = Storage(backend)
    assert store.write("thing", {"a": 1})
    assert json.loads(backend.items[PREFIX + "thing"]) == {"schema": 1, "a": 1}
    assert store.read("thing") == {"a": 1}
    assert store.read("missing") is None and store.problems == []


def test_migrations_run_step_by_step_from_an_older_schema():
    backend = MemoryBackend()
    Storage(backend).write("thing", {"count": 3})           # schema 1
    backend.items[PREFIX + "old"] = json.dumps({"count": 1})   # schema 0: no version field
    steps = {0: lambda d: d, 1: lambda d: {"total": d["count"] * 10}}
    newer = Storage(backend, migrations=steps, schema=2)
    assert newer.read("thing") == {"total": 30}
    assert newer.read("old") == {"total": 10}


def test_a_failing_migration_sets_the_value_aside():
    backend = MemoryBackend()
    Storage(backend).write("thing", {"count": "x"})
    newer = Storage(backend, migrations={1: lambda d: {"n": d["count"] + 1}}, schema=2)
    assert newer.read("thing") is None
    assert "could not be converted" in newer.take_problems()[0]
    assert PREFIX + "thing" not in backend.items and UNREADABLE + "thing" in backend.items


def test_newer_foreign_and_corrupt_values_are_reported_and_kept_aside():
    cases = {
        "newer": json.dumps({"schema": 7, "x": 1}),
        "text": "this is not JSON",
        "array": json.dumps([1, 2, 3]),
        "badversion": json.dumps({"schema": "one"}),
        "deep": "[" * 100_000 + "]" * 100_000,
    }
    backend = MemoryBackend()
    for key, raw in cases.items():
        backend.items[PREFIX + key] = raw
    store = Storage(backend)
    for key, raw in cases.items():
        assert store.read(key) is None
        assert backend.items[UNREADABLE + key] == raw
    problems = store.take_problems()
    assert len(problems) == len(cases) and store.take_problems() == []
    assert any("newer version" in p for p in problems)


class Refusing(MemoryBackend):
    def setItem(self, key, value):  # noqa: N802
        raise RuntimeError("QuotaExceededError: the quota has been exceeded")


class Forbidden:
    def getItem(self, key):  # noqa: N802
        raise RuntimeError("SecurityError")

    setItem = removeItem = getItem  # noqa: N815


def test_refused_or_forbidden_storage_never_raises():
    for backend in (Refusing(), Forbidden()):
        store = Storage(backend)
        assert store.write("game", {"a": 1}) is False and store.write_failed
        assert store.read("game") is None
        store.remove("game")
    assert Storage(None).write_failed
