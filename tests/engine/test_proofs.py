"""RootProofs: relaxed games searched in turn, with caps and a win that may end them."""

from __future__ import annotations

from engine.solver.proofs import RootProofs


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
