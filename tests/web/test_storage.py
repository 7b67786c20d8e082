"""Versioned, scoped storage that never loses what a player had (web/storage.py,
web/jsontext.py): damaged values kept aside, failed reads never taken for "nothing
stored", copies of the app on one origin kept apart."""

from __future__ import annotations

import json

import pytest

from web import jsontext
from web.storage import (
    DAMAGED,
    DAMAGED_CHARS,
    DAMAGED_ITEMS,
    PREFIX,
    MemoryBackend,
    Storage,
    scope_of,
)

ROOT = PREFIX + "/"


def test_values_are_written_with_their_schema_under_the_apps_folder_and_read_back():
    backend = MemoryBackend()
    store = Storage(backend, "/pp/")
    assert store.write("thing", {"a": 1})
    assert json.loads(backend.items["pp:v1:/pp/thing"]) == {"schema": 1, "a": 1}
    assert store.read("thing") == {"a": 1}
    assert store.read("missing") is None and store.notices == []
    assert Storage(backend, "/other/").read("thing") is None


@pytest.mark.parametrize(("path", "scope"), [("/", "/"), ("/index.html", "/"),
                                             ("/a/", "/a/"), ("/a/index.html", "/a/"),
                                             ("", "/"), ("/a/b/c.html", "/a/b/")])
def test_the_scope_is_the_pages_folder(path, scope):
    assert scope_of(path) == scope


def test_migrations_run_step_by_step_from_an_older_schema():
    backend = MemoryBackend()
    Storage(backend).write("thing", {"count": 3})           # schema 1
    backend.items[ROOT + "old"] = json.dumps({"count": 1})   # schema 0: no version field
    steps = {0: lambda d: d, 1: lambda d: {"total": d["count"] * 10}}
    newer = Storage(backend, migrations=steps, schema=2)
    assert newer.read("thing") == {"total": 30}
    assert newer.read("old") == {"total": 10}


def damaged_copies(backend: MemoryBackend, scope: str = "/") -> dict[str, str]:
    return {k: v for k, v in backend.items.items() if k.startswith(PREFIX + scope + DAMAGED)}


def test_a_failing_migration_sets_the_value_aside():
    backend = MemoryBackend()
    Storage(backend).write("thing", {"count": "x"})
    raw = backend.items[ROOT + "thing"]
    newer = Storage(backend, migrations={1: lambda d: {"n": d["count"] + 1}}, schema=2)
    assert newer.read("thing") is None
    notice = newer.take_notices()[0]
    assert "could not be converted" in notice["text"] and notice["damaged"]
    assert notice["title"] == "Saved data could not be read"
    assert ROOT + "thing" not in backend.items
    assert list(damaged_copies(backend).values()) == [raw]


CORRUPT = {
    "newer": json.dumps({"schema": 7, "x": 1}),
    "text": "this is not JSON",
    "array": json.dumps([1, 2, 3]),
    "badversion": json.dumps({"schema": "one"}),
    "deep": "[" * 100_000 + "]" * 100_000,
    "deepobject": '{"a":' * 5000 + "1" + "}" * 5000,
    "huge": json.dumps({"x": "y" * 1_200_000}),
}


def test_newer_foreign_deep_and_huge_values_are_reported_and_kept_aside():
    backend = MemoryBackend()
    for key, raw in CORRUPT.items():
        backend.items[ROOT + key] = raw
    store = Storage(backend)
    for key in CORRUPT:
        assert store.read(key) is None
    kept = damaged_copies(backend)
    big = [k for k in CORRUPT if len(CORRUPT[k]) > DAMAGED_CHARS]
    assert sorted(kept.values()) == sorted(v for k, v in CORRUPT.items() if k not in big)
    for key in big:  # no room for a copy: left where it was and never written over
        assert backend.items[ROOT + key] == CORRUPT[key]
        assert not store.write(key, {"new": 1}) and backend.items[ROOT + key] == CORRUPT[key]
    notices = store.take_notices()
    assert len(notices) == len(CORRUPT) and store.take_notices() == []
    assert any("newer version" in n["text"] for n in notices)
    assert any("nested too deeply" in n["text"] for n in notices)


def test_every_distinct_damaged_value_is_kept_and_the_oldest_goes_first():
    backend, now = MemoryBackend(), [1000.0]
    store = Storage(backend, now=lambda: now[0])
    for n in range(DAMAGED_ITEMS + 3):
        backend.items[ROOT + "game"] = f"broken {n}"
        now[0] += 1
        assert store.read("game") is None
    backend.items[ROOT + "game"] = f"broken {DAMAGED_ITEMS + 2}"  # the same damage again
    store.read("game")
    kept = [c["key"] for c in store.damaged()]
    texts = [backend.items[PREFIX + "/" + k] for k in kept]
    assert texts == [f"broken {n}" for n in range(3, DAMAGED_ITEMS + 3)]


