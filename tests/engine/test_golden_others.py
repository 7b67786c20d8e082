"""Golden deals of Klondike, Beleaguered Castle and Doublets, and their command line.

Share links carry only a variant and a deal number, so these opening positions must
never change (docs/architecture.md §1: deterministic deals, pinned by golden tests).
Each pile is written bottom to top; lower case is face down; the top of the stock is
its last card. If a test here fails, a deal changed: that breaks every shared link.
The deal procedures themselves are checked against engine.rules.rng.shuffled in each game's
own test file; these pins catch any later change to the shuffle, the deck order or the
dealing order.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]

GOLDEN: dict[str, dict[int, dict[str, str]]] = {
    "klondike": {
        1: {
            "t0": "9C",
            "t1": "qc 2C",
            "t2": "9s 6d 5H",
            "t3": "5s 2h 7h 2D",
            "t4": "6h th 8h 2s 4S",
            "t5": "8d ts ah 3c td KS",
            "t6": "3h qh 4d as ac js 4H",
            "f0": "",
            "f1": "",
            "f2": "",
            "f3": "",
            "stock": "4c 5d kd kh ad tc jh 6c 7c kc 8c qs jd 5c qd 7s 9h 6s jc 9d 3d 8s 7d 3s",
            "waste": "",
        },
        2: {
            "t0": "6H",
            "t1": "4d 6S",
            "t2": "2c 9c JC",
            "t3": "ah 7s 2s 2H",
            "t4": "5s qd 8d ks QH",
            "t5": "8s 3d 7c 5d kd JH",
            "t6": "tc 5c ts as 3s 8c 7H",
            "f0": "",
            "f1": "",
            "f2": "",
            "f3": "",
            "stock": "jd 2d ac 3c 8h 9s ad qc 9h 6d td 4s 4h 6c kc th 4c 3h 7d qs js kh 9d 5h",
            "waste": "",
        },
        123456: {
            "t0": "JH",
            "t1": "9d TH",
            "t2": "6h ts JC",
            "t3": "8c 9h ad JS",
            "t4": "9s 3h 8d ac 5H",
            "t5": "jd 7s 7c as 4h QS",
            "t6": "td 2d kh 3c 6c 4s 3D",
            "f0": "",
            "f1": "",
            "f2": "",
            "f3": "",
            "stock": "5c tc kc 8h 4c 6s 7h 2s qc 2c 8s 5d kd 7d 2h 6d qh qd 9c 5s ks 4d 3s ah",
            "waste": "",
        },
        4294967295: {
            "t0": "8C",
            "t1": "tc 9D",
            "t2": "ts kh KC",
            "t3": "9c 6d td 4S",
            "t4": "6c 9h as 6s 3H",
            "t5": "7s 6h 5d ah 2c AD",
            "t6": "7d ac qc jc 2d qd 5H",
            "f0": "",
            "f1": "",
            "f2": "",
            "f3": "",
            "stock": "5s ks 3d 3c 4c jd 2s 7h 8h qs jh 8d 5c 9s qh th 7c 2h 4d 4h js 8s kd 3s",
            "waste": "",
        },
    },
    "beleaguered-castle": {
        1: {
            "t0": "5H 9H 7S 8D 6H 3H",
            "t1": "6C 4C 3C TD 6S 4H",
            "t2": "2D TH 7D 8H 8C 7H",
            "t3": "3D 2C 7C 3S KH 2H",
            "t4": "QH JC 4D JH 4S TS",
            "t5": "KD QS 6D QC 8S 5S",
            "t6": "JD JS KS TC KC 2S",
            "t7": "9C 5C 5D 9S 9D QD",
            "f0": "AS",
            "f1": "AH",
            "f2": "AD",
            "f3": "AC",
        },
        2: {
            "t0": "4D 8C 6C 8S 9S TD",
            "t1": "JH 4H 9H 6H QH 4C",
            "t2": "TH 3D KC JD 8H KD",
            "t3": "TS 5D 5H 7S KH KS",
            "t4": "2H 6S QS 7H 3C 9C",
            "t5": "2C QC 2S 6D 7C TC",
            "t6": "3H QD JC JS 5C 9D",
            "t7": "3S 5S 8D 2D 4S 7D",
            "f0": "AS",
            "f1": "AH",
            "f2": "AD",
            "f3": "AC",
        },
        123456: {
            "t0": "5C 3S 3C QH KD 4C",
            "t1": "QD TS KS 8C TH 9H",
            "t2": "2D 5S QS 6D 4H 8S",
            "t3": "6S 5D 5H 7S 7D QC",
            "t4": "6C 2C TC JD 2S JC",
            "t5": "4S KC 7H 9D 7C 6H",
            "t6": "3D 4D TD 9S 8D 8H",
            "t7": "9C KH JH 3H JS 2H",
            "f0": "AS",
            "f1": "AH",
            "f2": "AD",
            "f3": "AC",
        },
        4294967295: {
            "t0": "8H 7H QH 7D 6S 2D",
            "t1": "7C 4H 5D QS 3S 9D",
            "t2": "JC 9S KS 3D TD 7S",
            "t3": "TH 6C 3C 2H 8D 4S",
            "t4": "6D 8C 5C KC 8S QC",
            "t5": "2C JS KD TC KH 4D",
            "t6": "4C 9H JH 9C 6H TS",
            "t7": "5S 2S JD 5H 3H QD",
            "f0": "AS",
            "f1": "AH",
            "f2": "AD",
            "f3": "AC",
        },
    },
    "doublets": {
        1: {
            "r0": "9C",
            "r1": "QC",
            "r2": "9S",
            "r3": "5S",
            "r4": "6H",
            "r5": "8D",
            "r6": "3H",
            "f0": "2C",
            "stock": ("4c 5d kd kh ad tc jh 6c 7c kc 8c qs jd 5c qd 7s 9h 6s jc 9d 3d 8s "
                   "7d 3s 4h js ks ac td 4s as 3c 2s 2d 4d ah 8h 7h 5h qh ts th 2h 6d"),
            "waste": "",
        },
        5: {
            "r0": "5H",
            "r1": "4H",
            "r2": "8C",
            "r3": "TS",
            "r4": "2C",
            "r5": "8H",
            "r6": "QD",
            "f0": "5S",
            "stock": ("kc kh kd as 3d 9s 4c js 2d 3c 6h 9h 7c 3s 6d 4d 5d 7s 9c ah 6s 7d "
                   "jh 4s tc qc 2h ad 5c 3h ks 6c 8s th 7h qs 9d jc td ac jd qh 8d 2s"),
            "waste": "",
        },
        13: {
            "r0": "9H",
            "r1": "QH",
            "r2": "2S",
            "r3": "3S",
            "r4": "7H",
            "r5": "4H",
            "r6": "6C",
            "f0": "7D",
            "stock": ("ks kd kc 4s 7c qs 4c tc 6s 6d 2c ad js 7s 9s 2d 5d 8h jh 3d jc td "
                   "jd 5s 9c 8d 8s 5c 8c kh 3h 4d ah as qd 3c 2h th 9d ts 6h 5h qc ac"),
            "waste": "",
        },
        4294967295: {
            "r0": "8C",
            "r1": "TC",
            "r2": "TS",
            "r3": "9C",
            "r4": "6C",
            "r5": "7S",
            "r6": "7D",
            "f0": "9D",
            "stock": ("5s ks 3d 3c 4c jd 2s 7h 8h qs jh 8d 5c 9s qh th 7c 2h 4d 4h js 8s "
                   "kd 3s 5h qd ad 2d 2c 3h jc ah 6s 4s qc 5d as td kc ac 6h 9h 6d kh"),
            "waste": "",
        },
    },
}


@pytest.mark.parametrize(
    ("variant", "seed"), [(v, s) for v, deals in GOLDEN.items() for s in deals]
)
def test_golden_opening_position(variant: str, seed: int) -> None:
    """The exact opening position of a pinned deal (doublets 5 and 13 send Kings under
    the stock: docs/rules/doublets.md §2)."""
    game = engine.new_game(variant, seed)
    want = {pid: text.split() for pid, text in GOLDEN[variant][seed].items()}
    assert game.position()["piles"] == want
    assert game.position()["status"] == "playing"


@pytest.mark.parametrize("variant", list(GOLDEN))
def test_deals_are_reproducible_and_differ(variant: str) -> None:
    """The same deal number gives the same deal; different numbers give different deals."""
    first = engine.new_game(variant, 99).position()
    assert engine.new_game(variant, 99).position() == first
    assert engine.new_game(variant, 100).position()["piles"] != first["piles"]


def test_the_three_games_follow_the_six_spider_ids_in_menu_order() -> None:
    """The variant ids, in menu order (a public contract: engine/rules/variants.py)."""
    assert engine.VARIANTS == (
        "spider-1", "spider-2", "spider-4",
        "spider-relaxed-1", "spider-relaxed-2", "spider-relaxed-4",
        "klondike", "beleaguered-castle", "doublets",
    )


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("variant", list(GOLDEN))
def test_cli_deal_prints_the_golden_position(variant: str) -> None:
    """``python -m engine deal VARIANT SEED`` prints the deal as JSON."""
    seed = next(iter(GOLDEN[variant]))
    done = _cli("deal", variant, str(seed))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == engine.new_game(variant, seed).position()


@pytest.mark.parametrize(
    ("variant", "seed", "moves"),
    [
        ("klondike", 1, ["t4-t2", "stock-waste", "waste-t6"]),
        ("beleaguered-castle", 1, ["t3-f1", "t6-f0", "t0-t1"]),
        ("doublets", 1, ["stock-waste", "stock-waste"]),
    ],
)
def test_cli_play_prints_the_position_after_the_moves(variant: str, seed: int,
                                                      moves: list[str]) -> None:
    """``python -m engine play VARIANT SEED MOVE...`` plays the moves in order."""
    game = engine.new_game(variant, seed)
    for text in moves:
        game.play(engine.parse_move(game, text))
    done = _cli("play", variant, str(seed), *moves)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == game.position()


def test_cli_play_rejects_an_illegal_move_in_the_new_games() -> None:
    """A move the rules forbid (4H onto 2D in Klondike deal 1) exits with status 2."""
    done = _cli("play", "klondike", "1", "t6-t3")
    assert done.returncode == 2
    assert "move 1" in done.stderr
