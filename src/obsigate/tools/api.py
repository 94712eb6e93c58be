"""Public facade of the tool layer: what the transports (REST, MCP, the agent, the CLI) use, and the only
tool-layer module they import besides the error leaf :mod:`obsigate.tools.errors` (``tests/test_architecture.py``).
Importing it registers the catalogue: the fronts that run tools import it; one that only raises or catches an
error imports :mod:`obsigate.tools.errors` and never loads the catalogue.

The small API a front needs to run tools, writes included: ``visible_tools(ctx)`` (what to offer),
``call_tool(ctx, name, args)`` (any tool, ``propose_<tool>`` and ``apply_<tool>`` included) and
``offered_tools(ctx, vault)`` (what the in-app assistant offers its model), ``settle(ctx, proposal, answer)``
(the human's inline answer to a proposal: ``Answer.ACCEPT`` applies it, ``DECLINE`` spends its token,
``CANCEL`` leaves it); ``collect_context(ctx, mode=...)`` (the in-app assistant's BooksLM context);
``strip_secret_fields`` before a result enters a model prompt (the confirmation token is a credential); MCP's
resources, prompts and completion; ``parse`` (a body validated as a tool's arguments are: ``invalid_argument``)."""

from __future__ import annotations

from obsigate.tools import catalog
from obsigate.tools.audit import shown_value
from obsigate.tools.budget import fit_to_budget
from obsigate.tools.catalog.context_usage import MAX_CONVERSATION_ID
from obsigate.tools.confirm.flow import Answer, Proposal, proposal_of, settle, strip_secret_fields
from obsigate.tools.context import ToolContext, ToolRuntime
from obsigate.tools.dispatch import call_tool, call_tool_output, offered_tools, visible_tools
from obsigate.tools.errors import (
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
from obsigate.tools.kinds import Operation
from obsigate.tools.kinds.completion import COMPLETIONS_PER_MINUTE, MAX_VALUES, complete
from obsigate.tools.kinds.prompts import get_prompt, list_prompts, prompt_arguments
from obsigate.tools.kinds.resources import FILE_TEMPLATE, VAULT_TEMPLATE, accessible_vaults, read_resource
from obsigate.tools.operations import (
    FILE_RESOURCE_TEMPLATE,
    collect_context,
    delete_conversation_plan,
    delete_user_file,
    download_file,
    download_user_file,
    expire_session_leftovers,
    list_user_files,
    read_file_resource,
    upload_user_file,
    user_file_info,
    vault_switches,
)
from obsigate.tools.parts import FILE_URI_PREFIX, Part, ToolResult, text_line
from obsigate.tools.pipeline import parse
from obsigate.tools.ratelimit import ToolRateLimiter
from obsigate.tools.registry import REGISTRY, Risk, Scope, ToolKind, ToolSpec

__all__ = [
    "COMPLETIONS_PER_MINUTE",
    "FILE_RESOURCE_TEMPLATE",
    "FILE_TEMPLATE",
    "FILE_URI_PREFIX",
    "MAX_CONVERSATION_ID",
    "MAX_VALUES",
    "REGISTRY",
    "VAULT_TEMPLATE",
    "Answer",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "NotFound",
    "Operation",
    "Part",
    "PayloadTooLarge",
    "Proposal",
    "RateLimited",
    "Risk",
    "Scope",
    "ServiceError",
    "ToolContext",
    "ToolKind",
    "ToolRateLimiter",
    "ToolResult",
    "ToolRuntime",
    "ToolSpec",
    "Unauthenticated",
    "Unavailable",
    "accessible_vaults",
    "call_tool",
    "call_tool_output",
    "collect_context",
    "complete",
    "delete_conversation_plan",
    "delete_user_file",
    "download_file",
    "download_user_file",
    "error_body",
    "expire_session_leftovers",
    "fit_to_budget",
    "get_prompt",
    "internal_error",
    "list_prompts",
    "list_user_files",
    "offered_tools",
    "parse",
    "prompt_arguments",
    "proposal_of",
    "read_file_resource",
    "read_resource",
    "settle",
    "shown_value",
    "strip_secret_fields",
    "text_line",
    "upload_user_file",
    "user_file_info",
    "vault_switches",
    "visible_tools",
]  # fmt: skip

# the catalogue, in tools/list order, after the fronts' own operations (web-only tools, MCP prompts, resources
# and completion: their modules above registered them on import; ``scopes=()`` keeps the tools out of tools/list)
catalog.load()
