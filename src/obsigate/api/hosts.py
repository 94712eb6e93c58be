"""DNS-rebinding guard for every route: a request whose ``Host`` is not one of ours gets 421.

A web page on another site can point its own host name at 127.0.0.1 and make the browser talk to a local
ObsiGate; only the ``Host`` header still carries the foreign name. ``/mcp`` gets the same check from the MCP
SDK (``TransportSecuritySettings``); this middleware applies the same allow-list to ``/api`` and the web page.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalise_origin(value: str) -> str | None:
    """``value`` (an ``Origin`` header or a URL) as ``scheme://host[:port]``: lower case, the scheme's default
    port left out, no path; ``None`` when it is not an absolute ``http(s)`` origin (``null``, garbage)."""
    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{scheme}://{host.lower()}" + (f":{port}" if port is not None and port != _DEFAULT_PORTS[scheme] else "")


def own_origins(base_url: str, scheme: str, host: str, extra: Iterable[str] = ()) -> set[str]:
    """The origins that are this server: ``base_url``'s, the request's own (``scheme`` + its ``Host`` header
    ``host``: the name and port the browser used), and ``extra`` (``allowed_origins``), all normalised.
    Another port of the same host is another origin (another program), so it is not among them."""
    candidates = [base_url, f"{scheme}://{host}", *extra]
    return {o for o in (normalise_origin(c) for c in candidates) if o is not None}


def origin_allowed(origin: str, own: set[str]) -> bool:
    """Whether a browser's ``Origin`` header is one of ``own`` (see :func:`own_origins`): scheme, host and port
    must all match."""
    normal = normalise_origin(origin)
    return normal is not None and normal in own


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
                await send(
                    {"type": "http.response.start", "status": 421, "headers": [(b"content-type", b"application/json")]}
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
