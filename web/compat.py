"""What the page's Python needs that CPython and MicroPython give differently, in one place.

The first table can be drawn by MicroPython long before Pyodide has loaded
(docs/architecture.md §8), so the modules it needs (web/jsontext.py, labels, storage,
stats, saves, share, scores) keep to what both interpreters run, as engine/rules does
(engine/rules/compat.py says what that is). On top of the engine's list, MicroPython has
no ``{**mapping}`` or ``(*items, x)`` displays (a SyntaxError for the whole module),
``json.dumps`` takes no ``indent``, its ``str`` has no ``isascii``, ``isprintable`` or
``capitalize``, ``zlib`` has no ``crc32``, there is no ``urllib``, ``RecursionError``,
``random.Random`` or ``time.monotonic``, its dicts keep no order,
``isinstance(True, int)`` is False, ``round(x, 1)``, float reprs and the % format
differ, ``json.dumps`` writes a namedtuple as its repr, and its ``re`` recurses on the
browser's stack (a long string literal overflows it). A JavaScript exception thrown in a
call from MicroPython is no Python exception: it unwinds past every ``except`` (so
web/main.py reaches localStorage through web/table/table.js's ``window.ppStorage``, which
catches). In CPython every name here is the standard library's own, so nothing changes
there. tests/web/test_micropython_web.py runs
the modules under both and compares what they do.
"""

import json

from engine.rules.compat import MICROPYTHON, TYPE_CHECKING, record

try:
    from zlib import crc32
except ImportError:  # MicroPython's zlib has no crc32; binascii's is the same function
    from binascii import crc32

if TYPE_CHECKING:
    from typing import Any

if not MICROPYTHON:
    import builtins
    from random import Random
    from time import monotonic

    RecursionError = builtins.RecursionError  # noqa: A001 - the builtin itself

    def isascii(text: str) -> bool:
        """``text.isascii()``."""
        return text.isascii()

    def isprintable(text: str) -> bool:
        """``text.isprintable()``."""
        return text.isprintable()

    def capitalize(text: str) -> str:
        """``text.capitalize()``."""
        return text.capitalize()

    def dumps_indented(value: "Any") -> str:
        """``json.dumps(value, indent=1)``: a file the player may read."""
        return json.dumps(value, indent=1)

    def ordered(pairs: "Any") -> "dict[Any, Any]":
        """A dict of ``pairs`` that keeps their order (as every CPython dict does)."""
        return dict(pairs)

    def round1(x: float) -> float:
        """``round(x, 1)``."""
        return round(x, 1)

    def tenths(x: float) -> str:
        """``str(round(x, 1))``: a coordinate written with one decimal (an int as it is)."""
        return str(round(x, 1))

