"""Share links (docs/rules/play-controls.md §9: a short link that recreates the same
starting deal)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from web.share import (
    DEAL_MAX,
    Link,
    LinkError,
    make_link,
    parse_deal,
    parse_link,
    query_pairs,
    quoted,
)

VARIANTS = engine.VARIANTS
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("page, expected", [
    ("https://h.example/", "https://h.example/?game=klondike&deal=7"),
    ("https://h.example/app/index.html?game=spider-1&deal=3#x",
     "https://h.example/app/?game=klondike&deal=7"),
    ("http://127.0.0.1:8000/sub/", "http://127.0.0.1:8000/sub/?game=klondike&deal=7"),
])
def test_make_link_keeps_the_app_folder_and_drops_the_page_query(page: str, expected: str):
    assert make_link(page, "klondike", 7) == expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_link_round_trip_names_the_same_deal_as_the_engine(variant: str):
    """Saving and sharing: the link recreates the same starting deal (seed-based)."""
    link = make_link("https://h.example/", variant, 4_000_000_000)
    parsed = parse_link("?" + link.split("?", 1)[1], VARIANTS)
    assert parsed == Link(variant, 4_000_000_000)
    dealt = engine.new_game(parsed.variant, parsed.deal).position()
    assert dealt == engine.new_game(variant, 4_000_000_000).position()


def test_make_link_refuses_a_deal_out_of_range():
    for deal in (0, DEAL_MAX + 1, True, "5"):
        with pytest.raises(ValueError):
            make_link("https://h.example/", "klondike", deal)  # type: ignore[arg-type]


@pytest.mark.parametrize("query", ["", "?", "?utm_source=x", "?foo=bar&x="])
def test_no_game_parameters_means_no_link(query: str):
    assert parse_link(query, VARIANTS) is None


@pytest.mark.parametrize("query, words", [
    ("?game=freecell&deal=5", "does not know"),
    ("?game=&deal=5", "which game"),
    ("?deal=5", "which game"),
    ("?game=klondike", "does not give a deal number"),
    ("?game=klondike&deal=", "does not give a deal number"),
    ("?game=klondike&deal=abc", "not a whole number"),
    ("?game=klondike&deal=-5", "not a whole number"),
    ("?game=klondike&deal=%2B5", "not a whole number"),      # +5
    ("?game=klondike&deal=5.0", "not a whole number"),
    ("?game=klondike&deal=1e3", "not a whole number"),
    ("?game=klondike&deal=%205", "not a whole number"),      # leading space
    ("?game=klondike&deal=%D9%A5", "not a whole number"),    # Arabic-Indic five
    ("?game=klondike&deal=0", "not in range"),
    ("?game=klondike&deal=4294967296", "not in range"),
    ("?game=klondike&deal=" + "9" * 5000, "not in range"),   # no int() of a huge string
    ("?game=klondike&deal=1&deal=2", "more than one deal"),
    ("?game=klondike&game=doublets&deal=2", "more than one game"),
])
def test_every_kind_of_bad_link_has_a_clear_message(query: str, words: str):
    with pytest.raises(LinkError) as caught:
        parse_link(query, VARIANTS)
    assert words in str(caught.value)


def test_a_bad_value_is_quoted_shortened_and_never_raw():
    hostile = "<img src=x onerror=alert(1)>" + "A" * 100 + "\n"
    with pytest.raises(LinkError) as caught:
        parse_link("?game=" + hostile.replace(" ", "%20") + "&deal=1", VARIANTS)
    message = str(caught.value)
    assert "A" * 50 not in message and "\n" not in message
    assert quoted("a\x00b") == "“a?b”"


def test_leading_zeros_and_same_value_twice_are_accepted():
    assert parse_deal("007") == 7
    assert parse_link("?game=doublets&deal=9&deal=9", VARIANTS) == Link("doublets", 9)
    assert parse_link("?deal=4294967295&game=spider-4", VARIANTS) == Link("spider-4", DEAL_MAX)


# Query text as a browser may hand it over: separators, escapes (good and broken), "+",
# spaces and non-ASCII letters.
QUERIES = st.text(alphabet=st.sampled_from("ab=&%+2F0e;? é\u0665"), max_size=30)


@given(QUERIES)
def test_query_pairs_reads_a_query_as_parse_qsl_does(query: str):
    """The start-up parser (no urllib.parse import for a plain query) gives what the
    standard library's parse_qsl(keep_blank_values=True) gives, for any query."""
    assert query_pairs(query) == parse_qsl(query, keep_blank_values=True)


@pytest.mark.parametrize("query", ["game=a&deal=1", "&&x&=y&deal=", "game=a%26b&deal=1+2"])
def test_query_pairs_examples(query: str):
    assert query_pairs(query) == parse_qsl(query, keep_blank_values=True)


def test_opening_a_plain_link_does_not_import_urllib():
    """Start-up cost (budget, docs/architecture.md §8: first visit <= 2.5 s): urllib.parse
    takes ~50 ms to import in Pyodide, so reading this app's own links must not need it."""
    code = ("import sys, web.share\n"
            "assert web.share.parse_link('?game=spider-1&deal=7', ('spider-1',)).deal == 7\n"
            "print('urllib.parse' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    assert done.stdout.split() == ["False"]
