"""``call_tool``: the single entry every front uses to run a tool.

Order, and the only place each step lives: look up → scope → rate limit → validate arguments → vault
access → destructive switch → confirmation → run → redact → size budget → audit.

Confirmation (issue 4 item 4): a ``write``/``dangerous`` tool runs only with ``ctx.confirmed`` (REST after the
user's own action, the in-app Apply card) or through its derived pair: ``propose_<tool>`` runs the planner and
issues a token (:class:`~obsigate.tools.confirm.ConfirmationService`), ``apply_<tool>`` redeems it and runs the
tool with ``confirmed=True`` and ``expected_reads`` = the proposal's reads. Both steps are rate-limited and
audited like any call (``action`` ``ai_tool_propose`` / ``ai_tool_apply``, with ``paths`` and the ``proposal``
id; the application also with the ``backups`` the tool reported).
"""

from __future__ import annotations

import dataclasses
import inspect
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
from pydantic import BaseModel, ValidationError

from obsigate.domain.redaction import redact_payload
from obsigate.domain.text import has_lone_surrogate
from obsigate.services.errors import BadRequest, Conflict, Forbidden, NotFound, Unavailable, ServiceError
from obsigate.services.mutations import Proposal
from obsigate.tools.audit import AuditEvent, summarize_args
from obsigate.tools.budget import fit_to_budget
from obsigate.tools.confirm import ConfirmationService
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import PROPOSE_PREFIX, SECRET_RESULT_FIELDS, Risk, Scope, ToolKind, ToolSpec

_MODE_SCOPE = {"mcp": Scope.MCP, "in_app": Scope.IN_APP}
#: Fronts where a model picks the tools: they see ``propose_``/``apply_``, never a raw write tool, and the
#: per-vault ``aiDestructiveTools`` switch applies to every dangerous call.
MODEL_MODES = frozenset({"mcp", "in_app"})
_ACTIONS = {ToolKind.TOOL: "ai_tool_call", ToolKind.PROPOSE: "ai_tool_propose", ToolKind.APPLY: "ai_tool_apply"}
T = TypeVar("T")


def visible_tools(ctx: ToolContext) -> list[ToolSpec]:
    """Tools this caller may use on this front (MCP ``tools/list`` shows exactly these).

    On the model-facing fronts (``mcp``, ``in_app``) a ``write``/``dangerous`` tool is replaced by its
    ``propose_``/``apply_`` pair (registered right after it); calling it directly there answers
    ``confirmation_required``. A caller with no vault at all sees only ``list_vaults``-style tools that take
    no vault (an ``apply_`` tool counts as taking its tool's vault).
    """
    scope = _MODE_SCOPE.get(ctx.mode)
    specs = list(ctx.runtime.registry) if scope is None else ctx.runtime.registry.for_scope(scope)
    if ctx.mode in MODEL_MODES:
        specs = [s for s in specs if s.kind is not ToolKind.TOOL or s.risk is Risk.READ]
    if ctx.allowed_vaults is not None and not ctx.workspace.accessible(ctx.allowed_vaults):
        specs = [s for s in specs if not s.takes_vault]
    return specs


def _validation_error(exc: ValidationError) -> ServiceError:
    problems = [
        {"field": ".".join(str(p) for p in err["loc"]) or "(arguments)", "problem": err["msg"]}
        for err in exc.errors(include_url=False, include_input=False)
    ]
    summary = "; ".join(f"{p['field']}: {p['problem']}" for p in problems[:5])
    return BadRequest(
        message=f"invalid arguments: {summary}", hint="check the tool's input schema", details={"errors": problems}
    )


@dataclass(slots=True)
class _Note:
    """What a call learns for its audit record while it runs (the vault of an ``apply_``, paths, ids)."""

    vault: str | None
    args: dict[str, Any]
    action: str = "ai_tool_call"
    paths: list[str] | None = None
    proposal: str | None = None
    backups: list[str] | None = None


@asynccontextmanager
async def _audited(ctx: ToolContext, name: str, args: Any) -> AsyncIterator[_Note]:
    """Map failures to :class:`ServiceError` and append one audit record, however the block ends."""
    started = time.perf_counter()
    vault = args.get("vault") if isinstance(args, dict) and isinstance(args.get("vault"), str) else None
    note = _Note(vault=vault, args=summarize_args(args) if isinstance(args, dict) else {})
    result_code = "ok"
    try:
        yield note
    except ServiceError as exc:
        result_code = exc.code
        raise
    except Exception as exc:  # noqa: BLE001 — the one place unexpected errors are contained
        result_code = "internal_error"
        raise ServiceError(code="internal_error", message=f"{name} failed unexpectedly ({type(exc).__name__})") from exc
    finally:
        if ctx.runtime.audit is not None:
            ctx.runtime.audit.record(
                AuditEvent(
                    user=ctx.principal.name,
                    auth_kind=ctx.principal.auth_kind,
                    mode=ctx.mode,
                    tool=name,
                    vault=note.vault,
                    args=note.args,
                    result=result_code,
                    duration_ms=round((time.perf_counter() - started) * 1000, 2),
                    action=note.action,
                    paths=note.paths,
                    proposal=note.proposal,
                    backups=note.backups,
                )
            )


