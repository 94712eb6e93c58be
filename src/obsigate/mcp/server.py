"""The MCP server: the tool registry and the vaults as MCP tools and resources, on the SDK's low-level
``Server`` (one handler per method, explicit JSON Schemas from the registry).

One server answers both protocol eras from the same handlers (the SDK picks the era per request from
``MCP-Protocol-Version``): 2025-11-25 and older with ``initialize`` and ``Mcp-Session-Id``, and the
sessionless 2026-07-28. Nothing here touches the search index on ``initialize``/``server/discover`` or
``tools/list``, so both answer while the first index build is still running.

Who is calling is decided per request: from the ``AccessToken`` the SDK's bearer middleware attached to
*this* HTTP request (``ctx.request.scope["user"]``, falling back to ``get_access_token()``), never from
the session, so a grant change applies to the next request even inside a legacy session.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from mcp import MCPError
from mcp.server import Server
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.context import ServerRequestContext
from mcp_types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)

from obsigate import __version__
from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.mcp.auth import principal_from_access_token
from obsigate.mcp.completion import CompletionHandler
from obsigate.mcp.prompts import PromptHandlers
from obsigate.mcp.resources import ResourceHandlers
from obsigate.tools.api import Scope, ToolContext, ToolError, ToolRuntime, ToolSpec, call_tool, visible_tools

__all__ = ["ERROR_META_KEY", "SERVER_NAME", "build_mcp_server", "error_result", "to_mcp_tool"]

log = logging.getLogger(__name__)

SERVER_NAME = "obsigate"
#: ``_meta`` key of a failed ``tools/call`` result carrying ``{"code", "message", ["hint"], ["details"]}``.
ERROR_META_KEY = "obsigate/error"

INSTRUCTIONS = (
    "ObsiGate serves Obsidian-style markdown vaults. Start with list_vaults: every other tool takes one of "
    "its names as `vault`. Paths are vault-relative with '/' separators. Find notes with search_fulltext, "
    "then read them with read_file; list_recent shows what changed lately. Failed calls return isError with "
    "a stable code first (e.g. 'vault_access_denied: ...') and a hint on how to fix the call. Secrets in "
    "notes are shown as [REDACTED:...]."
)


def to_mcp_tool(spec: ToolSpec) -> Tool:
    """The MCP ``Tool`` for a registry entry: name, title, description (the docstring), input and output
    JSON Schemas, and ``ToolAnnotations`` from ``spec.annotations`` (MCP ``schema.ts`` ToolAnnotations)."""
    return Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=spec.input_schema,
        output_schema=spec.output_schema,
        annotations=ToolAnnotations.model_validate({"title": spec.title, **spec.annotations}),
    )


def error_result(err: ToolError) -> CallToolResult:
    """A tool failure as the model sees it: ``isError`` with ``"<code>: <message>"`` (+ ``Hint: ...``).

    No ``structuredContent``: MCP requires it to conform to the tool's ``outputSchema`` (2025-06-18+
    ``server/tools`` §Output Schema), which an error object does not. Current SDK clients skip the check on
    ``isError`` (Python ``mcp`` 2.3, TypeScript ``@modelcontextprotocol/client`` 2.3), but older TypeScript
    SDK clients validated any ``structuredContent`` present (typescript-sdk#654, spec issue #569). The
    machine-readable error rides in ``_meta["obsigate/error"]`` instead.
    """
    text = f"{err.code}: {err.message}"
    if err.hint:
        text += f"\nHint: {err.hint}"
    return CallToolResult(
        content=[TextContent(type="text", text=text)], is_error=True, meta={ERROR_META_KEY: err.to_dict()}
    )


def build_mcp_server(runtime: ToolRuntime, *, anonymous: bool) -> Server[Any]:
    """Build the low-level MCP ``Server`` over ``runtime``'s registry and workspace.

    Args:
        runtime: the process-wide tool runtime (workspace, audit, rate limiter, registry).
        anonymous: ``True`` when authentication is disabled: every request runs as
            :data:`~obsigate.auth.principal.ANONYMOUS` (admin, every vault). ``False``: every request must
            carry an ``AccessToken`` from :class:`~obsigate.mcp.auth.ObsiGateTokenVerifier`; one without is
            refused with JSON-RPC ``-32600`` (the HTTP layer already answered 401 before that can happen).

    Handlers:
        * ``tools/list``: ``visible_tools`` for the caller, registry order (deterministic). It varies with
          the caller's grants, as MCP 2026-07-28 ``server/tools`` §Capabilities allows.
        * ``tools/call``: ``call_tool`` (argument validation, vault access, rate limit, redaction, size
          budget, audit). Success → JSON text + ``structuredContent``; a ``ToolError`` →
          :func:`error_result`; an unknown tool → JSON-RPC ``-32602`` (a protocol error, per
          ``server/tools`` §Error Handling). Unexpected exceptions become ``isError`` ``internal_error``,
          never an opaque ``-32603``.
        * ``resources/list``, ``resources/templates/list``, ``resources/read``: see
          :mod:`obsigate.mcp.resources`.
        * ``prompts/list``, ``prompts/get``: see :mod:`obsigate.mcp.prompts`; ``completion/complete`` (prompt
          arguments and the file template): see :mod:`obsigate.mcp.completion`.

    Capabilities follow the handlers (SDK ``Server.get_capabilities``): ``tools``, ``resources``, ``prompts``
    and ``completions``, without ``listChanged`` or subscriptions.
    """
    tools_by_name: dict[str, Tool] = {}

    def mcp_tool(spec: ToolSpec) -> Tool:
        tool = tools_by_name.get(spec.name)
        if tool is None:
            tool = tools_by_name[spec.name] = to_mcp_tool(spec)
        return tool

    def principal_of(ctx: ServerRequestContext[Any, Any]) -> Principal:
        if anonymous:
            return ANONYMOUS
        user = getattr(ctx.request, "scope", {}).get("user") if ctx.request is not None else None
        token = user.access_token if isinstance(user, AuthenticatedUser) else get_access_token()
        principal = principal_from_access_token(token)
        if principal is None:
            raise MCPError(INVALID_REQUEST, "unauthenticated: send Authorization: Bearer <ObsiGate token or API key>")
        return principal

    async def list_tools(ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None) -> ListToolsResult:
        if params is not None and params.cursor is not None:
            raise MCPError(INVALID_PARAMS, "invalid_argument: unknown cursor (the tool list is not paged)")
        tctx = ToolContext(principal_of(ctx), runtime, mode="mcp")
        return ListToolsResult(tools=[mcp_tool(spec) for spec in visible_tools(tctx)])

    async def handle_call(ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams) -> CallToolResult:
        tctx = ToolContext(principal_of(ctx), runtime, mode="mcp")
        try:
            data = await call_tool(tctx, params.name, params.arguments)
        except ToolError as err:
            if err.code == "unknown_tool":
                raise MCPError(INVALID_PARAMS, f"Unknown tool: {params.name}", {"code": "unknown_tool"}) from None
            return error_result(err)
        except Exception:  # call_tool contains its own failures; this guards the glue around it
            log.exception("tools/call %s failed unexpectedly", params.name)
            return error_result(ToolError("internal_error", f"{params.name} failed unexpectedly", http_status=500))
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)

    def input_schema_of(name: str) -> dict[str, Any] | None:
        # Used by the SDK for 2026-07-28 ``Mcp-Param-*`` header checks, so it need not run tools/list.
        spec = runtime.registry.get(name)
        return spec.input_schema if spec is not None and Scope.MCP in spec.scopes else None

    resources = ResourceHandlers(runtime, principal_of)
    prompts = PromptHandlers(runtime, principal_of)
    completion = CompletionHandler(runtime, principal_of)
    return Server(
        SERVER_NAME,
        version=__version__,
        title="ObsiGate",
        description="Obsidian-style markdown vaults for AI agents: browse, read and search notes.",
        instructions=INSTRUCTIONS,
        get_tool_input_schema=input_schema_of,
        on_list_tools=list_tools,
        on_call_tool=handle_call,
        on_list_resources=resources.list_resources,
        on_list_resource_templates=resources.list_templates,
        on_read_resource=resources.read_resource,
        on_list_prompts=prompts.list_prompts,
        on_get_prompt=prompts.get_prompt,
        on_completion=completion.complete,
    )
