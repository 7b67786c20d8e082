"""Motion on the table (web/table/motion.js), counted in frames and positions, never in time.

A move flies its cards over several frames and leaves no animation and no transform but
their place behind; a card turned up by a move turns over where it lies; a new deal and a
finish move many cards; <html data-speed="off"> and a system that asks for reduced motion
land every card at once; the hint's ghost slides to the target pile; input during a motion
finishes it at once (the DOM's logical state changed at the move already).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import engine
from tests.e2e.table_helpers import (  # noqa: F401 (fixtures)
    MISPLACED_JS,
    Log,
    TablePage,
    _desk,
    _table,
    checked,
    watch,
)
from tests.web.test_table_verdict import DEAL, LOST_DEAL
from tools.positions import built_columns

RANKS = "A23456789TJQK"
FRAME_MS = 1000 / 60

# The motion of an element (its Web Animations; not the hint's CSS glow), and whether it
# is drawn where its own transform (its place) puts it.
AT_REST = """const motions = (el) => el.getAnimations().filter((a) => !(a instanceof CSSAnimation));
const atRest = (el) => {
  const [m, n] = [new DOMMatrix(getComputedStyle(el).transform), new DOMMatrix(el.style.transform)];
  return ["a", "b", "c", "d", "e", "f"].every((k) => Math.abs(m[k] - n[k]) < 0.01);
};"""
# Play an intent, then look at `selector`'s element along its motion: with its animations
# paused, its transform and box at eighths of their length (positions, whatever the
# machine's speed); then let them run out, and say whether it came to rest in its place.
FLIGHT_JS = """async ([kind, data, selector]) => {
  """ + AT_REST + """
  window.ppTable.act(kind, data);
  const el = document.querySelector(selector);
  const animated = [...document.querySelectorAll('#table .card')]
    .filter((card) => motions(card).length).length;
  const anims = motions(el);
  const frames = [];
  const end = Math.max(0, ...anims.map((a) => a.effect.getComputedTiming().endTime));
  anims.forEach((a) => a.pause());
  for (let i = 0; i < 8 && anims.length; i++) {
    anims.forEach((a) => { a.currentTime = (end * i) / 8; });
    const r = el.getBoundingClientRect();
    frames.push({ transform: getComputedStyle(el).transform, x: r.x, y: r.y });
  }
  anims.forEach((a) => a.play());
  for (let i = 0; i < 600 && motions(el).length; i++) {
    await new Promise((go) => requestAnimationFrame(go));
  }
  return { frames, animated, end, left: motions(el).length, landed: atRest(el),
           card: el.dataset.card, pile: el.parentElement.dataset.pile };
}"""
# The cards of the table with an animation, right now.
ANIMATED_JS = """() => document.getAnimations().filter((a) => !(a instanceof CSSAnimation)
    && a.playState === 'running' && a.effect.target?.closest?.('#table')).length"""
# Cards whose drawn transform is not their place (an animation left hanging).
STUCK_JS = """() => { """ + AT_REST + """
    return [...document.querySelectorAll('#table .card')]
      .filter((el) => motions(el).length || !atRest(el)).map((el) => el.dataset.card);
}"""
SETTLED_JS = """() => !document.getAnimations()
    .some((a) => !(a instanceof CSSAnimation) && a.playState === 'running')"""


@pytest.fixture(scope="module", name="moving_session")
def _moving_session(browser, base_url):
    """A desktop page of its own whose system asks for no reduced motion."""
    context = browser.new_context(base_url=base_url, reduced_motion="no-preference",
                                  viewport={"width": 1280, "height": 800})
    context.route("**/favicon.ico", lambda route: route.fulfill(status=204, body=""))
    page = context.new_page()
    session = TablePage(page, Log())
    watch(context, page, base_url, session.log)
    yield session
    context.close()


@pytest.fixture(name="moving")
def _moving(moving_session):
    yield from checked(moving_session)


def speed(table: TablePage, value: str) -> None:
    """The speed setting (until the next fresh open or load, which start from defaults)."""
    table.act("settings", speed=value)
    assert table.page.evaluate("() => document.documentElement.dataset.speed") == value


def settle(table: TablePage) -> None:
    table.page.wait_for_function(SETTLED_JS, polling="raf")


def fly(table: TablePage, move: engine.Move, selector: str) -> dict:
    data = {"src": move.src, "dst": move.dst, "count": move.count}
    return table.page.evaluate(FLIGHT_JS, ["play", data, selector])


def test_a_move_flies_over_frames_and_lands_in_its_place_with_no_animation_left(moving):
    game = moving.open("klondike", 3)  # t0's 9 of hearts onto t6
    move = engine.parse_move(game, "t0-t6")
    game.play(move)
    before = box_of(moving, '[data-pile="t0"] > [data-card]:last-child')
    seen = fly(moving, move, '[data-pile="t6"] > [data-card]:last-child')
    assert (seen["card"], seen["pile"]) == ("9H", "t6")  # in its new pile at once
    places = [(round(f["x"]), round(f["y"])) for f in seen["frames"]]
    assert seen["end"] > 2 * FRAME_MS and len(set(places)) == 8, places  # on its way
    assert places[0] == (round(before[0]), round(before[1]))  # from where it was
    # Landed: nothing left running, and what is drawn is its place.
    assert seen["left"] == 0 and seen["landed"]
    assert moving.page.evaluate(STUCK_JS) == []
    moving.check(game)


def test_a_card_turned_up_by_a_move_turns_over_where_it_lies(moving):
    game = moving.open("klondike", 2)  # t1's 6 of spades onto t6 turns up t1's 4 of diamonds
    move = engine.parse_move(game, "t1-t6")
    game.play(move)
    seen = fly(moving, move, '[data-pile="t1"] > [data-card]:last-child')
    assert seen["card"] == "4D"
    # Edge on halfway (nothing across), whole at the start (turned over) and once landed.
    widths = [abs(float(f["transform"].split("(")[1].split(",")[0])) for f in seen["frames"]]
    assert widths[0] > 0.9 and min(widths) < 0.2, widths
    assert seen["left"] == 0 and seen["landed"]
    settle(moving)
    moving.check(game)


# Start a new deal, then count frame by frame the cards put into piles other than the
# stock (the first count: in the intent's own task) and the changes to the table's DOM
# (its mutation records), and the cards that have flown so far, until no card flies and
# the tableau holds `all`.
DEAL_JS = """async ([data, all]) => {
  const table = document.getElementById('table');
  let records = 0;
  const changes = new MutationObserver((list) => { records += list.length; });
  changes.observe(table, { childList: true, attributes: true, subtree: true });
  const changed = [];
  const since = () => {
    const n = records + changes.takeRecords().length;
    records = 0;
    return n;
  };
  let added = 0;
  const count = (records) => {
    for (const r of records) {
      if (!r.target.dataset?.pile || r.target.dataset.pile === 'stock') continue;
      added += [...r.addedNodes].filter((c) => c.dataset?.card).length;
    }
  };
  const put = new MutationObserver(count);
  put.observe(table, { childList: true, subtree: true });
  const dealt = () => {
    count(put.takeRecords());
    const n = added;
    added = 0;
    return n;
  };
  const flown = new Set();
  const look = () => {
    for (const a of document.getAnimations()) {
      const el = a.effect.target;
      if (!(a instanceof CSSAnimation) && el?.dataset?.card) flown.add(el);
    }
  };
  const placed = () => table.querySelectorAll('[data-pile]:not([data-pile="stock"]) > [data-card]')
      .length;
  const flying = () => document.getAnimations().some((a) => !(a instanceof CSSAnimation)
      && a.playState === 'running');
  window.ppTable.act('new', data);
  look();
  const counts = [dealt()];
  changed.push(since());
  for (let i = 0; i < 2000 && (flying() || placed() < all); i++) {
    await new Promise((go) => requestAnimationFrame(go));
    look();
    counts.push(dealt());
    changed.push(since());
  }
  put.disconnect();
  changes.disconnect();
  return { counts, changed, flown: flown.size, placed: placed() };
}"""
# At most this many cards of a cascade join their piles at once (WAVE_MAX in
# web/table/motion.js).
WAVE_MAX = 6


def deal(table: TablePage, variant: str, seed: int, tableau: int, rate: float = 1) -> dict:
    """DEAL_JS, with the page's animations played at ``rate`` (CDP): slower, each card's
    flight ends in a frame of its own whatever the machine's speed."""
    cdp = table.context.new_cdp_session(table.page)
    cdp.send("Animation.enable")
    cdp.send("Animation.setPlaybackRate", {"playbackRate": rate})
    try:
        return table.page.evaluate(DEAL_JS, [{"variant": variant, "seed": seed}, tableau])
    finally:
        cdp.send("Animation.setPlaybackRate", {"playbackRate": 1})
        cdp.detach()


