"""Browser tests (issue 11): Python Playwright driving Debian's Chromium against a real ObsiGate on loopback.

Nothing is downloaded: ``playwright`` comes from the test extra (pip) and the browser is Debian's ``chromium``
(``make test`` installs it when it can: root + apt); ``playwright install`` is never run. Where either is
missing the tests skip with a one-line reason — except under ``OBSIGATE_REQUIRE_BROWSER=1`` (``.ci/run``),
where that is a failure. Every page is watched: a console error, an uncaught exception or a request to a
host that is not loopback fails the test (the last is also aborted, so tests never leave the machine).
Recipe and timings: ``shared/reference/ui-search.md`` Part 2.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

#: The real binary first (skips the shell wrapper's harmless stderr noise), then Debian's wrapper.
CHROMIUM_PATHS = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
PASSWORD = "correct horse battery staple"


def _chromium() -> str | None:
    return next((p for p in CHROMIUM_PATHS if os.access(p, os.X_OK)), None) or shutil.which("chromium")


def _unavailable() -> str | None:
    """Why the browser tests cannot run here, in one line; ``None`` when they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if _chromium() is None:
        return "Debian's chromium is not installed (apt-get install -y chromium, as root; make test does it)"
    return None


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """One headless Chromium for all the browser tests (launching costs ~0.5 s). Package scope, not session:
    sync Playwright keeps an event loop running in this thread while it is open, which breaks the asyncio
    tests that run after ``tests/web`` ("Cannot run the event loop while another loop is running")."""
    reason = _unavailable()
    if reason is not None:
        if os.environ.get("OBSIGATE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required here: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=_chromium(), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Watch:
    """What a page did that a test must not ignore. ``expect(text)``: a console error containing ``text`` is
    part of the test (e.g. the browser's own log of an expected 403), not a failure."""

    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    expected: list[str] = field(default_factory=list)
    #: Set once the test's body has run: what the page logs after (its server stopping first, as fixtures are
    #: torn down, leaves a poll "connection refused") is not the test's.
    ended: bool = False

    def expect(self, text: str) -> None:
        self.expected.append(text)

    def console(self, text: str) -> None:
        if not self.ended:
            self.console_errors.append(text)

    def problems(self) -> list[str]:
        console = [m for m in self.console_errors if not any(e in m for e in self.expected)]
        return [*(f"console error: {m}" for m in console), *(f"page error: {m}" for m in self.page_errors),
                *(f"request off loopback: {u}" for u in self.foreign_requests)]  # fmt: skip


def _is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("data", "blob", "about") or (parts.hostname or "") in LOOPBACK


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """After a browser test's body: take in what its page logged up to now (the events Playwright has not yet
    delivered), then end the watch, before any fixture (its server) is torn down."""
    try:
        return (yield)
    finally:
        tab, watch = getattr(item, "page_watch", (None, None))
        if watch is not None:
            from playwright.sync_api import Error as PlaywrightError

            try:
                tab.evaluate("0")  # a round trip: the page's pending console events reach the listeners
            except PlaywrightError:  # a page the test closed or crashed: nothing more to take in
                pass
            watch.ended = True


@pytest.fixture
def page(browser, request: pytest.FixtureRequest) -> Iterator[object]:
    """A fresh browser context (its own cookies) and page, watched (see :class:`Watch`, as ``page.watch``);
    the test fails if the page logged an unexpected console error, threw, or asked for a non-loopback URL."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    watch = Watch()

    def guard(route) -> None:
        if _is_local(route.request.url):
            route.continue_()
        else:
            watch.foreign_requests.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    tab = context.new_page()
    tab.on("console", lambda msg: watch.console(msg.text) if msg.type == "error" else None)
    tab.on("pageerror", lambda exc: watch.page_errors.append(str(exc)))
    tab.watch = watch
    request.node.page_watch = (tab, watch)  # ended by pytest_runtest_call below
    yield tab
    context.close()
    problems = watch.problems()
    if problems:
        pytest.fail("the page misbehaved:\n" + "\n".join(problems))


@pytest.fixture
def web_vault(tmp_path: Path, small_vault: Path) -> Path:
    """A copy of the small test vault (the tests write to it)."""
    return Path(shutil.copytree(small_vault, tmp_path / "web-vault"))


@pytest.fixture
def web_server(live_server, web_vault):
    """A real ObsiGate (auth on) on loopback over ``web_vault`` with the user ``alice`` (:data:`PASSWORD`)."""
    server = live_server({"notes": web_vault}, auth_enabled=True)
    server.app.state.auth.users.add_user("alice", PASSWORD, vaults=["notes"])
    return server


@pytest.fixture
def alice() -> dict[str, str]:
    """The sign-in body of :func:`web_server`'s user."""
    return {"username": "alice", "password": PASSWORD}


@pytest.fixture
def open_server(live_server, web_vault, tmp_path: Path):
    """A real ObsiGate with auth off (the web app goes straight in)."""
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "open-data")
