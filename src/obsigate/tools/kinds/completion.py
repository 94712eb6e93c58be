"""Completion (MCP ``completion/complete``) in the tool layer: suggestions for prompt arguments and for the file resource template
``vault://{name}/{+path}`` (MCP 2025-11-25 ``server/utilities/completion``; unchanged in 2026-07-28).

What is suggested, always only from the vaults the caller may use ("Control access to sensitive
suggestions; prevent completion-based information disclosure", §Security):

* a vault argument (``vault`` of a prompt, ``name`` of the template): the caller's vault names starting with
  the typed value (case-insensitive), in declaration order;
* a path argument: indexed paths of the vault named in ``context.arguments`` (or the caller's only vault) —
  notes for ``find-related``'s ``path``, folders for ``summarize-directory``'s ``path`` and
  ``generate-note``'s ``folder``, any file for the template's ``path``. Ranked: paths starting with the
  typed value, then paths whose last part starts with it, then (from two typed characters) forgiving
  matches (every word in the path, or its letters in order, as ``search_paths``, best score first); within
  the first two groups shallower, then alphabetical first. Paths are matched and suggested as every result
  shows them, a name holding a secret redacted (``services.redacted_paths``: such a suggestion is accepted
  back as a path). A
  vault the caller may not use, or none given, yields no values (never an error that would confirm the
  vault exists). Hidden files are never indexed, so never suggested; empty folders are not suggested;
* any other argument (``topic``): nothing.

Results hold at most 100 values (§Completion Results) with ``total`` = every match and ``hasMore``.
Requests are the :func:`~obsigate.tools.kinds.operation` ``complete``, run like a tool (audited as ``completion/complete``) and are rate-limited per user (§Security: "Implement appropriate rate limiting"): ``COMPLETIONS_PER_MINUTE``, separate from the
tool-call budget since a client may ask on every keystroke; over the limit → ``-32602`` ``rate_limited``
with ``data.retry_after`` in seconds.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

import anyio
from pydantic import BaseModel, ConfigDict

from obsigate.domain.text import has_lone_surrogate
from obsigate.domain.vault import Vault, folders_of, is_note
from obsigate.services.errors import BadRequest, NotFound, ServiceError
from obsigate.services.paths_search import MAX_QUERY_WORDS, path_score
from obsigate.services.redacted_paths import shown_path
from obsigate.services.workspace import Workspace
from obsigate.tools.context import ToolContext
from obsigate.tools.dispatch import call_operation
from obsigate.tools.kinds import OPERATIONS, Kind, operation
from obsigate.tools.kinds.prompts import prompt_arguments
from obsigate.tools.kinds.resources import FILE_TEMPLATE, VAULT_TEMPLATE
from obsigate.tools.pipeline import grant
from obsigate.tools.ratelimit import ToolRateLimiter

__all__ = [
    "COMPLETIONS_PER_MINUTE", "MAX_VALUES", "TEMPLATE_ARGS", "CompleteArgs", "complete", "complete_paths", "complete_vaults", "rank_paths",
]  # fmt: skip

#: Most values in one result (MCP ``Completion.values``: "Must not exceed 100 items").
MAX_VALUES = 100
#: Completion requests a user may make per minute.
COMPLETIONS_PER_MINUTE = 600
#: Forgiving (scattered-letter) matches start at this many typed characters; one letter would match most paths.
MIN_FUZZY_CHARS = 2
#: Typed values longer than this match nothing (no path is longer, see ``services.paths``).
MAX_VALUE_CHARS = 1024

#: Resource templates → {argument: kind}; the vault argument of a template is ``name``.
TEMPLATE_ARGS: dict[str, dict[str, str]] = {
    FILE_TEMPLATE: {"name": "vault", "path": "file"},
    VAULT_TEMPLATE: {"name": "vault"},
}


def complete_vaults(ws: Workspace, allowed: Iterable[str] | None, value: str) -> list[str]:
    """The caller's vault names starting with ``value`` (case-insensitive), in declaration order."""
    prefix = value.lower()
    return [name for name in ws.accessible(allowed) if name.lower().startswith(prefix)]


def _depth_then_name(path: str) -> tuple[int, str, str]:
    return path.count("/"), path.lower(), path


def rank_paths(paths: Iterable[str], value: str) -> list[str]:
    """``paths`` matching ``value``, best first (see the module docstring for the groups). Pure.

    An empty ``value`` matches every path (shallow first, then alphabetical).
    """
    typed = unicodedata.normalize("NFC", value).strip().lstrip("/").lower()  # paths are NFC
    if not typed:
        return sorted(paths, key=_depth_then_name)
    words = typed.split()[:MAX_QUERY_WORDS]
    fuzzy_ok = len(typed.replace(" ", "")) >= MIN_FUZZY_CHARS
    starts, name_starts, fuzzy = [], [], []
    for path in paths:
        low = path.lower()
        if low.startswith(typed):
            starts.append(path)
        elif low.rsplit("/", 1)[-1].startswith(typed):
            name_starts.append(path)
        elif fuzzy_ok and (score := path_score(path, words)) is not None:
            fuzzy.append((-score, path.lower(), path))
    starts.sort(key=_depth_then_name)
    name_starts.sort(key=_depth_then_name)
    fuzzy.sort()
    return starts + name_starts + [p for _, _, p in fuzzy]


