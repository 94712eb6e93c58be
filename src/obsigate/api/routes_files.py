"""The file as stored, bytes and all (the parsed note, ``read_file``, is a row of the table in ``routes.py``)."""

from __future__ import annotations

import re
from urllib.parse import quote

from fastapi import APIRouter, Query, Request, Response

from obsigate.api.deps import Ctx
from obsigate.tools.api import download_file

router = APIRouter(prefix="/api", tags=["files"])

#: Every raw file but a PDF: whatever it holds (HTML, SVG), it is a sandboxed document with no origin of ours
#: and loads nothing, so no script in a vault can run as the app.
SANDBOXED = "sandbox; default-src 'none'"
#: A PDF: browsers refuse to show one in a sandboxed document (Firefox always, older Chromium too), and the web
#: app frames it for its built-in viewer. Served as ``application/pdf`` with ``nosniff`` (the type comes from
#: the name, never from the bytes), it is only ever opened by the PDF viewer, which runs no script of the file
#: in this origin; only this app may frame it.
PDF_POLICY = "frame-ancestors 'self'"
_RANGE = re.compile(r"bytes=(\d*)-(\d*)")
#: Types a page of this origin could load as code (``<script src>``, ``<link rel=stylesheet>``, wasm): a vault's
#: ``.js`` served as JavaScript would satisfy the app's ``script-src 'self'``, a ready gadget for any future
#: HTML injection. Served as ``text/plain`` with ``nosniff``, browsers refuse to run or apply them.
_CODE_TYPES = re.compile(r"(?:text|application)/(?:x-)?(?:javascript|ecmascript|jscript)|text/css|application/wasm")


def _byte_range(header: str | None, size: int) -> tuple[int, int] | None:
    """``(start, end)`` (inclusive) of a single ``Range: bytes=…`` the file can satisfy, else ``None`` (the
    whole file is sent; several ranges or a malformed header are answered that way too, as RFC 9110 allows)."""
    m = _RANGE.fullmatch((header or "").strip())
    if not m or not (m[1] or m[2]) or size == 0:
        return None
    if not m[1]:  # "bytes=-N": the last N bytes
        return (max(0, size - int(m[2])), size - 1) if int(m[2]) else None
    start = int(m[1])
    end = min(int(m[2]), size - 1) if m[2] else size - 1
    return (start, end) if start <= end else None


@router.get(
    "/file/{vault}/raw",
    summary="The file as stored (notes redacted; attachments such as images as their bytes; one byte range on request)",
    response_class=Response,
)
async def get_file_raw(
    ctx: Ctx, request: Request, vault: str, path: str = Query(..., description="Vault-relative path")
) -> Response:
    """The bytes of ``path`` with headers that keep them inert in the browser (see :data:`SANDBOXED`); a
    ``Range`` request (audio and video seeking) gets ``206`` and that slice."""
    data, mime = await download_file(ctx, vault, path)
    if _CODE_TYPES.fullmatch(mime):
        mime = "text/plain"
    if mime.startswith("text/"):
        mime += "; charset=utf-8"
    # The bytes are user content: never let a browser sniff or run them as our origin's HTML.
    headers = {"X-Content-Type-Options": "nosniff", "Accept-Ranges": "bytes"}
    if mime == "application/pdf":
        name = path.rsplit("/", 1)[-1]
        headers |= {
            "Content-Security-Policy": PDF_POLICY,
            "Content-Disposition": f"inline; filename*=UTF-8''{quote(name)}",
        }
    else:
        headers["Content-Security-Policy"] = SANDBOXED
    span = _byte_range(request.headers.get("range"), len(data))
    if span is None:
        return Response(content=data, media_type=mime, headers=headers)
    start, end = span
    headers["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
    return Response(content=data[start : end + 1], status_code=206, media_type=mime, headers=headers)
