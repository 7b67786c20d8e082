"""The variant ids (a public contract: share links and saved games name them)."""

from __future__ import annotations

from .castle import CastleRules
from .doublets import DoubletsRules
from .klondike import KlondikeRules
from .spider import SpiderRules
from .state import Rules

_FACTORIES = {
    "spider-1": lambda: SpiderRules(1),
    "spider-2": lambda: SpiderRules(2),
    "spider-4": lambda: SpiderRules(4),
    "spider-relaxed-1": lambda: SpiderRules(1, relaxed=True),
    "spider-relaxed-2": lambda: SpiderRules(2, relaxed=True),
    "spider-relaxed-4": lambda: SpiderRules(4, relaxed=True),
    "klondike": KlondikeRules,
    "beleaguered-castle": CastleRules,
    "doublets": DoubletsRules,
}

VARIANTS: tuple[str, ...] = tuple(_FACTORIES)
_CACHE: dict[str, Rules] = {}


def rules_for(variant: str) -> Rules:
    """The (shared, stateless) rules object of ``variant``; ValueError if unknown."""
    rules = _CACHE.get(variant) if isinstance(variant, str) else None
    if rules is None:
        if not isinstance(variant, str) or variant not in _FACTORIES:
            raise ValueError(f"unknown variant {variant!r}; choose one of: {', '.join(VARIANTS)}")
        rules = _CACHE[variant] = _FACTORIES[variant]()
    return rules
