"""An answer's ``obsigate-action`` blocks (:mod:`obsigate.agent.actions_protocol`) turned into one confirmation,
on the agent's own machinery: the proposals go through the tool layer's door (``propose_create_file``...), the
run pauses with them like an agent run (``confirmation`` event, ``done`` ``awaiting_confirmation``) and the
person's answer comes back through the agent's resume (:meth:`RunLoop.resolve`: ``settle`` accept or decline).
What became of the blocks is recorded in the conversation as a note (:func:`settled_note`), since no tool
message can answer a block: the answer carried no tool calls.
"""

from __future__ import annotations

import json
from typing import Any

from obsigate.agent.actions_protocol import Action, note_message, parse_actions
from obsigate.agent.labels import step_label
from obsigate.agent.loop import Pending, Run, RunLoop, Step, StepState

__all__ = ["ActionLoop", "offer_actions", "outcome_lines", "settled_note"]


class ActionLoop(RunLoop):
    """A :class:`RunLoop` that proposes an answer's actions as one confirmation, the way the agent proposes a
    turn's writes (same door, same stored proposal, same ``tool`` and ``confirmation`` events)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the steps :meth:`propose_actions` could not propose (their ``content`` holds the error)
        self.refused: list[Step] = []

    async def propose_actions(self, run: Run, actions: list[Action]) -> None:
        """Propose each of ``actions`` (``propose_<tool>``): ``run.turn`` gets the ones now awaiting the person,
        ``run.pending`` their proposals; one the tool layer refuses (a file that exists, a vault the person may
        not write...) ends as an ``error`` step at once and goes to :attr:`refused`."""
        run.turn, run.pending, run.text_actions = [], [], True
        for action in actions:
            entry = Step(id=f"action-{action.index}", name=action.tool, arguments=action.arguments, error=None,
                         label=step_label(action.tool, action.arguments, run.language))  # fmt: skip
            await self._tool_event(entry, "running")
            proposal = await self._propose(run, entry)
            if proposal is None:
                self.refused.append(entry)
                continue
            entry.state = StepState.PENDING
            run.turn.append(entry)
            run.pending.append(Pending(entry.id, entry.name, entry.label, proposal.id))
            self._shown[entry.id] = proposal
            await self._tool_event(entry, "pending_confirmation", str(proposal.view.get("summary") or "")[:300])


async def offer_actions(loop: ActionLoop, run: Run, text: str) -> list[str]:
    """Parse the finished answer ``text`` and propose its actions on ``run`` (the request's vault is a block's
    default): each unusable block is a ``notice`` ``action_invalid``. Returns the lines to record in the
    conversation now (the unusable blocks and the refused proposals); ``run.pending`` holds what awaits the
    person (empty: nothing to confirm)."""
    parsed = parse_actions(text, run.vault)
    lines: list[str] = []
    for error in parsed.errors:
        await loop.emit("notice", {"code": "action_invalid", "message": error.text()})
        lines.append(f"- {error.text()}")
    if parsed.actions:
        await loop.propose_actions(run, parsed.actions)
        lines += outcome_lines(loop.refused, run.language)
    return lines


_STATUS = {
    "applied": {"fr": "appliqué", "en": "applied"},
    "rejected": {"fr": "refusé", "en": "rejected"},
    "not_run": {"fr": "non appliqué", "en": "not applied"},
    "error": {"fr": "erreur", "en": "error"},
}


def _status_of(step: Step) -> tuple[str, str]:
    """``(status, detail)`` of a finished step, read off the content that answers it."""
    try:
        data = json.loads(step.content or "{}")
    except ValueError:
        data = {}
    if not isinstance(data, dict):
        data = {}
    if isinstance(data.get("error"), dict):
        error = data["error"]
        return "error", f"{error.get('code')}: {error.get('message')}"
    status = str(data.get("status") or "not_run")
    if status == "applied":
        return status, ""
    return (status if status in _STATUS else "not_run"), str(data.get("message") or "")


def outcome_lines(steps: list[Step], language: str) -> list[str]:
    """One line per finished step (``fr``/``en``): its label, what became of it and why."""
    lines = []
    for step in steps:
        status, detail = _status_of(step)
        word = _STATUS[status].get(language, _STATUS[status]["en"])
        lines.append(f"- {step.label}: {word}" + (f" ({detail[:200]})" if detail else ""))
    return lines


def settled_note(run: Run) -> dict[str, Any]:
    """The conversation's note on a settled (or closed) action run: one line per proposal."""
    return note_message(outcome_lines(run.turn, run.language))
