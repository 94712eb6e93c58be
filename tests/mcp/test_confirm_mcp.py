"""Two-step confirmation over MCP: the real app, the official ``mcp.Client`` in both protocol eras, real
SQLite and real tokens; inline confirmation by elicitation (2026-07-28 multi-round-trip in process, 2025-11-25
server→client request over a real loopback socket).

The write tools are test-only (``write_note``, ``delete_note``), added to a copy of the real catalog.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from jsonschema import Draft202012Validator
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, ElicitResult, TextContent
from support import free_port, journal_text, uvicorn_thread

from obsigate.mcp.server import CONFIRM_INPUT_KEY, ERROR_META_KEY
from obsigate.services.changes import Change
from obsigate.services.errors import Conflict
from obsigate.tools.api import REGISTRY
from obsigate.tools.confirm.store import ConfirmationService
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Risk, ToolArgs, ToolOutput, ToolRegistry, tool

pytestmark = pytest.mark.anyio

MCP_URL = "http://127.0.0.1:8765/mcp"


# --- test-only write tools on top of the real catalog ------------------------------------------------


class WriteArgs(ToolArgs):
    vault: str
    path: str
    content: str


class WriteResult(ToolOutput):
    path: str
    bytes: int


class DeleteArgs(ToolArgs):
    vault: str
    path: str


class DeleteResult(ToolOutput):
    path: str


def _file(ctx: ToolContext, vault: str, path: str) -> tuple[Path, Path]:
    root = ctx.workspace.get_vault(vault, ctx.allowed_vaults).root
    return root, root / path


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else ""


def _check_reads(ctx: ToolContext, root: Path) -> None:
    for rel, digest in (ctx.expected_reads or {}).items():
        if _sha(root / rel) != digest:
            raise Conflict(f"{rel} changed since the proposal")


def plan_write(ctx: ToolContext, args: WriteArgs) -> Change:
    _, target = _file(ctx, args.vault, args.path)
    action = "modify" if target.exists() else "create"
    return Change(
        summary=f"{action} {args.path}",
        changes=[{"path": args.path, "action": action, "diff": f"+{args.content}"}],
        reads={args.path: _sha(target)},
    )


def plan_delete(ctx: ToolContext, args: DeleteArgs) -> Change:
    _, target = _file(ctx, args.vault, args.path)
    return Change(
        summary=f"delete {args.path}",
        changes=[{"path": args.path, "action": "delete", "diff": ""}],
        reads={args.path: _sha(target)},
    )


def with_write_tools() -> ToolRegistry:
    registry = ToolRegistry()
    for spec in REGISTRY.declared():
        registry.add(spec)

    @tool("write_note", title="Write a note", risk=Risk.WRITE, planner=plan_write, registry=registry)
    def write_note(ctx: ToolContext, args: WriteArgs) -> WriteResult:
        """Write `content` to the note at `path` (created if missing, replaced otherwise)."""
        root, target = _file(ctx, args.vault, args.path)
        _check_reads(ctx, root)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(args.content, encoding="utf-8")
        return WriteResult(path=args.path, bytes=len(args.content.encode()))

    @tool("delete_note", title="Delete a note", risk=Risk.DANGEROUS, planner=plan_delete, registry=registry)
    def delete_note(ctx: ToolContext, args: DeleteArgs) -> DeleteResult:
        """Delete the note at `path`."""
        root, target = _file(ctx, args.vault, args.path)
        _check_reads(ctx, root)
        target.unlink()
        return DeleteResult(path=args.path)

    return registry


# --- helpers -------------------------------------------------------------------------------------------


def error_code(result: CallToolResult) -> str:
    assert result.is_error is True and result.structured_content is None
    text = result.content[0]
    code = result.meta[ERROR_META_KEY]["code"]
    assert isinstance(text, TextContent) and text.text.startswith(f"{code}: ")
    return code


async def structured(client: Client, name: str, result: CallToolResult) -> dict[str, Any]:
    """``result``'s structuredContent, checked against the outputSchema ``tools/list`` gives for ``name``."""
    assert result.is_error is False, result.content
    listed = next(t for t in (await client.list_tools()).tools if t.name == name)
    Draft202012Validator(listed.output_schema).validate(result.structured_content)
    return result.structured_content


