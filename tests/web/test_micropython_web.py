"""The page's Python for the first table runs unchanged under MicroPython and does there
what it does in CPython.

MicroPython can draw the first table long before Pyodide has loaded (docs/architecture.md
§8), so the modules the table needs besides the solver (CONVERTED below) keep to the subset
both interpreters run (web/compat.py). The same program (PAGE below) runs in CPython and,
through tools/micropython.mjs, in MicroPython on the real files: it reads JSON text with
limits, names piles and cards, keeps settings and damaged values in a storage, saves games
in parts and reads them back, records, summarises, charts, exports and imports statistics,
makes and reads share links, answers the Scores intents of a table, and drives a whole
table (web/controller.py) through its intents: start, settings, new deals, moves by drag,
tap and stock, undo and redo, hints, reading the table aloud, restart, a link. Everything
it saw must be equal. Saved text is compared as parsed JSON (MicroPython's dicts keep no order),
and lists that follow a dict's order are sorted. Anything a converted module uses that
MicroPython lacks fails here: as an import error, or as a difference.

The solver's part of the table (web/desk.py, with web/solving.py and web/dailies.py) stays
with Pyodide: the controller is handed a stand-in desk (FakeDesk) here. The entry script,
web/main.py, runs as PyScript runs it (top-level await) in both, with a stand-in for the
``pyscript`` module (whose window has the solver's transport with no worker behind it),
and its table has the real forwarding desk, web/forward.py (test_the_entry_script_...).
web/host.py is only a type (a Protocol) and is not run.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from tools.micropython import last_line

ROOT = Path(__file__).resolve().parents[2]
CONVERTED = ("compat", "jsontext", "labels", "storage", "stats", "saves", "share", "scores",
             "controller", "forward")

# Runs in both interpreters, so it keeps to what both run.
PAGE = '''
import json

import engine
from web import compat, jsontext, labels, share
from web.saves import CHUNK, GameSaves, chunk_name
from web.scores import Scores
from web.stats import (Result, StatsBook, StatsFileError, chart_svg, clock_text,
                       parse_export, summary)
from web.storage import DEFAULT_SETTINGS, MemoryBackend, Storage, StorageError, scope_of, \\
    unwrap, wrap

VARIANTS = tuple(engine.VARIANTS)


def outcome(call, *args):
    """What ``call`` returns (a record as a list: MicroPython's json writes a namedtuple
    as its repr), or the class and message of what it raises."""
    try:
        value = call(*args)
        return ["ok", list(value) if isinstance(value, tuple) else value]
    except Exception as exc:
        return ["raised", type(exc).__name__, str(exc), isinstance(exc, ValueError)]


def parsed(text):
    """Saved or exported text as its JSON value (key order is not compared)."""
    return None if text is None else json.loads(text)


def stored(backend):
    """Every key of a backend with its value parsed where it is JSON."""
    out = {}
    for key in backend.items:
        try:
            out[key] = json.loads(backend.items[key])
        except ValueError:
            out[key] = backend.items[key]
    return out


def check_compat():
    """web/compat.py's stand-ins give what CPython's standard library gives."""
    out = []
    values = [i / 7 for i in range(-50, 400)] + [i * 0.05 for i in range(0, 600)]
    values += [40 + 212 / n * (i + 0.5) - round(min(212 / n * 0.7, 26), 1) / 2
               for n in range(6, 21) for i in range(n)]
    values += [0.0, 1e-9, 0.25, 0.35, 2.675, 1e15 + 0.25, 123456.05, -0.05, -2.25]
    out.append([compat.tenths(v) for v in values])
    out.append([compat.tenths(compat.round1(v) - 3) for v in values])
    out.append([compat.tenths(v) for v in (0, 9, 114, -3)])
    texts = ["", "abc", "caf\\u00e9", "x\\x7f", "\\u00ad", "\\u200b", "\\u2028", "\\ufeff",
             "\\u00a0", "\\u3000", "\\U0001f600", "tab\\t", "\\x85", "\\ue000", "Z\\u00e9"]
    out.append([[compat.isascii(t), compat.isprintable(t)] for t in texts])
    out.append([compat.capitalize(t) for t in ("spider one", "STOCK", "", "x", "mIxed-Case")])
    doc = {"a": [1, {"b": [], "c": {}}, "x\\ny"], "d": None, "e": 1.5, "f": True}
    out.append(json.loads(compat.dumps_indented(doc)))
    out.append(compat.dumps_indented([1, [2, [3]], {"k": "v"}]))
    out.append([compat.crc32(b""), compat.crc32(b"pocket patience"),
                compat.crc32("caf\\u00e9".encode("utf-8"))])
    pairs = [("game", "spider-2"), ("deal", "42"), ("a b", "c&d=e"), ("\\u00e9", "~x.y_z-")]
    out.append(compat.urlencode(pairs))
    for query in ("a=1&b=2", "a=%41%42+c&b", "x=%zz&y=%e2%82%ac", "&&a=&=b", "a=%ff",
                  "a=%ffz%c3%a9%80"):
        out.append([list(p) for p in compat.parse_qsl(query)])
    for url in ("https://h.org/a/index.html?q=1#f", "https://h.org", "http://h:80/x/",
                "file:///p/pp/index.html", "/just/a/path.html", "HTTPS://H.org/A"):
        out.append(compat.page_link(url, [("game", "k"), ("deal", "1")]))
    return out


def check_jsontext():
    out = []
    texts = ['{"a": [1, 2, {"b": "[[["}]}', "[" * 17 + "]" * 17, "[" * 16 + "]" * 16,
             '"\\\\"[[[', '["a\\\\"]"', '"[{', "", "nope", '{"a": 1} x', "[1, 2.5, -3e2, null]",
             '{"k": "\\\\u00e9\\\\n"}', '["' + "x" * 200000 + '"]',
             "[" + ",".join(['"a\\\\"b[{"'] * 3000) + "]", "{" * 30,
             '{"a":' * 17 + "1" + "}" * 17, '{"a":' * 16 + "[]" + "}" * 16, "[" * 17,
             '[[["a"]], {"b": [[[[]]]], "c": "]]]"}]']
    for text in texts:
        out.append([jsontext.depth(text), outcome(jsontext.loads, text)])
    out.append(outcome(jsontext.loads, "[1]", 2))
    out.append(outcome(jsontext.loads, 5))
    return out


def check_labels():
    out = [labels.title(v) for v in VARIANTS] + [labels.title("my-new-game"),
                                                  labels.family("nope")]
    names = labels.card_names()
    out.append(sorted(names.items()))
    for variant in VARIANTS:
        game = engine.new_game(variant, 3)
        position = game.position()
        piles = sorted(position["piles"])
        out.append([variant, labels.family(variant), labels.progress(variant, position),
                    [labels.pile_name(variant, p) for p in piles + ["zz"]]])
    return out


class Broken:
    """A storage backend that refuses everything."""

    def getItem(self, key):
        raise RuntimeError("denied")

    def setItem(self, key, value):
        raise RuntimeError("full")

    def removeItem(self, key):
        raise RuntimeError("denied")

    def keys(self):
        raise RuntimeError("denied")


class Clock:
    def __init__(self):
        self.now = 1700000000.0

    def __call__(self):
        self.now += 1.5
        return self.now


def check_storage():
    out = [scope_of(p) for p in ("/pp/index.html", "", "/", "a/b", "/x/y/")]
    out.append([wrap({"a": 1}), outcome(wrap, {"schema": 2}), unwrap({"schema": 1, "x": 2}),
                unwrap({"x": 3}), outcome(unwrap, {"schema": 9}), outcome(unwrap, []),
                outcome(unwrap, {"schema": True}), outcome(unwrap, {"schema": "1"})])
    backend = MemoryBackend()
    store = Storage(backend, "/pp/", now=Clock())
    out.append(sorted(store.settings(VARIANTS).items()))
    settings = dict(DEFAULT_SETTINGS)
    settings.update(variant="klondike", dark=True, winnable=["klondike", "nope"],
                    level={"klondike": "hard", "nope": "easy", "doublets": 3})
    out.append(store.save_settings(settings))
    out.append(sorted(store.settings(VARIANTS).items()))
    backend.items["pp:v1:/pp/settings"] = json.dumps({"schema": 1, "tap": "sideways",
                                                      "dark": "yes", "speed": "fast"})
    out.append(sorted(store.settings(VARIANTS).items()))
    backend.items["pp:v1:/pp/stats"] = "[" * 40 + "]" * 40
    backend.items["pp:v1:/pp/game"] = '{"schema": 7}'
    out.append([store.read("stats"), store.read("game"), store.read("absent")])
    backend.items["pp:v1:/pp/game"] = '{"schema": 7}'
    out.append(store.read("game"))  # the same value again: one copy kept
    out.append([[c["name"], c["chars"], c["when"]] for c in store.damaged()])
    out.append([store.damaged_count(), sorted(store.keys())])
    export = parsed(store.damaged_export())
    out.append(export)
    out.append([n["title"] + ": " + n["text"] for n in store.take_notices()])
    out.append([store.damaged_clear(), store.damaged_count(), store.take_notices()])
    # keys of an older version, unscoped, are adopted by the first copy to start
    backend.items["pp:v1:game"] = '{"schema": 1, "old": true}'
    backend.items["pp:v1:unreadable:stats"] = "broken"
    store.adopt_unscoped()
    out.append(stored(backend))
    broken = Storage(Broken(), "/")
    out.append([broken.read("game"), broken.write("game", {"a": 1}), broken.keys(),
                broken.read_failed, broken.write_failed, sorted(broken.settings(VARIANTS)),
                [n["title"] for n in broken.take_notices()]])
    full = Storage(None)
    out.append([full.available, full.write("game", {"a": 1}), full.read("game")])
    return out


def check_stats():
    out = [clock_text(ms) for ms in (None, 0, 999, 61000, 3599999, 3600000, 7322000)]
    backend = MemoryBackend()
    store = Storage(backend, "/")
    book = StatsBook(store, VARIANTS)
    days = ["2026-02-26", "2026-02-27", "2026-02-28", "2026-03-01", "2026-03-03", ""]
    for i in range(45):
        variant = VARIANTS[i % 3]
        won = i % 4 != 1
        result = Result(won, 1000 * (37 + 53 * i) + (10**12 if i == 9 else 0), 80 + i,
                        i % 5, 1000 + i, days[i % len(days)] if won else "")
        out.append(book.record(variant, result, "g" + str(i % 40)))
    out.append(book.refresh())
    for variant in VARIANTS[:4]:
        vs = book.stats.of(variant)
        out.append([variant, summary(vs, "2026-03-02"), summary(vs, "2026-03-09"),
                    vs.to_json(), vs.win_rate, vs.average_win_ms])
        for n in (0, 1, 3, 10, 11, 20):
            out.append(chart_svg(vs.recent[:n]))
    rates = [summary(book.stats.of("x").replace(played=p, won=w), "2026-01-01")[3][1]
             for p in range(1, 41) for w in range(p + 1)]
    out.append(rates)
    text = book.export("2026-03-02T10:00:00Z")
    out.append(parsed(text))
    other = StatsBook(Storage(MemoryBackend()), VARIANTS)
    out.append(other.import_text(text) == book.stats)
    out.append(parsed(store.read_text("stats")))
    bad = ["{", "[]", json.dumps({"app": "pocket-patience", "kind": "statistics", "schema": 9}),
           json.dumps({"app": "pocket-patience", "kind": "statistics", "schema": 1,
                       "variants": {"klondike": {"played": 1, "won": 2}}}),
           json.dumps({"app": "pocket-patience", "kind": "statistics", "schema": 1,
                       "variants": {"nope": {}}})]
    for b in bad:
        out.append(outcome(parse_export, b, VARIANTS))
    out.append(book.reset(VARIANTS[0]))
    out.append(sorted(book.stats.to_json()))
    out.append(book.reset())
    out.append([book.stats.to_json(), book.counted("g3"), book.counted("g99")])
    backend.items["pp:v1:/stats"] = json.dumps({"schema": 1, "games": ["a", 3], "variants": {
        "klondike": {"played": 2}, "doublets": book.stats.of("doublets").to_json()}})
    again = StatsBook(store, VARIANTS)
    out.append([again.problems, again.games, sorted(parsed(store.read_text("stats")))])
    out.append(isinstance(StatsFileError("x"), ValueError))
    return out


def play(game, moves):
    for i in range(moves):
        if game.status != "playing":
            break
        legal = sorted(game.legal_moves(), key=str)
        game.play(legal[(7 * i) % len(legal)])
    return game


def check_saves():
    out = []
    backend = MemoryBackend()
    store = Storage(backend, "/")
    saves = GameSaves(store)
    game = engine.new_game("klondike", 11)
    for step in range(3):
        play(game, 170)
        out.append(saves.save(game, "g1", 5000 * step, False, "2026-03-01" if step else "",
                              [(0, 2, "Move"), (2, 5, "Finish")]))
    out.append(stored(backend))
    out.append(saves.changed_elsewhere())
    back = GameSaves(store).load()
    out.append([back.game.position() == game.position(), back.game.record(), back.game_id,
                back.elapsed_ms, back.recorded, back.daily, [list(s) for s in back.spans]])
    game.undo()
    out.append([saves.save(game, "g1", 99, True), parsed(store.read_text("game"))])
    saves.forget()
    out.append([sorted(backend.items), saves.load()])
    backend.items["pp:v1:/game"] = LEGACY  # its text names the game: the same text here
    back = GameSaves(store).load()
    out.append([back.game_id, back.game.position(), back.elapsed_ms])
    head = parsed(backend.items["pp:v1:/game"])
    out.append(head)
    for damage in ({"count": 10**7}, {"id": ""}, {"daily": "2026-02-30"}, {"spans": [[3, 1, "x"]]},
                   {"count": head.get("count", 0) + CHUNK}):
        store = Storage(MemoryBackend(), "/", now=Clock())
        saves = GameSaves(store)
        game = play(engine.new_game("doublets", 2), 30)
        saves.save(game, "g2", 10, False)
        text = parsed(store.read_text("game"))
        text.update(damage)
        store.write_text("game", json.dumps(text))
        back = saves.load()
        # a damaged copy's key ends in a CRC of its text, which the dict order writes
        out.append([None if back is None else [back.game.position(), list(back.spans)],
                    sorted(k.rpartition(":")[0] if k.startswith("unreadable:") else k
                           for k in store.keys()),
                    [n["text"] for n in store.take_notices()],
                    [c["name"] for c in store.damaged()]])
    out.append(chunk_name(3))
    return out


def check_share():
    out = []
    for url in ("https://example.org/pp/index.html?x=1#top", "https://example.org",
                "http://localhost:8000/a/b/", "file:///home/me/pp/index.html",
                "https://example.org/pp/?game=klondike&deal=3"):
        for daily in ("", "2026-03-01"):
            out.append(share.make_link(url, "spider-2", 123, daily))
    out.append(share.make_link("https://x.org/", "a b&c=é", 1))
    out.append(outcome(share.make_link, "https://x.org/", "klondike", 0))
    queries = ["", "?game=klondike&deal=42", "?game=klondike&deal=0042&x",
               "?game=spider-2&deal=5&daily=2026-03-01", "?game=klondike", "?deal=3",
               "?game=nope&deal=3", "?game=klondike&deal=-1", "?game=klondike&deal=1e3",
               "?game=klondike&deal=99999999999", "?game=klondike&game=doublets&deal=1",
               "?game=klondike&deal=4&daily=2026-02-30", "?game=klondike&deal=%34%32",
               "?game=klondike&deal=%EF%BC%91", "?game=klondike&deal=" + "\\u00e9\\x07" * 30,
               "?game=klon+dike&deal=1", "?game=klondike&deal=%ZZ", "?other=1"]
    for query in queries:
        out.append(outcome(share.parse_link, query, VARIANTS, labels.TITLES))
    out.append(share.query_pairs("game=spider-2&deal=42&x&&y=%20z+w"))
    out.append([share.quoted(v) for v in ("plain", "tab\\there", "x" * 50, "\\u200bzero",
                                          "\\u00a0nbsp", "caf\\u00e9", "\\x85")])
    out.append([share.share_text("Klondike", 7), share.share_text("Klondike", 7, "2026-03-01"),
                share.result_text("Spider", 9, "3:04", 120),
                share.result_text("Spider", 9, "3:04", 120, "2026-03-01")])
    link = share.Link("klondike", 3)
    out.append([list(link), link.daily, link == share.Link("klondike", 3, "")])
    return out


class Watch:
    def __init__(self, ms):
        self.value = ms

    def ms(self):
        return self.value


class FakeTable:
    """What web/scores.py asks of the table (web/host.py's Host)."""

    def __init__(self, variant, seed, moves):
        self.storage = Storage(MemoryBackend(), "/", now=Clock())
        self.stats = StatsBook(self.storage, VARIANTS)
        self.game = play(engine.new_game(variant, seed), moves)
        self.game_id = variant + str(seed)
        self.recorded = False
        self.daily = ""
        self.pending_link = None
        self.notices = []
        self.clock = Watch(83000)


def check_scores():
    out = []
    table = FakeTable("klondike", 5, 12)
    scores = Scores(table)
    payload = {}
    scores.fields(payload)
    out.append([scores.in_progress, payload])
    scores.abandon()
    out.append([scores.in_progress, table.recorded])
    table.game = engine.from_position("klondike", {"t0": ["KS"], "f0": [
        r + "S" for r in "A23456789TJQ"], "f1": [r + "H" for r in "A23456789TJQK"],
        "f2": [r + "D" for r in "A23456789TJQK"], "f3": [r + "C" for r in "A23456789TJQK"]})
    table.game.play(table.game.legal_moves()[0])
    table.recorded, table.game_id, table.daily = False, "won1", "2026-03-01"
    scores.record_result(won=True)
    table.pending_link = share.Link("spider-2", 8, "2026-03-02")
    table.notices = [{"title": "t", "text": "x", "damaged": False}]
    payload = {}
    scores.fields(payload)
    out.append(payload)
    out.append(scores.stats(None, "2026-03-01"))
    out.append(scores.stats("klondike", "not a day"))
    export = scores.stats_export("2026-03-02T10:00:00Z")
    out.append([export["filename"], parsed(export["text"])])
    out.append(scores.stats_import("{", "klondike", "2026-03-02"))
    out.append(scores.stats_import(export["text"], "klondike", "2026-03-02"))
    out.append(scores.stats_reset("klondike", False, "2026-03-02"))
    out.append(scores.stats_reset(None, True, "2026-03-02"))
    table.storage.backend.items["pp:v1:/game"] = "not json"
    table.storage.read("game")
    damaged = scores.damaged_export("2026-03-02")
    out.append([damaged["filename"], parsed(damaged["text"])])
    out.append(scores.damaged_clear())
    out.append(scores.share("https://example.org/pp/index.html", False))
    out.append(scores.share("https://example.org/pp/", True))
    return out


class Rng:
    """A seeded stand-in for random.Random (the two interpreters' generators differ)."""

    def __init__(self, seed):
        self.state = seed

    def getrandbits(self, bits):
        out = 0
        for _ in range((bits + 31) // 32):
            self.state = (self.state * 1103515245 + 12345) % 2147483648
            out = (out << 32) | (self.state * 2 + 1)
        return out % (1 << bits)

    def randint(self, low, high):
        return low + self.getrandbits(40) % (high - low + 1)

    def choice(self, items):
        return items[self.randint(0, len(items) - 1)]


class Ticks:
    """A clock that moves 1.25 s a reading."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        self.now += 1.25
        return self.now


class FakeDesk:
    """The solver's part of the table (web/desk.py stays with Pyodide): what the table asks
    of it, answered without a solver, and noted."""

    def __init__(self, table):
        self.table = table
        self.calls = []
        self.dailies = self

    def note(self, what):
        self.calls.append(what)

    def position_changed(self):
        self.note("position_changed")

    def game_replaced(self):
        self.note("game_replaced")

    def hint(self):
        return self.table.render("hint", hint=engine.hint(self.table.game))

    def hint_step(self):
        return self.table.render("none")

    def watch(self, **kw):
        return self.table.render("none")

    def rewind(self):
        return self.table.render("none")

    def daily(self, **kw):
        return self.table.render("none")

    def find(self, **kw):
        return self.table.render("none")

    def draw_seed(self, variant, check=True):
        self.note("draw_seed " + variant)
        return self.table.random_seed()

    def is_daily(self, variant, seed, day):
        return day == "2026-03-01" and seed == 20260301

    def change_level(self, changes):
        self.note("level")

    def change_winnable(self, changes):
        self.note("winnable")

    def fields(self, payload, event):
        payload["desk"] = event


def check_controller():
    from web.controller import Clock, Table, is_stock_action, move_list

    out = []
    backend = MemoryBackend()
    table = Table(Storage(backend, "/pp/", now=Clock()), now=Ticks(), rng=Rng(5), desk=FakeDesk)
    out.append(table.start(""))
    out.append(table.handle("settings", {"variant": "klondike", "dark": True, "speed": "fast"}))
    out.append(table.handle("new", {"variant": "klondike", "seed": 77}))
    out.append(table.handle("read"))
    for i in range(40):
        legal = sorted(table.game.legal_moves(), key=str)
        if not legal or table.game.status != "playing":
            break
        move = legal[(5 * i) % len(legal)]
        if is_stock_action(move):
            out.append(table.handle("stock"))
        else:
            out.append(table.handle("play", {"src": move.src, "dst": move.dst,
                                             "count": move.count}))
        if i % 9 == 4:
            out.append(table.handle("undo"))
            out.append(table.handle("redo"))
        if i % 13 == 6:
            out.append(table.handle("tap", {"pile": move.dst}))
            out.append(table.handle("hint"))
    out.append(table.handle("visibility", {"hidden": True}))
    out.append(table.handle("visibility", {"hidden": False}))
    out.append(table.handle("read"))
    out.append(table.handle("restart"))
    out.append(table.handle("nonsense"))
    out.append(table.handle("stats", {"today": "2026-03-02"}))
    out.append(table.handle("share", {"page": "https://example.org/pp/"}))
    out.append(table.handle("new", {"variant": "spider-2", "seed": 3}))
    out.append(table.handle("foundation", {"pile": "t0"}))
    out.append(table.handle("finish"))
    again = Table(Storage(backend, "/pp/", now=Clock()), now=Ticks(), rng=Rng(9),
                  desk=FakeDesk)
    out.append(again.start(""))
    linked = Table(Storage(MemoryBackend(), "/", now=Clock()), now=Ticks(), rng=Rng(2),
                   desk=FakeDesk)
    out.append(linked.start("?game=doublets&deal=12"))
    out.append(linked.start("?game=nope&deal=12"))
    out.append(table.desk.calls)
    clock = Clock(Ticks(), 5000)
    clock.update(started=True)
    out.append([clock.running, clock.ms(), move_list(None)])
    out.append(stored(backend))
    # The piles in the engine's order, in the JSON text the page reads (its layout and
    # number keys take the columns in that order).
    shown = Table(Storage(MemoryBackend(), "/", now=Clock()), now=Ticks(), rng=Rng(3),
                  desk=FakeDesk)
    shown.start("")
    for variant in VARIANTS:
        payload = shown.handle("new", {"variant": variant, "seed": 4})
        out.append(["order", variant] + [json.dumps(payload[name])
                                         for name in ("piles", "roles", "pile_names")])
    return out


class Hand:
    """A clock the program moves itself (seconds)."""

    def __init__(self):
        self.now = 50.0

    def __call__(self):
        return self.now


def check_forward():
    """The main thread's solver desk (web/forward.py) with a worker's answers given by
    hand: what it shows and what it sends (parsed) before and after them."""
    from web.controller import Table
    from web.forward import ForwardingDesk, rewind_words

    out = []
    sent = []
    clock = Hand()
    backend = MemoryBackend()
    table = Table(Storage(backend, "/", now=Clock()), now=clock, rng=Rng(5),
                  desk=ForwardingDesk)
    desk = table.desk
    desk.post = sent.append
    out.append(table.start("?game=beleaguered-castle&deal=21"))
    out.append(table.handle("watch", {"ms": 4}))
    out.append(table.handle("hint"))  # the rules' own hint: no worker yet
    out.append(table.handle("new", {"variant": "beleaguered-castle"}))
    out.append(table.handle("daily_find", {"variant": "klondike", "date": "2026-03-01"}))
    out.append(table.handle("daily", {"variant": "klondike", "date": "2026-03-01"}))
    out.append(table.handle("daily_find", {"date": "2026-02-30"}))
    out.append(table.handle("settings", {"winnable": {"klondike": True, "nope": True},
                                         "level": {"klondike": "hard"}}))
    for bad in ("{", "[]", "5", json.dumps({"kind": "watch", "seq": "x"})):
        desk.receive(bad)
    desk.receive(json.dumps({"kind": "ready"}))
    desk.receive(json.dumps({"kind": "counts", "winnable_counts": {"klondike": 3},
                             "level_counts": {"klondike": {"hard": 1}}}))
    desk.receive(json.dumps({"kind": "draw", "variant": "beleaguered-castle",
                             "winnable": False, "level": None, "seed": 4242}))
    out.append(table.handle("new", {"variant": "beleaguered-castle"}))
    out.append(table.handle("new", {"variant": "beleaguered-castle"}))  # none ahead: random
    out.append(table.handle("new", {"variant": "beleaguered-castle", "seed": 21}))
    out.append(table.handle("play", {"src": "t1", "dst": "t7"}))
    seq = desk.seq
    desk.receive(json.dumps({"kind": "watch", "seq": seq - 1, "n": 9, "done": True,
                             "verdict": "won", "unwinnable": False, "rewind": None}))
    out.append(table.handle("watch", {"ms": 4}))  # an old position's answer: dropped
    lost = {"kind": "watch", "seq": seq, "done": True, "verdict": "lost", "unwinnable": True,
            "rewind": {"looking": False, "back": 1}, "moves": 1}
    desk.receive(json.dumps(dict(lost, n=2)))
    desk.receive(json.dumps({"kind": "watch", "seq": seq, "n": 1, "done": False,
                             "verdict": None, "unwinnable": False, "rewind": None}))
    out.append(table.handle("watch", {"ms": 4}))  # the newest answer stands
    out.append(table.handle("hint"))
    desk.receive(json.dumps({"kind": "hint", "seq": seq, "event": "none", "hint": None,
                             "announce": "No hint: lost.", "hint_words": True}))
    out.append(table.handle("hint_step"))
    out.append(table.handle("rewind"))
    out.append(table.handle("rewind"))  # not known lost now
    out.append(table.handle("redo"))  # back to the lost position: as said of it before
    out.append(table.handle("undo"))
    out.append(table.handle("hint"))
    out.append(table.handle("hint_step"))
    clock.now += 2.0
    out.append(table.handle("hint_step"))  # too late: the rules' own hint
    desk.receive(json.dumps({"kind": "hint", "seq": desk.seq, "event": "hint",
                             "hint": ["t0", "t6", 1], "announce": "Hint: x.",
                             "hint_proven": True}))
    out.append(table.handle("hint"))  # known: at once
    out.append(table.handle("daily_find", {"variant": "klondike", "date": "2026-03-01"}))
    cache = json.dumps({"schema": 1, "budgets": {"klondike": 1},
                        "deals": {"klondike": {"2026-03-01": 777}}})
    desk.receive(json.dumps({"kind": "daily_find", "variant": "klondike",
                             "date": "2026-03-01", "found": True, "deal": 777,
                             "cache": cache}))
    out.append(table.handle("daily_find", {"variant": "klondike", "date": "2026-03-01"}))
    out.append(table.handle("daily", {"variant": "klondike", "date": "2026-03-01"}))
    out.append(table.handle("settings", {}))
    out.append([rewind_words(1), rewind_words(3)])
    out.append([json.loads(m) for m in sent])
    linked = Table(Storage(backend, "/", now=Clock()), now=clock, rng=Rng(6),
                   desk=ForwardingDesk)
    out.append(linked.start("?game=klondike&deal=777&daily=2026-03-01"))
    other = Table(Storage(MemoryBackend(), "/", now=Clock()), now=clock, rng=Rng(6),
                  desk=ForwardingDesk)
    out.append(other.start("?game=klondike&deal=778&daily=2026-03-02"))
    for payload in out:
        if isinstance(payload, dict):
            payload.pop("elapsed_ms", None)
    return out


def run():
    return {"compat": check_compat(), "jsontext": check_jsontext(), "labels": check_labels(),
            "storage": check_storage(), "stats": check_stats(), "saves": check_saves(),
            "share": check_share(), "scores": check_scores(),
            "controller": check_controller(), "forward": check_forward()}
'''

# A save from before saves came in parts, as text (dict order would change it).
LEGACY = json.dumps({"schema": 1, "record": {
    "variant": "klondike", "seed": 4, "moves": ["stock-waste"] * 3, "cursor": 2},
    "elapsed_ms": 12, "recorded": False})
PAGE = PAGE.replace("VARIANTS = tuple", f"LEGACY = {LEGACY!r}\nVARIANTS = tuple", 1)

IMPORTS = '''
import sys
found = []
for name in CONVERTED:
    __import__("web." + name)
    found.append(name)
'''


def cpython() -> dict:
    """PAGE run in this CPython, through JSON as MicroPython's output is."""
    namespace: dict = {}
    exec(compile(PAGE, "PAGE", "exec"), namespace)
    return json.loads(json.dumps(namespace["run"]()))


def micropython(tmp_path: Path, program: str) -> str:
    """The last line ``program`` prints under MicroPython in Node (tools/micropython.py)."""
    return last_line(program, tmp_path, "page.py")


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    """What PAGE saw in MicroPython and in CPython."""
    line = micropython(tmp_path_factory.mktemp("mpy"),
                       PAGE + "\nimport json\nprint(json.dumps(run()))\n")
    return json.loads(line), cpython()


def test_every_converted_module_imports_under_micropython(tmp_path: Path) -> None:
    """Each module on its own (a SyntaxError or a missing module fails its import)."""
    line = micropython(tmp_path, f"CONVERTED = {CONVERTED!r}\n" + IMPORTS
                       + "import sys\nprint(sys.implementation.name, ' '.join(found))\n")
    assert line == "micropython " + " ".join(CONVERTED)


PARTS = ("compat", "jsontext", "labels", "storage", "stats", "saves", "share", "scores",
         "controller", "forward")


@pytest.mark.parametrize("part", PARTS)
def test_the_module_does_the_same_under_micropython(both: tuple[dict, dict], part: str) -> None:
    mpy, cpy = both
    assert len(mpy[part]) == len(cpy[part])
    for i, (mine, theirs) in enumerate(zip(mpy[part], cpy[part], strict=True)):
        assert mine == theirs, f"{part}, check {i}: MicroPython {mine} != CPython {theirs}"


def test_the_program_exercises_the_modules_for_real(both: tuple[dict, dict]) -> None:
    """The comparison above covers behaviour, not just imports."""
    _, cpy = both
    stats = cpy["stats"]
    assert sum(1 for s in stats if isinstance(s, str) and s.startswith("<svg")) >= 20
    assert any(isinstance(s, list) and s[:1] == ["raised"] for s in stats)
    saves = cpy["saves"]
    assert saves[5][0] is True and len(saves[5][1]["moves"]) > 2 * 200  # three chunks
    assert sorted(saves[3]) == ["pp:v1:/game", "pp:v1:/game.0", "pp:v1:/game.1", "pp:v1:/game.2"]
    assert sum(1 for s in saves if isinstance(s, list) and s and s[0] is None) == 4
    share = cpy["share"]
    assert sum(1 for s in share if isinstance(s, list) and s[:1] == ["raised"]) >= 10
    assert cpy["scores"][2]["result"]["won"] == 1
    assert cpy["jsontext"][11][1][0] == "ok"  # the 200,000-character string
    events = [p.get("event") for p in cpy["controller"] if isinstance(p, dict)]
    assert events.count("move") >= 30 and {"undo", "redo", "hint", "illegal", "new"} <= set(events)
    orders = [p for p in cpy["controller"] if isinstance(p, list) and p[:1] == ["order"]]
    assert [p[1] for p in orders] == list(engine.VARIANTS)
    for _, variant, *texts in orders:
        ids = list(engine.new_game(variant, 4).rules.pile_ids)
        assert [list(json.loads(text)) for text in texts] == [ids] * 3
    read = [p["announce"] for p in cpy["controller"] if isinstance(p, dict)
            and p.get("event") == "none" and p.get("announce", "").startswith("Column 1")]
    assert len(read) == 2 and "face down" in read[0]
    forward = [p for p in cpy["forward"] if isinstance(p, dict)]
    events = [p.get("event") for p in forward]
    assert {"thinking", "rewind", "daily_find", "new"} <= set(events)
    assert any(p.get("unwinnable") is True for p in forward)
    assert any(p.get("event") == "redo" and p.get("unwinnable") is True for p in forward)
    assert any(p.get("hint_proven") is True for p in forward)
    assert [p.get("daily") for p in forward[-2:]] == ["2026-03-01", ""]  # a kept daily, a check


# web/main.py as PyScript runs it (top-level await), with a stand-in for PyScript's
# ``pyscript`` module (a window and a document that note what the page asks of them) and
# for the solver's desk. SETUP writes both as files under HERE (first on sys.path); the
# desk's file stands in front of web/desk.py (web/ is a namespace package in CPython; in
# MicroPython's file system it is written over the copy).
FAKE_PYSCRIPT = '''
import asyncio
import json


class Bag:
    pass


class LocalStorage:
    def __init__(self):
        self.items = {}

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        self.items[key] = value

    def removeItem(self, key):
        self.items.pop(key, None)

    def key(self, i):
        return sorted(self.items)[i]

    @property
    def length(self):
        return len(self.items)


class PpTable:
    def start(self, bridge, first):
        self.bridge, self.first = bridge, first


class PpStorage:
    """web/table/table.js's window.ppStorage over the fake localStorage."""

    def __init__(self, js):
        self.js = js

    def answer(self, read):
        answer = Bag()
        answer.ok, answer.value = True, read()
        return answer

    def available(self):
        return True

    def get(self, key):
        return self.answer(lambda: self.js.getItem(key))

    def set(self, key, value):
        return self.answer(lambda: self.js.setItem(key, value))

    def remove(self, key):
        return self.answer(lambda: self.js.removeItem(key))

    def keys(self):
        return self.answer(lambda: json.dumps(sorted(self.js.items)))


class Solver:
    """web/start/solver.js's transport, with no worker behind it."""

    def __init__(self):
        self.posted = []
        self.receive = None

    def post(self, text):
        self.posted.append(text)

    def listen(self, receive):
        self.receive = receive


class Window:
    def __init__(self):
        self.ppSolver = Solver()
        self.performance = Bag()
        self.marks = []
        self.performance.mark = self.marks.append
        self.localStorage = LocalStorage()
        self.location = Bag()
        self.location.pathname = "/pp/index.html"
        self.location.search = "?game=klondike&deal=9"
        self.history = Bag()
        self.replaced = []
        self.history.replaceState = lambda state, title, url: self.replaced.append(url)
        self.console = Bag()
        self.errors = []
        self.console.error = self.errors.append

    def addEventListener(self, name, listener):
        async def table_script_runs():
            await asyncio.sleep(0)
            self.ppTable = PpTable()
            self.ppStorage = PpStorage(self.localStorage)
            listener(None)

        asyncio.create_task(table_script_runs())


window = Window()
document = Bag()
document.documentElement = Bag()
document.documentElement.dataset = Bag()
stage = Bag()  # the loading screen's words
document.getElementById = lambda name: stage
'''

SETUP = '''
import os
import sys


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


for folder in (HERE + "/pyscript", HERE + "/web"):
    try:
        os.mkdir(folder)
    except OSError:
        pass
put(HERE + "/pyscript/__init__.py", FAKE_PYSCRIPT)
put(HERE + "/pyscript/ffi.py", "def create_proxy(f):\\n    return f\\n")
sys.path.insert(0, HERE)
'''

AFTER = '''
import json

from pyscript import document, window


def plain(payload):
    """A payload without what the clock or the random game id put in it."""
    payload = json.loads(payload)
    payload.pop("elapsed_ms", None)
    return payload


table = window.ppTable
bridge = table.bridge
seen = {"first": plain(table.first), "marks": window.marks, "replaced": window.replaced,
        "app": getattr(document.documentElement.dataset, "app", None),
        "stage": getattr(sys.modules["pyscript"].stage, "textContent", None),
        "answers": [plain(bridge("new", json.dumps({"variant": "doublets", "seed": 5}))),
                    plain(bridge("stock", "")), plain(bridge("hint", "")),
                    plain(bridge("nonsense", "{}")), plain(bridge("play", '{"src": "zz"}'))],
        "errors": [e.split(":")[:2] for e in window.errors],
        "posted": sorted({json.loads(t)["kind"] for t in window.ppSolver.posted}),
        "listening": window.ppSolver.receive is not None}
stored = {}
for key, value in window.localStorage.items.items():
    value = json.loads(value)
    value.pop("id", None)
    value.pop("elapsed_ms", None)  # (the real clock's: a busy machine makes it differ)
    stored[key] = value
seen["stored"] = stored
print(json.dumps(seen))
'''


def page_program(here: str) -> str:
    """SETUP, web/main.py as it is, and AFTER, as one script."""
    main = (ROOT / "web" / "main.py").read_text()
    return (f"HERE = {here!r}\nFAKE_PYSCRIPT = {FAKE_PYSCRIPT!r}\n"
            + SETUP + main + AFTER)


def test_the_entry_script_starts_the_table_the_same_under_micropython(tmp_path: Path) -> None:
    """web/main.py under MicroPython (as PyScript's mpy script) and under CPython (as
    Pyodide runs it, top-level await compiled in): the same first table, link, storage,
    dispatch answers and error path."""
    mpy = json.loads(last_line(page_program(""), tmp_path, "main_mpy.py",
                               top_level_await=True))

    here = tmp_path / "cpython"
    here.mkdir()
    runner = tmp_path / "main_cpython.py"
    runner.write_text(
        "import ast, asyncio, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        f"code = compile(open({str(tmp_path / 'main_c.py')!r}).read(), 'main', 'exec', "
        "flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)\n"
        "async def run():\n"
        "    result = eval(code, {'__name__': '__main__'})\n"
        "    if result is not None:\n"
        "        await result\n"
        "asyncio.run(run())\n")
    (tmp_path / "main_c.py").write_text(page_program(str(here)))
    res = subprocess.run([sys.executable, str(runner)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=600)
    assert res.returncode == 0, f"CPython failed:\n{res.stderr}"
    cpy = json.loads(res.stdout.strip().splitlines()[-1])

    assert mpy == cpy
    assert cpy["marks"] == ["pp:main", "pp:imported"] and cpy["replaced"] == ["/pp/index.html"]
    assert cpy["first"]["variant"] == "klondike" and cpy["first"]["seed"] == 9
    assert [a["event"] for a in cpy["answers"]] == ["new", "move", "hint", "none", "error"]
    assert cpy["errors"] == [["table", " play failed"]]
    assert cpy["app"] is None and cpy["stage"] is None  # the page did not fail
    # The table's desk talks to the solver's worker through window.ppSolver.
    assert cpy["listening"] and "sync" in cpy["posted"]
    assert set(cpy["stored"]) == {"pp:v1:/pp/settings", "pp:v1:/pp/game", "pp:v1:/pp/game.0"}

    # The same start with the app imported from the bytecode of tools/mpy_build.py, which
    # the page's MicroPython loads: every module the first table imports is in that tree.
    from tools.mpy_build import build

    tree = tmp_path / "mpy-tree"
    build(tree)
    assert not list(tree.rglob("*.py"))
    assert json.loads(last_line(page_program(""), tmp_path, "main_tree.py",
                                top_level_await=True, tree=tree)) == cpy
