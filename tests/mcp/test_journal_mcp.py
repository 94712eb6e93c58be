"""The tool journal over MCP (the real app, the official SDK client): one ``call`` row per request, each in its
session and its own turn; an applied change is preceded by its ``intent`` row; the chain verifies; a change is
refused (and the vault untouched) while the journal cannot be written, a read is still answered."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from obsigate.domain.storage.tool_journal import JOURNAL_FILE
from obsigate.mcp.server import ERROR_META_KEY

pytestmark = pytest.mark.anyio


async def call(client: Client, name: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(name, args)
    assert result.is_error is False, result.content
    return result.structured_content


async def test_one_row_per_mcp_call_in_its_session_and_turn(gateway) -> None:
    journal = gateway.runtime.journal
    before = journal.count()
    async with gateway.client(gateway.tokens["alice"], "legacy") as client:
        await call(client, "list_vaults", {})
        await call(client, "read_file", {"vault": "notes", "path": "Home.md"})
        await client.read_resource("vault://notes/Home.md")
        proposal = await call(
            client, "propose_append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "- j\n"}
        )
        await call(client, "apply_append_to_file", {"confirmation_token": proposal["confirmation_token"]})
    rows = journal.tail(5)
    assert journal.count() - before == 5  # one call row per request, counted
    assert [r["tool"] for r in rows] == [
        "list_vaults", "read_file", "resources/read", "propose_append_to_file", "apply_append_to_file",
    ]  # fmt: skip
    assert {r["front"] for r in rows} == {"mcp"} and {r["user"] for r in rows} == {"alice"}
    session = rows[0]["conversation"]
    assert session and all(r["conversation"] == session for r in rows)
    turns = [r["turn"] for r in rows]
    assert all(t.startswith("rpc-") for t in turns) and len(set(turns)) == 5  # a turn per request
    assert rows[1]["result_digest"].startswith("hmac-sha256:") and rows[1]["result_size"] > 0
    intents = journal.search(kind="intent", tool="apply_append_to_file")
    assert [i["call_id"] for i in intents] == [rows[4]["call_id"]]  # written before the change, same call
    assert intents[0]["seq"] < rows[4]["seq"] and intents[0]["outcome"] == "started"
    assert journal.verify().ok


async def test_a_change_is_refused_while_the_journal_is_locked_and_a_read_goes_on(gateway, vaults) -> None:
    """A real lock: another connection holds the journal's write lock (as another process would), so the
    intent row cannot be written within the busy timeout: ``journal_unavailable``, nothing written."""
    journal = gateway.runtime.journal
    journal.set_busy_timeout(0.3)
    ideas = Path(vaults["notes"]) / "Ideas.md"
    before = ideas.read_bytes()
    holder = sqlite3.connect(journal.data_dir / JOURNAL_FILE, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    try:
        async with gateway.client(gateway.tokens["alice"], "legacy") as client:
            proposal = await client.call_tool(
                "propose_append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "- lost\n"}
            )
            assert proposal.is_error is False  # a proposal changes nothing: its row is logged when possible
            token = proposal.structured_content["confirmation_token"]
            refused = await client.call_tool("apply_append_to_file", {"confirmation_token": token})
            assert refused.is_error is True and refused.meta[ERROR_META_KEY]["code"] == "journal_unavailable"
            assert ideas.read_bytes() == before  # the vault is unchanged
            read = await call(client, "read_file", {"vault": "notes", "path": "Home.md"})
            assert "Welcome" in read["content"]  # a read is answered although its row could not be written
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert journal.verify().ok
    assert [r["tool"] for r in journal.search(tool="apply_append_to_file", outcome="ok")] == []
