"""Vault and folder tools: list_vaults, list_directory, list_all_files."""

from __future__ import annotations

from pydantic import BaseModel, Field

from obsigate.services import vaults as svc
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import MAX_LIST_OFFSET, Page, VaultField


class ListVaultsArgs(ToolArgs):
    pass


class VaultInfo(BaseModel):
    name: str
    notes: int
    read_only: bool
    destructive_tools: bool


class ListVaultsResult(ToolOutput):
    vaults: list[VaultInfo]


@tool("list_vaults", title="List vaults")
def list_vaults(ctx: ToolContext, args: ListVaultsArgs) -> ListVaultsResult:
    """List the vaults (note collections) you can use, with their number of notes.

    Start here: every other tool takes one of these names as its `vault` argument."""
    return ListVaultsResult(vaults=svc.list_accessible_vaults(ctx.workspace, ctx.allowed_vaults))


class ListDirectoryArgs(ToolArgs):
    vault: str = VaultField
    path: str = Field(default="", description="Folder to list, relative to the vault root; '' for the root.", max_length=1024)
    limit: int = Field(default=200, ge=1, le=1000, description="Most entries to return.")
    offset: int = Field(default=0, ge=0, le=MAX_LIST_OFFSET, description="Entries to skip (from a previous next_offset).")


class DirEntry(BaseModel):
    name: str
    path: str
    type: str = Field(description="'dir' or 'file'")
    size: int | None = None
    modified: str | None = None
    is_note: bool | None = None
    files: int | None = Field(default=None, description="Folders: files inside, at any depth.")
    notes: int | None = Field(default=None, description="Folders: notes inside, at any depth.")


class FolderSummary(BaseModel):
    dirs: int
    files: int
    notes: int


class ListDirectoryResult(ToolOutput, Page):
    vault: str
    path: str
    summary: FolderSummary = Field(description="This folder's own sub-folders, files and notes (every page).")
    entries: list[DirEntry]


@tool("list_directory", title="List a folder")
def list_directory(ctx: ToolContext, args: ListDirectoryArgs) -> ListDirectoryResult:
    """List one folder of a vault: sub-folders first, then files, with sizes and modification times.

    Hidden entries (.obsidian, .trash, any dot-name) are never shown. Use `path` to go deeper."""
    return ListDirectoryResult(
        **svc.browse_directory(ctx.workspace, args.vault, args.path, ctx.allowed_vaults, limit=args.limit, offset=args.offset)
    )


class ListAllFilesArgs(ToolArgs):
    vault: str = VaultField
    dir: str = Field(default="", description="Only files under this folder; '' for the whole vault.", max_length=1024)
    limit: int = Field(default=500, ge=1, le=5000, description="Most paths to return.")
    recursive: bool = Field(default=True, description="Include files in sub-folders.")
    offset: int = Field(default=0, ge=0, le=MAX_LIST_OFFSET, description="Paths to skip (from a previous next_offset).")


class FileInfo(BaseModel):
    path: str
    size: int
    modified: str
    is_note: bool


class ListAllFilesResult(ToolOutput, Page):
    vault: str
    dir: str
    files: list[FileInfo]


@tool("list_all_files", title="List all files")
def list_all_files(ctx: ToolContext, args: ListAllFilesArgs) -> ListAllFilesResult:
    """List every file of a vault (or of one folder), notes and attachments, as vault-relative paths.

    Large vaults are paged: follow `next_offset` while `truncated` is true."""
    return ListAllFilesResult(
        **svc.list_all_files(
            ctx.workspace, args.vault, ctx.allowed_vaults, dir=args.dir, recursive=args.recursive, limit=args.limit, offset=args.offset
        )
    )
