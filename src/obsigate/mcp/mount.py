"""Mount the MCP endpoint (Streamable HTTP at ``/mcp``) into the FastAPI app."""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import FastAPI
from mcp.server.auth.settings import AuthSettings
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from starlette.routing import Route

from obsigate.auth.principal import BearerAuthenticator
from obsigate.mcp.auth import MCP_SCOPE, ObsiGateTokenVerifier, transport_security
from obsigate.mcp.server import build_mcp_server
from obsigate.tools.api import ToolRuntime

__all__ = ["MCP_PATH", "mount_mcp"]

MCP_PATH = "/mcp"


def mount_mcp(
    app: FastAPI,
    runtime: ToolRuntime,
    *,
    authenticator: BearerAuthenticator | None,
    base_url: str,
    allowed_hosts: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    max_body_bytes: int = DEFAULT_MAX_REQUEST_BODY_SIZE,
) -> StreamableHTTPSessionManager:
    """Serve MCP at ``{base_url}/mcp`` from ``app`` and return the SDK session manager.

    The SDK's Starlette app (``server.streamable_http_app()``, with its bearer-auth middleware) is attached
    by exact path: one route per path it serves (``/mcp`` and, with auth, ``/.well-known/
    oauth-protected-resource/mcp``), each handing the request to that app unchanged. Every other path stays
    with FastAPI, its JSON 404 included; a mount at ``/`` (MCP SDK docs ``run/asgi.md``) would answer every
    unknown path with the SDK app's plain-text 404 instead. The caller must enter ``session_manager.run()``
    in the FastAPI lifespan (the SDK app's own lifespan never runs); without it ``/mcp`` fails with
    ``RuntimeError: Task group is not initialized``.

    Args:
        app: the FastAPI application.
        runtime: the tool runtime the MCP handlers call.
        authenticator: the bearer authenticator, or ``None`` to disable authentication (every request runs
            as ``ANONYMOUS``; only sensible on a loopback bind).
        base_url: the public URL of this server, without ``/mcp`` (e.g. ``https://notes.example``). It gives
            the canonical MCP resource URL, the allowed ``Host``/``Origin`` and the RFC 9728 metadata.
        allowed_hosts, allowed_origins: extra ``Host``/``Origin`` values to accept (reverse proxies,
            browser front-ends); loopback and ``base_url`` are always accepted.
        max_body_bytes: the largest request body the SDK's transport reads (``api/body_limit.py`` answers a
            larger one with a JSON-RPC error).

    With authentication on, the SDK answers a missing or invalid bearer with 401 and
    ``WWW-Authenticate: Bearer error="invalid_token", ..., resource_metadata="{base_url}/.well-known/
    oauth-protected-resource/mcp"`` and serves that document (MCP 2025-11-25 / 2026-07-28
    ``basic/authorization`` §Authorization Server Location). Its ``authorization_servers`` names
    ``base_url``: ObsiGate issues its own tokens (password login, ``obsigate token create``, API keys), so
    clients are given a static ``Authorization`` header rather than running an OAuth flow.

    Raises:
        ValueError: ``base_url`` is not an absolute http(s) URL.
    """
    base = base_url.rstrip("/")
    resource_url = f"{base}{MCP_PATH}"
    server = build_mcp_server(runtime, anonymous=authenticator is None)
    security = transport_security(base, list(allowed_hosts), list(allowed_origins))
    if authenticator is None:
        mcp_app = server.streamable_http_app(
            streamable_http_path=MCP_PATH, transport_security=security, max_request_body_size=max_body_bytes
        )
    else:
        mcp_app = server.streamable_http_app(
            streamable_http_path=MCP_PATH,
            transport_security=security,
            max_request_body_size=max_body_bytes,
            auth=AuthSettings(
                issuer_url=base,
                resource_server_url=resource_url,
                required_scopes=[MCP_SCOPE],
                # The verifier checks the audience itself (aud == "obsigate-api", shared by REST and MCP):
                # ObsiGate tokens carry no RFC 8707 resource indicator to compare (SDK AuthSettings docs).
                validate_token_resource=False,
            ),
            token_verifier=ObsiGateTokenVerifier(authenticator, resource=resource_url),
        )
    first = [r for r in mcp_app.routes if getattr(r, "path", None)]
    # Starlette treats a non-function endpoint as a raw ASGI app: method handling stays with the SDK. First in
    # the table: every MCP request is routed at once instead of after ~100 REST routes (issue 20's profile).
    app.router.routes[:0] = [
        Route(r.path, endpoint=mcp_app, name=f"mcp:{r.path}", include_in_schema=False)  # type: ignore[attr-defined]
        for r in first
    ]
    return server.session_manager
