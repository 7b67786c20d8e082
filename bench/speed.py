"""Positions a second of CPU, and the search's answers, on given deals of one variant.

    python bench/speed.py [--variant beleaguered-castle] [--seeds 9,17,108 | --seeds @FILE]
                          [--max-nodes 40000] [--answers FILE]
    python bench/speed.py --variant klondike --relaxed 4 [--seeds 83,999] [--repeat 3]

Each deal is searched to ``--max-nodes`` positions (or its answer), so the positions
expanded are the same on every machine: the figure that changes with a change of speed
is positions per second of this process's CPU (``time.process_time``), printed per deal
and over all. ``--answers`` writes each deal's (result, positions, moves made) to FILE:
two trees whose files are equal expand the same positions, so a change meant to make a
position cheaper and nothing else is checked by comparing them. Run two trees side by
side (each with ``nice -n 19``) to compare speeds on a shared machine.

``--relaxed K`` (Klondike) times the relaxed game of K known cards a suit instead (docs/
solver.md §7.16), searched from the root the search hands it to its end or ``--max-nodes``
relaxed positions, the best of ``--repeat`` runs a deal: what a relaxed position costs,
without the search around it. It asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Search each deal; print positions, CPU and positions a second."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="beleaguered-castle", choices=engine.VARIANTS)
    parser.add_argument("--seeds", default="108,17,9,300,433")
    parser.add_argument("--max-nodes", type=int, default=40_000)
    parser.add_argument("--answers", default=None)
    parser.add_argument("--relaxed", type=int, default=None, metavar="K")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    text = Path(args.seeds[1:]).read_text() if args.seeds.startswith("@") else args.seeds
    deals = [int(word) for word in text.replace(",", " ").split()]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{args.variant}, {len(deals)} deals, at most {args.max_nodes} positions each, "
          f"Python {sys.version.split()[0]}, load average {load:.1f} at the start")
    if args.relaxed is not None:
        if args.variant != "klondike":
            parser.error("--relaxed is Klondike's")
        return relaxed(deals, args.relaxed, args.max_nodes, args.repeat)
    lines = []
    nodes = 0
    cpu = 0.0
    for seed in deals:
        solver = engine.Solver(engine.new_game(args.variant, seed), args.max_nodes)
        began = time.process_time()
        while solver.step(1e9) is None:
            pass
        spent = time.process_time() - began
        nodes += solver.nodes
        cpu += spent
        lines.append(f"{seed} {solver.result} {solver.nodes} {len(solver.moves)}")
        print(f"  {seed}: {solver.result} {solver.nodes} positions {spent:.2f} s "
              f"{solver.nodes / spent:,.0f}/s", flush=True)
    print(f"{nodes} positions in {cpu:.1f} s of CPU: {nodes / cpu:,.0f} a second")
    if args.answers:
        Path(args.answers).write_text("\n".join(lines) + "\n")
    return 0


def relaxed(deals: list[int], k: int, most: int, repeat: int) -> int:
    """Search each deal's relaxed game of ``k`` known cards a suit from the settled root;
    print its answer, positions and CPU (the best of ``repeat`` runs)."""
    from engine.solver.klondike import KlondikeSpace
    from engine.solver.klondike_relaxed import Relaxed

    nodes = 0
    cpu = 0.0
    for seed in deals:
        game = engine.new_game("klondike", seed)
        _, root = KlondikeSpace(game.rules).settle(game.state)
        best = float("inf")
        for _ in range(repeat):
            began = time.process_time()
            answer, spent = Relaxed(root.piles, k).run(most)
            best = min(best, time.process_time() - began)
        nodes += spent
        cpu += best
        said = {True: "won", False: "lost", None: "unknown"}[answer]
        print(f"  {seed}: {said} {spent} relaxed positions {best * 1000:.0f} ms "
              f"{best / spent * 1e6:.1f} µs each", flush=True)
    print(f"{nodes} relaxed positions in {cpu:.2f} s of CPU: {cpu / nodes * 1e6:.1f} µs each")
    return 0


if __name__ == "__main__":
    sys.exit(main())
