"""POST /api/ai/bookslm/context over a real server on loopback with auth on: what the assistant would send,
without contents unless asked, the caller's grants, the path guard, strict input (400, never 500), one audit
record and one rate-limit hit per collection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
import pytest
from support import alice_token, journal_records, write_tree


@pytest.fixture
def server(live_server, small_vault: Path, tmp_path: Path) -> Any:
    other = write_tree(tmp_path / "other", {"Private.md": "# Private\n\nmarmalade\n"})
    data = tmp_path / "data"
    token = alice_token(data)
    srv = live_server({"notes": small_vault, "other": other}, data_dir=data)
    srv.auth = {"Authorization": f"Bearer {token}"}
    srv.endpoint = f"{srv.url}/api/ai/bookslm/context"
    return srv


def post(server: Any, body: Any, **kw: Any) -> httpx2.Response:
    return httpx2.post(server.endpoint, json=body, headers=kw.pop("headers", server.auth), **kw)


def test_the_context_without_contents_by_default(server: Any) -> None:
    assert httpx2.post(server.endpoint, json={"mode": "general"}).status_code == 401
    r = post(server, {"mode": "directory", "vault": "notes", "directory": "Projects", "extra_files": ["Home.md"]})
    assert r.status_code == 200, r.text
    data = r.json()
    assert [f["path"] for f in data["files"]] == ["Home.md", "Projects/Plan.md", "Projects/Secret.md"]
    assert all(set(f) == {"path", "chars", "full_chars", "truncated"} for f in data["files"])
    assert data["tree"] == "Projects/\n  Plan.md\n  Secret.md" and data["total_chars"] == sum(
        f["chars"] for f in data["files"]
    )
    assert data["limits"] == {"max_files": 200, "max_total_chars": 200_000, "max_file_chars": 30_000}
    assert data["truncated"] is False and data["skipped"] == [] and data["mode"] == "directory"


def test_contents_on_request_redacted_and_never_hidden_files(server: Any) -> None:
    data = post(server, {"mode": "directory", "vault": "notes", "include_content": True}).json()
    text = json.dumps(data)
    assert "[REDACTED:openai-api-key]" in text and "sk-proj-" not in text
    assert ".obsidian" not in text and ".trash" not in text and "Old tidepool" not in text
    assert {"path": "Attachments/pic.png", "reason": "not_text"} in data["skipped"]
    assert next(f for f in data["files"] if f["path"] == "Ideas.md")["content"].startswith("# Ideas\n")


def test_general_mode_lists_the_callers_vaults(server: Any) -> None:
    data = post(server, {"mode": "general"}).json()
    assert data["vaults"] == ["notes"] and data["files"] == [] and "other" not in json.dumps(data)


def test_refusals_carry_stable_codes(server: Any) -> None:
    denied = post(server, {"mode": "files", "vault": "other", "files": ["Private.md"], "include_content": True})
    assert (
        denied.status_code == 403 and denied.json()["code"] == "vault_access_denied" and "marmalade" not in denied.text
    )
    for body in ({"mode": "files", "vault": "notes", "files": ["../other/Private.md"]},
                 {"mode": "general", "vault": "notes", "extra_files": [".obsidian/app.json"]}):  # fmt: skip
        r = post(server, body)
        assert r.status_code == 400 and r.json()["code"] == "path_outside_vault", body
    missing = post(server, {"mode": "directory", "vault": "notes", "directory": "Nowhere"})
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "chat", "vault": "notes"},
        {"mode": "files", "vault": "notes"},
        {"mode": "general", "vault": "notes", "extra_files": [f"n{i}.md" for i in range(10_000)]},
        {"mode": "directory", "vault": "notes", "shape": "round"},
        {"mode": "directory", "vault": "notes", "include_content": "yes"},
        {"mode": "files", "vault": "notes", "files": "Home.md"},
        {},
        ["mode", "general"],
        "general",
    ],
    ids=[
        "unknown-mode",
        "files-without-files",
        "10k-extra-files",
        "unknown-field",
        "include-content-text",
        "files-not-a-list",
        "empty",
        "a-list",
        "a-string",
    ],
)
def test_bad_input_is_400_invalid_argument(server: Any, body: Any) -> None:
    r = post(server, body)
    assert r.status_code == 400 and r.json()["code"] == "invalid_argument", r.text


def test_one_audit_record_and_one_rate_limit_hit_per_collection(live_server, small_vault: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    token = alice_token(data)
    srv = live_server(
        {"notes": small_vault}, data_dir=data, tool_rate_limit=2, agent_rate_limit=2
    )  # in_app: the agent budget
    url, auth = f"{srv.url}/api/ai/bookslm/context", {"Authorization": f"Bearer {token}"}
    body = {"mode": "directory", "vault": "notes"}  # four files read: still one call
    assert [httpx2.post(url, json=body, headers=auth).status_code for _ in range(3)] == [200, 200, 429]
    records = journal_records(data)
    mine = [r for r in records if r.get("tool") == "bookslm_context"]
    assert [r["result"] for r in mine] == ["ok", "ok", "rate_limited"]
    assert {(r["action"], r["mode"], r["user"], r["vault"]) for r in mine} == {
        ("ai_context", "in_app", "alice", "notes")
    }
    assert len(mine[0]["paths"]) == 4
