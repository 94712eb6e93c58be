"""The tree's writes in a real browser (issue 11 item 2 and its journey "rename a linked note → links rewritten
→ backlinks unchanged"): new note and folder, rename, move (dialog and drag and drop), delete, each asked in a
dialog and run through the REST writes; bad names refused in the dialog; the context menu from the keyboard;
nothing offered in a read-only vault."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

#: Two more notes linking to Projects/Plan.md (Home.md links it too): four links in three notes.
LINKING = {
    "Journal.md": "# Journal\n\nMet about [[Plan]] today; the [[Projects/Plan#Budget|budget]] is tight. [[Someday]]\n",
    "Projects/Review.md": "# Review\n\nSee [the plan](Plan.md).\n",
}


@pytest.fixture
def server(live_server: Any, web_vault: Path, tmp_path: Path) -> Any:
    """Auth off, over the small vault plus :data:`LINKING`."""
    for rel, text in LINKING.items():
        (web_vault / rel).write_text(text, encoding="utf-8")
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "tree-data")


def _open(page: Any, server: Any, path: str = "") -> None:
    page.goto(f"{server.url}/#/v/notes{'/' + path if path else ''}", wait_until="networkidle")
    page.wait_for_selector('#tree [role="treeitem"]')


def _item(path: str) -> str:
    return f'#tree [role="treeitem"][data-path="{path}"]'


def _menu(page: Any, path: str, action: str) -> None:
    """Right-click the item, then pick ``action`` (rename, move, delete, new-note, new-folder) in its menu."""
    page.click(f"{_item(path)} > .tree-row", button="right")
    page.click(f'#tree-menu [role="menuitem"][data-action="{action}"]')


def _hash(page: Any, want: str, timeout: float = 10) -> None:
    """Wait for the page's hash to be ``want`` (polled from here: the page's CSP forbids a page-side eval)."""
    deadline = time.monotonic() + timeout
    while page.evaluate("location.hash") != want:
        assert time.monotonic() < deadline, f"hash is {page.evaluate('location.hash')!r}, not {want!r}"
        time.sleep(0.05)


def _backlinks(page: Any) -> list[str]:
    page.wait_for_selector("#backlinks .backlink-list")
    return sorted(page.locator("#backlinks > .backlink-list .backlink-path").all_inner_texts())


def _files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if not {".obsidian", ".trash"} & set(p.parts)}


def test_rename_a_linked_note_rewrites_the_links_and_keeps_the_backlinks(
    page: Any, server: Any, web_vault: Path
) -> None:
    _open(page, server, "Projects/Plan.md")
    before = _backlinks(page)
    assert before == ["Home.md", "Journal.md", "Projects/Review.md"]
    _menu(page, "Projects/Plan.md", "rename")
    field = page.get_by_label("New name")
    assert field.input_value() == "Plan"  # a note is renamed without its extension
    field.fill("Roadmap")
    field.press("Enter")
    toast = page.locator(".toast-info", has_text="“Plan.md” renamed to “Roadmap.md”.")
    assert "4 links rewritten in 3 note(s)." in toast.inner_text()  # the server's count
    _hash(page, "#/v/notes/Projects/Roadmap.md")  # the open note followed
    page.wait_for_selector(f'{_item("Projects/Roadmap.md")}[aria-current="page"]')
    assert not page.locator(_item("Projects/Plan.md")).count()
    assert not (web_vault / "Projects/Plan.md").exists() and (web_vault / "Projects/Roadmap.md").exists()
    assert "[[Roadmap|the plan]]" in (web_vault / "Home.md").read_text()  # the shortest form, as Obsidian writes
    journal = (web_vault / "Journal.md").read_text()
    assert "[[Roadmap]]" in journal and "Roadmap#Budget|budget]]" in journal and "Plan" not in journal
    review = (web_vault / "Projects/Review.md").read_text()
    assert "Roadmap.md)" in review and "Plan.md" not in review
    page.wait_for_selector("#main .note-title >> text=Roadmap")
    assert _backlinks(page) == before  # the same notes link here, under the new name
    assert page.watch.problems() == []


def test_new_folder_then_a_new_note_in_it(page: Any, server: Any, web_vault: Path) -> None:
    _open(page, server)
    page.click("#new-folder")
    dialog = page.locator("dialog.confirm")
    assert "At the root of the vault." in dialog.inner_text()
    page.get_by_label("Folder name").fill("Drafts")
    page.click("dialog.confirm button[type=submit]")
    page.wait_for_selector(f"{_item('Drafts')}:focus")  # shown and focused: the next new note goes there
    assert (web_vault / "Drafts").is_dir()
    page.click("#new-note")
    assert "In the folder “Drafts”." in dialog.inner_text()
    name = page.get_by_label("Note name")
    assert name.input_value() == "Untitled"
    name.fill("First idea")
    name.press("Enter")
    _hash(page, "#/v/notes/Drafts/First%20idea.md")
    page.wait_for_selector(f'{_item("Drafts/First idea.md")}[aria-current="page"]')
    assert (web_vault / "Drafts/First idea.md").read_text() == "# First idea\n"
    assert page.watch.problems() == []


def test_move_by_drag_and_drop_and_with_the_move_dialog(page: Any, server: Any, web_vault: Path) -> None:
    _open(page, server, "Ideas.md")
    page.locator(f"{_item('Ideas.md')} > .tree-row").drag_to(page.locator(f"{_item('Projects')} > .tree-row"))
    dialog = page.wait_for_selector("dialog.confirm")
    assert "Move “Ideas.md” into “Projects”?" in dialog.inner_text()  # asked first
    assert (web_vault / "Ideas.md").exists()
    page.click("dialog.confirm button[type=submit]")
    page.wait_for_selector(".toast-info >> text=“Ideas.md” moved to “Projects”.")
    _hash(page, "#/v/notes/Projects/Ideas.md")
    assert (web_vault / "Projects/Ideas.md").exists() and not (web_vault / "Ideas.md").exists()

    _menu(page, "Projects/Ideas.md", "move")
    options = page.locator('dialog.confirm [role="option"]')
    options.first.wait_for()
    assert "Projects" not in options.all_inner_texts()  # where it already is is not offered
    page.get_by_label("Destination folder").fill("attach")
    assert options.all_inner_texts() == ["Attachments"]
    page.keyboard.press("Enter")
    page.wait_for_selector(".toast-info >> text=“Ideas.md” moved to “Attachments”.")
    _hash(page, "#/v/notes/Attachments/Ideas.md")
    assert (web_vault / "Attachments/Ideas.md").exists() and not (web_vault / "Projects/Ideas.md").exists()
    assert "[[Ideas]]" in (web_vault / "Home.md").read_text()  # still resolves: the name is unique
    # dropped on the pane, outside any folder: to the vault root
    review = page.locator(f"{_item('Projects/Review.md')} > .tree-row")
    review.drag_to(page.locator("#tree"), target_position={"x": 60, "y": 380})
    page.click("dialog.confirm button[type=submit]")
    page.wait_for_selector(".toast-info >> text=“Review.md” moved to “/ (vault root)”.")
    assert (web_vault / "Review.md").exists()
    assert page.watch.problems() == []


def test_delete_a_folder_after_confirming(page: Any, server: Any, web_vault: Path) -> None:
    _open(page, server, "Projects/Plan.md")
    _menu(page, "Projects", "delete")
    dialog = page.wait_for_selector("dialog.confirm")
    text = dialog.inner_text()
    assert "Delete the folder “Projects”?" in text and "3 file(s)" in text and "trash" in text
    page.click("dialog.confirm >> text=Cancel")  # nothing happens until the person agrees
    assert (web_vault / "Projects/Plan.md").exists()
    _menu(page, "Projects", "delete")
    page.click("dialog.confirm button[type=submit]")
    page.wait_for_selector(".toast-info >> text=“Projects” moved to the trash.")
    assert not (web_vault / "Projects").exists()
    _hash(page, "#/v/notes")  # the open note was in it
    assert not page.locator(_item("Projects")).count() and not page.locator(_item("Projects/Plan.md")).count()
    backups = page.evaluate("fetch('/api/file/notes/backups').then(r => r.json())")
    assert {"Projects/Plan.md", "Projects/Secret.md", "Projects/Review.md"} <= {b["path"] for b in backups["files"]}
    assert page.watch.problems() == []


def test_bad_names_are_refused_in_the_dialog_and_nothing_is_written(page: Any, server: Any, web_vault: Path) -> None:
    files = _files(web_vault)
    _open(page, server)
    _menu(page, "Ideas.md", "rename")
    field = page.get_by_label("New name")
    error = page.locator("dialog.confirm .dialog-error")
    refusals = [
        ("", "Type a name."),
        ("a/b", "cannot contain “/”"),
        ("..", "are not names"),
        ("[[x]]", "cannot contain [ ] (they break links"),
        ("Home", "“Home” already exists"),
    ]  # the last one is the server's (409 exists)
    for name, says in refusals:
        field.fill(name)
        if name == "Home":
            page.watch.expect("409")  # the server's refusal, logged by the browser
        field.press("Enter")
        error.filter(has_text=says).wait_for()
        assert field.get_attribute("aria-invalid") == "true"
    page.keyboard.press("Escape")
    page.click("#new-note")
    page.get_by_label("Note name").fill("Ideas")
    page.keyboard.press("Enter")
    error.filter(has_text="“Ideas” already exists here").wait_for()
    page.keyboard.press("Escape")
    assert page.locator("dialog.confirm").count() == 0
    assert _files(web_vault) == files and "# Ideas" in (web_vault / "Ideas.md").read_text()
    assert page.watch.problems() == []


def test_the_context_menu_from_the_keyboard(page: Any, server: Any) -> None:
    _open(page, server)
    page.focus(_item("Ideas.md"))
    page.keyboard.press("Shift+F10")
    menu = page.locator("#tree-menu")
    assert menu.get_attribute("role") == "menu"
    focused = page.locator("#tree-menu [role=menuitem]:focus")
    assert focused.inner_text() == "Rename"
    page.keyboard.press("ArrowDown")
    assert focused.inner_text() == "Move to…"
    page.keyboard.press("End")
    assert focused.inner_text() == "Delete"
    page.keyboard.press("Escape")
    assert menu.count() == 0
    assert page.evaluate("document.activeElement.dataset.path") == "Ideas.md"  # focus back on the item
    page.keyboard.press("ContextMenu")
    page.keyboard.press("Enter")  # Rename
    page.get_by_label("New name").wait_for()
    page.keyboard.press("Escape")
    assert page.locator("dialog.confirm").count() == 0
    assert page.evaluate("document.activeElement.dataset.path") == "Ideas.md"  # the dialog gave focus back
    # a folder's menu also creates inside it
    page.focus(_item("Projects"))
    page.keyboard.press("Shift+F10")
    entries = page.locator("#tree-menu [role=menuitem]").all_inner_texts()
    assert entries == ["New note", "New folder", "Rename", "Move to…", "Delete"]
    assert page.watch.problems() == []


def test_a_dialog_does_not_outlive_navigation(page: Any, server: Any, web_vault: Path) -> None:
    _open(page, server)
    _open(page, server, "Journal.md")
    page.click("#main .is-unresolved >> text=Someday")  # offers to create the missing note
    page.wait_for_selector("dialog.confirm >> text=Create the note “Someday.md”?")
    page.go_back()  # the person leaves the note: the question about it goes too
    page.wait_for_selector("dialog.confirm", state="detached")
    _menu(page, "Ideas.md", "delete")
    page.wait_for_selector("dialog.confirm")
    page.evaluate("location.hash = '#/v/notes/Home.md'")
    page.wait_for_selector("#main .note-title >> text=Home")
    assert page.locator("dialog.confirm").count() == 0
    assert not (web_vault / "Someday.md").exists() and (web_vault / "Ideas.md").exists()


def test_nothing_is_offered_in_a_read_only_vault(page: Any, live_server: Any, web_vault: Path, tmp_path: Path) -> None:
    vault = {"path": str(web_vault), "read_only": True}
    server = live_server({"notes": vault}, auth_enabled=False, data_dir=tmp_path / "ro")
    _open(page, server)
    assert page.locator("#tree-actions").is_hidden()
    assert page.locator("#tree .tree-menu-btn").count() == 0
    assert page.locator(f"{_item('Ideas.md')} > .tree-row").get_attribute("draggable") is None
    page.focus(_item("Ideas.md"))
    page.keyboard.press("Shift+F10")
    page.click(f"{_item('Ideas.md')} > .tree-row", button="right")
    assert page.locator("#tree-menu").count() == 0
    assert re.search(r"read.only", str(page.evaluate("fetch('/api/vaults').then(r => r.json())")))


def _type_unsaved(page: Any, text: str) -> None:
    page.click("#edit-note")
    page.wait_for_selector(".editor-box .cm-content")
    page.click(".editor-box .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type(text)


def test_unsaved_editor_text_follows_a_rename_and_is_warned_of_before_a_delete(
    page: Any, server: Any, web_vault: Path
) -> None:
    _open(page, server, "Ideas.md")
    _type_unsaved(page, "\nunsaved thought")
    _menu(page, "Ideas.md", "rename")
    field = page.get_by_label("New name")
    field.fill("Thoughts")
    field.press("Enter")
    page.wait_for_selector(".toast-info >> text=unsaved editor changes moved with it")
    _hash(page, "#/v/notes/Thoughts.md")
    page.click("#edit-note")  # the draft is there, under the new path
    page.wait_for_selector(".editor-box .cm-content >> text=unsaved thought")
    _menu(page, "Thoughts.md", "delete")
    page.wait_for_selector("dialog >> text=Its unsaved editor changes (1) will be lost.")
