"""Issue 19 item 3 in Chromium: tabs and a split view in the main area (open in a new tab, switch, close, reopen,
split right, kept across a reload, the URL showing the active tab, back/forward), the vault's bookmarks
(.obsidian/bookmarks.json) in the left pane, and the nested tags tree. One server and one page for the module."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import LiveServer
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings

BOOKMARKS = {
    "items": [
        {"type": "file", "ctime": 1, "path": "Projects/Plan.md", "subpath": "#Budget"},
        {"type": "search", "ctime": 2, "query": "tidepool"},
        {
            "type": "group",
            "ctime": 3,
            "title": "Work",
            "items": [
                {"type": "file", "ctime": 4, "path": "Ideas.md", "title": "My ideas"},
                {"type": "folder", "ctime": 5, "path": "Projects"},
                {"type": "url", "ctime": 6, "url": "javascript:alert(1)", "title": "Not a link"},
            ],
        },
    ]
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ObsiGate (auth off) over the small vault plus bookmarks and nested tags."""
    root = tmp_path_factory.mktemp("panes")
    files = {
        **SMALL_VAULT,
        ".obsidian/bookmarks.json": json.dumps(BOOKMARKS),
        "Night.md": "# Night\n\n#project/ops/night\n",
        "Long.md": "# Long\n\n" + "".join(f"Line {i} of a long note.\n\n" for i in range(150)),
    }
    vault = write_tree(root / "vault", files)
    settings = load_settings(
        data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=False
    )
    live = LiveServer(settings).start()
    live.wait_ready()
    try:
        yield live.url
    finally:
        live.stop()


