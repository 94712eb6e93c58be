"""MCP ``completion/complete`` over the tool layer's completion (:mod:`obsigate.tools.completion`), for
prompt arguments and the file template ``vault://{name}/{+path}`` (MCP 2025-11-25
``server/utilities/completion``; unchanged in 2026-07-28).

Results hold at most 100 values (§Completion Results) with ``total`` = every match and ``hasMore``. Errors
(§Error Handling): an unknown prompt, template or argument, and ``rate_limited`` (with ``data.retry_after``),
are ``-32602`` with ``data.code``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp import MCPError
from mcp.server.context import ServerRequestContext
from mcp_types import INVALID_PARAMS, CompleteRequestParams, CompleteResult, Completion, PromptReference

from obsigate.tools.api import COMPLETIONS_PER_MINUTE, MAX_VALUES, ServiceError, ToolContext, ToolRateLimiter, complete

__all__ = ["CompletionHandler"]

ContextOf = Callable[[ServerRequestContext[Any, Any]], ToolContext]


class CompletionHandler:
    """The ``completion/complete`` handler for one server, with its own per-user rate limiter (a client may
    ask on every keystroke, so completions do not spend the tool-call budget)."""

    def __init__(self, context_of: ContextOf, limiter: ToolRateLimiter | None = None) -> None:
        self.context_of = context_of
        self.limiter = limiter if limiter is not None else ToolRateLimiter(COMPLETIONS_PER_MINUTE, 60)

    async def complete(self, ctx: ServerRequestContext[Any, Any], params: CompleteRequestParams) -> CompleteResult:
        """``completion/complete``: at most 100 ranked values with ``total`` and ``hasMore``.

        Raises:
            MCPError: ``-32602`` with ``data.code`` (see the module docstring).
        """
        ref = params.ref
        ref_type, ref_name = ("ref/prompt", ref.name) if isinstance(ref, PromptReference) else ("ref/resource", ref.uri)
        context = (params.context.arguments if params.context is not None else None) or {}
        try:
            values = await complete(
                self.context_of(ctx), ref_type, ref_name, params.argument.name, params.argument.value, context,
                limiter=self.limiter,
            )  # fmt: skip
        except ServiceError as exc:
            data: dict[str, Any] = {"code": exc.code, **exc.details}
            if exc.hint:
                data["hint"] = exc.hint
            if exc.error_id:
                data["error_id"] = exc.error_id
            message = f"Unknown prompt: {ref_name}" if exc.code == "unknown_prompt" else f"{exc.code}: {exc.message}"
            raise MCPError(INVALID_PARAMS, message, data) from None
        return CompleteResult(
            completion=Completion(values=values[:MAX_VALUES], total=len(values), has_more=len(values) > MAX_VALUES)
        )
