"""Game state and the interface every game's rules implement."""

from .cards import card_text
from .compat import MICROPYTHON, TYPE_CHECKING, record
from .moves import Move

if TYPE_CHECKING or not MICROPYTHON:
    Pile = tuple[int, ...]
else:
    Pile = tuple  # MicroPython cannot subscript a builtin type


class State(record("State", ("piles", "passes"), (0,))):
    """An immutable, hashable position: piles in the rules' pile order, and passes used.
    A tuple ``(piles, passes)``; ``passes`` is 0 unless given."""

    __slots__ = ()
    # the fields, for type checkers (record() makes them; MicroPython drops these lines)
    piles: tuple[Pile, ...]
    passes: int


class Roles(record("Roles", ("tableau", "foundation", "stock", "waste", "reserve"),
                   ((), (), (), (), ()))):
    """Which pile indexes play which part. The pile ids follow from it, in index order:
    ``t0``, ``t1``... for the tableau, ``f0``... foundations, ``r0``... reserve piles,
    ``stock`` and ``waste``. Every part is optional: ``()`` unless given."""

    __slots__ = ()
    tableau: tuple[int, ...]
    foundation: tuple[int, ...]
    stock: tuple[int, ...]
    waste: tuple[int, ...]
    reserve: tuple[int, ...]

    def pile_ids(self) -> tuple[str, ...]:
        """The pile ids, by index."""
        names = {i: f"t{n}" for n, i in enumerate(self.tableau)}
        names.update((i, f"f{n}") for n, i in enumerate(self.foundation))
        names.update((i, f"r{n}") for n, i in enumerate(self.reserve))
        names.update((i, "stock") for i in self.stock)
        names.update((i, "waste") for i in self.waste)
        return tuple(names[i] for i in range(len(names)))


class Rules:
    """What one variant decides. Subclasses fill the class attributes and the methods.

    ``moves`` lists every legal action; ``apply`` performs a legal one with all its
    automatic consequences (flips, clears, refills) and returns the new state.
    """

    variant: str = ""
    roles: Roles = Roles()
    pile_ids: tuple[str, ...] = ()  # roles.pile_ids()

    def __init__(self) -> None:
        self.index = {pid: i for i, pid in enumerate(self.pile_ids)}
        self._roles = {i: Roles._fields[n] for n, indexes in enumerate(self.roles)
                       for i in indexes}

    def role(self, pile: str) -> str:
        """The part ``pile`` (an id) plays: "tableau", "foundation", "stock", "waste" or
        "reserve"; KeyError if the game has no such pile."""
        return self._roles[self.index[pile]]

    def deal(self, seed: int) -> State:
        """The opening position of deal number ``seed``."""
        raise NotImplementedError

    def moves(self, state: State) -> list[Move]:
        """Every legal move in ``state``, in a stable order."""
        raise NotImplementedError

    def apply(self, state: State, move: Move) -> State:
        """The state after a legal ``move`` and its automatic consequences."""
        raise NotImplementedError

    def home_moves(self, state: State) -> list[Move]:
        """The legal moves of a card to a foundation from a pile that is not one, in the
        order of ``moves`` (a finish asks this at every step: a game whose ``moves`` lists
        much more says so more cheaply)."""
        foundation, index = self.roles.foundation, self.index  # (a deal's dst is no pile)
        return [m for m in self.moves(state)
                if index.get(m.dst) in foundation and index.get(m.src) not in foundation]

    def is_won(self, state: State) -> bool:
        """True when the game is won."""
        raise NotImplementedError

    def is_lost(self, state: State, moves: list[Move]) -> bool:
        """True when the game can no longer go on (by default: no legal move)."""
        return not moves

    def won_by_force(self, state: State) -> bool:
        """True when the rest of the game needs no choice: playing every card home as it
        becomes free wins (by default never claimed; a game says when it is so)."""
        return False

    def info(self, state: State) -> dict[str, object]:
        """Extra facts for the player (cleared sequences, the rank needed next...)."""
        return {}

    def texts(self, state: State) -> dict[str, list[str]]:
        """The piles of ``state`` as card texts, bottom to top."""
        ids = self.pile_ids
        return {ids[i]: [card_text(c) for c in pile] for i, pile in enumerate(state.piles)}

    def check(self, state: State) -> None:
        """Raise ValueError when ``state`` could not arise in this game (for custom set-ups)."""