@pytest.fixture(scope="module")
def tab(browser: Any, served: str) -> Iterator[Any]:
    """One page for the module's tests; a console error, an uncaught exception or a request off the server fails
    them (as tests/web/conftest.py's ``page`` does for one test)."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    problems: list[str] = []
    context.route(
        "**/*",
        lambda r: (
            r.continue_()
            if r.request.url.startswith((served, "data:", "blob:"))
            else (problems.append(r.request.url), r.abort())
        ),
    )
    page = context.new_page()
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield page
    context.close()
    assert not problems, problems


def _tabs(page: Any, pane: int = 1) -> list[str]:
    return page.locator(f".pane:nth-child({pane}) [role=tab] .tab-title").all_inner_texts()


def _active(page: Any, pane: int = 1) -> str:
    return page.inner_text(f'.pane:nth-child({pane}) [role=tab][aria-selected="true"] .tab-title')


def _hash(page: Any) -> str:
    return page.evaluate("decodeURIComponent(location.hash)")


def _wait_title(page: Any, title: str, pane: int = 1) -> None:
    page.wait_for_selector(f".pane:nth-child({pane}) .note-title >> text={title}")


def test_tabs_split_reload_and_back(tab: Any, served: str) -> None:
    page = tab
    page.goto(f"{served}/#/v/notes/Home.md")
    _wait_title(page, "Home")
    assert _tabs(page) == ["Home"] and page.get_attribute("[role=tab]", "aria-selected") == "true"

    # Ctrl+click a link: a new tab after the active one, active, the URL on it
    page.click(".markdown-body a >> text=Ideas", modifiers=["Control"])
    _wait_title(page, "Ideas")
    assert _tabs(page) == ["Home", "Ideas"] and _active(page) == "Ideas" and _hash(page) == "#/v/notes/Ideas.md"

    # Ctrl+Tab to the previous... next tab (wraps); back returns to the tab you were on, not over it
    page.keyboard.press("Control+Tab")
    _wait_title(page, "Home")
    assert _active(page) == "Home" and _hash(page) == "#/v/notes/Home.md"
    page.go_back()
    _wait_title(page, "Ideas")
    assert _tabs(page) == ["Home", "Ideas"] and _active(page) == "Ideas"

    # the tab strip by keyboard: arrows move and activate; Mod+W closes, Mod+Shift+T reopens at its place
    page.focus('[role=tab][aria-selected="true"]')
    page.keyboard.press("ArrowLeft")
    _wait_title(page, "Home")
    assert page.evaluate("document.activeElement.textContent") == "Home"
    page.keyboard.press("Control+w")
    _wait_title(page, "Ideas")
    assert _tabs(page) == ["Ideas"] and _hash(page) == "#/v/notes/Ideas.md"
    page.keyboard.press("Control+Shift+T")
    _wait_title(page, "Home")
    assert _tabs(page) == ["Home", "Ideas"] and _active(page) == "Home"
    page.keyboard.press("Control+2")
    _wait_title(page, "Ideas")

    # split right: a second pane on the same note, focused; navigation goes to the focused pane only
    page.click(".tab-split")
    page.wait_for_selector(".pane:nth-child(2) .note-title >> text=Ideas")
    page.click('#tree [role=treeitem][data-path="Home.md"] .tree-row')
    _wait_title(page, "Home", pane=2)
    assert page.inner_text(".pane:nth-child(1) .note-title") == "Ideas" and _hash(page) == "#/v/notes/Home.md"
    assert page.locator("#note-title").count() == 1  # ids only in the focused pane
    # clicking into the other pane focuses it: the URL follows, its note is not drawn again
    page.click(".pane:nth-child(1) .markdown-body p")
    page.wait_for_function("location.hash === '#/v/notes/Ideas.md'")
    assert "is-focused" in page.get_attribute(".pane:nth-child(1)", "class")

    # reload: the same tabs and panes come back, each pane showing its note
    page.reload()
    _wait_title(page, "Ideas")
    _wait_title(page, "Home", pane=2)
    assert _tabs(page) == ["Home", "Ideas"] and _tabs(page, 2) == ["Home"] and _hash(page) == "#/v/notes/Ideas.md"

    # a phone shows the focused pane only
    page.set_viewport_size({"width": 600, "height": 800})
    assert page.is_visible(".pane:nth-child(1)") and page.is_hidden(".pane:nth-child(2)")
    page.set_viewport_size({"width": 1280, "height": 800})

    # middle click on the right pane's tab closes it and the pane; the left one has the focus
    page.click(".pane:nth-child(2) [role=tab]", button="middle")
    page.wait_for_function("document.querySelectorAll('.pane').length === 1")
    assert _hash(page) == "#/v/notes/Ideas.md"


def test_bookmarks_open_what_they_point_to(tab: Any, served: str) -> None:
    page = tab
    page.goto(f"{served}/#/v/notes/Home.md")
    page.wait_for_selector("#bookmarks [role=treeitem] >> text=Plan > Budget")
    assert page.get_attribute("#bookmarks-toggle", "aria-expanded") == "true"
    page.click("#bookmarks a >> text=Plan > Budget")
    _wait_title(page, "Plan")
    assert _hash(page) == "#/v/notes/Projects/Plan.md?h=Budget"

    # by keyboard: Down to the search, Enter runs it; Down to the group, Right opens it
    page.focus("#bookmarks [role=treeitem] >> nth=0")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_function("decodeURIComponent(location.hash).startsWith('#/search?q=tidepool')")
    group = page.locator('#bookmarks [role=treeitem][aria-label="Work (group)"]')
    assert group.get_attribute("aria-expanded") == "false"
    page.focus("#bookmarks [role=treeitem] >> nth=1")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")
    assert group.get_attribute("aria-expanded") == "true"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    _wait_title(page, "Ideas")
    # a folder bookmark opens the tree at the folder; an unsafe URL is shown but opens nothing
    page.click("#bookmarks [role=treeitem] >> text=Projects")
    page.wait_for_function("document.activeElement.dataset.path === 'Projects'")
    assert page.locator("#bookmarks a >> text=Not a link").count() == 0


def test_a_tab_comes_back_scrolled_where_it_was(tab: Any, served: str) -> None:
    page = tab
    page.goto(f"{served}/#/v/notes/Long.md")
    page.evaluate("localStorage.clear()")  # one pane, one tab: the earlier tests' tabs and split are not this one's
    page.reload()
    _wait_title(page, "Long")
    page.eval_on_selector(".pane.is-focused .pane-body", "b => { b.scrollTop = 1500; }")
    page.keyboard.press("Control+t")  # a new tab, then back with Ctrl+Shift+Tab
    page.wait_for_function("decodeURIComponent(location.hash) === '#/v/notes'")
    page.keyboard.press("Control+Shift+Tab")
    _wait_title(page, "Long")
    page.wait_for_function("document.querySelector('.pane.is-focused .pane-body').scrollTop === 1500")
    page.keyboard.press("Control+Tab")
    page.keyboard.press("Control+w")  # the new tab goes again
    page.wait_for_function("decodeURIComponent(location.hash) === '#/v/notes/Long.md'")
    # Ctrl+Enter on a file of the tree: a new tab on it, the current one stays; Alt+1 back to the first tab
    page.focus('#tree [role=treeitem][data-path="Ideas.md"]')
    page.keyboard.press("Control+Enter")
    _wait_title(page, "Ideas")
    assert _tabs(page) == ["Long", "Ideas"]
    page.keyboard.press("Alt+1")
    _wait_title(page, "Long")


def test_a_tab_follows_its_renamed_file(tab: Any, served: str) -> None:
    page = tab
    page.goto(f"{served}/#/v/notes/Ideas.md")
    _wait_title(page, "Ideas")
    page.click('#tree [role=treeitem][data-path="Night.md"] .tree-row', modifiers=["Control"])  # a new tab
    _wait_title(page, "Night")
    page.keyboard.press("Control+Shift+Tab")
    _wait_title(page, "Ideas")
    page.click('#tree [role=treeitem][data-path="Night.md"] > .tree-row', button="right")
    page.click('#tree-menu [role="menuitem"][data-action="rename"]')
    page.get_by_label("New name").fill("Dawn")
    page.keyboard.press("Enter")
    page.wait_for_selector(".pane [role=tab] >> text=Dawn")
    assert "Night" not in _tabs(page) and _hash(page) == "#/v/notes/Ideas.md"


def test_nested_tags_tree(tab: Any, served: str) -> None:
    page = tab
    page.goto(f"{served}/#/tags?v=notes")
    item = page.locator("#tag-tree > [role=treeitem]").filter(has_text="project").first
    item.wait_for()
    assert item.get_attribute("aria-label") == "project, 3 notes"  # Ideas, Plan, Dawn: each once
    item.focus()
    page.keyboard.press("ArrowRight")
    assert item.get_attribute("aria-expanded") == "true"
    children = page.locator(f"#{item.get_attribute('aria-owns')} > [role=treeitem]")  # its group, owned
    assert children.evaluate_all("ns => ns.map(n => n.getAttribute('aria-label'))") == [
        "ops, 1 note",
        "sensors, 2 notes",
    ]
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_function("decodeURIComponent(location.hash).startsWith('#/search?q=#project/sensors')")
