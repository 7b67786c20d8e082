"""RootProofs: relaxed games searched in turn, with caps and a win that may end them."""

from __future__ import annotations

from engine.solver.proofs import RootProofs


class Game:
    """A stand-in relaxed game: answers ``answer`` after ``length`` positions."""

    def __init__(self, answer: bool, length: int, log: list[int], i: int) -> None:
        self.answer, self.length, self.log, self.i = answer, length, log, i
        self.done = 0

    def run(self, quota: int) -> tuple[bool | None, int]:
        step = min(quota, self.length - self.done)
        self.done += step
        self.log.append(self.i)
        return (self.answer if self.done == self.length else None), step

    def tables(self) -> list[object]:
        return []


def proofs(games: list[tuple[bool, int]], **kw: object) -> tuple[RootProofs, list[int]]:
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


def test_a_win_within_the_cap_ends_the_proofs_when_asked() -> None:
    """A quick win of the coarse game ends them all (win_ends); without it, the next runs."""
    made, log = proofs([(True, 12), (False, 25)], caps=(30, None), win_ends=True)
    assert not made.go(100) and not made.open and made.spent == 12 and log == [0]
    made, log = proofs([(True, 12), (False, 25)], caps=(30, None))
    assert made.go(100) and made.spent == 37


def test_a_win_of_the_last_game_ends_them_without_a_proof() -> None:
    made, _ = proofs([(False, 1000), (True, 5)], caps=(30, None), win_ends=True)
    assert not made.go(100) and not made.open and made.spent == 35
