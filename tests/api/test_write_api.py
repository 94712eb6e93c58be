"""REST write routes on a real server on loopback: each mutation, the editor's save with its version, and
the cross-site guard."""

from __future__ import annotations

import httpx2
import pytest


@pytest.fixture
def server(live_server, small_vault):
    return live_server({"notes": small_vault}, auth_enabled=False, tool_rate_limit=10_000)


def test_create_edit_save_append_delete_restore(server, small_vault) -> None:
    url = f"{server.url}/api"
    r = httpx2.post(f"{url}/file/notes", json={"path": "New/Idea.md", "content": "# Idea\nokapi\n"})
    assert r.status_code == 200 and r.json()["changes"] == [{"path": "New/Idea.md", "action": "create", "to": None}]
    assert httpx2.post(f"{url}/file/notes", json={"path": "New/Idea.md", "content": "x"}).json()["code"] == "exists"
    assert httpx2.get(f"{url}/search", params={"q": "okapi"}).json()["hits"][0]["path"] == "New/Idea.md"
    r = httpx2.patch(f"{url}/file/notes", json={"path": "New/Idea.md", "find": "okapi", "replace": "$1 okapi"})
    assert r.status_code == 200 and (small_vault / "New/Idea.md").read_text() == "# Idea\n$1 okapi\n"
    read = httpx2.get(f"{url}/file/notes", params={"path": "New/Idea.md"}).json()
    saved = httpx2.post(
        f"{url}/file/notes/save", json={"path": "New/Idea.md", "content": "v2\n", "version": read["version"]}
    )
    assert saved.status_code == 200 and (small_vault / "New/Idea.md").read_text() == "v2\n"
    stale = httpx2.post(
        f"{url}/file/notes/save", json={"path": "New/Idea.md", "content": "v3\n", "version": read["version"]}
    )
    assert stale.status_code == 409 and stale.json()["code"] == "conflict"
    assert (small_vault / "New/Idea.md").read_text() == "v2\n"
    httpx2.post(f"{url}/file/notes/append", json={"path": "New/Idea.md", "content": "tail"})
    assert (small_vault / "New/Idea.md").read_text() == "v2\ntail"
    gone = httpx2.delete(f"{url}/file/notes", params={"path": "New/Idea.md"}).json()
    assert not (small_vault / "New/Idea.md").exists()
    versions = httpx2.get(f"{url}/file/notes/backups", params={"path": "New/Idea.md"}).json()["versions"]
    assert versions[0]["version"] == gone["backups"][0]["version"]
    diff = httpx2.get(
        f"{url}/file/notes/diff", params={"path": "New/Idea.md", "version": versions[-1]["version"]}
    ).json()
    assert "-# Idea" in diff["diff"]
    httpx2.post(f"{url}/file/notes/restore", json={"path": "New/Idea.md", "version": versions[0]["version"]})
    assert (small_vault / "New/Idea.md").read_text() == "v2\ntail"


def test_folders_move_rename_and_replace(server, small_vault) -> None:
    url = f"{server.url}/api"
    assert httpx2.post(f"{url}/directory/notes", json={"path": "Archive"}).status_code == 200
    moved = httpx2.post(f"{url}/move/notes", json={"source_path": "Ideas.md", "destination_dir": "Archive"}).json()
    assert moved["changes"][0] == {"path": "Ideas.md", "action": "move", "to": "Archive/Ideas.md"}
    renamed = httpx2.patch(f"{url}/directory/notes", json={"path": "Projects", "new_name": "Work"}).json()
    assert renamed["details"]["links_updated"] == {"Home.md": 1}
    assert "[[Plan|the plan]] and [[Ideas]]" in (small_vault / "Home.md").read_text()  # shortest form that resolves
    dry = httpx2.post(
        f"{url}/search/replace", json={"vault": "notes", "find": "tidepool", "replace": "rockpool", "dry_run": True}
    ).json()
    assert dry["details"]["total"] == 2 and "tidepool" in (small_vault / "Work/Plan.md").read_text()
    refused = httpx2.delete(f"{url}/directory/notes", params={"path": "Archive"})
    assert refused.status_code == 409 and refused.json()["code"] == "directory_not_empty"
    assert httpx2.delete(f"{url}/directory/notes", params={"path": "Archive", "recursive": "true"}).status_code == 200
    assert not (small_vault / "Archive").exists()


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({"Origin": "https://evil.example", "Content-Type": "application/json"}, "forbidden_origin"),
        ({"Content-Type": "text/plain"}, "unsupported_media_type"),  # a cross-site "simple" request
    ],
)
def test_cross_site_writes_are_refused(server, small_vault, headers: dict, code: str) -> None:
    r = httpx2.post(f"{server.url}/api/file/notes", content=b'{"path": "x.md", "content": "x"}', headers=headers)
    assert r.json()["code"] == code and not (small_vault / "x.md").exists()
    same = {"Origin": server.url, "Content-Type": "application/json"}
    assert (
        httpx2.post(
            f"{server.url}/api/file/notes", content=b'{"path": "x.md", "content": "x"}', headers=same
        ).status_code
        == 200
    )


