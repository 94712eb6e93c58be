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
import uuid
from collections.abc import Callable
from typing import Any

import anyio
from mcp import MCPError
from mcp.server import Server
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.context import ServerRequestContext
from mcp.server.request_state import RequestStateBoundary, RequestStateSecurity
from mcp_types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    AudioContent,
    BlobResourceContents,
    CallToolRequestParams,
    CallToolResult,
    ContentBlock,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    EmbeddedResource,
    ImageContent,
    InputRequiredResult,
    ListToolsResult,
    PaginatedRequestParams,
    ResourceLink,
    TextContent,
    Tool,
    ToolAnnotations,
)
from mcp_types.version import is_version_at_least

from obsigate import __version__
from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.mcp.auth import principal_from_access_token
from obsigate.mcp.completion import CompletionHandler
from obsigate.mcp.prompts import PromptHandlers, no_cursor
from obsigate.mcp.resources import ResourceHandlers
from obsigate.tools.api import (
    FILE_URI_PREFIX,
    Part,
    Scope,
    ServiceError,
    ToolContext,
    ToolKind,
    ToolResult,
    ToolRuntime,
    ToolSpec,
    call_tool_output,
    internal_error,
    settle,
    text_line,
    visible_tools,
)  # fmt: skip

__all__ = ["CONFIRM_INPUT_KEY", "ERROR_META_KEY", "SERVER_NAME", "build_mcp_server", "error_result", "to_mcp_tool"]

log = logging.getLogger(__name__)

SERVER_NAME = "obsigate"
#: ``_meta`` key of a failed ``tools/call`` result carrying ``{"code", "message", ["hint"], ["details"]}``.
ERROR_META_KEY = "obsigate/error"

#: ``input_requests`` key of the inline confirmation (2026-07-28 multi-round-trip elicitation).
CONFIRM_INPUT_KEY = "obsigate/confirm"
#: An empty form: accepting it is the confirmation (MCP ``client/elicitation`` form mode).
CONFIRM_SCHEMA: dict[str, Any] = {"type": "object", "properties": {}}
#: First revision whose ``tools/call`` carries elicitation in an ``InputRequiredResult`` (MRTR).
MRTR_VERSION = "2026-07-28"
_MESSAGE_DIFF_CHARS = 6000

INSTRUCTIONS = (
    "ObsiGate serves Obsidian-style markdown vaults. Start with list_vaults: every other tool takes one of "
    "its names as `vault`. Paths are vault-relative with '/' separators. Find notes with search_fulltext, "
    "then read them with read_file; list_recent shows what changed lately. Changes take two steps: a "
    "propose_<tool> call changes nothing and returns a diff and a confirmation_token; show the diff to the "
    "user and, once they agree, call apply_<tool> with the token. Failed calls return isError with "
    "a stable code first (e.g. 'vault_access_denied: ...') and a hint on how to fix the call. Secrets in "
    "notes are shown as [REDACTED:...]."
)


def to_mcp_tool(spec: ToolSpec) -> Tool:
    """The MCP ``Tool`` for a registry entry: name, title, description (the docstring), input and output
    JSON Schemas, and ``ToolAnnotations`` from ``spec.annotations`` (MCP ``schema.ts`` ToolAnnotations; the
    title is ``Tool.title`` alone, MCP 2025-06-18+)."""
    return Tool(
        name=spec.name,
        title=spec.title,
        description=spec.description,
        input_schema=spec.input_schema,
        output_schema=spec.output_schema,
        annotations=ToolAnnotations.model_validate(spec.annotations),
    )


