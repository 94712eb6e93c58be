"""File routes: a parsed note (``read_file``) and the file as stored."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Response

from obsigate.api.deps import Ctx
from obsigate.api.render import run_tool
from obsigate.tools.operations import download_file

router = APIRouter(prefix="/api", tags=["files"])


@router.get("/file/{vault}", summary="Read a note: content, frontmatter, tags, links, headings")
async def get_file(
    ctx: Ctx, vault: str, path: str = Query(..., description="Vault-relative path"), offset: int | None = None
) -> dict[str, Any]:
    return await run_tool(ctx, "read_file", {"vault": vault, "path": path, "offset": offset})


@router.get(
    "/file/{vault}/raw",
    summary="The file as stored (notes redacted; attachments such as images as their bytes)",
    response_class=Response,
)
async def get_file_raw(ctx: Ctx, vault: str, path: str = Query(..., description="Vault-relative path")) -> Response:
    data, mime = await download_file(ctx, vault, path)
    if mime.startswith("text/"):
        mime += "; charset=utf-8"
    # The bytes are user content: never let a browser sniff or run them as our origin's HTML.
    headers = {"X-Content-Type-Options": "nosniff", "Content-Security-Policy": "sandbox; default-src 'none'"}
    return Response(content=data, media_type=mime, headers=headers)
