"""Write tools (issue 4): every change to a vault, each with a planner for the propose/apply confirmation.

Names and parameters are the seeds' catalog. Risk ``write`` for create/edit/append/restore, ``dangerous`` for
rename/move/replace/delete (blocked per vault by ``aiDestructiveTools``). Over MCP these are only reachable as
``propose_<tool>`` → ``apply_<tool>`` (``tools/confirmations.py``); REST calls them directly as the human's own
action. Each tool is a function declared with :func:`write_tool` over its ``services.mutations`` planner: the
one adapter proposes with ``propose`` and applies with ``apply``, checked against the hashes its confirmed
proposal read (``ctx.expected_reads``). Those hashes are the files'
keyed versions (``domain/versions.py``), as read_file gives them, never their SHA-256: the confirmation token
(a JWT its holder can decode) binds them, and the editor's save compares its ``version`` with them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from obsigate.domain.vault import Vault as VaultRef
from obsigate.services import mutations as svc
from obsigate.services.changes import BackupRef, Change, FileChange
from obsigate.services.workspace import Workspace
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, Risk, ToolArgs, ToolOutput, tool
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


def write_tool(
    name: str, planner: svc.Planner, **declaration: Any
) -> Callable[[Callable[..., MutationResult]], Callable[..., MutationResult]]:
    """Declare write tool ``name`` over its service ``planner``: ``@tool`` with ``declaration`` (title, risk,
    label, rest, ``rebased``...), the decorated function giving the docstring and the argument model.

    The one propose/apply adapter: the spec's planner proposes with ``planner`` (nothing changes), the tool
    applies it, both on ``ctx.permitted_vault`` (the vault ``permit`` resolved: the call's one grant check), the
    apply checked against the files its confirmed proposal read (``ctx.expected_reads``) unless the declaration
    says ``rebased=True`` (the write commutes with any other: an append lands after whatever was written
    meanwhile; a create still refuses a file that appeared, with ``exists``). Returns the applying function,
    under the declared function's name and docstring (its own body is never run).
    """
    versioned = _versioned(planner)
    rebased = declaration.get("rebased", False)

    def fields(args: ToolArgs) -> dict[str, Any]:
        return args.model_dump(exclude={"vault"}, exclude_unset=True)

    def propose(ctx: ToolContext, args: ToolArgs) -> Change:
        return svc.propose(ctx.workspace, versioned, ctx.permitted_vault, **fields(args))

    def decorate(declared: Callable[..., MutationResult]) -> Callable[..., MutationResult]:
        @functools.wraps(declared)
        def apply(ctx: ToolContext, args: ToolArgs) -> MutationResult:
            expected = None if rebased else ctx.expected_reads
            change = svc.apply(ctx.workspace, versioned, ctx.permitted_vault, expected=expected, **fields(args))
            return MutationResult.of(change)

        return tool(name, idempotent=False, planner=propose, **declaration)(apply)

    return decorate


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


@write_tool(
    "create_file",
    svc.plan_create_file,
    title="Create a note",
    risk=Risk.WRITE,
    rebased=True,
    label=("Fichier proposé : {path}", "File proposed: {path}"),
    rest=Rest("POST", "/file/{vault}", summary="Create a file (never overwrites)"),
)
def create_file(ctx: ToolContext, args: ContentArgs) -> MutationResult:
    """Create a new file (never overwrites; missing folders are created)."""


@write_tool(
    "create_directory",
    svc.plan_create_directory,
    title="Create a folder",
    risk=Risk.WRITE,
    rebased=True,
    label=("Dossier proposé : {path}", "Folder proposed: {path}"),
    rest=Rest("POST", "/directory/{vault}", summary="Create a folder"),
)
def create_directory(ctx: ToolContext, args: FolderArgs) -> MutationResult:
    """Create a folder (and missing parent folders)."""


@write_tool(
    "edit_file",
    svc.plan_edit_file,
    title="Edit a note",
    risk=Risk.WRITE,
    label=("Fichier modifié : {path}", "File edited: {path}"),
    rest=Rest("PATCH", "/file/{vault}", summary="Edit a file: whole content, find/replace, or a heading's section"),
)
def edit_file(ctx: ToolContext, args: EditFileArgs) -> MutationResult:
    """Change a file: whole content, an exact find/replace, or the section under a heading. The rest stays byte for byte."""


@write_tool(
    "append_to_file",
    svc.plan_append_to_file,
    title="Append to a note",
    risk=Risk.WRITE,
    rebased=True,
    label=("Fichier complété : {path}", "File appended: {path}"),
    rest=Rest("POST", "/file/{vault}/append", summary="Append text to a file (created if missing)", name="append_file"),
)
def append_to_file(ctx: ToolContext, args: ContentArgs) -> MutationResult:
    """Append text to a file on a new line (creates the file if missing)."""


@write_tool(
    "restore_backup",
    svc.plan_restore_backup,
    title="Restore a backup",
    risk=Risk.WRITE,
    label=("Sauvegarde restaurée : {path}", "Backup restored: {path}"),
    rest=Rest("POST", "/file/{vault}/restore", summary="Restore a backup version of a file", name="restore_file"),
)
def restore_backup(ctx: ToolContext, args: RestoreArgs) -> MutationResult:
    """Put back a backed-up version of a file (backing up the current one)."""


# The trash's restore is the web app's (a person restoring what they deleted); models restore with restore_backup.
@write_tool(
    "restore_trash",
    svc.plan_restore_trash,
    title="Restore from the trash",
    risk=Risk.WRITE,
    scopes=(),
    label=("Restauré depuis la corbeille : {path}", "Restored from the trash: {path}"),
    rest=Rest(
        "POST",
        "/trash/{vault}/restore",
        summary="Restore a deleted file, or every file of a deleted folder (never overwrites)",
    ),
)
def restore_trash(ctx: ToolContext, args: RestoreTrashArgs) -> MutationResult:
    """Bring back a deleted file, or every deleted file of a deleted folder, from its newest backup (never overwrites: exists)."""


@write_tool(
    "rename_file",
    svc.plan_rename_file,
    title="Rename a file",
    risk=Risk.DANGEROUS,
    label=("Fichier renommé : {path}", "File renamed: {path}"),
    rest=Rest("POST", "/file/{vault}/rename", summary="Rename a file; links to it are rewritten"),
)
def rename_file(ctx: ToolContext, args: RenameArgs) -> MutationResult:
    """Rename a file in its folder; links to it are updated."""


@write_tool(
    "rename_directory",
    svc.plan_rename_directory,
    title="Rename a folder",
    risk=Risk.DANGEROUS,
    label=("Dossier renommé : {path}", "Folder renamed: {path}"),
    rest=Rest("PATCH", "/directory/{vault}", summary="Rename a folder; links into it are rewritten"),
)
def rename_directory(ctx: ToolContext, args: RenameFolderArgs) -> MutationResult:
    """Rename a folder; links to it are updated."""


@write_tool(
    "move_path",
    svc.plan_move_path,
    title="Move a file or folder",
    risk=Risk.DANGEROUS,
    label=("Élément déplacé : {path}", "Item moved: {path}"),
    rest=Rest("POST", "/move/{vault}", summary="Move a file or folder into another folder; links are rewritten"),
)
def move_path(ctx: ToolContext, args: MoveArgs) -> MutationResult:
    """Move a file or folder into another folder; links to it are updated."""


@write_tool(
    "replace_in_files",
    svc.plan_replace_in_files,
    title="Replace in notes",
    risk=Risk.DANGEROUS,
    label=("Remplacements : {pattern}", "Replacements: {pattern}"),
    rest=Rest("POST", "/search/replace", summary="Replace text across notes (dry_run to preview)"),
)
def replace_in_files(ctx: ToolContext, args: ReplaceArgs) -> MutationResult:
    """Replace text in every matching note (literal or regex; path globs). dry_run only counts."""


@write_tool(
    "delete_file",
    svc.plan_delete_file,
    title="Delete a file",
    risk=Risk.DANGEROUS,
    label=("Fichier supprimé : {path}", "File deleted: {path}"),
    rest=Rest("DELETE", "/file/{vault}", summary="Delete a file (kept in the backups)"),
)
def delete_file(ctx: ToolContext, args: PathArgs) -> MutationResult:
    """Delete a file (restore_backup can bring it back)."""


@write_tool(
    "delete_directory",
    svc.plan_delete_directory,
    title="Delete a folder",
    risk=Risk.DANGEROUS,
    label=("Dossier supprimé : {path}", "Folder deleted: {path}"),
    rest=Rest("DELETE", "/directory/{vault}", summary="Delete a folder (every file kept in the backups)"),
)
def delete_directory(ctx: ToolContext, args: DeleteDirectoryArgs) -> MutationResult:
    """Delete a folder (recursive if not empty); its files are backed up first."""
