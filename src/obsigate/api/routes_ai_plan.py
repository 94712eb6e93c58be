"""A conversation's plan for the web app's panel (issue 21 item 4): ``GET``/``PUT /api/ai/conversations/{id}/plan``.

Thin: the conversation must be the caller's (``not_found`` otherwise, as for the conversation itself), then the
same tools the assistant uses run through the door, with the conversation as the call's session: ``get_plan``,
and ``update_plan`` for the person's edit (ticked boxes, edited or reordered steps), which must name the revision
it was made on (an older one is ``conflict``, with the current plan in ``details.plan``).
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, ConfigDict, Field

from obsigate.agent.assistant import Assistant
from obsigate.api.deps import Ctx, check_same_site
from obsigate.tools.api import Unavailable, call_tool, parse

router = APIRouter(prefix="/api/ai", tags=["assistant"])

__all__ = ["router"]


class PlanEdit(BaseModel):
    """A person's edit: the whole plan (``update_plan``'s ``plan`` and ``explanation``) and the ``revision`` it was
    made on (required here: a person always edits a plan they were shown)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    plan: list[Any] = Field(max_length=200)
    explanation: str | None = None
    revision: int = Field(ge=0)


def _assistant(request: Request) -> Assistant:
    assistant = getattr(request.app.state, "assistant", None)
    if assistant is None:
        raise Unavailable("the assistant is not available on this server")
    return assistant


def _plan_ctx(request: Request, ctx: Any, conversation_id: str) -> Any:
    """``ctx`` for the caller's conversation ``conversation_id`` (``not_found`` when it is not theirs)."""
    _assistant(request).store.conversation(ctx.principal.name, conversation_id)
    return dataclasses.replace(ctx, session_id=conversation_id)


@router.get("/conversations/{conversation_id}/plan", summary="The plan of one of your conversations")
async def get_plan(request: Request, ctx: Ctx, conversation_id: str) -> dict[str, Any]:
    """``{exists, revision, status, explanation, plan: [{step, status}], edited_by, markdown}``."""
    return await call_tool(_plan_ctx(request, ctx, conversation_id), "get_plan", {})


@router.put("/conversations/{conversation_id}/plan", summary="Edit the plan of one of your conversations")
async def put_plan(
    request: Request, ctx: Ctx, conversation_id: str, body: Annotated[Any, Body(description="See docs/assistant.md")]
) -> dict[str, Any]:
    """The plan as written; 409 ``conflict`` when ``revision`` is not the plan's (``details.plan``: the current
    one), 400 ``invalid_argument`` for two steps in progress or a step over the bounds."""
    check_same_site(request)
    edit = parse(PlanEdit, body)
    plan_ctx = _plan_ctx(request, ctx, conversation_id)
    return await call_tool(plan_ctx, "update_plan", edit.model_dump(exclude_none=True))
