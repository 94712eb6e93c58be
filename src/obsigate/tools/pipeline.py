"""The steps of one tool call, each done once: validate the arguments, permit (vault access and the
``aiDestructiveTools`` switch), locate the paths a reader sent back as it was shown them (a name holding a
secret redacted), run the function, finish the result (redaction, then the size budget).

:func:`permit` is the one check of the caller's vault grants in a tool call: it returns what it resolved (a
:class:`Permit`), which the caller puts on the context (``ToolContext.vault``/``scope``) for the tool;
services never see grants.

:func:`obsigate.tools.dispatch.call_tool` and the confirmation flow (:mod:`obsigate.tools.confirm.flow`)
compose them inside :func:`obsigate.tools.door.door`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from obsigate.domain.redaction import redact_payload
from obsigate.domain.text import has_lone_surrogate
from obsigate.domain.vault import Vault
from obsigate.services.changes import BackupRef
from obsigate.services.errors import BadRequest, Forbidden
from obsigate.services.redacted_paths import MARK, locate
from obsigate.tools.budget import fit_to_budget
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Risk, ToolKind, ToolSpec

__all__ = [
    "MODEL_MODES", "PATH_ARGS", "Permit", "backups_of", "finish", "grant", "locate_paths", "names_redacted_path", "parse",
    "permit",
]  # fmt: skip

#: The arguments that name a path of the call's vault: a reader sends them back as it was shown them, a name
#: holding a secret redacted (``services.redacted_paths``).
PATH_ARGS = ("path", "source_path", "destination_dir", "dir")

#: Fronts where a model picks the tools: they see ``propose_``/``apply_``, never a raw write tool, and the
#: per-vault ``aiDestructiveTools`` switch applies to every dangerous call.
MODEL_MODES = frozenset({"mcp", "in_app"})


def parse(model: type[BaseModel], args: dict[str, Any], *, hint: str = "check the tool's input schema") -> BaseModel:
    """``args`` validated by ``model``: the one validation of a call's arguments (``hint``: where the caller
    finds what is expected).

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
        raise BadRequest(f"invalid arguments: {summary}", hint=hint, details={"errors": problems}) from None


@dataclass(frozen=True, slots=True)
class Permit:
    """What :func:`permit` resolved: the permitted ``vault`` (``None`` when the call names none) and the
    ``scope``, the names of the vaults the call may see (``(vault.name,)``, or every vault the caller may use,
    in declaration order, when none is named). ``call_tool`` copies both onto the tool's
    :class:`~obsigate.tools.context.ToolContext` (``vault``, ``scope``)."""

    vault: Vault | None
    scope: tuple[str, ...]


def permit(ctx: ToolContext, spec: ToolSpec, vault: str | None) -> Permit:
    """Check the caller may run ``spec`` on ``vault`` and return what was resolved: the vault grant (the only
    ``Workspace.get_vault`` of a tool call; with no ``vault``, the scope is every vault the caller may use),
    then the per-vault ``aiDestructiveTools`` switch for a dangerous tool (or its propose/apply step) on a
    model-facing front. Raw dangerous calls from REST (the user's own action) are not AI tool calls and skip
    the switch.

    Returns:
        :class:`Permit` ``(vault, scope)``: the :class:`~obsigate.domain.vault.Vault` and ``(vault.name,)``
        when ``vault`` is named, else ``(None, names of every accessible vault)``.

    Raises:
        VaultAccessDenied, NotFound (vault), Forbidden ``destructive_tools_disabled``.
    """
    ws = ctx.workspace
    granted = grant(ctx, vault)
    dangerous = spec.risk is Risk.DANGEROUS or (spec.origin is not None and spec.origin.risk is Risk.DANGEROUS)
    if dangerous and (spec.kind is not ToolKind.TOOL or ctx.mode in MODEL_MODES):
        if vault and ws.destructive.get(vault, True) is False:
            raise Forbidden(
                f"dangerous tools (rename, move, replace, delete) are turned off for vault {vault!r}",
                code="destructive_tools_disabled",
                hint="an administrator can turn on aiDestructiveTools for this vault; non-destructive tools still work",
            )
    return granted


