"""Which positions Klondike's searches spend their work on, and how many of them are dead.

    python bench/klondike_kinds.py [--seeds 83,105,999,421] [--positions 5000] [--k 4]
                                   [--relaxed-positions 20000]

For each deal, two counts by the kind of step that made each expanded position
(docs/solver.md §15, "fifth look"):

- the search's first ``--positions`` positions, the relaxed games and dives off: a step is
  named by its first real move, ``w>t`` a talon card to a column, ``t>f`` a column card
  home, ``f>t`` a foundation card back, ``t>t`` part of a run moved, with ``+N`` for the N
  moves after it in the same step (a cover, cards settled home);
- the relaxed game of ``--k`` known cards a suit from the settled root (docs/solver.md
  §7.16), to its end or ``--relaxed-positions``: ``home`` a step that sends cards home
  (``K`` a known card, ``c`` one known by colour), ``back`` one that brings a foundation
  card back, ``other`` the rest. Every position is tested here, those the relaxed search
  spares (a card brought back, §7.36) too.

Each row: positions of that kind, and the share of them the dead test finds dead. The counts
are the same on every machine; nothing is timed, and it asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Hashable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.rules.state import State  # noqa: E402
from engine.solver.klondike import KlondikeSpace  # noqa: E402
from engine.solver.klondike_dead import dead  # noqa: E402
from engine.solver.klondike_relaxed import Position, Relaxed  # noqa: E402


def step_kind(macro: tuple[Any, ...]) -> str:
    """The kind of a search step: its first real move (turns of the stock left out), and
    how many real moves follow it."""
    real = [m for m in macro if m.src != "stock" and not (m.src == "waste" and m.dst == "stock")]
    if not real:
        return "turn"
    first = real[0]
    src = "w" if first.src == "waste" else first.src[0]
    more = f"+{len(real) - 1}" if len(real) > 1 else ""
    return f"{src}>{first.dst[0]}{more}"


def search_kinds(seed: int, positions: int) -> tuple[Counter[str], Counter[str]]:
    """The search's expanded positions by kind, and the dead ones."""
    solver = engine.Solver(engine.new_game("klondike", seed), positions)
    space = solver.space
    assert isinstance(space, KlondikeSpace)
    space.relax = space.dives = False
    seen: Counter[str] = Counter()
    died: Counter[str] = Counter()
    columns: dict[Any, Any] = {}
    expand = space.expand

    def counted(node: State, key: Hashable, parent: dict[Hashable, Any], *rest: Any) -> Any:
        link = parent[key]
        kind = "root" if link is None else step_kind(link[1])
        seen[kind] += 1
        died[kind] += dead(node.piles, columns)
        return expand(node, key, parent, *rest)

    space.expand = counted  # type: ignore[method-assign]
    while solver.step(1e9) is None:
        pass
    return seen, died


def relaxed_kinds(seed: int, k: int, most: int) -> tuple[Counter[str], Counter[str], str]:
    """The relaxed game's positions by the kind of step to them, the dead ones, and its
    answer."""
    game = engine.new_game("klondike", seed)
    _, root = KlondikeSpace(game.rules).settle(game.state)
    relaxed = Relaxed(root.piles, k)
    kinds: dict[int, tuple[Position, str]] = {}  # by id, the child held so the id stays
    children, is_dead = relaxed.children, relaxed.dead

    def named(position: Position) -> list[Position]:
        out = [child[:3] for child in children(position)]  # (each tested, the spared too)
        before = position[2]
        for child in out:
            after = child[2]
            if any(a < b for a, b in zip(after, before, strict=True)):
                kind = "back"
            elif after != before:
                kind = "home " + "".join(
                    "K" if relaxed.known[f << 4 | rank] else "c"
                    for f in range(4) for rank in range(before[f] + 1, after[f] + 1))
            else:
                kind = "other"
            kinds[id(child)] = (child, kind)
        return out

    seen: Counter[str] = Counter()
    died: Counter[str] = Counter()

    def tested(position: Position) -> bool:
        kind = kinds.get(id(position), (position, "root"))[1]
        verdict = is_dead(position)
        seen[kind] += 1
        died[kind] += verdict
        return verdict

    relaxed.children = named  # type: ignore[method-assign]
    relaxed.dead = tested  # type: ignore[method-assign]
    answer, _ = relaxed.run(most)
    return seen, died, {True: "won", False: "lost", None: "unknown"}[answer]


def show(title: str, seen: Counter[str], died: Counter[str]) -> None:
    total = sum(seen.values())
    print(f"  {title}: {total} positions, {sum(died.values())} dead")
    for kind, n in seen.most_common():
        print(f"    {kind:10} {n:7} {died[kind] / n:6.0%} dead")


def main(argv: list[str] | None = None) -> int:
    """Print both counts for each deal."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="83,105,999,421")
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument("--relaxed-positions", type=int, default=20_000)
    args = parser.parse_args(argv)
    for seed in (int(word) for word in args.seeds.replace(",", " ").split()):
        print(f"klondike {seed}")
        show(f"search, first {args.positions}", *search_kinds(seed, args.positions))
        seen, died, answer = relaxed_kinds(seed, args.k, args.relaxed_positions)
        show(f"relaxed game of k = {args.k} ({answer})", seen, died)
    return 0


if __name__ == "__main__":
    sys.exit(main())
