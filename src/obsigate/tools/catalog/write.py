"""Write tools (issue 4): every change to a vault, each with a planner for the propose/apply confirmation.

Names and parameters are the seeds' catalog. Risk ``write`` for create/edit/append/restore, ``dangerous`` for
rename/move/replace/delete (blocked per vault by ``aiDestructiveTools``). Over MCP these are only reachable as
``propose_<tool>`` → ``apply_<tool>`` (``tools/confirmations.py``); REST calls them directly as the human's own
action. Each tool is a thin pair over ``services.mutations``: the planner calls ``propose``, the tool calls
``apply`` with the hashes its confirmed proposal read (``ctx.expected_reads``). Those hashes are the files'
keyed versions (``domain/versions.py``), as read_file gives them, never their SHA-256: the confirmation token
(a JWT its holder can decode) binds them, and the editor's save compares its ``version`` with them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from obsigate.domain.vault import Vault as VaultRef
from obsigate.services import mutations as svc
from obsigate.services.changes import BackupRef, Change, FileChange
from obsigate.services.workspace import Workspace
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Risk, Scope, ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import FolderPath, Glob, Globs, Path, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 7

ContentField = Field(description="Text to write, exactly as given.", max_length=5_000_000)


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


#: Writes that commute with any other write: applied to the file as it is then, not refused when it changed
#: since the proposal (an append lands after whatever was written meanwhile; a create still refuses a file
#: that appeared, with ``exists``). Every other write depends on what it read and answers ``conflict``.
REBASED = frozenset({"append_to_file", "create_file", "create_directory"})


def _versioned(planner: svc.Planner) -> svc.Planner:
    """``planner`` with its plan's ``reads`` given as the files' keyed versions (``Workspace.versions``)
    instead of their SHA-256: what a reader was shown (read_file's ``version``) is what a write is checked
    against, and no hash of a file's secrets goes into a proposal or its token."""

    def plan(ws: Workspace, vault: VaultRef, **args: Any) -> svc.Plan:
        planned = planner(ws, vault, **args)
        reads = {path: ws.versions.of_sha256(digest) for path, digest in planned.change.reads.items()}
        planned.change = planned.change.model_copy(update={"reads": reads})
        return planned

    return plan


def _pair(
    op: str,
    planner: svc.Planner,
    risk: Risk,
    title: str,
    doc: str,
    args_model: type[ToolArgs],
    scopes: tuple[Scope, ...] = (Scope.IN_APP, Scope.MCP),
) -> None:
    """Register tool ``op`` over its service ``planner``: the spec's planner proposes with it, the tool
    applies it (checked against the hashes its confirmed proposal read, unless ``op`` is :data:`REBASED`),
    both on ``ctx.vault``, the vault ``permit`` resolved (the call's one grant check). ``scopes``: the
    model-facing fronts that offer it (none: the web app, REST and the CLI only)."""
    rebased = op in REBASED
    versioned = _versioned(planner)

    def fields(args: ToolArgs) -> dict[str, Any]:
        return args.model_dump(exclude={"vault"}, exclude_unset=True)

    def plan(ctx: ToolContext, args: ToolArgs) -> Change:
        return svc.propose(ctx.workspace, versioned, ctx.permitted_vault, **fields(args))

    def run(ctx: ToolContext, args: ToolArgs) -> MutationResult:
        expected = None if rebased else ctx.expected_reads
        change = svc.apply(ctx.workspace, versioned, ctx.permitted_vault, expected=expected, **fields(args))
        return MutationResult.of(change)

    run.__doc__ = doc
    run.__annotations__ = {"ctx": ToolContext, "args": args_model, "return": MutationResult}
    tool(op, title=title, risk=risk, scopes=scopes, idempotent=False, planner=plan)(run)


class PathArgs(ToolArgs):
    """A file of a vault: delete_file, and the base of the other file tools."""

    vault: str = Vault()
    path: str = Path()


class ContentArgs(PathArgs):
    """create_file and append_to_file: a path and the text."""

    content: str = ContentField


class EditFileArgs(PathArgs):
    content: str | None = Field(
        default=None, max_length=5_000_000, description="New whole content, or with heading the section's new text."
    )
    find: str | None = Field(default=None, max_length=100_000, description="Exact text to replace (with replace).")
    replace: str | None = Field(default=None, max_length=1_000_000, description="Literal replacement for find.")
    expected_count: int | None = Field(default=1, ge=1, description="Occurrences find must have (null: any).")
    heading: str | None = Field(
        default=None,
        max_length=500,
        description="Replace its section (to the next heading of the same or higher level).",
    )


class RestoreArgs(PathArgs):
    version: str = Field(description="Version id (from list_backups).", max_length=200)


class RestoreTrashArgs(PathArgs):
    kind: Literal["file", "folder"] | None = Field(
        default=None,
        description="The list_trash entry's kind at path: 'file', or 'folder' (every file below "
        "it). Default: the file if the trash holds one at path, else the folder.",
    )


class RenameArgs(PathArgs):
    new_name: str = Field(description="New name (same folder); a file keeps its extension if omitted.", max_length=255)


class FolderArgs(ToolArgs):
    """create_directory: a folder of a vault."""

    vault: str = Vault()
    path: str = FolderPath()


class RenameFolderArgs(FolderArgs):
    new_name: str = Field(description="New folder name (same parent folder).", max_length=255)


class MoveArgs(ToolArgs):
    vault: str = Vault()
    source_path: str = Field(description="File or folder to move.", max_length=1024)
    destination_dir: str = Field(description="Existing folder to move into; '' = the vault root.", max_length=1024)


class ReplaceArgs(ToolArgs):
    find: str = Field(description="Text to find (literal unless regex).", min_length=1, max_length=10_000)
    replace: str = Field(description="Literal replacement (no group references).", max_length=100_000)
    vault: str = Vault()
    case_sensitive: bool = False
    whole_word: bool = False
    regex: bool = Field(default=False, description="find is a Python regular expression.")
    include_paths: list[Glob] | None = Globs("Only paths matching a glob (** spans folders).")
    exclude_paths: list[Glob] | None = Globs("Paths to leave out (globs).")
    replace_all: bool = Field(default=True, description="Every match, or only the first in each note.")
    dry_run: bool = Field(default=False, description="Only count and show the changes.")


class DeleteDirectoryArgs(FolderArgs):
    recursive: bool = Field(default=False, description="Also delete its contents (backed up first).")


_LINKS = "links to it are updated."
_pair(
    "create_file",
    svc.plan_create_file,
    Risk.WRITE,
    "Create a note",
    "Create a new file (never overwrites; missing folders are created).",
    ContentArgs,
)
_pair(
    "create_directory",
    svc.plan_create_directory,
    Risk.WRITE,
    "Create a folder",
    "Create a folder (and missing parent folders).",
    FolderArgs,
)
_pair(
    "edit_file",
    svc.plan_edit_file,
    Risk.WRITE,
    "Edit a note",
    "Change a file: whole content, an exact find/replace, or the section under a heading. The rest stays "
    "byte for byte.",
    EditFileArgs,
)
_pair(
    "append_to_file",
    svc.plan_append_to_file,
    Risk.WRITE,
    "Append to a note",
    "Append text to a file on a new line (creates the file if missing).",
    ContentArgs,
)
_pair(
    "restore_backup",
    svc.plan_restore_backup,
    Risk.WRITE,
    "Restore a backup",
    "Put back a backed-up version of a file (backing up the current one).",
    RestoreArgs,
)
# The trash's restore is the web app's (a person restoring what they deleted); models restore with restore_backup.
_pair(
    "restore_trash",
    svc.plan_restore_trash,
    Risk.WRITE,
    "Restore from the trash",
    "Bring back a deleted file, or every deleted file of a deleted folder, from its newest backup (never "
    "overwrites: exists).",
    RestoreTrashArgs,
    scopes=(),
)
_pair(
    "rename_file",
    svc.plan_rename_file,
    Risk.DANGEROUS,
    "Rename a file",
    "Rename a file in its folder; " + _LINKS,
    RenameArgs,
)
_pair(
    "rename_directory",
    svc.plan_rename_directory,
    Risk.DANGEROUS,
    "Rename a folder",
    "Rename a folder; " + _LINKS,
    RenameFolderArgs,
)
_pair(
    "move_path",
    svc.plan_move_path,
    Risk.DANGEROUS,
    "Move a file or folder",
    "Move a file or folder into another folder; " + _LINKS,
    MoveArgs,
)
_pair(
    "replace_in_files",
    svc.plan_replace_in_files,
    Risk.DANGEROUS,
    "Replace in notes",
    "Replace text in every matching note (literal or regex; path globs). dry_run only counts.",
    ReplaceArgs,
)
_pair(
    "delete_file",
    svc.plan_delete_file,
    Risk.DANGEROUS,
    "Delete a file",
    "Delete a file (restore_backup can bring it back).",
    PathArgs,
)
_pair(
    "delete_directory",
    svc.plan_delete_directory,
    Risk.DANGEROUS,
    "Delete a folder",
    "Delete a folder (recursive if not empty); its files are backed up first.",
    DeleteDirectoryArgs,
)
