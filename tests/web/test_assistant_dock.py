"""The assistant panel's place, keys and words in Chromium (issue 19 item 5), with no AI provider set up.

One server (auth off: the person is an admin) for the module and one page for the journey: Ctrl+Shift+A from
the note puts focus in the message box; the empty state says how to set a provider up (a link to the AI
settings); on a wide screen the panel sits beside the note (the Edit button uncovered); Shift+Enter breaks the
line and Enter sends; the failure is a turn of the conversation in words (by its code), not a toast; Esc closes
the panel and gives focus back to what had it; at 320 px the header's pickers all fit; on a phone navigating
closes the panel.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer
from fakes.llm_server import PROVIDERS
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ObsiGate (auth off) whose providers are all unset (the default one, DeepSeek, is not configured)."""
    root = tmp_path_factory.mktemp("assistant-dock")
    vault = write_tree(root / "vault", SMALL_VAULT)
    with pytest.MonkeyPatch.context() as mp:
        for name in PROVIDERS:
            for suffix in ("_API_KEY", "_BASE_URL", "_MODEL"):
                mp.delenv(f"{name}{suffix}", raising=False)
        mp.delenv("AI_DEFAULT_PROVIDER", raising=False)
        settings = load_settings(
            data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=False
        )
        live = LiveServer(settings).start()
        live.wait_ready()
        try:
            yield live.url
        finally:
            live.stop()


def _focused(page: Any, selector: str) -> None:
    page.wait_for_function("s => document.activeElement && document.activeElement.matches(s)", arg=selector)


def _box(page: Any, selector: str) -> dict[str, float]:
    return page.locator(selector).bounding_box()


def test_keyboard_journey_empty_state_errors_in_the_thread_and_the_layouts(page: Any, served: str) -> None:
    page.set_default_timeout(10_000)
    page.watch.expect("503")  # the browser logs the refused request (no provider): the thread shows it
    page.goto(f"{served}/#/v/notes/Ideas.md")
    page.focus("#edit-note")
    page.keyboard.press("Control+Shift+A")
    _focused(page, ".assistant-compose textarea")
    assert page.get_attribute("#assistant-btn", "aria-expanded") == "true"
    assert "Ctrl+Shift+A" in page.get_attribute("#assistant-btn", "title")
    empty = page.wait_for_selector(".assistant-empty")
    assert "DeepSeek" in empty.inner_text()
    assert page.get_attribute(".assistant-empty a", "href") == "#/settings?tab=ai"  # an admin: the settings

    # wide: beside the note, which narrows; its Edit button is not under the panel
    pane, edit = _box(page, "#assistant-pane"), _box(page, "#edit-note")
    assert edit["x"] + edit["width"] <= pane["x"]
    assert _box(page, "#main")["x"] + _box(page, "#main")["width"] <= pane["x"] + 1

    # Shift+Enter: a new line; Enter: sent. The failure is in the conversation, worded, with its code.
    page.keyboard.type("line one")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("line two")
    assert page.input_value(".assistant-compose textarea") == "line one\nline two"
    page.keyboard.press("Enter")
    error = page.wait_for_selector(".assistant-log .error-turn")
    assert "This provider is not set up" in error.inner_text()
    assert "Code: provider_not_configured" in error.inner_text()
    assert page.inner_text(".assistant-log .msg.user") == "line one\nline two"
    assert page.input_value(".assistant-compose textarea") == ""
    assert page.locator(".toast").count() == 0  # not a toast over Send

    # Esc closes and gives focus back to the Edit button, where it was
    page.keyboard.press("Escape")
    page.wait_for_selector("#assistant-pane", state="hidden")
    _focused(page, "#edit-note")
    assert page.get_attribute("#assistant-btn", "aria-expanded") == "false"

    # 320 px (a phone): the header's pickers and buttons all fit, none cut
    page.set_viewport_size({"width": 320, "height": 700})
    page.click("#assistant-btn")
    _focused(page, ".assistant-compose textarea")
    right = _box(page, "#assistant-pane")["width"]
    cut = page.evaluate(
        """(right) => [...document.querySelectorAll('.assistant-bar select, .assistant-bar button, .assistant-bar label')]
            .filter((e) => e.offsetParent !== null)
            .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > right + 0.5)
            .map((e) => e.outerHTML.slice(0, 80))""",
        right,
    )
    assert cut == []
    # on a phone, going elsewhere closes the panel
    page.evaluate("location.hash = '#/v/notes/Home.md'")
    page.wait_for_selector(".note-title >> text=Home")
    page.wait_for_selector("#assistant-pane", state="hidden")