@pytest.fixture
def gw(gateway):
    """The ``gateway`` (alice: notes, bob: other, carol: none) plus dave (notes), with the write tools."""
    gateway.runtime.registry = with_write_tools()
    gateway.tokens["dave"] = gateway.auth.tokens.issue(gateway.auth.users.add_user("dave", None, vaults=["notes"]))
    return gateway


def answering(action: str, seen: list[Any]) -> Callable[..., Any]:
    """An elicitation callback that records the request and answers ``action``."""

    async def callback(context: Any, params: Any) -> ElicitResult:
        seen.append(params)
        return ElicitResult(action=action, content={} if action == "accept" else None)

    return callback


@asynccontextmanager
async def eliciting_client(
    url: str, bearer: str, mode: str, callback: Callable[..., Any], app: Any = None
) -> AsyncIterator[Client]:
    """An ``mcp.Client`` declaring elicitation; in process (``app``) or over a real socket."""
    transport = httpx2.ASGITransport(app=app) if app is not None else None
    kwargs: dict[str, Any] = {"transport": transport} if transport is not None else {}
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {bearer}"}, **kwargs) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode, elicitation_callback=callback) as client,
    ):
        yield client


PROPOSAL = {"vault": "notes", "path": "New.md", "content": "# New\n\nhello\n"}


# --- listing and the two steps ------------------------------------------------------------------------


async def test_tools_list_offers_the_pair_not_the_raw_tool(gw, era: str) -> None:
    async with gw.client(gw.tokens["alice"], era) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert "write_note" not in tools and "delete_note" not in tools
    assert {"read_file", "propose_write_note", "apply_write_note", "propose_delete_note", "apply_delete_note"} <= set(
        tools
    )
    names = list(tools)
    assert names.index("propose_write_note") + 1 == names.index("apply_write_note")
    propose, apply = tools["propose_write_note"], tools["apply_write_note"]
    assert propose.annotations.read_only_hint is True and propose.annotations.idempotent_hint is False
    assert apply.annotations.read_only_hint is False and apply.annotations.destructive_hint is False
    assert tools["apply_delete_note"].annotations.destructive_hint is True
    assert list(apply.input_schema["properties"]) == ["confirmation_token"]
    assert propose.input_schema["required"] == ["vault", "path", "content"]
    async with gw.client(gw.tokens["carol"], era) as client:  # no vault: nothing to propose or apply
        # (her own file space and her plans are no vault: their tools stay offered)
        assert {t.name for t in (await client.list_tools()).tools} == {
            "list_vaults",
            "list_user_files",
            "read_user_file",
            "update_plan",
            "get_plan",
        }


async def test_propose_then_apply_then_replay(gw, vaults: dict[str, Path], era: str) -> None:
    note = vaults["notes"] / "New.md"
    async with gw.client(gw.tokens["alice"], era) as client:
        proposed = await structured(
            client, "propose_write_note", await client.call_tool("propose_write_note", PROPOSAL)
        )
        assert not note.exists()
        assert proposed["status"] == "proposed" and proposed["summary"] == "create New.md"
        assert proposed["diffs"] == [{"path": "New.md", "action": "create", "diff": "+# New\n\nhello\n", "to": None}]
        token = proposed["confirmation_token"]
        assert token.count(".") == 2 and proposed["expires_in"] == 300
        applied = await client.call_tool("apply_write_note", {"confirmation_token": token})
        assert await structured(client, "apply_write_note", applied) == {
            "path": "New.md",
            "bytes": 13,
            "truncated": False,
            "notice": None,
        }
        assert note.read_text() == PROPOSAL["content"]
        note.write_text("changed by hand\n")
        assert error_code(await client.call_tool("apply_write_note", {"confirmation_token": token})) == "token_reused"
    assert note.read_text() == "changed by hand\n"
    records = [r for r in gw.runtime.journal.tail(10) if r["tool"].endswith("write_note")]
    assert [(r["tool"], r["result"], r["mode"]) for r in records[-3:]] == [
        ("propose_write_note", "ok", "mcp"),
        ("apply_write_note", "ok", "mcp"),
        ("apply_write_note", "token_reused", "mcp"),
    ]
    assert records[-2]["vault"] == "notes" and records[-2]["paths"] == ["New.md"]
    assert token not in journal_text(gw.runtime.journal.data_dir)


