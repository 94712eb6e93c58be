"""Search routes: full-text search and tags."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from obsigate.api.deps import Ctx
from obsigate.api.render import run_tool

router = APIRouter(prefix="/api", tags=["search"])


@router.get("/search", summary="Full-text search (BM25, title boosted)")
async def search(
    ctx: Ctx,
    q: str = Query("", description="Words to find (plain text)"),
    vault: str | None = None,
    tag: str | None = None,
    limit: int | None = None,
    offset: int | None = None,
) -> dict[str, Any]:
    return await run_tool(ctx, "search_fulltext", {"q": q, "vault": vault, "tag": tag, "limit": limit, "offset": offset})


@router.get("/tags", summary="Tags with note counts")
async def tags(ctx: Ctx, vault: str | None = None) -> dict[str, Any]:
    return await run_tool(ctx, "list_tags", {"vault": vault})


@router.get("/tree-search", summary="Find files by a fuzzy match on their path and title")
async def tree_search(
    ctx: Ctx, q: str = Query("", description="Words of the path"), vault: str | None = None, limit: int | None = None
) -> dict[str, Any]:
    return await run_tool(ctx, "search_paths", {"q": q, "vault": vault, "limit": limit})
