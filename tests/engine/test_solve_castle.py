"""The Beleaguered Castle solver's shortcuts (engine/solver/castle.py, castle_relaxed.py,
castle_dead.py; docs/solver.md §9).

Every rule that lets the solver skip positions -- the dead-position test, safe moves to
the foundations, the pruned first pass -- is checked on small constructed positions whose
answer a brute-force search over the real rules (docs/rules/beleaguered-castle.md §3 Legal
actions, §5 Ending the game: every legal move, exact positions) settles, and on random small
positions against the same brute force.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import engine
from engine.rules.cards import KING, card_text, make_card
from engine.rules.game import Game
from engine.solver import castle as solve_castle
from engine.solver import castle_dead, castle_relaxed
from tests.engine.helpers import (
    brute_force,
    check_against_brute_force,
    reachable,
    replays_to_win,
)

ROWS = 8


def castle(rows: list[str], foundations: list[str]) -> Game:
    """A position from row texts ("TH KD 6S", bottom card first) and foundation tops
    ("5S", or "" for the Ace alone... any suit's top card)."""
    piles: dict[str, list[str]] = {f"t{i}": text.split() for i, text in enumerate(rows)}
    ranks = "A23456789TJQK"
    for top in foundations:
        suit = "SHDC".index(top[1])
        piles[f"f{suit}"] = [r + top[1] for r in ranks[: ranks.index(top[0]) + 1]]
    return engine.from_position("beleaguered-castle", piles)


def winnable(game: Game, limit: int = 60_000) -> bool | None:
    """05 Ending the game: a state with every foundation up to its King is reachable."""
    return reachable(game, game.rules.is_won, limit)


def row_can_empty(game: Game, limit: int = 60_000) -> bool | None:
    """Some row can be emptied with the real rules."""
    return reachable(game, lambda state: not all(state.piles[:ROWS]), limit)


def node_of(game: Game) -> tuple[tuple[bytes, ...], tuple[int, ...]]:
    """The rows and foundation heights of ``game``, as ``castle_dead.stuck`` takes them."""
    piles = game.state.piles
    return tuple(bytes(p) for p in piles[:ROWS]), tuple(len(p) for p in piles[ROWS:])


def switch_off(monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    """From here on the solver's Castle space has one of its parts (a flag of
    CastleSpace: ``relax``, ``layers``, ``runs``, ``probes``) turned off, besides any turned off
    before."""
    original = solve_castle.space

    def space(rules: object) -> solve_castle.CastleSpace:
        made = original(rules)  # type: ignore[arg-type]
        setattr(made, part, False)
        return made

    monkeypatch.setattr(solve_castle, "space", space)


# --- the dead-position test ------------------------------------------------------------

# 6S can go up (f0 holds 5S) but then every row is blocked for good: Kings need an empty
# row (03: "An empty row accepts any available card"), 8S needs the buried 9S, and the
# Jacks wait on Queens that lie under them.
BLOCKED_AFTER_A_FOUNDATION_MOVE = (
    ["TH KD 6S", "7S KC", "TD KH", "TC KS", "QS JD TS 8S", "9S QD JH", "QH JC", "QC JS"],
    ["5S", "9H", "9D", "9C"])


def test_stuck_sees_past_foundation_moves_when_no_row_can_ever_empty() -> None:
    """docs/rules/beleaguered-castle.md §3, §5.2: a foundation move is still legal (6S), yet no
    row can ever be emptied, so no win: the dead-position test says so although a card can still
    go up, and brute force over the real rules agrees."""
    game = castle(*BLOCKED_AFTER_A_FOUNDATION_MOVE)
    assert any(m.dst == "f0" for m in game.legal_moves())
    assert castle_dead.stuck(*node_of(game))
    assert row_can_empty(game) is False
    assert winnable(game) is False
    assert engine.solve(game, budget_ms=10_000).result == "lost"


def test_stuck_follows_a_suit_up_from_row_to_row() -> None:
    """A card sent up by the estimate while following its suit from another row can leave
    its own row too (a regression: the estimate once kept it, and wrongly called the
    position dead). 03: the Clubs go up 7C 8C 9C TC from three rows."""
    game = castle(["3D 6H TD KC", "JD KH QS", "3H 6D", "8S 9S JC JS", "4H QD QC",
                   "7H 8H 8D TH QH JH KS", "5H 9H KD", "5D TS 9D 7D 7S 4D"],
                  ["6S", "2H", "2D", "TC"])
    assert not castle_dead.stuck(*node_of(game))
    assert row_can_empty(game) is True
    answer = engine.solve(game, budget_ms=10_000)
    assert answer.result == "won" and replays_to_win(game, answer.moves)


def blocked_position(rng: random.Random, cards: tuple[int, int]) -> Game:
    """Random rows, all non-empty, mostly low cards under high ones (so often blocked)."""
    while True:
        heights = [rng.randint(1, KING) for _ in range(4)]
        if cards[0] <= sum(KING - h for h in heights) <= cards[1]:
            break
    rest = [make_card(r, s) for s in range(4) for r in range(heights[s] + 1, KING + 1)]
    rng.shuffle(rest)
    rows: list[list[int]] = [[] for _ in range(ROWS)]
    for i, card in enumerate(rest):
        rows[i if i < ROWS else rng.randrange(ROWS)].append(card)
    for row in rows:
        if rng.random() < 0.6:
            row.sort(key=lambda c: (c & 15) + 4 * rng.random())
    piles = {f"t{i}": [card_text(c) for c in row] for i, row in enumerate(rows)}
    for suit in range(4):
        piles[f"f{suit}"] = [card_text(make_card(r, suit)) for r in range(1, heights[suit] + 1)]
    return engine.from_position("beleaguered-castle", piles)


def test_stuck_never_claims_a_row_that_real_play_can_empty() -> None:
    """The dead-position test is sound: on random blocked positions, whenever it says no
    row can ever be emptied, brute force over the real rules finds none either (and it
    does say so for some of them)."""
    rng = random.Random("castle-stuck")
    claimed = 0
    for _ in range(600):
        game = blocked_position(rng, (26, 40))
        if castle_dead.stuck(*node_of(game)):
            claimed += 1
            assert row_can_empty(game, 20_000) is not True, game.position()
    assert claimed >= 3


# --- the whole solver against brute force ------------------------------------------------


def near_blocked(rng: random.Random) -> Game:
    """A random blocked position the dead-position test calls dead, with one or two pairs
    of cards swapped: often still dead, often winnable, sometimes a real search."""
    while True:
        game = blocked_position(rng, (26, 40))
        if castle_dead.stuck(*node_of(game)):
            break
    piles = {pid: list(game.position()["piles"][pid]) for pid in game.rules.pile_ids}
    rows = [f"t{i}" for i in range(ROWS)]
    for _ in range(rng.randint(1, 2)):
        a, b = rng.sample(rows, 2)
        i, j = rng.randrange(len(piles[a])), rng.randrange(len(piles[b]))
        piles[a][i], piles[b][j] = piles[b][j], piles[a][i]
    return engine.from_position("beleaguered-castle", piles)


def test_answers_agree_with_brute_force_on_small_random_positions() -> None:
    """docs/rules/beleaguered-castle.md §3, §5.2: on random small positions, "won" replays to a
    win and "lost" comes only where brute force over every legal move finds no win; both
    answers occur."""
    rng = random.Random("castle-solver")
    outcomes: list[bool] = []
    for _ in range(50):
        expected = check_against_brute_force(near_blocked(rng), 20_000)
        if expected is not None:
            outcomes.append(expected)
    assert len(outcomes) >= 30
    assert any(outcomes) and not all(outcomes), "wins and losses are both checked"


# --- the score kept with each position ---------------------------------------------------


def test_the_score_kept_with_each_child_is_its_score_worked_out_afresh() -> None:
    """A position carries its score (without the steps), worked out for a child from the
    two rows a move changed and the memo of row scores under its foundation heights; it
    equals the score of the child's rows worked out from nothing by a new space, and the
    direct sum over the rows of the documented terms (empty row -4, card 2, card above a
    lower card of its row +3, else card not one rank below the card under it +1, and the
    depth of each card the foundations take next)."""
    rng = random.Random("castle-score")
    checked = 0

    def direct(rows: list[bytes], heights: tuple[int, ...]) -> int:
        nexts = {suit << 4 | (h + 1) for suit, h in enumerate(heights) if h < KING}
        total = 0
        for row in rows:
            if not row:
                total -= 4
            for i, card in enumerate(row):
                below = row[:i]
                total += 2
                if below and (card & 15) > min(c & 15 for c in below):
                    total += 3
                elif not below or (card & 15) != (below[-1] & 15) - 1:
                    total += 1
                if card in nexts:
                    total += len(row) - 1 - i
        return total

    for _ in range(40):
        game = blocked_position(rng, (14, 30))
        space = solve_castle.space(game.rules)
        _, node = space.settle(game.state)
        for _ in range(12):
            kids = space.children(node)
            for _, child in kids:
                rows = child[0].split(b"\xff")
                fresh = solve_castle.space(game.rules)
                assert child[3] == fresh._static(rows, child[1]) == direct(rows, child[1])
                checked += 1
            if not kids:
                break
            node = rng.choice(kids)[1]
    assert checked >= 300



def test_best_first_expansion_makes_the_children_listed_in_their_order() -> None:
    """The search's own expansion (keys, links and scores made inline, for speed) makes
    the children that ``children()`` lists, in the same order (the frontier's order among
    equal scores follows it), each once, with the same foundations, steps, score and card
    just moved, and an ordering score of the score plus the steps weighed, less LATE_EMPTY
    per empty row and plus LATE_SIDE for a card taken off one a rank above it once
    LAYER_AFTER positions were expanded: checked on positions met on
    the way down deal 108 and random small ones, early and late (runs as steps)."""
    rng = random.Random("castle-expand")
    checked = sides = 0
    starts = [engine.new_game("beleaguered-castle", 108)] + [
        blocked_position(rng, (14, 30)) for _ in range(20)]
    for game in starts:
        for late in (False, True):
            space = solve_castle.space(game.rules)
            space.relax = space.layers = False
            _, node = space.settle(game.state)
            for _ in range(30):
                space._expanded = solve_castle.LAYER_AFTER + 1 if late else 0
                listed = space.children(node)
                space._expanded = solve_castle.LAYER_AFTER + 1 if late else 0
                expected = []
                keys: set[bytes] = set()
                for _, child in listed:
                    key = space.key(child)
                    if key not in keys:
                        keys.add(key)
                        expected.append((key, child[1:]))
                for queue in range(space.queues):
                    out: list = []
                    space._expanded = solve_castle.LAYER_AFTER if late else 0
                    won, _ = space.expand(node, space.key(node), {}, out, queue, False)
                    made = [(ckey, child[1:]) for _, ckey, child in out]
                    assert made == expected[:len(made)]
                    assert won is not None or len(made) == len(expected)
                    nexts = space._memo(node[1])[0]
                    ends = {row[-1]: row for row in node[0].split(b"\xff") if row}
                    for order, ckey, child in out:
                        assert child[0] == ckey
                        empty = ckey.split(b"\xff").count(b"") if late else 0
                        under = ends[child[4]][-2:-1] if child[4] >= 0 else b""
                        side = late and bool(under) and under[0] not in nexts and \
                            (under[0] & 15) == (child[4] & 15) + 1
                        assert order == (child[3] + space._steps[queue] * child[2]
                                         - solve_castle.LATE_EMPTY * empty
                                         + solve_castle.LATE_SIDE * side)
                        sides += side
                    checked += len(out)
                if not listed:
                    break
                node = rng.choice(listed)[1]
    assert checked >= 3000 and sides >= 100

# --- the card just moved is not moved again ------------------------------------------


def test_moving_the_card_just_moved_again_only_reaches_positions_met_already() -> None:
    """After a plain move (no foundation move with it), the solver never moves the same
    card again: wherever it could go from its new place (03: onto a row end one rank
    higher, to an empty row, to its foundation) it could have gone from its old one, so
    every such position is the previous one or one of its other children. Checked on
    random positions by generating those moves anyway and comparing keys."""
    rng = random.Random("castle-moved")
    checked = 0
    for _ in range(60):
        game = blocked_position(rng, (14, 30))
        space = solve_castle.space(game.rules)
        _, root = space.settle(game.state)
        if castle_dead.stuck(root[0].split(b"\xff"), root[1]):
            continue
        kids = space.children(root)
        met = {space.key(root)} | {space.key(child) for _, child in kids}
        for macro, child in kids:
            moved = child[4]
            if moved < 0:
                continue
            assert len(macro) == 1
            dst = macro[0].dst
            rows = child[0].split(b"\xff")  # in pile order: children() keeps it
            assert rows[int(dst[1:])][-1] == moved, "the card just moved is noted"
            # the same position, but as if the card had not just been moved
            again = [c for m, c in space.children(child[:4] + (-1,)) if m[0].src == dst]
            for position in again:
                assert space.key(position) in met, game.position()
                checked += 1
    assert checked >= 50


# --- several orderings, one table of positions -----------------------------------------


def solve_with(monkeypatch: pytest.MonkeyPatch, step_weights: tuple[int, ...],
               turns: tuple[int, ...], seed: int) -> engine.Solution:
    """Deal ``seed`` solved by a castle space with orderings of these step weights, taking
    these turns."""
    def space(rules: object) -> solve_castle.CastleSpace:
        made = solve_castle.CastleSpace(rules, step_weights=step_weights)  # type: ignore[arg-type]
        made.turns = turns
        return made

    monkeypatch.setattr(solve_castle, "space", space)
    return engine.solve(engine.new_game("beleaguered-castle", seed), budget_ms=60_000)


def test_several_orderings_expand_each_position_once_so_a_loss_costs_no_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The search takes turns between orderings (steps from the root weighed 2, 1, 1)
    that share one table of positions met: a proved loss expands exactly the positions
    one ordering alone expands (every reachable one, once), whatever the turns."""
    one = solve_with(monkeypatch, (2,), (), 47)
    assert one.result == "lost" and one.nodes > 500
    for turns in ((), (0, 0, 1), (1, 1, 0), (2, 0, 2)):
        several = solve_with(monkeypatch, solve_castle.STEP_WEIGHTS, turns, 47)
        assert (several.result, several.nodes) == ("lost", one.nodes), turns


def test_a_win_found_by_any_ordering_replays_and_the_default_search_is_five_orderings(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Won lines are rebuilt from the positions' keys alone (the space links no moves);
    they replay to a win whichever ordering found them. The default space has five
    orderings: three from the start, the deepest-first and the greedy ones later."""
    space = solve_castle.space(engine.new_game("beleaguered-castle", 1).rules)
    assert space.queues == 5 and space.turns == (0, 1, 2)
    assert space.later == (solve_castle.LAYER_AFTER, (0, 1, 2, 0, 1, 2, 3, 4))
    for seed in (1, 3, 61):
        for step_weights in (solve_castle.STEP_WEIGHTS, (1,), (2, solve_castle.DEEP)):
            answer = solve_with(monkeypatch, step_weights, (), seed)
            assert answer.result == "won"
            assert replays_to_win(engine.new_game("beleaguered-castle", seed), answer.moves)


def test_the_first_positions_are_those_of_the_three_orderings_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Until LAYER_AFTER positions the search is the three orderings' (steps weighed 2, 1,
    1, in turn): a deal they win sooner is won after the same positions with the same
    moves, so the daily deals and the rated counts below it stay as they were."""
    for seed in (1, 3, 12, 21):
        default = engine.solve(engine.new_game("beleaguered-castle", seed), budget_ms=60_000)
        assert default.result == "won" and default.nodes < solve_castle.LAYER_AFTER
        three = solve_with(monkeypatch, (2, 1, 1), (), seed)
        monkeypatch.undo()
        assert (three.nodes, three.moves) == (default.nodes, default.moves)


def test_later_turns_start_the_new_ordering_from_the_waiting_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the later turns taken after 100 positions, the deepest-first ordering goes on
    from the first ordering's waiting positions: a loss still costs exactly the positions
    of one ordering alone (each is expanded once), and wins replay."""
    def space(rules: object, weights: tuple[int, ...] = solve_castle.STEP_WEIGHTS
              ) -> solve_castle.CastleSpace:
        made = solve_castle.CastleSpace(rules, step_weights=weights)  # type: ignore[arg-type]
        if made.later is not None:
            made.later = (100, made.later[1])
        made.layers = False  # (it would cut the loss short)
        return made

    monkeypatch.setattr(solve_castle, "space", lambda rules: space(rules, (2,)))
    one = engine.solve(engine.new_game("beleaguered-castle", 47), budget_ms=60_000)
    assert one.result == "lost" and one.nodes > 500
    monkeypatch.setattr(solve_castle, "space", space)
    solver = engine.Solver(engine.new_game("beleaguered-castle", 47))
    assert solver.step(60_000) == "lost" and solver.nodes == one.nodes
    assert solver._search._late
    for seed in (12, 21, 23):
        game = engine.new_game("beleaguered-castle", seed)
        answer = engine.solve(game, budget_ms=60_000, max_nodes=100_000)
        assert answer.result == "won" and answer.nodes > 100
        assert replays_to_win(game, answer.moves)


# --- a portfolio: best-first, then a depth-first search beside it (docs/solver.md §4.6) --


def portfolio(monkeypatch: pytest.MonkeyPatch, after: int | None,
              share: tuple[int, int] = (1, 1)) -> None:
    """Make the castle space start its depth-first second search after ``after`` positions
    (None: never), sharing the positions as ``share`` says ((0, 1): depth-first alone); the
    relaxed game off, so that a loss is the searches' own."""
    def space(rules: object) -> solve_castle.CastleSpace:
        made = solve_castle.CastleSpace(rules)  # type: ignore[arg-type]
        made.second_after, made.second_share = after, share
        made.relax = False
        return made

    monkeypatch.setattr(solve_castle, "space", space)


def test_depth_first_expands_each_position_once_so_a_loss_costs_what_best_first_costs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The depth-first search meets each position once, like best-first: alone, it proves
    a loss after exactly the positions best-first expands (every reachable one); beside
    best-first, the loss is proved by whichever search is through first, each having
    expanded at most that many."""
    portfolio(monkeypatch, None)
    alone = engine.solve(engine.new_game("beleaguered-castle", 47), budget_ms=60_000)
    assert alone.result == "lost" and alone.nodes > 500
    portfolio(monkeypatch, 0, (0, 1))
    deep = engine.solve(engine.new_game("beleaguered-castle", 47), budget_ms=60_000)
    assert (deep.result, deep.nodes) == ("lost", alone.nodes)
    for after, share in ((0, (1, 1)), (100, (3, 1)), (alone.nodes // 2, (1, 2))):
        portfolio(monkeypatch, after, share)
        solver = engine.Solver(engine.new_game("beleaguered-castle", 47))
        assert solver.step(60_000) == "lost"
        counts = [solver._search.nodes, solver._second.nodes]  # type: ignore[union-attr]
        assert max(counts) == alone.nodes and sum(counts) == solver.nodes, (after, share)


def test_a_win_found_depth_first_replays_and_slices_change_nothing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A line won by the depth-first search is rebuilt from the keys like any other and
    replays to a win; sliced into steps of a hundredth of a millisecond, the portfolio
    expands the same positions in the same turns."""
    for seed, after, share in ((1, 0, (0, 1)), (3, 50, (1, 1)), (6, 200, (1, 3))):
        portfolio(monkeypatch, after, share)
        game = engine.new_game("beleaguered-castle", seed)
        whole = engine.solve(game, budget_ms=60_000, max_nodes=20_000)
        assert whole.result == "won" and whole.nodes > after
        assert replays_to_win(game, whole.moves)
        solver = engine.Solver(game)
        while solver.step(0.01) is None:
            pass
        assert (solver.result, solver.nodes, solver.moves) == ("won", whole.nodes, whole.moves)


def test_depth_first_answers_agree_with_brute_force_on_small_random_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Depth-first alone proves a loss only where brute force over every legal move finds
    no win, and its wins replay."""
    portfolio(monkeypatch, 0, (0, 1))
    rng = random.Random("castle-solver-deep")
    outcomes: list[bool] = []
    for _ in range(30):
        expected = check_against_brute_force(near_blocked(rng), 20_000)
        if expected is not None:
            outcomes.append(expected)
    assert len(outcomes) >= 15
    assert any(outcomes) and not all(outcomes), "wins and losses are both checked"


def test_a_portfolio_gives_up_the_tables_of_both_searches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped while both searches run, a portfolio hands back the tables of both (the
    second's stack of waiting positions too), then holds none and answers "unknown"."""
    portfolio(monkeypatch, 300, (1, 1))
    solver = engine.Solver(engine.new_game("beleaguered-castle", 47), max_nodes=2_000)
    while solver.step(0.5) is None:
        pass
    assert solver.result == "unknown" and solver.nodes == 2_000
    second = solver._second
    assert second is not None and second.nodes >= 700
    given = solver.released()
    assert sum(len(table) for table in given) > solver.nodes
    assert not any(solver._search.tables()) and not any(second.tables())
    assert solver.released() == [] and solver.release() == []


# --- the layer test: can a card ever go to a foundation again? --------------------------


def foundation_move_reachable(game: Game, limit: int = 60_000) -> bool | None:
    """Some state reachable with the real rules has a legal move to a foundation."""
    rules = game.rules
    return reachable(game, lambda state: any(m.dst.startswith("f") for m in rules.moves(state)),
                     limit)


def with_empty_rows(rng: random.Random, game: Game) -> Game:
    """``game`` with the cards of one or two rows put on the ends of other rows."""
    piles = {pid: list(game.position()["piles"][pid]) for pid in game.rules.pile_ids}
    rows = [f"t{i}" for i in range(ROWS)]
    for _ in range(rng.randint(1, 2)):
        a, b = rng.sample([r for r in rows if piles[r]], 2)
        piles[b] += piles[a]
        piles[a] = []
    return engine.from_position("beleaguered-castle", piles)


def nearly_blocked_some_with_empty_rows(rng: random.Random, count: int) -> Iterator[Game]:
    """``count`` positions of :func:`near_blocked`, every third (the first among them) with
    rows emptied by :func:`with_empty_rows`."""
    for n in range(count):
        game = near_blocked(rng)
        yield with_empty_rows(rng, game) if n % 3 == 0 else game


# Positions the search of deals 24 and 715 met, which the layer test calls dead: no row can
# be called stuck (a row holds one card that can move), yet no card can ever go up.
LAYER_DEAD = [
    (["JS KC TS 3S 7D 9C 8D 7H 6C", "2H 9S 8C 3H KS 6H 5D 4D", "4H", "9H 3C KD QH JC TH",
      "TD", "QD 4S 8H JD TC 8S 7S 6S 5H 4C", "2C 5S QC 9D 6D", "5C 3D 7C KH QS JH"],
     ["2S", "AH", "2D", "AC"]),
    (["3S", "6S 5D 2D JS JD 8S 7D", "7S", "3H 2H 8H QS 5S 4H", "TH 9S KH QD JC TS",
      "QH 2S KS 9H TD KC QC JH", "9D 9C TC 5C 3C 8D 7C",
      "6C 6D 4C KD 4S 8C 7H 6H 5H 4D 3D"],
     ["AS", "AH", "AD", "2C"]),
]


def layer_answer(game: Game, dead: set[bytes] | None = None, limit: int = 1 << 30
                 ) -> tuple[bool | None, int]:
    """layer_dead of ``game``'s rows under its foundations."""
    rows, heights = node_of(game)
    table = castle_dead.layer_table(
        bytes(s << 4 | (h + 1) for s, h in enumerate(heights) if h < KING))
    return castle_dead.layer_dead(rows, table, set() if dead is None else dead, set(), limit)


def test_the_layer_test_answers_exactly_whether_a_card_can_ever_go_to_a_foundation() -> None:
    """docs/rules/beleaguered-castle.md §3: layer_dead says no card can ever go to a
    foundation exactly when brute force over the real rules finds no reachable position
    with a move to one: on positions met in real deals (dead, and lost), and on random
    positions with and without empty rows (where a way up is found). A position found
    dead is dead at once the next time, from the rows kept."""
    for rows, foundations in LAYER_DEAD:
        game = castle(rows, foundations)
        assert not castle_dead.stuck(*node_of(game))
        dead: set[bytes] = set()
        answer, spent = layer_answer(game, dead)
        assert answer is True and spent > 10
        assert layer_answer(game, dead, 1) == (True, 0)
        assert foundation_move_reachable(game) is False
        assert winnable(game) is False and engine.solve(game, 10_000).result == "lost"
    rng = random.Random("castle-layers")
    compared = 0
    for n in range(200):
        game = blocked_position(rng, (26, 40))
        if n % 2:
            game = with_empty_rows(rng, game)
        if any(m.dst.startswith("f") for m in game.legal_moves()):
            continue  # a card can go up now: the search never asks
        expected = foundation_move_reachable(game, 20_000)
        if expected is not None:
            assert layer_answer(game)[0] is (not expected), game.position()
            compared += 1
    assert compared >= 60


def test_the_layer_test_stops_at_its_limit_and_starts_no_search_twice() -> None:
    """Out of positions, layer_dead says nothing (None) and notes the rows it met, so a
    search from any of them answers None at once."""
    game = engine.new_game("beleaguered-castle", 24)
    space = solve_castle.space(game.rules)
    _, (packed, heights, *_) = space.settle(game.state)
    rows = packed.split(b"\xff")
    table = castle_dead.layer_table(
        bytes(s << 4 | (h + 1) for s, h in enumerate(heights) if h < KING))
    tried: set[bytes] = set()
    assert castle_dead.layer_dead(rows, table, set(), tried, 1) == (None, 1)
    assert len(tried) > 1
    assert castle_dead.layer_dead(rows, table, set(), tried, 1 << 30) == (None, 0)


def test_the_layer_test_proves_deal_24_lost_in_under_half_the_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 24 is lost: best-first alone expands all 92,638 positions it can reach (every
    one with 6 cards home, from the first few hundred on); with the layer test, a search
    from one of them finds no card can ever go up again, and every position whose rows
    that search met is dead at once (after 33,455 positions with the five orderings and
    empty rows weighed as in the first positions; the greedy one's turns put off the
    positions that the layer test kills sooner). With empty rows weighed more later
    (LATE_EMPTY) and a card taken off one a rank above it put further back (LATE_SIDE),
    the orderings reach those positions later still: 55,534."""
    game = engine.new_game("beleaguered-castle", 24)
    switch_off(monkeypatch, "relax")  # (the relaxed game proves it lost sooner still)
    answer = engine.solve(game, budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("lost", 55_534)
    monkeypatch.setattr(solve_castle, "LATE_EMPTY", 0)
    answer = engine.solve(game, budget_ms=600_000)
    assert answer.result == "lost" and answer.nodes < 92_638 // 2
    switch_off(monkeypatch, "layers")  # (the relaxed game stays off)
    alone = engine.solve(game, budget_ms=600_000)
    assert (alone.result, alone.nodes) == ("lost", 92_638)


def test_with_the_layer_test_from_the_start_answers_agree_with_brute_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The layer test and the runs moved as one step on from the first position: the solver
    still proves a loss only where brute force over every legal move finds no win, and its
    wins replay."""
    monkeypatch.setattr(solve_castle, "LAYER_AFTER", 0)
    rng = random.Random("castle-solver-layers")
    outcomes: list[bool] = []
    for game in nearly_blocked_some_with_empty_rows(rng, 40):
        expected = check_against_brute_force(game, 20_000)
        if expected is not None:
            outcomes.append(expected)
    assert len(outcomes) >= 20
    assert any(outcomes) and not all(outcomes), "wins and losses are both checked"


# --- the relaxed game: most cards known by their rank alone ------------------------------


def relaxed_answer(game: Game, k: int, limit: int = 40_000) -> bool | None:
    """The relaxed game of ``game``'s position, with the next ``k`` cards of each suit known
    (True: a relaxed win; None: not told within ``limit`` relaxed positions)."""
    return castle_relaxed.Relaxed(*node_of(game), k).run(limit)[0]


def test_the_relaxed_game_with_every_card_known_is_the_real_game() -> None:
    """docs/rules/beleaguered-castle.md §3, §5: with every card known by its suit (k = 13)
    the relaxed game's moves are the real ones, so it is won exactly where brute force over
    the real rules finds a win: on random positions with and without empty rows, won and
    lost both."""
    rng = random.Random("castle-relaxed-exact")
    outcomes: list[bool] = []
    for n in range(50):
        game = near_blocked(rng) if n % 2 else blocked_position(rng, (14, 26))
        if n % 3 == 0:
            game = with_empty_rows(rng, game)
        expected = brute_force(game, 10_000)
        if expected is not None:
            assert relaxed_answer(game, KING, 1 << 30) is expected, game.position()
            outcomes.append(expected)
    assert len(outcomes) >= 30
    assert sum(outcomes) >= 5 and outcomes.count(False) >= 5


def test_the_relaxed_game_never_calls_a_winnable_position_lost() -> None:
    """With fewer cards known the relaxed game allows every real move and more, so a
    relaxed game searched to the end without a win means brute force finds none either;
    knowing more cards can only lose relaxed wins (each k's game maps onto the smaller
    k's). The smaller k's do call some lost positions lost."""
    rng = random.Random("castle-relaxed-sound")
    proved = compared = 0
    for game in nearly_blocked_some_with_empty_rows(rng, 60):
        expected = brute_force(game, 10_000)
        if expected is None:
            continue
        answers = [relaxed_answer(game, k) for k in (0, 1, 2, 3)]
        for coarse, fine in zip(answers, answers[1:], strict=False):
            # a finer game's win is a coarser one's
            assert coarse is not False or fine is not True, game.position()
        if False in answers:
            assert expected is False, game.position()
            proved += 1
        compared += 1
    assert compared >= 30 and proved >= 5


def test_the_relaxed_game_stops_at_its_limit_and_goes_on_where_it_stopped() -> None:
    """Out of positions the relaxed game says nothing (None); run again it goes on, and in
    any slices it gives the answer and the positions of one run (deal 124's root, lost in
    the game with 2 cards of each suit known)."""
    game = engine.new_game("beleaguered-castle", 124)
    space = solve_castle.space(game.rules)
    _, (packed, heights, *_) = space.settle(game.state)
    whole = castle_relaxed.Relaxed(packed.split(b"\xff"), heights, 2)
    answer, spent = whole.run(1 << 30)
    assert answer is False and spent > 1000
    sliced = castle_relaxed.Relaxed(packed.split(b"\xff"), heights, 2)
    total = 0
    while True:
        answer, used = sliced.run(97)
        total += used
        if answer is not None:
            break
        assert used == 97
    assert (answer, total) == (False, spent)


def test_the_relaxed_game_proves_deal_124_lost_and_changes_no_win(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 124's search without the relaxed game is undecided after 150,000 positions (and
    600,000); with it, the root's relaxed game of 2 cards known a suit is searched beside
    the search from its RELAX_AFTER-th position and proves it lost (3,804 relaxed positions,
    after 2,272 of the search), sliced or whole. A deal it does not decide is searched
    exactly as without it: deal 979 is won after the same 6,853 positions, with the same
    moves."""
    game = engine.new_game("beleaguered-castle", 124)
    answer = engine.solve(game, budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("lost", 2_272)
    solver = engine.Solver(game)
    while solver.step(5) is None:
        pass
    assert (solver.result, solver.nodes) == ("lost", 2_272)
    won = engine.solve(engine.new_game("beleaguered-castle", 979), budget_ms=600_000)
    assert won.result == "won"
    switch_off(monkeypatch, "relax")
    assert engine.solve(game, budget_ms=600_000, max_nodes=150_000).result == "unknown"
    alone = engine.solve(engine.new_game("beleaguered-castle", 979), budget_ms=600_000)
    assert (alone.result, alone.nodes, alone.moves) == ("won", won.nodes, won.moves)


def test_with_the_relaxed_game_from_the_start_answers_agree_with_brute_force(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The relaxed game tried from the first position, as often as the search expands one,
    with every k from 0 (and the other dead-position tests off, so that it is the relaxed
    game that proves losses): the solver proves a loss only where brute force over every
    legal move finds no win (some through the relaxed game), and its wins replay."""
    rng = random.Random("castle-solver-relaxed")
    games = [near_blocked(rng) for _ in range(40)]  # (made with the dead-position test)
    games = [with_empty_rows(rng, game) if n % 3 == 0 else game for n, game in enumerate(games)]
    monkeypatch.setattr(solve_castle, "stuck", lambda rows, heights: False)
    monkeypatch.setattr(solve_castle, "LAYER_AFTER", 1 << 30)
    monkeypatch.setattr(solve_castle, "RELAX_AFTER", 0)
    monkeypatch.setattr(solve_castle, "RELAX_EVERY", 1)
    monkeypatch.setattr(solve_castle, "RELAX_RATIOS", (0.1,))
    monkeypatch.setattr(solve_castle, "RELAX_KS", (0, 1, 2, 3))
    outcomes: list[bool] = []
    relaxed = 0
    for game in games:
        expected = brute_force(game, 10_000)
        if expected is None:
            continue
        solver = engine.Solver(game)
        while solver.step(1000) is None:
            pass
        answer = solver.solution()
        assert answer.result == ("won" if expected else "lost"), game.position()
        if expected:
            assert replays_to_win(game, answer.moves)
        relaxed += solver.space.lost
        outcomes.append(expected)
    assert len(outcomes) >= 20
    assert any(outcomes) and not all(outcomes), "wins and losses are both checked"
    assert relaxed >= 3, "some losses come from the relaxed game"


def test_the_relaxed_games_take_eight_positions_to_each_of_the_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 468's root is lost in the relaxed game with 2 cards of each suit known (8,056
    relaxed positions). The relaxed games may spend eight positions to each the search
    expands from its RELAX_AFTER-th on (RELAX_RATIOS): the deal is lost after 2,572
    positions; with as many as the search expands from its 5,000th on (as before), after
    17,504."""
    assert solve_castle.RELAX_RATIOS == (0.125,) and solve_castle.RELAX_KS == (2, 3, 4)
    assert solve_castle.RELAX_AFTER == 1024
    game = engine.new_game("beleaguered-castle", 468)
    answer = engine.solve(game, budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("lost", 2_572)
    monkeypatch.setattr(solve_castle, "RELAX_RATIOS", (1, 4))
    monkeypatch.setattr(solve_castle, "RELAX_AFTER", 5000)
    answer = engine.solve(game, budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("lost", 17_504)


# --- runs moved through the empty rows as one step ----------------------------------------


def test_a_run_moved_through_the_empty_rows_is_one_step_of_real_moves() -> None:
    """docs/rules/beleaguered-castle.md §3 (one card at a time, onto a card one rank higher
    whatever its suit, any card into an empty row): once a search has expanded LAYER_AFTER
    positions, a run of cards each a rank below the one under it moves as one step, up to
    2 ** e cards onto a row end with e empty rows (2 ** (e - 1) into one of them). At every
    position of deal 419's won line, each step's moves play under the real rules to the
    step's position; runs of 2, 3 and 4 cards (3, 5 and 9 moves) are among them, and none
    before LAYER_AFTER positions."""
    game = engine.new_game("beleaguered-castle", 419)
    answer = engine.solve(game, budget_ms=600_000, max_nodes=60_000)
    assert answer.result == "won"
    position = game.copy()
    lengths: dict[int, int] = {}
    for move in answer.moves:
        space = solve_castle.space(position.rules)
        auto, node = space.settle(position.state)
        settled = position.copy()
        for each in auto:
            settled.play(each)
        early = {space.key(child) for _, child in space.children(node)}
        space._expanded = solve_castle.LAYER_AFTER + 1
        steps = space.children(node)
        for macro, child in steps:
            after = settled.copy()
            for each in macro:
                after.play(each)
            piles = after.state.piles
            assert tuple(bytes(p) for p in piles[:ROWS]) == tuple(child[0].split(b"\xff"))
            assert tuple(len(p) for p in piles[ROWS:]) == child[1]
            row_moves = len(macro) - sum(m.dst.startswith("f") for m in macro)
            if row_moves > 1:
                lengths[row_moves] = lengths.get(row_moves, 0) + 1
                assert child[4] == -1, "no card just moved is noted after a run"
                assert space.key(child) not in early
            else:
                assert space.key(child) in early
        position.play(move)
    assert {3, 5, 9} <= lengths.keys() and min(lengths[n] for n in (3, 5, 9)) >= 10


def test_runs_as_one_step_win_deal_419_within_a_fifth_of_the_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 419 is won after 11,393 positions with runs moved as one step; searched one card
    at a time it is won after 56,929 (without the runs and the weight of empty rows that
    came with them, after 210,897)."""
    game = engine.new_game("beleaguered-castle", 419)
    answer = engine.solve(game, budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("won", 11_393)
    assert replays_to_win(game, answer.moves)
    switch_off(monkeypatch, "runs")
    by_card = engine.solve(game, budget_ms=600_000, max_nodes=60_000)
    assert (by_card.result, by_card.nodes) == ("won", 56_929)
    assert replays_to_win(game, by_card.moves)


def test_empty_rows_weigh_more_later_and_deal_691_is_won_within_6_000_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a search has expanded LAYER_AFTER positions, each empty row of a child made takes
    LATE_EMPTY more off its place in the orderings (with runs moved through the empty rows,
    each doubles what a step can carry): deal 691 is won after 5,745 positions; with the
    empty rows weighed as before, it is undecided after 60,000 (won after 177,811). The
    score a position keeps is unchanged, and the first LAYER_AFTER positions too (see
    test_the_first_positions_are_those_of_the_three_orderings_alone)."""
    assert solve_castle.LATE_EMPTY == 8
    game = engine.new_game("beleaguered-castle", 691)
    answer = engine.solve(game, budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("won", 5_745)
    assert replays_to_win(game, answer.moves)
    monkeypatch.setattr(solve_castle, "LATE_EMPTY", 0)
    switch_off(monkeypatch, "probes")  # (one of them wins it within 60,000 positions)
    assert engine.solve(game, budget_ms=600_000, max_nodes=60_000).result == "unknown"



def test_cards_taken_off_one_a_rank_above_wait_later_and_deal_570_is_won_sooner(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a search has expanded LAYER_AFTER positions, a child made by moving a card off a
    card one rank above it (onto another such card, which leaves the score as it was, or
    into an empty row) waits LATE_SIDE further back in the orderings, unless the card it
    uncovers is one a foundation takes next: deal 570 is won after 14,003 positions, not
    34,985, and the moves replay. The scores decide the order only (§6): deal 24, lost,
    is lost either way."""
    assert solve_castle.LATE_SIDE == 16
    game = engine.new_game("beleaguered-castle", 570)
    answer = engine.solve(game, budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("won", 14_003)
    assert replays_to_win(game, answer.moves)
    lost = engine.solve(engine.new_game("beleaguered-castle", 24), budget_ms=600_000)
    monkeypatch.setattr(solve_castle, "LATE_SIDE", 0)
    assert (engine.solve(game, budget_ms=600_000).nodes) == 34_985
    assert lost.result == "lost" and engine.solve(
        engine.new_game("beleaguered-castle", 24), budget_ms=600_000).result == "lost"

# --- probes: short depth-first searches in orders of their own ----------------------------


def test_a_probe_wins_deal_433_early_and_the_win_replays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a search has expanded PROBE_AFTER positions, every PROBE_EVERY positions a
    depth-first search from the root with its own table and its own order of the moves
    (at most PROBE_LIMIT positions) looks for a win. Deal 433, which best-first wins after
    117,912 positions, is won by a probe after 8,284; the moves replay under the real rules,
    and the answer is the same sliced."""
    game = engine.new_game("beleaguered-castle", 433)
    solver = won_sliced_and_whole(game, 8_284)
    switch_off(monkeypatch, "probes")
    assert engine.solve(game, max_nodes=solver.nodes * 3).result == "unknown"


def won_sliced_and_whole(game: Game, nodes: int) -> engine.Solver:
    """Check that the game is won after ``nodes`` positions, that the moves replay under
    the real rules, and that the answer is the same sliced; the sliced solver."""
    answer = engine.solve(game, budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("won", nodes)
    assert replays_to_win(game, answer.moves)
    solver = engine.Solver(game)
    while solver.step(5.0) is None:
        pass
    assert (solver.result, solver.nodes, solver.moves) == ("won", answer.nodes, answer.moves)
    return solver


def test_a_probe_runs_a_piece_at_a_time_and_finds_what_it_finds_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A probe is spread over the search's expansions, at most PROBE_PIECE positions at each
    (a whole one would take one slice of the page some ms): its answer is the same as run
    in one go, so deal 433 is won with the same moves, PROBE_LIMIT positions apart at most."""
    pieces: list[int] = []
    run = solve_castle.SpaceSearch.run

    def counted(self: solve_castle.SpaceSearch, deadline: float, quota: int) -> int:
        if self.space.probes is False and isinstance(self.space, solve_castle.CastleSpace):
            pieces.append(quota)
        return run(self, deadline, quota)

    game = engine.new_game("beleaguered-castle", 433)
    with monkeypatch.context() as patch:
        patch.setattr(solve_castle.SpaceSearch, "run", counted)
        pieced = engine.solve(game, budget_ms=600_000)
    assert pieced.result == "won" and pieces and max(pieces) <= solve_castle.PROBE_PIECE
    assert len(pieces) > solve_castle.PROBE_LIMIT // solve_castle.PROBE_PIECE  # many pieces
    monkeypatch.setattr(solve_castle, "PROBE_PIECE", solve_castle.PROBE_LIMIT)
    whole = engine.solve(game, budget_ms=600_000)
    assert whole.moves == pieced.moves
    assert 0 <= pieced.nodes - whole.nodes < solve_castle.PROBE_LIMIT


def test_probes_change_no_position_of_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The probes have tables and spaces of their own: where none wins, the search expands
    the same positions with them as without (a loss costs the same; a win found by the
    search itself comes after as many positions, with the same moves). (The relaxed game,
    which proves deal 24 lost before the first probe, is off.)"""
    switch_off(monkeypatch, "relax")
    for seed, limit in ((24, 200_000), (419, 60_000)):
        game = engine.new_game("beleaguered-castle", seed)
        with_probes = engine.Solver(game, limit)
        with_probes.step(600_000)
        assert with_probes.space._probes > 0  # type: ignore[attr-defined]
        assert with_probes.space.found is None
        with monkeypatch.context() as patch:
            switch_off(patch, "probes")
            alone = engine.solve(game, budget_ms=600_000, max_nodes=limit)
        assert (with_probes.result, with_probes.nodes, with_probes.moves) == (
            alone.result, alone.nodes, alone.moves)


def test_a_probe_is_a_depth_first_search_in_an_order_of_its_own() -> None:
    """Probe i orders the moves of each position by their promise made worse at random by
    up to its jitter (PROBE_JITTERS), seeded by i: two probes of one number make the same
    children in the same order, other numbers other orders, and the children are the same
    as the search's own (checked on positions on the way down deal 108)."""
    game = engine.new_game("beleaguered-castle", 108)
    space = solve_castle.space(game.rules)
    _, node = space.settle(game.state)
    rng = random.Random("castle-probe")
    differ = 0
    for _ in range(40):
        space._jitter = None
        listed = space.children(node)
        if not listed:
            break
        orders = []
        for seed in (0, 0, 1, 2, 3):
            space._jitter = (random.Random(seed), 30)
            orders.append([space.key(child) for _, child in space.children(node)])
        assert orders[0] == orders[1]
        assert all(sorted(order) == sorted(space.key(child) for _, child in listed)
                   for order in orders)
        differ += len({tuple(order) for order in orders}) > 1
        space._jitter = None
        onward = [child for _, child in listed if space.children(child)]
        if not onward:
            break
        node = rng.choice(onward)
    assert differ >= 10


def test_probes_come_every_probe_every_positions_then_further_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first probe comes at the first multiple of PROBE_EVERY past PROBE_AFTER positions
    expanded (dead ones not counted), the next PROBE_LATER[0] ones PROBE_EVERY apart each,
    the ones after PROBE_LATER[1] apart; follow-ups take their turns among them."""
    at: list[int] = []
    original = solve_castle.CastleSpace._probe

    def probe(self: solve_castle.CastleSpace) -> None:
        at.append(self._expanded)
        original(self)

    monkeypatch.setattr(solve_castle.CastleSpace, "_probe", probe)
    engine.solve(engine.new_game("beleaguered-castle", 108), budget_ms=600_000,
                 max_nodes=40_000)
    every, (count, later) = solve_castle.PROBE_EVERY, solve_castle.PROBE_LATER
    assert at[0] == (solve_castle.PROBE_AFTER // every + 1) * every
    gaps = [b - a for a, b in zip(at, at[1:], strict=False)]
    assert gaps[:count] == [every] * count
    assert len(gaps) > count and set(gaps[count:]) == {later}


# --- probes of the finest relaxed game ---------------------------------------------------


def test_a_relaxed_game_in_a_random_order_answers_as_in_its_own() -> None:
    """A relaxed game searched in a random order of its own (a probe of RelaxedProbed) is
    the same complete search: run to the end it answers as the plain order does, on random
    positions with and without empty rows; and a probe's win of a finer game is a win of
    every coarser one (which is what lets RelaxedProbed answer "won" for them)."""
    rng = random.Random("castle-relaxed-shuffled")
    told = finer = 0
    for n, game in enumerate(nearly_blocked_some_with_empty_rows(rng, 40)):
        for k in (1, 2, 3):
            plain = relaxed_answer(game, k, 1 << 30)
            shuffled = castle_relaxed.Relaxed(*node_of(game), k)
            shuffled._shuffle = random.Random(n).shuffle
            assert shuffled.run(1 << 30)[0] is plain, game.position()
            told += 1
        probe = castle_relaxed.Relaxed(*node_of(game), 3)
        probe._shuffle = random.Random(n).shuffle
        if probe.run(200)[0]:
            assert relaxed_answer(game, 1, 1 << 30) is True
            assert relaxed_answer(game, 2, 1 << 30) is True
            finer += 1
    assert told == 120 and finer >= 5


def test_a_probe_of_the_finest_relaxed_game_ends_the_relaxed_search_of_a_won_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 415's root needs 1,097 relaxed positions for k = 2, 72,944 for k = 3 and
    221,990 for k = 4, all won: nothing to prove. The probes of the k = 4 game
    (RELAX_PROBES) win it after 12,615 relaxed positions in all, and then no relaxed game
    is searched any more (without them, 50,000 are spent within 20,000 positions of the
    search); the search's positions are the same either way."""
    game = engine.new_game("beleaguered-castle", 415)
    solver = engine.Solver(game, 20_000)
    while solver.step(1000) is None:
        pass
    assert solver.space._probed is not None and solver.space._probed.won
    assert solver.space._proofs.spent == 12_615
    monkeypatch.setattr(solve_castle, "RELAX_PROBES", (0, 0, 0))
    plain = engine.Solver(game, 20_000)
    while plain.step(1000) is None:
        pass
    assert plain.space._probed is None and plain.space._proofs.spent > 50_000
    assert (plain.result, plain.nodes) == (solver.result, solver.nodes)


@pytest.mark.parametrize(("seed", "nodes"), [(634, 6_888), (784, 8_452), (596, 9_580)])
def test_the_relaxed_game_proves_the_deals_only_it_proves_within_a_second(
        seed: int, nodes: int) -> None:
    """Deals 634 (k = 2: 29,721 relaxed positions), 784 (k = 3: 28,005) and 596 (k = 4:
    35,207) are lost only by the relaxed game; with eight relaxed positions to each of the
    search's from its RELAX_AFTER-th (RELAX_RATIOS, until RELAX_FAST) and the probes of
    RELAX_PROBES taking half beside k = 3 and 4, within what a second of CPU expands
    (before: 31,000 to 56,000 positions and more, with a quarter from the 5,000th)."""
    answer = engine.solve(engine.new_game("beleaguered-castle", seed), budget_ms=600_000)
    assert (answer.result, answer.nodes) == ("lost", nodes)


# --- the relaxed games' shares after a hard win; follow-ups of probes -----------------------


def test_the_relaxed_games_go_slow_at_once_after_one_was_won_slowly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 899's root needs 20,307 relaxed positions to win the k = 2 game (more than
    RELAX_HARD): the games after it then take a quarter of the search's positions
    (RELAX_SLOW) rather than eight relaxed positions to each until RELAX_FAST. By its win,
    21,698 relaxed positions are spent rather than 33,244, and the search's positions are
    the same."""
    game = engine.new_game("beleaguered-castle", 899)
    solver = engine.Solver(game, 20_000)
    while solver.step(1000) is None:
        pass
    assert solver.space._hard > solve_castle.RELAX_HARD  # type: ignore[attr-defined]
    assert solver.space._proofs.spent == 21_698  # type: ignore[attr-defined]
    monkeypatch.setattr(solve_castle, "RELAX_HARD", 1 << 30)
    fast = engine.Solver(game, 20_000)
    while fast.step(1000) is None:
        pass
    assert fast.space._proofs.spent == 33_244  # type: ignore[attr-defined]
    assert (fast.result, fast.nodes, fast.moves) == (solver.result, solver.nodes, solver.moves)
    assert (solver.result, solver.nodes) == ("won", 14_016)


def test_a_relaxed_win_from_a_position_reached_is_a_relaxed_win_of_the_start() -> None:
    """What lets a follow-up stop the root's relaxed games: a position reached by real moves
    is reached in the start's relaxed game too (with the start's known cards), so its
    relaxed win is one of the start. Checked on random positions with and without empty
    rows, each walked a few real moves at random, every game searched to the end."""
    rng = random.Random("castle-follow-relaxed")
    wins = 0
    for game in nearly_blocked_some_with_empty_rows(rng, 60):
        rows, heights = node_of(game)
        state = game.state
        for _ in range(rng.randrange(1, 6)):
            moves = game.rules.moves(state)
            if not moves:
                break
            state = game.rules.apply(state, rng.choice(moves))
        there = tuple(bytes(p) for p in state.piles[:ROWS]), tuple(
            len(p) for p in state.piles[ROWS:])
        for k in (1, 2, 3):
            far = castle_relaxed.Relaxed(*there, k, heights)
            far._shuffle = random.Random(k).shuffle
            if far.run(1 << 30)[0]:
                assert castle_relaxed.Relaxed(rows, heights, k).run(1 << 30)[0] is True
                wins += 1
    assert wins >= 20


def test_follow_ups_win_deal_360_early_and_the_win_replays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """When a probe ends without a win and the finest relaxed game is won from the position
    it reached with the most cards home (within FOLLOW_CHECK relaxed positions), the root's
    relaxed games stop and the next FOLLOW_PROBES probes start from that position. Deal 360, which
    best-first wins after 42,429 positions, is won by one after 21,808: its moves, those to
    that position and the follow-up's, replay under the real rules, sliced or whole. (In the
    orderings before LATE_SIDE: with it, best-first wins deal 360 itself after 21,670.)"""
    game = engine.new_game("beleaguered-castle", 360)
    monkeypatch.setattr(solve_castle, "LATE_SIDE", 0)
    solver = won_sliced_and_whole(game, 21_808)
    assert not solver.space._proofs.open  # type: ignore[attr-defined]
    monkeypatch.setattr(solve_castle, "FOLLOW_PROBES", 0)
    assert engine.solve(game, budget_ms=600_000, max_nodes=30_000).result == "unknown"


# --- the tables that stand in for tests made per position ------------------------------


def test_the_relaxed_game_sends_up_what_its_rule_lets_go_to_each_foundation() -> None:
    """The relaxed game's table of the cards each foundation takes, under any heights, is
    its rule: a card known by its suit goes to its own foundation when that holds the rank
    below; a card known by its rank alone to each foundation (lowest suit first) that holds
    the rank below and whose card of that rank is not a known one."""
    rng = random.Random("castle-relaxed-takes")
    for _ in range(300):
        root = tuple(rng.randrange(KING + 1) for _ in range(4))
        k = rng.randrange(KING + 1)
        game = castle_relaxed.Relaxed([b""] * ROWS, root, k)
        known = {suit << 4 | rank for suit in range(4)
                 for rank in range(root[suit] + 1, min(KING, root[suit] + k) + 1)}
        heights = tuple(min(KING, h + rng.randrange(3)) for h in root)
        takes = game._homes(heights)
        for card in range(256):
            if card & castle_relaxed._KNOWN:
                suit, rank = card >> 4 & 3, card & 15
                rule = ((suit,) if suit << 4 | rank in known and heights[suit] == rank - 1
                        and card < 0x80 else ())
            else:
                rule = tuple(suit for suit in range(4) if card == (card & 15) and
                             1 <= card <= KING and suit << 4 | card not in known
                             and heights[suit] == card - 1)
            assert takes.get(card, ()) == rule, (root, k, heights, card)


def test_the_safe_cards_kept_per_heights_are_those_settle_sends_up() -> None:
    """The cards kept as safe to send up under some foundation heights are the cards the
    foundations take next whose rank is at most 2 above the lowest foundation: those that
    _settle sends up when one lies at a row's end."""
    game = engine.new_game("beleaguered-castle", 1)
    space = solve_castle.space(game.rules)
    rng = random.Random("castle-safe")
    for _ in range(300):
        heights = tuple(rng.randrange(KING + 1) for _ in range(4))
        nexts, _, safe = space._memo(heights)
        for card in nexts:
            rows = [bytes((card,))] + [b""] * (ROWS - 1)
            sent = solve_castle._settle(rows, list(heights), space._to_foundation)
            assert (card in safe) is bool(sent), (heights, card)
        assert set(safe) <= set(nexts)


def test_the_layer_test_answers_the_same_for_the_rows_joined() -> None:
    """layer_dead takes the rows as a list or joined by the separator (as a position keeps
    them), with the same answer and positions spent."""
    rng = random.Random("castle-layers-joined")
    for n in range(60):
        game = blocked_position(rng, (26, 40))
        if n % 2:
            game = with_empty_rows(rng, game)
        rows, heights = node_of(game)
        table = castle_dead.layer_table(
            bytes(s << 4 | (h + 1) for s, h in enumerate(heights) if h < KING))
        for limit in (1, 50, 1 << 30):
            assert (castle_dead.layer_dead(b"\xff".join(rows), table, set(), set(), limit)
                    == castle_dead.layer_dead(rows, table, set(), set(), limit))
