"""axe-core on every screen of the web app, light and dark (issue 19 item 7): 0 serious or critical violations.

One server (auth on, an admin with no AI provider configured: the assistant shows its empty state) for the
module, one page per theme that walks every screen: login, note view, the editor in Live Preview (Ctrl+E) and in
source mode, search with operators and its syntax sheet, the nested tags tree, the graph and its options panel,
settings (preferences, your files, AI, vaults, users), history, trash, a note in a folder (the folder expanded in the file tree)
with its properties editor and a hover preview open, the bookmarks (a group expanded), a .base file (table, cards),
notes embedding a base, a .canvas board, the assistant panel open (its empty state and an error turn), the quick
switcher (typed, and its recents), the command palette, the shortcuts sheet, tabs and a split view. Each screen is
checked with :func:`a11y.violations` (what :func:`a11y.assert_no_serious` runs); the failures of all screens are
reported together.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from conftest import LiveServer
from fakes.llm_server import PROVIDERS
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings

from .a11y import report, violations
from .conftest import PASSWORD

BOOKS = """filters:
  and:
    - file.hasTag("book")
views:
  - type: table
    name: By year
    order: [file.name, author, year, read]
    sort:
      - property: year
        direction: ASC
  - type: cards
    name: Shelf
    order: [file.name, year]
"""

BOARD = {
    "nodes": [
        {"id": "g1", "type": "group", "label": "Plan", "x": -40, "y": -60, "width": 700, "height": 300},
        {"id": "t1", "type": "text", "text": "# Idea\nSee [[Ideas]] and **bold** text.", "x": 0, "y": 0,
         "width": 260, "height": 140, "color": "4"},
        {"id": "f1", "type": "file", "file": "Projects/Plan.md", "subpath": "#Budget", "x": 340, "y": 0,
         "width": 280, "height": 200, "color": "#ff8800"},
    ],
    "edges": [{"id": "e1", "fromNode": "t1", "fromSide": "right", "toNode": "f1", "toSide": "left", "label": "costs"}],
}  # fmt: skip

BOOKMARKS = {
    "items": [
        {"type": "file", "ctime": 1, "path": "Projects/Plan.md", "subpath": "#Budget"},
        {"type": "search", "ctime": 2, "query": "tidepool"},
        {"type": "group", "ctime": 3, "title": "Work",
         "items": [{"type": "file", "ctime": 4, "path": "Ideas.md", "title": "My ideas"},
                   {"type": "folder", "ctime": 5, "path": "Projects"}]},
    ]
}  # fmt: skip

#: A search with Obsidian's operators (a nested tag:, OR, a group, path:, a phrase, a negation): Night and Plan.
OPERATORS = 'tag:#project/ops OR (path:Projects "tidepool buoy" -file:Secret)'

#: The small vault plus what the new screens show: a base and notes embedding it, a canvas, bookmarks, nested tags.
VAULT: dict[str, str | bytes] = {
    **SMALL_VAULT,
    "Books.base": BOOKS,
    "Books/Dune.md": '---\ntags: [book]\nauthor: "[[Home]]"\nyear: 1965\nread: true\n---\n# Dune\n',
    "Books/Emma.md": "---\ntags: [book]\nyear: 1815\n---\n# Emma\n",
    "Shelf.md": "# Shelf\n\n![[Books.base#Shelf]]\n",
    "Library.md": "# Library\n\n![[Books.base]]\n",
    "Boards/Plan.canvas": json.dumps(BOARD, indent="\t"),
    ".obsidian/bookmarks.json": json.dumps(BOOKMARKS),
    "Night.md": "# Night\n\n#project/ops/night\n",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ObsiGate with auth on and the admin ``root``; no AI provider configured."""
    root = tmp_path_factory.mktemp("a11y")
    vault = write_tree(root / "vault", VAULT)
    with pytest.MonkeyPatch.context() as mp:
        for name in PROVIDERS:  # whatever this machine's environment sets up
            for suffix in ("_API_KEY", "_BASE_URL", "_MODEL"):
                mp.delenv(f"{name}{suffix}", raising=False)
        mp.delenv("AI_DEFAULT_PROVIDER", raising=False)
        settings = load_settings(
            data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=True
        )
        live = LiveServer(settings).start()
        live.wait_ready()
        live.app.state.auth.users.add_user("root", PASSWORD, admin=True, vaults=None)
        try:
            yield live.url
        finally:
            live.stop()


