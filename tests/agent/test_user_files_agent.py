"""The file space through the in-app assistant's door (issue 21 item 2): a model (the scripted fake provider over
HTTP) calls ``list_user_files`` and ``read_user_file``; alice's model reads her file, bob's model naming alice's
``file_id`` gets ``not_found`` and nothing of the file, and the steps carry the tools' labels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
from fakes import openai_replies as o

TEXT = "alice's marmalade recipe: oranges, sugar, patience\n"


def _users(data: Path) -> dict[str, dict[str, str]]:
    from pwdlib.hashers.argon2 import Argon2Hasher

    from obsigate.auth.tokens import TokenService
    from obsigate.auth.users import UserStore

    data.mkdir(parents=True, exist_ok=True)
    users = UserStore(data / "users.sqlite3", password_hasher=Argon2Hasher(time_cost=1, memory_cost=8192))
    tokens = TokenService(data / "jwt_secret")
    try:
        return {
            name: {"Authorization": f"Bearer {tokens.issue(users.add_user(name, None, vaults=['notes']))}"}
            for name in ("alice", "bob")
        }
    finally:
        users.close()


def _tool_messages(a: Any, request: int) -> list[dict[str, Any]]:
    return [json.loads(m["content"]) for m in a.fake.requests[request].json["messages"] if m["role"] == "tool"]


def test_the_agent_reads_its_owners_file_and_never_anothers(assistant: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    who = _users(data)
    a = assistant(auth_enabled=True, data_dir=data)
    up = httpx2.post(
        f"{a.url}/api/files", files={"file": ("recipe.txt", TEXT.encode(), "text/plain")}, headers=who["alice"]
    )
    assert up.status_code == 201, up.text
    file_id = up.json()["file_id"]

    a.fake.add(
        o.stream_tool_calls([("l1", "list_user_files", {})]),
        o.stream_tool_calls([("r1", "read_user_file", {"file_id": file_id})]),
        o.stream_text(["Oranges and sugar."]),
    )
    mine = a.agent({"message": "what is in my recipe?", "vault": "notes", "language": "en"}, headers=who["alice"])
    assert mine.status == 200, mine.raw
    assert {"list_user_files", "read_user_file"} <= set(a.sent_tool_names())
    listed = _tool_messages(a, 1)[0]
    assert [f["file_id"] for f in listed["files"]] == [file_id]
    read = _tool_messages(a, 2)[1]
    assert read["content"] == TEXT and read["mime_type"] == "text/plain"
    done = [t for t in mine.tools() if t["status"] != "running"]
    assert [(t["name"], t["status"], t["label"]) for t in done] == [
        ("list_user_files", "ok", "Your files listed"),
        ("read_user_file", "ok", "Your file read"),
    ]

    first = len(a.fake.requests)
    a.fake.add(
        o.stream_tool_calls([("r2", "read_user_file", {"file_id": file_id})]),
        o.stream_tool_calls([("l2", "list_user_files", {})]),
        o.stream_text(["Nothing there."]),
    )
    theirs = a.agent({"message": "read that file", "vault": "notes", "language": "fr"}, headers=who["bob"])
    assert theirs.status == 200, theirs.raw
    refused = _tool_messages(a, first + 1)[0]
    assert refused["error"]["code"] == "not_found"
    assert _tool_messages(a, first + 2)[1]["files"] == []
    sent = json.dumps([r.json for r in a.fake.requests[first:]])
    assert "marmalade" not in sent and "recipe.txt" not in sent
    steps = [t for t in theirs.tools() if t["status"] != "running"]
    assert [(t["name"], t["status"]) for t in steps] == [("read_user_file", "error"), ("list_user_files", "ok")]
    assert steps[0]["label"].startswith("Fichier personnel lu")
