"""Images in the assistant's conversation, the REST side (issue 18 item 3; the rules are ``agent/images.py``).

The chat and agent bodies take ``images``: ``[{"url": "data:image/png;base64,..."}]`` for a pasted image,
``[{"path": "Pics/a.png", "vault"?: "notes"}]`` for a vault image, ``[{"file_id": "U_..."}]`` for one of the
person's files (uploaded once by ``POST /api/files``, named by every later message) (:class:`ImageBody`). A stored image is served
back to its conversation's owner by ``GET /api/ai/conversations/{id}/images/{image_id}`` (the web app shows it
when the conversation is reopened).
"""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from obsigate.agent.images import ImageInput
from obsigate.api.deps import CurrentPrincipal
from obsigate.tools.api import NotFound, Unavailable

__all__ = ["ImageBody", "image_inputs", "router"]

router = APIRouter(prefix="/api/ai", tags=["assistant"])

_IMAGE_ID = re.compile(r"[0-9a-f]{64}")
#: An image is shown, never run: no script, no plug-in, no sniffing into another type.
_HEADERS = {
    "Cache-Control": "private, max-age=86400",  # an id is the image's SHA-256: its bytes never change
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
}


class ImageBody(BaseModel):
    """One image of a chat or agent request, exactly one of: ``url`` (a pasted image as a base64 data URL),
    ``path`` (a vault image, in ``vault`` or the request's vault), ``file_id`` (one of the caller's files);
    ``name``: the name shown."""

    model_config = ConfigDict(extra="forbid", strict=True)

    url: str | None = Field(default=None, min_length=1, description="data:image/png;base64,... (PNG, JPEG, WebP, GIF)")
    path: str | None = Field(default=None, min_length=1, max_length=1024, description="A vault image's path.")
    vault: str | None = Field(default=None, min_length=1, max_length=64)
    name: str | None = Field(default=None, max_length=200)
    file_id: str | None = Field(default=None, min_length=1, max_length=200, description="One of your files.")


def image_inputs(images: list[ImageBody]) -> tuple[ImageInput, ...]:
    """The request's images for ``agent.assistant.Ask`` (checked there: ``agent/images.py``)."""
    return tuple(ImageInput(url=i.url, path=i.path, vault=i.vault, name=i.name, file_id=i.file_id) for i in images)


@router.get(
    "/conversations/{conversation_id}/images/{image_id}",
    summary="An image of one of your conversations",
    response_class=Response,
)
async def conversation_image(
    request: Request, principal: CurrentPrincipal, conversation_id: str, image_id: str
) -> Response:
    assistant = getattr(request.app.state, "assistant", None)
    if assistant is None:
        raise Unavailable("the assistant is not set up on this server")
    if not _IMAGE_ID.fullmatch(image_id):
        raise NotFound("no such image in this conversation")
    mime_type, data = assistant.store.image(principal.name, conversation_id, image_id)
    return Response(content=data, media_type=mime_type, headers=_HEADERS)
