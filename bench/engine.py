"""Engine throughput in CPython, per variant: how fast random play runs.

    python bench/engine.py [--seconds 0.5] [--games 12] [--steps 200] [--variant ID ...]

For each variant in engine.VARIANTS it first collects a corpus of positions by random
playouts (uniform over the legal moves, fixed seeds, so runs are comparable), then times:

- raw ``Rules.moves(state)``: legal-move generations per second over the corpus;
- raw ``Rules.apply(state, move)``: applies per second (a raw "undo" costs nothing: the
  old state is kept, states being immutable), so this is the raw play+undo pair rate;
- ``hash(state)``: state hashes per second (what a solver's transposition table pays);
- Game API random playout: steps per second, each step ``legal_moves()`` + ``play()``;
- Game API ``play(move)`` + ``undo()`` pairs per second (each play re-checks legality).

It prints figures; it asserts nothing. Rates are per second of this process's CPU time
(``--wall`` for the wall clock), so other work on a shared machine disturbs them less.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
# Run as a script, this file's folder comes first on sys.path and `import engine` would
# find this very file: put the repository first instead.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.rules.moves import Move  # noqa: E402
from engine.rules.state import Rules, State  # noqa: E402
from engine.rules.variants import DEAL_MAX, DEAL_MIN  # noqa: E402


def corpus(variant: str, games: int, steps: int
           ) -> tuple[list[tuple[State, list[Move]]], list[engine.Game]]:
    """Positions of random play with their legal moves, and a copy of the game every 25
    moves; deterministic for a variant."""
    rnd = random.Random(f"bench {variant}")
    positions, samples = [], []
    for _ in range(games):
        game = engine.new_game(variant, rnd.randint(DEAL_MIN, DEAL_MAX))
        for step in range(steps):
            legal = game.legal_moves()
            positions.append((game.state, legal))
            if game.status != "playing":
                break
            if step % 25 == 0:
                samples.append(game.copy())
            game.play(rnd.choice(legal))
    return positions, samples


CLOCK: Callable[[], float] = time.process_time


def rate(work: Callable[[], int], seconds: float) -> float:
    """Operations per second: call ``work`` (which returns how many it did) for ``seconds``
    of :data:`CLOCK` (CPU time by default: the dev machine's two cores are shared)."""
    done, start = 0, CLOCK()
    while True:
        done += work()
        elapsed = CLOCK() - start
        if elapsed >= seconds:
            return done / elapsed


def measure(variant: str, games: int, steps: int, seconds: float) -> dict[str, float]:
    rules: Rules = engine.new_game(variant, 1).rules
    positions, samples = corpus(variant, games, steps)
    states = [s for s, _ in positions]
    pairs = [(s, m) for s, legal in positions for m in legal]

    def gen() -> int:
        for state in states:
            rules.moves(state)
        return len(states)

    def apply() -> int:
        for state, move in pairs:
            rules.apply(state, move)
        return len(pairs)

    def hashing() -> int:
        for state in states:
            hash(state)
        return len(states)

    seeds = random.Random(f"playout {variant}")

    def playout() -> int:
        game = engine.new_game(variant, seeds.randint(DEAL_MIN, DEAL_MAX))
        rnd = random.Random(game.seed)
        for n in range(steps):
            legal = game.legal_moves()
            if game.status != "playing":
                return n
            game.play(rnd.choice(legal))
        return steps

    def play_undo() -> int:
        n = 0
        for game in samples:
            for move in game.legal_moves():
                game.play(move)
                game.undo()
                n += 1
        return n

    return {
        "positions": len(states),
        "moves/pos": len(pairs) / len(states),
        "gen/s": rate(gen, seconds),
        "apply/s": rate(apply, seconds),
        "hash/s": rate(hashing, seconds),
        "playout step/s": rate(playout, seconds),
        "play+undo/s": rate(play_undo, seconds),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="time per figure")
    parser.add_argument("--games", type=int, default=12, help="random games in the corpus")
    parser.add_argument("--steps", type=int, default=200, help="moves per corpus game")
    parser.add_argument("--variant", action="append", choices=engine.VARIANTS,
                        help="only these variants (default: all)")
    parser.add_argument("--wall", action="store_true",
                        help="time with the wall clock instead of this process's CPU time")
    args = parser.parse_args(argv)
    global CLOCK
    if args.wall:
        CLOCK = time.perf_counter
    print(f"Python {sys.version.split()[0]} ({sys.implementation.name}); "
          f"{args.games} games x {args.steps} random moves per variant; "
          f"{args.seconds} s of {'wall' if args.wall else 'CPU'} time per figure\n")
    columns = ["positions", "moves/pos", "gen/s", "apply/s", "hash/s", "playout step/s",
               "play+undo/s"]
    print(f"{'variant':<20}" + "".join(f"{c:>16}" for c in columns))
    for variant in args.variant or engine.VARIANTS:
        figures = measure(variant, args.games, args.steps, args.seconds)
        cells = [f"{figures[c]:>16,.0f}" if c != "moves/pos" else f"{figures[c]:>16.1f}"
                 for c in columns]
        print(f"{variant:<20}" + "".join(cells), flush=True)
    print("\nraw = Rules.moves/apply on states; playout step = Game.legal_moves + Game.play;"
          "\nplay+undo = Game.play + Game.undo over every legal move of sampled positions.")


if __name__ == "__main__":
    main()
