"""Issue 19 item 3 in Chromium: Obsidian's search operators typed in the top search box, the query kept in the
URL, plain-text snippets with the match marked, the keyboard from the box into the hits and back, and a query
that does not parse shown with its faulty character. One server and one page for the whole journey."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings

CORPUS = {
    "Meetings/2024-01-05 Work sync.md": "Meeting with **Bob** about work.\n- [ ] call Alice\n- [x] email Bob\n#work\n",
    "Personal/Meetup.md": "Personal meetup in the [[Park|park]]. #personal\n",
}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("search-syntax")
    vault = write_tree(root / "vault", {**SMALL_VAULT, **CORPUS})
    settings = load_settings(
        data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=False
    )
    live = LiveServer(settings).start()
    live.wait_ready()
    try:
        yield live.url
    finally:
        live.stop()


def _type(page: Any, q: str) -> None:
    page.fill("#search", q)


def _titles(page: Any, expected: list[str]) -> None:
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('.search-hit .hit-title')].map(a => a.innerText.trim()).sort()) === want",
        arg=json.dumps(sorted(expected), separators=(",", ":")),
    )


def _focused(page: Any) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.innerText.trim()")


def test_operators_keyboard_and_errors(page: Any, url: str) -> None:
    page.goto(f"{url}/#/v/notes", wait_until="networkidle")
    page.focus("#search")
    _type(page, "tag:#work")
    _titles(page, ["2024-01-05 Work sync"])
    assert "q=tag%3A%23work" in page.url

    _type(page, "meeting OR meetup")
    _titles(page, ["2024-01-05 Work sync", "Meetup"])
    snippets = page.locator(".search-hit .hit-snippet").all_inner_texts()
    assert not any("**" in s or "[[" in s for s in snippets)  # plain text, markup removed
    assert page.locator(".search-hit mark").first.inner_text().lower() in ("meeting", "meetup")

    # the keyboard: Down from the box into the hits, Up/Down between them, Up on the first back to the box
    first, second = page.locator(".search-hit .hit-title").all_inner_texts()
    page.keyboard.press("ArrowDown")
    assert _focused(page) == first.strip()
    page.keyboard.press("ArrowDown")
    assert _focused(page) == second.strip()
    page.keyboard.press("Escape")
    assert _focused(page) == "search"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    assert _focused(page) == "search"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_selector(f".note-title >> text={first.strip()}")

    # a query that does not parse: said under the box, its faulty character marked, no toast
    page.go_back()
    page.focus("#search")
    _type(page, "meeting (bob")
    page.wait_for_selector(".search-error:not([hidden]) .search-error-at")
    assert page.inner_text(".search-error-at") == "("
    assert "invalid_query" in page.inner_text(".search-error")
    page.watch.expect("400")  # the browser logs the refused request
    assert page.watch.problems() == []