async def test_the_raw_write_tool_answers_confirmation_required(gw, vaults: dict[str, Path], era: str) -> None:
    async with gw.client(gw.tokens["alice"], era) as client:
        result = await client.call_tool("write_note", PROPOSAL)
        assert error_code(result) == "confirmation_required"
        assert "propose_write_note" in result.content[0].text
        with pytest.raises(MCPError):
            await client.call_tool("propose_nothing", {})
    assert not (vaults["notes"] / "New.md").exists()


async def test_another_users_token_and_a_foreign_vault(gw, vaults: dict[str, Path], era: str) -> None:
    async with gw.client(gw.tokens["alice"], era) as client:
        token = (await client.call_tool("propose_write_note", PROPOSAL)).structured_content["confirmation_token"]
    async with gw.client(gw.tokens["dave"], era) as client:
        assert error_code(await client.call_tool("apply_write_note", {"confirmation_token": token})) == "forbidden"
    async with gw.client(gw.tokens["bob"], era) as client:
        assert error_code(await client.call_tool("apply_write_note", {"confirmation_token": token})) == "forbidden"
        assert error_code(await client.call_tool("propose_write_note", PROPOSAL)) == "vault_access_denied"
    assert not (vaults["notes"] / "New.md").exists()


async def test_a_file_changed_since_the_proposal_is_a_conflict(gw, vaults: dict[str, Path], era: str) -> None:
    note = vaults["notes"] / "Ideas.md"
    async with gw.client(gw.tokens["alice"], era) as client:
        args = {"vault": "notes", "path": "Ideas.md", "content": "mine\n"}
        token = (await client.call_tool("propose_write_note", args)).structured_content["confirmation_token"]
        note.write_text("an edit in Obsidian meanwhile\n")
        assert error_code(await client.call_tool("apply_write_note", {"confirmation_token": token})) == "conflict"
    assert note.read_text() == "an edit in Obsidian meanwhile\n"


async def test_expired_and_tampered_tokens_are_invalid(gw, vaults: dict[str, Path], era: str, tmp_path: Path) -> None:
    real = gw.runtime.confirmations
    gw.runtime.confirmations = ConfirmationService.in_data_dir(tmp_path / "data", clock=lambda: time.time() - 3600)
    try:
        async with gw.client(gw.tokens["alice"], era) as client:
            old = (await client.call_tool("propose_write_note", PROPOSAL)).structured_content["confirmation_token"]
    finally:
        gw.runtime.confirmations = real
    async with gw.client(gw.tokens["alice"], era) as client:
        expired = await client.call_tool("apply_write_note", {"confirmation_token": old})
        assert error_code(expired) == "invalid_confirmation"
        assert expired.meta[ERROR_META_KEY]["details"] == {"reason": "expired"}
        token = (await client.call_tool("propose_write_note", PROPOSAL)).structured_content["confirmation_token"]
        head, body, sig = token.split(".")
        tampered = f"{head}.{body[:-2]}{'A' if body[-2] != 'A' else 'B'}{body[-1]}.{sig}"
        assert (
            error_code(await client.call_tool("apply_write_note", {"confirmation_token": tampered}))
            == "invalid_confirmation"
        )
        assert (
            error_code(await client.call_tool("apply_write_note", {"confirmation_token": gw.tokens["alice"]}))
            == "invalid_confirmation"
        )
        assert (
            error_code(await client.call_tool("apply_delete_note", {"confirmation_token": token}))
            == "invalid_confirmation"
        )
        assert error_code(await client.call_tool("apply_write_note", {"confirmation_token": 3})) == "invalid_argument"
        assert not (vaults["notes"] / "New.md").exists()
        assert (await client.call_tool("apply_write_note", {"confirmation_token": token})).is_error is False


