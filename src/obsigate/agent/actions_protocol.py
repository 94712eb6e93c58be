"""The ``obsigate-action`` text protocol of plain chat (seeds 000 §2.2 "Protocole d'action", 003 B3).

A model without vault tools (a plain chat, or an agent run whose provider rejects tools) may ask for a note or a
folder by writing, in its answer, one fenced block per change::

    ```obsigate-action
    {"action": "create_file", "vault": "notes", "path": "Ideas/Budget.md", "content": "# Budget\\n"}
    ```

``create_file`` takes ``path`` and ``content``, ``create_directory`` takes ``path``; ``vault`` may be left out
for the request's own vault. The server parses the *finished* answer (:func:`parse_actions`: fences indented at most 3
spaces, so a block in a list item counts, none inside another fence; strict JSON, known actions and fields only, at most :data:`MAX_BLOCKS` blocks of at most :data:`MAX_BLOCK_CHARS` characters, an
unclosed block refused: a cut answer never becomes a change) and proposes each action through the tool layer's
door like an agent's write (:class:`obsigate.agent.action_runs.ActionLoop`: ``propose_create_file``, the same
planner, diff and stored proposal), so the person gets the same confirmation card and the same resume path
(``POST /api/ai/bookslm/agent {run_id, confirm_all}``). A block that cannot be used is never dropped silently:
it becomes a ``notice`` ``action_invalid`` and a line of the conversation (:func:`note_message`).

In an agent run with tools the prompt forbids the blocks and they are not parsed (docs/assistant.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "ACTIONS", "ACTION_TAG", "MAX_BLOCKS", "MAX_BLOCK_CHARS", "Action", "BlockError", "Parsed", "join_answers",
    "note_message", "parse_actions",
]  # fmt: skip

ACTION_TAG = "obsigate-action"
#: The blocks one answer may carry; later ones are refused (each with its error), never applied.
MAX_BLOCKS = 10
#: The largest block (its JSON text, in characters); a note larger than this is written with the editor.
MAX_BLOCK_CHARS = 200_000
#: Each action's required and optional fields besides ``action`` (``vault`` is optional everywhere).
ACTIONS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "create_file": (frozenset({"path", "content"}), frozenset({"vault"})),
    "create_directory": (frozenset({"path"}), frozenset({"vault"})),
}
#: a fence line (CommonMark §4.5): up to 3 spaces, 3+ backticks or tildes, the info string
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")


@dataclass(frozen=True, slots=True)
class Action:
    """One usable block: its 1-based ``index`` among the answer's blocks, the ``tool`` it asks for and the tool's
    ``arguments`` (``vault`` filled in)."""

    index: int
    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True, slots=True)
class BlockError:
    """A block that cannot be used: its 1-based ``index`` and why, in words the model and the person can act on."""

    index: int
    message: str

    def text(self) -> str:
        """The error as the person and the model read it: ``obsigate-action block N: why``."""
        return f"{ACTION_TAG} block {self.index}: {self.message}"


@dataclass(slots=True)
class Parsed:
    """What an answer asks for: the usable ``actions`` and the ``errors``, both in block order."""

    actions: list[Action] = field(default_factory=list)
    errors: list[BlockError] = field(default_factory=list)


def _blocks(text: str) -> Iterator[tuple[str | None, bool]]:
    """The ``obsigate-action`` blocks of ``text`` at the top level (not inside another fence): each block's body
    and whether it was closed. A fence is closed by a line of the same character, at least as long, with nothing
    after it but spaces (CommonMark §4.5); a fence with another info string is skipped whole."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i].rstrip("\r"))
        i += 1
        if opening is None or (opening.group(1)[0] == "`" and "`" in opening.group(2)):
            continue
        fence, info = opening.group(1), opening.group(2).strip()
        ours = info.split(maxsplit=1)[0] == ACTION_TAG if info else False
        body: list[str] = []
        closed = False
        while i < len(lines):
            line = lines[i].rstrip("\r")
            i += 1
            closing = _FENCE.match(line)
            if (
                closing
                and closing.group(1)[0] == fence[0]
                and len(closing.group(1)) >= len(fence)
                and not closing.group(2).strip()
            ):
                closed = True
                break
            body.append(line)
        if ours:
            yield "\n".join(body), closed


