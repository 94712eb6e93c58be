"""Issue 19 items 3 and 4 in Chromium: the command palette (fuzzy, hotkeys shown, recent first, Esc gives focus
back), the keyboard shortcuts sheet, the quick switcher (recents when empty, aliases, exact name first,
create-on-no-match where the vault's settings put new notes), today's daily note from the vault's
.obsidian/daily-notes.json and its template, the previous daily note, and "Insert template" (variables filled,
frontmatter merged) into a saved note and into the editor. One server and one page for the module."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import LiveServer
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings

VAULT = {
    **SMALL_VAULT,
    ".obsidian/app.json": json.dumps({"newFileLocation": "folder", "newFileFolderPath": "Inbox"}),
    ".obsidian/daily-notes.json": json.dumps(
        {"folder": "Daily", "format": "YYYY-MM-DD", "template": "Templates/Daily"}
    ),
    ".obsidian/templates.json": json.dumps({"folder": "Templates"}),
    "Templates/Daily.md": "---\ntype: daily\n---\n# {{title}}\nCreated on a {{date:dddd}}.\n",
    "Templates/Meeting.md": "---\ntags: [meeting]\n---\n## Meeting about {{title}}\n",
    "Daily/2020-01-01.md": "# An old day\n",
    "Planning.md": "# Planning\n",
    "Inbox/.keep.md": "",
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("nav")
    vault = write_tree(root / "vault", VAULT)
    settings = load_settings(
        data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=False
    )
    live = LiveServer(settings).start()
    live.wait_ready()
    try:
        yield live.url, vault
    finally:
        live.stop()


@pytest.fixture(scope="module")
def tab(browser: Any, served: tuple[str, Path]) -> Iterator[Any]:
    """ONE page for the module, watched as tests/web/conftest.py's ``page``: any console error or uncaught
    exception fails the module; requests off loopback are refused."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.route(
        "**/*", lambda r: r.continue_() if urlsplit(r.request.url).hostname in ("127.0.0.1", "localhost") else r.abort()
    )
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    yield page
    context.close()
    assert not problems, problems


