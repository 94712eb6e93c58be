"""Link routes: backlinks and the link graph (wrappers of get_backlinks and get_graph)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from obsigate.api.deps import Ctx
from obsigate.api.render import run_tool

router = APIRouter(prefix="/api", tags=["links"])


@router.get("/backlinks/{vault}", summary="Notes linking to a file, with the linking lines")
async def backlinks(
    ctx: Ctx,
    vault: str,
    path: str = Query(..., description="Vault-relative path of the linked file"),
    limit: int | None = None,
    offset: int | None = None,
    unlinked: bool | None = Query(None, description="Also list plain-text mentions that are not links"),
) -> dict[str, Any]:
    args = {"vault": vault, "path": path, "limit": limit, "offset": offset, "unlinked": unlinked}
    return await run_tool(ctx, "get_backlinks", args)


@router.get("/graph/{vault}", summary="Link graph: nodes and edges, local (around a note) or the whole vault")
async def graph(
    ctx: Ctx,
    vault: str,
    path: str | None = Query(None, description="Centre note (local) or folder (vault scope)"),
    depth: int | None = None,
    scope: str | None = Query(None, description="'local' or 'vault'"),
    tag: str | None = None,
    limit: int | None = None,
) -> dict[str, Any]:
    args = {"vault": vault, "path": path, "depth": depth, "scope": scope, "tag": tag, "limit": limit}
    return await run_tool(ctx, "get_graph", args)
