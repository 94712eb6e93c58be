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
from typing import Any

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
from mcp_types import ErrorData, JSONRPCError, JSONRPCRequest, JSONRPCResponse

from obsigate.auth.tokens import TokenService
from obsigate.auth.users import UserStore
from obsigate.mcp.stdio import stdio_streams

__all__ = ["TokenAuth", "forward_stdio"]

log = logging.getLogger(__name__)

#: The request ``_meta`` key carrying a 2026-07-28 request's protocol version (the HTTP transport's header).
_VERSION_META = "io.modelcontextprotocol/protocolVersion"


class TokenAuth(httpx2.Auth):
    """Bearer auth for the forwarded calls: a short-lived access token for local user ``name``, signed with
    the data dir's own key (``obsigate serve`` verifies it like any other), minted again a minute before it
    expires or at once when the server refuses it (a rotated key, a signed-out or re-created user: one retry).
    The user is read again at each mint: a deleted user gets no token, and the server's 401."""

    def __init__(self, tokens: TokenService, users: UserStore, name: str, *, ttl_s: int = 300) -> None:
        self._tokens, self._users, self._name, self._ttl = tokens, users, name, ttl_s
        self._token = ""
        self._renew_at = 0.0

    def auth_flow(self, request: httpx2.Request) -> Generator[httpx2.Request, httpx2.Response, None]:
        """Set ``Authorization: Bearer <token>``; on a 401, mint a new token and send the request once more."""
        self._stamp(request, renew=time.monotonic() >= self._renew_at)
        response = yield request
        if response.status_code == 401:
            self._stamp(request, renew=True)
            yield request

    def _stamp(self, request: httpx2.Request, *, renew: bool) -> None:
        if renew:
            user = self._users.get_user(self._name)
            self._token = self._tokens.issue(user, ttl_s=self._ttl) if user is not None else ""
            self._renew_at = time.monotonic() + max(self._ttl - 60, 1)
        if self._token:
            request.headers["Authorization"] = f"Bearer {self._token}"
        else:
            request.headers.pop("Authorization", None)


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


async def forward_stdio(url: str, auth: httpx2.Auth | None, *, max_line_bytes: int) -> str | None:
    """Relay MCP between stdin/stdout and the Streamable HTTP endpoint ``url`` (a local ``obsigate serve``).

    Returns ``None`` once stdin has closed and every call was answered. Errors of one request on the HTTP side (a
    refusal, a 5xx) come back as JSON-RPC errors to that request, as the SDK's HTTP client makes them. When the
    server itself is lost (unreachable, stopped, or restarted: it no longer knows the session), every call still
    waiting is answered with a ``-32000`` error saying so, and the reason is returned: the caller exits, so that
    the MCP client starts this server again (and it then owns the data dir, or forwards to the new server).
    """
    pending: set[Any] = set()  # ids of the client's requests not answered yet
    lost: list[str] = []

    async def on_response(response: httpx2.Response) -> None:
        if response.status_code == 404 and "mcp-session-id" in response.request.headers:
            lost.append(f"the server at {url} no longer knows this session (it was restarted)")

    timeout = httpx2.Timeout(30.0, read=300.0)
    async with stdio_streams(max_line_bytes) as (from_client, to_client):
        try:
            async with (
                httpx2.AsyncClient(
                    auth=auth, timeout=timeout, trust_env=False, event_hooks={"response": [on_response]}
                ) as client,
                streamable_http_client(url, http_client=client) as (from_server, to_server),
                anyio.create_task_group() as tg,
            ):

                async def upstream() -> None:
                    async with from_client:
                        async for message in from_client:
                            if isinstance(message.message, JSONRPCRequest):
                                pending.add(message.message.id)
                            await to_server.send(_routed(message))
                    tg.cancel_scope.cancel()  # stdin closed and every call answered

                async def downstream() -> None:
                    async for item in from_server:
                        if isinstance(item, Exception):
                            lost.append(f"the server at {url} failed: {item}")
                        else:
                            answer = item.message
                            if isinstance(answer, JSONRPCResponse | JSONRPCError):
                                pending.discard(answer.id)
                            await to_client.send(item)
                        if lost:
                            break
                    lost.append(f"the server at {url} closed the connection")
                    tg.cancel_scope.cancel()

                tg.start_soon(upstream)
                tg.start_soon(downstream)
        except Exception as exc:  # noqa: BLE001 — any failure of the HTTP side (an ExceptionGroup of the SDK's tasks)
            lost.append(f"the server at {url} cannot be reached ({_root_cause(exc)})")
        if not lost:
            return None
        for ident in pending:
            message = f"Server error: {lost[0]}; this MCP server stops (start it again)"
            await to_client.send(
                SessionMessage(JSONRPCError(jsonrpc="2.0", id=ident, error=ErrorData(code=-32000, message=message)))
            )
        return lost[0]


def _root_cause(exc: BaseException) -> str:
    """The first leaf of an exception group, as ``Type: message``."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"
