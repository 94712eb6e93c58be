"""The two-step confirmation of every write, in one place (issue 4 item 4; ``security.md`` §4.2, §2.3).

The flow, for every front (MCP, the in-app agent; ``call_tool`` routes ``propose_``/``apply_`` names here):

* :func:`propose` — ``propose_<tool>``: run the tool's planner (changes nothing), store the proposal, return
  its :class:`~obsigate.services.changes.Change` view with a single-use ``confirmation_token``;
* :func:`apply` — ``apply_<tool>``: redeem the token, re-check access (once, ``pipeline.permit`` on the token's
  vault), run the tool on the proposal with the permitted vault on its context;
* :func:`settle` — a human answered inline (MCP elicitation, the web app's Apply card): ``accept`` applies,
  ``decline`` spends the token unused, ``cancel``/no answer leaves the proposal as it was.

The tokens and the stored proposals are :mod:`obsigate.tools.confirm.store`'s :class:`ConfirmationService`: a
proposal is stored once, there, and known elsewhere by its id (:func:`proposal_of`; the in-app agent's paused
run keeps only ids and settles by id).
A token is a credential: it must never enter a prompt of the in-app agent: :func:`strip_secret_fields` removes
it (the UI's Apply card gets it instead).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

import anyio
from pydantic import BaseModel

from obsigate.domain.redaction import redact_payload
from obsigate.services.changes import Change
from obsigate.services.errors import ServiceError, Unavailable
from obsigate.tools.audit import summarize_args
from obsigate.tools.budget import fit_to_budget
from obsigate.tools.confirm.store import ConfirmationService, Issued, Proposal, Redeemed, invalid_confirmation
from obsigate.tools.context import ToolContext
from obsigate.tools.door import Call, before_change, door, invoke
from obsigate.tools.pipeline import backups_of, finish, parse, permit
from obsigate.tools.registry import APPLY_PREFIX, SECRET_RESULT_FIELDS, ToolSpec

__all__ = ["Answer", "Proposal", "apply", "proposal_of", "propose", "settle", "strip_secret_fields"]


def strip_secret_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a tool result without its credential fields (``confirmation_token``), for anything that goes
    into an LLM prompt (the in-app agent). The caller keeps the original for the UI's Apply card."""
    return {k: v for k, v in data.items() if k not in SECRET_RESULT_FIELDS}


