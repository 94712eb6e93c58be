"""GET /api/trash/{vault} and POST /api/trash/{vault}/restore over a real server on loopback: the web app's
trash, fed by the real delete routes."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest


@pytest.fixture
def server(live_server, small_vault: Path):
    return live_server({"notes": small_vault}, auth_enabled=False)


def test_delete_trash_restore(server, small_vault: Path) -> None:
    url = f"{server.url}/api"
    plan = (small_vault / "Projects" / "Plan.md").read_bytes()
    assert httpx2.delete(f"{url}/directory/notes", params={"path": "Projects", "recursive": "true"}).status_code == 200
    assert httpx2.delete(f"{url}/file/notes", params={"path": "Ideas.md"}).status_code == 200

    trash = httpx2.get(f"{url}/trash/notes")
    assert trash.status_code == 200, trash.text
    body = trash.json()
    assert [(e["kind"], e["path"], e["count"]) for e in body["entries"]] == [("file", "Ideas.md", 1), ("folder", "Projects", 2)]
    assert [f["path"] for f in body["entries"][1]["files"]] == ["Projects/Plan.md", "Projects/Secret.md"]
    paged = httpx2.get(f"{url}/trash/notes", params={"limit": 1, "offset": 1}).json()
    assert [e["path"] for e in paged["entries"]] == ["Projects"] and paged["total"] == 2 and paged["next_offset"] is None

    restored = httpx2.post(f"{url}/trash/notes/restore", json={"path": "Projects"})
    assert restored.status_code == 200, restored.text
    assert restored.json()["summary"] == "restore folder Projects from the trash: 2 files"
    assert (small_vault / "Projects" / "Plan.md").read_bytes() == plan
    assert httpx2.get(f"{url}/search", params={"q": "budget"}).json()["hits"][0]["path"] == "Projects/Plan.md"
    assert [e["path"] for e in httpx2.get(f"{url}/trash/notes").json()["entries"]] == ["Ideas.md"]


def test_errors_are_json_with_codes(server, small_vault: Path) -> None:
    url = f"{server.url}/api"
    httpx2.delete(f"{url}/file/notes", params={"path": "Ideas.md"})
    (small_vault / "Ideas.md").write_text("# someone wrote a new one\n")
    cases = [
        ("POST", f"{url}/trash/notes/restore", {"path": "Ideas.md"}, 409, "exists"),
        ("POST", f"{url}/trash/notes/restore", {"path": "Nothing/here.md"}, 404, "not_found"),
        ("POST", f"{url}/trash/notes/restore", {"path": "../out.md"}, 400, "path_outside_vault"),
        ("POST", f"{url}/trash/ghost/restore", {"path": "Ideas.md"}, 404, "not_found"),
        ("GET", f"{url}/trash/notes?limit=0", None, 400, "invalid_argument"),
    ]
    for method, address, body, status, code in cases:
        r = httpx2.request(method, address, json=body)
        assert (r.status_code, r.json()["code"]) == (status, code), (address, body, r.text)
    assert (small_vault / "Ideas.md").read_text() == "# someone wrote a new one\n"
    assert httpx2.get(f"{url}/trash/notes").json()["entries"] == []


def test_a_cross_site_restore_is_refused(server, small_vault: Path) -> None:
    httpx2.delete(f"{server.url}/api/file/notes", params={"path": "Ideas.md"})
    r = httpx2.post(f"{server.url}/api/trash/notes/restore", content=b'{"path": "Ideas.md"}',
                    headers={"Origin": "https://evil.example", "Content-Type": "application/json"})  # fmt: skip
    assert r.json()["code"] == "forbidden_origin" and not (small_vault / "Ideas.md").exists()
