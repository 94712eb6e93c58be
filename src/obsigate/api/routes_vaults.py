"""Vault routes: thin wrappers over the vault tools."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from obsigate.api.deps import Ctx
from obsigate.api.render import run_tool

router = APIRouter(prefix="/api", tags=["vaults"])


@router.get("/vaults", summary="Vaults you can use")
async def get_vaults(ctx: Ctx) -> dict[str, Any]:
    return await run_tool(ctx, "list_vaults", {})


@router.get("/browse/{vault}", summary="List one folder")
async def browse(
    ctx: Ctx,
    vault: str,
    path: str = Query("", description="Folder, relative to the vault root"),
    limit: int | None = None,
    offset: int | None = None,
) -> dict[str, Any]:
    return await run_tool(ctx, "list_directory", {"vault": vault, "path": path, "limit": limit, "offset": offset})


@router.get("/vault/{vault}/files", summary="Every file of a vault")
async def vault_files(
    ctx: Ctx,
    vault: str,
    dir: str = Query("", description="Only under this folder"),
    recursive: bool | None = None,
    limit: int | None = None,
    offset: int | None = None,
) -> dict[str, Any]:
    return await run_tool(
        ctx, "list_all_files", {"vault": vault, "dir": dir, "recursive": recursive, "limit": limit, "offset": offset}
    )


@router.get("/recent", summary="Recently modified or created files")
async def recent(
    ctx: Ctx,
    vault: str | None = Query(None, description="Only this vault; default: every vault you can use"),
    limit: int | None = None,
    offset: int | None = None,
    mode: str | None = Query(None, description="'modified' (default) or 'created'"),
) -> dict[str, Any]:
    return await run_tool(ctx, "list_recent", {"vault": vault, "limit": limit, "offset": offset, "mode": mode})