def test_oversized_bodies_are_refused(server) -> None:
    big = b'{"path": "big.md", "content": "' + b"x" * (9 * 1024 * 1024) + b'"}'
    r = httpx2.post(f"{server.url}/api/file/notes", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too_large"


def test_save_refuses_a_non_text_path_and_normalises_the_path(server, small_vault) -> None:
    """A list as ``path`` was a 500 (unhashable in the version check); ``./x.md`` was a false ``conflict``."""
    url = f"{server.url}/api/file/notes"
    httpx2.post(url, json={"path": "Saved.md", "content": "one\n"})
    for bad in (["Saved.md"], {"p": 1}, None):
        r = httpx2.post(f"{url}/save", json={"path": bad, "content": "x", "version": "v"})
        assert (r.status_code, r.json()["code"]) == (400, "invalid_argument")
    version = httpx2.get(url, params={"path": "Saved.md"}).json()["version"]
    r = httpx2.post(f"{url}/save", json={"path": "./Saved.md", "content": "two\n", "version": version})
    assert r.status_code == 200 and (small_vault / "Saved.md").read_text() == "two\n"
    stale = httpx2.post(f"{url}/save", json={"path": "./Saved.md", "content": "three\n", "version": version}).json()
    assert stale["code"] == "conflict" and "read or proposed" in stale["message"]


def test_an_empty_find_is_a_bad_argument_and_a_dry_run_lists_no_changes(server, small_vault) -> None:
    url = f"{server.url}/api"
    r = httpx2.patch(f"{url}/file/notes", json={"path": "Home.md", "find": "", "replace": "y"})
    assert (r.status_code, r.json()["code"]) == (400, "invalid_argument")
    dry = httpx2.post(
        f"{url}/search/replace", json={"vault": "notes", "find": "Plan", "replace": "Scheme", "dry_run": True}
    )
    body = dry.json()
    assert dry.status_code == 200 and body["details"]["total"] >= 1 and body["changes"] == [] and body["backups"] == []
    assert "Scheme" not in (small_vault / "Home.md").read_text()


def _create(server, name: str, origin: str, host: str | None = None) -> httpx2.Response:
    headers = {"Origin": origin, "Content-Type": "application/json"}
    if host is not None:
        headers["Host"] = host
    return httpx2.post(f"{server.url}/api/file/notes", json={"path": name, "content": "x"}, headers=headers)


def test_only_this_servers_own_origin_may_write(server, small_vault) -> None:
    """Issue 9 item 2: another port (another program) on loopback, another scheme, or ``null`` is refused; the
    server's own origin, by the base URL or by the Host the browser used, is accepted."""
    port = server.settings.port
    for origin in (
        "http://localhost:3000", "https://127.0.0.1:9", f"https://127.0.0.1:{port}", "http://127.0.0.1",
        f"http://[::1]:{port + 1}", "null", "file://", f"http://127.0.0.1:{port}.evil.example",
    ):  # fmt: skip
        r = _create(server, "refused.md", origin)
        assert (r.status_code, r.json()["code"]) == (403, "forbidden_origin"), origin
    assert not (small_vault / "refused.md").exists()
    assert _create(server, "a.md", f"http://127.0.0.1:{port}").status_code == 200
    assert _create(server, "b.md", f"HTTP://127.0.0.1:{port}/").status_code == 200  # normalised
    # the browser reached us as localhost: its Host and Origin say so
    assert _create(server, "c.md", f"http://localhost:{port}", host=f"localhost:{port}").status_code == 200
    assert _create(server, "d.md", f"http://localhost:{port}").json()["code"] == "forbidden_origin"  # Host 127.0.0.1
    no_origin = httpx2.post(f"{server.url}/api/file/notes", json={"path": "e.md", "content": "x"})
    assert no_origin.status_code == 200  # scripts send no Origin


def test_allowed_origins_may_write(live_server, small_vault) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=False, allowed_origins=["http://localhost:3000/"])
    assert _create(server, "a.md", "http://localhost:3000").status_code == 200
    assert _create(server, "b.md", "http://localhost:3001").json()["code"] == "forbidden_origin"


def test_origin_normalisation() -> None:
    from obsigate.api.hosts import normalise_origin, origin_allowed, own_origins

    assert normalise_origin("HTTPS://Example.COM:443/x") == "https://example.com"
    assert normalise_origin("http://[::1]:80") == "http://[::1]"
    assert normalise_origin("http://h:99999") is None and normalise_origin("null") is None
    own = own_origins("http://127.0.0.1:8000", "http", "localhost:8000", ["https://notes.example"])
    assert own == {"http://127.0.0.1:8000", "http://localhost:8000", "https://notes.example"}
    assert origin_allowed("http://localhost:8000", own) and not origin_allowed("http://localhost:8001", own)