class Answer(StrEnum):
    """A human's inline answer to a proposal (MCP ``ElicitResult.action``)."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"


def _service(ctx: ToolContext) -> ConfirmationService:
    service = ctx.runtime.confirmations
    if service is None:
        raise Unavailable("confirmations are not configured on this server")
    return service


async def propose(ctx: ToolContext, spec: ToolSpec, parsed: BaseModel, call: Call) -> dict[str, Any]:
    """``propose_<tool>`` (``spec``) with validated, permitted ``parsed`` arguments: plan (changing nothing),
    store the proposal, return ``{"status": "proposed", "tool", "vault", "summary", "diffs", "details",
    "confirmation_token", "expires_at", "expires_in", "truncated", "notice"}``. ``ctx`` carries what
    ``permit`` resolved (``ctx.vault``): the planner uses it and does not check grants again.

    The token must survive redaction (it is JWT-shaped) and the size budget whole: the rest is redacted and
    cut to the budget minus its length, then the token is put in.
    """
    base = spec.origin
    assert base is not None and base.planner is not None
    service = _service(ctx)
    change = await invoke(base.planner, ctx, parsed)
    if not isinstance(change, Change):
        raise TypeError(f"planner of {base.name} returned {type(change).__name__}, not a Change")
    vault = getattr(parsed, "vault", None)
    call.paths = change.paths

    def view(issued: Issued) -> dict[str, Any]:
        """The proposal as shown, without its token, redacted and cut to the budget less the token's length
        (the token is added whole): stored with the proposal, and returned."""
        data = spec.result_model.model_validate(
            {
                "status": "proposed",
                "tool": base.name,
                "vault": vault,
                "summary": change.summary,
                "diffs": change.changes,
                "details": change.details,
                "expires_at": issued.expires_at_iso,
                "expires_in": issued.expires_in,
            }
        ).model_dump(mode="json")
        return fit_to_budget(
            redact_payload(data), max(1000, ctx.workspace.limits.budget_chars - len(issued.token) - 40)
        )

    issued = await anyio.to_thread.run_sync(
        lambda: service.issue(
            user=ctx.principal.name,
            tool=base.name,
            vault=vault,
            # only the fields the caller set: a tool that looks at ``model_fields_set`` (``exclude_unset``)
            # sees on apply exactly what it saw on propose
            args=parsed.model_dump(mode="json", by_alias=True, exclude_unset=True),
            reads=dict(change.reads),
            paths=call.paths,
            view=view,
        )
    )
    call.proposal = issued.jti
    return {**issued.view, "confirmation_token": issued.token}


async def apply(
    ctx: ToolContext, spec: ToolSpec, args: dict[str, Any], call: Call, *, budget: bool = True
) -> dict[str, Any]:
    """``apply_<tool>`` (``spec``) with raw ``args`` (``{"confirmation_token"}``): redeem the token (single
    use), then :func:`_run` the proposal. ``budget``: cut the result to the size budget (the settle of an
    in-app agent's proposal does not: its one cut is the agent's).

    Raises:
        ServiceError: ``invalid_argument``, ``invalid_confirmation``, ``token_reused``, ``forbidden``,
            ``vault_access_denied``, ``destructive_tools_disabled``, ``conflict``, the tool's own errors.
    """
    base = spec.origin
    assert base is not None
    call.args = {"confirmation_token": "<withheld>"} if "confirmation_token" in args else call.args
    token = parse(spec.args_model, args).confirmation_token  # type: ignore[attr-defined]
    service = _service(ctx)
    redeemed = await anyio.to_thread.run_sync(lambda: service.redeem(token, user=ctx.principal.name, tool=base.name))
    return await _run(ctx, spec, redeemed, call, budget=budget)


async def _run(ctx: ToolContext, spec: ToolSpec, redeemed: Redeemed, call: Call, *, budget: bool) -> dict[str, Any]:
    """Run the tool of ``spec`` (an ``apply_`` spec) on a ``redeemed`` proposal: re-check access
    (:func:`~obsigate.tools.pipeline.permit` on its vault: the call's one grant check), run it with
    ``ctx.expected_reads`` = its reads and ``ctx.vault``/``ctx.scope`` = what ``permit`` resolved, and finish
    the result (cut to the budget when ``budget``)."""
    base = spec.origin
    assert base is not None
    call.vault, call.paths, call.proposal = redeemed.vault or None, redeemed.paths, redeemed.jti
    call.args = summarize_args(redeemed.args)
    try:
        parsed = base.args_model.model_validate(redeemed.args)
    except ValueError:
        raise invalid_confirmation("args_mismatch", base.name) from None
    granted = permit(ctx, spec, redeemed.vault or None)
    run_ctx = dataclasses.replace(
        ctx, confirmed=True, expected_reads=dict(redeemed.reads), vault=granted.vault, scope=granted.scope
    )
    call.raw_args = redeemed.args
    await before_change(ctx, call)  # the journal records the change before it is made, or it is not made
    out = await invoke(base.func, run_ctx, parsed)
    call.backups = backups_of(out)
    return finish(ctx, base, out, cut=budget)


async def proposal_of(ctx: ToolContext, result: Mapping[str, Any] | str) -> Proposal | None:
    """The stored proposal a ``propose_`` ``result`` (as :func:`propose` returned it) stands for, read by the
    id its token carries (verified; nothing is spent), or by its id (``result`` a string: a paused run shown
    again holds only that): its id, tool, vault, paths and the view shown. ``None`` when the token or id names
    no pending proposal of the caller."""
    service = _service(ctx)
    token = None if isinstance(result, str) else result.get("confirmation_token")

    def read() -> Proposal | None:
        pid = result if isinstance(result, str) else service.proposal_id(token)
        return None if pid is None else service.proposal(pid, user=ctx.principal.name)

    return await anyio.to_thread.run_sync(read)


async def settle(ctx: ToolContext, proposal: str | Mapping[str, Any], answer: Answer | str | None) -> dict[str, Any]:
    """Finish a proposal a human answered inline: ``proposal`` is its id (the in-app agent keeps only that), or
    a :func:`propose` result (MCP's elicitation holds it for one request; its token names the proposal).

    ``accept``: apply it now and return the proposal as shown with ``status: "applied"`` and ``result`` (the
    tool's result), token fields cleared; by id, the result is redacted but not cut (the caller cuts once).
    ``decline``: spend it unused (audited as ``decline_<tool>``, with the paths stored with the proposal) and
    return it with ``status: "declined"``, token fields cleared. ``cancel`` or ``None``: the proposal
    unchanged, token included, to apply later with ``apply_<tool>``.

    Raises:
        ServiceError: on accept, :func:`apply`'s errors (nothing was written); ``invalid_confirmation``
            (``unknown_proposal``) for an id that names no pending proposal of the caller.
    """
    by_id = isinstance(proposal, str)
    shown: Mapping[str, Any] = {} if isinstance(proposal, str) else proposal
    token = shown.get("confirmation_token")
    if answer in (None, Answer.CANCEL) or (
        not by_id and (not isinstance(token, str) or not isinstance(shown.get("tool"), str))
    ):
        return dict(shown)
    service = _service(ctx)
    user = ctx.principal.name
    if isinstance(proposal, str):
        pid: str | None = proposal
    elif answer == Answer.DECLINE:  # the paths stored with it go into the decline's audit record
        pid = await anyio.to_thread.run_sync(lambda: service.proposal_id(token))
    else:  # an accept by token: apply redeems the token itself, nothing to look up first
        pid = None
    stored = None if pid is None else await anyio.to_thread.run_sync(lambda: service.proposal(pid, user=user))
    if by_id:
        if stored is None:  # spent, expired or never this caller's: nothing to decline, nothing to apply
            if answer == Answer.DECLINE:
                return {"status": "declined"}
            raise invalid_confirmation("unknown_proposal")
        shown = stored.view
    tool = stored.tool if stored is not None else str(shown["tool"])
    closed = {**shown, "confirmation_token": None, "expires_at": None, "expires_in": None}
    declining = answer == Answer.DECLINE
    spec = None if declining else ctx.runtime.registry.get(f"{APPLY_PREFIX}{tool}")
    if not declining and spec is None:
        raise invalid_confirmation("wrong_tool", tool)
    # one door for every answer: a decline is audited as decline_<tool> (the stored paths, the proposal's id), an
    # accept as the apply_<tool> call it is (by its token, or by the proposal's id for the in-app agent)
    if declining:
        name, action = f"decline_{tool}", "ai_tool_decline"
        args: dict[str, Any] = {}
    else:
        name, action = f"{APPLY_PREFIX}{tool}", "ai_tool_apply"
        args = {"proposal": stored.id} if by_id and stored is not None else {"confirmation_token": token}
    result: dict[str, Any] | None = None
    try:
        async with door(ctx, name, args, action=action) as call:
            if declining and stored is not None:
                call.vault, call.paths = stored.vault or None, stored.paths
                call.proposal = await anyio.to_thread.run_sync(lambda: service.revoke_id(stored.id, user=user))
            elif declining:  # gone or expired: the token is spent all the same
                call.proposal = await anyio.to_thread.run_sync(lambda: service.revoke(token, user=user))
            elif not by_id:
                assert spec is not None
                result = await apply(ctx, spec, args, call)
            else:
                assert spec is not None and stored is not None  # by id: found above, or refused
                proposal_id = stored.id
                redeemed = await anyio.to_thread.run_sync(lambda: service.redeem_id(proposal_id, user=user, tool=tool))
                result = await _run(ctx, spec, redeemed, call, budget=False)
            call.result = result
    except ServiceError:
        if not declining:
            raise
    if declining:  # the token is not returned either way
        return {**closed, "status": "declined"}
    applied = {**closed, "status": "applied", "result": result}
    return applied if by_id else fit_to_budget(applied, ctx.workspace.limits.budget_chars)