def _rate_limit(ctx: ToolContext, name: str) -> None:
    if ctx.runtime.limiter is not None:
        ctx.runtime.limiter.hit(ctx.principal.name, name)  # per user: a new token is not a new budget


def _check_destructive(ctx: ToolContext, spec: ToolSpec, vault: str | None) -> None:
    """The per-vault ``aiDestructiveTools`` switch: a dangerous tool (or its propose/apply step) on a vault where
    it is off fails with ``destructive_tools_disabled``. Raw dangerous calls from REST (the user's own action)
    are not AI tool calls and are left to the services."""
    if spec.risk is not Risk.DANGEROUS and not (spec.origin is not None and spec.origin.risk is Risk.DANGEROUS):
        return
    if spec.kind is ToolKind.TOOL and ctx.mode not in MODEL_MODES:
        return
    if vault and ctx.workspace.destructive.get(vault, True) is False:
        raise Forbidden(
            code="destructive_tools_disabled", message=f"dangerous tools (rename, move, replace, delete) are turned off for vault {vault!r}",
            hint="an administrator can turn on aiDestructiveTools for this vault; non-destructive tools still work",
        )


async def _invoke(func: Callable[..., Any], ctx: ToolContext, args: BaseModel) -> Any:
    if inspect.iscoroutinefunction(func):
        return await func(ctx, args)
    return await anyio.to_thread.run_sync(func, ctx, args)


def _confirmations(ctx: ToolContext) -> ConfirmationService:
    service = ctx.runtime.confirmations
    if service is None:
        raise Unavailable(message="confirmations are not configured on this server")
    return service


def _finish(ctx: ToolContext, spec: ToolSpec, out: Any) -> dict[str, Any]:
    data = redact_payload(spec.result_model.model_validate(out).model_dump(mode="json"))
    return fit_to_budget(data, ctx.workspace.limits.budget_chars)


def _backup_ids(data: dict[str, Any]) -> list[str] | None:
    """Backup ids a write tool's result reports: ``backup_id`` (str) or ``backups`` (ids, or ``{"path",
    "version"}`` objects, given as ``path@version``)."""
    ids: list[str] = []
    if isinstance(data.get("backup_id"), str):
        ids.append(data["backup_id"])
    for item in data.get("backups") or []:
        if isinstance(item, str):
            ids.append(item)
        elif isinstance(item, dict) and isinstance(item.get("version"), str):
            ids.append(f"{item['path']}@{item['version']}" if isinstance(item.get("path"), str) else item["version"])
    return ids or None


def _diff_paths(diffs: list[dict[str, Any]]) -> list[str]:
    paths: list[str] = []
    for d in diffs:
        for key in ("path", "to"):
            if isinstance(d.get(key), str) and d[key] not in paths:
                paths.append(d[key])
    return paths


async def _propose(ctx: ToolContext, spec: ToolSpec, parsed: BaseModel, note: _Note) -> dict[str, Any]:
    """``propose_<tool>``: plan (changing nothing), store the proposal, return it with its token."""
    base = spec.origin
    assert base is not None and base.planner is not None
    service = _confirmations(ctx)
    proposal = await _invoke(base.planner, ctx, parsed)
    if not isinstance(proposal, Proposal):
        raise TypeError(f"planner of {base.name} returned {type(proposal).__name__}, not a Proposal")
    vault = getattr(parsed, "vault", None)
    diffs = [dict(d) for d in proposal.diffs]
    note.paths = _diff_paths(diffs)
    issued = await anyio.to_thread.run_sync(
        lambda: service.issue(
            user=ctx.principal.name,
            tool=base.name,
            vault=vault,
            # only the fields the caller set: a tool that looks at ``model_fields_set`` (``exclude_unset``)
            # sees on apply exactly what it saw on propose
            args=parsed.model_dump(mode="json", by_alias=True, exclude_unset=True),
            reads=dict(proposal.reads),
            paths=note.paths,
        )
    )
    note.proposal = issued.jti
    data = spec.result_model.model_validate(
        {
            "status": "proposed",
            "tool": base.name,
            "vault": vault,
            "summary": proposal.summary,
            "diffs": diffs,
            "details": proposal.details,
            "expires_at": issued.expires_at_iso,
            "expires_in": issued.expires_in,
        }
    ).model_dump(mode="json")
    # The token must survive redaction (it is JWT-shaped) and the size budget whole: set it aside, shrink the
    # rest to the budget minus its length, put it back.
    data = fit_to_budget(redact_payload(data), max(1000, ctx.workspace.limits.budget_chars - len(issued.token) - 40))
    data["confirmation_token"] = issued.token
    return data


