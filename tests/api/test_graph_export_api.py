"""GET /api/graph/{vault}/export (the web app's whole-vault graph) over a real server on loopback: shape,
ETag and 304, tag filter, permissions, and a 10k-note vault in one uncut answer."""

from __future__ import annotations

import time
from pathlib import Path

import httpx2
from support import alice_token, write_tree


def _pairs(body: dict) -> set[tuple[str, str]]:
    names = body["notes"] + body["unresolved"]
    edges = body["edges"]
    return {(names[s], names[t]) for s, t in zip(edges[::2], edges[1::2], strict=True)}


def test_graph_export_route(live_server, small_vault: Path, tmp_path: Path) -> None:
    (small_vault / "Ideas.md").write_text(
        "# Ideas\n\nA sensor network. #project/sensors\nSee [[Plan]] and [[Someday]].\n"
    )
    other = write_tree(tmp_path / "other", {"Private.md": "# Private\n\nmarmalade [[Private]]\n"})
    data = tmp_path / "data"
    alice = alice_token(data)
    server = live_server({"notes": small_vault, "other": other}, data_dir=data)
    url = f"{server.url}/api/graph/notes/export"
    auth = {"Authorization": f"Bearer {alice}"}

    assert httpx2.get(url).status_code == 401
    r = httpx2.get(url, headers=auth)
    body = r.json()
    assert r.status_code == 200 and body["vault"] == "notes" and body["tag"] is None and body["index"]["complete"]
    assert body["notes"] == ["Home.md", "Ideas.md", "Projects/Plan.md", "Projects/Secret.md"]  # notes only, orphans too
    assert body["unresolved"] == ["Someday"]
    assert _pairs(body) == {
        ("Home.md", "Projects/Plan.md"), ("Home.md", "Ideas.md"), ("Projects/Plan.md", "Home.md"),
        ("Ideas.md", "Projects/Plan.md"), ("Ideas.md", "Someday"),
    }  # fmt: skip
    etag = r.headers["etag"]
    assert etag == f'"{body["version"]}"' and "no-cache" in r.headers["cache-control"]

    same = httpx2.get(url, headers={**auth, "If-None-Match": etag})
    assert same.status_code == 304 and same.content == b"" and same.headers["etag"] == etag
    (small_vault / "Later.md").write_text("# Later\n\n[[Home]]\n")
    deadline = time.monotonic() + 10
    while (fresh := httpx2.get(url, headers={**auth, "If-None-Match": etag})).status_code == 304:
        assert time.monotonic() < deadline, "the export never saw the new note"
        time.sleep(0.1)
    assert fresh.status_code == 200 and fresh.headers["etag"] != etag and "Later.md" in fresh.json()["notes"]

    tagged = httpx2.get(url, headers=auth, params={"tag": "project"}).json()  # nested: project/sensors
    assert tagged["tag"] == "project" and tagged["notes"] == ["Ideas.md", "Projects/Plan.md"]
    assert _pairs(tagged) == {("Ideas.md", "Projects/Plan.md"), ("Ideas.md", "Someday")}

    denied = httpx2.get(f"{server.url}/api/graph/other/export", headers=auth)
    assert denied.status_code == 403 and denied.json()["code"] == "vault_access_denied"
    assert "Private" not in denied.text and "etag" not in denied.headers
    blind = httpx2.get(f"{server.url}/api/graph/other/export", headers={**auth, "If-None-Match": etag})
    assert blind.status_code == 403  # no 304 either: the grant is checked first
    bad = httpx2.get(url, headers=auth, params={"tag": "x" * 300})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_argument"


def test_graph_export_of_ten_thousand_notes_is_whole(live_server, tmp_path: Path) -> None:
    n = 10_000
    files = {
        f"n{i // 1000}/Note {i}.md": f"[[Note {(i * 7 + 1) % n}]] [[Note {(i + 1) % n}]] #t{i % 10}\n" for i in range(n)
    }
    files["n0/Note 0.md"] += "[[Nowhere]]\n"
    server = live_server({"big": write_tree(tmp_path / "big", files)}, auth_enabled=False)
    url = f"{server.url}/api/graph/big/export"
    r = httpx2.get(url, timeout=60)
    body = r.json()
    assert r.status_code == 200 and len(body["notes"]) == n and body["unresolved"] == ["Nowhere"]
    links = {(f"Note {i}", f"Note {t}") for i in range(n) for t in ((i * 7 + 1) % n, (i + 1) % n)}
    got = {(s.split("/")[-1][:-3], t.split("/")[-1].removesuffix(".md")) for s, t in _pairs(body)}
    assert got == links | {("Note 0", "Nowhere")}  # every link: nothing cut to the tool budget
    assert len(body["edges"]) == 2 * len(got)
    assert not body["truncated"] and len(r.content) > 100_000
    t0 = time.perf_counter()
    assert httpx2.get(url, headers={"If-None-Match": r.headers["etag"]}).status_code == 304
    assert time.perf_counter() - t0 < 2  # cached on the server: no rebuild, no body
    tagged = httpx2.get(url, params={"tag": "t3"}).json()
    assert len(tagged["notes"]) == n // 10 and all(p.endswith("3.md") for p in tagged["notes"])
