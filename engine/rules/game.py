"""The Game: a position with its full history, and game records.

>>> import engine
>>> game = engine.new_game("spider-1", seed=1)
>>> game.status
'playing'
>>> move = game.legal_moves()[0]
>>> game.play(move)
>>> game.undo()
True
>>> engine.replay(game.record()).position() == game.position()
True
"""

from .cards import card_text, parse_card
from .compat import TYPE_CHECKING
from .moves import IllegalMove, Move, read_move
from .state import Rules, State
from .variants import DEAL_MAX, DEAL_MIN, rules_for

if TYPE_CHECKING:
    from typing import Any


def check_seed(seed: object) -> int:
    """``seed`` as a deal number, or ValueError naming the valid range."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not DEAL_MIN <= seed <= DEAL_MAX:
        raise ValueError(f"deal number must be a whole number from {DEAL_MIN} to {DEAL_MAX}, "
                         f"not {seed!r}")
    return seed


class Game:
    """One game of one variant: the current position, unlimited undo and redo, status."""

    def __init__(self, rules: Rules, seed: int, start: State, custom: bool = False) -> None:
        self.rules = rules
        self.variant = rules.variant
        self.seed = seed
        self.undo_count = 0
        self._custom = custom
        self._states: list[State] = [start]
        self._moves: list[Move] = []
        self._cursor = 0
        self._legal: list[Move] | None = None

    @property
    def state(self) -> State:
        """The current immutable state (hashable; for solvers and hints)."""
        return self._states[self._cursor]

    @property
    def start(self) -> State:
        """The position the game started from (a deal's, or the one set up)."""
        return self._states[0]

    @property
    def custom(self) -> bool:
        """True for a game set up from a position (:func:`from_position`), not dealt."""
        return self._custom

    @property
    def move_count(self) -> int:
        """Moves in the current line of play (undone moves do not count)."""
        return self._cursor

    @property
    def moves(self) -> list[Move]:
        """The moves of the current line of play, oldest first."""
        return self._moves[: self._cursor]

    def legal_moves(self) -> list[Move]:
        """Every legal action now, including deals, stock turns and recycles."""
        if self._legal is None:
            self._legal = self.rules.moves(self.state)
        return list(self._legal)

    def is_legal(self, move: Move) -> bool:
        """True when ``move`` may be played now."""
        return move in self.legal_moves()

    def play(self, move: Move) -> None:
        """Play ``move`` with its automatic consequences; IllegalMove leaves the game unchanged."""
        if not isinstance(move, Move):
            raise IllegalMove(f"not a move: {move!r}")
        if self.status != "playing" or not self.is_legal(move):
            raise IllegalMove(f"illegal move {move} in {self.variant}")
        # The listed move itself: Move(.., 1.0) == Move(.., 1).
        self._advance(self._legal[self._legal.index(move)])

    def _advance(self, move: Move) -> None:
        """Play ``move``, which the rules have just listed as legal here (``play`` checks
        that; the finish, which plays what the rules' own lists give, needs no check)."""
        new = self.rules.apply(self.state, move)
        del self._states[self._cursor + 1 :]
        del self._moves[self._cursor :]
        self._states.append(new)
        self._moves.append(move)
        self._cursor += 1
        self._legal = None

    def undo(self) -> bool:
        """Take back the last move (deals and clears too); False when there is none."""
        if not self._cursor:
            return False
        self._cursor -= 1
        self.undo_count += 1
        self._legal = None
        return True

    def redo(self) -> bool:
        """Play again the last undone move; False when there is none."""
        if self._cursor >= len(self._moves):
            return False
        self._cursor += 1
        self._legal = None
        return True

    @property
    def can_undo(self) -> bool:
        """True when there is a move to undo."""
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        """True when there is an undone move to redo."""
        return self._cursor < len(self._moves)

    @property
    def status(self) -> str:
        """``"playing"``, ``"won"`` or ``"lost"`` (no way to go on)."""
        state = self.state
        if self.rules.is_won(state):
            return "won"
        if self._legal is None:
            self._legal = self.rules.moves(state)
        return "lost" if self.rules.is_lost(state, self._legal) else "playing"

    def position(self) -> "dict[str, Any]":
        """The position as plain data: variant, seed, status, piles (bottom to top), extras."""
        pos: dict[str, Any] = {
            "variant": self.variant,
            "seed": self.seed,
            "status": self.status,
            "piles": self.rules.texts(self.state),
        }
        pos.update(self.rules.info(self.state))
        return pos

    @property
    def line(self) -> tuple[Move, ...]:
        """Every move of the line, the undone ones (the redo line) too, oldest first.

        A saver can compare it with the line it saved last and write only what changed,
        where :meth:`record` spells out every move again.
        """
        return tuple(self._moves)

    def header(self) -> "dict[str, Any]":
        """The record without its moves: variant, seed, undo cursor, undo count (and the
        start position of a game set up by :func:`from_position`)."""
        rec: dict[str, Any] = {
            "variant": self.variant,
            "seed": self.seed,
            "cursor": self._cursor,
            "undo_count": self.undo_count,
        }
        if self._custom:
            start = self._states[0]
            rec["start"] = {"piles": self.rules.texts(start), "passes": start.passes}
        return rec

    def record(self) -> "dict[str, Any]":
        """A JSON-able record: variant, seed, every move (redo line too) and the undo cursor."""
        rec = self.header()
        rec["moves"] = [str(m) for m in self._moves]
        return rec

    def copy(self) -> "Game":
        """An independent game in the same position with the same history."""
        other = Game(self.rules, self.seed, self._states[0], self._custom)
        other._states = list(self._states)
        other._moves = list(self._moves)
        other._cursor = self._cursor
        other.undo_count = self.undo_count
        return other

    def __repr__(self) -> str:
        return f"<Game {self.variant} deal {self.seed}, {self._cursor} moves, {self.status}>"


def new_game(variant: str, seed: int) -> Game:
    """Deal number ``seed`` (DEAL_MIN..DEAL_MAX) of ``variant``; ValueError for bad input."""
    rules = rules_for(variant)
    seed = check_seed(seed)
    return Game(rules, seed, rules.deal(seed))


def from_position(variant: str, piles: dict[str, list[str]], passes: int = 0,
                  seed: int = 1) -> Game:
    """A game starting from a set-up position (tests, puzzles). Unnamed piles start empty."""
    rules = rules_for(variant)
    if not isinstance(piles, dict):
        raise ValueError("piles must map pile ids to lists of card texts")
    unknown = set(piles) - set(rules.pile_ids)
    if unknown:
        raise ValueError(f"unknown piles for {variant}: {sorted(unknown)}")
    if isinstance(passes, bool) or not isinstance(passes, int) or passes < 0:
        raise ValueError("passes must be a whole number >= 0")
    built = []
    for pid in rules.pile_ids:
        cards = piles.get(pid, [])
        if not isinstance(cards, (list, tuple)):
            raise ValueError(f"pile {pid} must be a list of card texts")
        built.append(tuple(parse_card(t) for t in cards))
    state = State(tuple(built), passes)
    rules.check(state)
    return Game(rules, check_seed(seed), state, custom=True)


def parse_move(game: Game, text: str) -> Move:
    """The legal move ``text`` names in ``game``: ValueError if unreadable, IllegalMove if illegal.

    ``parse_move(game, str(move)) == move`` for every legal move.
    """
    move = read_move(text)
    if game.is_legal(move):
        return move
    for pid in (move.src, move.dst):
        if pid not in game.rules.index and pid != "tableau":
            raise ValueError(f"unknown pile {pid!r} in {game.variant}")
    raise IllegalMove(f"illegal move {text!r} in this position of {game.variant}")


def replay(record: "dict[str, Any]") -> Game:
    """The game a ``record()`` describes, exactly as it was; ValueError if malformed."""
    if not isinstance(record, dict):
        raise ValueError("a game record must be a JSON object")
    moves, cursor = record.get("moves"), record.get("cursor")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise ValueError("record 'moves' must be a list of move texts")
    if isinstance(cursor, bool) or not isinstance(cursor, int) or not 0 <= cursor <= len(moves):
        raise ValueError("record 'cursor' must be a whole number from 0 to the number of moves")
    undo_count = record.get("undo_count", 0)
    if isinstance(undo_count, bool) or not isinstance(undo_count, int) or undo_count < 0:
        raise ValueError("record 'undo_count' must be a whole number >= 0")
    start = record.get("start")
    if start is None:
        game = new_game(record.get("variant"), record.get("seed"))  # type: ignore[arg-type]
    else:
        if not isinstance(start, dict):
            raise ValueError("record 'start' must be an object")
        game = from_position(record.get("variant"), start.get("piles"),  # type: ignore[arg-type]
                             start.get("passes", 0), record.get("seed"))  # type: ignore[arg-type]
    for i, text in enumerate(moves):
        try:
            game.play(parse_move(game, text))
        except ValueError as exc:
            raise ValueError(f"record move {i + 1} ({text!r}) cannot be played: {exc}") from None
    for _ in range(len(moves) - cursor):
        game.undo()
    game.undo_count = undo_count
    return game


__all__ = ["Game", "new_game", "from_position", "parse_move", "replay", "check_seed", "card_text"]
