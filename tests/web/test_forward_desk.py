"""The solver's desk across a worker boundary (web/forward.py, web/deskworker.py).

A table with the forwarding desk (what the main thread runs, solver-free) and a
DeskWorker (the mirror table with the real SolverDesk) are joined by an in-process
channel that delivers their JSON text messages when the test says: in order, in a random
order, late, or not at all while the worker is not up. Played on real deals, the player
sees what a table with SolverDesk shows: the same verdicts, hints, way back and daily
deal; answers for a position no longer in play are dropped.
"""

from __future__ import annotations

import importlib
import json
import random
import sys

import pytest

import engine
from engine.solver.daily import daily_deal
from engine.solver.rating import rated_deals
from tests.web.fakes import HandClock
from web import forward, labels
from web.controller import Table
from web.deskworker import DeskWorker
from web.forward import ForwardingDesk
from web.storage import MemoryBackend, Storage

CASTLE_DEAL, LOSING_MOVE = 21, engine.Move("t1", "t7")  # (tests/web/test_table_solver.py)
DAY = "2026-03-01"
GENEROUS_MS = 60_000.0  # budgets a busy machine cannot cut short (watches are bounded by positions)
# Real deals, and the moves played on them (each time the (5 i)th legal move in text order).
DEALS = (("beleaguered-castle", CASTLE_DEAL), ("beleaguered-castle", 2), ("doublets", 3),
         ("klondike", 1), ("klondike", 2))
PLAYED = 5


def solver_table(backend: MemoryBackend | None = None, query: str = "") -> Table:
    """A table with SolverDesk, as web/main.py makes it today."""
    table = Table(Storage(backend or MemoryBackend()), now=lambda: 1000.0,
                  rng=random.Random(7))
    generous(table.desk)
    table.start(query)
    return table


def generous(desk) -> None:
    for family in sorted({labels.family(v) for v in engine.VARIANTS}):
        importlib.import_module(f"engine.solver.{family}")
    desk.hint_budget_ms = desk.watch_budget_ms = GENEROUS_MS


class Link:
    """A forwarding table and its worker, with the messages between them held here."""

    def __init__(self, query: str = "", up: bool = True, order: random.Random | None = None,
                 backend: MemoryBackend | None = None, now=lambda: 1000.0) -> None:
        self.to_worker: list[str] = []
        self.to_main: list[str] = []
        self.order = order
        self.table = Table(Storage(backend or MemoryBackend()), now=now,
                           rng=random.Random(7), desk=ForwardingDesk)
        self.desk: ForwardingDesk = self.table.desk
        self.log: list[str] = []  # every message the main desk sent

        def post(text: str) -> None:
            self.to_worker.append(text)
            self.log.append(text)

        self.desk.post = post
        self.worker: DeskWorker | None = None
        self.table.start(query)
        if up:
            self.start_worker()

    def start_worker(self) -> None:
        self.worker = DeskWorker(self.to_main.append, rng=random.Random(3))
        generous(self.worker.desk)
        self.worker.start()

    def deliver(self, which: list[str] | None = None) -> bool:
        """Deliver one message (the oldest, or a random one when ``order`` is set)."""
        queues = [q for q in (which,) if q] if which is not None else \
            [q for q in (self.to_main, self.to_worker if self.worker else []) if q]
        if not queues:
            return False
        queue = queues[self.order.randrange(len(queues))] if self.order else queues[0]
        text = queue.pop(self.order.randrange(len(queue)) if self.order else 0)
        if queue is self.to_main:
            self.desk.receive(text)
        else:
            self.worker.receive(text)
        return True

    def pump(self) -> None:
        """Deliver everything and let the worker work until both sides are idle."""
        for _ in range(200_000):
            if self.deliver():
                continue
            if self.worker is None or not self.worker.busy:
                return
            self.worker.step()
        raise AssertionError("the worker never settled")

    def handle(self, kind: str, data: dict | None = None) -> dict:
        return self.table.handle(kind, data)


def watched(table: Table, link: Link | None = None) -> dict:
    """The watch's answer once done (the page's slices; the worker's work in between)."""
    for _ in range(20_000):
        answer = table.handle("watch", {"ms": 8})
        if answer["done"]:
            return answer
        if link is not None:
            link.pump()
    raise AssertionError("the watch never finished")


