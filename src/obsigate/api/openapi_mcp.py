"""The MCP endpoint in the OpenAPI document (seeds 000 §7 phase 3): ``/mcp`` is served by the MCP SDK's own
app (``mcp/mount.py``), which FastAPI cannot describe, so its path entry is written here, under an ``mcp`` tag:
``POST`` (one JSON-RPC message), ``GET`` (the legacy era's server-to-client stream), ``DELETE`` (end a legacy
session), with the bearer credential and the ``Host``/``Origin`` checks (``mcp/auth.py``). Specification:
MCP 2025-11-25 "Transports" §Streamable HTTP; the details are docs/mcp.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI

__all__ = ["MCP_TAG", "document_mcp", "mcp_path_item"]

MCP_TAG = {
    "name": "mcp",
    "description": "Model Context Protocol over Streamable HTTP at /mcp: the vault tools, resources and prompts "
    "for MCP clients (Claude Desktop, Cursor...). A JSON-RPC endpoint, not REST: see docs/mcp.md.",
    "externalDocs": {
        "description": "MCP transports: Streamable HTTP",
        "url": "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports",
    },
}
_SPEC = "MCP 2025-11-25 (legacy era, with `initialize` and `Mcp-Session-Id`) or 2026-07-28 (no session)"
_SESSION = {
    "name": "Mcp-Session-Id",
    "in": "header",
    "required": False,
    "description": "Legacy era: the id `initialize` answered with, on every later request (none: 400; unknown or "
    "expired: 404).",
    "schema": {"type": "string"},
}
_VERSION = {
    "name": "MCP-Protocol-Version",
    "in": "header",
    "required": False,
    "description": "The revision the client speaks (`2025-11-25`, `2026-07-28`...); the server picks the era from it.",
    "schema": {"type": "string"},
}
_ORIGIN = {
    "name": "Origin",
    "in": "header",
    "required": False,
    "description": "Checked against DNS rebinding: loopback origins, the server's own and `allowed_origins` pass; "
    "any other gets 403. Clients that send none (every non-browser client) pass.",
    "schema": {"type": "string"},
}
_JSONRPC = {
    "type": "object",
    "required": ["jsonrpc"],
    "properties": {
        "jsonrpc": {"const": "2.0"},
        "id": {"type": ["string", "integer"]},
        "method": {"type": "string", "examples": ["initialize", "tools/list", "tools/call", "resources/read"]},
        "params": {"type": "object"},
        "result": {"type": "object"},
        "error": {"type": "object"},
    },
    "description": "One JSON-RPC 2.0 message: a request, a notification or a response.",
}


def _responses(auth: bool, ok: dict[str, Any], *codes: tuple[str, str]) -> dict[str, Any]:
    """``ok`` as the 200 answer, ``codes`` as ``(status, description)``, then the auth and Host/Origin refusals."""
    out: dict[str, Any] = {"200": ok, **{code: {"description": text} for code, text in codes}}
    if auth:
        out["401"] = {
            "description": "Missing, invalid, expired or revoked credential; `WWW-Authenticate: Bearer` names the "
            "RFC 9728 metadata at /.well-known/oauth-protected-resource/mcp.",
            "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}},
        }
    out["403"] = {"description": "An `Origin` that is not allowed (DNS-rebinding protection)."}
    out["421"] = {"description": "A `Host` that is not allowed."}
    return out


def mcp_path_item(auth: bool) -> dict[str, Any]:
    """The OpenAPI 3.1 path item of ``/mcp`` (``auth``: the server requires a bearer credential)."""
    security: list[dict[str, list[str]]] = [{"bearer": []}] if auth else []
    common = {"tags": ["mcp"], "security": security, "parameters": [_SESSION, _VERSION, _ORIGIN]}
    stream = {"text/event-stream": {"schema": {"type": "string", "description": "SSE events, each one JSON-RPC message"}}}  # fmt: skip
    return {
        "post": {
            **common,
            "operationId": "mcp_post",
            "summary": "Send one JSON-RPC message to the MCP server (Streamable HTTP)",
            "description": f"{_SPEC}. `Accept: application/json, text/event-stream`. A request is answered with "
            "one JSON-RPC response, as JSON or as an SSE stream; a notification or a response gets 202. Body at "
            "most 4 MiB (`mcp_max_body_bytes`).",
            "requestBody": {"required": True, "content": {"application/json": {"schema": _JSONRPC}}},
            "responses": _responses(
                auth,
                {
                    "description": "The JSON-RPC response, as JSON or as an SSE stream.",
                    "content": {"application/json": {"schema": _JSONRPC}, **stream},
                },
                ("202", "A notification or response accepted (no body)."),
                ("400", "Not JSON-RPC, or a legacy request without its `Mcp-Session-Id`."),
                ("404", "An unknown or expired `Mcp-Session-Id`."),
                ("406", "An `Accept` header that names neither JSON nor SSE."),
                ("413", "A body over the cap, answered with a JSON-RPC error `-32600` `too_large`."),
            ),
        },
        "get": {
            **common,
            "operationId": "mcp_get",
            "summary": "Open the legacy era's stream of server-to-client messages (SSE)",
            "description": f"{_SPEC}. Legacy era only, with `Mcp-Session-Id`; the modern era answers 405.",
            "responses": _responses(
                auth,
                {"description": "An SSE stream of JSON-RPC messages from the server.", "content": stream},
                ("400", "No `Mcp-Session-Id`."),
                ("404", "An unknown or expired `Mcp-Session-Id`."),
                ("405", "The modern era (2026-07-28) has no such stream."),
            ),
        },
        "delete": {
            **common,
            "operationId": "mcp_delete",
            "summary": "End a legacy MCP session",
            "description": "Legacy era: ends the session named by `Mcp-Session-Id` (sessions idle for 30 min end "
            "by themselves).",
            "responses": _responses(
                auth,
                {"description": "The session is closed."},
                ("400", "No `Mcp-Session-Id`."),
                ("404", "An unknown or expired `Mcp-Session-Id`."),
                ("405", "The modern era (2026-07-28) has no session to end."),
            ),
        },
    }


def document_mcp(app: FastAPI, *, auth: bool) -> None:
    """Make ``app.openapi()`` (``/openapi.json``, ``/docs``) describe ``/mcp`` under the ``mcp`` tag, with a
    ``bearer`` security scheme (a JWT or an ``og_`` API key) when ``auth``. Built once, like FastAPI's own."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        schema = app.openapi_schema
        if schema is None:
            schema = build()  # FastAPI's document, cached on app.openapi_schema: completed in place
            schema["paths"]["/mcp"] = mcp_path_item(auth)
            schema["tags"] = [*schema.get("tags", []), MCP_TAG]
            if auth:
                schemes = schema.setdefault("components", {}).setdefault("securitySchemes", {})
                schemes["bearer"] = {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A JWT (`POST /api/auth/login`, `obsigate token create`) or an `og_` API key.",
                }
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
