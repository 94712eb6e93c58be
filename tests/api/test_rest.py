"""REST over a real server on loopback: every route, the JSON error shape, auth."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2
import pytest
from pwdlib.hashers.argon2 import Argon2Hasher
from support import journal_records

from obsigate.auth.tokens import TokenService
from obsigate.auth.users import UserStore


@pytest.fixture
def open_server(live_server, small_vault):
    return live_server({"notes": small_vault}, auth_enabled=False)


def test_health_reports_index_state(open_server) -> None:
    body = httpx2.get(f"{open_server.url}/api/health").json()
    assert body["status"] == "ok"
    assert body["index"]["state"] == "ready"
    assert body["index"]["notes"] == 4


def test_vaults_browse_files(open_server) -> None:
    url = open_server.url
    vaults = httpx2.get(f"{url}/api/vaults").json()["vaults"]
    assert vaults == [{"name": "notes", "notes": 4, "read_only": False, "destructive_tools": True}]
    root = httpx2.get(f"{url}/api/browse/notes").json()
    assert [e["name"] for e in root["entries"]] == ["Attachments", "Projects", "Home.md", "Ideas.md"]
    assert root["summary"] == {"dirs": 2, "files": 2, "notes": 2}
    assert [(e["files"], e["notes"]) for e in root["entries"][:2]] == [(1, 0), (2, 2)]
    sub = httpx2.get(f"{url}/api/browse/notes", params={"path": "Projects"}).json()
    assert [e["path"] for e in sub["entries"]] == ["Projects/Plan.md", "Projects/Secret.md"]
    files = httpx2.get(f"{url}/api/vault/notes/files").json()
    assert sorted(f["path"] for f in files["files"]) == [
        "Attachments/pic.png",
        "Home.md",
        "Ideas.md",
        "Projects/Plan.md",
        "Projects/Secret.md",
    ]
    assert [f["path"] for f in files["files"]] == sorted(f["path"] for f in files["files"])
    paged = httpx2.get(f"{url}/api/vault/notes/files", params={"limit": 2}).json()
    assert paged["total"] == 5 and paged["truncated"] is True and paged["next_offset"] == 2


def test_file_and_raw(open_server) -> None:
    url = open_server.url
    note = httpx2.get(f"{url}/api/file/notes", params={"path": "Projects/Plan.md"}).json()
    assert note["frontmatter"] == {"status": "active"}
    assert note["tags"] == ["project/sensors"]
    assert note["links"][0]["target"] == "Home" and note["links"][0]["subpath"] == "#Home"
    assert [h["text"] for h in note["headings"]] == ["Plan", "Budget"]
    raw = httpx2.get(f"{url}/api/file/notes/raw", params={"path": "Projects/Secret.md"})
    assert raw.headers["content-type"].startswith("text/markdown")
    assert "sk-proj" not in raw.text and "[REDACTED:" in raw.text
    png = httpx2.get(f"{url}/api/file/notes/raw", params={"path": "Attachments/pic.png"})
    assert png.headers["content-type"] == "image/png" and png.content.startswith(b"\x89PNG")


def test_search_and_tags(open_server) -> None:
    url = open_server.url
    res = httpx2.get(f"{url}/api/search", params={"q": "tidepool"}).json()
    assert {h["path"] for h in res["hits"]} == {"Ideas.md", "Projects/Plan.md"}
    assert all("<mark>" in h["snippet"].lower() for h in res["hits"])
    assert res["index"] == {"state": "ready", "complete": True}
    only = httpx2.get(f"{url}/api/search", params={"q": "tidepool", "tag": "project"}).json()
    assert only["total"] == 2
    tags = {t["tag"]: t["count"] for t in httpx2.get(f"{url}/api/tags").json()["tags"]}
    assert tags["project/sensors"] == 2 and tags["project"] == 2 and tags["home"] == 1


@pytest.mark.parametrize("q", ["don't", "C++", "status: done", "a-b", "", "   ", "*", "AND OR NOT", "-", "a - b"])
def test_hostile_queries_never_fail(open_server, q: str) -> None:
    r = httpx2.get(f"{open_server.url}/api/search", params={"q": q})
    assert r.status_code == 200, r.text
    assert r.json()["total"] >= 0


@pytest.mark.parametrize(("q", "position"), [('"unclosed', 0), ("NEAR(", 4), ("a OR", 2), ("/[/", 0)])
def test_a_query_that_does_not_parse_is_a_400_saying_where(open_server, q: str, position: int) -> None:
    r = httpx2.get(f"{open_server.url}/api/search", params={"q": q})
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["code"] == "invalid_query"
    assert body["details"]["position"] == position


@pytest.mark.parametrize(
    ("path", "params", "status", "code"),
    [
        ("/api/file/notes", {"path": "../../etc/passwd"}, 400, "path_outside_vault"),
        ("/api/file/notes", {"path": ".obsidian/app.json"}, 400, "path_outside_vault"),
        ("/api/file/notes", {"path": "/etc/passwd"}, 400, "path_outside_vault"),
        ("/api/file/notes/raw", {"path": "..\\..\\x"}, 400, "path_outside_vault"),
        ("/api/file/notes", {"path": "Nope.md"}, 404, "not_found"),
        ("/api/file/notes", {}, 400, "invalid_argument"),
        ("/api/file/elsewhere", {"path": "Home.md"}, 404, "not_found"),
        ("/api/browse/notes", {"path": "Home.md"}, 400, "not_a_directory"),
        ("/api/search", {"q": "x", "limit": "many"}, 400, "invalid_argument"),
        ("/api/search", {"q": "x", "limit": 100000}, 400, "invalid_argument"),
        ("/api/nothing-here", {}, 404, "not_found"),
    ],
)
def test_errors_have_one_json_shape(open_server, path: str, params: dict, status: int, code: str) -> None:
    r = httpx2.get(f"{open_server.url}{path}", params=params)
    assert r.status_code == status
    body = r.json()
    assert body["code"] == code and isinstance(body["message"], str)
    assert "Traceback" not in r.text


def test_encoded_traversal_in_the_raw_url(open_server) -> None:
    # %2F and %2e arrive decoded in the handler; the guard must see the decoded value (security.md §1.5)
    with httpx2.Client() as c:
        r = c.get(f"{open_server.url}/api/file/notes?path=..%2F..%2Fetc%2Fpasswd")
        assert r.json()["code"] == "path_outside_vault"
        r = c.get(f"{open_server.url}/api/file/notes?path=a%00b.md")
        assert r.json()["code"] == "path_outside_vault"


@pytest.fixture
def auth_server(live_server, small_vault, tmp_path: Path):
    data = tmp_path / "data"
    data.mkdir()
    users = UserStore(data / "users.sqlite3", password_hasher=Argon2Hasher(time_cost=1, memory_cost=8192))
    users.add_user("alice", "correct horse battery", vaults=["notes"])
    users.add_user("bob", "another good password", vaults=["other"])
    users.close()
    return live_server({"notes": small_vault}, data_dir=data)


def test_auth_required_and_login(auth_server) -> None:
    url = auth_server.url
    r = httpx2.get(f"{url}/api/vaults")
    assert r.status_code == 401 and r.json()["code"] == "unauthenticated"
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert httpx2.get(f"{url}/api/health").status_code == 200  # health stays public
    bad = httpx2.post(f"{url}/api/auth/login", json={"username": "alice", "password": "wrong password"})
    assert bad.status_code == 401 and bad.json()["code"] == "unauthenticated"
    ok = httpx2.post(f"{url}/api/auth/login", json={"username": "alice", "password": "correct horse battery"}).json()
    headers = {"Authorization": f"Bearer {ok['access_token']}"}
    assert httpx2.get(f"{url}/api/auth/me", headers=headers).json()["vaults"] == ["notes"]
    assert httpx2.get(f"{url}/api/vaults", headers=headers).json()["vaults"][0]["name"] == "notes"


def test_other_users_vault_is_denied(auth_server, tmp_path: Path) -> None:
    tokens = TokenService(tmp_path / "data" / "jwt_secret")
    users = UserStore(tmp_path / "data" / "users.sqlite3")
    bob = tokens.issue(users.get_user("bob"))
    users.close()
    r = httpx2.get(
        f"{auth_server.url}/api/file/notes", params={"path": "Home.md"}, headers={"Authorization": f"Bearer {bob}"}
    )
    assert r.status_code == 403 and r.json()["code"] == "vault_access_denied"
    assert "Welcome" not in r.text
    assert (
        httpx2.get(f"{auth_server.url}/api/vaults", headers={"Authorization": f"Bearer {bob}"}).json()["vaults"] == []
    )
    search = httpx2.get(
        f"{auth_server.url}/api/search", params={"q": "tidepool"}, headers={"Authorization": f"Bearer {bob}"}
    ).json()
    assert search["total"] == 0


def test_login_is_throttled(auth_server) -> None:
    codes = [
        httpx2.post(
            f"{auth_server.url}/api/auth/login", json={"username": "alice", "password": "nope nope"}
        ).status_code
        for _ in range(7)
    ]
    assert codes[:5] == [401] * 5 and codes[-1] == 429


def test_garbage_tokens_are_401(auth_server) -> None:
    for value in ["Bearer", "Bearer abc.def.ghi", "Basic dXNlcjpwYXNz", "Bearer og_notakey"]:
        r = httpx2.get(f"{auth_server.url}/api/vaults", headers={"Authorization": value})
        assert r.status_code == 401, value
        assert json.loads(r.text)["code"] == "unauthenticated"


def test_search_never_reveals_a_secret(open_server) -> None:
    url = open_server.url
    for q in ("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH", "abcdefghij", "sk-proj-abcdefghij"):
        assert httpx2.get(f"{url}/api/search", params={"q": q}).json()["total"] == 0, q
    hits = httpx2.get(f"{url}/api/search", params={"q": "credentials api_key"}).json()["hits"]
    assert hits and all("abcdefghij" not in h["snippet"] for h in hits)


def test_foreign_host_is_refused_everywhere(open_server) -> None:
    # DNS rebinding: a page on attacker.example resolved to 127.0.0.1 still sends its own Host
    for path in ("/api/search?q=tidepool", "/api/vaults", "/"):
        r = httpx2.get(f"{open_server.url}{path}", headers={"Host": "attacker.example"})
        assert r.status_code == 421 and r.json()["code"] == "misdirected_request"
        assert "tidepool" not in r.text
    assert httpx2.get(f"{open_server.url}/api/vaults", headers={"Host": "localhost:1234"}).status_code == 200


def test_search_offset_is_bounded(open_server) -> None:
    for offset in ("99999999999999", "18446744073709551616", "10001"):
        r = httpx2.get(f"{open_server.url}/api/search", params={"q": "tidepool", "offset": offset})
        assert r.status_code == 400 and r.json()["code"] == "invalid_argument", offset
    assert httpx2.get(f"{open_server.url}/api/health").json()["status"] == "ok"  # still alive


def test_downloads_are_audited_and_rate_limited(live_server, small_vault) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=False, tool_rate_limit=3)
    url = f"{server.url}/api/file/notes/raw"
    codes = [httpx2.get(url, params={"path": "Home.md"}).status_code for _ in range(6)]
    # sliding-window counters are approximate across a window edge, so allow one extra call
    assert codes[:3] == [200, 200, 200] and codes.count(429) >= 2
    audit = journal_records(server.settings.data_dir)
    assert sum(r["tool"] == "download_file" for r in audit) == 6


def test_host_guard_matches_whole_host_and_digit_ports() -> None:
    from obsigate.api.hosts import host_allowed

    allowed = ["127.0.0.1", "127.0.0.1:*", "localhost:*"]
    assert host_allowed("127.0.0.1:8841", allowed) and host_allowed("LOCALHOST:80", allowed)
    for bad in ("127.0.0.1:8841@evil.com", "127.0.0.1:.evil.com", "127.0.0.1.evil.com", "localhost:", ""):
        assert not host_allowed(bad, allowed), bad


def test_tree_search_route(open_server) -> None:
    r = httpx2.get(f"{open_server.url}/api/tree-search", params={"q": "plan"})
    assert r.status_code == 200 and r.json()["hits"][0]["path"] == "Projects/Plan.md"
    assert httpx2.get(f"{open_server.url}/api/tree-search", params={"q": ""}).json()["code"] == "invalid_argument"


def test_web_page_and_script_are_served(open_server) -> None:
    page = httpx2.get(f"{open_server.url}/")
    assert page.status_code == 200 and "<title>ObsiGate</title>" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    script = httpx2.get(f"{open_server.url}/static/app.js")  # the built web app (frontend/)
    assert script.headers["content-type"].startswith("text/javascript") and "textContent" in script.text


def test_backlinks_and_graph_routes(open_server) -> None:
    url = open_server.url
    r = httpx2.get(f"{url}/api/backlinks/notes", params={"path": "Home.md"})
    assert r.status_code == 200
    body = r.json()
    assert [b["path"] for b in body["backlinks"]] == ["Projects/Plan.md"] and body["total"] == 1
    assert body["backlinks"][0]["links"][0]["subpath"] == "#Home"
    missing = httpx2.get(f"{url}/api/backlinks/notes", params={"path": "Nope.md"})
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    graph = httpx2.get(f"{url}/api/graph/notes", params={"path": "Home.md", "depth": 1}).json()
    assert graph["center"] == "Home.md" and {n["id"] for n in graph["nodes"]} == {
        "Home.md",
        "Projects/Plan.md",
        "Ideas.md",
    }
    whole = httpx2.get(f"{url}/api/graph/notes").json()
    assert whole["scope"] == "vault" and whole["total_nodes"] == 4
    bad = httpx2.get(f"{url}/api/graph/notes", params={"scope": "galaxy"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_argument"
