"""A conversation shown again (the web app reopens it, or reloads the page): the tool steps of its requests and
the run still awaiting the person, rebuilt from what the store keeps (issue 18 item 7).

The steps come from the stored messages themselves: each assistant message's ``tool_calls`` and the ``tool``
message that answered each call (its content tells applied, rejected, failed, not run: ``labels.step_state``);
the calls of a turn paused for confirmation have no answer yet, their state is the paused run's. The waiting run
is shown as its ``confirmation`` event was: each pending proposal's label, paths and diff, read by id from the
confirmation store — never its token, which never leaves the server.
"""

from __future__ import annotations

from typing import Any

from obsigate.agent.labels import state_label, step_state
from obsigate.agent.loop import Run, StepState
from obsigate.agent.store import PausedRun
from obsigate.tools.api import REGISTRY, ToolContext, proposal_of

__all__ = ["conversation_steps", "waiting_view"]

#: A step's SSE ``status`` from its state (labels.STATES), for the panel that draws both the same way.
_STATUS = {
    "running": "running", "proposed": "pending_confirmation", "deferred": "deferred", "applied": "ok", "done": "ok",
    "rejected": "error", "failed": "error", "not_run": "error", "unavailable": "error",
}  # fmt: skip
_PAUSED = {StepState.PENDING: "proposed", StepState.DEFERRED: "deferred", StepState.NEW: "not_run"}


def _risk(name: str) -> str | None:
    spec = REGISTRY.get(name)
    return spec.risk.value if spec else None


def _step(call: dict[str, Any], state: str, language: str) -> dict[str, Any]:
    name = str(call.get("name") or "")
    args = call.get("arguments") if isinstance(call.get("arguments"), dict) else None
    return {
        "id": call.get("id"), "name": name, "label": state_label(name, args, language, state),
        "status": _STATUS[state], "state": state, "risk": _risk(name), "summary": None,
    }  # fmt: skip


def conversation_steps(
    messages: list[dict[str, Any]], language: str, paused: Run | None = None
) -> list[dict[str, Any]]:
    """The tool steps of each request of a conversation: ``[{message, steps}]``, ``message`` the index in
    ``messages`` of the user message that started the request, ``steps`` as the SSE ``tool`` events last showed
    them (``{id, name, label, status, state, risk, summary, parts?}``, in call order; ``summary`` is not kept:
    None; ``parts``: a result's parts as its ``tool`` event named them, when it had any).
    ``paused``: the run awaiting confirmation, whose last turn's calls have no answer yet. Requests without a
    tool call are left out. A call nobody answered (a server stopped mid-turn) is ``not_run``."""
    answers = {m.get("tool_call_id"): m.get("content") for m in messages if m.get("role") == "tool"}
    shown = {m.get("tool_call_id"): m.get("parts") for m in messages if m.get("role") == "tool" and m.get("parts")}
    waiting = {step.id: step for step in paused.turn} if paused is not None else {}
    groups: list[dict[str, Any]] = []
    start: int | None = None
    for i, message in enumerate(messages):
        if message.get("role") == "user":
            start = i
            continue
        calls = message.get("tool_calls") if message.get("role") == "assistant" else None
        if not calls or start is None:
            continue
        if not groups or groups[-1]["message"] != start:
            groups.append({"message": start, "steps": []})
        for call in calls:
            if not isinstance(call, dict):
                continue
            content = answers.get(call.get("id"))
            step = waiting.get(str(call.get("id"))) if content is None else None
            if step is not None and step.state in _PAUSED:
                state = _PAUSED[step.state]
            else:
                content = step.content if step is not None else content
                risk = _risk(str(call.get("name") or ""))
                state = "not_run" if content is None else step_state(risk, "ok", content)
            row = _step(call, state, language)
            if parts := shown.get(call.get("id")):  # a result's images, PDFs and files, by URL (issue 21)
                row["parts"] = parts
            groups[-1]["steps"].append(row)
    return groups


async def waiting_view(ctx: ToolContext, paused: PausedRun, run: Run, language: str) -> dict[str, Any] | None:
    """The run awaiting confirmation (``paused`` as stored, ``run`` its state) as its ``confirmation`` event
    showed it: ``{run_id, expires, actions}``, each action ``{id, tool, label, paths, diff, summary}`` read by
    id from the confirmation store (never its token); ``None`` when none of its proposals is still pending
    (expired or spent: nothing is left to approve)."""
    calls = {step.id: step for step in run.turn}
    actions = []
    for item in run.pending:
        proposal = await proposal_of(ctx, item.proposal_id) if item.proposal_id else None
        if proposal is None:
            continue
        step = calls.get(item.id)
        label = state_label(item.tool, step.arguments if step else None, language, "proposed")
        diffs = proposal.view.get("diffs") or []
        diff = "\n".join(d["diff"] for d in diffs if isinstance(d, dict) and isinstance(d.get("diff"), str))
        actions.append({"id": item.id, "tool": item.tool, "label": label, "paths": list(proposal.paths),
                        "diff": diff, "summary": proposal.view.get("summary")})  # fmt: skip
    if not actions:
        return None
    return {"run_id": paused.id, "expires": paused.expires, "actions": actions}
