"""JSON from outside (storage, an imported file) read with limits on size and nesting.

Python's json module parses nested arrays and objects recursively. In Pyodide that
recursion runs on the browser's stack, and text nested a few thousand levels deep ends in
"Maximum call stack size exceeded" (or a fatal error) before Python's recursion limit can
say anything. So the depth is measured first, without recursion and in time linear in the
text, and only text within the limits is handed to json.loads.

>>> loads('{"a": [1, 2, {"b": "[[["}]}')
{'a': [1, 2, {'b': '[[['}]}
>>> loads("[" * 100 + "]" * 100)
Traceback (most recent call last):
    ...
web.jsontext.JsonTextError: nested too deeply (more than 16 levels)
"""

import json
import re

from web.compat import MICROPYTHON, TYPE_CHECKING, RecursionError

if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 16  # every value the app stores or imports is at most 6 levels deep
MAX_CHARS = 1_000_000

# A string literal (its closing quote optional, so an unterminated one ends the scan in
# one pass), or anything that is not a bracket: both are removed before counting.
# (Not compiled in MicroPython, which has no re.DOTALL and counts by hand.)
if not MICROPYTHON:
    _STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
    _NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


class JsonTextError(ValueError):
    """Text that is too large, too deeply nested or not JSON; says which, in plain words."""


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (brackets in strings ignored)."""
    if MICROPYTHON:  # its re recurses per character: a long string overflows the stack
        return _depth_by_hand(text)
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    level = deepest = 0
    for ch in brackets:
        if ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
        else:
            level -= 1
    return deepest


def _depth_by_hand(text: str) -> int:
    """What :func:`depth` finds, a character at a time."""
    level = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "[" or ch == "{":
            level += 1
            if level > deepest:
                deepest = level
        elif ch == "]" or ch == "}":
            level -= 1
    return deepest


def deeper_than(value: "Any", limit: int) -> bool:
    """Whether the arrays and objects of a parsed ``value`` nest more than ``limit`` deep
    (a walk over its values, without recursion, that stops once past the limit)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        if level > limit:
            return True
        stack.extend((child, level + 1) for child in item)
    return False


def loads(text: str, max_chars: int = MAX_CHARS, max_depth: int = MAX_DEPTH) -> "Any":
    """``json.loads(text)`` once ``text`` is known to be small and shallow enough.

    MicroPython's json.loads keeps its own stack (no recursion), so there the text is
    parsed first and the value's depth measured after: a walk over its values, where the
    measure of the text is a Python loop over every character (a player's statistics,
    read at each game's end, run to 10,000 characters and more). Text that is not JSON is
    measured by hand, to say what the measure first says elsewhere."""
    if not isinstance(text, str):
        raise JsonTextError("not text")
    if len(text) > max_chars:
        raise JsonTextError(f"too large ({len(text):,} characters)")
    too_deep = JsonTextError(f"nested too deeply (more than {max_depth} levels)")
    if MICROPYTHON:
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            if _depth_by_hand(text) > max_depth:
                raise too_deep from None
            raise JsonTextError("not JSON") from None
        if deeper_than(value, max_depth):
            raise too_deep
        return value
    if depth(text) > max_depth:
        raise too_deep
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise JsonTextError("not JSON") from None


__all__ = ["JsonTextError", "MAX_CHARS", "MAX_DEPTH", "deeper_than", "depth", "loads"]
