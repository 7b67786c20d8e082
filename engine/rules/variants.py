"""The variant registry: one record a variant, read by the game, the command line, the
solver and the page. The ids are a public contract: share links and saved games name them.
"""

from .castle import CastleRules
from .compat import TYPE_CHECKING, record
from .doublets import DoubletsRules
from .klondike import KlondikeRules
from .spider import SpiderRules
from .state import Roles, Rules

if TYPE_CHECKING:
    from collections.abc import Callable

# The deal numbers of every variant: share links carry one, so the range never changes.
DEAL_MIN, DEAL_MAX = 1, 2**32 - 1


class Variant(record("Variant", ("id", "title", "family", "make_rules"))):
    """What the rest of the program knows of one variant (an immutable tuple of its four
    fields)."""

    __slots__ = ()
    # the fields, for type checkers (record() makes them; MicroPython drops these lines)
    id: str
    title: str  # the menu name
    family: str  # the table layout and the solver's space: spider, klondike, castle, doublets
    make_rules: "Callable[[], Rules]"

    @property
    def rules(self) -> Rules:
        """The variant's (shared, stateless) rules object."""
        return rules_for(self.id)

    @property
    def roles(self) -> Roles:
        """Which pile indexes are tableau, foundation, stock, waste and reserve."""
        return self.rules.roles


REGISTRY: tuple[Variant, ...] = (  # in menu order
    Variant("spider-1", "Spider · 1 suit", "spider", lambda: SpiderRules(1)),
    Variant("spider-2", "Spider · 2 suits", "spider", lambda: SpiderRules(2)),
    Variant("spider-4", "Spider · 4 suits", "spider", lambda: SpiderRules(4)),
    Variant("spider-relaxed-1", "Relaxed Spider · 1 suit", "spider",
            lambda: SpiderRules(1, relaxed=True)),
    Variant("spider-relaxed-2", "Relaxed Spider · 2 suits", "spider",
            lambda: SpiderRules(2, relaxed=True)),
    Variant("spider-relaxed-4", "Relaxed Spider · 4 suits", "spider",
            lambda: SpiderRules(4, relaxed=True)),
    Variant("klondike", "Klondike", "klondike", KlondikeRules),
    Variant("beleaguered-castle", "Beleaguered Castle", "castle", CastleRules),
    Variant("doublets", "Doublets", "doublets", DoubletsRules),
)
VARIANTS: tuple[str, ...] = tuple(v.id for v in REGISTRY)
_BY_ID = {v.id: v for v in REGISTRY}
_CACHE: dict[str, Rules] = {}


def variant(variant_id: str) -> Variant:
    """The record of ``variant_id``; ValueError if unknown."""
    found = _BY_ID.get(variant_id) if isinstance(variant_id, str) else None
    if found is None:
        raise ValueError(f"unknown variant {variant_id!r}; choose one of: {', '.join(VARIANTS)}")
    return found


def rules_for(variant_id: str) -> Rules:
    """The (shared, stateless) rules object of ``variant_id``; ValueError if unknown."""
    rules = _CACHE.get(variant_id) if isinstance(variant_id, str) else None
    if rules is None:
        rules = _CACHE[variant_id] = variant(variant_id).make_rules()
    return rules
