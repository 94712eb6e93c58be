"""Backup routes (read side): a file's saved versions and a diff of one (wrappers of list_backups and
diff_backup)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from obsigate.api.deps import Ctx
from obsigate.api.render import run_tool

router = APIRouter(prefix="/api", tags=["backups"])


@router.get("/file/{vault}/backups", summary="A file's backups, newest first; without path, every backed-up path")
async def list_backups(
    ctx: Ctx, vault: str, path: str | None = Query(None, description="Vault-relative path; omit to list all")
) -> dict[str, Any]:
    return await run_tool(ctx, "list_backups", {"vault": vault, "path": path})


@router.get("/file/{vault}/diff", summary="Unified diff from a backup to the current file or another backup")
async def diff_backup(
    ctx: Ctx,
    vault: str,
    path: str = Query(..., description="Vault-relative path"),
    version: str = Query(..., description="Backup version id (from /backups)"),
    compare_with: str | None = Query(None, description="Another version id; default: the current file"),
) -> dict[str, Any]:
    args = {"vault": vault, "path": path, "version": version, "compare_with": compare_with}
    return await run_tool(ctx, "diff_backup", args)
