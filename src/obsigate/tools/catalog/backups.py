"""Backup tools (read side): list_backups (a file's saved versions), diff_backup (compare one) and list_trash
(the web app's trash view; not offered to models, who find deleted files with list_backups)."""

from __future__ import annotations

from pydantic import Field

from obsigate.services import backups as svc
from obsigate.services.backups import DiffBackupResult, ListBackupsResult, ListTrashResult
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, tool
from obsigate.tools.schemas import Limit, Offset, Path, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 6

VersionField = Field(description="From list_backups.", min_length=1, max_length=64)


class ListBackupsArgs(ToolArgs):
    vault: str = Vault()
    path: str | None = Path("Omit for all.", default=None)
    limit: int = Limit(200, le=svc.MAX_LIMIT)
    offset: int = Offset()


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
    return svc.list_backups(ctx.workspace, ctx.permitted_vault, args.path, limit=args.limit, offset=args.offset)


class DiffBackupArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path()
    version: str = VersionField
    compare_with: str | None = Field(
        default=None, min_length=1, max_length=64, description="Default: the current file."
    )


@tool(
    "diff_backup",
    title="Compare a backup",
    label=("Comparaison de sauvegarde : {path}", "Backup compared: {path}"),
    rest=Rest("GET", "/file/{vault}/diff", summary="Unified diff from a backup to the current file or another backup"),
)
def diff_backup(ctx: ToolContext, args: DiffBackupArgs) -> DiffBackupResult:
    """Diff a backup against the current file or another version ('-': backup only, '+': other side only)."""
    return svc.diff_backup(ctx.workspace, ctx.permitted_vault, args.path, args.version, compare_with=args.compare_with)


class ListTrashArgs(ToolArgs):
    vault: str = Vault()
    limit: int = Limit(100, le=svc.MAX_LIMIT)
    offset: int = Offset()


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
    return svc.list_trash(ctx.workspace, ctx.permitted_vault, limit=args.limit, offset=args.offset)
