"""Every change to a vault: the single source for the write tools and the REST write routes (issue 4).

Each mutation is two functions: ``plan_<name>(ws, ...) -> Proposal`` reads what it needs and changes
nothing; ``apply_<name>(ws, ..., expected=None)`` performs it. ``expected`` is the ``Proposal.reads`` of an
earlier plan: when given, every file the plan read must still hash the same, or :class:`Conflict` is raised
and nothing is written (the confirmation flow binds these hashes into its token).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Proposal"]


@dataclass(slots=True)
class Proposal:
    """What a mutation would do, computed without changing anything.

    Attributes:
        summary: one human sentence ("create Projects/Plan.md (120 bytes)").
        diffs: ``[{"path", "action": "create"|"modify"|"delete"|"move"|"mkdir"|"rmdir", "diff", "to"?}]``;
            ``diff`` is a unified diff of the text (redacted), ``""`` for binaries and folders.
        reads: ``{vault-relative path: sha256 hex of the bytes read}``, ``""`` for a path read as absent.
        details: tool-specific facts (per-file replacement counts, links rewritten...), JSON-safe.
    """

    summary: str
    diffs: list[dict[str, Any]] = field(default_factory=list)
    reads: dict[str, str] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)
