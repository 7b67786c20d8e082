"""A daily-deal link's check, as both solver desks end it (web/dailies.py with the solver,
web/forward.py on the main thread, whose worker ran the search).

A link such as ``?daily=2026-12-01&game=klondike`` deals its deal at once; whether it is
that date's daily is known only once the daily's search has answered. Kept in one place,
so that both desks name the deal the daily under the same conditions. Runs under
MicroPython too (tests/web/test_micropython_web.py).
"""

from web.compat import TYPE_CHECKING
from web.stats import is_day

if TYPE_CHECKING:
    from typing import Any

    Payload = dict[str, Any]


def known(desk: "Any", variant: str, seed: int, day: str) -> bool:
    """True when deal ``seed`` of ``variant`` is known to be the daily of date ``day``:
    ``desk.recorded`` (found on this device before, read without the solver, for a link
    opened on the way to the first table). When not known, ``desk.check`` is set and the
    page checks the deal after the first table (:func:`confirm` ends it)."""
    if not day or not is_day(day):
        return False
    if desk.recorded(variant, day) == seed:
        return True
    desk.check = (variant, day, seed)
    return False


def confirm(desk: "Any", variant: str, day: str, deal: int) -> "Payload | None":
    """After a link's check (``desk.check``: the (variant, day, deal) the link dealt, or
    None): the deal on ``desk.table`` becomes the daily of ``day`` when it is that deal (a
    render payload, event "daily"); a "daily_find" answer when it is not (any more); None
    when no check waits for this variant and day (the check stays)."""
    check, desk.check = desk.check, None
    if check is None or check[:2] != (variant, day):
        desk.check = check
        return None
    table = desk.table
    if check[2] != deal or (table.game.variant, table.game.seed) != (variant, deal) \
            or table.daily:
        return {"event": "daily_find", "variant": variant, "date": day, "found": True,
                "deal": deal}
    table.daily = day
    table.after_change()
    payload = table.render("daily", announce=f"This is the daily deal of {day}.")
    payload["found"] = True
    return payload


def field(desk: "Any", payload: "Payload") -> None:
    """The link's check still to make, as the render's ``daily_check`` field; a check whose
    deal is no longer on ``desk.table`` (or that is now a daily) is dropped."""
    check, table = desk.check, desk.table
    if check is None:
        return
    if (table.game.variant, table.game.seed) != (check[0], check[2]) or table.daily:
        desk.check = None
        return
    payload["daily_check"] = {"variant": check[0], "date": check[1]}
