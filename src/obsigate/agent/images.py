"""Images in the assistant's conversation (issue 18 item 3): pasted ones (data URLs), vault images (by path) and
images of the person's file space (by ``file_id``, ``services/user_files.py``: uploaded once, named ever after),
checked, kept by reference, and turned back into bytes for the provider.

Accepted types: PNG, JPEG, WebP and GIF, recognised by their magic bytes (a declared type that disagrees with
the bytes is refused: a mislabelled file is not guessed at). Caps: :data:`MAX_IMAGE_BYTES` per image (decoded),
:data:`MAX_IMAGES` per message; pasted images also travel in the request body, whose cap is 8 MiB
(``api/body_limit.py``): the web app downscales a large paste before sending it. Nothing is downscaled here: an
image over the cap is refused (``too_large``).

A vault image is read through the tool layer (``download_file``: the caller's grant, the rate limit and the
journal, like any read), never by opening a path; a file-space image likewise (``download_user_file``: only the
caller's own files exist for it, another person's ``file_id`` is ``not_found``). A request with images to a model whose ``vision`` flag is off
(``agent/capabilities.py``) is refused with ``vision_unsupported`` before any provider call.

Storage: the stored user message carries ``images``, a list of references (:meth:`Image.ref`: ``id`` = the
SHA-256 of the bytes, ``mime_type``, ``name``, ``bytes``, and for a vault image its ``vault`` and ``path``); the
bytes are kept once per conversation in the assistant's SQLite store (``AgentStore.put_image``) and deleted
with it, so messages stay small however many images a conversation holds.

Replay: every provider request carries the conversation's most recent images, at most :data:`MAX_SENT_IMAGES`
of them and :data:`MAX_SENT_BYTES` in all (:func:`for_provider` adds their base64 ``data`` to the references);
an older image, or any image when the model lacks vision, is sent as a short text note instead
(``providers/image_parts.py``), so a long conversation's requests stay bounded. Images of the message being
sent that the caps leave out are named in a ``notice`` ``images_not_sent`` (:func:`unsent_notice`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from obsigate.agent.capabilities import capabilities
from obsigate.agent.providers.image_parts import TYPES
from obsigate.tools.api import (
    BadRequest,
    PayloadTooLarge,
    ServiceError,
    ToolContext,
    Unavailable,
    download_file,
    download_user_file,
)

__all__ = [
    "MAX_IMAGES",
    "MAX_IMAGE_BYTES",
    "MAX_SENT_BYTES",
    "MAX_SENT_IMAGES",
    "TYPES",
    "Image",
    "ImageInput",
    "check_vision",
    "collect",
    "decode_data_url",
    "for_provider",
    "prepare_images",
    "provider_messages",
    "sniff",
    "unsent_notice",
    "user_message",
]

#: The largest image accepted, decoded (bytes). OpenAI takes 20 MB per image and Gemini 20 MB per request
#: inline (``llm.md`` §2.2): 5 MiB leaves room for several, and holds a phone photo or a full-screen screenshot.
MAX_IMAGE_BYTES = 5 * 1024 * 1024
#: The most images one message may carry.
MAX_IMAGES = 4
#: The most images one provider request carries (the most recent of the conversation).
MAX_SENT_IMAGES = 8
#: The most image bytes (decoded) one provider request carries; under Gemini's 20 MB inline request cap once
#: base64 (4/3) and the text are added.
MAX_SENT_BYTES = 12 * 1024 * 1024

#: RFC 2397 (and RFC 2045's media type): ``data:``, the type and ``;base64`` are case-insensitive.
_DATA_URL = re.compile(r"data:([A-Za-z0-9.+-]+/[A-Za-z0-9.+-]+);base64,(.*)", re.DOTALL | re.IGNORECASE)
_NAME_CHARS = 120


def sniff(data: bytes) -> str | None:
    """The MIME type of ``data`` by its magic bytes (PNG, JPEG, WebP, GIF), or ``None`` for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


