"""The variant registry (engine/rules/variants.py) and the solver's table of spaces that
reads it (engine/solver/spaces.py)."""

from __future__ import annotations

import pytest

import engine
from engine.rules.state import Roles
from engine.rules.variants import DEAL_MAX, DEAL_MIN, REGISTRY, rules_for, variant
from engine.solver.castle import CastleSpace
from engine.solver.doublets import DoubletsSpace
from engine.solver.klondike import KlondikeSpace
from engine.solver.spaces import space_for
from engine.solver.spider import SpiderSpace

PREFIXES = {"tableau": "t", "foundation": "f", "reserve": "r", "stock": "stock",
            "waste": "waste"}


def test_the_public_variant_ids_are_the_registrys_in_menu_order() -> None:
    assert engine.VARIANTS == tuple(v.id for v in REGISTRY) == (
        "spider-1", "spider-2", "spider-4", "spider-relaxed-1", "spider-relaxed-2",
        "spider-relaxed-4", "klondike", "beleaguered-castle", "doublets")


@pytest.mark.parametrize("record", REGISTRY, ids=lambda v: v.id)
def test_each_record_names_its_rules_title_and_family(record) -> None:
    assert variant(record.id) is record
    assert record.rules is rules_for(record.id) and record.rules.variant == record.id
    assert record.family in ("spider", "klondike", "castle", "doublets")
    assert record.id.startswith(record.family) or record.id == "beleaguered-castle"
    assert record.title and sum(v.title == record.title for v in REGISTRY) == 1


@pytest.mark.parametrize("record", REGISTRY, ids=lambda v: v.id)
def test_every_pile_has_one_role_and_its_id_says_it(record) -> None:
    rules = record.rules
    indexes = sorted(i for part in record.roles for i in part)
    assert indexes == list(range(len(rules.pile_ids)))  # each pile once
    for role, part in zip(Roles._fields, record.roles, strict=True):
        for n, i in enumerate(part):
            pid = rules.pile_ids[i]
            assert rules.role(pid) == role
            assert pid == PREFIXES[role] + ("" if role in ("stock", "waste") else str(n))


def test_unknown_variants_are_refused_with_the_list_of_known_ones() -> None:
    for bad in ("spider-3", "", None, ["klondike"]):
        with pytest.raises(ValueError, match="choose one of: spider-1, "):
            variant(bad)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="choose one of: spider-1, "):
            engine.new_game(bad, 1)  # type: ignore[arg-type]


def test_the_deal_range_is_the_one_new_game_accepts() -> None:
    assert (DEAL_MIN, DEAL_MAX) == (1, 2**32 - 1)
    for variant_id in engine.VARIANTS:
        assert engine.new_game(variant_id, DEAL_MAX).seed == DEAL_MAX
        for bad in (DEAL_MIN - 1, DEAL_MAX + 1):
            with pytest.raises(ValueError):
                engine.new_game(variant_id, bad)


def test_the_solver_finds_each_familys_space_in_its_own_table() -> None:
    kinds = {"spider": SpiderSpace, "klondike": KlondikeSpace, "castle": CastleSpace,
             "doublets": DoubletsSpace}
    for record in REGISTRY:
        assert type(space_for(record.rules)) is kinds[record.family]
