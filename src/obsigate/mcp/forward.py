"""``obsigate mcp stdio`` beside a running ``obsigate serve``: relay MCP between stdin/stdout and its ``/mcp``.

One process writes a data dir's index and change journal. When ``obsigate serve`` holds it, a stdio process
cannot open it too, so it relays: every client message goes to the server's Streamable HTTP endpoint (the
SDK's client transport: sessions, SSE streams, errors mapped back to the request they answer) and every server
message comes back on stdout, through the same pipe handling as :mod:`obsigate.mcp.stdio`. MCP to MCP, over
loopback: never the REST API.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Generator

import anyio
import httpx2
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.inbound import (
    MCP_METHOD_HEADER,
    MCP_NAME_HEADER,
    MCP_PROTOCOL_VERSION_HEADER,
    NAME_BEARING_METHODS,
    encode_header_value,
)
from mcp.shared.message import ClientMessageMetadata, SessionMessage
from mcp_types import JSONRPCRequest

from obsigate.auth.tokens import TokenService
from obsigate.auth.users import UserStore
from obsigate.mcp.stdio import stdio_streams

__all__ = ["TokenAuth", "forward_stdio"]

log = logging.getLogger(__name__)

#: The request ``_meta`` key carrying a 2026-07-28 request's protocol version (the HTTP transport's header).
_VERSION_META = "io.modelcontextprotocol/protocolVersion"


class TokenAuth(httpx2.Auth):
    """Bearer auth for the forwarded calls: a short-lived access token for local user ``name``, signed with
    the data dir's own key (``obsigate serve`` verifies it like any other) and minted again a minute before it
    expires. The user is read again at each mint, so a deleted user's forwarding stops within ``ttl_s``."""

    def __init__(self, tokens: TokenService, users: UserStore, name: str, *, ttl_s: int = 300) -> None:
        self._tokens, self._users, self._name, self._ttl = tokens, users, name, ttl_s
        self._token = ""
        self._renew_at = 0.0

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        """Set ``Authorization: Bearer <token>``; a deleted user gets no token (the server answers 401)."""
        if time.monotonic() >= self._renew_at:
            user = self._users.get_user(self._name)
            self._token = self._tokens.issue(user, ttl_s=self._ttl) if user is not None else ""
            self._renew_at = time.monotonic() + max(self._ttl - 60, 1)
        if self._token:
            request.headers["Authorization"] = f"Bearer {self._token}"
        yield request


def _routed(message: SessionMessage) -> SessionMessage:
    """A client message for the HTTP transport: a 2026-07-28 request (its protocol version in
    ``params._meta``) gets the routing headers that era's HTTP binding requires (``MCP-Protocol-Version``,
    ``Mcp-Method``, ``Mcp-Name``), as the SDK's own client session sets them."""
    request = message.message
    if not isinstance(request, JSONRPCRequest) or not isinstance(request.params, dict):
        return message
    meta = request.params.get("_meta")
    version = meta.get(_VERSION_META) if isinstance(meta, dict) else None
    if not isinstance(version, str):
        return message
    headers = {MCP_PROTOCOL_VERSION_HEADER: version, MCP_METHOD_HEADER: request.method}
    name_key = NAME_BEARING_METHODS.get(request.method)
    if name_key is not None and isinstance(name := request.params.get(name_key), str):
        headers[MCP_NAME_HEADER] = encode_header_value(name)
    return SessionMessage(request, metadata=ClientMessageMetadata(headers=headers))


async def forward_stdio(url: str, auth: httpx2.Auth | None, *, max_line_bytes: int) -> None:
    """Relay MCP between stdin/stdout and the Streamable HTTP endpoint ``url`` (a local ``obsigate serve``)
    until stdin closes. Errors of the HTTP side (refused, 401, 5xx) come back as JSON-RPC errors to the
    request they answer, as the SDK's HTTP client makes them."""
    timeout = httpx2.Timeout(30.0, read=300.0)
    async with (
        httpx2.AsyncClient(auth=auth, timeout=timeout, trust_env=False) as client,
        streamable_http_client(url, http_client=client) as (from_server, to_server),
        stdio_streams(max_line_bytes) as (from_client, to_client),
    ):

        async def upstream() -> None:
            async with from_client:
                async for message in from_client:
                    await to_server.send(_routed(message))
            tg.cancel_scope.cancel()  # stdin closed and every call answered

        async def downstream() -> None:
            async for item in from_server:
                if isinstance(item, Exception):
                    log.warning("stdio: the server at %s: %s", url, item)
                    continue
                await to_client.send(item)

        async with anyio.create_task_group() as tg:
            tg.start_soon(upstream)
            tg.start_soon(downstream)
