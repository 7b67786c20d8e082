"""A first visit from a deal link uses nothing Chromium has deprecated (Lighthouse's best
practices fail on any deprecation): above all, no SharedArrayBuffer on a page that is not
cross-origin isolated (Pyodide's module made one as it loaded: tools/vendor.py)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e


def test_a_first_visit_raises_no_deprecation_issue(page, app):
    session = page.context.new_cdp_session(page)
    issues: list[dict] = []
    session.on("Audits.issueAdded", lambda event: issues.append(event["issue"]))
    session.send("Audits.enable")

    app.open("?game=klondike&deal=7")
    # Python has drawn the deal: MicroPython has loaded and run.
    assert page.evaluate("() => document.querySelectorAll('[data-card]').length") == 52

    assert page.evaluate("() => crossOriginIsolated") is False  # the case that warns
    assert [i for i in issues if i["code"] == "DeprecationIssue"] == []
