"""``call_tool``: the single entry every front uses to run a tool.

Order, and the only place each step lives: look up → scope → rate limit → validate arguments → vault
access (checked once; the tool gets the resolved vault on its context) → destructive switch → locate (a path
sent back as a reader was shown it, a name holding a secret redacted: ``pipeline.locate_paths``) →
confirmation → run → redact → size budget → journal row (an ``intent`` row before a change runs).

Confirmation (issue 4 item 4): a ``write``/``dangerous`` tool runs only with ``ctx.confirmed`` (REST after the
user's own action, the in-app Apply card) or through its derived pair: ``propose_<tool>`` runs the planner and
issues a token (:class:`~obsigate.tools.confirm.store.ConfirmationService`), ``apply_<tool>`` redeems it and runs the
tool with ``confirmed=True`` and ``expected_reads`` = the proposal's reads. Both steps are rate-limited and
audited like any call (``action`` ``ai_tool_propose`` / ``ai_tool_apply``, with ``paths`` and the ``proposal``
id; the application also with the ``backups`` the tool reported).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

from obsigate.services.errors import Conflict, NotFound
from obsigate.tools.confirm import flow as confirmations
from obsigate.tools.context import ToolContext
from obsigate.tools.door import DEFAULT_LIMITER, Call, before_change, door, invoke
from obsigate.tools.kinds import KINDS, OPERATIONS, Kind
from obsigate.tools.parts import ToolResult, build_parts
from obsigate.tools.pipeline import (
    MODEL_MODES,
    Permit,
    backups_of,
    finish,
    grant,
    locate_paths,
    names_redacted_path,
    parse,
    permit,
)
from obsigate.tools.registry import PROPOSE_PREFIX, SECRET_RESULT_FIELDS, Risk, Scope, ToolKind, ToolSpec

# Model-facing fronts only; "rest", "web" (the web app) and "cli" see every tool, their writes confirmed by a person.
_MODE_SCOPE = {"mcp": Scope.MCP, "in_app": Scope.IN_APP}
_ACTIONS = {ToolKind.TOOL: "ai_tool_call", ToolKind.PROPOSE: "ai_tool_propose", ToolKind.APPLY: "ai_tool_apply"}


def visible_tools(ctx: ToolContext) -> list[ToolSpec]:
    """Tools this caller may use on this front (MCP ``tools/list`` shows exactly these).

    On the model-facing fronts (``mcp``, ``in_app``) a ``write``/``dangerous`` tool is replaced by its
    ``propose_``/``apply_`` pair (registered right after it); calling it directly there answers
    ``confirmation_required``. A caller with no vault at all sees only ``list_vaults``-style tools that take
    no vault (an ``apply_`` tool counts as taking its tool's vault).
    """
    scope = _MODE_SCOPE.get(ctx.mode)
    specs = list(ctx.runtime.registry) if scope is None else ctx.runtime.registry.for_scope(scope)
    specs = [s for s in specs if _available(ctx, s)]
    if ctx.mode in MODEL_MODES:
        specs = [s for s in specs if s.kind is not ToolKind.TOOL or s.risk is Risk.READ]
    if ctx.allowed_vaults is not None and not ctx.workspace.accessible(ctx.allowed_vaults):
        specs = [s for s in specs if not s.takes_vault]
    return specs


def offered_tools(ctx: ToolContext, vault: str | None = None) -> list[ToolSpec]:
    """The tools the in-app assistant offers its model: every declared ``in_app`` tool under its own name,
    write tools included (the agent runs a write as ``propose_<tool>`` and applies it once the person agrees),
    never the ``propose_``/``apply_`` pairs MCP clients see. Dangerous tools are left out when
    ``aiDestructiveTools`` is off for ``vault`` (the run's vault) or, with no vault, for every vault the caller
    may use; :func:`~obsigate.tools.pipeline.permit` still refuses them per call. A caller with no vault sees
    only tools that take none.
    """
    specs = [s for s in ctx.runtime.registry.for_scope(Scope.IN_APP) if s.kind is ToolKind.TOOL and _available(ctx, s)]
    ws = ctx.workspace
    vaults = [vault] if vault else ws.accessible(ctx.allowed_vaults)
    if vaults and all(ws.destructive.get(v, True) is False for v in vaults):
        specs = [s for s in specs if s.risk is not Risk.DANGEROUS]
    if ctx.allowed_vaults is not None and not ws.accessible(ctx.allowed_vaults):
        specs = [s for s in specs if not s.takes_vault]
    return specs


def _available(ctx: ToolContext, spec: ToolSpec) -> bool:
    """Whether the server is configured for ``spec`` (``ToolSpec.available``; web_search needs a search engine)."""
    return spec.available is None or bool(spec.available(ctx.runtime))


def find_tool(ctx: ToolContext, name: str, *, front_call: bool = False) -> ToolSpec:
    """The spec of ``name`` as offered on ``ctx``'s front (``front_call``: any registered tool, see
    :func:`call_tool`).

    Raises:
        NotFound: ``unknown_tool``.
    """
    spec = ctx.runtime.registry.get(name)
    scope = None if front_call else _MODE_SCOPE.get(ctx.mode)
    if spec is None or (scope is not None and scope not in spec.scopes):
        raise NotFound(f"no tool named {name!r}", code="unknown_tool", hint="list the tools to see their names")
    return spec


async def call_tool(
    ctx: ToolContext,
    name: str,
    arguments: dict[str, Any] | None,
    *,
    front_call: bool = False,
    limiter: Any = DEFAULT_LIMITER,
) -> dict[str, Any]:
    """Run tool ``name`` for ``ctx`` and return its structured result (a JSON-safe dict): the ``data`` of
    :func:`call_tool_output`, whose parts it leaves out (not even built)."""
    output = await _call(ctx, name, arguments, front_call=front_call, limiter=limiter, with_parts=False)
    return output.data


async def call_tool_output(
    ctx: ToolContext,
    name: str,
    arguments: dict[str, Any] | None,
    *,
    front_call: bool = False,
    limiter: Any = DEFAULT_LIMITER,
) -> ToolResult:
    """:func:`call_tool` with the result's parts (:mod:`obsigate.tools.parts`): a :class:`ToolResult` whose
    ``data`` is exactly what :func:`call_tool` returns, whose ``parts`` are the result model's ``parts()`` built
    inside the door (images normalised, caps applied, a part over them kept in the caller's file space or named
    by its text line) and whose ``artifacts`` are the files kept. The MCP server, the agent loop and the web
    app's assistant use it; raises as :func:`call_tool`."""
    return await _call(ctx, name, arguments, front_call=front_call, limiter=limiter, with_parts=True)


async def _call(
    ctx: ToolContext,
    name: str,
    arguments: dict[str, Any] | None,
    *,
    front_call: bool,
    limiter: Any,
    with_parts: bool,
) -> ToolResult:
    """Run tool ``name`` for ``ctx`` and return its :class:`ToolResult` (parts only ``with_parts``).

    ``front_call``: the front runs one of its own operations for the person (a web-only tool such as
    ``download_file`` or ``bookslm_context``, ``scopes=()``), not a tool a model picked: the front's scope
    filter does not apply, everything else does (a model's call never sets it, so it never reaches them).
    ``limiter``: the rate limiter to hit (default: the front's; ``None``: none, for a front's bookkeeping read
    that must not spend, nor be refused by, a budget meant for vault calls).

    Each step once, inside :func:`~obsigate.tools.door.door` (argument checks, rate limit, error mapping,
    audit): look up → validate → permit (vault, ``aiDestructiveTools``) → locate (redacted paths) → confirm →
    run → redact → budget.
    The vault grant is checked once, by :func:`~obsigate.tools.pipeline.permit`; the tool (or planner) runs
    with what it resolved on its context: ``ctx.vault`` (the named vault) and ``ctx.scope`` (the vaults the
    call may see).
    ``propose_<tool>`` and ``apply_<tool>`` are run by :mod:`obsigate.tools.confirm.flow`: ``propose_``
    returns ``{"status": "proposed", "tool", "vault", "summary", "diffs", "details", "confirmation_token",
    "expires_at", "expires_in", "truncated", "notice"}``; ``apply_`` the tool's own result.
    ``confirmation_token`` is a credential (``registry.SECRET_RESULT_FIELDS``): exempt from redaction and the
    size budget, and the in-app agent must strip it from model prompts (``confirm.flow.strip_secret_fields``).

    Raises:
        ServiceError: every failure, with a catalogued code — ``unknown_tool``, ``invalid_argument``,
            ``vault_access_denied``, ``not_found``, ``path_outside_vault``, ``rate_limited``,
            ``confirmation_required`` (a write tool without confirmation), ``destructive_tools_disabled``,
            ``invalid_confirmation``, ``token_reused``, ``forbidden`` (another user's token), ``conflict`` (a
            file changed since the proposal), ... Unexpected exceptions become ``internal_error`` (the
            traceback logged on the server under the ``error_id`` the error and the audit record carry, never
            sent to the caller).
    """
    args = arguments if arguments is not None else {}
    found: list[ToolSpec] = []

    def look_up(call: Call) -> None:
        found.append(find_tool(ctx, name, front_call=front_call))
        # a front operation may keep the audit action it always had (the assistant's context: ai_context)
        call.action = getattr(found[0].result_model, "AUDIT_ACTION", None) or _ACTIONS[found[0].kind]

    async def run(call: Call) -> ToolResult:
        spec = found[0]
        if spec.kind is ToolKind.APPLY:
            return ToolResult(await confirmations.apply(ctx, spec, args, call))
        parsed = parse(spec.args_model, args)
        vault = getattr(parsed, "vault", None)
        granted = permit(ctx, spec, vault if isinstance(vault, str) else None)
        run_ctx = dataclasses.replace(ctx, vault=granted.vault, scope=granted.scope)
        if names_redacted_path(parsed, ctx.expected_reads):  # a name shown redacted, sent back as it was shown
            parsed, expected = await invoke(locate_paths, ctx, granted.vault, parsed)
            run_ctx = dataclasses.replace(run_ctx, expected_reads=expected)
        if spec.kind is ToolKind.PROPOSE:
            return ToolResult(await confirmations.propose(run_ctx, spec, parsed, call))
        if spec.risk is not Risk.READ and not ctx.confirmed:
            derived = ctx.runtime.registry.get(f"{PROPOSE_PREFIX}{name}")
            raise Conflict(
                f"{name} changes the vault and must be confirmed",
                code="confirmation_required",
                hint=f"call propose_{name} first, then apply_{name} with its confirmation_token"
                if derived is not None
                else "this front cannot confirm it; use the web app",
            )
        if spec.risk is not Risk.READ:  # a confirmed change: its intent row first, or no change
            await before_change(ctx, call)
        out, data = await _run_finished(ctx, run_ctx, spec, parsed)
        if spec.risk is not Risk.READ:
            call.backups = backups_of(out)
        audit_paths = getattr(spec.result_model, "audit_paths", None)  # a front operation's paths (the context)
        if callable(audit_paths):
            call.paths = audit_paths(data)
        if not with_parts:
            return ToolResult(data)
        declared, exact = _declared_parts(spec, out)
        if not declared:
            return ToolResult(data, exact=exact)
        parts, artifacts = await build_parts(run_ctx, spec, declared)
        call.file_ids = [str(a["file_id"]) for a in artifacts]  # the journal row names them, they name the row
        call.result_file_id = call.file_ids[0] if call.file_ids else None
        return ToolResult(data, parts, artifacts, exact)

    return await _through_door(ctx, name, args, run, before=look_up, limiter=limiter)


def _declared_parts(spec: ToolSpec, out: Any) -> tuple[list[Any], tuple[str, ...]]:
    """``(parts, exact fields)`` ``spec``'s result model declares (its ``parts()`` and ``exact_fields()``
    methods), read off the tool's own result (never the finished dict: the bytes of a part are not in it, and are
    never redacted); ``([], ())`` without them."""
    if not callable(getattr(spec.result_model, "parts", None)):
        return [], ()
    model = out if isinstance(out, spec.result_model) else spec.result_model.model_validate(out)
    exact_fields = getattr(model, "exact_fields", None)
    declared = model.parts()  # type: ignore[attr-defined]  # checked above: the model declares parts
    return list(declared or ()), tuple(exact_fields()) if callable(exact_fields) else ()


async def _run_finished(
    ctx: ToolContext, run_ctx: ToolContext, spec: ToolSpec, parsed: Any
) -> tuple[Any, dict[str, Any]]:
    """``(out, finished)``: the tool's own result and :func:`~obsigate.tools.pipeline.finish`'s (validated,
    redacted, cut to the budget). A sync tool and its finish run in one worker thread, an async tool's finish
    in a worker thread after it: a big result's redaction takes milliseconds and never holds the event loop
    (issue 20), at no extra thread hop for the sync tools (most of them)."""
    if inspect.iscoroutinefunction(spec.func):
        out = await spec.func(run_ctx, parsed)
        return out, await anyio.to_thread.run_sync(finish, ctx, spec, out)

    def run_and_finish() -> tuple[Any, dict[str, Any]]:
        out = spec.func(run_ctx, parsed)
        return out, finish(ctx, spec, out)

    return await invoke(run_and_finish)


async def call_operation(
    ctx: ToolContext,
    kind: Kind,
    name: str,
    arguments: dict[str, Any] | None,
    *,
    limiter: Any = DEFAULT_LIMITER,
) -> Any:
    """Run the :class:`~obsigate.tools.kinds.Operation` ``kind``/``name`` (a prompt, a resource, completion) for
    ``ctx`` with the same steps as a tool: inside the door (audited as the kind's ``door_name``/``action``, see
    :data:`~obsigate.tools.kinds.KINDS`; rate-limited by ``limiter``, default the front's) look up → validate
    (``pipeline.parse``) → permit (the vault of its ``vault_arg``: the call's one grant check, put on the
    context) → run. Returns what the operation returns.

    Raises:
        ServiceError: the kind's unknown-name error (``unknown_prompt``, ``not_found``), ``invalid_argument``,
            ``vault_access_denied``, ``rate_limited``, the operation's own errors, ``internal_error``.
    """
    info = KINDS[kind]
    raw = arguments if arguments is not None else {}

    async def run(call: Call) -> Any:
        op = OPERATIONS.get(kind, name)
        if op is None:
            raise info.unknown(name, raw)
        parsed = parse(op.args_model, raw, hint=info.hint)
        vault = getattr(parsed, op.vault_arg, None) if op.vault_arg else None
        granted = grant(ctx, vault) if isinstance(vault, str) else Permit(None, ())
        return await invoke(op.func, dataclasses.replace(ctx, vault=granted.vault, scope=granted.scope), parsed)

    door_args = info.door_args(raw) if info.door_args is not None and isinstance(raw, dict) else raw
    return await _through_door(
        ctx, info.door_name, door_args, run, action=info.action, audit_args=info.audit(name, raw), limiter=limiter
    )


async def _through_door(
    ctx: ToolContext,
    name: str,
    args: Any,
    run: Callable[[Call], Awaitable[Any]],
    **how: Any,
) -> Any:
    """``run(call)`` inside the one door (:func:`~obsigate.tools.door.door` with ``how``): every tool and
    operation enters here."""
    async with door(ctx, name, args, **how) as call:
        call.result = await run(call)
        return call.result


__all__ = [
    "MODEL_MODES",
    "SECRET_RESULT_FIELDS",
    "call_operation",
    "call_tool",
    "call_tool_output",
    "find_tool",
    "offered_tools",
    "visible_tools",
]
