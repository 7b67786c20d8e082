"""A start-up that never finishes fails with what the page was waiting for."""

from __future__ import annotations

import pytest

from tests.e2e.startup_trail import wait_until_ready


def test_a_stuck_start_up_names_the_request_it_waits_for(page):
    held = []
    # The page's start-up script is answered never: the app cannot become ready.
    page.context.route("**/start/*.js", lambda route: held.append(route.request.url))
    # (No trail asked for here: the page fixture's watch keeps it, as for every test.)
    page.goto("/", wait_until="commit")
    with pytest.raises(AssertionError) as failure:
        wait_until_ready(page, 3_000)
    assert held, "the test held no request, so it proves nothing"
    message = str(failure.value)
    assert "neither ready nor in error" in message
    assert any(url in message for url in held), message
