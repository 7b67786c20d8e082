"""Golden deals: the exact opening of a few deal numbers of each Spider variant.

Share links and saved games name a variant and a deal number, so a deal must never change
(docs/architecture.md §1). These values were recorded from the engine after checking by
eye that each is a correct deal (10 columns of 6,6,6,6,5,5,5,5,5,5 with only the last card
face up, 50 face-down cards in the stock, the right deck); the tests below check those
facts again so a golden value can only be a correct deal. If a test here fails, the
shuffle or the deal changed: that breaks every shared link. Do not "update" the values.

Each entry: the ten columns t0..t9 (bottom to top), then the stock in five rows of ten
(bottom to top: the last card of the last row is the stock's top card, dealt to t0).
"""

from __future__ import annotations

from collections import Counter

import pytest

import engine

GOLDEN: dict[str, dict[int, list[str]]] = {
    "spider-1": {
        1: [
            "9s 8s 5s 6s js 8S",
            "2s 6s 7s 6s as KS",
            "as qs 5s ts ts 9S",
            "ts 5s 8s 3s 7s 3S",
            "2s as 3s ks AS",
            "qs js 6s 5s QS",
            "8s 4s js ks TS",
            "3s 4s 7s 9s 7S",
            "2s qs 7s 4s KS",
            "8s 9s 3s 2s 4S",
            "ts 2s qs as js 3s 3s 4s js 5s",
            "5s 9s 6s ks 7s ks 2s qs js ts",
            "8s 6s 4s 2s 6s 9s 9s ts ks qs",
            "qs 5s as as 8s 6s 7s 4s 9s ts",
            "ks js js 3s 2s 7s as 5s 4s 8s",
        ],
        2: [
            "6s ts js 4s qs KS",
            "4s 5s qs 2s 5s 5S",
            "8s 6s 6s as as 7S",
            "2s 3s 6s 4s 2s 8S",
            "as 8s 7s 9s JS",
            "4s qs ts 9s 9S",
            "as 9s 9s js 2S",
            "9s 8s 7s 7s 3S",
            "2s 3s 5s js 6S",
            "ts 2s 5s 7s KS",
            "6s 4s as 3s ks qs 2s js 5s ks",
            "as ks 4s ks 8s 9s 2s 8s 3s 6s",
            "8s 4s 7s ts ks ts 9s 3s js js",
            "js qs as 4s 3s qs 7s 6s ts as",
            "ks qs 5s ts 8s 7s 3s qs 5s ts",
        ],
        123456: [
            "js 3s 9s as ts 8S",
            "ts js 8s 8s 9s 2S",
            "2s 7s 2s 6s 3s 5S",
            "4s 6s js 5s qs JS",
            "7s as ks 9s KS",
            "7s 8s 3s 2s 7S",
            "4s ks 4s 6s TS",
            "5s as ks ts 4S",
            "5s 4s qs 4s KS",
            "ts 6s js 6s 5S",
            "6s ks 7s 2s qs 6s qs qs 9s 2s",
            "8s ts js 9s ks 8s as 5s ts 3s",
            "7s 7s 4s qs 7s 5s js qs ts 9s",
            "9s qs 8s 5s as 2s 3s 2s 8s 3s",
            "ks as 3s 6s as 4s 9s js as 3s",
        ],
        4294967295: [
            "8s 8s 7s ts 6s TS",
            "4s as qs 8s 9s 3S",
            "js 3s 7s qs 6s 5S",
            "ks 7s as 4s 6s 5S",
            "9s 4s 5s as 2S",
            "ks 6s js 5s TS",
            "ks 5s ts 7s 7S",
            "7s 2s ks ts 5S",
            "qs as js ts 9S",
            "js 9s 5s 3s 3S",
            "4s 6s js ts 4s as 8s js 9s qs",
            "7s 8s ks 3s qs ks 8s 2s 2s ks",
            "4s 4s 8s ts as 9s as 5s 2s 6s",
            "qs 7s 9s 2s 3s 9s qs 3s ks js",
            "qs 2s 8s 2s as 6s js 6s 3s 4s",
        ],
    },
    "spider-2": {
        1: [
            "9h 8h 5s 6s jh 8H",
            "2s 6h 7h 6s as KS",
            "as qh 5h th th 9H",
            "th 5h 8h 3h 7s 3H",
            "2h ah 3s kh AS",
            "qh js 6h 5s QS",
            "8s 4s js ks TS",
            "3s 4h 7s 9h 7H",
            "2s qh 7s 4h KH",
            "8s 9s 3h 2s 4S",
            "ts 2s qs ah jh 3s 3s 4s js 5s",
            "5h 9s 6s kh 7s ks 2h qs jh ts",
            "8h 6h 4h 2h 6h 9h 9s th kh qs",
            "qh 5s ah as 8s 6s 7h 4h 9s ts",
            "ks js jh 3h 2h 7h ah 5h 4s 8s",
        ],
        2: [
            "6h ts js 4s qh KH",
            "4h 5h qs 2h 5h 5S",
            "8h 6h 6s ah as 7H",
            "2s 3s 6h 4h 2s 8H",
            "as 8s 7s 9h JH",
            "4h qs ts 9s 9H",
            "ah 9h 9s jh 2S",
            "9h 8s 7h 7s 3H",
            "2h 3s 5h js 6S",
            "th 2h 5h 7s KS",
            "6s 4s ah 3h kh qh 2s jh 5s kh",
            "ah ks 4h kh 8s 9s 2h 8s 3s 6h",
            "8h 4s 7h ts ks th 9s 3h js js",
            "jh qh as 4s 3s qs 7s 6s th as",
            "ks qh 5s th 8h 7h 3h qs 5s ts",
        ],
        123456: [
            "jh 3h 9s ah th 8S",
            "ts js 8h 8h 9h 2H",
            "2h 7h 2s 6h 3s 5H",
            "4h 6s js 5h qs JS",
            "7s as ks 9h KS",
            "7h 8h 3s 2s 7S",
            "4s kh 4s 6s TH",
            "5h as ks ts 4S",
            "5h 4h qh 4h KS",
            "th 6s jh 6h 5S",
            "6h kh 7s 2h qs 6h qh qs 9h 2s",
            "8s th js 9h kh 8s as 5s ts 3s",
            "7s 7h 4h qh 7h 5s jh qs ts 9s",
            "9s qh 8s 5s ah 2s 3h 2h 8h 3h",
            "kh ah 3s 6s as 4s 9s jh ah 3h",
        ],
        4294967295: [
            "8h 8s 7h th 6s TS",
            "4h ah qh 8s 9s 3H",
            "jh 3h 7h qh 6h 5H",
            "kh 7s ah 4s 6h 5S",
            "9s 4h 5h as 2S",
            "kh 6h jh 5s TS",
            "ks 5s ts 7h 7H",
            "7s 2h ks th 5H",
            "qs ah js th 9H",
            "jh 9h 5s 3h 3S",
            "4s 6h js th 4h as 8h js 9s qh",
            "7s 8h kh 3s qs ks 8s 2s 2h kh",
            "4h 4s 8s ts ah 9h as 5h 2h 6s",
            "qs 7s 9h 2s 3s 9s qs 3s ks jh",
            "qh 2h 8h 2s as 6s js 6s 3h 4s",
        ],
    },
    "spider-4": {
        1: [
            "9c 8c 5d 6d jh 8H",
            "2s 6h 7h 6s ad KS",
            "as qh 5h tc tc 9C",
            "th 5h 8h 3c 7s 3H",
            "2h ah 3d kc AD",
            "qc jd 6h 5d QD",
            "8d 4d js kd TS",
            "3d 4h 7d 9h 7C",
            "2d qc 7s 4c KH",
            "8d 9s 3h 2s 4S",
            "td 2d qd ac jh 3s 3s 4d jd 5s",
            "5c 9s 6s kh 7d kd 2c qs jc td",
            "8c 6c 4h 2c 6c 9h 9d th kc qs",
            "qh 5s ac as 8s 6d 7c 4c 9d ts",
            "ks js jc 3c 2h 7h ah 5c 4s 8s",
        ],
        2: [
            "6h ts js 4d qh KH",
            "4h 5h qd 2h 5h 5S",
            "8h 6c 6d ac as 7C",
            "2s 3d 6c 4c 2d 8H",
            "as 8s 7s 9h JH",
            "4c qs td 9s 9C",
            "ah 9h 9d jh 2S",
            "9c 8s 7h 7d 3C",
            "2c 3s 5c jd 6S",
            "th 2c 5c 7d KD",
            "6s 4s ah 3h kc qc 2d jc 5s kh",
            "ac ks 4h kc 8d 9s 2h 8d 3d 6h",
            "8c 4d 7h ts ks tc 9d 3h jd js",
            "jc qc ad 4s 3s qd 7s 6d th ad",
            "kd qh 5d tc 8c 7c 3c qs 5d td",
        ],
        123456: [
            "jh 3h 9s ac tc 8D",
            "ts js 8c 8h 9h 2H",
            "2h 7h 2d 6c 3d 5C",
            "4c 6s js 5c qs JD",
            "7d ad kd 9c KD",
            "7c 8h 3d 2d 7S",
            "4d kc 4s 6d TH",
            "5h ad ks td 4D",
            "5h 4h qc 4h KS",
            "th 6d jc 6c 5D",
            "6h kh 7d 2c qs 6h qh qd 9c 2s",
            "8s tc jd 9h kc 8s as 5s td 3s",
            "7s 7c 4c qc 7h 5d jc qd ts 9s",
            "9d qh 8d 5s ah 2s 3h 2c 8c 3c",
            "kh ah 3s 6s as 4s 9d jh ac 3c",
        ],
        4294967295: [
            "8c 8d 7c tc 6d TD",
            "4h ah qc 8s 9d 3H",
            "jc 3h 7h qh 6h 5H",
            "kh 7s ac 4d 6c 5S",
            "9s 4c 5c as 2S",
            "kc 6c jh 5s TS",
            "kd 5d td 7c 7H",
            "7s 2c ks th 5C",
            "qd ah jd th 9C",
            "jc 9h 5d 3c 3S",
            "4d 6h js tc 4h ad 8c js 9d qh",
            "7d 8h kh 3s qs kd 8s 2d 2c kc",
            "4c 4s 8d ts ac 9c ad 5h 2h 6s",
            "qd 7d 9h 2d 3d 9s qs 3d ks jh",
            "qc 2h 8h 2s as 6s jd 6d 3c 4s",
        ],
    },
}

