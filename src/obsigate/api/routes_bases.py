"""``GET /api/base/{vault}``: one view of an Obsidian base for the web app (the ``query_base`` tool), with an ETag
from the vault's index version, so the web app's live refresh (a poll) costs a 304 while nothing changed."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse

from obsigate.api.deps import Ctx
from obsigate.api.render import run_tool

router = APIRouter(prefix="/api", tags=["links"])


@router.get(
    "/base/{vault}",
    summary="One view of an Obsidian base (.base file or ```base block) as columns and rows (ETag)",
    response_class=JSONResponse,
)
async def base_view(
    ctx: Ctx,
    request: Request,
    vault: str,
    path: str = Query(..., max_length=1024, description="A .base file, or a note holding a ```base block"),
    view: str | None = Query(None, max_length=200, description="View name; default: the first"),
    this: str | None = Query(None, max_length=1024, description="The embedding note ('this')"),
    block: int = Query(0, ge=0, le=100, description="Which ```base block of a note (0-based)"),
) -> Response:
    """``query_base``'s result. ``ETag`` = the vault's index version plus the arguments; a matching
    ``If-None-Match`` answers 304. The tool runs first (grant, path and base checks), so a 304 never tells
    anything to a caller who may not read the vault."""
    args = {"vault": vault, "path": path, "view": view, "this": this, "block": block}
    data = await run_tool(ctx, "query_base", args)
    etag = f'"{data["version"]}"'
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    sent = {t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")}
    if etag in sent:
        return Response(status_code=304, headers=headers)
    return JSONResponse(data, headers=headers)
