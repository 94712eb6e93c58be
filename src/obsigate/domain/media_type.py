"""A file's media type from its bytes, for whatever decides how bytes are shown (a model's image or PDF part, the
file space's records).

Magic numbers (``filetype``: PNG, JPEG, GIF, WebP, PDF, audio, archives...) say what bytes are; a name only
says what someone called them. A ``.png`` holding a PDF is a PDF, and one holding noise is no image: a front
that would decode it as one gets ``application/octet-stream`` instead.
"""

from __future__ import annotations

import mimetypes

import filetype

__all__ = ["binary_type", "is_decoded", "sniffed_type", "text_type"]

#: Types whose bytes a front decodes (an image, a PDF, a sound): a name alone never grants one.
_DECODED = ("image/", "audio/", "video/", "application/pdf")


def is_decoded(mime_type: str | None) -> bool:
    """Whether ``mime_type`` is one a front decodes (``image/*``, ``audio/*``, ``video/*``, PDF)."""
    return mime_type is not None and mime_type.startswith(_DECODED)


def sniffed_type(data: bytes) -> str | None:
    """The MIME type ``data``'s first 8 KiB announce (``filetype``), or ``None`` when no known signature
    matches (text, or an unknown binary)."""
    kind = filetype.guess(data[:8192]) if data else None
    return None if kind is None else str(kind.mime)


def binary_type(name: str, data: bytes) -> str:
    """The MIME type of a binary file ``name`` holding ``data``: its sniffed type, else the one its extension
    suggests unless that is a decoded type (``image/*``, ``audio/*``, ``video/*``, PDF) the bytes do not bear
    out, else ``application/octet-stream``."""
    found = sniffed_type(data)
    if found is not None:
        return found
    guessed = mimetypes.guess_type(name)[0]
    return "application/octet-stream" if guessed is None or is_decoded(guessed) else guessed


def text_type(name: str, fallback: str) -> str:
    """The MIME type of a file ``name`` whose bytes are text: the one its extension suggests, ``text/plain``
    when that is a decoded type (a ``.jpg`` that holds text is no image), ``fallback`` when there is none."""
    guessed = mimetypes.guess_type(name)[0]
    if guessed is None:
        return fallback
    return "text/plain" if is_decoded(guessed) else guessed
