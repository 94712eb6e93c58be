"""GET /api/file/{vault}/backups and /diff over a real server on loopback."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from obsigate.domain.storage.backups import BackupStore

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"


@pytest.fixture
def served(live_server, small_vault: Path, tmp_path: Path):
    server = live_server({"notes": small_vault}, auth_enabled=False)
    workspace = server.app.state.runtime.workspace
    if workspace.backups is None:  # the composition root normally provides <data_dir>/backups
        workspace.backups = BackupStore(tmp_path / "data" / "backups")
    return server, workspace.backups, small_vault


def test_list_and_diff_backups(served) -> None:
    server, store, vault = served
    plan = vault / "Projects" / "Plan.md"
    old = plan.read_bytes()
    version = store.save("notes", "Projects/Plan.md", old + f"token = {SECRET}\n".encode(), reason="edit_file")
    url = f"{server.url}/api/file/notes"

    listed = httpx2.get(f"{url}/backups", params={"path": "Projects/Plan.md"})
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert (
        body["total"] == 1
        and body["versions"][0]["version"] == version
        and body["versions"][0]["reason"] == "edit_file"
    )

    diff = httpx2.get(f"{url}/diff", params={"path": "Projects/Plan.md", "version": version})
    assert diff.status_code == 200, diff.text
    out = diff.json()
    assert out["compare_with"] is None and out["truncated"] is False
    assert out["diff"].splitlines()[-1].startswith("-token = [REDACTED:") and SECRET not in diff.text

    second = store.save("notes", "Projects/Plan.md", old, reason="delete_file")
    plan.unlink()
    between = httpx2.get(
        f"{url}/diff", params={"path": "Projects/Plan.md", "version": version, "compare_with": second}
    ).json()
    assert between["compare_with"] == second and between["diff"].count("\n-token") == 1
    gone = httpx2.get(f"{url}/backups", params={"path": "Projects/Plan.md"}).json()
    assert [v["deleted"] for v in gone["versions"]] == [True, False]


def test_errors_are_json_with_codes(served) -> None:
    server, _, _ = served
    url = f"{server.url}/api/file/notes"
    cases = [
        (f"{url}/backups", {"path": "../outside.md"}, 400, "path_outside_vault"),
        (f"{url}/diff", {"path": "Home.md", "version": "nope"}, 400, "invalid_argument"),
        (f"{url}/diff", {"path": "Home.md", "version": "20200101T000000.000000Z-0000"}, 404, "not_found"),
        (f"{server.url}/api/file/ghost/backups", {"path": "Home.md"}, 404, "not_found"),
    ]
    for address, params, status, code in cases:
        r = httpx2.get(address, params=params)
        assert (r.status_code, r.json()["code"]) == (status, code), (address, params, r.text)
    listing = httpx2.get(f"{url}/backups").json()  # no path: every backed-up path of the vault
    assert listing["path"] is None and isinstance(listing["files"], list)


def test_every_backed_up_path_pages_over_rest(served) -> None:
    """Issue 9 item 1: the REST route passes limit and offset on to list_backups."""
    server, store, _ = served
    for i in range(5):
        store.save("notes", f"Gone/{i}.md", b"x\n", reason="delete_file", deleted=True)
    url = f"{server.url}/api/file/notes/backups"
    first = httpx2.get(url, params={"limit": 2}).json()
    assert (len(first["files"]), first["total"], first["next_offset"], first["truncated"]) == (2, 5, 2, True)
    last = httpx2.get(url, params={"limit": 2, "offset": 4}).json()
    assert (len(last["files"]), last["offset"], last["next_offset"], last["truncated"]) == (1, 4, None, False)
    r = httpx2.get(url, params={"limit": 0})
    assert (r.status_code, r.json()["code"]) == (400, "invalid_argument")