def test_a_new_deal_and_a_finish_move_many_cards_and_leave_none_astray(moving):
    moving.open("klondike", 5)
    seen = deal(moving, "klondike", 6, 28)
    assert seen["flown"] >= 28 and seen["placed"] == 28, seen  # dealt from the stock
    settle(moving)
    assert moving.page.evaluate(STUCK_JS) == []
    moving.check(engine.new_game("klondike", 6))


@pytest.mark.parametrize(("variant", "tableau"), [("klondike", 28), ("spider-1", 54)])
def test_a_new_deal_puts_its_cards_into_their_piles_in_a_few_waves(moving, variant, tableau):
    """The cards dealt out join their piles in waves as they leave the stock, one in the
    intent's task (the frame that draws the new stock has little of their work) and a
    few in a frame after: no frame styles and paints the whole deal; and the table's DOM
    changes in a few frames only, not in one for every card (each such frame lays out,
    paints and layers the table again). (From another deal of
    the same game: no card of it stays where it was, even where the new deal has a
    face-down card at the same place, and each shows its new face.)"""
    moving.open(variant, 5)
    seen = deal(moving, variant, 8, tableau, rate=0.25)
    counts = seen["counts"]
    assert counts[0] == 1 and max(counts) <= WAVE_MAX, counts
    # Every card of the tableau came in this way (none was in the DOM before), in at
    # least a sixth as many waves as cards.
    assert sum(counts) == tableau == seen["placed"], counts
    assert sum(1 for n in counts if n) >= tableau // WAVE_MAX, counts
    # The frames after the intent that changed the table: with every card landing in a
    # frame of its own, a card put to rest as it lands would take a frame for every card.
    changed = sum(1 for n in seen["changed"][1:] if n)
    assert changed <= tableau // 2, seen["changed"]
    assert seen["flown"] >= tableau
    settle(moving)
    assert moving.page.evaluate(STUCK_JS) == []
    moving.check(engine.new_game(variant, 8))


