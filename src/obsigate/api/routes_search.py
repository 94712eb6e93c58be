"""Search routes: full-text and advanced search, tags, path search."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Query

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


def _bounds(low_key: str, low: object, high_key: str, high: object) -> dict[str, object] | None:
    """Two flat query parameters → the tool's range object (``None`` when neither was sent)."""
    out = {k: v for k, v in ((low_key, low), (high_key, high)) if v is not None}
    return out or None


@router.get("/search/advanced", summary="Exact or regex search with path, tag, date and size filters")
async def search_advanced(
    ctx: Ctx,
    q: str = Query("", description="Text to find (literal), or a regular expression with regex=true"),
    vault: str | None = None,
    tag: str | None = None,
    limit: int | None = None,
    offset: int | None = None,
    sort: str | None = Query(None, description="relevance, path, modified, created or size"),
    case_sensitive: bool | None = None,
    whole_word: bool | None = None,
    regex: bool | None = None,
    include_paths: list[str] | None = Query(None, description="Glob on the vault-relative path; repeat for several"),
    exclude_paths: list[str] | None = Query(None, description="Glob to leave out; repeat for several"),
    created_after: str | None = Query(None, description="ISO 8601 date or date-time, inclusive"),
    created_before: str | None = Query(None, description="ISO 8601 date or date-time, exclusive"),
    modified_after: str | None = Query(None, description="ISO 8601 date or date-time, inclusive"),
    modified_before: str | None = Query(None, description="ISO 8601 date or date-time, exclusive"),
    size_min: int | None = Query(None, description="Bytes, inclusive"),
    size_max: int | None = Query(None, description="Bytes, inclusive"),
) -> dict[str, Any]:
    args = {
        "q": q, "vault": vault, "tag": tag, "limit": limit, "offset": offset, "sort": sort,
        "case_sensitive": case_sensitive, "whole_word": whole_word, "regex": regex,
        "include_paths": include_paths, "exclude_paths": exclude_paths,
        "created": _bounds("after", created_after, "before", created_before),
        "modified": _bounds("after", modified_after, "before", modified_before),
        "size": _bounds("min", size_min, "max", size_max),
    }  # fmt: skip
    return await run_tool(ctx, "search_advanced", args)


@router.post("/search/advanced", summary="Advanced search with the tool's arguments as a JSON body")
async def search_advanced_post(
    ctx: Ctx, body: dict[str, Any] = Body(..., description="search_advanced arguments")
) -> dict[str, Any]:
    return await run_tool(ctx, "search_advanced", body)


@router.get("/tags", summary="Tags with note counts")
async def tags(
    ctx: Ctx, vault: str | None = None, limit: int | None = None, offset: int | None = None
) -> dict[str, Any]:
    return await run_tool(ctx, "list_tags", {"vault": vault, "limit": limit, "offset": offset})


@router.get("/tree-search", summary="Find files by a fuzzy match on their path and title")
async def tree_search(
    ctx: Ctx,
    q: str = Query("", description="Words of the path"),
    vault: str | None = None,
    limit: int | None = None,
    offset: int | None = None,
) -> dict[str, Any]:
    return await run_tool(ctx, "search_paths", {"q": q, "vault": vault, "limit": limit, "offset": offset})