async def test_the_destructive_switch_at_both_steps(gw, vaults: dict[str, Path], era: str) -> None:
    args = {"vault": "notes", "path": "Ideas.md"}
    async with gw.client(gw.tokens["alice"], era) as client:
        token = (await client.call_tool("propose_delete_note", args)).structured_content["confirmation_token"]
        gw.runtime.workspace.destructive = {"notes": False}
        assert (
            error_code(await client.call_tool("apply_delete_note", {"confirmation_token": token}))
            == "destructive_tools_disabled"
        )
        assert error_code(await client.call_tool("propose_delete_note", args)) == "destructive_tools_disabled"
        assert (await client.call_tool("propose_write_note", PROPOSAL)).is_error is False
    assert (vaults["notes"] / "Ideas.md").exists()


async def test_a_used_token_stays_used_after_a_restart(make_app, run_app, vaults: dict[str, Path]) -> None:
    def prepare(app: Any) -> str:
        app.state.runtime.registry = with_write_tools()
        users = app.state.auth.users
        user = users.get_user("alice") or users.add_user("alice", None, vaults=["notes"])
        return app.state.auth.tokens.issue(user)

    app = make_app(vaults)
    async with run_app(app):
        bearer = prepare(app)
        async with (
            httpx2.AsyncClient(
                transport=httpx2.ASGITransport(app=app), headers={"Authorization": f"Bearer {bearer}"}
            ) as http,
            Client(streamable_http_client(MCP_URL, http_client=http), mode="auto") as client,
        ):
            token = (await client.call_tool("propose_write_note", PROPOSAL)).structured_content["confirmation_token"]
            assert (await client.call_tool("apply_write_note", {"confirmation_token": token})).is_error is False
    (vaults["notes"] / "New.md").unlink()
    app = make_app(vaults)  # same data dir: a restarted server
    async with run_app(app):
        bearer = prepare(app)
        async with (
            httpx2.AsyncClient(
                transport=httpx2.ASGITransport(app=app), headers={"Authorization": f"Bearer {bearer}"}
            ) as http,
            Client(streamable_http_client(MCP_URL, http_client=http), mode="legacy") as client,
        ):
            assert (
                error_code(await client.call_tool("apply_write_note", {"confirmation_token": token})) == "token_reused"
            )
    assert not (vaults["notes"] / "New.md").exists()


# --- inline confirmation (elicitation) --------------------------------------------------------------------


async def test_inline_confirmation_2026(gw, vaults: dict[str, Path]) -> None:
    """2026-07-28: ``propose_`` answers ``input_required`` with the elicitation; the client retries with the
    answer and the sealed state (``mcp.Client`` drives the rounds)."""
    note = vaults["notes"] / "New.md"
    seen: list[Any] = []
    async with eliciting_client(MCP_URL, gw.tokens["alice"], "auto", answering("accept", seen), app=gw.app) as client:
        assert client.protocol_version == "2026-07-28"
        out = await structured(client, "propose_write_note", await client.call_tool("propose_write_note", PROPOSAL))
    assert out["status"] == "applied" and out["confirmation_token"] is None
    assert out["result"] == {"path": "New.md", "bytes": 13, "truncated": False, "notice": None}
    assert note.read_text() == PROPOSAL["content"]
    assert len(seen) == 1 and "create New.md" in seen[0].message and "+# New" in seen[0].message
    assert seen[0].requested_schema == {"type": "object", "properties": {}}
    tools = [r["tool"] for r in gw.runtime.journal.tail(5)]
    assert tools[-2:] == ["propose_write_note", "apply_write_note"]

    seen.clear()
    async with eliciting_client(MCP_URL, gw.tokens["alice"], "auto", answering("decline", seen), app=gw.app) as client:
        out = await structured(
            client,
            "propose_write_note",
            await client.call_tool("propose_delete_note", {"vault": "notes", "path": "New.md"}),
        )
    assert out["status"] == "declined" and out["confirmation_token"] is None and out["summary"] == "delete New.md"
    assert note.exists() and len(seen) == 1
    assert gw.runtime.journal.tail(1)[0]["tool"] == "decline_delete_note"

    async with eliciting_client(MCP_URL, gw.tokens["alice"], "auto", answering("cancel", seen), app=gw.app) as client:
        out = (await client.call_tool("propose_delete_note", {"vault": "notes", "path": "New.md"})).structured_content
        assert out["status"] == "proposed" and note.exists()
        done = await client.call_tool("apply_delete_note", {"confirmation_token": out["confirmation_token"]})
        assert done.is_error is False and not note.exists()


