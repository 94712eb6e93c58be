"""The one change model: what a mutation will do (planned) and what it did (applied).

A planner returns a :class:`Change` without touching the vault; the confirmation token binds its ``reads``
and ``paths``; applying returns the same type with ``backups`` filled. Both the MCP results (``propose_`` →
``diffs``, ``apply_`` → ``changes``) and the REST results are views of it: a :class:`FileChange` carries its
unified ``diff`` while planned and drops it once applied.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_serializer

Action = Literal["create", "modify", "delete", "move", "mkdir", "rmdir"]


class FileChange(BaseModel):
    """One path a change touches: ``action`` on ``path`` (``to``: a move's destination); ``diff``: the
    redacted unified diff of the text while planned (``""`` for binaries and folders), absent once applied."""

    model_config = ConfigDict(frozen=True)

    path: str
    action: Action
    to: str | None = None
    diff: str | None = None

    @model_serializer(mode="wrap")
    def _drop_absent_diff(self, handler: Any) -> dict[str, Any]:
        data = handler(self)
        if data.get("diff") is None:
            data.pop("diff", None)
        return data


class BackupRef(BaseModel):
    """A copy saved before a change overwrote, moved or deleted ``path``: ``version`` for restore_backup."""

    path: str
    version: str


class Change(BaseModel):
    """A mutation of one vault.

    Attributes:
        summary: one human sentence ("create Projects/Plan.md (120 bytes)").
        changes: every path touched, in order (a ``propose_`` result calls them ``diffs``).
        reads: ``{vault-relative path: sha256 hex of the bytes the plan read, "" = absent}``; applying refuses
            with ``conflict`` when any differs (never serialised).
        details: tool-specific facts (replacement counts, links rewritten...), JSON-safe.
        vault: the vault changed.
        backups: filled once applied.
    """

    summary: str
    changes: list[FileChange] = Field(default_factory=list)
    reads: dict[str, str] = Field(default_factory=dict, exclude=True)
    details: dict[str, Any] = Field(default_factory=dict)
    vault: str | None = None
    backups: list[BackupRef] = Field(default_factory=list)

    @property
    def paths(self) -> list[str]:
        """Every path touched (sources and move destinations), first seen first."""
        out: list[str] = []
        for f in self.changes:
            for p in (f.path, f.to):
                if p is not None and p not in out:
                    out.append(p)
        return out

    def applied(self, backups: list[BackupRef]) -> Change:
        """This change once done: the diffs dropped (an apply renders none: kept for a planned change handed
        here), ``backups`` set."""
        changes = [f if f.diff is None else f.model_copy(update={"diff": None}) for f in self.changes]
        return self.model_copy(update={"changes": changes, "backups": list(backups)})
