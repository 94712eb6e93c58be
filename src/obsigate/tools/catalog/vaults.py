"""Vault and folder tools: list_vaults, list_directory, list_all_files."""

from __future__ import annotations

from pydantic import BaseModel, Field

from obsigate.services import vaults as svc
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import Limit, Offset, Page, Path, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 1


class ListVaultsArgs(ToolArgs):
    pass


class VaultInfo(BaseModel):
    name: str
    notes: int
    read_only: bool
    destructive_tools: bool


class ListVaultsResult(ToolOutput):
    vaults: list[VaultInfo]


@tool(
    "list_vaults",
    title="List vaults",
    label=("Liste des vaults consultée", "Vaults listed"),
    rest=Rest("GET", "/vaults", summary="Vaults you can use", name="get_vaults"),
)
def list_vaults(ctx: ToolContext, args: ListVaultsArgs) -> ListVaultsResult:
    """List the vaults you can use, with note counts. Start here: other tools take a vault name."""
    return ListVaultsResult(vaults=svc.list_accessible_vaults(ctx.workspace, ctx.scope))


class ListDirectoryArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path("Folder; '' = the vault root.", default="")
    limit: int = Limit(200, le=1000)
    offset: int = Offset()


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


@tool(
    "list_directory",
    title="List a folder",
    label=("Répertoire exploré : {path}", "Folder explored: {path}"),
    rest=Rest("GET", "/browse/{vault}", summary="List one folder", name="browse"),
)
def list_directory(ctx: ToolContext, args: ListDirectoryArgs) -> ListDirectoryResult:
    """List a folder: sub-folders, then files, with sizes and dates (dot-names hidden)."""
    return ListDirectoryResult(**svc.browse_directory(ctx.workspace, ctx.permitted_vault, **args.service_args()))


class ListAllFilesArgs(ToolArgs):
    vault: str = Vault()
    dir: str = Path("Only under this folder; '' = the whole vault.", default="")
    limit: int = Limit(500, le=5000)
    recursive: bool = Field(default=True, description="Include sub-folders.")
    offset: int = Offset()


class FileInfo(BaseModel):
    path: str
    size: int
    modified: str
    is_note: bool


class ListAllFilesResult(ToolOutput, Page):
    vault: str
    dir: str
    files: list[FileInfo]


@tool(
    "list_all_files",
    title="List all files",
    label=("Fichiers listés", "Files listed"),
    rest=Rest("GET", "/vault/{vault}/files", summary="Every file of a vault", name="vault_files"),
)
def list_all_files(ctx: ToolContext, args: ListAllFilesArgs) -> ListAllFilesResult:
    """List the paths of every file (notes and attachments) in a vault or folder."""
    return ListAllFilesResult(**svc.list_all_files(ctx.workspace, ctx.permitted_vault, **args.service_args()))
