"""MCP over real HTTP against the real app (``create_app``), driven by the official ``mcp.Client`` in both
protocol eras: 2025-11-25 (``legacy``: initialize + ``Mcp-Session-Id``) and 2026-07-28 (sessionless)."""

from __future__ import annotations

import base64
import json
import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from catalogue import MCP_TOOLS, OWN_SPACE
from jsonschema import Draft202012Validator
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp_types import INVALID_PARAMS, CallToolResult, TextContent
from support import free_port, uvicorn_thread, write_tree

from obsigate.auth.tokens import TokenService
from obsigate.mcp.server import ERROR_META_KEY

pytestmark = pytest.mark.anyio

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
PROTOCOL = {"legacy": "2025-11-25", "auto": "2026-07-28", "2026-07-28": "2026-07-28"}
BASE = "http://127.0.0.1:8765"  # what the ``gateway`` fixtures' ASGITransport clients use
MCP_URL = f"{BASE}/mcp"


def error_code(result: CallToolResult) -> str:
    """The ObsiGate code of a failed call, checked in both places it is carried."""
    assert result.is_error is True
    assert result.structured_content is None  # an error never pretends to match the outputSchema
    text = result.content[0]
    assert isinstance(text, TextContent)
    code = result.meta[ERROR_META_KEY]["code"]
    assert text.text.startswith(f"{code}: ")
    return code


def all_text(result: Any) -> str:
    return json.dumps(result.model_dump(mode="json", by_alias=True))


async def check_structured(client: Client, name: str, result: CallToolResult) -> dict[str, Any]:
    """Assert ``result`` succeeded, its structuredContent validates against the listed outputSchema and the
    text block is the same JSON; return the structured content."""
    assert result.is_error is False, result.content
    tool = next(t for t in (await client.list_tools()).tools if t.name == name)
    Draft202012Validator(tool.output_schema).validate(result.structured_content)
    text = result.content[0]
    assert isinstance(text, TextContent) and json.loads(text.text) == result.structured_content
    return result.structured_content


# --- discovery -------------------------------------------------------------------------------------