def error_result(err: ServiceError) -> CallToolResult:
    """A tool failure as the model sees it: ``isError`` with ``"<code>: <message>"`` (+ ``Hint: ...``); an
    ``internal_error``'s message and hint name its error id, also in ``_meta`` as ``error_id``.

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


#: First revisions with ``audio`` content and with ``resource_link`` content (MCP changelogs).
AUDIO_VERSION = "2025-03-26"
RESOURCE_LINK_VERSION = "2025-06-18"


def success_result(
    data: dict[str, Any], spec: ToolSpec | None = None, parts: list[Part] | None = None, version: str | None = None
) -> CallToolResult:
    """A tool's structured result as ``structuredContent`` plus the same JSON as one text block, then one block
    per part (``tools/parts.py``, already normalised and capped by the tool layer), for the client's protocol
    ``version`` (``None``: 2025-03-26, what a request without ``MCP-Protocol-Version`` means):

    * an inline image → ``ImageContent`` (base64 + ``mimeType``); inline audio → ``AudioContent`` (2025-03-26+);
    * an inline PDF or file → an ``EmbeddedResource`` with a ``blob`` (``uri``: where it lives, e.g.
      ``vault://<vault>/<path>`` for read_file_raw's chunk: the file's bytes ``[offset, next_offset or size)``);
    * a part kept in the caller's file space → a ``resource_link`` to ``obsigate://files/<file_id>``
      (2025-06-18+); older clients, and a part neither inline nor kept, get its text line instead.

    A tool whose result model declares exact-bytes fields (``exact_fields``, e.g. ``read_file_raw``) sends its
    base64 once, in those blocks: ``structuredContent`` (and the text block) keep every other field with
    ``content: ""``. With nothing new to carry (the same parts as before parts existed), the result is byte for
    byte what it was (``tests/mcp/test_golden_results.py``).
    """
    carries_bytes = spec is not None and hasattr(spec.result_model, "exact_fields")
    if carries_bytes and data.get("encoding") == "base64" and isinstance(data.get("content"), str):
        data = {**data, "content": ""}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    blocks = [_part_block(part, version or AUDIO_VERSION) for part in parts or ()]
    return CallToolResult(content=[TextContent(type="text", text=text), *blocks], structured_content=data)


def _part_block(part: Part, version: str) -> ContentBlock:
    """The MCP content block of one part for a client of protocol ``version`` (see :func:`success_result`)."""
    if part.data is not None:
        if part.kind == "image":
            return ImageContent(type="image", data=part.b64(), mime_type=part.mime_type)
        if part.kind == "audio" and is_version_at_least(version, AUDIO_VERSION):
            return AudioContent(type="audio", data=part.b64(), mime_type=part.mime_type)
        if part.kind != "audio":
            uri = part.uri or f"obsigate://parts/{part.sha256}"
            return EmbeddedResource(
                type="resource", resource=BlobResourceContents(uri=uri, mime_type=part.mime_type, blob=part.b64())
            )
    elif part.file_id is not None and is_version_at_least(version, RESOURCE_LINK_VERSION):
        return ResourceLink(
            type="resource_link", uri=f"{FILE_URI_PREFIX}{part.file_id}", name=part.name or part.file_id,
            mime_type=part.mime_type, size=part.size or None, description=text_line(part),
        )  # fmt: skip
    return TextContent(type="text", text=text_line(part))


def confirmation_message(data: dict[str, Any]) -> str:
    """The text a human reads in the inline confirmation of a proposal: vault, summary and the (redacted)
    diffs, cut at about 6000 characters."""
    lines = [
        f"Apply this change to vault {data.get('vault')!r}? ({data.get('tool')})",
        "",
        str(data.get("summary", "")),
    ]
    budget = _MESSAGE_DIFF_CHARS
    for entry in data.get("diffs") or []:
        head = f"{entry.get('action', '?')} {entry.get('path', '')}" + (f" -> {entry['to']}" if entry.get("to") else "")
        diff = str(entry.get("diff") or "")
        lines += ["", head]
        if diff and budget > 0:
            lines.append(diff if len(diff) <= budget else diff[:budget] + "\n…(diff cut)")
            budget -= len(diff)
    if data.get("truncated"):
        lines += ["", "(the proposal was cut to fit the size budget)"]
    return "\n".join(lines)


def _client_elicits(ctx: ServerRequestContext[Any, Any]) -> bool:
    """Whether the client declared form elicitation (a bare ``elicitation: {}`` counts as form, MCP
    2025-11-25 ``client/elicitation`` §Capabilities)."""
    caps = ctx.session.client_capabilities
    elicitation = caps.elicitation if caps is not None else None
    return elicitation is not None and (elicitation.form is not None or elicitation.url is None)


def build_mcp_server(
    runtime: ToolRuntime,
    *,
    anonymous: bool,
    caller: Callable[[], Principal] | None = None,
    session_id: str | None = None,
) -> Server[Any]:
    """Build the low-level MCP ``Server`` over ``runtime``'s registry and workspace.

    Args:
        runtime: the process-wide tool runtime (workspace, audit, rate limiter, registry).
        anonymous: ``True`` when authentication is disabled: every request runs as
            :data:`~obsigate.auth.principal.ANONYMOUS` (admin, every vault). ``False``: every request must
            carry an ``AccessToken`` from :class:`~obsigate.mcp.auth.ObsiGateTokenVerifier`; one without is
            refused with JSON-RPC ``-32600`` (the HTTP layer already answered 401 before that can happen).
        caller: a transport with one fixed caller (stdio: the local user named at start) gives it here; it
            is asked on every request, so it can re-read the user (a deletion or a grant change applies to
            the next call) and raise ``MCPError`` to refuse. Wins over ``anonymous`` and tokens.
        session_id: the session id of a one-connection transport (stdio), for the audit trail; over HTTP it
            comes from each request's ``Mcp-Session-Id``.

    Handlers:
        * ``tools/list``: ``visible_tools`` for the caller, registry order (deterministic). It varies with
          the caller's grants, as MCP 2026-07-28 ``server/tools`` §Capabilities allows.
        * ``tools/call``: ``call_tool`` (argument validation, vault access, rate limit, redaction, size
          budget, audit). Success → JSON text + ``structuredContent``; a ``ServiceError`` →
          :func:`error_result`; an unknown tool → JSON-RPC ``-32602`` (a protocol error, per
          ``server/tools`` §Error Handling). Unexpected exceptions become ``isError`` ``internal_error``,
          never an opaque ``-32603``; its ``error_id`` (in the text and in ``_meta``) names the server's log
          line with the traceback. Write tools are listed and called as ``propose_<tool>``/``apply_<tool>``
          (the raw tool answers ``confirmation_required``).
        * Inline confirmation: when the client declared form elicitation, ``propose_<tool>`` asks the human
          right away (MCP ``client/elicitation``, an empty form whose message is the summary and diffs): over
          2025-11-25 and older as an ``elicitation/create`` request on the call's stream (waiting at most the
          token lifetime), over 2026-07-28 as an ``InputRequiredResult`` whose ``requestState`` (the proposal,
          AES-GCM sealed by the SDK's ``RequestStateBoundary``: bound to the caller, the tool, its arguments,
          and the token lifetime) comes back with the answer. Accept → ``apply_<tool>`` runs at once and the
          result has ``status: "applied"`` and ``result``; decline → the token is spent unused, ``status:
          "declined"``, no token; cancel, no answer or a client error → the usual proposal with its token.
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

    def context_of(ctx: ServerRequestContext[Any, Any]) -> ToolContext:
        """The tool context of this request: its caller, in a 2025-era session the session id, and the turn: the
        JSON-RPC request id with a fresh suffix (ids repeat across sessions and stateless clients), one per request,
        under which the tool journal chains the request's rows."""
        headers = getattr(ctx.request, "headers", None) if ctx.request is not None else None
        session = headers.get("mcp-session-id") if headers is not None else session_id
        turn = f"rpc-{getattr(ctx, 'request_id', '')}-{uuid.uuid4().hex[:8]}"
        return ToolContext(principal_of(ctx), runtime, mode="mcp", session_id=session or None, turn_id=turn)

    def principal_of(ctx: ServerRequestContext[Any, Any]) -> Principal:
        if caller is not None:
            return caller()
        if anonymous:
            return ANONYMOUS
        user = getattr(ctx.request, "scope", {}).get("user") if ctx.request is not None else None
        token = user.access_token if isinstance(user, AuthenticatedUser) else get_access_token()
        principal = principal_from_access_token(token)
        if principal is None:
            raise MCPError(INVALID_REQUEST, "unauthenticated: send Authorization: Bearer <ObsiGate token or API key>")
        return principal

    async def list_tools(ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None) -> ListToolsResult:
        no_cursor(params, "tool list")
        tctx = context_of(ctx)
        return ListToolsResult(tools=[mcp_tool(spec) for spec in visible_tools(tctx)])

    async def run_tool(tctx: ToolContext, name: str, arguments: dict[str, Any] | None) -> ToolResult | CallToolResult:
        """``call_tool_output``, with a failure already rendered as a result (or raised as ``-32602``)."""
        try:
            return await call_tool_output(tctx, name, arguments)
        except ServiceError as err:
            if err.code == "unknown_tool":
                raise MCPError(INVALID_PARAMS, f"Unknown tool: {name}", {"code": "unknown_tool"}) from None
            return error_result(err)
        except Exception as exc:  # noqa: BLE001 — call_tool contains its own failures; this guards the glue
            return error_result(internal_error(exc, name, "mcp"))

    async def settled(tctx: ToolContext, data: dict[str, Any], answer: ElicitResult | None) -> CallToolResult:
        """The human's inline answer, settled by the tool layer (accept applies, decline spends the token)."""
        try:
            return success_result(await settle(tctx, data, answer.action if answer is not None else None))
        except ServiceError as err:
            return error_result(err)

    async def propose_inline(
        ctx: ServerRequestContext[Any, Any], tctx: ToolContext, spec: ToolSpec, params: CallToolRequestParams
    ) -> CallToolResult | InputRequiredResult:
        """``propose_<tool>`` for a client that elicits: ask the human inline (see the Handlers above)."""
        modern = is_version_at_least(ctx.protocol_version, MRTR_VERSION)
        if modern and params.request_state is not None:
            # The retry of our own InputRequiredResult: the boundary has verified and unsealed the state.
            try:
                data = json.loads(params.request_state)["proposal"]
                assert isinstance(data, dict)
            except (ValueError, KeyError, TypeError, AssertionError):
                raise MCPError(INVALID_PARAMS, "invalid_argument: requestState is not ours") from None
            response = (params.input_responses or {}).get(CONFIRM_INPUT_KEY)
            return await settled(tctx, data, response if isinstance(response, ElicitResult) else None)
        output = await run_tool(tctx, params.name, params.arguments)
        if isinstance(output, CallToolResult):
            return output
        data = output.data
        request = ElicitRequestFormParams(message=confirmation_message(data), requested_schema=CONFIRM_SCHEMA)
        if modern:
            return InputRequiredResult(
                input_requests={CONFIRM_INPUT_KEY: ElicitRequest(params=request)},
                request_state=json.dumps({"proposal": data}, ensure_ascii=False, separators=(",", ":")),
            )
        if not ctx.session.can_send_request:
            return success_result(data)
        answer: ElicitResult | None = None
        wait = runtime.confirmations.ttl_s if runtime.confirmations is not None else 300
        try:
            with anyio.move_on_after(wait):
                answer = await ctx.session.elicit_form(
                    request.message, CONFIRM_SCHEMA, related_request_id=ctx.request_id
                )
        except Exception as exc:  # noqa: BLE001 — a client that cannot confirm inline gets the two-step proposal
            log.info("inline confirmation of %s not answered (%s)", params.name, type(exc).__name__)
        return await settled(tctx, data, answer)

    async def handle_call(
        ctx: ServerRequestContext[Any, Any], params: CallToolRequestParams
    ) -> CallToolResult | InputRequiredResult:
        tctx = context_of(ctx)
        spec = runtime.registry.get(params.name)
        if spec is not None and spec.kind is ToolKind.PROPOSE and Scope.MCP in spec.scopes and _client_elicits(ctx):
            return await propose_inline(ctx, tctx, spec, params)
        output = await run_tool(tctx, params.name, params.arguments)
        if isinstance(output, CallToolResult):
            return output
        return success_result(output.data, spec, output.parts, ctx.protocol_version)

    def input_schema_of(name: str) -> dict[str, Any] | None:
        # Used by the SDK for 2026-07-28 ``Mcp-Param-*`` header checks, so it need not run tools/list.
        spec = runtime.registry.get(name)
        return spec.input_schema if spec is not None and Scope.MCP in spec.scopes else None

    resources = ResourceHandlers(context_of)
    prompts = PromptHandlers(context_of)
    completion = CompletionHandler(context_of)
    server: Server[Any] = Server(
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
    # Seals the requestState of our inline confirmations (2026-07-28): AES-GCM under a per-process key, bound to
    # the caller, the method, the tool and its arguments, and valid as long as a confirmation token.
    ttl = float(runtime.confirmations.ttl_s if runtime.confirmations is not None else 300)
    server.middleware.append(
        RequestStateBoundary(RequestStateSecurity.ephemeral(ttl=ttl), default_audience=SERVER_NAME)
    )
    return server