def hinted(table: Table, link: Link | None = None) -> dict:
    """Hint pressed, the page's steps until the answer."""
    payload = table.handle("hint")
    for _ in range(20_000):
        if payload["event"] != "thinking":
            return payload
        if link is not None:
            link.pump()
        payload = table.handle("hint_step")
    raise AssertionError("the hint never came")


VERDICT = ("verdict", "unwinnable", "rewind")


def seen(payload: dict, verdict: bool = True) -> dict:
    """What the player sees of a payload (its time aside; the verdict's fields too with
    ``verdict`` false: right after a change the forwarding desk has no answer yet, and the
    watch's next slices bring it)."""
    return {k: v for k, v in payload.items()
            if k != "elapsed_ms" and (verdict or k not in VERDICT)}


def moves_of(game: engine.Game) -> list[engine.Move]:
    return sorted(game.legal_moves(), key=str)


def play(table: Table, move: engine.Move) -> dict:
    return table.handle("play", {"src": move.src, "dst": move.dst, "count": move.count})


# -- the same as SolverDesk ----------------------------------------------------------------


@pytest.mark.parametrize(("variant", "deal"), DEALS)
def test_verdicts_and_hints_match_the_solver_desk_move_by_move(variant: str, deal: int) -> None:
    query = f"?game={variant}&deal={deal}"
    mine, link = solver_table(query=query), Link(query)
    verdicts = set()
    for i in range(PLAYED):
        answer = watched(link.table, link)
        assert answer == watched(mine)
        verdicts.add(answer["verdict"])
        assert seen(hinted(link.table, link)) == seen(hinted(mine))
        legal = moves_of(mine.game)
        if not legal or mine.game.status != "playing":
            break
        move = legal[(5 * i) % len(legal)]
        assert seen(play(link.table, move), False) == seen(play(mine, move), False)
    assert link.table.game.record() == mine.game.record()
    assert verdicts - {None}  # the solver settled positions on the way


def test_a_lost_position_gets_the_same_way_back_and_rewind() -> None:
    query = f"?game=beleaguered-castle&deal={CASTLE_DEAL}"
    mine, link = solver_table(query=query), Link(query)
    for table in (mine, link.table):
        play(table, engine.Move("t0", "t6"))  # the line's first move, then a losing one
        play(table, LOSING_MOVE)
    answer = watched(link.table, link)
    assert answer == watched(mine)
    assert answer["unwinnable"] is True and answer["rewind"] == {"looking": False, "back": 1}
    assert seen(hinted(link.table, link)) == seen(hinted(mine))  # "can no longer be won"
    back = link.handle("rewind")
    assert link.to_main == []  # (no answer of the worker's for the position rewound to)
    assert seen(back) == seen(mine.handle("rewind"))  # "Winnable" at once, as found
    assert back["event"] == "rewind" and back["announce"] == forward.rewind_words(1)
    assert back["verdict"] == "won" and back["unwinnable"] is False
    assert link.table.game.record() == mine.game.record()
    assert watched(link.table, link) == watched(mine)


def test_nothing_to_rewind_says_so_as_the_solver_desk_does() -> None:
    mine, link = solver_table(query="?game=doublets&deal=3"), Link("?game=doublets&deal=3")
    assert seen(link.handle("rewind")) == seen(mine.handle("rewind"))


def test_the_daily_is_found_by_the_worker_kept_in_the_pages_storage_and_dealt() -> None:
    backend = MemoryBackend()
    link = Link(backend=backend)
    calls = 0
    while not (answer := link.handle("daily_find", {"variant": "spider-2", "date": DAY}))["found"]:
        calls += 1
        assert calls < 100
        link.pump()
    assert answer["deal"] == daily_deal("spider-2", DAY) and calls >= 1
    dealt = link.handle("daily", {"variant": "spider-2", "date": DAY})
    mine = solver_table()
    assert seen(dealt) == seen(mine.handle("daily", {"variant": "spider-2", "date": DAY}))
    assert json.loads(backend.items["pp:v1:/dailies"])["deals"] == \
        {"spider-2": {DAY: answer["deal"]}}
    # A link to that daily on another visit is the daily at once, before any worker.
    other = MemoryBackend()
    other.items["pp:v1:/dailies"] = backend.items["pp:v1:/dailies"]
    again = Link(f"?game=spider-2&deal={answer['deal']}&daily={DAY}", up=False, backend=other)
    assert again.table.daily == DAY


