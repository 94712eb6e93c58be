"""DNS-rebinding guard for every route: a request whose ``Host`` is not one of ours gets 421.

A web page on another site can point its own host name at 127.0.0.1 and make the browser talk to a local
ObsiGate; only the ``Host`` header still carries the foreign name. ``/mcp`` gets the same check from the MCP
SDK (``TransportSecuritySettings``); this middleware applies the same allow-list to ``/api`` and the web page.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send


def host_allowed(host: str, allowed: list[str]) -> bool:
    """Whether ``host`` (a ``Host`` header value) matches ``allowed``; an entry ending in ``:*`` allows any port."""
    host = host.lower()
    for entry in allowed:
        entry = entry.lower()
        if host == entry:
            return True
        if entry.endswith(":*") and host.startswith(entry[:-1]) and host[len(entry) - 1 :].isdigit():
            return True
    return False


class HostGuard:
    """Pure ASGI middleware answering 421 ``{"code": "misdirected_request", ...}`` for a foreign ``Host``."""

    def __init__(self, app: ASGIApp, allowed_hosts: list[str]) -> None:
        self.app = app
        self.allowed = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), "")
            if not host_allowed(host, self.allowed):
                body = json.dumps(
                    {
                        "code": "misdirected_request",
                        "message": f"host {host!r} is not served here",
                        "hint": "add it with OBSIGATE_ALLOWED_HOSTS or --public-url",
                    }
                ).encode()
                await send({"type": "http.response.start", "status": 421, "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
