"""``call_tool``: the single entry every front uses to run a tool.

Order, and the only place each step lives: look up → scope → rate limit → validate arguments → vault
access → confirmation → run → redact → size budget → audit.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import anyio
from pydantic import ValidationError

from obsigate.domain.redaction import redact_payload
from obsigate.domain.text import has_lone_surrogate
from obsigate.services.errors import ServiceError
from obsigate.tools.audit import AuditEvent, summarize_args
from obsigate.tools.budget import fit_to_budget
from obsigate.tools.context import ToolContext
from obsigate.tools.errors import ToolError
from obsigate.tools.registry import Risk, Scope, ToolSpec

_MODE_SCOPE = {"mcp": Scope.MCP, "in_app": Scope.IN_APP}
T = TypeVar("T")


def visible_tools(ctx: ToolContext) -> list[ToolSpec]:
    """Tools this caller may use on this front (MCP ``tools/list`` shows exactly these).

    A caller with no vault at all sees only ``list_vaults``-style tools that take no vault.
    """
    scope = _MODE_SCOPE.get(ctx.mode)
    specs = list(ctx.runtime.registry) if scope is None else ctx.runtime.registry.for_scope(scope)
    if ctx.allowed_vaults is not None and not ctx.workspace.accessible(ctx.allowed_vaults):
        specs = [s for s in specs if "vault" not in s.args_model.model_fields]
    return specs


def _validation_error(exc: ValidationError) -> ToolError:
    problems = [
        {"field": ".".join(str(p) for p in err["loc"]) or "(arguments)", "problem": err["msg"]}
        for err in exc.errors(include_url=False, include_input=False)
    ]
    summary = "; ".join(f"{p['field']}: {p['problem']}" for p in problems[:5])
    return ToolError(
        "invalid_argument", f"invalid arguments: {summary}", hint="check the tool's input schema", details={"errors": problems}
    )


@asynccontextmanager
async def _audited(ctx: ToolContext, name: str, args: Any) -> AsyncIterator[None]:
    """Map failures to :class:`ToolError` and append one audit record, however the block ends."""
    started = time.perf_counter()
    vault = args.get("vault") if isinstance(args, dict) and isinstance(args.get("vault"), str) else None
    result_code = "ok"
    try:
        yield
    except ServiceError as exc:
        result_code = exc.code
        raise ToolError.from_service(exc) from None
    except ToolError as exc:
        result_code = exc.code
        raise
    except Exception as exc:  # noqa: BLE001 — the one place unexpected errors are contained
        result_code = "internal_error"
        raise ToolError("internal_error", f"{name} failed unexpectedly ({type(exc).__name__})", http_status=500) from exc
    finally:
        if ctx.runtime.audit is not None:
            ctx.runtime.audit.record(
                AuditEvent(
                    user=ctx.principal.name,
                    auth_kind=ctx.principal.auth_kind,
                    mode=ctx.mode,
                    tool=name,
                    vault=vault,
                    args=summarize_args(args) if isinstance(args, dict) else {},
                    result=result_code,
                    duration_ms=round((time.perf_counter() - started) * 1000, 2),
                )
            )


def _rate_limit(ctx: ToolContext, name: str) -> None:
    if ctx.runtime.limiter is not None:
        ctx.runtime.limiter.hit(ctx.principal.name, name)  # per user: a new token is not a new budget


async def call_tool(ctx: ToolContext, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
    """Run tool ``name`` for ``ctx`` and return its structured result (a JSON-safe dict).

    Raises:
        ToolError: every failure, with a stable code — ``unknown_tool``, ``invalid_argument``,
            ``vault_access_denied``, ``not_found``, ``path_outside_vault``, ``rate_limited``,
            ``confirmation_required``, ... Unexpected exceptions become ``internal_error`` (logged in
            the audit trail, never with a traceback to the caller).
    """
    args = arguments if arguments is not None else {}
    async with _audited(ctx, name, args):
        spec = ctx.runtime.registry.get(name)
        scope = _MODE_SCOPE.get(ctx.mode)
        if spec is None or (scope is not None and scope not in spec.scopes):
            raise ToolError("unknown_tool", f"no tool named {name!r}", hint="list the tools to see their names", http_status=404)
        if not isinstance(args, dict):
            raise ToolError("invalid_argument", "arguments must be a JSON object")
        if has_lone_surrogate(args):
            raise ToolError("invalid_argument", "arguments must be valid Unicode text (a lone surrogate was sent)")
        _rate_limit(ctx, name)
        try:
            parsed = spec.args_model.model_validate(args)
        except ValidationError as exc:
            raise _validation_error(exc) from None
        if isinstance(getattr(parsed, "vault", None), str):
            ctx.workspace.get_vault(parsed.vault, ctx.allowed_vaults)
        if spec.risk is not Risk.READ and not ctx.confirmed:
            raise ToolError(
                "confirmation_required",
                f"{name} changes the vault and must be confirmed",
                hint=f"call propose_{name} first, then apply_{name} with its confirmation_token",
                http_status=409,
            )
        if spec.is_async:
            out = await spec.func(ctx, parsed)
        else:
            out = await anyio.to_thread.run_sync(spec.func, ctx, parsed)
        data = redact_payload(spec.result_model.model_validate(out).model_dump(mode="json"))
        return fit_to_budget(data, ctx.workspace.limits.budget_chars)


async def call_operation(ctx: ToolContext, name: str, args: dict[str, Any], work: Callable[[], T]) -> T:
    """Run a front's own operation that is not a registry tool (e.g. an HTTP file download) under the same
    rate limit, error mapping and audit as :func:`call_tool`. ``work`` is sync and runs in a worker thread;
    it must check vault access itself (the services it calls do).

    Raises:
        ToolError: as :func:`call_tool`.
    """
    async with _audited(ctx, name, args):
        _rate_limit(ctx, name)
        return await anyio.to_thread.run_sync(work)
