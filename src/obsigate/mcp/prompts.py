"""MCP ``prompts/list`` and ``prompts/get`` over the tool layer's prompts (:mod:`obsigate.tools.prompts`).

Refusals are JSON-RPC errors, as prompts have no ``isError`` channel (MCP 2025-11-25 / 2026-07-28
``server/prompts`` §Error Handling: invalid prompt name or missing required arguments → ``-32602``): every
refusal is ``-32602`` with the ObsiGate code first in the message (``vault_access_denied: ...``) and
``data = {"prompt", "code", ["hint"], ...details}`` (``retry_after`` when rate-limited); an unexpected
failure is ``-32603``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp import MCPError
from mcp.server.context import ServerRequestContext
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    GetPromptRequestParams,
    GetPromptResult,
    ListPromptsResult,
    PaginatedRequestParams,
    Prompt,
    PromptArgument,
    PromptMessage,
    TextContent,
)

from obsigate.tools.api import PROMPTS, PromptSpec, ServiceError, ToolContext, get_prompt, list_prompts

__all__ = ["PromptHandlers", "no_cursor", "to_mcp_prompt"]

ContextOf = Callable[[ServerRequestContext[Any, Any]], ToolContext]


def no_cursor(params: PaginatedRequestParams | None, what: str) -> None:
    """Refuse any cursor: these lists are never paged, so none was issued (MCP utilities/pagination)."""
    if params is not None and params.cursor is not None:
        raise MCPError(INVALID_PARAMS, f"invalid_argument: unknown cursor (the {what} is not paged)")


def to_mcp_prompt(spec: PromptSpec) -> Prompt:
    """The ``Prompt`` listed by ``prompts/list``."""
    args = [PromptArgument(name=a.name, description=a.description, required=a.required) for a in spec.arguments]
    return Prompt(name=spec.name, title=spec.title, description=spec.description, arguments=args)


class PromptHandlers:
    """The ``prompts/*`` handlers for one server. ``context_of(ctx)`` gives the caller's tool context."""

    def __init__(self, context_of: ContextOf, prompts: dict[str, PromptSpec] = PROMPTS) -> None:
        self.context_of = context_of
        self.prompts = prompts

    async def list_prompts(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListPromptsResult:
        """``prompts/list``: see :func:`obsigate.tools.prompts.list_prompts`."""
        no_cursor(params, "prompt list")
        return ListPromptsResult(prompts=[to_mcp_prompt(p) for p in list_prompts(self.context_of(ctx), self.prompts)])

    async def get_prompt(self, ctx: ServerRequestContext[Any, Any], params: GetPromptRequestParams) -> GetPromptResult:
        """``prompts/get``: the prompt's single ``user`` text message.

        Raises:
            MCPError: ``-32602`` for every refusal (see the module docstring), ``-32603`` for a failure.
        """
        try:
            spec, text = await get_prompt(self.context_of(ctx), params.name, params.arguments, self.prompts)
        except ServiceError as exc:
            if exc.code == "internal_error":  # the door logged it under exc.error_id
                raise MCPError(
                    INTERNAL_ERROR, f"internal_error: building the prompt failed unexpectedly (error id {exc.error_id})",
                    {"code": exc.code, "error_id": exc.error_id},
                ) from None  # fmt: skip
            if exc.code == "unknown_prompt":
                raise MCPError(INVALID_PARAMS, f"Unknown prompt: {params.name}", {"code": "unknown_prompt"}) from None
            data: dict[str, Any] = {"prompt": params.name, "code": exc.code, **exc.details}
            if exc.hint:
                data["hint"] = exc.hint
            raise MCPError(INVALID_PARAMS, f"{exc.code}: {exc.message}", data) from None
        return GetPromptResult(
            description=spec.description,
            messages=[PromptMessage(role="user", content=TextContent(type="text", text=text))],
        )
