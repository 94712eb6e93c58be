"""Backup tools (read side): list_backups (a file's saved versions), diff_backup (compare one) and list_trash
(the web app's trash view; not offered to models, who find deleted files with list_backups)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from obsigate.services import backups as svc
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import Limit, Offset, Page, Path, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 6

VersionField = Field(description="From list_backups.", min_length=1, max_length=64)


class ListBackupsArgs(ToolArgs):
    vault: str = Vault()
    path: str | None = Path("Omit for all.", default=None)
    limit: int = Limit(200, le=svc.MAX_LIMIT)
    offset: int = Offset()


class BackupVersion(BaseModel):
    version: str = Field(description="Version id; ids sort by age.")
    created: str = Field(description="When the backup was taken, ISO 8601 UTC.")
    size: int = Field(description="Size of the saved file in bytes.")
    file_version: str = Field(description="The saved file's version, as read_file's (equal: same content).")
    reason: str = Field(description="The change that made the backup: edit_file, delete_file, rename_file...")
    deleted: bool = Field(default=False, description="The file was deleted; this backup holds its content.")


class BackedUpFile(BaseModel):
    path: str
    versions: int
    latest: str = Field(description="Newest version id.")
    created: str = Field(description="When the newest backup was taken, ISO 8601 UTC.")
    reason: str
    deleted: bool = Field(description="The newest backup holds a file that was deleted.")


class ListBackupsResult(ToolOutput, Page):
    vault: str
    path: str | None
    versions: list[BackupVersion] = Field(description="The file's versions, newest first (with path).")
    files: list[BackedUpFile] | None = Field(
        default=None, description="Without path: every backed-up path, most recent first."
    )


@tool(
    "list_backups",
    title="List a file's backups",
    label=("Sauvegardes consultées", "Backups listed"),
    rest=Rest(
        "GET", "/file/{vault}/backups", summary="A file's backups, newest first; without path, every backed-up path"
    ),
)
def list_backups(ctx: ToolContext, args: ListBackupsArgs) -> ListBackupsResult:
    """List a file's backups (taken before each overwrite, move, delete), newest first; no path: every
    backed-up path (finds deleted notes)."""
    return ListBackupsResult(**svc.list_backups(ctx.workspace, ctx.permitted_vault, **args.service_args()))


class DiffBackupArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path()
    version: str = VersionField
    compare_with: str | None = Field(
        default=None, min_length=1, max_length=64, description="Default: the current file."
    )


class DiffBackupResult(ToolOutput):
    vault: str
    path: str
    version: str
    compare_with: str | None = Field(description="The other version id, or null for the current file.")
    diff: str = Field(
        description="Unified diff from the backup to the other side (secrets redacted); '' when identical; "
        "a one-line note for binary files."
    )


@tool(
    "diff_backup",
    title="Compare a backup",
    label=("Comparaison de sauvegarde : {path}", "Backup compared: {path}"),
    rest=Rest("GET", "/file/{vault}/diff", summary="Unified diff from a backup to the current file or another backup"),
)
def diff_backup(ctx: ToolContext, args: DiffBackupArgs) -> DiffBackupResult:
    """Diff a backup against the current file or another version ('-': backup only, '+': other side only)."""
    result = svc.diff_backup(ctx.workspace, ctx.permitted_vault, **args.service_args())
    return DiffBackupResult(**result)


class ListTrashArgs(ToolArgs):
    vault: str = Vault()
    limit: int = Limit(100, le=svc.MAX_LIMIT)
    offset: int = Offset()


class TrashedFile(BaseModel):
    path: str
    version: str = Field(description="Its newest backup: the content it had when it was deleted.")
    deleted_at: str = Field(description="ISO 8601 UTC.")
    reason: str = Field(description="delete_file or delete_directory.")
    size: int | None = Field(description="Bytes.")


class TrashEntry(BaseModel):
    kind: str = Field(description="'file', or 'folder': a deleted folder and the files it held.")
    path: str
    deleted_at: str = Field(description="The latest deletion in the entry, ISO 8601 UTC.")
    count: int = Field(description="Files in the entry.")
    files: list[TrashedFile] = Field(description=f"By path; a folder's first {svc.MAX_FOLDER_FILES}.")


class ListTrashResult(ToolOutput, Page):
    vault: str
    entries: list[TrashEntry] = Field(description="Newest deletion first.")


@tool(
    "list_trash",
    title="List the trash",
    scopes=(),
    label=("Corbeille consultée", "Trash listed"),
    rest=Rest("GET", "/trash/{vault}", summary="Deleted files still gone, a deleted folder as one entry, newest first"),
)
def list_trash(ctx: ToolContext, args: ListTrashArgs) -> ListTrashResult:
    """List deleted files that are still gone, a deleted folder as one entry with its files, newest first;
    restore_trash brings one back."""
    return ListTrashResult(**svc.list_trash(ctx.workspace, ctx.permitted_vault, **args.service_args()))