# Play a new deal and count, for each pile, the changes of its children that took cards
# out of it in the intent's task.
EMPTIED_JS = """(data) => {
  const out = {};
  const watch = new MutationObserver(() => {});
  watch.observe(document.getElementById('table'), { childList: true, subtree: true });
  window.ppTable.act('new', data);
  for (const r of watch.takeRecords()) {
    const pile = r.target.dataset?.pile;
    if (pile && [...r.removedNodes].some((n) => n.dataset?.card)) out[pile] = (out[pile] || 0) + 1;
  }
  watch.disconnect();
  return out;
}"""


def test_a_new_deal_empties_each_pile_in_one_change(moving):
    """A new deal takes every card off the tableau: a column's cards go in one change of
    the column (each change of the document is work for its observers and for the next
    frame's style), not one for each card."""
    moving.open("klondike", 5)
    emptied = moving.page.evaluate(EMPTIED_JS, {"variant": "klondike", "seed": 6})
    assert set(emptied) >= set(COLUMNS), emptied
    assert all(n == 1 for n in emptied.values()), emptied
    settle(moving)
    moving.check(engine.new_game("klondike", 6))


def presented_frames(table: TablePage, kind: str, data: dict) -> tuple[list[float], int]:
    """The frame times and partial frames of an intent's motion as bench/motion.py counts
    them: from a DevTools trace of the compositor's frames."""
    spec = importlib.util.spec_from_file_location(
        "bench_motion", Path(__file__).resolve().parents[2] / "bench" / "motion.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    browser = table.context.browser
    browser.start_tracing(page=table.page, categories=bench.FRAME_CATEGORIES)
    try:
        table.page.evaluate("""([kind, data]) => { window.ppTable.act(kind, data);
            performance.mark('pp:bench-acted'); }""", [kind, data])
        settle(table)
        table.page.evaluate("() => performance.mark('pp:bench-settled')")
    finally:
        trace = browser.stop_tracing()
    return bench.presented_frames(bench.trace_events(trace))


def test_the_compositor_presents_a_deals_frames_in_a_trace(moving):
    """What bench/motion.py counts is there: the browser's trace has the page's frames of
    a deal's motion, each with whether it reached the screen (were it to stop writing them,
    the bench would count no frame at all)."""
    moving.open("klondike", 5)
    deltas, partial = presented_frames(moving, "new", {"variant": "klondike", "seed": 6})
    assert len(deltas) >= 10, deltas  # a deal's cascade lasts over half a second
    assert all(d > 0 for d in deltas) and 0 <= partial <= len(deltas) + 1
    moving.check(engine.new_game("klondike", 6))


def spades_to_go() -> engine.Game:
    """Klondike with hearts, diamonds and clubs home, the ace of spades on t0 and the other
    spades face down in the stock."""
    home = {f"f{i}": [r + s for r in RANKS] for i, s in enumerate("SHDC") if i}
    return engine.from_position("klondike", {**home, "t0": ["AS"],
                                             "stock": [r.lower() + "s" for r in RANKS[:0:-1]]})


def test_input_during_the_finish_lands_every_card_at_once(moving):
    game = spades_to_go()
    moving.load(game)
    # Finish, and hold the cascade where it is (however slow the machine) until the key.
    under_way = moving.page.evaluate("""() => {
        document.querySelector('[data-action="finish"]').click();
        document.getAnimations().forEach((a) => a.pause());
        return document.getAnimations().filter((a) => a.effect.target?.closest?.('#table'))
            .length;
    }""")
    assert under_way > 5
    assert moving.page.is_hidden("#end")  # the result waits for the cards to land
    moving.page.keyboard.press("Shift")  # any input skips it
    assert moving.page.evaluate(ANIMATED_JS) == 0
    assert moving.page.evaluate("() => document.querySelector('#end').dataset.result") == "won"
    assert moving.page.evaluate(STUCK_JS) == []
    piles = moving.piles()
    assert all(len(piles[f"f{i}"]) == 13 for i in range(4))
    assert moving.page.evaluate(MISPLACED_JS) == []


# Play an intent, then count frame by frame how many cards lie in `piles` (the DOM), until
# `all` lie there and no card flies; the first count is the one as the intent returned.
CASCADE_JS = """async ([kind, piles, all]) => {
  const count = () => piles.reduce((n, id) =>
      n + document.querySelectorAll(`[data-pile="${id}"] > [data-card]`).length, 0);
  const flying = () => document.getAnimations().some((a) => !(a instanceof CSSAnimation)
      && a.playState === 'running');
  window.ppTable.act(kind, {});
  const counts = [count()];
  for (let i = 0; i < 2000 && (flying() || counts.at(-1) < all); i++) {
    await new Promise((go) => requestAnimationFrame(go));
    counts.push(count());
  }
  return counts;
}"""
FOUNDATIONS = ["f0", "f1", "f2", "f3"]
COLUMNS = [f"t{i}" for i in range(7)]


def seven_to_go() -> engine.Game:
    """Klondike with ace to six of each suit home and the rest in four columns built down
    from the kings: 28 cards to four foundations (columns short enough that the cards
    keep their size on a laptop's table as the columns empty)."""
    home = {f"f{i}": [r + s for r in RANKS[:6]] for i, s in enumerate("SHDC")}
    pairs = {"t0": "SH", "t1": "HS", "t2": "DC", "t3": "CD"}
    columns = {pile: [rank + suits[i % 2] for i, rank in enumerate(RANKS[:5:-1])]
               for pile, suits in pairs.items()}
    return engine.from_position("klondike", {**home, **columns})


def test_a_finish_and_its_undo_move_their_cards_into_their_piles_a_few_a_frame(moving):
    game = seven_to_go()
    moving.load(game)
    home = moving.page.evaluate(CASCADE_JS, ["finish", FOUNDATIONS, 52])
    # The click itself moves one card into the foundations in the DOM; a frame after it
    # at most a wave more; so the 28 take a few waves.
    steps = [b - a for a, b in zip(home, home[1:], strict=False)]
    assert home[0] == 24 + 1 and max(steps) <= WAVE_MAX and min(steps) >= 0, home
    assert home[-1] == 52 and sum(1 for n in steps if n) >= 28 // WAVE_MAX, home
    assert moving.page.evaluate(STUCK_JS) == []
    engine.play_finish(game)
    moving.check(game)
    back = moving.page.evaluate(CASCADE_JS, ["undo", COLUMNS, 28])
    steps = [b - a for a, b in zip(back, back[1:], strict=False)]
    assert back[0] == 1 and max(steps) <= WAVE_MAX and back[-1] == 28, back
    assert sum(1 for n in steps if n) >= 28 // WAVE_MAX, back
    assert moving.page.evaluate(STUCK_JS) == []
    moving.check(seven_to_go())


# A finish (or undo) that changes the cards' size: where `selector`'s card is drawn and the
# card width before the intent and as it returns, then as CASCADE_JS the cards in `piles`
# frame by frame.
RESIZED_CASCADE_JS = """async ([kind, piles, all, selector]) => {
  const el = document.querySelector(selector);
  const seen = () => {
    const r = el.getBoundingClientRect();
    return [Math.round(r.x), Math.round(r.y), Math.round(r.width)];
  };
  const before = seen();
  const count = () => piles.reduce((n, id) =>
      n + document.querySelectorAll(`[data-pile="${id}"] > [data-card]`).length, 0);
  const flying = () => document.getAnimations().some((a) => !(a instanceof CSSAnimation)
      && a.playState === 'running');
  window.ppTable.act(kind, {});
  const after = seen();
  const counts = [count()];
  for (let i = 0; i < 2000 && (flying() || counts.at(-1) < all); i++) {
    await new Promise((go) => requestAnimationFrame(go));
    counts.push(count());
  }
  return { before, after, counts };
}"""


def test_a_finish_that_resizes_the_cards_still_moves_them_a_few_a_frame(moving):
    """On a laptop's table the long columns of a finish make the cards smaller, and the
    finish makes them larger again: the cards still go one after another, and a card
    waiting for its turn stays where it lay (drawn at the new size)."""
    moving.load(built_columns())
    king = '[data-pile="t0"] > [data-card]:first-child'  # the last to go home
    home = moving.page.evaluate(RESIZED_CASCADE_JS, ["finish", FOUNDATIONS, 52, king])
    assert home["after"][2] > home["before"][2]  # larger cards
    assert home["after"][:2] == home["before"][:2], home  # the king waits where it lay
    steps = [b - a for a, b in zip(home["counts"], home["counts"][1:], strict=False)]
    assert home["counts"][0] == 1 and max(steps) <= WAVE_MAX, home
    assert home["counts"][-1] == 52, home
    assert moving.page.evaluate(STUCK_JS) == []
    ace = '[data-pile="f0"] > [data-card]:first-child'  # the last to go back
    back = moving.page.evaluate(RESIZED_CASCADE_JS, ["undo", COLUMNS, 52, ace])
    assert back["after"][2] < back["before"][2]  # smaller again
    assert back["after"][:2] == back["before"][:2], back
    steps = [b - a for a, b in zip(back["counts"], back["counts"][1:], strict=False)]
    assert back["counts"][0] == 1 and max(steps) <= WAVE_MAX, back
    assert back["counts"][-1] == 52, back
    assert moving.page.evaluate(STUCK_JS) == []
    moving.check(built_columns())


def while_flying(setup: str, count: str, result: str) -> str:
    """A page script: ``setup``, then play the intent ``kind`` and, until no card flies,
    hand the table's mutation records (every observer of the page, PyScript's among them,
    goes through each) to ``count``; then answer ``result``."""
    return f"""async ([kind]) => {{
  {setup}
  const count = (records) => {{
    for (const r of records) {{ {count} }}
  }};
  const watch = new MutationObserver(count);
  watch.observe(document.getElementById('table'),
                {{ attributes: true, childList: true, subtree: true }});
  const flying = () => document.getAnimations().some((a) => !(a instanceof CSSAnimation)
      && a.playState === 'running');
  window.ppTable.act(kind, {{}});
  for (let i = 0; i < 2000 && flying(); i++) {{
    await new Promise((go) => requestAnimationFrame(go));
  }}
  count(watch.takeRecords());
  watch.disconnect();
  return {result};
}}"""


# Per card: its attribute writes and its insertions into a pile.
WRITES_JS = while_flying(
    """const per = new Map();
  const note = (el, what) => {
    const seen = per.get(el.dataset.card) || {};
    seen[what] = (seen[what] || 0) + 1;
    per.set(el.dataset.card, seen);
  };""",
    """if (r.type === 'attributes' && r.target.dataset?.card) note(r.target, r.attributeName);
      if (r.type === 'childList') {
        for (const n of r.addedNodes) if (n.dataset?.card) note(n, 'inserted');
      }""",
    "Object.fromEntries(per)")


def test_a_card_going_home_in_a_cascade_is_written_to_a_few_times(moving):
    """Each card of a finish is put into its pile once and marked while it flies with one
    write of its class on and one off, and one of its order above the others on and off,
    and its place once: no write that changes nothing."""
    moving.load(seven_to_go())
    writes = moving.page.evaluate(WRITES_JS, ["finish"])
    assert len(writes) == 28, writes
    for seen in writes.values():
        assert seen.pop("inserted") == 1 and seen.pop("class") == 2, writes
        assert seen.pop("style", 0) <= 3 and not seen, writes


# The elements put into the table: each one is work for every observer of the page
# (PyScript's looks through what it is given).
ADDED_JS = while_flying(
    "let added = 0;",
    "added += [...r.addedNodes].filter((n) => n.nodeType === 1).length;",
    "added")


def test_a_card_turned_up_on_its_way_gets_its_face_in_one_element(moving):
    """A deal from Spider's stock turns ten cards up on their way: each card is put into
    its column, its new face in one element, and its back for the turn."""
    game = moving.open("spider-1", 3)
    game.play(next(m for m in game.legal_moves() if m.src == "stock"))
    assert moving.page.evaluate(ADDED_JS, ["stock"]) == 10 * 3
    settle(moving)
    moving.check(game)


# Play an intent and collect, frame by frame until no card flies, every element that had an
# animation of its own (a card, or something inside one).
ANIMATED_ELEMENTS_JS = """async ([kind]) => {
  const seen = new Set();
  const mine = () => document.getAnimations().filter((a) => !(a instanceof CSSAnimation));
  const look = () => mine().forEach((a) => a.effect.target && seen.add(a.effect.target));
  window.ppTable.act(kind, {});
  look();
  for (let i = 0; i < 2000 && mine().some((a) => a.playState === 'running'); i++) {
    await new Promise((go) => requestAnimationFrame(go));
    look();
  }
  return [...seen].map((el) => el.classList.contains('card') ? 'card' : el.className);
}"""


def test_a_card_turned_up_on_its_way_is_the_only_thing_animated(moving):
    """A deal from Spider's stock turns ten cards up on their way: ten animations, of the
    cards (their backs show as they are turned over), and none of anything inside them
    (each animated element is restyled in every frame of its motion)."""
    game = moving.open("spider-1", 3)
    game.play(next(m for m in game.legal_moves() if m.src == "stock"))
    assert moving.page.evaluate(ANIMATED_ELEMENTS_JS, ["stock"]) == ["card"] * 10
    settle(moving)
    moving.check(game)


def test_the_win_bursts_in_28_bits_with_two_elements_animated(moving):
    """The burst behind a won game's result: 28 bits of colour, in two rings that each
    fly out as one animation (two elements restyled a frame, not 28)."""
    game = engine.from_position("klondike", {
        **{f"f{i}": [r + s for r in RANKS] for i, s in enumerate("SHD")},
        "f3": [r + "C" for r in RANKS[:-1]], "t0": ["KC"]})
    moving.load(game)
    moving.act("play", src="t0", dst="f3", count=1)
    moving.page.wait_for_selector("#end[open]")
    seen = moving.page.evaluate("""() => ({
        bits: document.querySelectorAll('#end-burst i').length,
        animated: new Set(document.getAnimations().map((a) => a.effect.target)
            .filter((el) => el?.closest?.('#end-burst'))).size })""")
    assert seen == {"bits": 28, "animated": 2}


def test_input_during_a_cascade_puts_every_waiting_card_in_its_pile_at_once(moving):
    moving.load(seven_to_go())
    waiting = moving.page.evaluate("""() => {
        window.ppTable.act('finish', {});
        return 52 - document.querySelectorAll('[data-pile^="f"] > [data-card]').length;
    }""")
    # the cards still lie in their columns, waiting for their wave
    assert waiting >= 28 - WAVE_MAX
    moving.page.keyboard.press("Shift")
    assert moving.page.evaluate(ANIMATED_JS) == 0
    assert moving.page.evaluate(STUCK_JS) == []
    piles = moving.piles()
    assert all(len(piles[f"f{i}"]) == 13 for i in range(4))
    assert moving.page.evaluate(MISPLACED_JS) == []


def test_a_move_made_during_a_motion_finishes_it_and_plays(moving):
    game = moving.open("klondike", 1)
    first = engine.parse_move(game, "t4-t2")
    game.play(first)
    game.play(next(m for m in game.legal_moves() if m.src == "stock"))
    flying = moving.page.evaluate("""(data) => {
        const flying = () => document.querySelector('[data-pile="t2"] > :last-child')
            .getAnimations().filter((a) => !(a instanceof CSSAnimation)).length;
        window.ppTable.act("play", data);
        const before = flying();
        window.ppTable.act("stock");  // a card turned onto the waste meanwhile
        return [before, flying()];
    }""", {"src": first.src, "dst": first.dst, "count": first.count})
    assert flying == [1, 0]
    settle(moving)
    assert moving.page.evaluate(STUCK_JS) == []
    moving.check(game)


@pytest.mark.parametrize("how", ["speed off", "reduced motion"])
def test_with_no_motion_asked_for_cards_land_at_once(moving, table, how):
    page = moving if how == "speed off" else table
    game = page.open("klondike", 2)
    if how == "speed off":
        speed(moving, "off")
    move = engine.parse_move(game, "t1-t6")  # a move that also turns a card up
    game.play(move)
    seen = fly(page, move, '[data-pile="t6"] > [data-card]:last-child')
    assert seen["animated"] == 0 and seen["frames"] == [] and seen["landed"]
    assert page.page.evaluate(ANIMATED_JS) == 0
    page.act("new", variant="klondike", seed=9)
    assert page.page.evaluate(ANIMATED_JS) == 0
    assert page.page.evaluate(STUCK_JS) == []


# Click Hint and wait for the ghost; then, its slide paused, the box of its first card at
# eighths of the slide's length, and at its end (the slide and the lift run out at once).
GHOST_JS = """async () => {
  document.querySelector('[data-action="hint"]').click();
  let ghost = null;
  for (let i = 0; i < 600 && !ghost; i++) {
    await new Promise((go) => requestAnimationFrame(go));
    ghost = document.querySelector('#table .ghost .card');
  }
  const box = () => {
    const r = ghost.getBoundingClientRect();
    return [r.x, r.y, r.width, r.height];
  };
  const slide = ghost.getAnimations();
  const end = Math.max(0, ...slide.map((a) => a.effect.getComputedTiming().endTime));
  slide.forEach((a) => a.pause());
  const boxes = [];
  for (let i = 0; i < 8; i++) {
    slide.forEach((a) => { a.currentTime = (end * i) / 8; });
    boxes.push(box());
  }
  slide.forEach((a) => a.finish());
  for (const card of document.querySelectorAll('[data-hint="from"]')) {
    card.getAnimations().filter((a) => !(a instanceof CSSAnimation)).forEach((a) => a.finish());
  }
  boxes.push(box());
  return boxes;
}"""


def box_of(table: TablePage, selector: str) -> list[float]:
    return table.page.evaluate("""(s) => { const r = document.querySelector(s)
        .getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; }""", selector)


def test_the_hint_lifts_its_card_and_a_ghost_slides_onto_the_target(moving):
    moving.load(spades_to_go())
    boxes = moving.page.evaluate(GHOST_JS)
    assert len({(round(x), round(y)) for x, y, _, _ in boxes}) > 5, boxes  # it slid
    target = box_of(moving, '[data-pile="f0"]')
    assert all(abs(a - b) < 1.5 for a, b in zip(boxes[-1], target, strict=True)), boxes[-1]
    ace = box_of(moving, '[data-pile="t0"] > [data-card="AS"]')
    assert ace[1] < box_of(moving, '[data-pile="t0"]')[1] - 2  # lifted
    assert moving.text("#toast").startswith("Hint: ")  # and the words on screen
    # The ghost is no card of the table, and the next input takes it away.
    assert moving.page.evaluate("() => document.querySelector('.ghost [data-card]')") is None
    moving.page.keyboard.press("Shift")
    assert moving.page.evaluate("() => document.querySelector('.ghost')") is None
    assert moving.page.evaluate(STUCK_JS) == []


def test_with_reduced_motion_the_hint_ghost_stands_on_the_target(table):
    table.load(spades_to_go())
    table.page.click('[data-action="hint"]')
    table.page.wait_for_function("() => !!document.querySelector('.ghost .card')")
    assert table.page.evaluate(ANIMATED_JS) == 0
    ghost = box_of(table, ".ghost .card")
    target = box_of(table, '[data-pile="f0"]')
    assert all(abs(a - b) < 1.5 for a, b in zip(ghost, target, strict=True))


def test_a_hint_to_turn_the_stock_slides_a_ghost_of_its_card_onto_the_waste(moving):
    home = {f"f{i}": [r + s for r in RANKS] for i, s in enumerate("SHDC") if i}
    spades = [r.lower() + "s" for r in RANKS[:1:-1]] + ["2S"]  # the two on top, face up
    moving.load(engine.from_position("klondike", {**home, "t0": spades, "stock": ["as"]}))
    boxes = moving.page.evaluate(GHOST_JS)
    assert len({(round(x), round(y)) for x, y, _, _ in boxes}) > 5, boxes
    speed(moving, "off")
    moving.act("stock")  # where the card really lands is where the ghost came to rest
    card = box_of(moving, '[data-pile="waste"] > [data-card]')
    assert all(abs(a - b) < 1.5 for a, b in zip(boxes[-1], card, strict=True)), (boxes[-1], card)


# Play a new deal and note, as the address bar is set (history.replaceState), the table's
# cards, the frames drawn since the intent, whether the intent was still running, and the
# cards still flying; then the address.
ADDRESS_JS = """(data) => new Promise((done) => {
  const piles = () => Object.fromEntries([...document.querySelectorAll('[data-pile]')]
      .map((p) => [p.dataset.pile, [...p.children].map((c) => c.dataset.card)]));
  const replace = history.replaceState;
  let seen = null;
  let frames = 0;
  let inside = true;
  const count = () => {
    frames += 1;
    if (!seen) requestAnimationFrame(count);
  };
  const end = () => {
    history.replaceState = replace;
    done([seen, location.search]);
  };
  history.replaceState = function (...args) {
    const flying = document.getAnimations().filter((a) => !(a instanceof CSSAnimation)
        && a.playState === 'running').length;
    seen = { table: piles(), frames, inside, flying };
    const result = replace.apply(this, args);
    setTimeout(end, 0);
    return result;
  };
  setTimeout(end, 20000);
  window.ppTable.act('new', data);
  inside = false;
  requestAnimationFrame(count);
})"""


def test_a_new_deal_names_itself_in_the_address_bar_once_its_cards_have_landed(moving):
    """A deal dealt out sets the address bar once its cards have landed, in a task of its
    own: a same-document navigation lays the page out at once, which inside the intent
    would be the new table's whole restyle and layout, and in a frame of the deal a long
    one."""
    moving.open("klondike", 5)
    seen, search = moving.page.evaluate(ADDRESS_JS, {"variant": "klondike", "seed": 6})
    assert search == "?game=klondike&deal=6"
    assert not seen["inside"] and seen["frames"] >= 2 and seen["flying"] == 0, seen
    assert seen["table"] == moving.piles()
    moving.check(engine.new_game("klondike", 6))


def test_with_no_motion_a_new_deal_names_itself_before_the_table_changes(moving):
    """With nothing to fly the address bar is set inside the intent, while the table
    still shows the deal before (its layout is clean then)."""
    moving.open("klondike", 5)
    speed(moving, "off")
    before = moving.piles()
    seen, search = moving.page.evaluate(ADDRESS_JS, {"variant": "klondike", "seed": 6})
    assert search == "?game=klondike&deal=6"
    assert seen["inside"] and seen["table"] == before, seen
    moving.check(engine.new_game("klondike", 6))


# The selectors of the page's style sheets whose :has() is anchored on an element that
# holds cards (the body, the table, a pile...): the browser looks at such a :has() again
# on every change of any element inside, every step of the cards' motion among them.
HAS_ON_CARDS_JS = """() => {
  const card = document.querySelector('#table [data-card]');
  const anchors = (selector) => {  // the compound selector just before each ':has('
    const found = [];
    for (let at = selector.indexOf(':has('); at >= 0; at = selector.indexOf(':has(', at + 1)) {
      let depth = 0;
      let i = at - 1;
      for (; i >= 0; i--) {
        const c = selector[i];
        if (c === ')' || c === ']') depth++;
        else if (c === '(' || c === '[') depth--;
        else if (depth === 0 && ' >+~,'.includes(c)) break;
      }
      found.push(selector.slice(i + 1, at) || '*');
    }
    return found;
  };
  const bad = [];
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule.cssRules && !rule.selectorText) walk(rule.cssRules);
      if (!rule.selectorText?.includes(':has(')) continue;
      for (const anchor of anchors(rule.selectorText)) {
        if (card.closest(anchor)) bad.push(rule.selectorText);
      }
    }
  };
  for (const sheet of document.styleSheets) walk(sheet.cssRules);
  return bad;
}"""


def test_no_style_rule_looks_again_at_the_cards_ancestors_as_the_cards_move(moving):
    moving.load(spades_to_go())
    assert moving.page.evaluate(HAS_ON_CARDS_JS) == []
    # The narrow toolbar's room for Finish follows a class set with the button instead.
    finishing = """() => [...document.querySelectorAll('.bar')].some((bar) =>
        bar.classList.contains('with-finish'))"""
    assert moving.page.is_visible('[data-action="finish"]')
    assert moving.page.evaluate(finishing)
    moving.act("new", variant="klondike", seed=4)
    assert moving.page.is_hidden('[data-action="finish"]')
    assert not moving.page.evaluate(finishing)



VERDICT_VARIANT = "beleaguered-castle"
TALLY_JS = "() => ({...window.ppSolverTally})"
# Every animation of the table held where it is, frame after frame (the deal's later waves
# too), until window.__hold is false: then they all play on.
HOLD_MOTION_JS = """() => {
  window.__hold = true;
  const table = () => document.getAnimations().filter((a) => !(a instanceof CSSAnimation)
    && a.effect.target?.closest?.('#table'));
  const hold = () => {
    if (!window.__hold) { for (const a of table()) if (a.playState === 'paused') a.play(); return; }
    for (const a of table()) if (a.playState === 'running') a.pause();
    requestAnimationFrame(hold);
  };
  hold();
}"""


def test_the_verdict_read_while_cards_fly_waits_for_them_to_land_and_is_not_lost(moving):
    """The worker's watch answers are Python's work on the main thread: those that come
    while cards fly are held (web/start/solver.js), read once the cards have landed, and
    the verdict they bring is then shown, not lost."""
    table, page = moving, moving.page
    table.open(VERDICT_VARIANT, LOST_DEAL)  # a fresh page: cards fly (another test may
    table.wait_solver()                     # have left the speed at "off")
    settle(table)
    # The first deal's verdict has been read (it may have been before this line runs).
    page.wait_for_function(
        "() => !['', 'searching'].includes(document.documentElement.dataset.verdict || '')",
        timeout=30_000)
    before = page.evaluate(TALLY_JS)
    table.act("new", variant=VERDICT_VARIANT, seed=DEAL)
    page.evaluate(HOLD_MOTION_JS)  # the deal's cards stay in flight
    page.wait_for_function("(t) => window.ppSolverTally.held > t.held", arg=before,
                           timeout=30_000)  # the worker answered meanwhile: held
    # An answer that came before the cards took off (the lists' sizes, say) was read then,
    # rightly: count from the first one held.
    holding = page.evaluate(TALLY_JS)
    page.wait_for_timeout(300)
    during = page.evaluate(TALLY_JS)
    assert during["read"] == holding["read"]  # not read while they fly
    assert during["readFlying"] == before["readFlying"]
    page.evaluate("() => { window.__hold = false; }")
    settle(table)
    page.wait_for_function(
        "() => document.getElementById('st-verdict').innerText === 'Winnable'", timeout=30_000)
    after = page.evaluate(TALLY_JS)
    assert after["read"] > holding["read"] and after["readFlying"] == before["readFlying"]


# How many elements make each card of the table: a face-up card's face and a face-down
# card's back (every element of a card is styled, laid out and painted as it joins a pile).
ELEMENTS_PER_CARD_JS = """() => {
  const count = { up: [], down: [] };
  for (const card of document.querySelectorAll('#table [data-card]')) {
    count[card.dataset.card === 'down' ? 'down' : 'up'].push(1 + card.querySelectorAll('*').length);
  }
  return { up: Math.max(...count.up), down: Math.max(...count.down), cards: count.up.length };
}"""


def test_a_card_is_a_few_elements_face_up_and_one_face_down(moving):
    """A face-up card is its box, its face's holder, one corner index (rank and suit), the
    centre pip and a court card's letter: at most 7 elements (there were 10, with an index
    for each corner of which one was always hidden); a face-down card is one."""
    moving.open("klondike", 3)
    moving.act("new", variant="spider-1", seed=5)
    settle(moving)
    counts = moving.page.evaluate(ELEMENTS_PER_CARD_JS)
    assert counts["cards"] >= 10
    assert counts["up"] <= 7 and counts["down"] == 1, counts


def composited_layers(table: TablePage) -> int:
    """The page's composited layers now (CDP LayerTree), once a frame has been drawn."""
    cdp = table.context.new_cdp_session(table.page)
    trees: list[list] = []
    cdp.on("LayerTree.layerTreeDidChange", lambda event: trees.append(event.get("layers")))
    cdp.send("LayerTree.enable")
    try:
        for _ in range(3):
            table.page.evaluate(
                "() => new Promise((go) => requestAnimationFrame(() => requestAnimationFrame(go)))")
            if any(trees):
                break
        return len([t for t in trees if t][-1])
    finally:
        cdp.send("LayerTree.disable")
        cdp.detach()


def test_each_card_at_rest_is_a_layer_of_its_own(moving):
    """A Spider table has 104 cards, each a composited layer drawn once: a card that leaves
    a pile or lands on one has the browser draw nothing under it again (cards drawn into
    the table's layer had a column, or a stock of 50 backs, drawn again for each card that
    left or landed, bench/motion.py --trace)."""
    moving.open("klondike", 3)
    moving.act("new", variant="spider-1", seed=5)
    settle(moving)
    cards = moving.page.evaluate("() => document.querySelectorAll('#table .card').length")
    assert cards == 104
    assert composited_layers(moving) > cards
