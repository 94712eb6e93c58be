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

A tool result's PDF travels the same way where the provider reads PDFs: Gemini as ``inlineData``
``application/pdf`` in the ``functionResponse``; OpenAI (its own API: ``file`` content parts with ``file_data``,
``llm.md`` §1) as a ``{"type": "file"}`` part of the synthetic ``user`` message. Other OpenAI-compatible servers
(Ollama, llama.cpp, vLLM...) reject that part type, so there the PDF's text line stands for it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PDF", "TYPES", "gemini_parts", "gemini_response_parts", "note", "openai_content", "openai_tool_images"]

#: MIME type → file extension of the accepted image types (PNG, JPEG, WebP, GIF).
TYPES = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif"}
#: A PDF: sent from a tool result to the providers that read PDFs (module docstring).
PDF = "application/pdf"


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


def _sent_media(message: dict[str, Any], pdf: bool) -> list[dict[str, Any]]:
    """A tool message's images (and with ``pdf``, PDFs) that carry their bytes (``data``) in an accepted type."""
    kinds = (*TYPES, PDF) if pdf else tuple(TYPES)
    return [
        ref for ref in message.get("images") or ()
        if isinstance(ref, dict) and isinstance(ref.get("data"), str) and ref.get("mime_type") in kinds
    ]  # fmt: skip


def openai_tool_images(tool_messages: list[dict[str, Any]], *, pdf: bool = False) -> dict[str, Any] | None:
    """The synthetic ``user`` message that follows one turn's ``tool`` messages on Chat Completions: a text
    naming each image (and with ``pdf``, each PDF) and the call it answers, then one ``image_url`` part per image
    and one ``file`` part (``{"filename", "file_data": "data:application/pdf;base64,..."}``) per PDF; ``None``
    when no result of the turn has media to send."""
    parts: list[dict[str, Any]] = []
    names: list[str] = []
    for message in tool_messages:
        for ref in _sent_media(message, pdf):
            name = str(ref.get("name") or ("document.pdf" if ref["mime_type"] == PDF else "image"))
            names.append(f"{name} (from {message.get('name') or 'a tool'}, call {message.get('tool_call_id')})")
            url = f"data:{ref['mime_type']};base64,{ref['data']}"
            if ref["mime_type"] == PDF:
                parts.append({"type": "file", "file": {"filename": name, "file_data": url}})
            else:
                parts.append({"type": "image_url", "image_url": {"url": url}})
    if not parts:
        return None
    what = "images and documents" if any(p["type"] == "file" for p in parts) else "images"
    text = f"The tool results above returned these {what}, in order: " + "; ".join(names)
    return {"role": "user", "content": [{"type": "text", "text": text}, *parts]}


def gemini_response_parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    """A tool message's images and PDFs as ``functionResponse.parts``: ``[{"inlineData": {"mimeType",
    "data"}}]``."""
    media = _sent_media(message, pdf=True)
    return [{"inlineData": {"mimeType": ref["mime_type"], "data": ref["data"]}} for ref in media]
