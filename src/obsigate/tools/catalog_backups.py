"""Backup tools (read side): list_backups (a file's saved versions) and diff_backup (compare one)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from obsigate.services import backups as svc
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import PathField, VaultField

VersionField = Field(
    description="Backup version id as returned by list_backups, e.g. '20261130T120501.123456Z-3f2a'.",
    min_length=1,
    max_length=64,
)


class ListBackupsArgs(ToolArgs):
    vault: str = VaultField
    path: str | None = Field(
        default=None,
        max_length=1024,
        description="The file whose versions to list; leave it out to list every path with backups (deleted ones too).",
    )


class BackupVersion(BaseModel):
    version: str = Field(description="Version id; ids sort by age.")
    created: str = Field(description="When the backup was taken, ISO 8601 UTC.")
    size: int = Field(description="Size of the saved file in bytes.")
    sha256: str
    reason: str = Field(description="The change that made the backup: edit_file, delete_file, rename_file...")
    deleted: bool = Field(default=False, description="The file was deleted; this backup holds its content.")


class BackedUpFile(BaseModel):
    path: str
    versions: int
    latest: str = Field(description="Newest version id.")
    created: str = Field(description="When the newest backup was taken, ISO 8601 UTC.")
    reason: str
    deleted: bool = Field(description="The newest backup holds a file that was deleted.")


class ListBackupsResult(ToolOutput):
    vault: str
    path: str | None
    versions: list[BackupVersion] = Field(description="The file's versions, newest first (with path).")
    files: list[BackedUpFile] | None = Field(default=None, description="Without path: every backed-up path, most recent first.")
    total: int


@tool("list_backups", title="List a file's backups")
def list_backups(ctx: ToolContext, args: ListBackupsArgs) -> ListBackupsResult:
    """List the saved versions (backups) of a file, newest first.

    A backup is taken automatically before every change that overwrites, renames, moves, replaces or
    deletes a file, so this is how to undo a change or find a deleted note again (by its old path; the
    file need not exist any more; without path, every backed-up path is listed, deleted ones marked).
    Compare a version with diff_backup; restore it with restore_backup. An empty list means no backup."""
    return ListBackupsResult(**svc.list_backups(ctx.workspace, args.vault, args.path, ctx.allowed_vaults))


class DiffBackupArgs(ToolArgs):
    vault: str = VaultField
    path: str = PathField
    version: str = VersionField
    compare_with: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Another version id of the same file to compare with; default: the file as it is now.",
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


@tool("diff_backup", title="Compare a backup")
def diff_backup(ctx: ToolContext, args: DiffBackupArgs) -> DiffBackupResult:
    """Compare a backup version of a file with the file as it is now, or with another version.

    The unified diff goes from the backup (`---`) to the other side (`+++`): `-` lines are in the backup
    only, `+` lines only in the current file (or in `compare_with`). A deleted file compares as empty.
    Get version ids from list_backups. Secrets are shown as [REDACTED:...]; long diffs are cut and
    `truncated` is true."""
    result = svc.diff_backup(
        ctx.workspace, args.vault, args.path, args.version, ctx.allowed_vaults, compare_with=args.compare_with
    )
    return DiffBackupResult(**result)
