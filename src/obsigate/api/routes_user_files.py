"""The caller's own file space over REST (issue 21 item 2; the rules are ``services/user_files.py``).

``POST /api/files`` (multipart: ``file`` and optional ``conversation``), ``GET /api/files`` (list),
``GET /api/files/{file_id}`` (the record), ``GET /api/files/{file_id}/content`` (the bytes, the web app's preview
URL) and ``DELETE /api/files/{file_id}``. Each runs its tool through the one door (``tools.api``); another
user's ``file_id`` is 404 ``not_found`` everywhere, like an id that never existed.

The upload's body may be as large as the largest file (``OBSIGATE_FILES_MAX_BYTES``, plus room for the multipart
framing; ``api/body_limit.py``), not the 8 MiB of other requests. A multipart body is not JSON, so it passes the
cross-site checks (``deps.check_same_site``) only with a credential a cross-site page cannot send: an
``Authorization`` header or the ``X-ObsiGate-Upload`` header (the web app sends it; either one forces a CORS
preflight, which this server never grants).

The bytes are user content: served with ``nosniff``, a sandboxing CSP (a PDF only framed by the app, as vault
files are: ``routes_files``), inline only for types a browser shows without running anything (images, PDF,
audio, video, plain text), as an attachment otherwise.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, File, Form, Query, Request, UploadFile
from fastapi.responses import Response

from obsigate.api.deps import Ctx, check_same_site
from obsigate.api.routes_files import PDF_POLICY, SANDBOXED
from obsigate.tools.api import (
    delete_user_file,
    download_user_file,
    list_user_files,
    upload_user_file,
    user_file_info,
)

__all__ = ["UPLOAD_OVERHEAD", "router"]

router = APIRouter(prefix="/api/files", tags=["files"])

#: Room for the multipart framing (boundaries, part headers, the conversation field) above the file itself.
UPLOAD_OVERHEAD = 64 * 1024
#: Types shown inline; anything else (and every markup type) is downloaded as an attachment.
_INLINE = (
    "image/",
    "audio/",
    "video/",
    "text/plain",
    "text/markdown",
    "text/csv",
    "application/pdf",
    "application/json",
)
_MARKUP = ("image/svg+xml", "text/html", "application/xhtml+xml", "text/xml", "application/xml")


@router.get("", summary="Your files, newest first")
async def list_files(
    ctx: Ctx,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> dict[str, Any]:
    """``{"files": [{"file_id", "name", "mime_type", "size", "created_at", "created_by_tool"}], "total",
    "offset", "next_offset", "used_bytes", "quota_bytes"}``."""
    return await list_user_files(ctx, limit=limit, offset=offset)


@router.post("", summary="Upload a file to your space (multipart: file, conversation?)", status_code=201)
async def upload_file(
    request: Request,
    ctx: Ctx,
    file: Annotated[UploadFile, File(description="The file")],
    conversation: Annotated[str | None, Form(max_length=200)] = None,
) -> dict[str, Any]:
    """The new file's record (``file_id``, ``mime_type`` sniffed from the bytes, ``size``, ``sha256``...); 413
    ``file_too_large``, 507 ``quota_exceeded`` (nothing stored)."""
    check_same_site(request)
    data = await file.read()
    return await upload_user_file(
        dataclasses.replace(ctx, confirmed=True), file.filename or "file", data, conversation or None
    )


@router.get("/{file_id}", summary="One of your files: its record")
async def file_info(ctx: Ctx, file_id: str) -> dict[str, Any]:
    return await user_file_info(ctx, file_id)


@router.get("/{file_id}/content", summary="One of your files: its bytes", response_class=Response)
async def file_content(
    ctx: Ctx, file_id: str, download: Annotated[bool, Query(description="As an attachment")] = False
) -> Response:
    record, data = await download_user_file(ctx, file_id)
    mime = str(record["mime_type"])
    markup = mime in _MARKUP
    if markup:
        mime = "text/plain"
    inline = not (download or markup) and mime.startswith(_INLINE)
    headers = {
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-cache",
        "Content-Security-Policy": PDF_POLICY if mime == "application/pdf" else SANDBOXED,
        "Content-Disposition": f"{'inline' if inline else 'attachment'}; filename*=UTF-8''{quote(record['name'])}",
    }
    if mime.startswith("text/"):
        mime += "; charset=utf-8"
    return Response(content=data, media_type=mime, headers=headers)


@router.delete("/{file_id}", summary="Delete one of your files (bytes, record, caches)")
async def delete_file(request: Request, ctx: Ctx, file_id: str) -> dict[str, Any]:
    check_same_site(request)
    return await delete_user_file(dataclasses.replace(ctx, confirmed=True), file_id)