def _action(index: int, body: str, default_vault: str | None) -> Action | BlockError:
    """One block's body checked strictly (see the module docstring)."""
    if len(body) > MAX_BLOCK_CHARS:
        return BlockError(index, f"{len(body)} characters, at most {MAX_BLOCK_CHARS}")
    try:
        data = json.loads(body)
    except ValueError as exc:
        return BlockError(index, f"not valid JSON ({exc})")
    if not isinstance(data, dict):
        return BlockError(index, "must be one JSON object")
    name = data.get("action")
    if name not in ACTIONS:
        return BlockError(index, f"unknown action {name!r}; use one of {', '.join(ACTIONS)}")
    required, optional = ACTIONS[name]
    fields = set(data) - {"action"}
    if missing := sorted(required - fields):
        return BlockError(index, f"{name} needs {', '.join(missing)}")
    if extra := sorted(fields - required - optional):
        return BlockError(index, f"{name} takes no {', '.join(extra)}")
    if wrong := sorted(k for k in fields if not isinstance(data[k], str)):
        return BlockError(index, f"{', '.join(wrong)} must be text")
    vault = data.get("vault") or default_vault
    if not vault:
        return BlockError(index, 'names no vault and the chat has none: add "vault"')
    return Action(index, name, {**{k: data[k] for k in fields}, "vault": vault})


def parse_actions(text: str, default_vault: str | None = None) -> Parsed:
    """The ``obsigate-action`` blocks of a finished answer ``text``, checked strictly.

    Args:
        text: the whole answer.
        default_vault: the vault of a block that names none (the request's; ``None``: such a block is an error).

    Returns:
        The usable actions and the errors (not valid JSON, not an object, an unknown action, a missing, unknown
        or non-text field, no vault, over :data:`MAX_BLOCK_CHARS`, past :data:`MAX_BLOCKS`, not closed).
    """
    parsed = Parsed()
    for index, (body, closed) in enumerate(_blocks(text), start=1):
        if index > MAX_BLOCKS:
            parsed.errors.append(BlockError(index, f"more than {MAX_BLOCKS} blocks in one answer; not used"))
        elif not closed:
            parsed.errors.append(BlockError(index, "not closed (the answer was cut?); not used"))
        else:
            found = _action(index, body or "", default_vault)
            if isinstance(found, Action):
                parsed.actions.append(found)
            else:
                parsed.errors.append(found)
    return parsed


def note_message(lines: list[str]) -> dict[str, Any]:
    """The conversation's record of what became of an answer's blocks: an assistant message of ``lines``
    (joined to the answer before it whenever the conversation is sent to a model, :func:`join_answers`)."""
    return {"role": "assistant", "content": "\n".join(lines), "tool_calls": [], "raw": None, "provider": None,
            "model": None, "note": ACTION_TAG}  # fmt: skip


def join_answers(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` with each :func:`note_message` joined to the assistant answer right before it (one message,
    ``raw`` dropped: it no longer matches), so the roles still alternate for servers whose chat template
    requires it (Gemma's, Mistral's)."""
    out: list[dict[str, Any]] = []
    for msg in messages:
        prev = out[-1] if out else None
        if (msg.get("note") == ACTION_TAG and prev is not None and prev.get("role") == "assistant"
                and not prev.get("tool_calls")):  # fmt: skip
            content = "\n\n".join(c for c in (prev.get("content") or "", msg.get("content") or "") if c)
            out[-1] = {**prev, "content": content, "raw": None}
        else:
            out.append(msg)
    return out