def complete_paths(ws: Workspace, vault: Vault, kind: str, value: str) -> list[str]:
    """Ranked completions of ``value`` among ``vault``'s indexed ``kind`` paths (``file``, ``note`` or
    ``folder``). ``vault`` is the resolved vault, already checked against the caller's grants (``_vault``)."""
    if len(value) > MAX_VALUE_CHARS:
        return []
    files = ws.index.file_states(vault.name)
    if kind == "folder":
        candidates: Iterable[str] = folders_of(files)
    elif kind == "note":
        candidates = [p for p in files if is_note(p)]
    else:
        candidates = files
    # matched and suggested as a reader is shown them: a name holding a secret redacted, never spelled out
    return rank_paths({shown_path(p) for p in candidates}, value)


def _arguments_of(ref_type: str, ref_name: str) -> tuple[dict[str, str], str]:
    """``({argument: kind}, name of the vault argument)`` of a prompt (``ref/prompt``) or a template."""
    if ref_type == "ref/prompt":
        op = OPERATIONS.get(Kind.PROMPT, ref_name)
        if op is None:
            raise NotFound(f"no prompt named {ref_name!r}", code="unknown_prompt", hint="see prompts/list")
        return {a.name: a.complete for a in prompt_arguments(op)}, "vault"
    kinds = TEMPLATE_ARGS.get(ref_name)
    if kinds is None:
        raise NotFound(f"no resource template {ref_name!r}", code="unknown_template", hint=f"use {FILE_TEMPLATE}")
    return kinds, "name"


def _vault(ctx: ToolContext, named: str | None) -> Vault | None:
    """The vault to complete paths in, resolved by the request's one grant check: the one named, if the caller
    may use it (``pipeline.grant``); with none named, the caller's only vault (``Workspace.accessible``);
    otherwise ``None`` (never an error that would confirm the vault exists)."""
    ws = ctx.workspace
    if not named:
        mine = ws.accessible(ctx.allowed_vaults)
        return ws.vaults[mine[0]] if len(mine) == 1 else None
    try:
        return grant(ctx, named).vault
    except ServiceError:
        return None


class CompleteArgs(BaseModel):
    """One ``completion/complete`` request: ``ref_type`` (``ref/prompt`` or ``ref/resource``), ``ref`` (the
    prompt's name or the template), the ``argument`` being typed, its ``value`` so far and the ``context``
    (the other arguments already chosen)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    ref_type: str
    ref: str
    argument: str
    value: str
    context: dict[str, str] | None = None


@operation(Kind.COMPLETION, "complete", title="Completion", vault_arg=None)
async def complete_argument(ctx: ToolContext, args: CompleteArgs) -> list[str]:
    """Every ranked suggestion for an argument of a prompt or a resource template (see the module docstring)."""
    kinds, vault_arg = _arguments_of(args.ref_type, args.ref)
    kind = kinds.get(args.argument)
    if kind is None:
        raise BadRequest(
            f"{args.ref_type} has no argument {args.argument!r}", hint="see prompts/list or resources/templates/list"
        )
    context = args.context or {}
    if has_lone_surrogate(args.value) or has_lone_surrogate(context):
        return []  # not text any file or vault name can hold
    if kind == "vault":
        return complete_vaults(ctx.workspace, ctx.allowed_vaults, args.value)
    vault = _vault(ctx, context.get(vault_arg)) if kind != "none" else None
    if vault is None:
        return []
    return await anyio.to_thread.run_sync(complete_paths, ctx.workspace, vault, kind, args.value)


async def complete(
    ctx: ToolContext,
    ref_type: str,
    ref_name: str,
    argument: str,
    value: str,
    context: dict[str, str] | None,
    *,
    limiter: ToolRateLimiter | None,
) -> list[str]:
    """Every ranked suggestion for ``argument`` = ``value`` of prompt (``ref_type`` ``ref/prompt``) or
    template ``ref_name``, given the other arguments already chosen (``context``); the caller keeps the first
    :data:`MAX_VALUES`. Run by :func:`~obsigate.tools.dispatch.call_operation` (audited as
    ``completion/complete``).

    Raises:
        ServiceError: ``unknown_prompt``, ``unknown_template``, ``invalid_argument`` (no such argument),
            ``rate_limited`` (``limiter``: :data:`COMPLETIONS_PER_MINUTE` per user).
    """
    raw = {"ref_type": ref_type, "ref": ref_name, "argument": argument, "value": value, "context": context}
    return await call_operation(ctx, Kind.COMPLETION, "complete", raw, limiter=limiter)
