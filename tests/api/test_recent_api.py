"""GET /api/recent over a real server on loopback: order, modes, paging, permissions, errors."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx2
from support import alice_token, write_tree


def test_recent_route(live_server, small_vault: Path, tmp_path: Path) -> None:
    now = time.time()
    for i, rel in enumerate(["Ideas.md", "Attachments/pic.png", "Home.md", "Projects/Plan.md", "Projects/Secret.md"]):
        os.utime(small_vault / rel, (now - 3600 * (i + 1), now - 3600 * (i + 1)))
    other = write_tree(tmp_path / "other", {"Private.md": "# Private\n\nmarmalade\n"})
    data = tmp_path / "data"
    alice = alice_token(data)
    server = live_server({"notes": small_vault, "other": other}, data_dir=data)
    url = f"{server.url}/api/recent"
    auth = {"Authorization": f"Bearer {alice}"}

    assert httpx2.get(url).status_code == 401
    first = httpx2.get(url, headers=auth).json()
    assert [f["path"] for f in first["files"]] == [
        "Ideas.md",
        "Attachments/pic.png",
        "Home.md",
        "Projects/Plan.md",
        "Projects/Secret.md",
    ]
    assert first["files"][0]["age"] == "1 hour ago" and first["files"][1]["age"] == "2 hours ago"
    assert first["total"] == 5 and first["mode"] == "modified" and first["index"]["complete"] is True
    assert "Private.md" not in str(first)

    page = httpx2.get(url, headers=auth, params={"limit": 2, "offset": 2, "mode": "created", "vault": "notes"}).json()
    assert [f["path"] for f in page["files"]] == ["Home.md", "Projects/Plan.md"]
    assert (page["mode"], page["offset"], page["next_offset"], page["truncated"]) == ("created", 2, 4, True)

    denied = httpx2.get(url, headers=auth, params={"vault": "other"})
    assert denied.status_code == 403 and denied.json()["code"] == "vault_access_denied"
    assert "marmalade" not in denied.text
    for params in ({"mode": "accessed"}, {"limit": 0}, {"limit": "many"}, {"offset": -3}):
        bad = httpx2.get(url, headers=auth, params=params)
        assert bad.status_code == 400 and bad.json()["code"] == "invalid_argument", params