async def test_tools_list_both_eras(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        assert client.protocol_version == PROTOCOL[era]
        tools = (await client.list_tools()).tools
    assert {t.name for t in tools} == MCP_TOOLS
    for tool in tools:
        assert tool.annotations is not None and tool.annotations.open_world_hint is False
        if tool.name.startswith("apply_"):  # the only tools that change anything, and they say so
            dangerous = tool.name.removeprefix("apply_").startswith(("rename_", "move_", "replace_", "delete_"))
            assert tool.annotations.read_only_hint is False and tool.annotations.destructive_hint is dangerous
        else:  # an own_space tool (update_plan) writes only the caller's own space, and says it is not read-only
            assert tool.annotations.read_only_hint is (tool.name not in OWN_SPACE)
            assert tool.annotations.destructive_hint is False
        assert tool.output_schema is not None and tool.output_schema.get("type") == "object"
        assert tool.input_schema["type"] == "object" and tool.input_schema.get("additionalProperties") is False
        assert tool.title and tool.description


async def test_tools_list_order_is_deterministic(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "2026-07-28") as client:
        first = [t.name for t in (await client.list_tools()).tools]
        second = [t.name for t in (await client.list_tools(cache_mode="refresh")).tools]
    assert first == second == [s.name for s in gateway.runtime.registry if s.name in MCP_TOOLS]


async def test_user_without_vaults_sees_only_the_tools_without_a_vault(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["carol"], era) as client:
        # the tools that take no vault: list_vaults, her own file space and the plan of her own space
        assert [t.name for t in (await client.list_tools()).tools] == [
            "list_vaults",
            "list_user_files",
            "read_user_file",
            "update_plan",
            "get_plan",
        ]
        result = await client.call_tool("list_vaults", {})
        assert (await check_structured(client, "list_vaults", result))["vaults"] == []
        assert (await client.list_resources()).resources == []


async def test_server_identity_and_capabilities(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        listed = await client.list_tools()
        if era == "legacy":  # InitializeResult.serverInfo
            assert client.server_info is not None and client.server_info.name == "obsigate"
        else:  # 2026-07-28: every result is stamped with _meta serverInfo
            assert listed.meta["io.modelcontextprotocol/serverInfo"]["name"] == "obsigate"
        caps = client.server_capabilities
        assert caps.tools is not None and caps.resources is not None
        assert caps.prompts is not None and caps.completions is not None
        assert "list_vaults" in (client.instructions or "")


# --- tools -----------------------------------------------------------------------------------------


async def test_search_fulltext_finds_the_note(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        result = await client.call_tool("search_fulltext", {"q": "budget"})
        data = await check_structured(client, "search_fulltext", result)
    assert data["index"] == {"state": "ready", "complete": True}
    assert data["hits"][0]["vault"] == "notes" and data["hits"][0]["path"] == "Projects/Plan.md"
    assert "<mark>" in data["hits"][0]["snippet"]


async def test_read_file_content_tags_links(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        home_call = await client.call_tool("read_file", {"vault": "notes", "path": "Home.md"})
        home = await check_structured(client, "read_file", home_call)
        secret_call = await client.call_tool("read_file", {"vault": "notes", "path": "Projects/Secret.md"})
        secret = await check_structured(client, "read_file", secret_call)
    assert home["content"].startswith("# Home") and "Welcome." in home["content"]
    assert set(home["tags"]) == {"home", "dashboard"}
    assert [link["target"] for link in home["links"]] == ["Projects/Plan", "Ideas"]
    assert home["frontmatter"]["aliases"] == ["Start"]
    assert SECRET not in json.dumps(secret) and "[REDACTED:" in secret["content"]


async def test_api_key_works_as_bearer(gateway, era: str) -> None:
    async with gateway.client(gateway.api_keys["alice"], era) as client:
        data = await check_structured(client, "list_vaults", await client.call_tool("list_vaults", {}))
    assert [v["name"] for v in data["vaults"]] == ["notes"]


async def test_other_vault_is_denied_and_never_leaks(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        read = await client.call_tool("read_file", {"vault": "other", "path": "Private.md"})
        raw = await client.call_tool("read_file_raw", {"vault": "other", "path": "Private.md"})
        scoped = await client.call_tool("search_fulltext", {"q": "marmalade", "vault": "other"})
        unscoped = await client.call_tool("search_fulltext", {"q": "marmalade"})
        listed = await client.call_tool("list_directory", {"vault": "other"})
        ghost = await client.call_tool("read_file", {"vault": "no-such-vault", "path": "x.md"})
    for result in (read, raw, scoped, listed, ghost):
        assert error_code(result) == "vault_access_denied"
        assert "marmalade" not in all_text(result)
    assert unscoped.structured_content["hits"] == []


async def test_grant_change_applies_inside_an_open_legacy_session(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "legacy") as client:
        assert (await client.call_tool("list_vaults", {})).structured_content["vaults"][0]["name"] == "notes"
        gateway.auth.users.set_vaults("alice", ["other"])
        denied = await client.call_tool("read_file", {"vault": "notes", "path": "Home.md"})
        assert error_code(denied) == "vault_access_denied"
        allowed = await client.call_tool("read_file", {"vault": "other", "path": "Private.md"})
        assert "marmalade" in allowed.structured_content["content"]


@pytest.mark.parametrize(
    "path", ["../x", "..%2Fx", "/etc/passwd", "a/../../x", ".obsidian/app.json", "Home.md\x00.png", "..\\Home.md"]
)
async def test_traversal_is_refused(gateway, path: str) -> None:
    async with gateway.client(gateway.tokens["alice"], "2026-07-28") as client:
        for tool in ("read_file", "read_file_raw"):
            result = await client.call_tool(tool, {"vault": "notes", "path": path})
            assert error_code(result) == "path_outside_vault", (tool, path)
            text = all_text(result)
            assert "config" not in text and "root:" not in text and "Welcome" not in text


@pytest.mark.parametrize(
    "args",
    [
        {"vault": "notes"},  # missing path
        {"vault": "notes", "path": 123},  # wrong type
        {"vault": "notes", "path": "Home.md", "extra": True},  # unknown field
        {"vault": "notes", "path": "Home.md", "offset": -1},  # out of range
    ],
)
async def test_invalid_arguments_are_tool_errors(gateway, era: str, args: dict[str, Any]) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        result = await client.call_tool("read_file", args)
    assert error_code(result) == "invalid_argument"
    assert result.meta[ERROR_META_KEY]["details"]["errors"]


async def test_invalid_cursor_is_a_protocol_error(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        for call in (client.list_tools, client.list_resources, client.list_resource_templates):
            with pytest.raises(MCPError) as info:
                await call(cursor="bogus", cache_mode="bypass")
            assert info.value.error.code == INVALID_PARAMS


async def test_unknown_tool_is_a_protocol_error(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        with pytest.raises(MCPError) as info:
            await client.session.call_tool("delete_everything", {})
    assert info.value.error.code == INVALID_PARAMS
    assert "delete_everything" in info.value.error.message


async def test_the_in_app_web_tools_are_not_callable_over_mcp(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "2026-07-28") as client:
        for name, args in (("fetch_url", {"url": "http://127.0.0.1/"}), ("web_search", {"query": "x"})):
            with pytest.raises(MCPError) as info:
                await client.session.call_tool(name, args)
            assert info.value.error.code == INVALID_PARAMS and name in info.value.error.message


# --- resources -------------------------------------------------------------------------------------


async def test_resources_list_and_read(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        listed = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        vault = (await client.read_resource("vault://notes")).contents[0]
        note = (await client.read_resource("vault://notes/Projects/Secret.md")).contents[0]
        nested = (await client.read_resource("vault://notes/Projects/Plan.md")).contents[0]
        png = (await client.read_resource("vault://notes/Attachments/pic.png")).contents[0]
    assert [(r.uri, r.name, r.mime_type) for r in listed] == [("vault://notes", "notes", "application/json")]
    assert [t.uri_template for t in templates] == ["vault://{name}/{+path}", "obsigate://files/{file_id}"]
    assert json.loads(vault.text) == {"name": "notes", "notes": 4, "read_only": False}
    assert note.mime_type == "text/markdown" and SECRET not in note.text and "[REDACTED:" in note.text
    assert nested.text.startswith("---\nstatus: active")
    assert png.mime_type == "image/png" and base64.b64decode(png.blob).startswith(b"\x89PNG")


@pytest.mark.parametrize(
    ("uri", "code"),
    [
        ("vault://other", "vault_access_denied"),
        ("vault://other/Private.md", "vault_access_denied"),
        ("vault://notes/..%2F..%2Fother%2FPrivate.md", "path_outside_vault"),
        ("vault://notes/.obsidian/app.json", "path_outside_vault"),
        ("vault://notes/Projects/..%2F..%2F..%2Fetc%2Fpasswd", "path_outside_vault"),
        ("vault://notes/Missing.md", "not_found"),
        ("file:///etc/passwd", "not_found"),
    ],
)
async def test_resource_refusals(gateway, era: str, uri: str, code: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        with pytest.raises(MCPError) as info:
            await client.read_resource(uri)
    error = info.value.error
    assert error.data["code"] == code and code in error.message
    assert "marmalade" not in error.message and "config" not in error.message
    if code == "not_found":  # MCP 2026-07-28: -32602; 2025-11-25: -32002
        assert error.code == (-32002 if era == "legacy" else INVALID_PARAMS)
    else:
        assert error.code == INVALID_PARAMS


# --- HTTP layer: auth, Origin, Host ----------------------------------------------------------------

INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


async def test_no_token_is_401_with_resource_metadata(gateway) -> None:
    async with gateway.http() as http:
        response = await http.post("/mcp", json=INIT, headers=ACCEPT)
        assert response.status_code == 401
        challenge = response.headers["www-authenticate"]
        assert challenge.startswith("Bearer ") and 'error="invalid_token"' in challenge
        prm_url = f"{BASE}/.well-known/oauth-protected-resource/mcp"
        assert f'resource_metadata="{prm_url}"' in challenge
        prm = (await http.get(prm_url)).json()
    assert prm["resource"] == MCP_URL and prm["scopes_supported"] == ["vault"]
    assert prm["bearer_methods_supported"] == ["header"]


@pytest.mark.parametrize("kind", ["garbage", "wrong_audience", "tampered"])
async def test_bad_credentials_are_401(gateway, tmp_path: Path, kind: str) -> None:
    if kind == "garbage":
        bearer = "not-a-token"
    elif kind == "wrong_audience":  # signed with the right key, issued for another audience
        other = TokenService(tmp_path / "data" / "jwt_secret", audience="something-else")
        bearer = other.issue(gateway.auth.users.get_user("alice"))
    else:
        bearer = gateway.tokens["alice"][:-4] + "AAAA"
    async with gateway.http(bearer) as http:
        response = await http.post("/mcp", json=INIT, headers=ACCEPT)
    assert response.status_code == 401 and "resource_metadata=" in response.headers["www-authenticate"]


async def test_client_without_token_fails(gateway, era: str) -> None:
    with pytest.raises(ExceptionGroup) as info:  # the SDK client reports the HTTP 401 as an MCPError
        async with gateway.client(None, era) as client:
            await client.list_tools()
    assert info.group_contains(MCPError, depth=None)


async def test_bad_origin_is_403_and_good_origins_pass(gateway) -> None:
    async with gateway.http(gateway.tokens["alice"]) as http:
        evil = await http.post("/mcp", json=INIT, headers={**ACCEPT, "Origin": "http://evil.example"})
        assert evil.status_code == 403
        for origin in ("http://localhost:3000", BASE):
            ok = await http.post("/mcp", json=INIT, headers={**ACCEPT, "Origin": origin})
            assert ok.status_code == 200, origin


async def test_unknown_host_is_rejected(gateway) -> None:
    async with gateway.http(gateway.tokens["alice"], headers={"Host": "evil.example"}) as http:
        response = await http.post("/mcp", json=INIT, headers=ACCEPT)
    assert response.status_code == 421


async def test_public_url_and_extra_hosts_and_origins(make_app, run_app, vaults: dict[str, Path]) -> None:
    app = make_app(
        vaults,
        public_url="https://notes.example.org",
        allowed_hosts=["gateway.lan:*"],
        allowed_origins=["https://app.example.net"],
    )
    user = app.state.auth.users.add_user("alice", None, vaults=["notes"])
    auth = {**ACCEPT, "Authorization": f"Bearer {app.state.auth.tokens.issue(user)}"}
    async with run_app(app):

        async def post(host: str, origin: str | None = None) -> httpx2.Response:
            headers = {**auth, "Host": host, **({"Origin": origin} if origin else {})}
            async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http:
                return await http.post("/mcp", json=INIT, headers=headers)

        assert (await post("notes.example.org")).status_code == 200
        assert (await post("notes.example.org", "https://notes.example.org")).status_code == 200
        assert (await post("gateway.lan:8443", "https://app.example.net")).status_code == 200
        assert (await post("127.0.0.1:9999", "http://localhost:5173")).status_code == 200
        assert (await post("notes.example.org", "http://notes.example.org")).status_code == 403  # scheme differs
        assert (await post("gateway.example")).status_code == 421
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http:
            unauthenticated = await http.post("/mcp", json=INIT, headers={**ACCEPT, "Host": "notes.example.org"})
            prm = (await http.get("/.well-known/oauth-protected-resource/mcp")).json()
    challenge = unauthenticated.headers["www-authenticate"]
    assert 'resource_metadata="https://notes.example.org/.well-known/oauth-protected-resource/mcp"' in challenge
    assert prm["resource"] == "https://notes.example.org/mcp"
    assert prm["authorization_servers"] == ["https://notes.example.org"]


async def test_legacy_session_is_bound_to_its_user(gateway) -> None:
    async with gateway.http(gateway.tokens["alice"]) as http:
        opened = await http.post("/mcp", json=INIT, headers=ACCEPT)
        session = opened.headers["mcp-session-id"]
    ping = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    headers = {**ACCEPT, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
    async with gateway.http(gateway.tokens["bob"]) as http:
        assert (await http.post("/mcp", json=ping, headers=headers)).status_code == 404


async def test_credentials_never_reach_the_logs(gateway, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    bad = "og_" + "Z" * 49
    async with gateway.http(bad) as http:
        assert (await http.post("/mcp", json=INIT, headers=ACCEPT)).status_code == 401
    async with gateway.client(gateway.tokens["alice"], "legacy") as client:
        await client.call_tool("read_file", {"vault": "other", "path": "Private.md"})
    assert caplog.records  # the SDK and the verifier did log
    assert bad not in caplog.text and gateway.tokens["alice"] not in caplog.text
    assert gateway.tokens["alice"].split(".")[2] not in caplog.text  # not even the signature


async def test_calls_and_reads_are_audited(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "auto") as client:
        await client.call_tool("read_file", {"vault": "other", "path": "Private.md"})
        await client.read_resource("vault://notes/Projects/Secret.md")
    records = gateway.runtime.journal.tail(10)
    tool = next(r for r in records if r["tool"] == "read_file")
    read = next(r for r in records if r["tool"] == "resources/read")
    assert (tool["user"], tool["mode"], tool["vault"]) == ("alice", "mcp", "other")
    assert tool["result"] == "vault_access_denied"
    assert (read["action"], read["vault"], read["result"]) == ("mcp_resource_read", "notes", "ok")
    assert SECRET not in json.dumps(records)


async def test_rest_routes_still_work_next_to_mcp(gateway) -> None:
    """/mcp is attached by exact path: the REST API, OpenAPI and FastAPI's JSON 404 keep working."""
    async with gateway.http() as http:
        assert (await http.get("/api/health")).status_code == 200
        assert (await http.get("/openapi.json")).status_code == 200
        missing = await http.get("/api/nothing-here")
        assert missing.status_code == 404 and missing.headers["content-type"].startswith("application/json")
        assert (await http.get("/mcp")).status_code == 401  # GET on /mcp still reaches the SDK app


async def test_modern_raw_request_without_handshake(gateway) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {
            "name": "list_vaults",
            "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
    headers = {**ACCEPT, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "list_vaults"}
    async with gateway.http(gateway.tokens["alice"]) as http:
        response = await http.post("/mcp", json=body, headers=headers)
    assert response.status_code == 200 and "mcp-session-id" not in response.headers
    result = response.json()["result"]
    assert result["resultType"] == "complete"
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "obsigate"
    assert result["structuredContent"]["vaults"][0]["name"] == "notes"


async def test_legacy_request_without_session_is_400(gateway) -> None:
    async with gateway.http(gateway.tokens["alice"]) as http:
        response = await http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, headers=ACCEPT)
    assert response.status_code == 400 and "session" in response.json()["error"]["message"].lower()


# --- auth disabled ---------------------------------------------------------------------------------


async def test_anonymous_mode_sees_every_vault(open_gateway, era: str) -> None:
    async with open_gateway.client(None, era) as client:
        data = (await client.call_tool("list_vaults", {})).structured_content
        resources = (await client.list_resources()).resources
    assert [v["name"] for v in data["vaults"]] == ["notes", "other"]
    assert [r.uri for r in resources] == ["vault://notes", "vault://other"]


# --- index still building --------------------------------------------------------------------------


async def test_initialize_and_tools_list_do_not_wait_for_indexing(tmp_path: Path, make_app, run_app) -> None:
    """3000 notes; the initial build is held at its start (a gate around ``refresh_all``) so the assertion
    "answered before ready" does not depend on machine speed; then the build is released and completes."""
    big = write_tree(
        tmp_path / "big",
        {f"d{i % 30:02d}/note{i:04d}.md": f"# Note {i}\n\nword{i} shared text #t{i % 7}\n" for i in range(3000)},
    )
    app = make_app({"big": big}, auth_enabled=False)
    indexer = app.state.runtime.workspace.indexer
    gate = threading.Event()
    real_refresh_all = indexer.refresh_all

    def gated_refresh_all(**kwargs: Any) -> dict[str, Any]:
        gate.wait(60)
        return real_refresh_all(**kwargs)

    indexer.refresh_all = gated_refresh_all

    @asynccontextmanager
    async def connect(mode: str) -> AsyncIterator[Client]:
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http:
            async with Client(streamable_http_client(MCP_URL, http_client=http), mode=mode) as client:
                yield client

    try:
        async with run_app(app):
            for era in ("legacy", "2026-07-28"):
                with anyio.fail_after(10):
                    async with connect(era) as client:  # legacy: the initialize handshake happens here
                        assert {t.name for t in (await client.list_tools()).tools} == MCP_TOOLS
                        assert indexer.state == "indexing"
                        early = (await client.call_tool("search_fulltext", {"q": "word2999"})).structured_content
                        assert early["index"]["complete"] is False and early["warning"]
            gate.set()
            with anyio.fail_after(120):
                while indexer.state != "ready":
                    await anyio.sleep(0.05)
            async with connect("2026-07-28") as client:
                done = (await client.call_tool("search_fulltext", {"q": "word2999"})).structured_content
            assert [h["path"] for h in done["hits"]] == ["d29/note2999.md"]
    finally:
        gate.set()


# --- a real socket ---------------------------------------------------------------------------------


@pytest.fixture
def live_gateway(make_app, vaults: dict[str, Path]) -> Iterator[tuple[str, str]]:
    """``create_app`` under a real uvicorn on 127.0.0.1 (thread); yields (mcp url, alice's token)."""
    port = free_port()
    app = make_app(vaults, port=port)
    user = app.state.auth.users.add_user("alice", None, vaults=["notes"])
    token = app.state.auth.tokens.issue(user)
    with uvicorn_thread(app, port):
        yield f"http://127.0.0.1:{port}/mcp", token


async def test_real_socket_both_eras(live_gateway: tuple[str, str]) -> None:
    url, token = live_gateway
    for era in ("legacy", "auto"):
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
            Client(streamable_http_client(url, http_client=http), mode=era) as client,
        ):
            assert client.protocol_version == ("2025-11-25" if era == "legacy" else "2026-07-28")
            assert {t.name for t in (await client.list_tools()).tools} == MCP_TOOLS
            with anyio.fail_after(30):
                while True:
                    data = (await client.call_tool("search_fulltext", {"q": "tidepool"})).structured_content
                    if data["index"]["complete"]:
                        break
                    await anyio.sleep(0.05)
            assert {h["path"] for h in data["hits"]} == {"Ideas.md", "Projects/Plan.md"}
    async with httpx2.AsyncClient() as http:
        assert (await http.post(url, json=INIT, headers=ACCEPT)).status_code == 401