def _screens(url: str) -> list[tuple[str, Callable[[Any], None]]]:
    """(name, open it) for every screen, in the order one page walks them (signed in after the first)."""

    def note(path: str, title: str) -> Callable[[Any], None]:
        def go(page: Any) -> None:
            page.goto(f"{url}/#/v/notes/{quote(path)}")
            page.wait_for_function("t => document.getElementById('note-title')?.textContent === t", arg=title)

        return go

    def login(page: Any) -> None:
        page.goto(f"{url}/#/v/notes/Ideas.md")
        page.wait_for_selector("#login-user")

    def sign_in_then_note(page: Any) -> None:
        page.fill("#login-user", "root")
        page.fill("#login-pass", PASSWORD)
        page.click("form button[type=submit]")
        page.wait_for_selector(".note-title >> text=Ideas")
        page.wait_for_selector("#tree .tree-row")

    def live_preview(page: Any) -> None:
        page.wait_for_selector("#edit-note")
        page.keyboard.press("Control+e")  # Obsidian's markdown:toggle-preview
        page.wait_for_selector(".editor-box.is-live .cm-lp")

    def source_mode(page: Any) -> None:
        page.click("#toggle-source")
        page.wait_for_selector(".editor-box:not(.is-live) .cm-content")

    def search(page: Any) -> None:
        page.click("#toggle-source")  # Live Preview again, as the person found it
        page.click("#close-editor")
        page.goto(f"{url}/#/search?q=tidepool&v=notes")
        page.wait_for_selector(".search-view .search-hit, .search-view li")

    def search_operators(page: Any) -> None:
        page.goto(f"{url}/#/search?v=notes&q={quote(OPERATORS)}")
        page.wait_for_function(  # not the hits of the search before (Ideas, Plan)
            "() => [...document.querySelectorAll('.search-hit .hit-title')].map(a => a.innerText.trim()).sort()"
            ".join() === 'Night,Plan'"
        )

    def search_syntax(page: Any) -> None:
        page.click(".search-syntax summary")
        page.wait_for_selector(".search-syntax[open] dl")

    def tags(page: Any) -> None:
        page.goto(f"{url}/#/tags?v=notes")
        item = page.locator("#tag-tree > [role=treeitem]").filter(has_text="project").first
        item.focus()
        page.keyboard.press("ArrowRight")  # a nested tag open: project/ops, project/sensors
        page.wait_for_selector("#tag-tree [role=treeitem][aria-level='2']")
        page.keyboard.press("ArrowDown")  # its group is beside it, owned (aria-owns): still reached by the keys
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "ops, 1 note"
        page.keyboard.press("ArrowLeft")  # back to the owner
        assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "project, 3 notes"

    def graph(page: Any) -> None:
        page.goto(f"{url}/#/graph?v=notes")
        page.wait_for_selector(".graph-view canvas, .graph canvas, canvas")

    def graph_options(page: Any) -> None:
        page.click("#graph-options summary")
        page.wait_for_selector("#graph-options[open] #graph-add-group")

    def settings(tab: str, ready: str) -> Callable[[Any], None]:
        def go(page: Any) -> None:
            page.goto(f"{url}/#/settings?tab={tab}")
            page.wait_for_selector(ready)

        return go

    def history(page: Any) -> None:
        page.goto(f"{url}/#/history?v=notes&p=Ideas.md")
        page.wait_for_selector(".history-view, .backups")

    def trash(page: Any) -> None:
        page.goto(f"{url}/#/trash?v=notes")
        page.wait_for_selector(".trash-view, .backups")

    def folder_open_with_properties(page: Any) -> None:
        note("Projects/Plan.md", "Plan")(page)  # the tree opens Projects to show the note
        page.wait_for_selector('#tree [data-path="Projects"][aria-expanded="true"]')
        page.wait_for_selector('#tree [data-path="Projects/Plan.md"][aria-current="page"]')
        page.wait_for_selector(".properties-editor [data-key=status]")
        page.focus('#tree [data-path="Projects/Plan.md"]')  # the open folder by keyboard: Left to it, Down back
        page.keyboard.press("ArrowLeft")
        assert page.evaluate("document.activeElement.dataset.path") == "Projects"
        page.keyboard.press("ArrowDown")
        assert page.evaluate("document.activeElement.dataset.path") == "Projects/Plan.md"

    def hover_preview(page: Any) -> None:
        page.hover(".markdown-body a[data-path='Home.md']")
        page.wait_for_selector(".hover-popover:not([hidden]) >> text=Welcome")

    def bookmarks(page: Any) -> None:
        page.mouse.move(0, 0)  # the hover preview goes
        page.keyboard.press("Escape")
        group = page.locator("#bookmarks [role=treeitem][aria-label='Work (group)']")
        group.focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#bookmarks [role=treeitem][aria-level='2']")

    def base_cards(page: Any) -> None:
        page.select_option(".base-switch", "Shelf")
        page.wait_for_selector(".base-card")

    def canvas(page: Any) -> None:
        page.goto(f"{url}/#/v/notes/Boards/Plan.canvas")
        page.wait_for_selector("#canvas-board[data-state=ready] .canvas-node[data-id=f1] .markdown-body")

    def assistant(page: Any) -> None:
        page.goto(f"{url}/#/v/notes/Ideas.md")
        page.wait_for_selector(".note-title >> text=Ideas")
        page.click("#assistant-btn")
        page.wait_for_selector(".assistant-empty")  # no provider set up: how to set one up
        page.keyboard.type("Hello")
        page.keyboard.press("Enter")
        page.wait_for_selector(".assistant-log .error-turn")  # the refusal, a turn of the conversation

    def switcher(page: Any) -> None:
        page.keyboard.press("Escape")
        page.keyboard.press("Control+o")
        page.keyboard.type("Ide")
        page.wait_for_selector("dialog.switcher[open] .switcher-list[data-query='Ide'] .switcher-item")

    def switcher_recents(page: Any) -> None:
        page.keyboard.press("Escape")
        page.keyboard.press("Control+o")
        page.wait_for_selector(".switcher[open] [data-kind=recent]")

    def palette(page: Any) -> None:
        page.keyboard.press("Escape")
        page.keyboard.press("Control+p")
        page.wait_for_selector(".palette[open] [role=option] kbd")

    def shortcuts(page: Any) -> None:
        page.keyboard.press("Escape")
        page.wait_for_selector(".palette", state="hidden")
        page.evaluate("document.activeElement.blur()")  # `?` opens the sheet outside a text field
        page.keyboard.press("Shift+?")
        page.wait_for_selector("dialog.shortcuts[open] tr[data-command]")

    def tabs_and_split(page: Any) -> None:
        page.keyboard.press("Escape")
        page.wait_for_selector("dialog.shortcuts", state="detached")
        note("Home.md", "Home")(page)
        page.click(".markdown-body a >> text=Ideas", modifiers=["Control"])  # a new tab
        page.wait_for_selector(".pane [role=tab] >> text=Ideas")
        page.click(".tab-split")
        page.wait_for_selector(".pane:nth-child(2) .note-title >> text=Ideas")

    return [
        ("login", login), ("note view", sign_in_then_note), ("editor: Live Preview", live_preview),
        ("editor: source mode", source_mode), ("search", search), ("search: operators", search_operators),
        ("search: syntax sheet", search_syntax), ("tags tree, a tag open", tags), ("graph", graph),
        ("graph: options", graph_options),
        ("settings: preferences", settings("prefs", ".settings-view h1")),
        ("settings: your files", settings("files", "#cfg-files #files-upload")),
        ("settings: AI", settings("ai", "#cfg-ai #provider-openai")),
        ("settings: vaults", settings("vaults", ".settings-view h1")),
        ("settings: users", settings("users", "#cfg-users .user-list")),
        ("history", history), ("trash", trash),
        ("note in a folder (expanded), properties", folder_open_with_properties),
        ("hover preview", hover_preview), ("bookmarks, a group open", bookmarks),
        (".base: table", lambda page: (note("Books.base", "Books")(page), page.wait_for_selector(".base-table td"))),
        (".base: cards", base_cards),
        ("note embedding a base: table",
         lambda page: (note("Library.md", "Library")(page), page.wait_for_selector(".embed-base .base-table td"))),
        ("note embedding a base: cards",
         lambda page: (note("Shelf.md", "Shelf")(page), page.wait_for_selector(".embed-base .base-card"))),
        (".canvas board", canvas),
        ("assistant panel", assistant), ("quick switcher", switcher), ("quick switcher: recents", switcher_recents),
        ("command palette", palette), ("shortcuts sheet", shortcuts), ("tabs and a split view", tabs_and_split),
    ]  # fmt: skip


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_screen_has_no_serious_axe_violation(page: Any, served: str, theme: str) -> None:
    page.add_init_script(f"localStorage.setItem('obsigate.theme', '{theme}')")
    page.set_default_timeout(10_000)
    page.watch.expect("401")  # the page asks who is there before signing in
    page.watch.expect("503")  # the assistant's refused request (no provider), shown in its conversation
    failures = []
    for name, open_screen in _screens(served):
        open_screen(page)
        found = violations(page)
        if found:
            failures.append(f"-- {name}, {theme}:\n{report(found)}")
    assert not failures, "axe-core serious/critical violations:\n" + "\n".join(failures)
