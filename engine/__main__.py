"""Command line: ``python -m engine deal VARIANT SEED`` and ``play VARIANT SEED MOVE...``
print positions as JSON; ``solve VARIANT SEED [MOVE...] [--budget-ms N] [--json]`` runs the
solver from the deal (or from the position after the moves); ``winnable VARIANT --count N``
lists deal numbers the solver proves winnable; ``rate VARIANT`` solves that list again to
record how many positions each win took (the deals' difficulty).

Bad input prints one line to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from . import VARIANTS, new_game, parse_move
from .rules.game import Game
from .rules.variants import DEAL_MAX, DEAL_MIN, variant
from .solver import find_winnable, solve


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, exit 2
        self.exit(2, f"error: {message}\n")


def _seed(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"deal number must be {DEAL_MIN}..{DEAL_MAX}, "
                                         f"not {text!r}")
    return int(text)


def _positive(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, not {text!r}")
    return int(text)


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value != value or value == float("inf"):
        raise argparse.ArgumentTypeError(f"the budget is a number of milliseconds > 0, "
                                         f"not {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _Parser(prog="python -m engine", description="Pocket Patience rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    deal = sub.add_parser("deal", help="print the opening position of a deal as JSON")
    play = sub.add_parser("play", help="play move texts and print the position as JSON")
    solver = sub.add_parser("solve", help="solve a deal (or the position after some moves)",
                            description="Search for a win; the solver knows the face-down "
                            "cards. The answer is won (with the moves), lost (proved: no "
                            "win exists) or unknown (the budget ran out).")
    for p in (deal, play, solver):
        p.add_argument("variant", help="one of: " + ", ".join(VARIANTS))
        p.add_argument("seed", type=_seed, help=f"deal number {DEAL_MIN}..{DEAL_MAX}")
    for p in (play, solver):
        p.add_argument("moves", nargs="*", help="moves such as t3-t7 or t3-t7:4")
    solver.add_argument("--budget-ms", type=_budget, default=1000.0,
                        help="time limit in milliseconds (default 1000)")
    solver.add_argument("--max-nodes", type=_positive, default=None,
                        help="limit on the positions expanded")
    solver.add_argument("--json", action="store_true",
                        help='print one JSON object: {"result", "moves", "nodes", "ms"}')
    winnable = sub.add_parser("winnable", help="print deal numbers proved winnable",
                              description="Solve deals START, START+1, ... and print each "
                              "one the solver wins, one a line, until COUNT are found.")
    winnable.add_argument("variant", help="one of: " + ", ".join(VARIANTS))
    winnable.add_argument("--count", type=_positive, required=True,
                          help="how many winnable deals to find")
    winnable.add_argument("--start", type=_seed, default=1, help="first deal number tried")
    winnable.add_argument("--budget-ms", type=_budget, default=3000.0,
                          help="time limit per deal in milliseconds (default 3000)")
    winnable.add_argument("--max-nodes", type=_positive, default=None,
                          help="limit on the positions expanded per deal (makes the list "
                          "independent of the machine's speed)")
    winnable.add_argument("--jobs", type=_positive, default=os.cpu_count() or 1,
                          help="processes solving deals at once (default: one a CPU); with "
                          "--max-nodes the list is the same for any number")
    winnable.add_argument("--output", help="write the list to this file (with a header) "
                          "instead of printing it")
    winnable.add_argument("--resume", action="store_true",
                          help="with --output: keep the deals already in that file, made by "
                          "the same command, and go on after the last one")
    rate = sub.add_parser("rate", help="record how hard the solver finds each winnable deal",
                          description="Solve the shipped winnable deals of VARIANT again and "
                          "write 'deal positions moves' lines (engine/solver/rating.py).")
    rate.add_argument("variant", help="one of: " + ", ".join(VARIANTS))
    rate.add_argument("--limit", type=_positive, default=None,
                      help="rate only the first LIMIT deals of the list")
    rate.add_argument("--max-nodes", type=_positive, default=2_000_000,
                      help="limit on the positions expanded per deal (default 2000000)")
    rate.add_argument("--output", help="the file to write (default: the shipped rated list)")
    rate.add_argument("--resume", action="store_true",
                      help="keep the deals already in the output file, rated with the "
                      "same --max-nodes, and rate the others (a larger --limit goes on)")
    args = parser.parse_args(argv)
    if args.command == "winnable":
        return _winnable(args)
    if args.command == "rate":
        return _rate(args)
    try:
        game = new_game(args.variant, args.seed)
        for i, text in enumerate(getattr(args, "moves", [])):
            try:
                game.play(parse_move(game, text))
            except ValueError as exc:
                raise ValueError(f"move {i + 1}: {exc}") from None
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.command == "solve":
        return _solve(game, args)
    json.dump(game.position(), sys.stdout)
    sys.stdout.write("\n")
    return 0


def _solve(game: Game, args: argparse.Namespace) -> int:
    answer = solve(game, budget_ms=args.budget_ms, max_nodes=args.max_nodes)
    if args.json:
        json.dump(answer.as_json(), sys.stdout)
        sys.stdout.write("\n")
        return 0
    moves = f"{len(answer.moves)} moves, " if answer.result == "won" else ""
    print(f"{answer.result} ({moves}{answer.nodes} positions, {answer.ms:.0f} ms)")
    if answer.moves:
        print(" ".join(str(m) for m in answer.moves))
    return 0


def _known_variant(name: str) -> bool:
    """Whether ``name`` is a variant; if not, says so on stderr (the command exits 2)."""
    try:
        variant(name)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return False
    return True


def _winnable(args: argparse.Namespace) -> int:
    if not _known_variant(args.variant):
        return 2
    found: list[int] = []
    start = args.start
    if args.resume:
        try:
            found = _resumed(args)
        except (OSError, ValueError) as error:
            print(f"error: cannot resume from {args.output!r}: {error}", file=sys.stderr)
            return 2
        start = found[-1] + 1 if found else start
    for seed, answer in find_winnable(args.variant, args.count - len(found), start,
                                      args.budget_ms, args.max_nodes, args.jobs):
        if answer.result != "won":
            continue
        found.append(seed)
        if args.output is None:
            print(seed, flush=True)
        else:  # rewritten after every win, so an interrupted run keeps what it found
            _write_winnable(args, found, seed)
    return 0


def _command(args: argparse.Namespace) -> str:
    """The header line naming the command that makes the list (without --output)."""
    return (f"# python -m engine winnable {args.variant} --count {args.count} "
            f"--start {args.start} --budget-ms {args.budget_ms:g}"
            + (f" --max-nodes {args.max_nodes}" if args.max_nodes else ""))


def _resumed(args: argparse.Namespace) -> list[int]:
    """The deals an earlier run of the same command wrote to ``args.output``."""
    if args.output is None:
        raise ValueError("--resume needs --output")
    with open(args.output, encoding="ascii") as saved:
        lines = saved.read().splitlines()
    if len(lines) < 3 or lines[1] != _command(args):
        raise ValueError("it was not made by the same command")
    return [int(line) for line in lines[3:] if line.strip() and not line.startswith("#")]


def _write_winnable(args: argparse.Namespace, found: list[int], last: int) -> None:
    header = (f"# Deal numbers of {args.variant} the solver proved winnable (one a line).\n"
              f"{_command(args)}\n"
              f"# Tried deals {args.start}..{last}: {len(found)} won.\n")
    with open(args.output, "w", encoding="ascii") as out:
        out.write(header + "".join(f"{seed}\n" for seed in found))


def _rate(args: argparse.Namespace) -> int:
    from .solver.rating import Rated, parse_rated, rate, rated_path
    from .solver.winnable import winnable_deals

    if not _known_variant(args.variant):
        return 2
    output = args.output or str(rated_path(args.variant))
    command = f"# python -m engine rate {args.variant} --max-nodes {args.max_nodes}"
    deals = winnable_deals(args.variant)[:args.limit]
    done: list[Rated] = []
    if args.resume:
        try:
            with open(output, encoding="ascii") as saved:
                text = saved.read()
            if text.splitlines()[1:2] != [command]:
                raise ValueError("it was not made by the same command")
            done = list(parse_rated(text))
        except (OSError, ValueError) as error:
            print(f"error: cannot resume from {output!r}: {error}", file=sys.stderr)
            return 2
    tried = {r.deal for r in done}
    missed: list[int] = []
    todo = [deal for deal in deals if deal not in tried]
    for i, (deal, answer) in enumerate(rate(args.variant, todo, args.max_nodes)):
        if answer.result == "won":
            done.append(Rated(deal, answer.nodes, len(answer.moves)))
        else:
            missed.append(deal)
        if i % 25 == 24 or i == len(todo) - 1:  # an interrupted run keeps what it did
            _write_rated(output, args.variant, command, done, missed, len(deals))
    if not todo:
        _write_rated(output, args.variant, command, done, missed, len(deals))
    return 0


def _write_rated(output: str, name: str, command: str, done: list[Any], missed: list[int],
                 listed: int) -> None:
    rows = sorted(done)
    note = f" Not won again within the limit: {' '.join(map(str, missed))}." if missed else ""
    header = (f"# Positions the solver expanded to win each deal of winnable-{name}.txt, "
              f"and the moves of its win: deal positions moves.\n{command}\n"
              f"# Rated {len(rows)} of the first {listed} listed deals.{note}\n")
    with open(output, "w", encoding="ascii") as out:
        out.write(header + "".join(f"{r.deal} {r.positions} {r.moves}\n" for r in rows))


if __name__ == "__main__":
    sys.exit(main())