def test_a_daily_link_not_known_yet_is_checked_by_the_worker_then_becomes_the_daily() -> None:
    deal = daily_deal("klondike", DAY)
    link = Link(f"?game=klondike&deal={deal}&daily={DAY}")
    first = link.handle("state")
    assert link.table.daily == "" and first["daily_check"] == {"variant": "klondike",
                                                               "date": DAY}
    while (answer := link.handle("daily_find", {"variant": "klondike", "date": DAY}))[
            "event"] == "daily_find":
        assert not answer["found"]
        link.pump()
    assert answer["event"] == "daily" and answer["daily"] == DAY and answer["found"] is True
    assert "daily_check" not in link.handle("state")


def test_a_bad_date_is_refused_without_the_worker() -> None:
    link = Link(up=False)
    assert "YYYY-MM-DD" in link.handle("daily_find", {"date": "2026-02-30"})["error"]
    assert link.handle("daily", {"date": "soon"})["event"] == "illegal"
    assert link.to_worker == [link.to_worker[0]]  # the first sync only


# -- before the worker is up, late answers, answers out of order -----------------------------


def test_before_the_worker_is_up_the_table_plays_with_the_rules_own_hint() -> None:
    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}", up=False)
    answer = link.handle("watch", {"ms": 4})
    assert answer == {"event": "watch", "done": False, "verdict": None, "unwinnable": False,
                      "rewind": None, "waiting": True}
    hint = link.handle("hint")
    assert hint["event"] == "hint" and hint["hint_proven"] is False
    assert engine.Move(*hint["hint"]) == engine.hint(link.table.game)
    assert link.handle("daily_find", {"variant": "klondike", "date": DAY})["found"] is False
    assert link.handle("daily", {"variant": "klondike", "date": DAY})["event"] == "illegal"
    assert "winnable_counts" not in link.handle("settings", {})
    kinds = [json.loads(m)["kind"] for m in link.to_worker]
    assert kinds == ["sync"]  # nothing asked of a worker that is not there
    link.start_worker()  # it comes up: what it missed is its first message
    link.pump()
    assert watched(link.table, link)["verdict"] == "won"
    assert link.handle("hint")["hint_proven"] is True  # known at once, sent with the verdict
    assert link.handle("settings", {})["winnable_counts"]["klondike"] > 0


def test_an_answer_for_a_position_no_longer_in_play_is_dropped() -> None:
    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    link.pump()
    assert link.handle("watch")["verdict"] == "won"
    play(link.table, LOSING_MOVE)
    link.handle("watch")  # the sync goes out
    while link.to_worker:
        link.deliver(link.to_worker)
    while link.worker.busy:  # the worker settles the lost position; its answers wait
        link.worker.step()
    assert any(json.loads(m).get("verdict") == "lost" for m in link.to_main)
    other = moves_of(link.table.game)[0]
    play(link.table, other)  # meanwhile the player moved on
    while link.to_main:
        link.deliver(link.to_main)
    late = link.handle("watch")
    assert late["verdict"] is None and late["done"] is False  # not the old one's, ever
    link.pump()
    assert watched(link.table, link)["verdict"] == "lost"  # (its own: after a lost one)
    link.handle("undo")
    link.handle("undo")
    assert link.handle("watch")["verdict"] == "won"  # the start, as said of it before


def test_a_hint_under_way_is_cancelled_by_a_move() -> None:
    link = Link("?game=spider-4&deal=1")
    link.pump()  # (the watch gives up: unknown)
    play(link.table, next(m for m in link.table.game.legal_moves()))
    assert link.handle("hint")["event"] == "thinking"
    link.handle("stock")
    assert link.handle("hint_step") == {"event": "hint_cancelled"}