SUITS = {"spider-1": "S", "spider-2": "SH", "spider-4": "SHDC"}
CASES = [(v, seed) for v in GOLDEN for seed in GOLDEN[v]]


def _golden_piles(variant: str, seed: int) -> dict[str, list[str]]:
    rows = GOLDEN[variant][seed]
    out = {f"t{i}": rows[i].split() for i in range(10)}
    out["stock"] = " ".join(rows[10:]).split()
    return out


@pytest.mark.parametrize(("variant", "seed"), CASES)
def test_golden_value_is_a_correct_deal(variant: str, seed: int) -> None:
    """The recorded value itself obeys docs/rules/spider.md §2 and §3."""
    golden = _golden_piles(variant, seed)
    columns = [golden[f"t{i}"] for i in range(10)]
    assert [len(c) for c in columns] == [6, 6, 6, 6, 5, 5, 5, 5, 5, 5]
    assert all(c[-1].isupper() and all(x[1].islower() for x in c[:-1]) for c in columns)
    assert len(golden["stock"]) == 50 and all(x[1].islower() for x in golden["stock"])
    every = Counter(x.upper() for pile in golden.values() for x in pile)
    suits = SUITS[variant]
    assert every == Counter({r + s: 8 // len(suits) for r in "A23456789TJQK" for s in suits})


@pytest.mark.parametrize(("variant", "seed"), CASES)
def test_golden_deal(variant: str, seed: int) -> None:
    """new_game(variant, seed) deals exactly the recorded cards, foundations empty."""
    got = engine.new_game(variant, seed).position()["piles"]
    assert {pid: cards for pid, cards in got.items() if not pid.startswith("f")} == \
        _golden_piles(variant, seed)
    assert all(got[f"f{i}"] == [] for i in range(8))


@pytest.mark.parametrize(("variant", "seed"), CASES)
def test_golden_deal_of_relaxed_spider(variant: str, seed: int) -> None:
    """Relaxed Spider deals the same cards as standard Spider of the same suit count."""
    relaxed = variant.replace("spider-", "spider-relaxed-")
    got = engine.new_game(relaxed, seed).position()["piles"]
    assert got["stock"] == _golden_piles(variant, seed)["stock"]
    assert [got[f"t{i}"] for i in range(10)] == [r.split() for r in GOLDEN[variant][seed][:10]]


def test_first_deal_after_the_golden_opening() -> None:
    """The first stock deal of spider-4 deal 1 gives t0 the stock's top card, t1 the next."""
    game = engine.new_game("spider-4", 1)
    stock = _golden_piles("spider-4", 1)["stock"]
    game.play(engine.Move("stock", "tableau", 10))
    piles = game.position()["piles"]
    assert [piles[f"t{i}"][-1] for i in range(10)] == [c.upper() for c in stock[::-1][:10]]
    assert piles["stock"] == stock[:40]
