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
from obsigate.agent.labels import state_label, step_state
from obsigate.agent.loop import Pending, Run, RunLoop, Step, StepState
from obsigate.tools.api import REGISTRY

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
        self.language = run.language  # the step labels' (RunLoop._tool_event)
        for action in actions:
            label = state_label(action.tool, action.arguments, run.language, "proposed")
            entry = Step(id=f"action-{action.index}", name=action.tool, arguments=action.arguments, error=None,
                         label=label)  # fmt: skip
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


def outcome_lines(steps: list[Step], language: str) -> list[str]:
    """One line per finished step (``fr``/``en``): its label as the steps list says it (``labels.state_label``:
    "File created: a.md", "Create file: a.md — rejected"...) and, for a failure or a change not run, why."""
    lines = []
    for step in steps:
        spec = REGISTRY.get(step.name)
        state = step_state(spec.risk.value if spec else None, "error", step.content)
        line = f"- {state_label(step.name, step.arguments, language, state)}"
        try:
            answer = json.loads(step.content or "{}")
        except ValueError:
            answer = None
        answer = answer if isinstance(answer, dict) else {}
        if isinstance(error := answer.get("error"), dict):
            line += f" ({error.get('code')}: {str(error.get('message'))[:200]})"
        elif state == "not_run" and answer.get("message"):  # why: superseded by a new message, expired...
            line += f" ({str(answer['message'])[:200]})"
        lines.append(line)
    return lines


def settled_note(run: Run) -> dict[str, Any]:
    """The conversation's note on a settled (or closed) action run: one line per proposal."""
    return note_message(outcome_lines(run.turn, run.language))
