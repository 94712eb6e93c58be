"""Vault and folder tools: list_vaults, list_directory, list_all_files; get_vault_config (the web app's)."""

from __future__ import annotations

from pydantic import Field

from obsigate.services import vaults as svc
from obsigate.services.vault_config import VaultConfigResult, vault_config
from obsigate.services.vaults import ListAllFilesResult, ListDirectoryResult, ListVaultsResult
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, tool
from obsigate.tools.schemas import Limit, Offset, Path, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 1


class ListVaultsArgs(ToolArgs):
    pass


@tool(
    "list_vaults",
    title="List vaults",
    label=("Liste des vaults consultée", "Vaults listed"),
    rest=Rest("GET", "/vaults", summary="Vaults you can use", name="get_vaults"),
)
def list_vaults(ctx: ToolContext, args: ListVaultsArgs) -> ListVaultsResult:
    """List the vaults you can use, with note counts. Start here: other tools take a vault name."""
    return svc.list_accessible_vaults(ctx.workspace, ctx.scope)


class ListDirectoryArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path("Folder; '' = the vault root.", default="")
    limit: int = Limit(200, le=1000)
    offset: int = Offset()


@tool(
    "list_directory",
    title="List a folder",
    label=("Répertoire exploré : {path}", "Folder explored: {path}"),
    rest=Rest("GET", "/browse/{vault}", summary="List one folder", name="browse"),
)
def list_directory(ctx: ToolContext, args: ListDirectoryArgs) -> ListDirectoryResult:
    """List a folder: sub-folders, then files, with sizes and dates (dot-names hidden)."""
    return svc.browse_directory(ctx.workspace, ctx.permitted_vault, args.path, limit=args.limit, offset=args.offset)


class ListAllFilesArgs(ToolArgs):
    vault: str = Vault()
    dir: str = Path("Only under this folder; '' = the whole vault.", default="")
    limit: int = Limit(500, le=5000)
    recursive: bool = Field(default=True, description="Include sub-folders.")
    offset: int = Offset()


@tool(
    "list_all_files",
    title="List all files",
    label=("Fichiers listés", "Files listed"),
    rest=Rest("GET", "/vault/{vault}/files", summary="Every file of a vault", name="vault_files"),
)
def list_all_files(ctx: ToolContext, args: ListAllFilesArgs) -> ListAllFilesResult:
    """List the paths of every file (notes and attachments) in a vault or folder."""
    return svc.list_all_files(
        ctx.workspace, ctx.permitted_vault, dir=args.dir, recursive=args.recursive, limit=args.limit, offset=args.offset
    )


class GetVaultConfigArgs(ToolArgs):
    vault: str = Vault()


@tool(
    "get_vault_config",
    title="Vault settings",
    scopes=(),
    label=("Réglages du vault consultés", "Vault settings read"),
    rest=Rest(
        "GET", "/vault/{vault}/config", summary="The vault's own Obsidian settings (.obsidian/), defaults filled in"
    ),
)
def get_vault_config(ctx: ToolContext, args: GetVaultConfigArgs) -> VaultConfigResult:
    """The vault's Obsidian settings: link format, line breaks, daily notes, templates, bookmarks."""
    return vault_config(ctx.permitted_vault)
