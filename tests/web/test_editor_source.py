"""The editor edits the whole file as stored: the frontmatter is kept, secrets are never written back as
their redaction markers, and a note that is not valid UTF-8 is not offered for editing (saving its
replacement characters would destroy its bytes)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any


def _wait_for(check, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.05)


def test_saving_keeps_the_frontmatter_and_the_secrets(page: Any, open_server: Any, web_vault: Path) -> None:
    note = web_vault / "With props.md"
    key = "sk-" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"
    note.write_text(f"---\ntitle: Kept\ntags: [alpha]\n---\n# Body\napi_key = {key}\n")
    page.goto(f"{open_server.url}/#/v/notes/With%20props.md", wait_until="networkidle")
    page.click("#edit-note")
    page.wait_for_selector(".editor-box .cm-content")
    shown = page.inner_text(".editor-box .cm-content")
    assert "title: Kept" in shown and key not in shown  # the whole file, redacted
    page.click(".editor-box .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("\nadded")
    page.wait_for_function("() => document.querySelector('.editor-box .cm-content').innerText.endsWith('added')")
    page.click("#save-note")
    page.wait_for_selector(".toast >> text=Saved.")  # the save answered (a refusal would show an error instead)
    text = note.read_text()
    assert text.startswith("---\ntitle: Kept\ntags: [alpha]\n---\n# Body\n") and text.endswith("added")
    assert key in text and "REDACTED" not in text


def test_a_note_that_is_not_utf8_is_not_opened_in_the_editor(page: Any, open_server: Any, web_vault: Path) -> None:
    note = web_vault / "Latin1.md"
    note.write_bytes("# Café\ncrème brûlée\n".encode("latin-1"))
    before = note.read_bytes()
    page.goto(f"{open_server.url}/#/v/notes/Latin1.md", wait_until="networkidle")
    page.click("#edit-note")
    page.wait_for_selector(".toast >> text=not valid UTF-8")
    assert page.query_selector(".editor-box") is None and note.read_bytes() == before


def test_a_draft_over_a_version_changed_since_opens_the_conflict_dialog(
    page: Any, open_server: Any, web_vault: Path
) -> None:
    note = web_vault / "Ideas.md"
    page.goto(f"{open_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#edit-note")
    page.wait_for_selector(".editor-box .cm-content")
    page.click(".editor-box .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("\nMY PRECIOUS DRAFT")
    note.write_text(note.read_text() + "\nappended by someone else\n")  # the file changes, the draft stays unsaved
    page.reload(wait_until="networkidle")
    page.click("#edit-note")
    page.wait_for_selector("dialog.confirm >> text=The file changed on disk")
    assert "MY PRECIOUS DRAFT" in page.inner_text(".editor-box .cm-content")  # the editor holds the draft
    page.click("dialog.confirm button[data-value=mine]")
    _wait_for(lambda: "MY PRECIOUS DRAFT" in note.read_text())
    assert "MY PRECIOUS DRAFT" in note.read_text()
