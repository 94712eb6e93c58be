"""The editor's AI text actions (issue 18 item 1): the selection a person sends to a model passes the door like
every read, so it (and the action's own field: instruction, tone or language) is redacted by the one rule (``pipeline.finish``) and audited (``ai_text_action``, the text
kept as its length and digest), before ``agent/text_actions.py`` puts it in a prompt. Offered to no model
(``scopes=()``); the front runs it with ``call_tool(..., front_call=True)``.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, ToolOutput, tool

#: Position of this family in the registry (tools/catalog/__init__.py): after the fronts' own operations.
ORDER = 10

#: A bound on the text the door accepts at all; the action's own, smaller limit is checked by its caller (a
#: ``too_large`` error that names it) before this tool runs.
MAX_TEXT_CHARS = 1_000_000


class SelectionArgs(ToolArgs):
    """The ``action`` (its id, for the audit), the selected ``text`` and the action's own field ``value``."""

    action: str = Field(min_length=1, max_length=32, description="The action's id (audited).")
    text: str = Field(min_length=1, max_length=MAX_TEXT_CHARS, description="The selection.")
    value: str | None = Field(default=None, max_length=2000, description="The action's instruction, tone or language.")


class SelectionResult(ToolOutput):
    """The selection as a model may read it: ``text`` (and ``value``, the action's field) redacted by ``pipeline.finish``, never cut (the caller
    bounds it; a cut selection would be rewritten as if it were whole)."""

    UNBOUNDED: ClassVar[bool] = True
    AUDIT_ACTION: ClassVar[str] = "ai_text_action"

    text: str
    value: str | None = None


@tool(
    "text_action_input",
    title="AI text action input",
    scopes=(),
    label=("Sélection préparée pour l’IA", "Selection prepared for the AI"),
)
def text_action_input(ctx: ToolContext, args: SelectionArgs) -> SelectionResult:
    """The editor's selection as an AI text action sends it to a model (redacted)."""
    return SelectionResult(text=args.text, value=args.value)