def _hash(page: Any, want: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while page.evaluate("location.hash") != want:
        assert time.monotonic() < deadline, f"hash is {page.evaluate('location.hash')!r}, not {want!r}"
        time.sleep(0.05)


def _wait_file(page: Any, path: Path, predicate: Any = lambda text: True, timeout: float = 10) -> str:
    """Wait for ``path`` to exist and match, letting the page run meanwhile (Playwright's sync API serves the
    page's routed requests only while it is called: a plain sleep would stall them)."""
    deadline = time.monotonic() + timeout
    while not (path.exists() and predicate(path.read_text())):
        assert time.monotonic() < deadline, (
            f"{path} never came (or never matched): {path.read_text() if path.exists() else None!r}"
        )
        page.wait_for_timeout(50)
    return path.read_text()


def _open_note(page: Any, url: str, path: str) -> None:
    page.goto(f"{url}/#/v/notes/{path}")
    page.wait_for_selector(f'#tree [role="treeitem"][data-path="{path}"][aria-current="page"]')


def _options(page: Any, dialog: str) -> list[str]:
    return page.locator(f"{dialog}[open] [role=option]").all_inner_texts()


def _palette_run(page: Any, typed: str, first: str) -> None:
    page.keyboard.press("Control+P")
    page.wait_for_selector(".palette[open]")
    page.keyboard.type(typed)
    page.wait_for_function(
        "t => document.querySelector('.palette[open] [role=option]')?.textContent.startsWith(t)", arg=first
    )
    page.keyboard.press("Enter")


def test_palette_and_shortcuts_sheet(tab: Any, served: tuple[str, Path]) -> None:
    url, _ = served
    _open_note(tab, url, "Ideas.md")
    tab.focus("#search")
    tab.keyboard.press("Control+P")
    tab.wait_for_selector(".palette[open]")
    assert tab.evaluate("document.activeElement.getAttribute('aria-label')") == "Command palette"
    tab.keyboard.type("opset")  # fuzzy: Open SETtings
    first = tab.locator(".palette[open] [role=option]").first
    assert first.locator(".pal-name").inner_text() == "Open settings"
    assert first.locator("mark").all_inner_texts() == ["Op", "set"]  # the matched letters
    assert first.locator("kbd").inner_text() == "Ctrl+,"
    tab.keyboard.press("Escape")
    tab.wait_for_selector(".palette", state="hidden")
    assert tab.evaluate("document.activeElement.id") == "search"  # focus back where it was

    _palette_run(tab, "settings", "Open settings")
    _hash(tab, "#/settings")
    tab.keyboard.press("Control+P")
    assert _options(tab, ".palette")[0].startswith("Open settings")  # recently used first
    tab.keyboard.press("Escape")
    tab.wait_for_selector(".palette", state="hidden")  # closed, and focus given back, before the blur below

    tab.evaluate("document.activeElement.blur()")  # `?` types a `?` in a text field, opens the sheet elsewhere
    tab.keyboard.press("Shift+?")
    sheet = tab.locator("dialog.shortcuts[open]")
    sheet.wait_for()
    assert sheet.get_by_role("heading", name="Navigation").count() == 1
    row = sheet.locator("tr[data-command='command-palette:open']")
    assert row.locator("th").inner_text() == "Open command palette" and row.locator("kbd").inner_text() == "Ctrl+P"
    assert sheet.locator("tr[data-command='daily-notes']").count() == 1
    tab.keyboard.press("Escape")
    tab.wait_for_selector("dialog.shortcuts", state="detached")


def test_switcher_recents_aliases_exact_first_and_create(tab: Any, served: tuple[str, Path]) -> None:
    url, vault = served
    _open_note(tab, url, "Ideas.md")
    _open_note(tab, url, "Home.md")
    tab.keyboard.press("Control+O")
    tab.wait_for_selector(".switcher[open] [data-kind=recent]")
    recent = tab.locator(".switcher[open] [data-kind=recent]")
    assert recent.nth(0).get_attribute("data-path") == "Home.md"  # the open note first,
    assert recent.nth(1).get_attribute("aria-selected") == "true"  # so Enter goes back to the previous one
    assert recent.nth(1).get_attribute("data-path") == "Ideas.md"

    tab.keyboard.type("start")  # Home.md's alias
    tab.wait_for_selector(".switcher[open] [role=option][data-kind=hit]")
    top = tab.locator(".switcher[open] [role=option]").first
    assert top.get_attribute("data-path") == "Home.md" and top.locator(".sw-title").inner_text() == "Start"

    tab.fill(".switcher[open] .switcher-input", "plan")
    tab.wait_for_function(
        "() => document.querySelector('.switcher[open] [role=option]')?.dataset.path === 'Projects/Plan.md'"
    )
    paths = [tab.locator(".switcher[open] [role=option]").nth(i).get_attribute("data-path") for i in range(2)]
    assert paths == ["Projects/Plan.md", "Planning.md"]  # the exact name before the shorter prefix match
    assert tab.locator(".switcher[open] [data-kind=create]").count() == 0  # a note has that name

    tab.fill(".switcher[open] .switcher-input", "foo#bar")  # a name that breaks links: refused, said why
    tab.wait_for_selector(".switcher[open] [data-kind=create].is-invalid >> text=#")
    tab.keyboard.press("Shift+Enter")
    tab.wait_for_selector(".switcher[open] .switcher-hint >> text=#")
    assert not (vault / "Inbox/foo#bar.md").exists() and tab.locator(".switcher[open]").count() == 1
    tab.fill(".switcher[open] .switcher-input", "Brand new idea")
    tab.wait_for_selector(".switcher[open] [data-kind=create]")
    tab.keyboard.press("Shift+Enter")
    _hash(tab, "#/v/notes/Inbox/Brand%20new%20idea.md")  # .obsidian/app.json: new notes go to Inbox/
    assert (vault / "Inbox/Brand new idea.md").exists()
    tab.wait_for_selector('#tree [role="treeitem"][data-path="Inbox/Brand new idea.md"]')
    tab.keyboard.press("Escape")


def test_daily_note_and_templates(tab: Any, served: tuple[str, Path]) -> None:
    url, vault = served
    _open_note(tab, url, "Ideas.md")
    _palette_run(tab, "today", "Open today's daily note")
    now = datetime.now()
    name = now.strftime("%Y-%m-%d")
    _hash(tab, f"#/v/notes/Daily/{name}.md")
    text = _wait_file(tab, vault / f"Daily/{name}.md")
    assert text == f"---\ntype: daily\n---\n# {name}\nCreated on a {now.strftime('%A')}.\n"
    _palette_run(tab, "previous daily", "Open previous daily note")
    _hash(tab, "#/v/notes/Daily/2020-01-01.md")

    # into a saved note (no editor open): at its end, the template's frontmatter merged in
    _open_note(tab, url, "Ideas.md")
    _palette_run(tab, "insert template", "Insert template")
    tab.wait_for_selector(".picker[open] [role=option]")
    assert _options(tab, ".picker") == ["Daily\nTemplates/Daily.md", "Meeting\nTemplates/Meeting.md"]
    tab.keyboard.type("meet")
    tab.keyboard.press("Enter")
    saved = _wait_file(tab, vault / "Ideas.md", lambda t: "Meeting about" in t)
    assert saved.startswith("---\ntags: [meeting]\n---\n# Ideas\n") and saved.endswith(
        "- [ ] sketch the buoy\n## Meeting about Ideas\n"
    )

    # into the editor: at the cursor, one undoable change, saved only when the person saves
    _open_note(tab, url, "Planning.md")
    tab.click("#edit-note")
    tab.wait_for_selector(".editor-box .cm-content")
    tab.click(".editor-box .cm-line >> text=Planning")
    tab.keyboard.press("End")
    tab.keyboard.press("Enter")
    _palette_run(tab, "insert template", "Insert template")
    tab.wait_for_selector(".picker[open] [role=option]")
    tab.keyboard.type("meeting")
    tab.keyboard.press("Enter")
    tab.wait_for_function(
        "() => document.querySelector('.editor-box .cm-content').innerText.includes('Meeting about Planning')"
    )
    tab.click("#toggle-source")  # source mode: Live Preview hides the markup ("# ") off the cursor
    tab.wait_for_selector("#toggle-source[aria-pressed=true]")
    doc = tab.inner_text(".editor-box .cm-content")
    assert doc.splitlines()[:5] == ["---", "tags: [meeting]", "---", "# Planning", "## Meeting about Planning"]
    assert (vault / "Planning.md").read_text() == "# Planning\n"  # not saved behind the person's back
