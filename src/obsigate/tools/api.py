"""Public facade of the tool layer: importing it registers the catalog and re-exports what the transports
(REST, MCP, the agent, the CLI) use: the entry points and the error tree (transports never import services).

The small API a front needs to run tools, writes included: ``visible_tools(ctx)`` (what to offer),
``call_tool(ctx, name, args)`` (any tool, ``propose_<tool>`` and ``apply_<tool>`` included) and
``offered_tools(ctx, vault)`` (what the in-app assistant offers its model), ``settle(ctx, proposal, answer)``
(the human's inline answer to a proposal: ``Answer.ACCEPT`` applies it, ``DECLINE`` spends its token,
``CANCEL`` leaves it); ``collect_context(ctx, mode=...)`` (the in-app assistant's BooksLM context);
``strip_secret_fields`` before a result enters a model
prompt (the confirmation token is a credential)."""

from __future__ import annotations

from obsigate.services.errors import (
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    ServiceError,
    Unauthenticated,
    Unavailable,
    error_body,
    internal_error,
)
from obsigate.tools import catalog
from obsigate.tools.assistant_context import collect_context
from obsigate.tools.budget import fit_to_budget
from obsigate.tools.confirm.flow import Answer, settle, strip_secret_fields
from obsigate.tools.context import ToolContext, ToolRuntime
from obsigate.tools.dispatch import call_tool, offered_tools, visible_tools
from obsigate.tools.registry import REGISTRY, Risk, Scope, ToolSpec

__all__ = [
    "REGISTRY", "Answer", "BadRequest", "Conflict", "Forbidden", "NotFound", "PayloadTooLarge", "RateLimited", "Risk", "Scope",
    "ServiceError", "ToolContext", "ToolRuntime", "ToolSpec", "Unauthenticated", "Unavailable", "call_tool",
    "collect_context", "error_body", "fit_to_budget", "internal_error", "offered_tools", "settle", "strip_secret_fields",
    "visible_tools",
]  # fmt: skip

catalog.load()  # registers every tool, in tools/list order
