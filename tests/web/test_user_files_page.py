"""Settings › Your files in a real browser against a real ObsiGate (issue 21 item 2): alice uploads a PNG and a
text file through the page (multipart with the upload header, her session cookie), sees them listed with the
space used, opens the PNG's preview, deletes the text file; bob's list stays empty and alice's preview URL is a
404 for him."""

from __future__ import annotations

import base64
import os
from pathlib import Path
from typing import Any

import httpx2

from .conftest import PASSWORD

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def _sign_in(page: Any, url: str, user: str) -> None:
    page.goto(f"{url}/#/settings?tab=files")
    page.watch.expect("401")  # the page asks who is there before signing in
    page.fill("#login-user", user)
    page.fill("#login-pass", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("#cfg-files #files-upload")


def test_upload_list_open_and_delete_in_the_page(page: Any, web_server: Any, tmp_path: Path) -> None:
    web_server.app.state.auth.users.add_user("bob", PASSWORD, vaults=["notes"])
    (tmp_path / "dot.png").write_bytes(PNG)
    (tmp_path / "notes.txt").write_text("a plain note\n", encoding="utf-8")
    _sign_in(page, web_server.url, "alice")
    page.wait_for_selector("#files-none")
    page.set_input_files("#files-upload", [str(tmp_path / "dot.png"), str(tmp_path / "notes.txt")])
    rows = page.locator("#cfg-files .file-row")
    rows.nth(1).wait_for()
    assert rows.nth(0).inner_text().startswith("notes.txt") and "text/plain" in rows.nth(0).inner_text()
    assert "image/png" in rows.nth(1).inner_text()
    assert "2 files" in page.inner_text("#files-usage")
    page.screenshot(path=str(tmp_path / "files.png"), full_page=True)
    if os.environ.get("OBSIGATE_SHOTS"):  # kept to be looked at
        page.screenshot(path=os.path.join(os.environ["OBSIGATE_SHOTS"], "files.png"), full_page=True)
    png_id = rows.nth(1).get_attribute("data-file-id")
    shown = page.evaluate(
        "async (id) => { const r = await fetch(`/api/files/${id}/content`); return [r.status, r.headers.get('content-type')]; }",
        png_id,
    )
    assert shown == [200, "image/png"]
    text_id = rows.nth(0).get_attribute("data-file-id")
    page.click(f"#file-delete-{text_id}")
    page.wait_for_selector("dialog.confirm >> text=Delete this file?")
    page.click("dialog.confirm button.primary")
    page.wait_for_selector(f'[data-file-id="{text_id}"]', state="detached")
    assert rows.count() == 1
    files = web_server.app.state.runtime.files
    assert [r.file_id for r in files.list("alice")[0]] == [png_id]
    auth = web_server.app.state.auth
    bob = {"Authorization": f"Bearer {auth.tokens.issue(auth.users.get_user('bob'))}"}
    assert httpx2.get(f"{web_server.url}/api/files", headers=bob).json()["files"] == []
    assert httpx2.get(f"{web_server.url}/api/files/{png_id}/content", headers=bob).status_code == 404
    assert page.watch.problems() == []
