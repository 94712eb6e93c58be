"""The two error shapes, pinned: REST answers ``{"code", "message", ["hint"], ["details"]}`` with the
catalogue's status; an MCP tool failure is ``isError`` with ``"<code>: <message>"`` text and the same object
in ``_meta["obsigate/error"]``; resources and prompts answer JSON-RPC ``-32602`` with ``data.code``."""

from __future__ import annotations

import pytest
from mcp import MCPError

from obsigate.mcp.server import ERROR_META_KEY
from obsigate.services.errors import CATALOGUE

pytestmark = pytest.mark.anyio


async def test_rest_error_shape(gateway) -> None:
    async with gateway.http(gateway.tokens["alice"]) as http:
        denied = await http.get("/api/file/other", params={"path": "Private.md"})
        outside = await http.get("/api/file/notes", params={"path": "../etc/passwd"})
        bad = await http.get("/api/search", params={"q": "x", "limit": "many"})
    assert denied.status_code == CATALOGUE["vault_access_denied"].http_status == 403
    assert set(denied.json()) <= {"code", "message", "hint", "details"}
    assert denied.json()["code"] == "vault_access_denied" and denied.json()["message"]
    assert (outside.status_code, outside.json()["code"]) == (400, "path_outside_vault")
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid_argument") and bad.json()["details"]["errors"]


async def test_mcp_error_shapes(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "auto") as client:
        result = await client.call_tool("read_file", {"vault": "other", "path": "Private.md"})
        with pytest.raises(MCPError) as resource:
            await client.read_resource("vault://other/Private.md")
        with pytest.raises(MCPError) as prompt:
            await client.get_prompt("find-related", {"vault": "notes", "path": "../x.md"})
    assert result.is_error and result.structured_content is None
    meta = result.meta[ERROR_META_KEY]
    assert set(meta) <= {"code", "message", "hint", "details"} and meta["code"] == "vault_access_denied"
    assert result.content[0].text.startswith(f"vault_access_denied: {meta['message']}")
    assert resource.value.error.code == -32602 and resource.value.error.data["code"] == "vault_access_denied"
    assert prompt.value.error.code == -32602 and prompt.value.error.data["code"] == "path_outside_vault"


async def test_resource_reads_and_prompts_spend_the_call_budget(gateway) -> None:
    """Resource reads and prompts go through the one door: rate-limited with tool calls, with ``retry_after``."""
    from obsigate.tools.ratelimit import ToolRateLimiter

    gateway.runtime.limiter = ToolRateLimiter(2, 60)
    async with gateway.client(gateway.tokens["alice"], "auto") as client:
        await client.read_resource("vault://notes/Home.md")
        await client.get_prompt("summarize-directory", {"vault": "notes"})
        with pytest.raises(MCPError) as refused:
            await client.read_resource("vault://notes/Home.md")
        limited = await client.call_tool("list_vaults", {})
    data = refused.value.error.data
    assert refused.value.error.code == -32602 and data["code"] == "rate_limited" and data["retry_after"] >= 1
    assert limited.is_error and limited.meta[ERROR_META_KEY]["code"] == "rate_limited"