def test_a_hint_asked_for_goes_out_once_and_the_watch_does_not_send_it_again() -> None:
    """The worker sends a hint it knows without a search unasked, with the verdict; one the
    player asked for first goes out once too: the watch after it does not repeat it."""
    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    sent: list[dict] = []

    def post(text: str) -> None:
        sent.append(json.loads(text))
        link.to_main.append(text)

    link.worker.post = post
    link.pump()
    assert watched(link.table, link)["verdict"] == "won"
    hints = [m["seq"] for m in sent if m["kind"] == "hint"]
    assert len(hints) == 1  # unasked, with the verdict
    play(link.table, moves_of(link.table.game)[0])
    assert hinted(link.table, link)["event"] == "hint"  # asked before the worker knew it
    link.pump()
    assert watched(link.table, link)["verdict"] is not None
    hints = [m["seq"] for m in sent if m["kind"] == "hint"]
    assert len(hints) == 2 and hints[1] > hints[0]  # once for the new position


def test_a_worker_that_does_not_answer_leaves_the_rules_hint_after_a_while() -> None:
    clock = HandClock()
    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}", now=clock)
    link.worker = None  # it stops answering (its messages are never delivered)
    link.desk.ready = True
    assert link.handle("hint")["event"] == "thinking"
    clock.t += forward.HINT_WAIT_S / 2
    assert link.handle("hint_step")["event"] == "thinking"
    clock.t += forward.HINT_WAIT_S
    payload = link.handle("hint_step")
    assert payload["event"] == "hint" and payload["hint_proven"] is False
    assert engine.Move(*payload["hint"]) == engine.hint(link.table.game)


@pytest.mark.parametrize("order", [1, 2, 3])
def test_messages_in_any_order_end_in_the_same_verdicts(order: int) -> None:
    """Every message delivered in a random order (each side's and between them): the
    newest sync and the newest answers win."""
    query = f"?game=beleaguered-castle&deal={CASTLE_DEAL}"
    mine, link = solver_table(query=query), Link(query, order=random.Random(order))
    for move in (engine.Move("t0", "t6"), LOSING_MOVE):
        for table in (mine, link.table):
            play(table, move)
        link.handle("watch")
    for _ in range(2):
        for table in (mine, link.table):
            table.handle("undo")
        link.handle("watch")
        link.pump()
        assert watched(link.table, link) == watched(mine)
        assert seen(hinted(link.table, link)) == seen(hinted(mine))


# -- new deals ---------------------------------------------------------------------------------


def test_new_deals_come_drawn_ahead_by_the_worker_under_the_settings_in_force() -> None:
    link = Link("?game=klondike&deal=99")
    link.pump()
    link.handle("settings", {"winnable": {"klondike": True}})
    link.pump()
    winnable = set(engine.winnable_deals("klondike"))
    for _ in range(5):
        assert link.handle("new", {"variant": "klondike"})["seed"] in winnable
        link.pump()
    link.handle("settings", {"level": {"klondike": "hard"}})
    link.pump()
    hard = set(rated_deals("klondike", "hard"))
    for _ in range(5):
        assert link.handle("new", {"variant": "klondike"})["seed"] in hard
        link.pump()
    link.handle("settings", {"winnable": {"klondike": False}, "level": {"klondike": None}})
    link.pump()
    ahead = link.desk.draws["klondike"]
    assert ahead[:2] == [False, None]  # drawn again under the settings now in force
    assert link.handle("new", {"variant": "klondike"})["seed"] == ahead[2]


def test_a_new_game_asked_while_the_worker_draws_from_a_list_waits_for_it() -> None:
    """The page asks with ``wait``: "drawing" until the worker's draw came, then that
    deal; the worker draws from a list before it goes on with the watch."""
    link = Link("?game=klondike&deal=99")
    link.pump()
    link.handle("settings", {"winnable": {"klondike": True}, "level": {"klondike": "easy"}})
    game = link.table.game
    assert link.handle("new", {"variant": "klondike", "wait": True}) == {"event": "drawing"}
    assert link.table.game is game  # nothing dealt
    while link.to_worker:
        link.deliver(link.to_worker)
    link.worker.step()  # one slice: the draw comes first
    while link.to_main:
        link.deliver(link.to_main)
    dealt = link.handle("new", {"variant": "klondike", "wait": True})
    assert dealt["event"] == "new" and dealt["seed"] in set(rated_deals("klondike", "easy"))
    # Random deals (with their opening check) are not waited for, nor with no worker.
    link.handle("settings", {"winnable": {"klondike": False}, "level": {"klondike": None}})
    assert link.handle("new", {"variant": "klondike", "wait": True})["event"] == "new"
    down = Link("?game=klondike&deal=99", up=False)
    down.handle("settings", {"winnable": {"klondike": True}})
    assert down.handle("new", {"variant": "klondike", "wait": True})["event"] == "new"


