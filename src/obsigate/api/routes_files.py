"""The file as stored, bytes and all (the parsed note, ``read_file``, is a row of the table in ``routes.py``)."""

from __future__ import annotations

from fastapi import APIRouter, Query, Response

from obsigate.api.deps import Ctx
from obsigate.tools.operations import download_file

router = APIRouter(prefix="/api", tags=["files"])


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