async def test_inline_confirmation_state_is_sealed(gw, vaults: dict[str, Path]) -> None:
    """The 2026 ``requestState`` is opaque to the client (no token in it) and refused when altered or
    replayed by another user."""
    seen: list[Any] = []
    accept = {CONFIRM_INPUT_KEY: ElicitResult(action="accept", content={})}
    async with eliciting_client(MCP_URL, gw.tokens["alice"], "auto", answering("accept", seen), app=gw.app) as client:
        first = await client.session.call_tool("propose_write_note", PROPOSAL, allow_input_required=True)
        assert first.result_type == "input_required" and set(first.input_requests) == {CONFIRM_INPUT_KEY}
        state = first.request_state
        assert "eyJ" not in state and "hello" not in state and "New.md" not in state
        tampered = state[:-4] + ("AAAA" if not state.endswith("AAAA") else "BBBB")
        with pytest.raises(MCPError) as info:
            await client.session.call_tool(
                "propose_write_note", PROPOSAL, input_responses=accept, request_state=tampered
            )
        assert "requestState" in str(info.value)
        with pytest.raises(MCPError):  # the state is bound to the arguments it was minted for
            await client.session.call_tool(
                "propose_write_note", {**PROPOSAL, "content": "other"}, input_responses=accept, request_state=state
            )
    async with eliciting_client(MCP_URL, gw.tokens["dave"], "auto", answering("accept", seen), app=gw.app) as client:
        with pytest.raises(MCPError):  # and to the caller
            await client.session.call_tool("propose_write_note", PROPOSAL, input_responses=accept, request_state=state)
    assert not (vaults["notes"] / "New.md").exists()
    async with eliciting_client(MCP_URL, gw.tokens["alice"], "auto", answering("accept", seen), app=gw.app) as client:
        done = await client.session.call_tool(
            "propose_write_note", PROPOSAL, input_responses=accept, request_state=state
        )
        assert done.structured_content["status"] == "applied"
    assert (vaults["notes"] / "New.md").read_text() == PROPOSAL["content"]


@pytest.fixture
def live(make_app, vaults: dict[str, Path]) -> Iterator[tuple[str, str, Any]]:
    """The app under a real uvicorn on 127.0.0.1 with the write tools; (mcp url, alice's token, app)."""
    port = free_port()
    app = make_app(vaults, port=port)
    app.state.runtime.registry = with_write_tools()
    token = app.state.auth.tokens.issue(app.state.auth.users.add_user("alice", None, vaults=["notes"]))
    with uvicorn_thread(app, port):
        yield f"http://127.0.0.1:{port}/mcp", token, app


async def test_inline_confirmation_2025_over_a_real_socket(live, vaults: dict[str, Path]) -> None:
    """2025-11-25: an ``elicitation/create`` request on the call's SSE stream, answered by the client."""
    url, bearer, app = live
    note = vaults["notes"] / "New.md"
    seen: list[Any] = []
    async with eliciting_client(url, bearer, "legacy", answering("accept", seen)) as client:
        assert client.protocol_version == "2025-11-25"
        out = await structured(client, "propose_write_note", await client.call_tool("propose_write_note", PROPOSAL))
        assert out["status"] == "applied" and note.read_text() == PROPOSAL["content"]
        assert len(seen) == 1 and "create New.md" in seen[0].message
    async with eliciting_client(url, bearer, "legacy", answering("decline", seen)) as client:
        out = (await client.call_tool("propose_write_note", {**PROPOSAL, "content": "no\n"})).structured_content
        assert out["status"] == "declined" and out["confirmation_token"] is None
    assert note.read_text() == PROPOSAL["content"]
    async with eliciting_client(url, bearer, "legacy", answering("cancel", seen)) as client:
        out = (await client.call_tool("propose_write_note", {**PROPOSAL, "content": "later\n"})).structured_content
        assert out["status"] == "proposed" and out["confirmation_token"]
        assert (
            await client.call_tool("apply_write_note", {"confirmation_token": out["confirmation_token"]})
        ).is_error is False
    assert note.read_text() == "later\n"
    tools = [r["tool"] for r in app.state.runtime.journal.tail(3)]
    assert tools == ["decline_write_note", "propose_write_note", "apply_write_note"]
