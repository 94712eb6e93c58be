"""The conversation's plan in an agent run (issue 21 item 4): re-read before every model turn, shown live, and
checked before the run ends.

* Before each model turn the run reads the plan from its file (``get_plan`` through the door: never a copy kept
  in memory), so a person who edited it between two steps (the panel, or the file itself) is seen by the next
  step: while the plan has a step not completed, the request ends with a short note holding the plan as saved
  now and its revision (:func:`with_plan`). The note is for that request only, never stored in the
  conversation: the next turn gets the plan as it is then.
* Each read, and each ``update_plan``/``get_plan`` the model makes, sends the panel a ``plan`` event
  (:func:`plan_event`: ``{revision, status, explanation, plan, edited_by, markdown}``).
* An answer that would end the run with a step still ``in_progress`` is turned back once (:func:`turn_back`):
  the answer and a hint go to the model for one more turn (neither is stored); the next answer ends the run.

A new conversation has no plan until the model or the person makes one: such a run reads nothing until a plan
tool is called (:attr:`PlanWatch.active`), so a run that never plans costs no extra call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from obsigate.tools.api import ServiceError, ToolContext, call_tool

__all__ = ["PLAN_TOOLS", "PlanWatch", "plan_event", "turn_back", "with_plan"]

#: The tools whose result is the plan.
PLAN_TOOLS = frozenset({"update_plan", "get_plan"})
#: How the note and the hint start (the fake provider's tests look for it; a model reads it as the server's voice).
NOTE_HEAD = "[ObsiGate: the plan of this conversation as saved now"


def plan_event(result: dict[str, Any]) -> dict[str, Any]:
    """The ``plan`` SSE event's data from a plan tool's result."""
    keys = ("revision", "status", "explanation", "plan", "edited_by", "markdown")
    return {k: result.get(k) for k in keys}


def _note(plan: dict[str, Any]) -> str:
    rev = plan.get("revision")
    return (f"{NOTE_HEAD}, revision {rev}; the person may have edited it. Keep it current with update_plan "
            f"(revision {rev}).]\n\n{plan.get('markdown') or ''}").rstrip()  # fmt: skip


def with_plan(messages: list[dict[str, Any]], plan: dict[str, Any] | None) -> list[dict[str, Any]]:
    """``messages`` for one request, ending with the plan note when ``plan`` has a step not completed: joined to
    a last ``user`` message (roles keep alternating for templates that require it), else a ``user`` message of
    its own after the turn's tool results. ``messages`` itself is not changed."""
    if plan is None or not plan.get("exists") or plan.get("status") in ("completed", "empty"):
        return messages
    note = _note(plan)
    last = messages[-1] if messages else None
    if last is not None and last.get("role") == "user" and isinstance(last.get("content"), str):
        return [*messages[:-1], {**last, "content": f"{last['content']}\n\n{note}"}]
    return [*messages, {"role": "user", "content": note}]


def turn_back(plan: dict[str, Any] | None) -> str | None:
    """The hint that turns back an answer while ``plan`` has a step ``in_progress``; None when it has none."""
    if plan is None or not plan.get("exists"):
        return None
    step = next((s.get("step") for s in plan.get("plan") or [] if s.get("status") == "in_progress"), None)
    if step is None:
        return None
    return (f"[ObsiGate: the plan still has '{step}' in progress: complete it, or update the plan (update_plan, "
            f"revision {plan.get('revision')}), then give your answer.]")  # fmt: skip


Emit = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass(slots=True)
class PlanWatch:
    """One run's view of its conversation's plan: ``active`` once a plan may exist (an existing conversation, or a
    plan tool called), ``current`` the plan as last read (``None``: none, or unreadable), ``shown`` the
    ``(revision, markdown)`` the panel was last sent."""

    ctx: ToolContext
    active: bool
    current: dict[str, Any] | None = None
    shown: tuple[Any, Any] | None = None

    async def read(self, emit: Emit) -> dict[str, Any] | None:
        """The plan as saved now (``get_plan`` through the door), or None: no plan, not ``active``, or a file the
        model cannot use as it is (``plan_unreadable``: the model sees that error if it calls a plan tool).
        A plan the panel has not been shown yet is sent to it (``plan`` event)."""
        if not self.active:
            return None
        try:
            result = await call_tool(self.ctx, "get_plan", {})
        except ServiceError:
            self.current = None
            return None
        self.current = result if result.get("exists") else None
        await self._show(emit)
        return self.current

    async def saw(self, name: str, result: dict[str, Any] | None, emit: Emit) -> None:
        """A plan tool ran in the run (``result``: its result, None when it failed): watch the plan from now on,
        and show it to the panel."""
        if name not in PLAN_TOOLS:
            return
        self.active = True
        if result is not None:
            self.current = result if result.get("exists") else None
            await self._show(emit)

    async def _show(self, emit: Emit) -> None:
        plan = self.current
        if plan is None:
            return
        key = (plan.get("revision"), plan.get("markdown"))
        if key != self.shown:
            self.shown = key
            await emit("plan", plan_event(plan))
