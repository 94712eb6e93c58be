"""The steps of one tool call, each done once: validate the arguments, permit (vault access and the
``aiDestructiveTools`` switch), run the function, finish the result (redaction, then the size budget).

:func:`obsigate.tools.dispatch.call_tool` and the confirmation flow (:mod:`obsigate.tools.confirmations`)
compose them inside :func:`obsigate.tools.door.door`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from obsigate.domain.redaction import redact_payload
from obsigate.services.errors import BadRequest, Forbidden
from obsigate.tools.budget import fit_to_budget
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Risk, ToolKind, ToolSpec

__all__ = ["MODEL_MODES", "backup_ids", "finish", "parse", "permit"]

#: Fronts where a model picks the tools: they see ``propose_``/``apply_``, never a raw write tool, and the
#: per-vault ``aiDestructiveTools`` switch applies to every dangerous call.
MODEL_MODES = frozenset({"mcp", "in_app"})


def parse(model: type[BaseModel], args: dict[str, Any]) -> BaseModel:
    """``args`` validated by ``model``: the one validation of a call's arguments.

    Raises:
        BadRequest: ``invalid_argument`` with ``details.errors`` = ``[{"field", "problem"}]``.
    """
    try:
        return model.model_validate(args)
    except ValidationError as exc:
        problems = [
            {"field": ".".join(str(p) for p in err["loc"]) or "(arguments)", "problem": err["msg"]}
            for err in exc.errors(include_url=False, include_input=False)
        ]
        summary = "; ".join(f"{p['field']}: {p['problem']}" for p in problems[:5])
        raise BadRequest(
            f"invalid arguments: {summary}", hint="check the tool's input schema", details={"errors": problems}
        ) from None


def permit(ctx: ToolContext, spec: ToolSpec, vault: str | None) -> None:
    """Check the caller may run ``spec`` on ``vault``: the vault grant, then the per-vault
    ``aiDestructiveTools`` switch for a dangerous tool (or its propose/apply step) on a model-facing front.
    Raw dangerous calls from REST (the user's own action) are not AI tool calls and skip the switch.

    Raises:
        VaultAccessDenied, NotFound (vault), Forbidden ``destructive_tools_disabled``.
    """
    if vault:
        ctx.workspace.get_vault(vault, ctx.allowed_vaults)
    dangerous = spec.risk is Risk.DANGEROUS or (spec.origin is not None and spec.origin.risk is Risk.DANGEROUS)
    if not dangerous or (spec.kind is ToolKind.TOOL and ctx.mode not in MODEL_MODES):
        return
    if vault and ctx.workspace.destructive.get(vault, True) is False:
        raise Forbidden(
            f"dangerous tools (rename, move, replace, delete) are turned off for vault {vault!r}",
            code="destructive_tools_disabled",
            hint="an administrator can turn on aiDestructiveTools for this vault; non-destructive tools still work",
        )


def finish(ctx: ToolContext, spec: ToolSpec, out: Any, *, budget_chars: int | None = None) -> dict[str, Any]:
    """``out`` as ``spec``'s result model, in JSON form, redacted once and cut to the size budget (default the
    workspace's ``budget_chars``)."""
    data = redact_payload(spec.result_model.model_validate(out).model_dump(mode="json"))
    return fit_to_budget(data, ctx.workspace.limits.budget_chars if budget_chars is None else budget_chars)


def backup_ids(data: dict[str, Any]) -> list[str] | None:
    """Backup ids a write tool's result reports, for the audit: ``backup_id`` (str) or ``backups`` (ids, or
    ``{"path", "version"}`` objects, given as ``path@version``)."""
    ids: list[str] = []
    if isinstance(data.get("backup_id"), str):
        ids.append(data["backup_id"])
    for item in data.get("backups") or []:
        if isinstance(item, str):
            ids.append(item)
        elif isinstance(item, dict) and isinstance(item.get("version"), str):
            ids.append(f"{item['path']}@{item['version']}" if isinstance(item.get("path"), str) else item["version"])
    return ids or None