async def _apply(ctx: ToolContext, spec: ToolSpec, args: dict[str, Any], note: _Note) -> dict[str, Any]:
    """``apply_<tool>``: redeem the token (single use), re-check access, run the tool on the proposal."""
    base = spec.origin
    assert base is not None
    note.args = {"confirmation_token": "<withheld>"} if "confirmation_token" in args else note.args
    try:
        token = spec.args_model.model_validate(args).confirmation_token  # type: ignore[attr-defined]
    except ValidationError as exc:
        raise _validation_error(exc) from None
    service = _confirmations(ctx)
    redeemed = await anyio.to_thread.run_sync(lambda: service.redeem(token, user=ctx.principal.name, tool=base.name))
    note.vault, note.paths, note.proposal = redeemed.vault or None, redeemed.paths, redeemed.jti
    note.args = summarize_args(redeemed.args)
    try:
        parsed = base.args_model.model_validate(redeemed.args)
    except ValidationError:
        raise BadRequest(
            code="invalid_confirmation", message="the proposal no longer matches the tool's arguments",
            hint=f"call propose_{base.name} again",
            details={"reason": "args_mismatch"},
        ) from None
    if redeemed.vault:
        ctx.workspace.get_vault(redeemed.vault, ctx.allowed_vaults)
    _check_destructive(ctx, spec, redeemed.vault)
    run_ctx = dataclasses.replace(ctx, confirmed=True, expected_reads=dict(redeemed.reads))
    data = _finish(ctx, base, await _invoke(base.func, run_ctx, parsed))
    note.backups = _backup_ids(data)
    return data


async def call_tool(ctx: ToolContext, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """Run tool ``name`` for ``ctx`` and return its structured result (a JSON-safe dict).

    ``propose_<tool>`` returns ``{"status": "proposed", "tool", "vault", "summary", "diffs", "details",
    "confirmation_token", "expires_at", "expires_in", "truncated", "notice"}``; ``apply_<tool>`` returns the
    tool's own result. ``confirmation_token`` is a credential (``registry.SECRET_RESULT_FIELDS``): it is exempt
    from redaction and the size budget, and the in-app agent must strip it from model prompts
    (``tools.confirm.strip_secret_fields``).

    Raises:
        ServiceError: every failure, with a stable code — ``unknown_tool``, ``invalid_argument``,
            ``vault_access_denied``, ``not_found``, ``path_outside_vault``, ``rate_limited``,
            ``confirmation_required`` (a write tool without confirmation), ``destructive_tools_disabled``,
            ``invalid_confirmation``, ``token_reused``, ``forbidden`` (another user's token), ``conflict`` (a
            file changed since the proposal), ... Unexpected exceptions become ``internal_error`` (logged in
            the audit trail, never with a traceback to the caller).
    """
    args = arguments if arguments is not None else {}
    async with _audited(ctx, name, args) as note:
        spec = ctx.runtime.registry.get(name)
        scope = _MODE_SCOPE.get(ctx.mode)
        if spec is None or (scope is not None and scope not in spec.scopes):
            raise NotFound(code="unknown_tool", message=f"no tool named {name!r}", hint="list the tools to see their names")
        note.action = _ACTIONS[spec.kind]
        if not isinstance(args, dict):
            raise BadRequest(message="arguments must be a JSON object")
        if has_lone_surrogate(args):
            raise BadRequest(message="arguments must be valid Unicode text (a lone surrogate was sent)")
        _rate_limit(ctx, name)
        if spec.kind is ToolKind.APPLY:
            return await _apply(ctx, spec, args, note)
        try:
            parsed = spec.args_model.model_validate(args)
        except ValidationError as exc:
            raise _validation_error(exc) from None
        vault = getattr(parsed, "vault", None)
        if isinstance(vault, str):
            ctx.workspace.get_vault(vault, ctx.allowed_vaults)
        _check_destructive(ctx, spec, vault if isinstance(vault, str) else None)
        if spec.kind is ToolKind.PROPOSE:
            return await _propose(ctx, spec, parsed, note)
        if spec.risk is not Risk.READ and not ctx.confirmed:
            derived = ctx.runtime.registry.get(f"{PROPOSE_PREFIX}{name}")
            raise Conflict(
                code="confirmation_required", message=f"{name} changes the vault and must be confirmed",
                hint=f"call propose_{name} first, then apply_{name} with its confirmation_token"
                if derived is not None
                else "this front cannot confirm it; use the web app",
            )
        data = _finish(ctx, spec, await _invoke(spec.func, ctx, parsed))
        if spec.risk is not Risk.READ:
            note.backups = _backup_ids(data)
        return data


async def call_operation(ctx: ToolContext, name: str, args: dict[str, Any], work: Callable[[], T]) -> T:
    """Run a front's own operation that is not a registry tool (e.g. an HTTP file download) under the same
    rate limit, error mapping and audit as :func:`call_tool`. ``work`` is sync and runs in a worker thread;
    it must check vault access itself (the services it calls do).

    Raises:
        ServiceError: as :func:`call_tool`.
    """
    async with _audited(ctx, name, args):
        _rate_limit(ctx, name)
        return await anyio.to_thread.run_sync(work)


__all__ = ["MODEL_MODES", "SECRET_RESULT_FIELDS", "call_operation", "call_tool", "visible_tools"]
