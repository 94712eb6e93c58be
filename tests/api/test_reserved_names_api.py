"""Files whose names hold a character Windows reserves (``< > : | ? * "``) exist on Linux vaults (issue 16):
they are listed, read, renamed, moved and deleted like any other file over a real server; only new such names
are refused (``invalid_name``), so a vault synced to Windows keeps working."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest
from support import write_tree

ODD = 'Meeting: Q&A <draft> | "final"?*.md'


@pytest.fixture
def server(live_server, tmp_path: Path):
    vault = write_tree(tmp_path / "vault", {ODD: "# Odd\n\nodd-name body\n", "Odd: folder/inner.md": "inner\n",
                                            "Q: what?.md": "q\n", "Home.md": "See [[Q: what?]].\n"})  # fmt: skip
    srv = live_server({"notes": vault}, auth_enabled=False)
    srv.vault = vault
    return srv


def test_listed_read_and_searched(server) -> None:
    api = f"{server.url}/api"
    listed = httpx2.get(f"{api}/vault/notes/files").json()["files"]
    assert {f["path"] for f in listed} == {ODD, "Odd: folder/inner.md", "Home.md", "Q: what?.md"}
    for route in ("/file/notes", "/file/notes/raw", "/file/notes/source"):
        r = httpx2.get(f"{api}{route}", params={"path": ODD})
        assert r.status_code == 200, (route, r.text)
        assert "odd-name body" in r.text
    assert httpx2.get(f"{api}/file/notes", params={"path": "Odd: folder/inner.md"}).status_code == 200
    hits = httpx2.get(f"{api}/search", params={"q": "odd-name"}).json()["hits"]
    assert [h["path"] for h in hits] == [ODD]
    entries = httpx2.get(f"{api}/browse/notes").json()["entries"]
    assert {e["path"] for e in entries} == {ODD, "Odd: folder", "Home.md", "Q: what?.md"}


def test_renamed_edited_and_deleted_but_not_created(server) -> None:
    api, vault = f"{server.url}/api", server.vault
    edited = httpx2.patch(f"{api}/file/notes", json={"path": ODD, "find": "odd-name", "replace": "renamed"})
    assert edited.status_code == 200, edited.text
    r = httpx2.post(f"{api}/file/notes/rename", json={"path": ODD, "new_name": "Meeting notes"})
    assert r.status_code == 200, r.text
    assert (vault / "Meeting notes.md").read_text() == "# Odd\n\nrenamed body\n" and not (vault / ODD).exists()
    linked = httpx2.post(f"{api}/file/notes/rename", json={"path": "Q: what?.md", "new_name": "Answers"}).json()
    assert linked["details"]["links_updated"] == {"Home.md": 1}
    assert (vault / "Home.md").read_text() == "See [[Answers]].\n"
    moved = httpx2.post(f"{api}/move/notes", json={"source_path": "Odd: folder/inner.md", "destination_dir": ""})
    assert moved.status_code == 200, moved.text
    assert httpx2.delete(f"{api}/directory/notes", params={"path": "Odd: folder"}).status_code == 200
    assert httpx2.delete(f"{api}/file/notes", params={"path": "inner.md"}).status_code == 200
    for body in ({"path": "New: idea.md", "content": "x"}, {"path": "Why?/x.md", "content": "x"}):
        refused = httpx2.post(f"{api}/file/notes", json=body)
        assert (refused.status_code, refused.json()["code"]) == (400, "invalid_name"), refused.text
    refused = httpx2.post(f"{api}/file/notes/rename", json={"path": "Meeting notes.md", "new_name": "a|b"})
    assert refused.json()["code"] == "invalid_name"
    assert sorted(p.name for p in vault.iterdir()) == ["Answers.md", "Home.md", "Meeting notes.md"]
