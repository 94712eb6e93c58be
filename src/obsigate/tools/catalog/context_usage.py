"""The context gauge as a tool: get_context_usage (issue 21 item 5).

The in-app assistant's model asks how full its conversation is (the run's conversation: ``ctx.session_id``);
the web app's gauge reads the same through REST (``GET /api/ai/conversations/{id}/context``, which names the
conversation). Another person's conversation, or an id that is none, is ``not_found``; a call outside any
assistant conversation gets ``source: "none"`` and a notice.

In-app only: an MCP client's context lives in the client, which this server never sees, so over MCP the tool
would answer "none" to every session while its definition (about 1,000 characters) cost every MCP client's
context, and pushed ``tools/list`` over its 50k target (tests/tools/test_tool_definitions_size.py). An MCP
client that wants an assistant conversation's gauge reads it over REST. The figures and their
rules: ``agent/gauge.py``, docs/assistant.md "Context gauge".
"""

from __future__ import annotations

from typing import Any, Literal

import anyio
from pydantic import Field

from obsigate.services.errors import NotFound
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Scope, ToolArgs, ToolOutput, tool

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 47


#: The longest conversation id the tool takes (the assistant's ids are far shorter).
MAX_CONVERSATION_ID = 64


class ContextUsageArgs(ToolArgs):
    conversation_id: str | None = Field(
        None, min_length=1, max_length=MAX_CONVERSATION_ID, description="Default: this conversation."
    )


class ContextUsageResult(ToolOutput):
    """``used``: tokens of the next request; ``total`` = ``used`` + ``reserved`` (room for the answer); ``percent``
    of ``window``; ``source``: ``provider`` (the last call's real count), ``estimate`` or ``none``; ``encoding``:
    the offline tokenizer's (``cl100k_base``). ``breakdown``:
    ``system_prompt``, ``tool_definitions``, ``context_files``, ``history``, ``tool_results``, ``reserved`` (sum:
    ``total``); ``last_usage`` and each of ``totals`` (per model): ``provider``, ``model``, ``calls``,
    ``prompt_tokens``, ``completion_tokens``, ``cached_tokens``."""

    conversation_id: str | None = None
    provider: str | None = None
    model: str | None = None
    window: int = 0
    used: int = 0
    reserved: int = 0
    total: int = 0
    percent: float = 0.0
    level: Literal["ok", "warn70", "warn85", "warn95"] = "ok"
    source: Literal["provider", "estimate", "none"] = "none"
    breakdown: dict[str, int] | None = None
    last_usage: dict[str, Any] | None = None
    totals: list[dict[str, Any]] = Field(default_factory=list)
    encoding: str | None = None


_NONE = "no assistant conversation here: name a conversation_id"


@tool(
    "get_context_usage",
    title="Context usage",
    label=("Jauge de contexte consultée", "Context usage checked"),
    scopes=(Scope.IN_APP,),
)
async def get_context_usage(ctx: ToolContext, args: ContextUsageArgs) -> ContextUsageResult:
    """How full the assistant conversation's context window is: tokens used, window, parts, per-model usage."""
    gauge, user = ctx.runtime.context_gauge, ctx.principal.name
    if gauge is None:
        if args.conversation_id is not None:
            raise NotFound("no such conversation", hint="this server runs no assistant")
        return ContextUsageResult(notice=_NONE)
    cid = args.conversation_id or await anyio.to_thread.run_sync(gauge.conversation_of, user, ctx.session_id)
    if cid is None:
        return ContextUsageResult(notice=_NONE)
    return ContextUsageResult.model_validate(await anyio.to_thread.run_sync(gauge.report, user, cid))
