"""GET/POST /api/search/advanced over a real server: flat query parameters, JSON body, errors, permissions."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import httpx2
import pytest
from pwdlib.hashers.argon2 import Argon2Hasher
from support import SMALL_VAULT, write_tree

from obsigate.auth.users import UserStore

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
EXTRA = {
    "Archive/Old budget.md": "# Old budget\n\nThe Budget of 2019, superseded.\n",
    "Daily/2024-05-01.md": "TODO: call the budgeteer\n",
}
OTHER = {"Private.md": "# Private\n\nThe budget of the other vault.\n"}


@pytest.fixture
def vaults(tmp_path: Path) -> dict[str, Path]:
    notes = write_tree(tmp_path / "notes", {**SMALL_VAULT, **EXTRA})
    old = datetime(2020, 1, 15, tzinfo=UTC).timestamp()
    os.utime(notes / "Archive/Old budget.md", (old, old))
    return {"notes": notes, "other": write_tree(tmp_path / "other", OTHER)}


def paths(body: dict) -> list[str]:
    return [h["path"] for h in body["hits"]]


def test_get_maps_flat_parameters(live_server, vaults) -> None:
    url = f"{live_server(vaults, auth_enabled=False).url}/api/search/advanced"

    def get(**params) -> dict:
        r = httpx2.get(url, params=params)
        assert r.status_code == 200, r.text
        return r.json()

    body = get(q="budget", vault="notes")
    assert set(paths(body)) == {"Projects/Plan.md", "Archive/Old budget.md", "Daily/2024-05-01.md"}
    assert body["sort"] == "relevance" and body["timed_out"] is False and body["index"]["complete"] is True
    assert all("<mark>" in h["snippet"].lower() for h in body["hits"])
    assert paths(get(q="budget", include_paths=["Projects/**", "Daily/**"], sort="path")) == [
        "Daily/2024-05-01.md",
        "Projects/Plan.md",
    ]
    assert paths(get(q="budget", vault="notes", exclude_paths=["Projects/**", "Daily/**"])) == ["Archive/Old budget.md"]
    assert paths(get(q="Budget", case_sensitive="true", vault="notes", sort="path")) == [
        "Archive/Old budget.md",
        "Projects/Plan.md",
    ]
    assert "Daily/2024-05-01.md" not in paths(get(q="budget", whole_word="true"))
    assert paths(get(q=r"^TODO:\s", regex="true")) == ["Daily/2024-05-01.md"]
    assert paths(get(modified_before="2021-01-01")) == ["Archive/Old budget.md"]
    assert paths(get(q="budget", modified_after="2021-01-01", vault="notes", sort="path")) == [
        "Daily/2024-05-01.md",
        "Projects/Plan.md",
    ]
    assert paths(get(created_before="2021-01-01")) == ["Archive/Old budget.md"]
    assert get(q="budget", created_after="2999-01-01")["total"] == 0
    size = len(EXTRA["Daily/2024-05-01.md"])
    assert paths(get(size_min=size, size_max=size)) == ["Daily/2024-05-01.md"]
    assert paths(get(tag="project", sort="path")) == ["Ideas.md", "Projects/Plan.md"]
    page = get(q="budget", limit=1, sort="path")
    assert (page["total"], page["next_offset"], page["truncated"]) == (4, 1, True)
    assert paths(get(q="budget", limit=1, offset=3, sort="path")) == ["Projects/Plan.md"]
    secret = get(q="api_key")
    assert (
        paths(secret) == ["Projects/Secret.md"]
        and SECRET not in str(secret)
        and "[REDACTED:" in secret["hits"][0]["snippet"]
    )


def test_post_takes_the_tool_arguments(live_server, vaults) -> None:
    url = f"{live_server(vaults, auth_enabled=False).url}/api/search/advanced"
    body = httpx2.post(url, json={"q": "budget", "modified": {"before": "2021-01-01"}, "size": {"min": 1}}).json()
    assert paths(body) == ["Archive/Old budget.md"]
    r = httpx2.post(url, json={"q": "budget", "created": {"since": "2020-01-01"}})
    assert r.status_code == 400 and r.json()["code"] == "invalid_argument"


STRICT_BODIES = [  # a JSON body is the tool's arguments: JSON types as the schema says, nothing converted (issue 9)
    {"q": "budget", "limit": True},
    {"q": "budget", "limit": "5"},
    {"q": "budget", "case_sensitive": "yes"},
    {"q": "budget", "case_sensitive": "true"},
    {"q": "budget", "regex": 1},
    {"q": "budget", "size": {"min": "1"}},
    {"q": "budget", "include_paths": "Projects/**"},
    {"q": "budget", "vault": ""},
]


def test_post_body_types_are_strict_while_query_strings_are_converted(live_server, vaults) -> None:
    server = live_server(vaults, auth_enabled=False)
    url = f"{server.url}/api/search/advanced"
    for body in STRICT_BODIES:
        r = httpx2.post(url, json=body)
        assert r.status_code == 400 and r.json()["code"] == "invalid_argument", (body, r.text)
    assert httpx2.post(url, json={"q": "budget", "limit": 1, "case_sensitive": False}).status_code == 200
    # query parameters are strings by nature: FastAPI converts them to the route's declared types first
    r = httpx2.get(url, params={"q": "budget", "limit": "1", "case_sensitive": "false"})
    assert r.status_code == 200 and len(r.json()["hits"]) == 1
    r = httpx2.get(f"{server.url}/api/search", params={"q": "budget", "limit": "5"})
    assert r.status_code == 200, r.text
    r = httpx2.get(f"{server.url}/api/vault/notes/files", params={"recursive": "false", "limit": "5"})
    assert r.status_code == 200, r.text
    r = httpx2.get(f"{server.url}/api/search", params={"q": "budget", "vault": ""})
    assert r.status_code == 400 and r.json()["code"] == "invalid_argument"


BAD = [
    ({"q": "(", "regex": "true"}, "invalid_regex"),
    ({"q": "(a{1000}){1000}", "regex": "true"}, "invalid_regex"),
    ({"q": "x", "include_paths": ["{a,b}" * 12]}, "invalid_glob"),
    ({"q": "x", "include_paths": ["*"] * 21}, "invalid_argument"),
    ({"q": "x", "modified_after": "2024-13-01"}, "invalid_argument"),
    ({"q": "x", "created_after": "2024-05-02", "created_before": "2024-05-01"}, "invalid_argument"),
    ({"q": "x", "size_min": "big"}, "invalid_argument"),
    ({"q": "x", "size_min": 10, "size_max": 1}, "invalid_argument"),
    ({"q": "x", "sort": "random"}, "invalid_argument"),
    ({"q": "x", "limit": "many"}, "invalid_argument"),
    ({"q": ""}, "invalid_argument"),
]


def test_errors_are_400_with_a_code(live_server, vaults) -> None:
    url = f"{live_server(vaults, auth_enabled=False).url}/api/search/advanced"
    for params, code in BAD:
        r = httpx2.get(url, params=params)
        assert r.status_code == 400, (params, r.text)
        assert r.json()["code"] == code and r.json()["message"] and "Traceback" not in r.text, params


def test_a_user_sees_only_their_vaults(live_server, vaults, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    users = UserStore(data / "users.sqlite3", password_hasher=Argon2Hasher(time_cost=1, memory_cost=8192))
    users.add_user("alice", "correct horse battery", vaults=["notes"])
    users.close()
    server = live_server(vaults, data_dir=data)
    login = httpx2.post(f"{server.url}/api/auth/login", json={"username": "alice", "password": "correct horse battery"})
    headers = {"Authorization": f"Bearer {login.json()['access_token']}"}
    url = f"{server.url}/api/search/advanced"
    assert httpx2.get(url, params={"q": "budget"}).status_code == 401
    body = httpx2.get(url, params={"q": "budget"}, headers=headers).json()
    assert body["total"] == 3 and {h["vault"] for h in body["hits"]} == {"notes"}
    assert httpx2.get(url, params={"q": "other vault", "regex": "true"}, headers=headers).json()["total"] == 0
    denied = httpx2.get(url, params={"q": "budget", "vault": "other"}, headers=headers)
    assert denied.status_code == 403 and denied.json()["code"] == "vault_access_denied"
