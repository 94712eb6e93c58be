"""Tool results with parts (issue 21 item 1; ``arsenal.md`` §a): the text every front already gets, plus
images, PDFs, audio and file references that each front renders its own way.

A result model declares its parts with a ``parts()`` method (beside ``exact_fields()``, read by
``pipeline.finish``): a list of :class:`Part` or of mappings with the same fields (a service cannot import
this layer). :func:`build_parts` then, inside the door, once per call:

* checks every image with Pillow: ``ImageOps.exif_transpose``, longest side at most :data:`MAX_SIDE` px,
  re-encoded in its own format only when it had to turn or shrink (a small upright image keeps its exact
  bytes, so a client that announces nothing new gets the very bytes it got before), or as a JPEG when its
  bytes alone would not fit one result's media budget; bytes that are not the
  image their magic says (Pillow cannot open them) are never an image part: the part's ``fallback``, or a
  ``file`` part;
* applies the caps of one result: at most :data:`MAX_INLINE_IMAGES` inline images and :data:`MAX_INLINE_B64`
  characters of base64 in all; a part beyond them (or over :data:`MAX_SOURCE_BYTES` / :data:`MAX_SOURCE_PIXELS`
  before decoding: a 40 MB image, a decompression bomb) becomes a reference in the caller's file space when the
  runtime has one (``ToolRuntime.files``: ``put(...)`` → a record with ``file_id``), else only its text line.

Each non-text part also yields a text line (:func:`text_line`), for the model and for clients that drop media.
The adapters (MCP, the providers, the web app) live with their fronts; they read :class:`ToolResult`.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import inspect
import io
import logging
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import anyio

from obsigate.domain.redaction import redact_payload
from obsigate.services.errors import ServiceError
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolSpec

__all__ = [
    "FILE_URI_PREFIX", "MAX_INLINE_B64", "MAX_INLINE_IMAGES", "MAX_SIDE", "MAX_SOURCE_BYTES", "MAX_SOURCE_PIXELS",
    "Part", "PartKind", "TooLargeImage", "ToolResult", "b64_len", "build_parts", "normalise_image", "part_of", "text_line",
]  # fmt: skip

log = logging.getLogger(__name__)

PartKind = Literal["image", "pdf", "audio", "file"]
KINDS: tuple[str, ...] = ("image", "pdf", "audio", "file")

#: Longest side of an image sent to a model (Anthropic's and OpenAI's high-detail tiles top out there).
MAX_SIDE = 1568
#: Inline images per result; more become references (arsenal §a).
MAX_INLINE_IMAGES = 4
#: Base64 characters of every inline part of one result together (5 MB, arsenal §a).
MAX_INLINE_B64 = 5 * 1000 * 1000
#: An image is decoded only up to this many bytes and pixels; beyond, it is a reference (never decoded here).
MAX_SOURCE_BYTES = 32 * 1024 * 1024
MAX_SOURCE_PIXELS = 60_000_000
#: The URI of a file in the caller's space (MCP ``resource_link``).
FILE_URI_PREFIX = "obsigate://files/"

#: Pillow format name → the MIME type its re-encoding keeps.
_FORMATS = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}


@dataclass(frozen=True, slots=True)
class Part:
    """One non-text part of a tool result.

    ``kind``: ``image`` | ``pdf`` | ``audio`` | ``file``; ``mime_type``; exactly one of ``data`` (the bytes,
    sent inline) or ``file_id`` (a file of the caller's space) once built, or neither when the part could be
    neither sent nor kept (then only its text line stands for it); ``name`` shown (redacted like any path);
    ``width``/``height`` in px for an image; ``size`` in bytes and ``sha256`` (hex) of the bytes as sent or
    kept; ``uri``: where the bytes come from when they have a home already (``vault://<vault>/<path>``: MCP's
    embedded resource); ``note``: why it is not inline (shown after its text line); ``fallback``: what to send
    instead if an image's bytes turn out not to be one (read_file_raw: the chunk as a file); ``extra``: another
    view of bytes a part before it already carries (read_file_raw's whole image beside its first chunk): left
    out when it is not an image, only its text line when it does not fit the caps (never kept); ``carries``: the
    field of the result's data whose exact bytes this part also holds (read_file_raw's chunk: ``content``), so a
    front that sends the result's media instead of those bytes can leave both out.
    """

    kind: str
    mime_type: str
    data: bytes | None = None
    file_id: str | None = None
    name: str = ""
    width: int | None = None
    height: int | None = None
    size: int = 0
    sha256: str = ""
    uri: str | None = None
    note: str | None = None
    fallback: Part | None = field(default=None, repr=False)
    extra: bool = False
    carries: str | None = None

    @property
    def inline(self) -> bool:
        """Whether the bytes travel with the result."""
        return self.data is not None

    def b64(self) -> str:
        """The bytes as base64 (``""`` for a part without bytes)."""
        return base64.b64encode(self.data).decode("ascii") if self.data is not None else ""

    def _hashed(self) -> Part:
        """This part with ``size`` and ``sha256`` of its bytes (unchanged without bytes)."""
        if self.data is None:
            return self
        return replace(self, size=len(self.data), sha256=hashlib.sha256(self.data).hexdigest())

    def describe(self) -> dict[str, Any]:
        """The part without its bytes, JSON-safe (the web app's step, a stored reference)."""
        out: dict[str, Any] = {"kind": self.kind, "mime_type": self.mime_type, "name": self.name, "size": self.size}
        for key in ("width", "height", "file_id", "note"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.sha256:
            out["sha256"] = self.sha256
        return out


@dataclass(slots=True)
class ToolResult:
    """A finished tool result: ``data``, the dict :func:`~obsigate.tools.dispatch.call_tool` returns (redacted,
    cut to the budget; exact-bytes fields kept), ``parts`` (built: normalised, capped) and ``artifacts``, the
    files this call kept in the caller's space (``{file_id, name, mime_type, size, sha256, created_by_tool,
    turn_id}``); ``exact`` (below)."""

    data: dict[str, Any]
    parts: list[Part] = field(default_factory=list)
    artifacts: list[dict[str, Any]] = field(default_factory=list)
    #: the fields of ``data`` that hold exact bytes (the result model's ``exact_fields()``): a front that sends
    #: the parts as media leaves those out of the text
    exact: tuple[str, ...] = ()

    def text_lines(self) -> list[str]:
        """One line per part (:func:`text_line`), in order."""
        return [text_line(p) for p in self.parts]


def _human(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def text_line(part: Part) -> str:
    """The line a non-text part also yields, e.g. ``image/png 1568×1024, file_id=U_…``: the type, an image's
    size in px (else its size in bytes), its name, its ``file_id`` when kept, and why it is not inline."""
    line = part.mime_type
    if part.width and part.height:
        line += f" {part.width}×{part.height}"
    elif part.size:
        line += f" {_human(part.size)}"
    if part.name:
        line += f", {part.name}"
    if part.file_id:
        line += f", file_id={part.file_id}"
    if part.note:
        line += f" ({part.note})"
    return line


def b64_len(size: int) -> int:
    """Characters of the base64 of ``size`` bytes."""
    return (size + 2) // 3 * 4


def part_of(value: Part | Mapping[str, Any]) -> Part:
    """A :class:`Part` from a result model's ``parts()`` item (a Part, or a mapping of its fields; ``fallback``
    may itself be a mapping).

    Raises:
        ValueError: an unknown ``kind``.
    """
    if isinstance(value, Part):
        part = value
    else:
        fields = dict(value)
        fallback = fields.pop("fallback", None)
        part = Part(**fields, fallback=part_of(fallback) if fallback is not None else None)
    if part.kind not in KINDS:
        raise ValueError(f"unknown part kind {part.kind!r}")
    if part.data is not None and not part.size:
        part = replace(part, size=len(part.data))
    return part


class TooLargeImage(ValueError):
    """An image over :data:`MAX_SOURCE_BYTES` or :data:`MAX_SOURCE_PIXELS`: never decoded here."""


def normalise_image(data: bytes) -> tuple[bytes, str, int, int] | None:
    """``(bytes, mime type, width, height)`` of ``data`` ready for a model: EXIF orientation applied
    (``ImageOps.exif_transpose``) and the longest side at most :data:`MAX_SIDE` px, re-encoded in its own format
    only when one of those changed it (PNG stays PNG; a JPEG at quality 90); an image whose bytes alone would
    not fit one result's media budget (:data:`MAX_INLINE_B64` of base64: a noisy 1500 px PNG screenshot) is
    re-encoded as a JPEG that does (:func:`_within_budget`), so a model still sees it. ``None`` when ``data`` is
    not an image Pillow can read in PNG, JPEG, GIF or WebP.

    Raises:
        TooLargeImage: over :data:`MAX_SOURCE_BYTES`, or :data:`MAX_SOURCE_PIXELS` by its header (before
            anything is decoded: a decompression bomb costs nothing).
    """
    done = _normalised(data)
    if done is not None and b64_len(len(done[0])) > MAX_INLINE_B64:
        return _within_budget(done[0]) or done
    return done


def _within_budget(data: bytes) -> tuple[bytes, str, int, int] | None:
    """``data`` (an image Pillow reads) as a JPEG whose base64 fits :data:`MAX_INLINE_B64`: quality 85,
    transparency flattened on white, then 3/4 the size per try; ``None`` when six tries do not get there."""
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as opened:
            if opened.mode.startswith("I"):  # 16-bit grey: scale to 8 bits (a plain convert clips it to white)
                image = opened.point(lambda v: v / 256).convert("L").convert("RGB")
            elif opened.mode in ("RGBA", "LA", "P", "PA"):
                image = opened.convert("RGBA")
            else:
                image = opened.convert("RGB")
        if image.mode == "RGBA":
            flat = Image.new("RGB", image.size, (255, 255, 255))
            flat.paste(image, mask=image.getchannel("A"))
            image = flat
        for _ in range(6):
            out = io.BytesIO()
            image.save(out, "JPEG", quality=85, optimize=True)
            if b64_len(out.tell()) <= MAX_INLINE_B64:
                return out.getvalue(), "image/jpeg", image.width, image.height
            image = image.resize(
                (max(1, image.width * 3 // 4), max(1, image.height * 3 // 4)), Image.Resampling.LANCZOS
            )
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    return None


def _normalised(data: bytes) -> tuple[bytes, str, int, int] | None:
    """:func:`normalise_image` before the budget step."""
    from PIL import Image, ImageOps, UnidentifiedImageError  # import on first use: most results have no image

    if len(data) > MAX_SOURCE_BYTES:
        raise TooLargeImage(f"over {MAX_SOURCE_BYTES // (1024 * 1024)} MB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            probe = Image.open(io.BytesIO(data))
    except (Image.DecompressionBombWarning, Image.DecompressionBombError) as exc:
        raise TooLargeImage(f"over {MAX_SOURCE_PIXELS // 1_000_000} M pixels") from exc
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, RuntimeError):
        return None
    try:
        with probe:
            fmt = probe.format or ""
            if fmt not in _FORMATS:
                return None
            if probe.width * probe.height > MAX_SOURCE_PIXELS:
                raise TooLargeImage(f"{probe.width}×{probe.height} px, over {MAX_SOURCE_PIXELS // 1_000_000} M pixels")
            width, height = probe.size
            orientation = probe.getexif().get(0x0112, 1)
            if max(width, height) <= MAX_SIDE and orientation in (1, None) and not getattr(probe, "is_animated", False):
                probe.load()  # the whole stream decodes: a truncated or forged body is not an image
                return data, _FORMATS[fmt], width, height
        with Image.open(io.BytesIO(data)) as image:
            if fmt == "JPEG":  # decode at a fraction of the size when far bigger (much faster, same result)
                image.draft("RGB", (MAX_SIDE, MAX_SIDE))
            turned = ImageOps.exif_transpose(image)
            turned.thumbnail((MAX_SIDE, MAX_SIDE), Image.Resampling.LANCZOS)
            out = io.BytesIO()
            if fmt == "JPEG":
                turned = turned.convert("RGB") if turned.mode not in ("RGB", "L") else turned
                turned.save(out, "JPEG", quality=90, optimize=True)
            elif fmt == "GIF":  # the first frame; a model reads a still
                turned.save(out, "GIF")
            else:
                turned.save(out, fmt, **({"optimize": True} if fmt == "PNG" else {}))
            return out.getvalue(), _FORMATS[fmt], turned.width, turned.height
    except TooLargeImage:
        raise
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, RuntimeError, Image.DecompressionBombError):
        return None  # Pillow's ways of saying "not an image it can read"


def _checked(part: Part) -> Part | None:
    """``part`` with an image normalised (:func:`normalise_image`); when its bytes are not an image, or one too
    large to decode, its ``fallback`` (checked) or, without one, the same bytes as a ``file`` (a too large image
    stays an image, with a note: it can still be kept whole as a reference); ``sha256`` and ``size`` of the
    bytes as they will travel. A normalised image keeps its ``fallback`` (used if the caps leave it out and the
    fallback fits). ``None``: an ``extra`` image that is not one (left out); one too large to decode stays as its
    text line only."""
    if part.kind == "image" and part.data is not None:
        try:
            done = normalise_image(part.data)
        except TooLargeImage as exc:
            if part.extra:  # the chunk is in the result already; its text line says why the whole is not
                return replace(part, data=None, note=f"not shown: the image is too large to decode ({exc})")
            if part.fallback is not None:
                return _checked(part.fallback)
            return replace(part, note=f"not inline: the image is too large to show ({exc})")._hashed()
        if done is None:
            if part.extra:
                return None
            if part.fallback is not None:
                return _checked(part.fallback)
            part = replace(part, kind="file", mime_type="application/octet-stream", width=None, height=None)
        else:
            data, mime, width, height = done
            fallback = _checked(part.fallback) if part.fallback is not None else None
            part = replace(part, data=data, mime_type=mime, width=width, height=height, fallback=fallback)
    return part._hashed()


async def _keep(ctx: ToolContext, spec: ToolSpec, part: Part, why: str) -> tuple[Part, dict[str, Any] | None]:
    """``part`` kept in the caller's file space (``ToolRuntime.files``, when the server has one) and sent as a
    reference; without a space, only its text line stays, with ``why``."""
    files = getattr(ctx.runtime, "files", None)
    if files is None or part.data is None:
        return replace(part, data=None, note=why), None
    put = functools.partial(
        files.put, user=ctx.principal.name, data=part.data, name=part.name or f"{spec.name}.{part.kind}",
        mime_type=part.mime_type, conversation=ctx.session_id, turn=ctx.turn_id, tool=spec.name,
    )  # fmt: skip
    try:
        record = await anyio.to_thread.run_sync(put)  # disk and SQLite: never on the event loop
        if inspect.isawaitable(record):
            record = await record
    except ServiceError as exc:  # over the file size cap or the caller's quota: the text line says so
        return replace(part, data=None, note=f"{why}; not kept: {exc.code}"), None
    kept = replace(
        part, data=None, file_id=str(record.file_id), size=int(getattr(record, "size", part.size)),
        sha256=str(getattr(record, "sha256", part.sha256)), mime_type=str(getattr(record, "mime_type", part.mime_type)),
        note=why,
    )  # fmt: skip
    artifact = {
        "file_id": kept.file_id, "name": kept.name, "mime_type": kept.mime_type, "size": kept.size,
        "sha256": kept.sha256, "created_by_tool": spec.name, "turn_id": ctx.turn_id,
    }  # fmt: skip
    return kept, artifact


async def build_parts(
    ctx: ToolContext, spec: ToolSpec, raw: Sequence[Part | Mapping[str, Any]]
) -> tuple[list[Part], list[dict[str, Any]]]:
    """``(parts, artifacts)`` of one result from its model's ``parts()``: each checked (:func:`_checked`, in a
    worker thread: Pillow decodes), its name redacted, then the caps applied in order (see the module
    docstring). Never raises for a part's bytes; a file space's own errors (``quota_exceeded``...) propagate.
    """
    import anyio

    checked = await anyio.to_thread.run_sync(lambda: [_checked(part_of(p)) for p in raw])
    parts = [p for p in checked if p is not None]
    out: list[Part] = []
    artifacts: list[dict[str, Any]] = []
    used = {"images": 0, "b64": 0}

    def over(part: Part) -> str | None:
        """Why ``part`` cannot go inline after the parts placed so far (``None``: it can, and is counted)."""
        if part.note is not None:
            return part.note
        if part.kind == "image" and used["images"] >= MAX_INLINE_IMAGES:
            return f"not inline: a result carries at most {MAX_INLINE_IMAGES} images"
        cost = b64_len(len(part.data or b""))
        if used["b64"] + cost > MAX_INLINE_B64:
            return f"not inline: a result carries at most {MAX_INLINE_B64 // 1_000_000} MB of media"
        used["images"] += part.kind == "image"
        used["b64"] += cost
        return None

    for part in parts:
        if part.name:
            part = replace(part, name=str(redact_payload({"n": part.name})["n"]))
        if part.data is None:
            out.append(replace(part, fallback=None))
            continue
        why = over(part)
        if why is not None and part.extra:  # its first bytes are in the result already: named, never kept
            out.append(replace(part, data=None, fallback=None, note=why))
            continue
        fallback = part.fallback
        part = replace(part, fallback=None)
        if why is not None and getattr(ctx.runtime, "files", None) is None and fallback is not None:
            fallback = replace(fallback, name=part.name)  # no space to keep it whole: the fallback, if it fits
            if over(fallback) is None:
                out.append(fallback)
                continue
        if why is not None and part.file_id:  # already in the caller's file space: named, never stored twice
            part = replace(part, data=None, note=why)
        elif why is not None:
            part, artifact = await _keep(ctx, spec, part, why)
            if artifact is not None:
                artifacts.append(artifact)
        out.append(part)
    return out, artifacts
