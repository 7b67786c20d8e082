"""Share links: ``…/?game=<variant>&deal=<number>[&daily=<YYYY-MM-DD>]`` made and read back.

A daily deal's link names its date too, so it opens as that date's daily (the table
checks that the deal is that date's daily before it treats it as one).

Pure Python (no browser imports): the page passes in its address and query string, and
gets back a link, or a :class:`Link`, or a :class:`LinkError` whose message it shows as
plain text. Nothing read from a URL is ever meant to be inserted as HTML; the messages
quote a bad value shortened and in quotes so that a person can see what was wrong.

>>> make_link("https://example.org/app/index.html?x=1#top", "spider-2", 42)
'https://example.org/app/?game=spider-2&deal=42'
>>> parse_link("?game=spider-2&deal=42", ("spider-2",))
Link(variant='spider-2', deal=42)
>>> parse_link("", ("spider-2",)) is None
True
"""

from engine.rules.variants import DEAL_MAX, DEAL_MIN
from web.compat import isascii, isprintable, page_link, parse_qsl, record
from web.stats import is_day

QUOTE_LIMIT = 40  # characters of a bad value quoted back in a message


class Link(record("Link", ("variant", "deal", "daily"), ("",))):
    """The deal a share link names: the variant, the deal number, and the date
    (``YYYY-MM-DD``) when it is that date's daily deal, else ""."""

    __slots__ = ()


class LinkError(ValueError):
    """A share link that cannot be opened; ``str(error)`` is the message for the player."""


def make_link(page_url: str, variant: str, deal: int, daily: str = "") -> str:
    """The share link of deal ``deal`` of ``variant`` for the app at ``page_url`` (the
    daily deal of date ``daily``, when given).

    The link keeps the app's folder (so it works wherever the app is hosted) and drops the
    page's own query and fragment, and a trailing ``index.html``.
    """
    if isinstance(deal, bool) or not isinstance(deal, int) or not DEAL_MIN <= deal <= DEAL_MAX:
        raise ValueError(f"deal number must be from {DEAL_MIN} to {DEAL_MAX}, not {deal!r}")
    # web.compat imports urllib.parse only now, not at start-up: with the ipaddress module it
    # pulls in it takes about 50 ms to import in Pyodide, and only the Share button needs it.
    pairs = [("game", variant), ("deal", str(deal))]
    if daily:
        pairs.append(("daily", daily))
    return page_link(page_url, pairs)


def quoted(value: str) -> str:
    """``value`` in quotes for a message, shortened, control characters shown as '?'."""
    clean = "".join(ch if isprintable(ch) else "?" for ch in value)
    if len(clean) > QUOTE_LIMIT:
        clean = clean[: QUOTE_LIMIT - 1] + "…"
    return f"“{clean}”"


def parse_deal(text: str) -> int:
    """A deal number written as plain ASCII digits, DEAL_MIN..DEAL_MAX; LinkError otherwise."""
    if text == "":
        raise LinkError("The link does not give a deal number.")
    # ASCII digits only: no sign, spaces, decimal point, exponent or other scripts' digits.
    if not (isascii(text) and text.isdigit()):
        raise LinkError(f"The deal number {quoted(text)} in the link is not a whole number.")
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(DEAL_MAX)) or not DEAL_MIN <= int(digits) <= DEAL_MAX:
        raise LinkError(f"The deal number {quoted(text)} in the link is not in range: "
                        f"deals go from {DEAL_MIN} to {DEAL_MAX:,}.")
    return int(digits)


def query_pairs(query: str) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of a query string (without its "?"), in order.

    The same as ``urllib.parse.parse_qsl(query, keep_blank_values=True)``, which reads
    anything percent-encoded or with "+" for spaces. A plain query, as this app's own links
    are, is split here without importing urllib.parse (about 50 ms at start in Pyodide).

    >>> query_pairs("game=spider-2&deal=42&x")
    [('game', 'spider-2'), ('deal', '42'), ('x', '')]
    """
    if "%" in query or "+" in query:
        return parse_qsl(query)
    return [(name, value) for name, _, value in (f.partition("=") for f in query.split("&") if f)]


def parse_link(query: str, variants: tuple[str, ...] | list[str],
               titles: dict[str, str] | None = None) -> "Link | None":
    """The deal a page query (``location.search``) names, None when it names none.

    Raises :class:`LinkError` with a message for the player when the link is bad: a game
    this app does not know, a missing deal number, a deal that is not a number or is out of
    range, or a parameter given twice with different values.
    """
    pairs = query_pairs(query.lstrip("?"))
    values: dict[str, list[str]] = {}
    for key, value in pairs:
        if key in ("game", "deal", "daily"):
            values.setdefault(key, []).append(value)
    if not values:
        return None
    for key, found in values.items():
        if len(set(found)) > 1:
            raise LinkError(f"The link gives more than one {key}; it cannot tell which to open.")
    game = values.get("game", [None])[0]
    deal = values.get("deal", [None])[0]
    if game is None or game == "":
        raise LinkError("The link does not say which game to open.")
    if game not in variants:
        names = ", ".join((titles or {}).get(v, v) for v in variants)
        raise LinkError(f"The link names a game this app does not know, {quoted(game)}. "
                        f"The games are: {names}.")
    if deal is None:
        raise LinkError("The link does not give a deal number.")
    daily = values.get("daily", [""])[0]
    if daily and not is_day(daily):
        raise LinkError(f"The date {quoted(daily)} in the link is not a date written "
                        "YYYY-MM-DD.")
    return Link(game, parse_deal(deal), daily)


def share_text(variant_title: str, deal: int, daily: str = "") -> str:
    """The text that goes with a shared link."""
    if daily:
        return f"Play the daily {variant_title} of {daily} in Pocket Patience."
    return f"Play deal {deal} of {variant_title} in Pocket Patience."


def result_text(variant_title: str, deal: int, time: str, moves: int, daily: str = "") -> str:
    """The text that goes with the link of a won game: which deal, in what time and moves."""
    what = f"Daily {variant_title} {daily}" if daily else f"{variant_title}, deal {deal}"
    return f"Pocket Patience · {what} · won in {time}, {moves} moves"


__all__ = ["DEAL_MAX", "DEAL_MIN", "Link", "LinkError", "make_link", "parse_deal",
           "parse_link", "query_pairs", "quoted", "result_text", "share_text"]