def test_a_random_deal_drawn_ahead_passed_the_opening_check() -> None:
    link = Link("?game=beleaguered-castle&deal=3")
    seeds = iter([25, 2, 3])  # Castle: 25 has no move at all, 2 is lost in 15 positions
    link.worker.table.random_seed = lambda: next(seeds)
    link.worker.desk.opening_check_ms = GENEROUS_MS
    link.pump()
    assert link.handle("new", {})["seed"] == 3


def test_before_any_deal_is_drawn_ahead_a_new_deal_is_random() -> None:
    link = Link("?game=klondike&deal=99", up=False)
    link.handle("settings", {"winnable": {"klondike": True}})
    link.table.random_seed = lambda: 123456
    assert link.handle("new", {})["seed"] == 123456


def test_the_forwarding_desk_imports_no_solver() -> None:
    """In a fresh interpreter: the table with the forwarding desk, played, imports nothing
    of engine/solver, web/desk.py, web/solving.py or web/dailies.py."""
    import subprocess

    program = (
        "import random, sys\n"
        "from web.controller import Table\n"
        "from web.forward import ForwardingDesk\n"
        "from web.storage import MemoryBackend, Storage\n"
        "t = Table(Storage(MemoryBackend()), rng=random.Random(1), desk=ForwardingDesk)\n"
        "t.start('?game=klondike&deal=4')\n"
        "for kind in ('hint', 'watch', 'new', 'rewind', 'settings'):\n"
        "    t.handle(kind)\n"
        "t.handle('daily_find', {'date': '2026-03-01'})\n"
        "print(sorted(m for m in sys.modules if m.startswith(('engine.solver', 'web.desk',"
        " 'web.solving', 'web.dailies'))))\n")
    root = __import__("pathlib").Path(__file__).resolve().parents[2]
    res = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         cwd=root, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"


def test_the_worker_settles_the_position_before_it_reads_the_lists() -> None:
    """The first verdict needs no winnable list (in the page, reading them may wait for
    more of the standard library): "ready", the watch's answers, then the lists' sizes."""
    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    link.deliver(link.to_worker)  # the first sync
    while link.worker.busy:
        link.worker.step()
    kinds = [json.loads(m)["kind"] for m in link.to_main]
    assert kinds[0] == "ready" and "counts" in kinds
    assert kinds.index("counts") > max(i for i, k in enumerate(kinds) if k == "watch")


def test_settings_for_new_deals_are_kept_as_the_solver_desk_keeps_them() -> None:
    """Winnable-only and levels per variant, bad values ignored, with the same result;
    the levels are the rating's own."""
    from engine.solver.rating import LEVELS

    assert forward.LEVELS == LEVELS
    mine, link = solver_table(query="?game=klondike&deal=9"), Link("?game=klondike&deal=9")
    for changes in ({"winnable": {"klondike": True, "nope": True, "doublets": "yes"}},
                    {"level": {"klondike": "hard", "doublets": "impossible", "x": "easy"}},
                    {"level": {"klondike": "easy", "spider-1": "medium"}},
                    {"level": "hard"}, {"winnable": ["klondike"]},
                    {"level": {"klondike": None}, "winnable": {"klondike": False}}):
        assert link.handle("settings", changes)["settings"] == \
            mine.handle("settings", changes)["settings"]


