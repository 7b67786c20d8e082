"""The command line, run as a real process: ``python -m engine deal|play ...``.

Good input prints the position as JSON (exit 0); bad input prints one clear line to
stderr and exits 2, with no traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, stdin=subprocess.DEVNULL)


def test_deal_prints_the_opening_position_as_json() -> None:
    done = cli("deal", "spider-2", "123456")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout) == engine.new_game("spider-2", 123456).position()
    assert done.stdout.count("\n") == 1


def test_deal_works_for_every_variant() -> None:
    for variant in engine.VARIANTS:
        done = cli("deal", variant, "4294967295")
        assert done.returncode == 0, (variant, done.stderr)
        assert json.loads(done.stdout) == engine.new_game(variant, 2**32 - 1).position()


def test_play_plays_the_moves_and_prints_the_position() -> None:
    game = engine.new_game("spider-4", 77)
    texts = []
    for pick in (0, -1, 1):  # includes the deal (listed last)
        move = game.legal_moves()[pick]
        game.play(move)
        texts.append(str(move))
    assert "stock-tableau:10" in texts
    done = cli("play", "spider-4", "77", *texts)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == game.position()


def test_play_with_no_moves_prints_the_deal() -> None:
    done = cli("play", "spider-relaxed-1", "5")
    assert done.returncode == 0
    assert json.loads(done.stdout) == engine.new_game("spider-relaxed-1", 5).position()


BAD = [
    ((), "required"),
    (("deal",), "required"),
    (("deal", "spider-1"), "required"),
    (("shuffle", "spider-1", "1"), "invalid choice"),
    (("deal", "spider-9", "1"), "unknown variant"),
    (("deal", "", "1"), "unknown variant"),
    (("deal", "spider-1", "0"), "4294967295"),
    (("deal", "spider-1", "4294967296"), "4294967295"),
    (("deal", "spider-1", "-1"), "4294967295"),
    (("deal", "spider-1", "1.5"), "4294967295"),
    (("deal", "spider-1", "twelve"), "4294967295"),
    (("deal", "spider-1", ""), "4294967295"),
    (("deal", "spider-1", "²"), "4294967295"),
    (("deal", "spider-1", "1", "t0-t1"), "unrecognized"),
    (("play", "spider-1", "1", "t0-t9:5"), "illegal move"),
    (("play", "spider-1", "1", "t0-t0"), "illegal move"),
    (("play", "spider-1", "1", "nonsense"), "unreadable move"),
    (("play", "spider-1", "1", "t0-t1:0"), "unreadable move"),
    (("play", "spider-1", "1", "t0-t1:²"), "unreadable move"),
    (("play", "spider-1", "1", "t0-q7"), "unknown pile"),
    (("play", "spider-9", "1", "t0-t1"), "unknown variant"),
]


@pytest.mark.parametrize(("args", "says"), BAD, ids=[" ".join(a) or "no args" for a, _ in BAD])
def test_bad_input_prints_one_line_and_exits_2(args: tuple[str, ...], says: str) -> None:
    done = cli(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert says in lines[0]
    assert "Traceback" not in done.stderr


def test_a_bad_move_later_in_the_line_is_named() -> None:
    game = engine.new_game("spider-1", 3)
    first = str(game.legal_moves()[0])
    done = cli("play", "spider-1", "3", first, "t0-t0")
    assert done.returncode == 2 and done.stderr.startswith("error: move 2:")
