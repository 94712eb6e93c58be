"""Write tools (issue 4): every change to a vault, each with a planner for the propose/apply confirmation.

Names and parameters are the seeds' catalog. Risk ``write`` for create/edit/append/restore, ``dangerous`` for
rename/move/replace/delete (blocked per vault by ``aiDestructiveTools``). Over MCP these are only reachable as
``propose_<tool>`` → ``apply_<tool>`` (``tools/confirmations.py``); REST calls them directly as the human's own
action. Each tool is a thin pair over ``services.mutations``: the planner calls ``propose``, the tool calls
``apply`` with the hashes its confirmed proposal read (``ctx.expected_reads``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from obsigate.services import mutations as svc
from obsigate.services.changes import BackupRef, Change, FileChange
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Risk, ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import PathField, VaultField

ContentField = Field(description="The text, exactly as it should be written (UTF-8).", max_length=5_000_000)


class MutationResult(ToolOutput):
    """What a write tool did: the applied :class:`~obsigate.services.changes.Change`."""

    vault: str
    summary: str
    changes: list[FileChange]
    backups: list[BackupRef] = Field(description="Copies saved before anything was overwritten, moved or deleted.")
    details: dict[str, Any]

    @classmethod
    def of(cls, change: Change) -> MutationResult:
        """The result view of an applied change."""
        return cls(vault=change.vault or "", summary=change.summary, changes=change.changes, backups=change.backups,
                   details=change.details)  # fmt: skip


def _pair(op: str, planner: svc.Planner, risk: Risk, title: str, doc: str, args_model: type[ToolArgs]) -> None:
    """Register tool ``op`` over its service ``planner``: the spec's planner proposes with it, the tool
    applies it (with the hashes its confirmed proposal read)."""

    def fields(args: ToolArgs) -> dict[str, Any]:
        return args.model_dump(exclude={"vault"}, exclude_unset=True)

    def plan(ctx: ToolContext, args: ToolArgs) -> Change:
        return svc.propose(ctx.workspace, planner, args.vault, ctx.allowed_vaults, **fields(args))  # type: ignore[attr-defined]

    def run(ctx: ToolContext, args: ToolArgs) -> MutationResult:
        change = svc.apply(
            ctx.workspace, planner, args.vault, ctx.allowed_vaults, expected=ctx.expected_reads, **fields(args)  # type: ignore[attr-defined]
        )
        return MutationResult.of(change)

    run.__doc__ = doc
    run.__annotations__ = {"ctx": ToolContext, "args": args_model, "return": MutationResult}
    tool(op, title=title, risk=risk, idempotent=False, planner=plan)(run)


class CreateFileArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField
    content: str = ContentField


class CreateDirectoryArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField


class EditFileArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField
    content: str | None = Field(
        default=None, max_length=5_000_000,
        description="Whole new content; or, with heading, the new text of that section.",
    )  # fmt: skip
    find: str | None = Field(default=None, max_length=100_000, description="Exact text to replace (with replace).")
    replace: str | None = Field(default=None, max_length=1_000_000, description="Literal replacement for find.")
    expected_count: int | None = Field(
        default=1, ge=1, description="How many times find must occur (null: any number); a mismatch changes nothing."
    )
    heading: str | None = Field(
        default=None, max_length=500, description="Replace only the section under this heading (to the next heading of the same level)."
    )


class AppendArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField
    content: str = ContentField


class RestoreArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField
    version: str = Field(description="Backup version id from list_backups.", max_length=200)


class RenameArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField
    new_name: str = Field(
        description="New name in the same folder; a file keeps its extension when it is left out ('Plan v2' → 'Plan v2.md').",
        max_length=255,
    )


class MoveArgs(ToolArgs):
    vault: str = VaultField
    source_path: str = Field(description="File or folder to move.", max_length=1024)
    destination_dir: str = Field(description="Existing folder to move it into; '' = the vault root.", max_length=1024)


class ReplaceArgs(ToolArgs):
    find: str = Field(description="Text to find (literal unless regex).", min_length=1, max_length=10_000)
    replace: str = Field(description="Literal replacement ($1, \\1 and & are inserted as typed).", max_length=100_000)
    vault: str = VaultField
    case_sensitive: bool = False
    whole_word: bool = False
    regex: bool = Field(default=False, description="find is a regular expression (Python syntax).")
    include_paths: list[str] | None = Field(default=None, description="Only notes matching one of these globs.")
    exclude_paths: list[str] | None = Field(default=None, description="Leave out notes matching one of these globs.")
    replace_all: bool = Field(default=True, description="Every match (true) or only the first match of each note.")
    dry_run: bool = Field(default=False, description="Only count and show the changes.")


class DeleteFileArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField


class DeleteDirectoryArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField
    recursive: bool = Field(default=False, description="Also delete what the folder holds (all backed up first).")


_LINKS = "Every link to it is rewritten the way Obsidian does, so links keep pointing to the same notes."
_pair("create_file", svc.plan_create_file, Risk.WRITE, "Create a note",
      "Create a new file (never overwrites an existing one; missing folders are created).", CreateFileArgs)
_pair("create_directory", svc.plan_create_directory, Risk.WRITE, "Create a folder",
      "Create a folder in a vault (and its missing parent folders); never replaces anything.", CreateDirectoryArgs)
_pair("edit_file", svc.plan_edit_file, Risk.WRITE, "Edit a note",
      "Change a file: its whole content, an exact text (find/replace, checked against expected_count), or the "
      "section under a heading. The rest of the file, frontmatter included, stays byte for byte; line endings "
      "and BOM are kept. The previous version is backed up.", EditFileArgs)
_pair("append_to_file", svc.plan_append_to_file, Risk.WRITE, "Append to a note",
      "Add text at the end of a file, joined by exactly one line break (the file is created if missing).", AppendArgs)
_pair("restore_backup", svc.plan_restore_backup, Risk.WRITE, "Restore a backup",
      "Put back a saved version of a file (the current one is backed up first).", RestoreArgs)
_pair("rename_file", svc.plan_rename_file, Risk.DANGEROUS, "Rename a file", "Rename a file in its folder. " + _LINKS, RenameArgs)
_pair("rename_directory", svc.plan_rename_directory, Risk.DANGEROUS, "Rename a folder", "Rename a folder. " + _LINKS, RenameArgs)
_pair("move_path", svc.plan_move_path, Risk.DANGEROUS, "Move a file or folder", "Move a file or folder into another folder. " + _LINKS, MoveArgs)
_pair("replace_in_files", svc.plan_replace_in_files, Risk.DANGEROUS, "Replace in notes",
      "Replace text in every matching note (literal by default; regex, case and whole-word options; path "
      "globs). Use dry_run to see the counts first. Changed notes are backed up.", ReplaceArgs)
_pair("delete_file", svc.plan_delete_file, Risk.DANGEROUS, "Delete a file",
      "Delete a file; it is moved into the backup store, so restore_backup can bring it back.", DeleteFileArgs)
_pair("delete_directory", svc.plan_delete_directory, Risk.DANGEROUS, "Delete a folder",
      "Delete a folder (recursive for a non-empty one); every file is backed up first.", DeleteDirectoryArgs)