def test_a_return_to_a_position_shows_what_the_worker_said_of_it_at_once() -> None:
    """Undo, redo: the render already has the verdict (then the worker's new answer)."""
    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    link.pump()
    assert watched(link.table, link)["verdict"] == "won"
    play(link.table, LOSING_MOVE)
    link.handle("watch")
    link.pump()
    assert watched(link.table, link)["unwinnable"] is True
    undone = link.handle("undo")  # nothing delivered since
    assert (undone["verdict"], undone["unwinnable"]) == ("won", False)
    assert link.handle("hint")["hint_proven"] is True  # the hint known there, at once
    redone = link.handle("redo")
    assert (redone["verdict"], redone["unwinnable"], redone["rewind"]) == \
        ("lost", True, {"looking": False, "back": 1})
    link.pump()
    assert watched(link.table, link)["verdict"] == "lost"


def test_a_move_along_the_winning_line_or_after_a_loss_has_its_verdict_at_once() -> None:
    """As SolverDesk knows it in the move's own render: nothing delivered between."""
    query = f"?game=beleaguered-castle&deal={CASTLE_DEAL}"
    mine, link = solver_table(query=query), Link(query)
    assert watched(link.table, link)["verdict"] == watched(mine)["verdict"] == "won"
    line = engine.solve(link.table.game.copy(), budget_ms=GENEROUS_MS).moves
    for move in line[:4]:
        rendered = play(link.table, move)
        assert (rendered["verdict"], rendered["unwinnable"]) == ("won", False)
        assert link.handle("watch")["done"] is False  # the worker's own answer still comes
        assert seen(rendered) == seen(play(mine, move))
    off = next(m for m in moves_of(mine.game) if m != line[4])
    rendered = play(link.table, off)  # off the line: not known until the worker says
    assert rendered["verdict"] is None
    play(mine, off)
    link.pump()
    assert watched(link.table, link)["verdict"] == watched(mine)["verdict"]

    lost = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    play(lost.table, LOSING_MOVE)
    assert watched(lost.table, lost)["unwinnable"] is True
    rendered = play(lost.table, moves_of(lost.table.game)[0])
    assert (rendered["verdict"], rendered["unwinnable"]) == ("lost", True)
    assert rendered["rewind"] == {"looking": True, "back": 0}  # the worker finds how far
    lost.pump()
    assert watched(lost.table, lost)["rewind"]["back"] == 2


def test_only_the_newest_positions_are_remembered() -> None:
    link = Link("?game=klondike&deal=1")
    for _ in range(forward.MEMO + 5):
        link.pump()
        watched(link.table, link)
        link.handle("stock")
    link.handle("watch")
    assert len(link.desk.memo) == len(link.desk.memo_order) == forward.MEMO


def test_a_worker_that_could_not_start_leaves_the_table_without_a_solver_not_waiting() -> None:
    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}", up=False)
    assert link.handle("watch")["done"] is False
    link.desk.receive(json.dumps({"kind": "error", "error": "no Pyodide"}))
    assert link.handle("watch") == {"event": "watch", "done": True, "verdict": None,
                                    "unwinnable": False, "rewind": None}
    assert link.handle("hint")["hint_proven"] is False  # the rules' own, at once
    link.table.random_seed = lambda: 4321
    assert link.handle("new", {})["seed"] == 4321


def syncs(messages: list[str]) -> list[dict]:
    return [m for m in map(json.loads, messages) if m["kind"] == "sync"]


def test_a_sync_carries_only_the_moves_the_worker_lacks() -> None:
    """Move after move, undo, redo, another line after an undo: each sync names what the
    worker keeps and the moves after it, and the mirror stays the player's game; the
    last sync of a long game is as small as an early one (counted in bytes)."""
    link = Link("?game=klondike&deal=4")
    link.pump()
    game, sizes = link.table.game, []
    for i in range(120):
        legal = moves_of(game)
        if not legal or game.status != "playing":
            break
        play(link.table, legal[(3 * i) % len(legal)])
        if i % 10 == 9:
            link.handle("undo")
        if i % 20 == 14:
            link.handle("undo")
            link.handle("redo")
        link.handle("watch")
        sent = syncs(link.to_worker)
        sizes += [len(json.dumps(s["moves"])) for s in sent]
        link.pump()
        assert link.worker.table.game.record() == game.record()
        assert link.worker.table.spans == link.table.spans
    assert game.move_count > 60
    assert max(sizes[1:]) < 200  # a few moves a sync (a move and the cards sent home)
    first = json.loads(link.desk.sent)  # (the head: the same few fields at any move)
    assert set(first) == {"head", "spans", "daily"}


