"""A user message's images in each provider's wire format (``llm.md`` §1.1 and §2.2).

The neutral user message (``providers.base``) may carry ``images``: references (``agent/images.py``); those the
assistant chose to send carry their bytes as base64 ``data``. OpenAI-compatible servers get ``content`` as a
list of parts, ``{"type": "text"}`` then one ``{"type": "image_url", "image_url": {"url": "data:<type>;base64,
..."}}`` per image; Gemini gets ``parts``: ``{"text"}`` then one ``{"inlineData": {"mimeType", "data"}}`` per
image. An image without ``data`` (older than the ones resent, or a model without vision) becomes a short text
note (:func:`note`) at the end of the text, so the model knows an image was there.

A tool result's images (issue 21: ``tool`` messages may carry ``images`` too, references with ``data`` when
sent) cannot go in a Chat Completions ``tool`` message, which is text on most servers (``llm.md`` §1.3): they go
in ONE synthetic ``user`` message right after the turn's tool messages (:func:`openai_tool_images`). Gemini takes
them inside the ``functionResponse`` itself, as ``parts[].inlineData`` (:func:`gemini_response_parts`; arsenal
§a). An image not sent needs no note there: its text line is in the result already.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TYPES", "gemini_parts", "gemini_response_parts", "note", "openai_content", "openai_tool_images"]

#: MIME type → file extension of the accepted image types (PNG, JPEG, WebP, GIF).
TYPES = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif"}


def note(ref: dict[str, Any]) -> str:
    """The text that stands for an image not sent to the model (an older one, or a model without vision)."""
    return f"[image not shown to you: {ref.get('name') or 'image'}]"


def _split(message: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The message's text (with the notes of the images not sent) and the images sent (``mime_type``, ``data``)."""
    text = str(message.get("content") or "")
    sent, notes = [], []
    for ref in message.get("images") or []:
        if not isinstance(ref, dict):
            continue
        if isinstance(ref.get("data"), str) and ref.get("mime_type") in TYPES:
            sent.append(ref)
        else:
            notes.append(note(ref))
    if notes:
        text = "\n".join([text, *notes]) if text else "\n".join(notes)
    return text, sent


def openai_content(message: dict[str, Any]) -> str | list[dict[str, Any]]:
    """The ``content`` of a user message for Chat Completions: the text alone when no image is sent (every
    server accepts a string), else ``[{"type": "text"}, {"type": "image_url"}...]``."""
    text, sent = _split(message)
    if not sent:
        return text
    parts: list[dict[str, Any]] = [{"type": "text", "text": text}]
    for ref in sent:
        parts.append({"type": "image_url", "image_url": {"url": f"data:{ref['mime_type']};base64,{ref['data']}"}})
    return parts


def gemini_parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``parts`` of a user message for Gemini: ``{"text"}`` then one ``inlineData`` part per image sent."""
    text, sent = _split(message)
    parts: list[dict[str, Any]] = [{"text": text}]
    parts += [{"inlineData": {"mimeType": ref["mime_type"], "data": ref["data"]}} for ref in sent]
    return parts


def _sent_images(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A tool message's images that carry their bytes (``data``) in an accepted type."""
    return [
        ref for ref in message.get("images") or ()
        if isinstance(ref, dict) and isinstance(ref.get("data"), str) and ref.get("mime_type") in TYPES
    ]  # fmt: skip


def openai_tool_images(tool_messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The synthetic ``user`` message that follows one turn's ``tool`` messages on Chat Completions: a text
    naming each image and the call it answers, then one ``image_url`` part per image; ``None`` when no result of
    the turn has an image to send."""
    parts: list[dict[str, Any]] = []
    names: list[str] = []
    for message in tool_messages:
        for ref in _sent_images(message):
            names.append(f"{ref.get('name') or 'image'} (from {message.get('name') or 'a tool'}, "
                         f"call {message.get('tool_call_id')})")  # fmt: skip
            parts.append({"type": "image_url", "image_url": {"url": f"data:{ref['mime_type']};base64,{ref['data']}"}})
    if not parts:
        return None
    text = "The tool results above returned these images, in order: " + "; ".join(names)
    return {"role": "user", "content": [{"type": "text", "text": text}, *parts]}


def gemini_response_parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A tool message's images as ``functionResponse.parts``: ``[{"inlineData": {"mimeType", "data"}}]``."""
    return [{"inlineData": {"mimeType": ref["mime_type"], "data": ref["data"]}} for ref in _sent_images(message)]
