"""The file space's tools through call_tool (the one door), on a real FileSpace: a long text read in pages that
lose nothing, a secret redacted, a binary answered by its metadata, the fronts' writes only as the person's
confirmed action, bad uploads refused before anything is stored, and no file space: tools not offered."""

from __future__ import annotations

import base64
import dataclasses
import json

import anyio
import pytest

from obsigate.auth.principal import Principal
from obsigate.tools.api import ServiceError, ToolContext, call_tool, visible_tools
from obsigate.tools.context import ToolRuntime

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
BOB = Principal(name="bob", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"


def run(ctx: ToolContext, name: str, args: dict, **kw) -> dict:
    return anyio.run(lambda: call_tool(ctx, name, args, **kw))


def refused(ctx: ToolContext, name: str, args: dict, **kw) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        run(ctx, name, args, **kw)
    return caught.value


def test_a_long_text_is_read_in_pages_that_lose_nothing(runtime: ToolRuntime) -> None:
    body = "".join(f"line {i} é and more words\n" for i in range(20_000)) + f'api_key = "{SECRET}"\n'
    rec = runtime.files.put("alice", body.encode(), name="long.txt", conversation="c1")
    runtime.workspace.limits = type(runtime.workspace.limits)(max_read_bytes=100_000, budget_chars=40_000)
    ctx, parts, offset = ToolContext(ALICE, runtime, mode="mcp"), [], 0
    while offset is not None:
        page = run(ctx, "read_user_file", {"file_id": rec.file_id, "offset": offset})
        assert len(json.dumps(page, ensure_ascii=False)) <= 40_000 and page["encoding"] == "utf-8"
        parts.append(page["content"])
        offset = page["next_offset"]
    text = "".join(parts)
    assert SECRET not in text and "[REDACTED" in text
    assert text.split("api_key")[0] == body.split("api_key")[0] and len(parts) > 3


def test_a_binary_is_answered_by_its_metadata(runtime: ToolRuntime) -> None:
    rec = runtime.files.put("alice", b"%PDF-1.4\n" + bytes(range(256)) * 4, name="a.pdf")
    out = run(ToolContext(ALICE, runtime, mode="in_app"), "read_user_file", {"file_id": rec.file_id})
    assert (out["mime_type"], out["encoding"], out["content"]) == ("application/pdf", "none", "")
    assert "application/pdf" in out["notice"]
    assert (
        refused(ToolContext(BOB, runtime, mode="in_app"), "read_user_file", {"file_id": rec.file_id}).code
        == "not_found"
    )


def test_the_fronts_writes_are_the_persons_confirmed_action(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, runtime, mode="rest")
    upload = {"name": "a.txt", "content": base64.b64encode(b"hello").decode()}
    assert refused(ctx, "upload_user_file", upload, front_call=True).code == "confirmation_required"
    for mode in ("mcp", "in_app"):  # never offered to a model
        assert refused(ToolContext(ALICE, runtime, mode=mode), "upload_user_file", upload).code == "unknown_tool"
    sure = dataclasses.replace(ctx, confirmed=True)
    rec = run(sure, "upload_user_file", upload, front_call=True)["file"]
    assert rec["origin"] == "upload" and rec["expires_at"] is None
    assert (
        refused(ctx, "delete_user_file", {"file_id": rec["file_id"]}, front_call=True).code == "confirmation_required"
    )
    assert (
        refused(ToolContext(ALICE, runtime, mode="mcp"), "delete_user_file", {"file_id": rec["file_id"]}).code
        == "unknown_tool"
    )
    assert (
        run(sure, "delete_user_file", {"file_id": rec["file_id"]}, front_call=True)["file"]["file_id"] == rec["file_id"]
    )
    assert runtime.files.list("alice") == ([], 0)


def test_bad_uploads_store_nothing(runtime: ToolRuntime) -> None:
    sure = ToolContext(ALICE, runtime, mode="rest", confirmed=True)
    bad = refused(sure, "upload_user_file", {"name": "a", "content": "not base64!"}, front_call=True)
    assert bad.code == "invalid_argument"
    runtime.files.max_bytes = 1024
    big = base64.b64encode(b"x" * 5000).decode()
    assert refused(sure, "upload_user_file", {"name": "a", "content": big}, front_call=True).code == "file_too_large"
    assert runtime.files.list("alice") == ([], 0)


def test_without_a_file_space_the_tools_are_not_offered(runtime: ToolRuntime) -> None:
    bare = dataclasses.replace(runtime, files=None)
    names = {t.name for t in visible_tools(ToolContext(ALICE, bare, mode="mcp"))}
    assert "list_vaults" in names and not names & {"list_user_files", "read_user_file"}
    assert (
        refused(ToolContext(ALICE, bare, mode="rest"), "user_file_info", {"file_id": "x"}, front_call=True).code
        == "unavailable"
    )
