"""The editor in a real browser (issue 11 journey: "edit and save → external change → conflict dialog →
merge"; and "unsaved changes survive a reload")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any


def _edit(page: Any, url: str, path: str) -> None:
    page.goto(f"{url}/#/v/notes/{path}", wait_until="networkidle")
    page.click("#edit-note")
    page.wait_for_selector(".editor-box .cm-content")


def _type_at_end(page: Any, text: str) -> None:
    page.click(".editor-box .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type(text)


def test_edit_save_then_a_conflict_keeps_mine(page: Any, open_server: Any, web_vault: Path) -> None:
    note = web_vault / "Ideas.md"
    crlf = note.read_bytes().replace(b"\r\n", b"\n").rstrip(b"\n").replace(b"\n", b"\r\n") + b"\r\n\r\nEnd."
    note.write_bytes(crlf)  # written on Windows: CRLF line endings, no final newline
    _edit(page, open_server.url, "Ideas.md")
    _type_at_end(page, "x")
    page.keyboard.press("Backspace")
    page.keyboard.press("Control+s")  # an unchanged text: nothing written
    page.wait_for_selector(".toast >> text=Saved.")
    assert note.read_bytes() == crlf
    _type_at_end(page, "\nfirst edit")
    page.click("#save-note")
    deadline = time.monotonic() + 10
    while note.read_bytes() == crlf and time.monotonic() < deadline:
        time.sleep(0.05)
    assert note.read_bytes() == crlf + b"\r\nfirst edit"  # the file's own line endings kept
    note.write_text(note.read_text() + "\nchanged on disk\n")  # someone else writes meanwhile
    _type_at_end(page, "\nsecond edit")
    page.watch.expect("409")  # the browser logs the refused save: the conflict this test makes
    page.click("#save-note")
    dialog = page.wait_for_selector("dialog.confirm >> text=The file changed on disk")
    assert dialog is not None
    page.click("dialog.confirm button[data-value=mine]")
    deadline = time.monotonic() + 10
    while "second edit" not in note.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    text = note.read_text()
    assert text.endswith("first edit\nsecond edit") and "changed on disk" not in text  # kept mine, knowingly
    assert page.watch.problems() == []


def test_take_theirs_and_a_draft_survives_a_reload(page: Any, open_server: Any, web_vault: Path) -> None:
    note = web_vault / "Home.md"
    before = note.read_text()
    _edit(page, open_server.url, "Home.md")
    _type_at_end(page, "\nunsaved words")
    page.reload(wait_until="networkidle")
    page.click("#edit-note")
    page.wait_for_selector(".editor-box .cm-content >> text=unsaved words")  # the draft came back
    assert note.read_text() == before  # never written without Save
    note.write_text(before + "\ntheirs\n")
    page.watch.expect("409")
    page.click("#save-note")
    page.wait_for_selector("dialog.confirm")
    page.click("dialog.confirm button[data-value=theirs]")
    page.wait_for_selector(".editor-box .cm-content >> text=theirs")
    assert note.read_text() == before + "\ntheirs\n"
    assert page.watch.problems() == []


def test_drafts_are_per_user_and_go_at_sign_out(
    page: Any, web_server: Any, alice: dict[str, str], web_vault: Path
) -> None:
    page.goto(f"{web_server.url}/#/v/notes/Ideas.md")
    page.watch.expect("401")  # the page asks who is there before signing in
    page.fill("#login-user", alice["username"])
    page.fill("#login-pass", alice["password"])
    page.click("#login form button[type=submit], form button[type=submit]")
    page.click("#edit-note")
    page.wait_for_selector(".editor-box .cm-content")
    _type_at_end(page, "\nprivate draft")
    keys = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('obsigate:draft:'))")
    assert keys == ["obsigate:draft:alice:notes:Ideas.md"]  # kept per user
    page.click("#sign-out")
    page.click("dialog.confirm button.primary")  # the page says drafts go, and the person agrees
    page.wait_for_selector("#login-user")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('obsigate:draft:'))") == []
    assert "private draft" not in (web_vault / "Ideas.md").read_text()


def test_a_conflict_merged_keeps_both_changes(page: Any, open_server: Any, web_vault: Path) -> None:
    note = web_vault / "Ideas.md"
    original = note.read_text()
    _edit(page, open_server.url, "Ideas.md")
    page.click(".editor-box .cm-content")
    page.keyboard.press("Control+Home")
    page.keyboard.press("End")
    page.keyboard.type("\nmine near the top")
    note.write_text(original + "theirs at the end\n")  # someone else writes meanwhile
    page.watch.expect("409")
    page.click("#save-note")
    page.wait_for_selector("dialog.confirm >> text=The file changed on disk")
    page.click("dialog.confirm button[data-value=merge]")
    # @codemirror/merge's view: my text against theirs, a chunk per difference with Accept / Reject
    chunks = page.locator(".editor-box .cm-chunkButtons")
    chunks.first.wait_for()
    assert chunks.count() == 2
    page.locator(".editor-box .cm-deletedChunk", has_text="theirs at the end").locator("button[name=reject]").click()
    page.wait_for_selector(".editor-box .cm-line >> text=theirs at the end")  # their line is back in my text
    page.locator(".editor-box .cm-chunkButtons button[name=accept]").click()  # and my line is kept
    page.wait_for_selector(".editor-box .cm-chunkButtons", state="detached")  # every difference resolved
    assert note.read_text() == original + "theirs at the end\n"  # nothing written before Save
    page.click("#save-note")
    page.wait_for_selector(".toast >> text=Saved.")
    merged = note.read_text()
    assert merged == original.replace("# Ideas\n", "# Ideas\nmine near the top\n", 1) + "theirs at the end\n"
    assert page.watch.problems() == []
