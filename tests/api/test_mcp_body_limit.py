"""An MCP request over the body cap gets 413 with a JSON-RPC error an MCP client can show (issue 9)."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE

from obsigate.api.body_limit import MCP_MAX_BODY_BYTES

HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
EXPECTED = {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "too_large: request body over 4 MiB"}}


@pytest.fixture
def server(live_server, small_vault):
    return live_server({"notes": small_vault}, auth_enabled=False)


def _oversized() -> bytes:
    padding = "x" * (MCP_MAX_BODY_BYTES + 1024)
    return ('{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"pad": "' + padding + '"}}').encode()


def test_the_cap_is_the_sdk_one() -> None:
    assert MCP_MAX_BODY_BYTES == DEFAULT_MAX_REQUEST_BODY_SIZE


def test_declared_oversized_mcp_body_is_a_json_rpc_error(server) -> None:
    r = httpx2.post(f"{server.url}/mcp", content=_oversized(), headers=HEADERS)
    assert r.status_code == 413 and r.headers["content-type"] == "application/json"
    assert r.json() == EXPECTED


def test_streamed_oversized_mcp_body_is_a_json_rpc_error(server) -> None:
    """Without a Content-Length the SDK's transport cap fires; its plain-text answer is replaced."""
    body = _oversized()

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(body), 256 * 1024):
            yield body[start : start + 256 * 1024]

    r = httpx2.post(f"{server.url}/mcp", content=chunks(), headers=HEADERS)
    assert "content-length" not in r.request.headers
    assert r.status_code == 413 and r.json() == EXPECTED


def test_a_body_under_the_cap_still_reaches_mcp(server) -> None:
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "list_vaults", "arguments": {}, "_meta": meta},
    }
    headers = {**HEADERS, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "list_vaults"}
    r = httpx2.post(f"{server.url}/mcp", json=call, headers=headers)
    assert r.status_code == 200 and r.json()["id"] == 1


@pytest.mark.anyio
@pytest.mark.parametrize("anyio_backend", ["asyncio"])
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_the_sdk_client_shows_the_message(server, mode: str) -> None:
    """The official MCP client turns the refusal into an ``MCPError`` carrying our code and message."""
    from mcp import Client, MCPError
    from mcp.client.streamable_http import streamable_http_client

    async with (
        httpx2.AsyncClient(timeout=30) as http,
        Client(streamable_http_client(f"{server.url}/mcp", http_client=http), mode=mode) as client,
    ):
        with pytest.raises(MCPError) as info:
            await client.call_tool("search_fulltext", {"q": "x" * (MCP_MAX_BODY_BYTES + 1)})
    assert info.value.error.code == -32600
    assert info.value.error.message == "too_large: request body over 4 MiB"


def test_the_caps_follow_the_settings(live_server, small_vault) -> None:
    """``max_body_bytes`` (REST) and ``mcp_max_body_bytes`` (MCP, the SDK's own cap too), here 1 MiB each."""
    mib = 1024 * 1024
    server = live_server({"notes": small_vault}, auth_enabled=False, max_body_bytes=mib, mcp_max_body_bytes=mib)
    note = "x" * (mib - 1024)
    assert httpx2.post(f"{server.url}/api/file/notes", json={"path": "Under.md", "content": note}).status_code == 200
    over = httpx2.post(f"{server.url}/api/file/notes", json={"path": "Over.md", "content": note + "x" * 2048})
    assert over.status_code == 413 and over.json() == {
        "code": "too_large", "message": f"request body over {mib} bytes", "hint": "send a smaller body",
        "details": {"max_bytes": mib},
    }  # fmt: skip
    assert not (small_vault / "Over.md").exists()
    body = ('{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"pad": "' + "x" * (mib + 1024) + '"}}').encode()
    expected = {**EXPECTED, "error": {"code": -32600, "message": "too_large: request body over 1 MiB"}}
    declared = httpx2.post(f"{server.url}/mcp", content=body, headers=HEADERS)
    streamed = httpx2.post(f"{server.url}/mcp", content=iter([body[: mib // 2], body[mib // 2 :]]), headers=HEADERS)
    assert "content-length" not in streamed.request.headers  # only the SDK's transport cap can refuse it
    for r in (declared, streamed):
        assert r.status_code == 413 and r.json() == expected