else:
    import random
    import time
    from math import frexp

    RecursionError = RuntimeError  # noqa: A001 - what MicroPython raises when too deep

    class Random:
        """The part of random.Random the table uses, on MicroPython's module functions
        (seeded by the browser; whose getrandbits gives 32 bits at most and whose randint
        stops at the machine word)."""

        def getrandbits(self, bits: int) -> int:
            value = got = 0
            while got < bits:
                step = min(32, bits - got)
                value |= random.getrandbits(step) << got
                got += step
            return value

        def randint(self, low: int, high: int) -> int:
            span = high - low + 1
            bits = len(bin(span - 1)) - 2 if span > 1 else 0
            while True:  # draws outside the span are thrown back: every value as likely
                value = self.getrandbits(bits) if bits else 0
                if value < span:
                    return low + value

        def choice(self, items: "Any") -> "Any":
            return items[self.randint(0, len(items) - 1)]

    _ticks = [time.ticks_ms(), 0]  # the last reading and the milliseconds counted to it

    def monotonic() -> float:
        """Seconds from a fixed point, never going back (time.monotonic): MicroPython's
        ticks wrap around, so each call adds the ticks since the last one."""
        now = time.ticks_ms()
        _ticks[1] += time.ticks_diff(now, _ticks[0])
        _ticks[0] = now
        return _ticks[1] / 1000

    def isascii(text: str) -> bool:
        """True when every character of ``text`` is ASCII."""
        return all(ord(ch) < 128 for ch in text)

    # Characters str.isprintable() rejects besides the C0 and C1 controls: the separators
    # and format characters a name or a link could carry (unassigned code points, which
    # CPython also rejects, are not listed: without unicodedata they cannot be known).
    _UNPRINTABLE = ((0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD),
                    (0x70F, 0x70F), (0x180E, 0x180E), (0x2000, 0x200F), (0x2028, 0x202F),
                    (0x205F, 0x2064), (0x2066, 0x206F), (0x3000, 0x3000),
                    (0xD800, 0xF8FF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0xA0, 0xA0),
                    (0x1680, 0x1680), (0xE0001, 0xE007F), (0xF0000, 0x10FFFF))

    def isprintable(text: str) -> bool:
        """``text.isprintable()`` for the characters a link or a name carries."""
        for ch in text:
            code = ord(ch)
            if code < 0x20 or 0x7F <= code < 0xA0:
                return False
            if code > 0x7F:
                for low, high in _UNPRINTABLE:
                    if low <= code <= high:
                        return False
        return True

    def ordered(pairs: "Any") -> "Any":
        """A dict of ``pairs`` that keeps their order, in JSON too: MicroPython's own
        dicts keep none (the page reads the piles in the engine's order)."""
        from collections import OrderedDict
        return OrderedDict(pairs)

    def capitalize(text: str) -> str:
        """The first character upper case, the rest lower (ASCII, as MicroPython's str)."""
        return text[:1].upper() + text[1:].lower()

    def dumps_indented(value: "Any") -> str:
        """The text ``json.dumps(value, indent=1)`` gives, written out by hand."""
        out: list = []
        _indent(value, 0, out)
        return "".join(out)

    def _tenths(x: float) -> int:
        """``round(x * 10)`` as it would be in exact arithmetic (what CPython's
        ``round(x, 1)`` rounds): from the float's mantissa and exponent, half to even.
        MicroPython's ``round(x, 1)`` and even ``x * 10`` round first (80.65 -> 80.6)."""
        if x == 0:
            return 0
        mantissa, exponent = frexp(abs(x))
        num = int(mantissa * 9007199254740992) * 10  # the mantissa as a 53-bit integer
        shift = 53 - exponent
        if shift <= 0:
            n = num << -shift
        else:
            n, rest = divmod(num, 1 << shift)
            half = 1 << (shift - 1)
            if rest > half or (rest == half and n & 1):
                n += 1
        return -n if x < 0 else n

    def round1(x: float) -> float:
        """``round(x, 1)`` as CPython rounds it (an int stays as it is)."""
        return x if isinstance(x, int) else _tenths(x) / 10

    def tenths(x: float) -> str:
        """What ``str(round(x, 1))`` writes in CPython, where MicroPython's float repr
        may show 17 digits (80.59999999999999): the tenths written out."""
        if isinstance(x, int):
            return str(x)
        n = _tenths(x)
        sign = "-" if n < 0 else ""
        n = abs(n)
        return sign + str(n // 10) + "." + str(n % 10)

    def _indent(value: "Any", level: int, out: list) -> None:
        if isinstance(value, dict) and value:
            out.append("{")
            for i, (key, item) in enumerate(value.items()):
                out.append(("," if i else "") + "\n" + " " * (level + 1)
                           + json.dumps(str(key)) + ": ")
                _indent(item, level + 1, out)
            out.append("\n" + " " * level + "}")
        elif isinstance(value, (list, tuple)) and value:
            out.append("[")
            for i, item in enumerate(value):
                out.append(("," if i else "") + "\n" + " " * (level + 1))
                _indent(item, level + 1, out)
            out.append("\n" + " " * level + "]")
        else:
            out.append(json.dumps(value))


# -- links (urllib.parse in CPython; MicroPython has no urllib) ------------------------------

_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~"


def _quote_plus(text: str) -> str:
    """``urllib.parse.quote_plus(text)``."""
    out = []
    for byte in text.encode("utf-8"):
        ch = chr(byte)
        out.append(ch if ch in _SAFE else "+" if ch == " " else "%" + f"{byte:02X}")
    return "".join(out)


def _unquote_plus(text: str) -> str:
    """``urllib.parse.unquote_plus(text)``."""
    text = text.replace("+", " ")
    if "%" not in text:
        return text
    parts = text.split("%")
    data = bytearray(parts[0].encode("utf-8"))
    for part in parts[1:]:
        code = part[:2]
        if len(code) == 2 and all(c in "0123456789abcdefABCDEF" for c in code):
            data.append(int(code, 16))
            data.extend(part[2:].encode("utf-8"))
        else:
            data.extend(("%" + part).encode("utf-8"))
    return _decode(bytes(data))


def _decode(data: bytes) -> str:
    """``data.decode("utf-8", "replace")``: MicroPython's decode takes no errors= and
    raises. Each byte that starts no valid character becomes U+FFFD (CPython gives one
    U+FFFD for a whole cut-off sequence: only a bad link's error message can differ)."""
    try:
        return data.decode("utf-8")
    except UnicodeError:
        pass
    out = []
    i = 0
    while i < len(data):
        for size in (1, 2, 3, 4):
            try:
                out.append(data[i:i + size].decode("utf-8"))
            except UnicodeError:
                continue
            i += size
            break
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def urlencode(pairs: "list[tuple[str, str]]") -> str:
    """``urllib.parse.urlencode(pairs)`` of text names and values."""
    if not MICROPYTHON:
        from urllib.parse import urlencode as encode

        return encode(pairs)
    return "&".join(_quote_plus(k) + "=" + _quote_plus(v) for k, v in pairs)


def parse_qsl(query: str) -> "list[tuple[str, str]]":
    """``urllib.parse.parse_qsl(query, keep_blank_values=True)``."""
    if not MICROPYTHON:
        from urllib.parse import parse_qsl as parse

        return parse(query, keep_blank_values=True)
    pairs = []
    for field in query.split("&"):
        if field:
            name, _, value = field.partition("=")
            pairs.append((_unquote_plus(name), _unquote_plus(value)))
    return pairs


def page_link(page_url: str, pairs: "list[tuple[str, str]]") -> str:
    """The address of the app at ``page_url`` (its query, fragment and a trailing
    ``index.html`` dropped) with the query ``pairs``: ``urllib.parse``'s split and join."""
    if not MICROPYTHON:
        from urllib.parse import urlsplit, urlunsplit

        parts = urlsplit(page_url)
        path = parts.path or "/"
        if path.endswith("/index.html"):
            path = path[: -len("index.html")]
        return urlunsplit((parts.scheme, parts.netloc, path, urlencode(pairs), ""))
    url = page_url.split("#", 1)[0].split("?", 1)[0]
    base, path = "", url
    colon = url.find(":")
    if colon > 0 and all(c.isalpha() or c.isdigit() or c in "+-." for c in url[:colon]):
        base, path = url[:colon].lower() + ":", url[colon + 1:]
    if path.startswith("//"):
        slash = path.find("/", 2)
        host = path if slash < 0 else path[:slash]
        base, path = base + host, "" if slash < 0 else path[slash:]
    path = path or "/"
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    return base + path + "?" + urlencode(pairs)


__all__ = ["MICROPYTHON", "TYPE_CHECKING", "Random", "RecursionError", "capitalize", "crc32",
           "dumps_indented", "isascii", "isprintable", "monotonic", "ordered", "page_link",
           "parse_qsl", "record", "round1", "tenths", "urlencode"]