def grant(ctx: ToolContext, vault: str | None) -> Permit:
    """The caller's grant on ``vault``: the one ``Workspace.get_vault`` of the tool layer (:func:`permit` for a
    tool, ``dispatch.call_operation`` for a prompt or a resource, completion's soft check).

    Returns:
        :class:`Permit` ``(vault, (vault.name,))`` when ``vault`` is named, else ``(None, names of every vault
        the caller may use)``.

    Raises:
        VaultAccessDenied, NotFound (vault).
    """
    ws = ctx.workspace
    if vault:
        resolved = ws.get_vault(vault, ctx.allowed_vaults)
        return Permit(resolved, (resolved.name,))
    return Permit(None, tuple(ws.accessible(ctx.allowed_vaults)))


def names_redacted_path(parsed: BaseModel, expected: Mapping[str, str] | None = None) -> bool:
    """Whether one of ``parsed``'s :data:`PATH_ARGS`, or a path of ``expected`` (the editor's save), holds a
    redacted part: then :func:`locate_paths` has work to do (cheap; no I/O)."""
    given = [getattr(parsed, name, None) for name in PATH_ARGS] + list(expected or ())
    return any(isinstance(value, str) and MARK in value for value in given)


def locate_paths(ctx: ToolContext, vault: Vault | None, parsed: BaseModel) -> tuple[BaseModel, dict[str, str] | None]:
    """``(parsed, ctx.expected_reads)`` with each path of :data:`PATH_ARGS` and of the expected reads that a
    reader sent back as it was shown it (a name holding a secret reads ``[REDACTED:<rule>]``) replaced by the
    path in ``vault`` it stands for (``services.redacted_paths.locate``); unchanged without a vault. Reads the
    index: run it off the event loop.

    Raises:
        BadRequest: a redacted path stands for several files.
    """
    expected = ctx.expected_reads
    if vault is None:
        return parsed, expected
    found = {}
    for name in PATH_ARGS:
        value = getattr(parsed, name, None)
        if isinstance(value, str) and MARK in value:
            found[name] = locate(ctx.workspace, vault, value)
    if expected:
        expected = {str(locate(ctx.workspace, vault, path)): digest for path, digest in expected.items()}
    return (parsed.model_copy(update=found) if found else parsed), expected


def finish(
    ctx: ToolContext, spec: ToolSpec, out: Any, *, budget_chars: int | None = None, cut: bool = True
) -> dict[str, Any]:
    """``out`` as ``spec``'s result model, in JSON form, redacted once and cut to the size budget (default the
    workspace's ``budget_chars``; not at all without ``cut``: a caller that cuts the result once itself).

    A result model may name fields that carry exact bytes (base64) with an ``exact_fields()`` method, e.g.
    read_file_raw's binary chunk: those are neither redacted (that would corrupt the bytes) nor cut (the service
    already bounds them to ``max_read_bytes``); the budget applies to the rest of the result. A result model
    with ``UNBOUNDED = True`` (a tool offered to no model, e.g. export_graph) is redacted but not cut."""
    model = spec.result_model.model_validate(out)
    data = model.model_dump(mode="json")
    exact_fields = getattr(model, "exact_fields", None)
    exact = {k: data.pop(k) for k in exact_fields()} if callable(exact_fields) else {}
    data = redact_payload(data)
    if has_lone_surrogate(data):  # e.g. an undecodable file name that slipped past the listings' rule
        raise ValueError(f"{spec.name}: the result holds a lone surrogate, which no transport can encode")
    if cut and not getattr(model, "UNBOUNDED", False):
        data = fit_to_budget(data, ctx.workspace.limits.budget_chars if budget_chars is None else budget_chars)
    data.update(exact)
    return data


def backups_of(out: Any) -> list[str] | None:
    """Backup ids a write tool's result model reports, for the audit, read off the model (never its dump): a
    ``backup_id`` string, and its ``backups`` (``BackupRef``, as the apply made them) as ``path@version``;
    ``None`` when it has none."""
    single = getattr(out, "backup_id", None)
    ids = [single] if isinstance(single, str) else []
    for ref in map(BackupRef.model_validate, getattr(out, "backups", None) or ()):  # a BackupRef, or its fields
        ids.append(f"{ref.path}@{ref.version}")
    return ids or None