def test_damaged_copies_can_be_downloaded_and_deleted():
    backend = MemoryBackend()
    backend.items[ROOT + "settings"] = "{oops"
    backend.items[ROOT + "stats"] = "[[["
    store = Storage(backend)
    store.read("settings")
    store.read("stats")
    assert store.damaged_count() == 2
    doc = json.loads(store.damaged_export())
    assert doc["kind"] == "damaged-data"
    assert sorted((i["name"], i["text"]) for i in doc["items"]) == [("settings", "{oops"),
                                                                   ("stats", "[[[")]
    assert store.damaged_clear() == 2 and store.damaged() == [] and not damaged_copies(backend)


class ThrowsOnRead(MemoryBackend):
    def getItem(self, key):  # noqa: N802
        raise RuntimeError("SecurityError: the operation is insecure")


def test_a_read_that_fails_is_not_nothing_stored_and_nothing_is_written_after_it():
    backend = ThrowsOnRead()
    backend.items[ROOT + "game"] = "the real save"
    store = Storage(backend)
    assert store.read("game") is None and store.read_failed
    assert not store.write("game", {"new": 1}) and not store.write("stats", {"x": 1})
    store.remove("game")
    assert backend.items == {ROOT + "game": "the real save"}
    [notice] = store.take_notices()
    assert notice["title"] == "Progress is not being saved" and "nothing will be saved" in (
        notice["text"])


class Refusing(MemoryBackend):
    def setItem(self, key, value):  # noqa: N802
        raise RuntimeError("QuotaExceededError: the quota has been exceeded")


class Forbidden:
    def getItem(self, key):  # noqa: N802
        raise RuntimeError("SecurityError")

    setItem = removeItem = keys = getItem  # noqa: N815


def test_refused_or_forbidden_storage_never_raises():
    for backend in (Refusing(), Forbidden()):
        store = Storage(backend)
        store.adopt_unscoped()
        assert store.read("game") is None
        assert store.write("game", {"a": 1}) is False
        assert store.write_failed or store.read_failed
        store.remove("game")
        assert store.damaged() == [] and store.take_notices()
    assert Storage(None).write_failed


def test_keys_written_before_scoping_move_into_the_first_copy_that_starts():
    backend = MemoryBackend()
    backend.items.update({PREFIX + "settings": '{"schema":1,"tap":"select"}',
                          PREFIX + "stats": '{"schema":1,"variants":{}}',
                          PREFIX + "unreadable:game": "old damage",
                          "another-app": "keep"})
    first = Storage(backend, "/a/")
    first.adopt_unscoped()
    assert first.read("settings") == {"tap": "select"}
    assert first.read("stats") == {"variants": {}}
    assert [c["name"] for c in first.damaged()] == ["game"]
    assert not any(k.startswith(PREFIX) and k.count("/") == 0 for k in backend.items)
    second = Storage(backend, "/b/")
    second.adopt_unscoped()
    assert second.read("settings") is None and backend.items["another-app"] == "keep"


def test_an_unscoped_key_never_overwrites_what_the_scope_holds():
    backend = MemoryBackend()
    backend.items[PREFIX + "settings"] = '{"schema":1,"tap":"select"}'
    backend.items[ROOT + "settings"] = '{"schema":1,"tap":"auto"}'
    store = Storage(backend)
    store.adopt_unscoped()
    assert store.read("settings") == {"tap": "auto"}
    assert PREFIX + "settings" in backend.items


def test_settings_of_the_wrong_type_are_reported_and_kept_aside():
    backend = MemoryBackend()
    raw = json.dumps({"schema": 1, "tap": 3, "four_colour": "yes", "variant": "klondike"})
    backend.items[ROOT + "settings"] = raw
    store = Storage(backend)
    settings = store.settings(("spider-1", "klondike"))
    assert settings["variant"] == "klondike" and settings["tap"] == "auto"
    [notice] = store.take_notices()
    assert "tap" in notice["text"] and "four_colour" in notice["text"]
    assert list(damaged_copies(backend).values()) == [raw]


def test_json_depth_is_measured_without_recursion_and_strings_do_not_count():
    assert jsontext.depth('{"a": "[[[[{{{{", "b": [[1]]}') == 3
    assert jsontext.depth('"\\"[[["') == 0
    assert jsontext.depth("[" * 300_000) == 300_000
    with pytest.raises(jsontext.JsonTextError, match="too large"):
        jsontext.loads("[1]", max_chars=2)
    with pytest.raises(jsontext.JsonTextError, match="not JSON"):
        jsontext.loads('{"a": "unterminated')
    assert jsontext.loads('[[["x"]]]', max_depth=3) == [[["x"]]]


def test_the_depth_of_a_parsed_value_is_the_nesting_of_its_text() -> None:
    """web/jsontext.py measures a value after MicroPython parsed it (its json.loads does
    not recurse): the same limit as the text's measure, for any shape of nesting."""
    from web import jsontext

    for text in ('{"a": [1, {"b": []}]}', "[" * 16 + "]" * 16, "[" * 17 + "]" * 17,
                 '{"a":' * 17 + "1" + "}" * 17, '[[], [[["x"]]], {"k": {"j": {}}}]', "3",
                 '"[[[[["', "[" + ",".join(["[[1]]"] * 50) + "]"):
        value = json.loads(text)
        for limit in range(0, 20):
            assert jsontext.deeper_than(value, limit) is (jsontext.depth(text) > limit), \
                (text[:40], limit)
