"""``ToolContext.session_id``: a 2025-era MCP session's id reaches the tool journal's row of every call in it
(the assistant puts its conversation id there the same way, and its run as the turn); a sessionless
2026-07-28 call has none."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.anyio


async def test_calls_carry_their_session(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "legacy") as client:
        await client.call_tool("list_vaults", {})
        await client.read_resource("vault://notes/Home.md")
    async with gateway.client(gateway.tokens["alice"], "auto") as client:
        await client.call_tool("list_vaults", {})
    legacy_call, legacy_read, modern_call = gateway.runtime.journal.tail(3)
    assert len(legacy_call["session"]) >= 16 and legacy_call["session"] == legacy_read["session"]
    assert (legacy_read["tool"], modern_call["session"]) == ("resources/read", None)
