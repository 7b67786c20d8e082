"""The page's Content-Security-Policy is enforced, and the check every end-to-end test
runs (tests/e2e/conftest.py) sees a violation: a script or a style that is not the app's
own is refused and reported."""

from __future__ import annotations

from tests.e2e.conftest import READY_TIMEOUT_MS


def test_an_injected_script_and_style_are_refused_and_reported(
        app, page, browser_log, csp_reports):
    app.open("?game=klondike&deal=3")
    refused = page.evaluate("""() => {
        const script = document.createElement('script');
        script.textContent = 'window.__injected = true';
        document.head.append(script);
        const style = document.createElement('style');
        style.textContent = 'body { outline: 3px solid red }';
        document.head.append(style);
        const marked = document.createElement('p');
        marked.setAttribute('style', 'outline: 3px solid red');
        document.body.append(marked);
        return {script: window.__injected === true,
                styled: getComputedStyle(document.body).outlineStyle === 'solid',
                attribute: getComputedStyle(marked).outlineStyle === 'solid'};
    }""")
    assert refused == {"script": False, "styled": False, "attribute": False}
    page.wait_for_function("() => window.__cspViolations.length >= 3",
                           timeout=READY_TIMEOUT_MS)
    directives = sorted(v["directive"] for v in page.evaluate("window.__cspViolations"))
    assert directives == ["script-src-elem", "style-src-attr", "style-src-elem"]
    page.evaluate("1")  # let the page's reports reach the test
    reported = csp_reports.take()
    assert any("script-src-elem" in text for text in reported)
    assert any("style-src-elem" in text for text in reported)
    # Chromium says so in the console too; expected here, so not a problem of the page.
    errors = browser_log.console_errors
    assert sum("Content Security Policy" in text for text in errors) == 3
    errors[:] = [text for text in errors if "Content Security Policy" not in text]
    # The app plays on.
    assert page.evaluate("document.documentElement.dataset.app") == "ready"
