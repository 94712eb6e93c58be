"""Issue 19 item 1 in Chromium: edit in place with Live Preview. Ctrl+E opens the editor with the cursor in it;
markup is hidden off the cursor and shown where it is
(the span under it; a heading's whole line); a task ticks in the editor; Ctrl+S saves through the
usual save path and Ctrl+E goes back to reading, which shows the saved text after a reload; source mode is a
button away; `[[` completion writes the link in each vault's own `.obsidian/app.json` format. One server and
one page for the module (the suite's time budget)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings

LINKS = {"Projects/Sub/Deep.md": "# Deep\n", "Ideas.md": "# Ideas\n"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Path]]]:
    """One ObsiGate (auth off) over three vaults: `notes` (the small vault), `rel` (newLinkFormat relative) and
    `abs` (absolute paths, markdown links)."""
    root = tmp_path_factory.mktemp("liveedit")
    vaults = {
        "notes": write_tree(root / "notes", SMALL_VAULT),
        "rel": write_tree(root / "rel", {**LINKS, ".obsidian/app.json": json.dumps({"newLinkFormat": "relative"})}),
        "abs": write_tree(
            root / "abs",
            {
                **LINKS,
                "Home.md": "# Home\n",
                ".obsidian/app.json": json.dumps({"newLinkFormat": "absolute", "useMarkdownLinks": True}),
            },
        ),
    }
    settings = load_settings(
        data_dir=root / "data",
        port=free_port(),
        vaults={name: {"path": str(p)} for name, p in vaults.items()},
        auth_enabled=False,
    )
    live = LiveServer(settings).start()
    live.wait_ready()
    try:
        yield live.url, vaults
    finally:
        live.stop()


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Any]:
    """ONE page for the module's journeys; a console error or an uncaught exception fails the module."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    problems: list[str] = []
    tab = context.new_page()
    tab.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    tab.on("pageerror", lambda exc: problems.append(str(exc)))
    yield tab
    context.close()
    assert problems == []


def _line(page: Any, index: int) -> str:
    return page.evaluate("(i) => document.querySelectorAll('.editor-box .cm-line')[i].innerText", index)


def _open_editor(page: Any, url: str, vault: str, path: str) -> None:
    page.goto(f"{url}/#/v/{vault}/{path}", wait_until="networkidle")
    title = path.rsplit("/", 1)[-1].removesuffix(".md")
    page.wait_for_function(
        "(t) => document.getElementById('note-title')?.textContent === t && document.getElementById('edit-note')",
        arg=title,
    )
    page.keyboard.press("Control+e")  # Obsidian's markdown:toggle-preview
    page.wait_for_selector(".editor-box .cm-content")
    page.wait_for_function("() => document.activeElement?.classList.contains('cm-content')")  # focus on open


def test_ctrl_e_live_preview_tick_save_and_back_to_reading(tab: Any, served: tuple[str, dict[str, Path]]) -> None:
    url, vaults = served
    note = vaults["notes"] / "Ideas.md"
    _open_editor(tab, url, "notes", "Ideas.md")
    assert tab.is_visible(".editor-box.is-live .cm-lp")  # Live Preview by default
    assert _line(tab, 0) == "# Ideas"  # the cursor's line shows its markup
    tab.keyboard.press("Control+End")
    tab.keyboard.type("**bold** and [[Home|home link]] ==marked==")
    # Obsidian (1.13.2+) reveals the markup of the span under the cursor; the line's other spans stay rendered
    assert _line(tab, 5) == "bold and home link ==marked=="
    tab.keyboard.press("Home")
    tab.wait_for_function(
        "() => document.querySelectorAll('.editor-box .cm-line')[5].innerText === '**bold** and home link marked'"
    )
    tab.keyboard.press("Control+Home")
    tab.wait_for_function(
        "() => document.querySelectorAll('.editor-box .cm-line')[5].innerText === 'bold and home link marked'"
    )
    assert _line(tab, 0) == "# Ideas"
    assert tab.inner_text(".editor-box .cm-lp-strong") == "bold"
    assert tab.inner_text(".editor-box .cm-lp-highlight") == "marked"
    assert tab.get_attribute(".editor-box .cm-lp-wikilink", "data-target") == "Home"
    tab.keyboard.press("ArrowDown")  # off the heading: its # hidden, the line styled
    tab.wait_for_function("() => document.querySelector('.editor-box .cm-line.cm-lp-h1')?.innerText === 'Ideas'")
    tab.click(".editor-box .cm-lp-task")  # the task ticks in the editor
    tab.wait_for_function("() => document.querySelector('.editor-box .cm-lp-task')?.checked === true")
    tab.keyboard.press("Control+s")
    tab.wait_for_selector(".toast >> text=Saved.")
    text = note.read_text()
    assert "- [x] sketch the buoy" in text and text.endswith("**bold** and [[Home|home link]] ==marked==")
    tab.keyboard.press("Control+e")  # back to reading, the note focused so the keys scroll it
    tab.wait_for_selector(".markdown-body strong >> text=bold")
    tab.wait_for_function("() => document.activeElement?.id === 'note-title'")
    tab.reload(wait_until="networkidle")
    tab.wait_for_selector(".markdown-body strong >> text=bold")
    assert tab.is_visible("#edit-note")


