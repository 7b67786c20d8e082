"""The Klondike solver's shortcuts (engine/solver/klondike.py; docs/solver.md §7).

Rules: docs/rules/klondike.md (§2: build down in alternating colours, only a King enters an
empty column, one card turned at a time, foundations built up by suit; §4: unlimited recycles;
§9 row 3: a card may come back from a foundation). Every shortcut that lets the solver skip
positions is checked here against a brute-force search over the real rules (every legal move,
exact positions) or against the search without the shortcut: Twos played home at once, the
complete pass that re-expands only what the pruned pass left out, and the bit-mask
dead-position test.
"""

from __future__ import annotations

import random

import pytest

import engine
from engine.rules.cards import KING, card_text, make_card
from engine.rules.game import Game
from engine.rules.klondike import COLUMNS, F0, STOCK, WASTE, alternating_run
from engine.rules.state import State
from engine.solver.klondike import KlondikeSpace
from engine.solver.klondike_dead import dead
from engine.solver.search import Solver
from tests.engine.helpers import check_against_brute_force, klondike_from, replays_to_win
from tests.engine.helpers import reachable as _reachable


def brute_force(game: Game, limit: int = 100_000) -> bool | None:
    """Whether the real rules reach a win (columns in any order count once)."""
    return _reachable(game, game.rules.is_won, limit)


def suit_run(suit: int, low: int, high: int) -> list[str]:
    return [card_text(make_card(r, suit)) for r in range(low, high + 1)]


# --- Twos are always safe ------------------------------------------------------------


def test_a_two_goes_home_at_once_though_an_ace_of_the_other_colour_is_out() -> None:
    """docs/rules/klondike.md §2.4, foundations built up by suit: the 2 of spades goes home at
    once even with the Ace of hearts in play (it could only ever take a red Ace, which can always go
    home instead); the Ace it uncovers and the cards after it follow, and the settled
    moves replay legally to a win, as the brute force agrees."""
    game = engine.from_position("klondike", {
        "f0": ["AS"], "f2": suit_run(2, 1, KING), "f3": suit_run(3, 1, KING),
        "t0": ["ah", "2S"],
        "t1": "KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H".split(),
        "t2": "KH QS JH TS 9H 8S 7H 6S 5H 4S 3H".split(),
    })
    assert not game.state.piles[F0 + 1], "the Ace of hearts is in play"
    space = KlondikeSpace(game.rules)
    moves, settled = space.settle(game.state)
    assert [str(m) for m in moves[:2]] == ["t0-f0", "t0-f1"]
    assert space.is_won(settled) and replays_to_win(game, list(moves))
    assert brute_force(game) is True


def test_a_position_of_fewer_cards_is_searched_as_the_brute_force_answers() -> None:
    """engine.from_position may leave cards out (the web tests load such tables, and the
    solver's worker watches them): a card missing from the position is never taken for a
    talon card to play, and the search answers as the brute force does."""
    game = engine.from_position("klondike", {
        "t0": ["3S"], "t1": ["2S"], "t2": ["AS"], "t3": ["9H"], "t4": ["8S"],
        "f1": ["AH", "2H"], "f2": ["AD", "2D"], "stock": ["kc"]})
    answer = engine.solve(game, max_nodes=10_000)
    assert answer.result == ("won" if brute_force(game) else "lost")


def random_two_position(rng: random.Random) -> Game:
    """A position where a Two's safety matters: one black suit with only its Ace home, one
    red suit wholly in play, the other two suits home; the 25 cards in play dealt over the
    columns (face down under the top card) and the stock."""
    black, red = rng.choice((0, 3)), rng.choice((1, 2))
    if rng.random() < 0.5:  # or the other way round: a red Two, a black Ace out
        black, red = red, black
    heights = [KING] * 4
    heights[black], heights[red] = 1, 0
    rest = [make_card(r, s) for s in range(4) for r in range(heights[s] + 1, KING + 1)]
    rng.shuffle(rest)
    piles: dict[str, list[str]] = {f"f{s}": suit_run(s, 1, heights[s]) for s in range(4)}
    talon = rng.randint(0, 4)
    cut = rng.randint(0, talon)
    return klondike_from(piles, rest, talon, cut, COLUMNS)


def test_two_rule_answers_agree_with_a_brute_force_search_of_the_real_rules() -> None:
    """On random positions where a Two goes home while an Ace of the other colour is in
    play, the solver's won/lost answer is the brute force's, and its wins replay."""
    rng = random.Random("klondike-twos")
    outcomes = []
    while len(outcomes) < 20:
        expected = check_against_brute_force(random_two_position(rng), limit=10_000)
        if expected is not None:
            outcomes.append(expected)
    assert any(outcomes) and not all(outcomes)


