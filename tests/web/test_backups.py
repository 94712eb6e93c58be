"""Backups in a real browser (issue 11 item 7): the journey "delete → trash → restore", a note's history with
its diff (diff2html, unified and side by side) and the restore of an older version, and a deleted folder
restored whole from the trash. Deletes and edits go through the real REST routes, from the signed-in page."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

IDEAS = "# Ideas\n\nA tidepool sensor network. #project/sensors\n\n- [ ] sketch the buoy\n"


def _call(page: Any, method: str, url: str, body: dict | None = None) -> int:
    """A REST write from the page itself (its session cookie, its origin), as the web app makes them."""
    return page.evaluate(
        """([method, url, body]) => fetch(url, {method, headers: {"Content-Type": "application/json"},
             body: body ? JSON.stringify(body) : undefined}).then(r => r.status)""",
        [method, url, body],
    )


def _wait_for(check: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_delete_then_trash_then_restore(page: Any, web_server: Any, alice: dict[str, str], web_vault: Path) -> None:
    note = web_vault / "Ideas.md"
    assert note.read_text() == IDEAS
    page.goto(f"{web_server.url}/#/v/notes/Ideas.md")
    page.watch.expect("401")  # the page asks who is there before signing in
    page.fill("#login-user", alice["username"])
    page.fill("#login-pass", alice["password"])
    page.click("form button[type=submit]")
    page.wait_for_selector("#note-title >> text=Ideas")

    assert _call(page, "DELETE", "/api/file/notes?path=Ideas.md") == 200
    assert not note.exists()
    page.click("#trash-link")
    entry = page.wait_for_selector('.trash-entry[data-path="Ideas.md"]')
    assert "deleted" in entry.inner_text()
    assert page.locator("#trash-status").inner_text() == "1 deleted item."
    page.click('.trash-entry[data-path="Ideas.md"] .trash-restore')

    page.wait_for_selector(".toast >> text=“Ideas.md” restored.")
    assert note.read_text() == IDEAS  # back on disk, byte for byte
    page.wait_for_selector("#trash-status >> text=The trash is empty.")
    page.wait_for_selector('#tree li[data-path="Ideas.md"]')  # the tree was refreshed
    page.click("#restored-link")
    page.wait_for_selector("#note-title >> text=Ideas")
    assert "sketch the buoy" in page.locator(".markdown-body").inner_text()
    assert page.watch.problems() == []


def test_history_shows_versions_and_the_diff_then_restores_an_older_one(
    page: Any, open_server: Any, web_vault: Path
) -> None:
    note = web_vault / "Ideas.md"
    page.goto(f"{open_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    for old, new in (("- [ ] sketch the buoy", "- [x] sketch the buoy"), ("tidepool sensor", "rockpool sensor")):
        assert _call(page, "PATCH", "/api/file/notes", {"path": "Ideas.md", "find": old, "replace": new}) == 200
    second = IDEAS.replace("- [ ]", "- [x]")
    assert note.read_text() == second.replace("tidepool", "rockpool")

    page.click("#history-link")
    page.wait_for_selector("#history-title >> text=History of Ideas.md")
    items = page.locator("#version-list .version-item")
    _wait_for(lambda: items.count() == 2)
    assert items.nth(0).get_attribute("aria-pressed") == "true"  # the newest, compared with the current file
    assert "Before an edit" in items.nth(0).inner_text()
    page.wait_for_selector("#diff .d2h-wrapper")
    assert page.locator("#diff .d2h-del").filter(has_text="A tidepool sensor network").count() >= 1
    assert page.locator("#diff .d2h-ins").filter(has_text="A rockpool sensor network").count() >= 1
    assert "to the current file" in page.locator("#diff-title").inner_text()

    page.click("#layout-side")
    page.wait_for_selector("#diff .d2h-file-side-diff")
    assert page.locator("#layout-side").get_attribute("aria-pressed") == "true"

    # the oldest version against the newer one: both of its changes show, old side first
    items.nth(1).click()
    page.select_option("#compare-with", index=1)
    page.wait_for_selector("#diff-title >> text=to the one of")
    page.wait_for_selector("#diff .d2h-ins >> text=- [x] sketch the buoy")
    page.select_option("#compare-with", index=0)  # back to the current file
    page.wait_for_selector("#diff-title >> text=to the current file")

    page.click("#restore-version")
    page.wait_for_selector("dialog.confirm >> text=Restore this version?")
    page.click("dialog.confirm button.primary")
    page.wait_for_selector(".toast >> text=restored to its version of")
    assert note.read_text() == IDEAS  # the oldest version, on disk
    _wait_for(lambda: items.count() == 3)  # the replaced content was backed up first
    assert "Before a restore" in items.nth(0).inner_text()
    page.wait_for_selector("#diff >> text=This version is the same as the current file.")
    page.click("#restored-link")
    page.wait_for_selector("#note-title >> text=Ideas")
    assert "tidepool sensor network" in page.locator(".markdown-body").inner_text()
    assert page.watch.problems() == []  # nothing refused by the CSP (no inline style from diff2html)


def test_a_deleted_folder_comes_back_whole(page: Any, open_server: Any, web_vault: Path) -> None:
    before = {p.name: p.read_bytes() for p in (web_vault / "Projects").iterdir()}
    page.goto(f"{open_server.url}/#/v/notes/Home.md", wait_until="networkidle")
    assert _call(page, "DELETE", "/api/directory/notes?path=Projects&recursive=true") == 200
    assert not (web_vault / "Projects").exists()

    page.click("#trash-link")
    folder = page.wait_for_selector('.trash-folder[data-path="Projects"]')
    assert "folder of 2 files" in folder.inner_text()
    page.click('.trash-folder[data-path="Projects"] summary')
    files = page.locator('.trash-folder[data-path="Projects"] .trash-file')
    assert [files.nth(i).get_attribute("data-path") for i in range(files.count())] == [
        "Projects/Plan.md",
        "Projects/Secret.md",
    ]

    page.click('.trash-folder[data-path="Projects"] button.primary')
    page.wait_for_selector("dialog.confirm >> text=and its 2 files will be put back")
    page.click("dialog.confirm button.primary")
    page.wait_for_selector(".toast >> text=and its 2 files were restored.")
    assert {p.name: p.read_bytes() for p in (web_vault / "Projects").iterdir()} == before
    page.wait_for_selector("#trash-status >> text=The trash is empty.")
    page.wait_for_selector('#tree li[data-path="Projects"]')

    page.select_option("#lang-select", "fr")  # the same view in French
    page.wait_for_selector("#trash-title >> text=Corbeille")
    page.wait_for_selector("#trash-status >> text=La corbeille est vide.")
    assert page.watch.problems() == []