def test_a_lost_sync_is_made_good_by_a_whole_one() -> None:
    query = f"?game=beleaguered-castle&deal={CASTLE_DEAL}"
    mine, link = solver_table(query=query), Link(query)
    link.pump()
    for table in (mine, link.table):
        play(table, engine.Move("t0", "t6"))
    link.handle("watch")
    assert [s["kind"] for s in map(json.loads, link.to_worker)] == ["sync"]
    link.to_worker.clear()  # lost on the way
    for table in (mine, link.table):
        play(table, LOSING_MOVE)
    link.handle("watch")
    (sync,) = syncs(link.to_worker)
    assert sync["keep"] == 1 and sync["base"] == sync["seq"] - 1
    play(link.table, moves_of(link.table.game)[0])  # and one more, built on the lost one
    link.handle("watch")
    link.handle("undo")
    link.handle("watch")
    before = len(link.log)
    link.pump()  # the worker answers "resync" (three times): one whole sync follows
    assert [s["keep"] for s in syncs(link.log[before:])] == [0]
    assert link.worker.table.game.record() == link.table.game.record()
    assert watched(link.table, link) == watched(mine)


def test_common_prefix_of_two_lines() -> None:
    a = tuple(range(10))
    assert [forward.common_prefix(a, b) for b in (a, a[:4], a[:4] + (99,), (), (5,))] == \
        [10, 4, 4, 0, 0]
    assert forward.common_prefix(a[:7] + (1, 2), a) == 7


def test_the_workers_answers_are_read_without_the_character_by_character_depth_scan(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's messages are the app's own JSON: the main desk reads them with
    json.loads alone (the depth scan of web/jsontext.py is a Python loop over every
    character under MicroPython, on the main thread while cards fly); what is not a JSON
    object is dropped."""
    from web import jsontext

    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    link.pump()
    scans: list[str] = []
    depth = jsontext.depth

    def counted(text: str) -> int:
        scans.append(text)
        return depth(text)

    monkeypatch.setattr(jsontext, "depth", counted)
    receive = link.desk.receive
    read: list[str] = []

    def listening(text: str) -> None:
        read.append(text)
        before = len(scans)
        receive(text)
        assert len(scans) == before, "a worker's answer went through the depth scan"

    link.desk.receive = listening  # type: ignore[method-assign]
    play(link.table, moves_of(link.table.game)[0])
    link.table.handle("watch")  # (the sync goes out)
    for text in ("not json", "[1, 2]", '"text"', "{" * 50, json.dumps({"kind": 3})):
        link.desk.receive(text)  # dropped, not raised
    link.pump()
    assert watched(link.table, link)["verdict"] in ("won", "lost")
    assert len(read) > 5  # (the worker's own answers came through it too)


def test_a_winning_line_sent_ahead_is_short_and_moves_along_it_stay_known() -> None:
    """The worker sends at most AHEAD moves of its winning line with a watch answer (the
    main thread reads each answer); each new answer brings the line on, so a game played
    along the line well past AHEAD moves stays known winnable at every move."""
    from web import deskworker

    link = Link(f"?game=beleaguered-castle&deal={CASTLE_DEAL}")
    assert watched(link.table, link)["verdict"] == "won"
    sent = [json.loads(t) for t in link.log]  # (what the main desk sent: syncs among them)
    line = engine.solve(link.table.game.copy(), budget_ms=GENEROUS_MS).moves
    assert len(line) > deskworker.AHEAD
    heard: list[dict] = []
    receive = link.desk.receive

    def listening(text: str) -> None:
        heard.append(json.loads(text))
        receive(text)

    link.desk.receive = listening  # type: ignore[method-assign]
    for move in line[:deskworker.AHEAD + 5]:
        rendered = play(link.table, move)
        assert rendered["verdict"] == "won"
        link.pump()
    aheads = [m["ahead"] for m in heard if m.get("kind") == "watch" and "ahead" in m]
    assert aheads and max(len(a) for a in aheads) <= deskworker.AHEAD
    assert sent  # (the syncs went out)
