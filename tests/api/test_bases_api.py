"""GET /api/base/{vault} (the web app's base views) over a real server on loopback: rows, ETag and 304, a live
change seen through a new ETag, bad input as catalogued errors, and the vault grant checked first."""

from __future__ import annotations

import time
from pathlib import Path

import httpx2
from support import alice_token, write_tree

BASE = "filters: file.hasTag('book')\nviews:\n  - type: table\n    name: All\n    order: [file.name, year]\n"


def test_base_route(live_server, tmp_path: Path) -> None:
    lib = write_tree(tmp_path / "lib", {"Books.base": BASE, "Dune.md": "---\ntags: [book]\nyear: 1965\n---\n"})
    other = write_tree(tmp_path / "other", {"Secret.base": BASE})
    data = tmp_path / "data"
    alice = alice_token(data)
    server = live_server({"notes": lib, "other": other}, data_dir=data)
    url = f"{server.url}/api/base/notes"
    auth = {"Authorization": f"Bearer {alice}"}

    assert httpx2.get(url, params={"path": "Books.base"}).status_code == 401
    r = httpx2.get(url, headers=auth, params={"path": "Books.base"})
    body = r.json()
    assert r.status_code == 200 and body["views"] == [{"name": "All", "type": "table"}]
    assert [row["cells"] for row in body["view"]["groups"][0]["rows"]] == [
        [{"$": "link", "path": "Dune.md", "text": "Dune"}, 1965]
    ]
    etag = r.headers["etag"]
    same = httpx2.get(url, headers={**auth, "If-None-Match": etag}, params={"path": "Books.base"})
    assert same.status_code == 304 and same.content == b""

    (lib / "Emma.md").write_text("---\ntags: [book]\nyear: 1815\n---\n")
    deadline = time.monotonic() + 10
    while (
        fresh := httpx2.get(url, headers={**auth, "If-None-Match": etag}, params={"path": "Books.base"})
    ).status_code == 304:
        assert time.monotonic() < deadline, "the base never saw the new note"
        time.sleep(0.1)
    assert [row["path"] for row in fresh.json()["view"]["groups"][0]["rows"]] == ["Dune.md", "Emma.md"]

    (lib / "Bad.base").write_text("views: {x: 1}\n")
    deadline = time.monotonic() + 10
    while (bad := httpx2.get(url, headers=auth, params={"path": "Bad.base"})).json()["code"] == "not_found":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_base"
    (lib / "Typo.base").write_text("filters: 'year > ('\nviews:\n  - type: table\n")  # one error, not one per file
    deadline = time.monotonic() + 10
    while (typo := httpx2.get(url, headers=auth, params={"path": "Typo.base"})).json()["code"] == "not_found":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    assert (
        typo.status_code == 400 and typo.json()["code"] == "invalid_base" and "does not parse" in typo.json()["message"]
    )
    missing = httpx2.get(url, headers=auth, params={"path": "Books.base", "view": "Nope"})
    assert missing.status_code == 404 and "All" in missing.json()["hint"]
    assert (
        httpx2.get(url, headers=auth, params={"path": "Books.base", "block": -1}).json()["code"] == "invalid_argument"
    )
    denied = httpx2.get(
        f"{server.url}/api/base/other", headers={**auth, "If-None-Match": etag}, params={"path": "Secret.base"}
    )
    assert denied.status_code == 403 and denied.json()["code"] == "vault_access_denied"