# --- the complete pass after the pruned pass -------------------------------------------


def searched_keys(game: Game, prune: bool, monkeypatch: pytest.MonkeyPatch,
                  ) -> tuple[str, set[bytes]]:
    """The answer and every key the search made, with or without the pruned pass."""
    keys: set[bytes] = set()
    original = KlondikeSpace.key

    def key(self: KlondikeSpace, state: State) -> bytes:
        value = original(self, state)
        keys.add(value)
        return value

    with monkeypatch.context() as patch:
        patch.setattr(KlondikeSpace, "key", key)
        patch.setattr(KlondikeSpace, "can_prune", prune)
        solver = Solver(game, max_nodes=50_000)
        solver.step(60_000)
    return solver.result or "unknown", keys


def test_the_complete_pass_reaches_every_state_a_search_without_pruning_reaches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A loss needs every reachable state searched: the complete pass expands again only
    the states where the pruned pass left a move out, with only those moves, and that
    reaches exactly the states a single unpruned search reaches (deal 88 is lost, and
    its pruned pass leaves moves out). Talon cards placed bare, as the dailies' space does
    (with covers: the test after the covered placements' below)."""
    monkeypatch.setattr(KlondikeSpace, "covers", False)
    game = engine.new_game("klondike", 88)
    pruned = searched_keys(game, True, monkeypatch)
    plain = searched_keys(game, False, monkeypatch)
    assert pruned[0] == plain[0] == "lost"
    assert pruned[1] == plain[1]



# --- the depth-first ordering that joins later (docs/solver.md §7.12) --------------------


def solved(seed: int, monkeypatch: pytest.MonkeyPatch, later: int | None) -> Solver:
    """Deal ``seed`` searched to the end, the depth-first ordering joining after ``later``
    positions (None: best-first alone, one ordering)."""
    with monkeypatch.context() as patch:
        if later is None:
            patch.setattr(KlondikeSpace, "queues", 1)
            patch.setattr(KlondikeSpace, "later", None)
        else:
            patch.setattr(KlondikeSpace, "later", (later, KlondikeSpace.later[1]))
        solver = Solver(engine.new_game("klondike", seed), max_nodes=100_000)
        solver.step(600_000)
    return solver


def test_the_depth_first_ordering_joins_later_and_a_loss_costs_the_same_positions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After LATER_AFTER positions a depth-first ordering takes turns with best-first over
    the one table of positions met, through the pruned and the complete pass: each
    position is still expanded once, so a loss costs exactly the positions of best-first
    alone (deals 192 and 30 are lost after some 900 and 4,900)."""
    assert KlondikeSpace.queues == 2 and KlondikeSpace.later == (5000, (0, 0, 0, 1))
    for seed in (192, 30):
        alone = solved(seed, monkeypatch, None)
        both = solved(seed, monkeypatch, 100)
        assert alone.result == both.result == "lost"
        assert both.nodes == alone.nodes > 800
        assert both._search._late


def test_wins_the_depth_first_ordering_shares_replay_and_none_changes_below_later_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Wins found with the depth-first ordering on replay under the rules; and until
    LATER_AFTER positions the search is best-first's alone, so a deal it wins sooner is won
    after the same positions with the same moves (the daily deals and rated counts below
    it stay as they were)."""
    for seed in (31, 90):
        game = engine.new_game("klondike", seed)
        early = solved(seed, monkeypatch, 100)
        assert early.result == "won" and early.nodes > 100
        assert replays_to_win(game, early.moves)
        default = Solver(game, max_nodes=100_000)
        default.step(600_000)
        alone = solved(seed, monkeypatch, None)
        assert default.result == alone.result == "won" and default.nodes < 5000
        assert (default.nodes, default.moves) == (alone.nodes, alone.moves)

def test_a_dead_state_is_never_reported_as_expanded_in_part() -> None:
    """A dead state has no children; once it left a stale "skipped" flag set, so the
    complete pass expanded it again for nothing."""
    game = engine.new_game("klondike", 170)
    solver = Solver(game, max_nodes=5_000)
    space = solver.space
    original = space.ordered_steps
    calls = {"dead": 0, "skipped": 0}

    def steps(state: State, pruned: bool, macro: tuple = (),
              ) -> tuple[list[object], list[int], bool]:
        result, biases, skipped = original(state, pruned, macro)
        if dead(state.piles):
            calls["dead"] += 1
            assert not skipped
        calls["skipped"] += skipped
        return result, biases, skipped

    space.ordered_steps = steps  # type: ignore[method-assign]
    solver.step(60_000)
    assert calls["dead"] > 0 and calls["skipped"] > 0, "both kinds of state were met"


# --- the dead-position test --------------------------------------------------------------


def reference_dead(piles: tuple[tuple[int, ...], ...]) -> bool:
    """The fixed point of dead()'s docstring, computed plainly with sets, rule by rule,
    until nothing changes."""
    up = 63
    columns = [[c & up for c in column] for column in piles[:COLUMNS] if column]
    talon = [c & up for c in piles[STOCK] + piles[WASTE]]
    found = {c for s in range(4) for c in piles[F0 + s]}
    loose = set(talon) | found
    home = set(found)
    uncovered = {column[-1] for column in columns}
    exposed = set(uncovered)
    movable = set()
    for column, pile in zip(columns, [p for p in piles[:COLUMNS] if p], strict=True):
        run = alternating_run(pile)
        movable.update(column[len(column) - run:])
    left: set[int] = set()
    emptyable = len(columns) < COLUMNS

    def onto(card: int) -> set[int]:
        rank = (card & 15) + 1
        red = (card >> 4) in (1, 2)
        return {s << 4 | rank for s in ((0, 3) if red else (1, 2))} if rank <= KING else set()

    changed = True
    while changed:
        changed = False
        for card in loose | uncovered:
            if card not in home and ((card & 15) == 1 or card - 1 in home):
                home.add(card)
                changed = True
        for column in columns:
            for i, card in enumerate(column):
                if card in left or not (card in uncovered or card in movable):
                    continue
                if ((card in uncovered and card in home) or onto(card) & exposed
                        or (card & 15 == KING and emptyable)):
                    left.add(card)
                    changed = True
                    if i:
                        uncovered.add(column[i - 1])
                        exposed.add(column[i - 1])
                    elif card & 15 != KING:
                        emptyable = True
        for card in loose - exposed:
            if card in found and (card & 15) < KING and card + 1 in found - exposed:
                continue  # a foundation card comes out only after the one on it
            if onto(card) & exposed or (card & 15 == KING and emptyable):
                exposed.add(card)
                changed = True
    return len(home) < 52


def test_dead_agrees_with_a_plain_fixed_point_of_its_rules() -> None:
    """The bit-mask dead() (its fixed point alone, ``twins=False``) computes the same fixed
    point as the rules in its docstring applied one by one, on every state met searching a
    few deals (lost and won ones) and on random positions."""
    states: list[tuple[tuple[int, ...], ...]] = []
    for seed in (170, 199, 3):
        solver = Solver(engine.new_game("klondike", seed), max_nodes=400)
        original = solver.space.ordered_steps

        def steps(state: State, pruned: bool, macro: tuple = (), original=original,
                  ) -> tuple[list[object], list[int], bool]:
            states.append(state.piles)
            return original(state, pruned, macro)

        solver.space.ordered_steps = steps  # type: ignore[method-assign]
        solver.step(60_000)
    assert len(states) > 100  # the searches' own states were met
    rng = random.Random("klondike-dead")
    states += [random_two_position(rng).state.piles for _ in range(100)]
    answers = [dead(piles, twins=False) for piles in states]
    assert answers == [reference_dead(piles) for piles in states]
    assert any(answers) and not all(answers)
    # the twins' rule (docs/solver.md §7.24, tests/engine/test_klondike_dead.py) only adds
    assert all(dead(piles) for piles, plain in zip(states, answers, strict=True) if plain)


def test_dead_when_the_two_of_spades_lies_under_the_only_king_that_could_move() -> None:
    """docs/rules/klondike.md §2.2 and §9 row 3: only a King enters an empty column;
    cards may come back from the foundations. Every column is full, the 2 of spades lies face
    down under the King of
    spades, and no spade fits on a spade: a red card could hold one only if it came back,
    and each red card comes back only after the cards on it, first the red Kings, which
    could come back only to an empty column. Dead, as the brute force agrees."""
    full = {f"f{s}": suit_run(s, 1, KING) for s in (1, 2, 3)}
    game = engine.from_position("klondike", {
        **full, "f0": ["AS"], "t0": ["2s", "KS"], "t1": ["3S"], "t2": ["4S"], "t3": ["5S"],
        "t4": ["6S"], "t5": ["7S"], "t6": ["8S"], "stock": ["9s", "ts"], "waste": ["JS", "QS"],
    })
    assert dead(game.state.piles) and reference_dead(game.state.piles)
    assert brute_force(game) is False
    # the same with the 2 of spades in the waste instead: not dead, and won
    won = engine.from_position("klondike", {
        **full, "f0": ["AS"], "t0": ["KS"], "t1": ["3S"], "t2": ["4S"], "t3": ["5S"],
        "t4": ["6S"], "t5": ["7S"], "t6": ["8S"], "stock": ["9s", "ts"],
        "waste": ["JS", "QS", "2S"],
    })
    assert not dead(won.state.piles) and not reference_dead(won.state.piles)
    assert brute_force(won) is True



def test_not_dead_when_a_king_must_come_back_from_a_full_foundation() -> None:
    """docs/rules/klondike.md §2.2: cards may come back from the foundations, and a King
    enters an empty column. The Jack of hearts lies face down under the Queen of hearts, which
    can leave only onto a black King: one must come back from its full foundation into an
    empty column. Not dead (a foundation's top is its King when the suit is home), and won, as
    the brute force agrees."""
    game = engine.from_position("klondike", {
        "f0": suit_run(0, 1, KING), "f1": suit_run(1, 1, 10), "f2": suit_run(2, 1, KING),
        "f3": suit_run(3, 1, KING), "t0": ["jh", "QH"], "waste": ["KH"],
    })
    assert not dead(game.state.piles) and not reference_dead(game.state.piles)
    assert brute_force(game) is True


# --- a card placed from the talon or a foundation must start a chain of use ----------------


def random_talon_position(rng: random.Random) -> Game:
    """A Klondike endgame with a long talon: a third to two thirds of the cards in play in
    the stock and waste, the rest over three to five columns (face down under the top)."""
    heights = [rng.randint(4, 9) for _ in range(4)]
    rest = [make_card(r, s) for s in range(4) for r in range(heights[s] + 1, KING + 1)]
    rng.shuffle(rest)
    piles: dict[str, list[str]] = {f"f{s}": suit_run(s, 1, heights[s]) for s in range(4)}
    talon = rng.randint(len(rest) // 3, 2 * len(rest) // 3)
    cut = rng.randint(0, talon)
    return klondike_from(piles, rest, talon, cut, rng.randint(3, 5))


@pytest.mark.parametrize("covers", [False, True], ids=["bare", "covered"])
def test_chain_answers_agree_with_a_brute_force_search_of_the_real_rules(
        covers: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/solver.md §7.5: a talon card goes to a column only when a chain of cards, each one
    rank lower and of the other colour, through talon cards, can end on a card from a
    column or a foundation. On random endgames with long talons, where cards from the talon
    must often be stacked on each other before a column card can follow, the answer is the
    brute force's (a rule that asked for a column or foundation card right on the placed
    card answers some of these wrongly). Both with talon cards placed bare, as the dailies'
    space does, and with covered placements, where a talon card goes to a column only
    together with a move that puts a card on it: a run from another column, a card from a
    foundation, or another talon card placed and covered in turn (steps that left out
    column runs or further talon cards as covers answer some of these wrongly)."""
    monkeypatch.setattr(KlondikeSpace, "covers", covers)
    rng = random.Random("klondike-chains")
    outcomes = []
    while len(outcomes) < 40:
        expected = check_against_brute_force(random_talon_position(rng), limit=30_000)
        if expected is not None:
            outcomes.append(expected)
    assert any(outcomes)


def plays(game: Game) -> set[str]:
    """The space's steps from ``game``'s settled position, each as the card its last move
    plays and where to (such as "7H>t3")."""
    space = KlondikeSpace(game.rules)
    auto, root = space.settle(game.state)
    rules, index = game.rules, game.rules.index
    found = set()
    for macro, _ in space.children(root):
        state = root
        for move in macro:
            before, state = state, rules.apply(state, move)
            if move.dst.startswith(("t", "f")):
                found.add(f"{card_text(state.piles[index[move.dst]][-1])}>{move.dst}")
                break
        del before
    return found


def test_a_chain_may_end_on_a_foundation_card_above_the_twos() -> None:
    """docs/rules/klondike.md §9 row 3 (cards come back from the foundations): the 5 of hearts
    lies on the 4 face down and needs a black 6; both are home, and a red 7 to bring one back
    onto is in the waste only. So the win plays a red 7 from the waste onto the 8 of spades,
    brings the 6 of spades back onto it and the 5 of hearts onto that: the placement is a
    step (the chain 7, 6 ends on a foundation card), the solver wins, as the brute force."""
    game = engine.from_position("klondike", {
        "f0": suit_run(0, 1, 6), "f1": suit_run(1, 1, 3), "f2": suit_run(2, 1, 6),
        "f3": suit_run(3, 1, 7), "t0": ["4h", "5H"], "t1": ["8C"],
        "t2": "KS QH JS TH 9S 8H 7S 6H".split(), "t3": "KH QS JH TS 9H 8S".split(),
        "t4": "KC QD JC TD 9C 8D".split(), "t5": "KD QC JD TC 9D".split(),
        "waste": ["7H", "7D"]})
    assert {"7H>t3", "7D>t3"} <= plays(game)
    assert brute_force(game) is True
    solver = Solver(game, max_nodes=20_000)
    while solver.step(1_000) is None:
        pass
    answer = solver.solution()
    assert answer.result == "won" and replays_to_win(game, answer.moves)


def test_a_chain_may_end_on_a_two_in_a_column_but_not_on_an_ace_or_two_at_home() -> None:
    """The 2 of clubs lies face up on its Ace face down and needs a red 3; both are in the
    stock, to go on a black 4. A red 3 so placed is a step (the 2 of clubs can follow it
    from its column), and the deal is won. With the 2 of clubs home instead (the Ace too),
    only a red Ace could follow a red 3, and both are home, where they can never be of use
    in a column (nothing lies on an Ace), or face down: no red 3 goes to the tableau."""
    game = engine.from_position("klondike", {
        "f0": suit_run(0, 1, 3), "f1": suit_run(1, 1, 2), "f2": suit_run(2, 1, 2),
        "t0": ["ac", "2C"], "t1": ["4S"], "t2": "KH QS JH TS 9H 8S 7H 6S 5H".split(),
        "t3": "KS QH JS TH 9S 8H 7S 6H".split(), "t4": "KD QC JD TC 9D 8C 7D 6C 5D 4C".split(),
        "t5": "KC QD JC TD 9C 8D 7C 6D 5C 4D 3C".split(), "stock": ["5s", "3h", "4h", "3d"]})
    assert {"3H>t1", "3D>t1"} <= plays(game)
    solver = Solver(game, max_nodes=20_000)  # bounded by positions, not by the clock
    while solver.step(1_000) is None:
        pass
    answer = solver.solution()
    assert answer.result == "won" and replays_to_win(game, answer.moves)
    # the Ace of diamonds face down under a King, so no red 3 is safe to play home at once
    home = engine.from_position("klondike", {
        "f0": suit_run(0, 1, 3), "f1": suit_run(1, 1, 2), "f3": suit_run(3, 1, 2),
        "t0": ["ad", "KD"], "t1": ["4S"],
        "stock": [f"{r}{s}".lower() for s in "SHDC" for r in "23456789TJQK"
                  if f"{r}{s}" not in ("2S", "3S", "4S", "2H", "2C", "KD")]})
    assert "3H>f1" in plays(home)
    assert not {"3H>t1", "3D>t1"} & plays(home)


# --- a talon card placed and covered in one step (docs/solver.md §7.14) ---------------------


def test_a_chain_may_end_on_a_foundation_card_with_talon_cards_placed_bare(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The win of test_a_chain_may_end_on_a_foundation_card_above_the_twos places a red 7 from
    the waste and brings the 6 of spades back onto it: with covered placements (as there)
    that is one step (covers that left out foundation cards lose the deal); the dailies'
    space, which places a talon card bare, wins it too."""
    monkeypatch.setattr(KlondikeSpace, "covers", False)
    test_a_chain_may_end_on_a_foundation_card_above_the_twos()


def test_no_covered_step_leaves_a_talon_card_bare(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every step that plays a talon card to a column also puts a card on it, on random
    endgames with long talons; and such steps exist there."""
    rng = random.Random("klondike-bare")
    placed = 0
    for _ in range(30):
        game = random_talon_position(rng)
        space = KlondikeSpace(game.rules)
        _, root = space.settle(game.state)
        rules = game.rules
        for macro, child in space.children(root):
            state, bare = root, None
            for move in macro:
                if bare is not None and move.dst == bare:
                    bare = None
                state = rules.apply(state, move)
                if move.src == "waste" and move.dst.startswith("t"):
                    bare, placed = move.dst, placed + 1
            assert bare is None, macro
            assert space.key(state) == space.key(child)
    assert placed > 30


def test_the_complete_pass_with_covers_reaches_every_state_a_search_without_pruning_reaches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pruned pass leaves out the covers that move part of a run (uncovering a face-up
    card of no use at once); the complete pass makes those placements and covers again, and
    reaches exactly the states of a search without pruning (deal 116 is lost)."""
    game = engine.new_game("klondike", 116)
    pruned = searched_keys(game, True, monkeypatch)
    plain = searched_keys(game, False, monkeypatch)
    assert pruned[0] == plain[0] == "lost"
    assert pruned[1] == plain[1]