def test_source_mode_is_a_button_away(tab: Any, served: tuple[str, dict[str, Path]]) -> None:
    url, vaults = served
    _open_editor(tab, url, "notes", "Projects/Plan.md")
    tab.wait_for_selector(".editor-box .cm-line.cm-lp-h1")
    assert tab.get_attribute("#toggle-source", "aria-pressed") == "false"
    tab.click("#toggle-source")
    assert tab.get_attribute("#toggle-source", "aria-pressed") == "true"
    assert tab.query_selector(".editor-box .cm-lp") is None and tab.query_selector(".editor-box.is-live") is None
    assert "## Budget" in tab.inner_text(".editor-box .cm-content")  # every line's markup shows
    assert tab.evaluate("document.activeElement.classList.contains('cm-content')")  # still typing in it
    tab.click("#toggle-source")  # and back
    tab.wait_for_selector(".editor-box.is-live .cm-lp")
    tab.click("#close-editor")  # nothing changed: straight back to reading
    tab.wait_for_selector("#edit-note")
    assert (vaults["notes"] / "Projects/Plan.md").read_text() == SMALL_VAULT["Projects/Plan.md"]


THEMED_JS = """() => {
  const root = document.documentElement; const was = root.dataset.theme; root.dataset.theme = 'dark';
  const bar = document.createElement('div'); bar.className = 'cm-collapsedLines';
  document.querySelector('.editor-box .cm-editor').append(bar);
  const cs = (e, p) => getComputedStyle(e, p);
  const out = [cs(document.querySelector('.cm-tooltip-autocomplete')).backgroundColor,
    cs(document.querySelector('.cm-tooltip-autocomplete li[aria-selected=true]')).backgroundColor,
    cs(bar).backgroundImage, cs(bar).backgroundColor, cs(bar, '::before').content];
  bar.remove();
  if (was === undefined) delete root.dataset.theme; else root.dataset.theme = was;
  return out;
}"""


@pytest.mark.parametrize(
    ("vault", "path", "typed", "expected"),
    [
        ("rel", "Projects/Sub/Deep.md", "[[Idea", "[[../../Ideas]]"),
        ("abs", "Home.md", "[[Dee", "[Deep](Projects/Sub/Deep.md)"),
    ],
)
def test_link_completion_follows_the_vaults_link_format(
    tab: Any, served: tuple[str, dict[str, Path]], vault: str, path: str, typed: str, expected: str
) -> None:
    url, _ = served
    _open_editor(tab, url, vault, path)
    tab.keyboard.press("Control+End")
    tab.keyboard.type("\nsee " + typed)
    want = typed[2:]  # the first option is the file asked for (the server's ranking), then Enter picks it
    tab.wait_for_function(
        "(q) => document.querySelector('.cm-tooltip-autocomplete li[aria-selected=true]')?.textContent.includes(q)",
        arg=want,
    )
    colours = tab.evaluate(THEMED_JS)  # the popup and the merge view's bar follow the app's dark theme
    assert colours == ["rgb(34, 37, 45)", "rgb(47, 45, 82)", "none", "rgb(44, 48, 57)", '"…"'], colours
    tab.wait_for_timeout(
        150
    )  # @codemirror/autocomplete ignores Enter for 75 ms after the list changes (interactionDelay)
    tab.keyboard.press("Enter")
    tab.wait_for_function(
        "(want) => [...document.querySelectorAll('.editor-box .cm-line')].some((l) => l.innerText === 'see ' + want)",
        arg=expected,
    )
    tab.keyboard.press("Control+Home")  # off the line: the link shows as its text only
    tab.wait_for_selector(".editor-box :is(.cm-lp-wikilink, .cm-lp-link)")
    tab.click("#close-editor")
    tab.click("dialog.confirm button.primary")  # unsaved: the person agrees to close (a draft stays)
    tab.wait_for_selector("#edit-note")
    tab.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('obsigate:draft:')).forEach(k => localStorage.removeItem(k))"
    )
