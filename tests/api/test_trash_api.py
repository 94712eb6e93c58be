"""GET /api/trash/{vault} and POST /api/trash/{vault}/restore over a real server on loopback: the web app's
trash, fed by the real delete routes."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest
from support import journal_text


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
    assert [(e["kind"], e["path"], e["count"]) for e in body["entries"]] == [
        ("file", "Ideas.md", 1),
        ("folder", "Projects", 2),
    ]
    assert [f["path"] for f in body["entries"][1]["files"]] == ["Projects/Plan.md", "Projects/Secret.md"]
    paged = httpx2.get(f"{url}/trash/notes", params={"limit": 1, "offset": 1}).json()
    assert (
        [e["path"] for e in paged["entries"]] == ["Projects"] and paged["total"] == 2 and paged["next_offset"] is None
    )

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


def test_a_file_and_a_folder_of_one_path_then_a_restart(live_server, tmp_path: Path) -> None:
    """The tester's sequence: 'Sub/a.md' made, folder 'Sub' deleted, a file 'Sub' made and deleted. The trash
    shows both, each restored by its kind; a restore the vault cannot take is a clean error written before any
    step (it was a 500 leaving a journal entry, which the next start 'rolled back' by deleting 'Sub/a.md',
    restored and edited since). After a restart on the same data dir the note is still there."""
    vault = tmp_path / "v"
    vault.mkdir()
    data = tmp_path / "data"
    server = live_server({"v": vault}, auth_enabled=False, data_dir=data)
    url = f"{server.url}/api"

    def ok(r: httpx2.Response) -> httpx2.Response:
        assert r.status_code == 200, (r.request.url, r.text)
        return r

    ok(httpx2.post(f"{url}/file/v", json={"path": "Sub/a.md", "content": "original a"}))
    ok(httpx2.delete(f"{url}/directory/v", params={"path": "Sub", "recursive": "true"}))
    ok(httpx2.post(f"{url}/file/v", json={"path": "Sub", "content": "a file called Sub"}))
    ok(httpx2.delete(f"{url}/file/v", params={"path": "Sub"}))
    entries = ok(httpx2.get(f"{url}/trash/v")).json()["entries"]
    assert [(e["kind"], e["path"], e["count"]) for e in entries] == [("file", "Sub", 1), ("folder", "Sub", 1)]

    ok(httpx2.post(f"{url}/trash/v/restore", json={"path": "Sub"}))  # no kind: the file
    assert (vault / "Sub").read_text() == "a file called Sub"
    for body in ({"path": "Sub", "kind": "folder"}, {"path": "Sub/a.md"}):
        r = httpx2.post(f"{url}/trash/v/restore", json=body)
        assert (r.status_code, r.json()["code"]) == (400, "not_a_directory"), r.text
    assert not list((data / "journal").iterdir())

    ok(httpx2.delete(f"{url}/file/v", params={"path": "Sub"}))
    ok(httpx2.post(f"{url}/trash/v/restore", json={"path": "Sub", "kind": "folder"}))
    source = ok(httpx2.get(f"{url}/file/v/source", params={"path": "Sub/a.md"})).json()
    ok(httpx2.post(f"{url}/file/v/save", json={"path": "Sub/a.md", "content": "IMPORTANT NEW WORK",
                                               "version": source["version"]}))  # fmt: skip
    assert not list((data / "journal").iterdir())
    server.stop()

    restarted = live_server({"v": vault}, auth_enabled=False, data_dir=data)  # recovery runs before it serves
    assert (vault / "Sub" / "a.md").read_text() == "IMPORTANT NEW WORK"
    assert ok(httpx2.get(f"{restarted.url}/api/file/v/source", params={"path": "Sub/a.md"})).json()["sha256"]
    audit = journal_text(data)
    assert "change_recovery" not in audit