@dataclass(frozen=True, slots=True)
class ImageInput:
    """One image of a request: ``url``, a pasted image as a ``data:image/...;base64,...`` URL, ``path``, a
    vault image (in ``vault``, default the request's), or ``file_id``, one of the person's files; ``name``: what
    the person sees (a pasted file's name)."""

    url: str | None = None
    path: str | None = None
    vault: str | None = None
    name: str | None = None
    file_id: str | None = None


@dataclass(frozen=True, slots=True)
class Image:
    """A checked image: ``id`` (SHA-256 of ``data``, hex), ``mime_type`` (sniffed), ``data``, the ``name`` shown,
    and, for a vault image, its ``vault`` and ``path``, for a file-space one its ``file_id``."""

    id: str
    mime_type: str
    data: bytes
    name: str
    vault: str | None = None
    path: str | None = None
    file_id: str | None = None

    def ref(self) -> dict[str, Any]:
        """The reference kept in the stored user message (no bytes)."""
        out: dict[str, Any] = {"id": self.id, "mime_type": self.mime_type, "name": self.name, "bytes": len(self.data)}
        if self.path is not None:
            out.update(vault=self.vault, path=self.path)
        if self.file_id is not None:
            out["file_id"] = self.file_id
        return out


def _checked(data: bytes, declared: str | None, where: str) -> str:
    """The sniffed type of ``data`` (``where`` names the image in errors).

    Raises:
        PayloadTooLarge: over :data:`MAX_IMAGE_BYTES`. BadRequest: not PNG/JPEG/WebP/GIF, or not what ``declared``
            says.
    """
    if len(data) > MAX_IMAGE_BYTES:
        raise PayloadTooLarge(
            f"{where} is {len(data)} bytes; an image may have at most {MAX_IMAGE_BYTES} bytes",
            hint="send a smaller or downscaled image",
        )
    kind = sniff(data)
    if kind is None:
        raise BadRequest(f"{where} is not a PNG, JPEG, WebP or GIF image", hint="convert it to PNG or JPEG")
    if declared is not None and declared.lower() not in (kind, "image/jpg" if kind == "image/jpeg" else kind):
        raise BadRequest(f"{where} is declared {declared} but its bytes are {kind}", hint="send it with its real type")
    return kind


