"""Command line: ``python -m engine deal VARIANT SEED`` and ``play VARIANT SEED MOVE...``.

Prints positions as JSON. Bad input prints one line to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import VARIANTS, new_game, parse_move


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, exit 2
        self.exit(2, f"error: {message}\n")


def _seed(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"deal number must be 1..4294967295, not {text!r}")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _Parser(prog="python -m engine", description="Pocket Patience rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    deal = sub.add_parser("deal", help="print the opening position of a deal as JSON")
    play = sub.add_parser("play", help="play move texts and print the position as JSON")
    for p in (deal, play):
        p.add_argument("variant", help="one of: " + ", ".join(VARIANTS))
        p.add_argument("seed", type=_seed, help="deal number 1..4294967295")
    play.add_argument("moves", nargs="*", help="moves such as t3-t7 or t3-t7:4")
    args = parser.parse_args(argv)
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
    json.dump(game.position(), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
