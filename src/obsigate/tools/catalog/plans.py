"""The assistant's planning tools (issue 21 item 4; ``arsenal.md`` §d): update_plan and get_plan.

The plan is the assistant's own scratch space, kept in the caller's own space (``services/plans.py``), never in a
vault: so both tools are ``read``-risk and run directly, without a proposal or a confirmation, and
``own_space`` keeps update_plan's MCP annotations honest (not read-only). One plan per conversation
(``ctx.session_id``: the in-app conversation, or the MCP session, whose plan has a name of its own and expires
after the file space's TTL: ``services.plans.sweep_session_plans``); a call without one (REST, stateless MCP) uses the
caller's default plan. Offered to the in-app assistant and over MCP; no REST route of their own: the web app
reads and edits a conversation's plan at ``/api/ai/conversations/{id}/plan`` (``api/routes_ai.py``), which runs
these same tools.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from obsigate.services import plans as svc
from obsigate.services.plans import PlanStep, PlanView
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, tool

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 214

#: The fronts whose calls are a model's (the others are a person's own edit: the web app, REST, the CLI).
MODEL_FRONTS = frozenset({"in_app", "mcp"})


class PlanStepArg(ToolArgs):
    step: str = Field(min_length=1, max_length=svc.MAX_STEP_CHARS)
    status: Literal["pending", "in_progress", "completed"]


class UpdatePlanArgs(ToolArgs):
    explanation: str | None = Field(None, max_length=svc.MAX_EXPLANATION_CHARS)
    plan: list[PlanStepArg] = Field(max_length=svc.MAX_STEPS)
    revision: int | None = Field(None, ge=0)


class GetPlanArgs(ToolArgs):
    pass


@tool(
    "update_plan",
    title="Update the plan",
    label=("Plan mis à jour", "Plan updated"),
    idempotent=False,
    own_space=True,
)
def update_plan(ctx: ToolContext, args: UpdatePlanArgs) -> PlanView:
    """Plan a multi-step task: send the whole list each time, one step in_progress at most, and the revision
    last seen (the person may edit the plan)."""
    return svc.update_plan(
        ctx.runtime.data_dir, ctx.principal.name, ctx.session_id,
        [PlanStep(step=s.step, status=s.status) for s in args.plan],
        explanation=args.explanation, revision=args.revision,
        by="assistant" if ctx.mode in MODEL_FRONTS else "person", session=ctx.mode == "mcp",
    )  # fmt: skip


@tool("get_plan", title="Read the plan", label=("Plan consulté", "Plan read"))
def get_plan(ctx: ToolContext, args: GetPlanArgs) -> PlanView:
    """Your plan as saved now (the person may have edited it), with its revision."""
    return svc.get_plan(ctx.runtime.data_dir, ctx.principal.name, ctx.session_id, session=ctx.mode == "mcp")
