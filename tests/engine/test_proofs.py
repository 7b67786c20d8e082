"""RootProofs: relaxed games searched in turn, with caps and a win that may end them; and
Probed: two games as one, the narrower search going on first."""

from __future__ import annotations

from engine.solver.proofs import Probed, RootProofs


class Game:
    """A stand-in relaxed game: answers ``answer`` after ``length`` positions."""

    def __init__(self, answer: bool | None, length: int, log: list[int], i: int) -> None:
        self.answer, self.length, self.log, self.i = answer, length, log, i
        self.done = 0

    def run(self, quota: int) -> tuple[bool | None, int]:
        step = min(quota, self.length - self.done)
        self.done += step
        self.log.append(self.i)
        return (self.answer if self.done == self.length else None), step

    def tables(self) -> list[object]:
        return []


def proofs(games: list[tuple[bool | None, int]], **kw: object) -> tuple[RootProofs, list[int]]:
    log: list[int] = []
    made = RootProofs(len(games), lambda i: Game(*games[i], log, i), **kw)  # type: ignore[arg-type]
    return made, log


def test_without_caps_a_win_passes_to_the_next_game_and_a_loss_proves() -> None:
    """Castle's use: no caps, a relaxed win gives way to the next game."""
    made, log = proofs([(True, 10), (False, 25)])
    assert not made.go(8) and made.next == 0
    assert not made.go(8) and made.next == 1  # the first won after 10; 6 spent on the second
    assert not made.go(8) and not made.go(8)  # the second at 22 of its 25
    assert made.go(8) and made.spent == 35 and not made.open
    assert set(log) == {0, 1}


def test_a_capped_game_gives_way_after_its_cap_and_the_next_proves() -> None:
    """The first game (it would lose only after 1,000) is dropped after its cap of 30; the
    second loses after 25 more: 55 in all, whatever the slices."""
    for credit in (1, 7, 64, 1000):
        made, _ = proofs([(False, 1000), (False, 25)], caps=(30, None))
        while not made.go(credit):
            assert made.open
        assert made.spent == 55


def test_a_quick_win_ends_the_proofs_and_a_slow_one_passes_on() -> None:
    """A win within ``win_ends`` positions of its game ends them all; a win that took more,
    or any win without ``win_ends``, passes to the next game, which here proves the loss."""
    made, log = proofs([(True, 12), (False, 25)], caps=(30, None), win_ends=12)
    assert not made.go(100) and not made.open and made.spent == 12 and log == [0]
    made, log = proofs([(True, 12), (False, 25)], caps=(30, None), win_ends=11)
    assert made.go(100) and made.spent == 37 and set(log) == {0, 1}
    made, log = proofs([(True, 12), (False, 25)], caps=(30, None))
    assert made.go(100) and made.spent == 37


def test_a_slow_win_of_a_game_without_a_cap_passes_on_too() -> None:
    """Klondike's use: a coarse game capped, a finer one to its end, a finest after it. The
    second's win after 40 positions (more than ``win_ends``) hands over to the third."""
    made, log = proofs([(None, 1000), (True, 40), (False, 60)], caps=(30, None, None),
                       win_ends=20)
    assert made.go(1000) and made.spent == 30 + 40 + 60 and set(log) == {0, 1, 2}
    made, _ = proofs([(None, 1000), (True, 15), (False, 60)], caps=(30, None, None),
                     win_ends=20)
    assert not made.go(1000) and not made.open and made.spent == 30 + 15


def test_a_win_of_the_last_game_ends_them_without_a_proof() -> None:
    made, _ = proofs([(False, 1000), (True, 5)], caps=(30, None), win_ends=1)
    assert not made.go(100) and not made.open and made.spent == 35


class Wide(Game):
    """A stand-in game that keeps ``waiting`` positions waiting all along."""

    def __init__(self, answer: bool | None, length: int, log: list[int], i: int,
                 waiting: int) -> None:
        super().__init__(answer, length, log, i)
        self.waiting = waiting


def pair(first: tuple[bool | None, int, int], second: tuple[bool | None, int, int]
         ) -> tuple[Probed, list[int]]:
    """A pair probing for 10 positions, sampling every 5: the second probed when the first
    keeps 5 or more waiting, and taken first if it keeps fewer than 0.75 of the first's; a
    win within 20 of a game's positions is quick."""
    log: list[int] = []
    return Probed(Wide(*first[:2], log, 0, first[2]), lambda: Wide(*second[:2], log, 1, second[2]),
                  probe=10, gate=5, ratio=0.75, quick=20, every=5), log


def searched(made: Probed, credit: int) -> tuple[bool | None, int]:
    """Run the pair ``credit`` positions at a time to its answer: (answer, positions)."""
    total = 0
    while True:
        answer, spent = made.run(credit)
        total += spent
        if answer is not None or spent < credit:
            return answer, total


def test_a_narrow_first_game_is_searched_alone_until_a_slow_win() -> None:
    """The first keeps 4 waiting (below the gate of 5): the second is not made while it goes
    on; its loss is the pair's. A slow win of the first (30, more than 20) hands over to the
    second, whose loss after 7 proves."""
    for credit in (1, 3, 7, 1000):
        made, log = pair((False, 50, 4), (False, 5, 1))
        assert searched(made, credit) == (False, 50) and set(log) == {0}
        made, log = pair((True, 30, 4), (False, 7, 1))
        assert searched(made, credit) == (False, 37) and set(log) == {0, 1}


def test_a_wide_first_game_gives_way_to_a_narrower_second() -> None:
    """The first keeps 8 waiting: the second is probed for 10 positions; keeping 5 (below
    0.75 * 8 = 6) it goes on first, and its loss after 25 proves (10 of the first's + 25);
    keeping 6 it does not, and the first's loss after 40 proves (40 + the second's 10)."""
    for credit in (1, 3, 7, 1000):
        made, log = pair((False, 1000, 8), (False, 25, 5))
        assert searched(made, credit) == (False, 35)
        assert log[0] == 0 and log[-1] == 1 and made.means == [8, 5]
        made, log = pair((False, 40, 8), (False, 1000, 6))
        assert searched(made, credit) == (False, 50) and log[-1] == 0


def test_a_quick_win_in_a_probe_ends_the_pair_and_a_slow_one_passes_on() -> None:
    """The second wins within its probe (8 positions): the pair is won after 18. A win of
    the narrower second after 30 of its positions (more than 20) hands back to the first,
    whose loss proves; a slow win of the last game left ends the pair with a win."""
    made, _ = pair((False, 1000, 8), (True, 8, 1))
    assert searched(made, 1000) == (True, 18)
    made, _ = pair((False, 60, 8), (True, 30, 1))
    assert searched(made, 1000) == (False, 90)
    made, _ = pair((True, 40, 8), (True, 30, 1))
    assert searched(made, 1000) == (True, 70)