def decode_data_url(url: str, where: str = "the image") -> tuple[str, bytes]:
    """``(mime type, bytes)`` of a ``data:image/...;base64,...`` URL, checked (:func:`_checked`); the scheme,
    type and ``base64`` token in any case, whitespace in the base64 ignored.

    Raises:
        BadRequest: not a base64 data URL, bad base64, an unsupported type or one the bytes contradict.
        PayloadTooLarge: the image is over :data:`MAX_IMAGE_BYTES` (known from the URL's length, before decoding).
    """
    match = _DATA_URL.fullmatch(url)
    if match is None:
        raise BadRequest(f"{where} is not a data URL (data:image/png;base64,...)")
    declared = match.group(1)
    # base64 as MIME wraps it (RFC 2045 §6.8: line breaks every 76 characters) or pasted with spaces: the
    # whitespace carries nothing; the body cap (8 MiB) bounds this join before the size check below.
    payload = "".join(match.group(2).split())
    if declared.lower() not in (*TYPES, "image/jpg"):
        raise BadRequest(f"{where} has type {declared}; accepted: {', '.join(TYPES)}")
    if len(payload) > (MAX_IMAGE_BYTES + 2) // 3 * 4 + 8:  # base64 is 4/3 the size: refuse before decoding
        raise PayloadTooLarge(f"{where} is over {MAX_IMAGE_BYTES} bytes", hint="send a smaller or downscaled image")
    try:
        data = base64.b64decode(payload, validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest(f"{where} is not valid base64") from None
    return _checked(data, declared, where), data


def _name(given: str | None, fallback: str) -> str:
    name = " ".join((given or "").split())[:_NAME_CHARS]
    return name or fallback


#: ``read(vault, path) -> (bytes, mime type)``: a vault file's bytes through the tool layer
#: (``tools.api.download_file`` bound to the caller's context).
Reader = Callable[[str, str], Awaitable[tuple[bytes, str]]]
#: ``read_file(file_id) -> (record, bytes)``: one of the caller's files through the tool layer
#: (``tools.api.download_user_file`` bound to the caller's context).
FileReader = Callable[[str], Awaitable[tuple[dict[str, Any], bytes]]]


async def collect(
    inputs: tuple[ImageInput, ...], read: Reader, default_vault: str | None, read_file: FileReader | None = None
) -> list[Image]:
    """Check and load a request's images, in order.

    Raises:
        BadRequest: ``invalid_argument``: more than :data:`MAX_IMAGES`, an item with not exactly one of
            ``url``/``path``/``file_id``, a vault image without a vault, a bad data URL, a type other than
            PNG/JPEG/WebP/GIF.
        PayloadTooLarge: ``too_large``, an image over :data:`MAX_IMAGE_BYTES`.
        ServiceError: a vault image's read errors (``vault_access_denied``, ``not_found``, ``path_outside_vault``,
            ``rate_limited``...); a file's (``not_found``, another person's included; ``unavailable``: no file
            space).
    """
    if len(inputs) > MAX_IMAGES:
        raise BadRequest(f"{len(inputs)} images; a message may carry at most {MAX_IMAGES}")
    images: list[Image] = []
    for n, item in enumerate(inputs, 1):
        where = f"image {n}"
        if sum(x is not None for x in (item.url, item.path, item.file_id)) != 1:
            raise BadRequest(
                f"{where} needs exactly one of url (a data URL), path (a vault image) or file_id (one of your files)"
            )
        if item.file_id is not None:
            if read_file is None:
                raise Unavailable("no file space here", hint="send the image as url or path")
            record, data = await read_file(item.file_id)
            name = str(record.get("name") or item.file_id)
            kind = _checked(data, None, f"{where} ({name})")
            image = Image(hashlib.sha256(data).hexdigest(), kind, data, _name(item.name, name), file_id=item.file_id)
            images.append(image)
            continue
        if item.url is not None:
            kind, data = decode_data_url(item.url, where)
            name = _name(item.name, f"image-{n}.{TYPES[kind]}")
            images.append(Image(hashlib.sha256(data).hexdigest(), kind, data, name))
            continue
        vault = item.vault or default_vault
        if not vault or item.path is None:
            raise BadRequest(f"{where} names a vault image but no vault", hint="set vault on the image or the request")
        data, _ = await read(vault, item.path)
        kind = _checked(data, None, f"{where} ({item.path})")
        name = _name(item.name, item.path.rsplit("/", 1)[-1])
        images.append(Image(hashlib.sha256(data).hexdigest(), kind, data, name, vault, item.path))
    return images


def check_vision(flags: dict[str, bool], provider: str, model: str, images: list[Any]) -> None:
    """Refuse images for a model without the ``vision`` flag (``flags``: ``capabilities(provider, model)``).

    Raises:
        BadRequest: ``vision_unsupported`` when ``images`` is not empty and the flag is off.
    """
    if images and not flags.get("vision"):
        raise BadRequest(
            f"{provider} model {model} cannot read images",
            code="vision_unsupported",
            hint="pick a model with the vision badge, or send the message without images",
        )


#: ``load(image id) -> bytes`` of the conversation's stored image, or ``None`` when it is gone.
Loader = Callable[[str], bytes | None]


def for_provider(messages: list[dict[str, Any]], load: Loader, vision: bool) -> list[dict[str, Any]]:
    """``messages`` as a provider gets them: the most recent images (at most :data:`MAX_SENT_IMAGES` and
    :data:`MAX_SENT_BYTES`), of the person's messages and of tool results alike, get their bytes as ``data``
    (base64) on their reference; every other one stays a bare reference, which the provider adapters send as a
    text note (a tool result's image: its text line, already in the result). With ``vision`` false none is sent.

    Returns a new list; the messages with images are copies (the stored ones are never changed).
    """
    out = list(messages)
    sent, size = 0, 0
    for i in range(len(out) - 1, -1, -1):
        msg = out[i]
        refs = msg.get("images") if msg.get("role") in ("user", "tool") else None  # tool: a result's images
        if not refs:
            continue
        chosen: list[dict[str, Any]] = []
        for ref in reversed(refs):  # the last image of the most recent message first
            data = None
            if vision and sent < MAX_SENT_IMAGES and size + int(ref.get("bytes") or 0) <= MAX_SENT_BYTES:
                data = load(str(ref.get("id")))
            if data is not None and size + len(data) <= MAX_SENT_BYTES:
                sent, size = sent + 1, size + len(data)
                chosen.append({**ref, "data": base64.b64encode(data).decode("ascii")})
            else:
                chosen.append({k: v for k, v in ref.items() if k != "data"})
        out[i] = {**msg, "images": chosen[::-1]}
    return out


def unsent_notice(messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The ``notice`` event's data when :func:`for_provider` left out images of the last user message (the one
    being answered: over :data:`MAX_SENT_BYTES` or :data:`MAX_SENT_IMAGES`): ``{code: "images_not_sent",
    message, images}`` (``images``: their names), or ``None`` when all were sent. Older messages' images left
    out are not reported: replacing them by a note is the replay's rule."""
    last = next((m for m in reversed(messages) if m.get("role") == "user"), None)
    left = [str(ref.get("name")) for ref in (last or {}).get("images") or () if "data" not in ref]
    if not left:
        return None
    mib = MAX_SENT_BYTES // (1024 * 1024)
    return {
        "code": "images_not_sent",
        "images": left,
        "message": f"Not sent to the model (a request carries at most {MAX_SENT_IMAGES} images and {mib} MiB of "
        f"them): {', '.join(left)}. Send them in a next message.",
    }


# --- the assistant's hooks (agent/assistant.py) ---------------------------------------------------------------


async def prepare_images(ctx: ToolContext, inputs: tuple[ImageInput, ...], vault: str | None, provider: str,
                         model: str) -> list[Image]:  # fmt: skip
    """A request's images, checked before any door or provider call: ``vision_unsupported`` first (no image
    is read for a model that cannot see it), then :func:`collect`, vault images read with ``ctx`` (the tool
    ``download_file``: the caller's grant, rate limit and journal), file-space ones likewise
    (``download_user_file``).

    Raises:
        ServiceError: as :func:`check_vision` and :func:`collect`.
    """
    if not inputs:
        return []
    check_vision(capabilities(provider, model), provider, model, list(inputs))
    return await collect(
        inputs, lambda v, p: download_file(ctx, v, p), vault, lambda file_id: download_user_file(ctx, file_id)
    )


def user_message(text: str, images: tuple[Image, ...] | list[Image]) -> dict[str, Any]:
    """The neutral user message to store: ``content`` and, with images, their references (:meth:`Image.ref`)."""
    message: dict[str, Any] = {"role": "user", "content": text}
    if images:
        message["images"] = [image.ref() for image in images]
    return message


class _ImageStore(Protocol):
    def image(self, user: str, cid: str, image_id: str) -> tuple[str, bytes]: ...


def provider_messages(store: _ImageStore, user: str, cid: str, provider: str, model: str,
                      messages: list[dict[str, Any]]) -> list[dict[str, Any]]:  # fmt: skip
    """:func:`for_provider` over conversation ``cid``'s stored images, for ``provider``/``model`` (its
    ``vision`` flag); an image that is gone (the conversation deleted meanwhile) is sent as a note."""

    def load(image_id: str) -> bytes | None:
        try:
            return store.image(user, cid, image_id)[1]
        except ServiceError:
            return None

    return for_provider(messages, load, capabilities(provider, model).get("vision", False))
