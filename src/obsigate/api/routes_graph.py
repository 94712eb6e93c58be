"""``GET /api/graph/{vault}/export``: the whole vault's link graph for the web app's graph view (the
``export_graph`` tool), with an ETag from the index's version so an unchanged vault costs a 304 and no body."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import JSONResponse

from obsigate.api.deps import Ctx
from obsigate.api.render import run_tool

router = APIRouter(prefix="/api", tags=["links"])


@router.get(
    "/graph/{vault}/export",
    summary="Every note and link of a vault, compact and uncut (the web app's whole-vault graph)",
    response_class=JSONResponse,
)
async def graph_export(
    ctx: Ctx,
    request: Request,
    vault: str,
    tag: str | None = Query(None, description="Only notes with this tag (nested tags too)"),
) -> Response:
    """``{"vault", "version", "tag", "notes", "unresolved", "edges", "index"}`` (see ``services.graph.export_graph``).
    ``ETag`` = the version; a matching ``If-None-Match`` answers 304. The vault grant is checked first (403
    ``vault_access_denied``), so a 304 never tells anything to a caller who may not read the vault."""
    data = await run_tool(ctx, "export_graph", {"vault": vault, "tag": tag})
    etag = f'"{data["version"]}"'
    # private: per person; no-cache: the browser asks again each time, and keeps the body while the ETag holds
    headers = {"ETag": etag, "Cache-Control": "private, no-cache"}
    sent = {t.strip().removeprefix("W/") for t in request.headers.get("if-none-match", "").split(",")}
    if etag in sent:
        return Response(status_code=304, headers=headers)
    return JSONResponse(data, headers=headers)
