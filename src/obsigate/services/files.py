"""Reading files: parsed notes with metadata (:func:`read_file_text`) and exact bytes (:func:`read_raw_file`).

Every text that leaves here is redacted (``domain.redaction``); long texts are cut at
``limits.max_read_bytes`` (``BOOKSLM_MAX_TOOL_READ_BYTES``) on a UTF-8 character boundary and the caller
gets the byte ``next_offset`` to read on.
"""

from __future__ import annotations

import base64
import json
import mimetypes
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, Field, PrivateAttr

from obsigate.domain.markdown.note import distinct_tags, parse_note
from obsigate.domain.media_type import binary_type, is_decoded, sniffed_type, text_type
from obsigate.domain.redaction import redact_note, redact_text
from obsigate.domain.storage import vault_fs
from obsigate.domain.vault import Vault, decode_note, is_note
from obsigate.domain.versions import served_sha256
from obsigate.services.errors import BadRequest, NotFound
from obsigate.services.paths import SafePath, fs_errors, resolve_safe_path
from obsigate.services.results import Result
from obsigate.services.workspace import Workspace

MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024
_TEXT_SUFFIXES = {".md", ".txt", ".canvas", ".base", ".json", ".csv", ".yaml", ".yml"}


def is_text_path(rel: str) -> bool:
    """Whether ``rel`` names a note or a text file by its name (``.md``, ``.txt``, ``.canvas``, ``.base``,
    ``.json``, ``.csv``, ``.yaml``, ``.yml``, any case): what a folder contributes to the assistant's context."""
    return is_note(rel) or Path(rel).suffix.lower() in _TEXT_SUFFIXES


def _decode_text(rel: str, data: bytes) -> str | None:
    """The file as text, or ``None`` for a binary file. Notes and other text files that are not valid UTF-8
    are decoded with replacement characters rather than passed through as bytes: text is only ever served
    redacted, and redaction needs a ``str``."""
    try:
        return decode_note(data)
    except UnicodeDecodeError:
        if is_note(rel) or Path(rel).suffix.lower() in _TEXT_SUFFIXES:
            return data.decode("utf-8", errors="replace")
        return None


def _load(vault: Vault, path: str, *, max_bytes: int | None = None) -> tuple[SafePath, bytes, int]:
    """Read a regular file's bytes, through ``vault_fs`` (no symlink followed); returns (safe path, bytes,
    mtime_ns).

    Raises:
        NotFound; PathOutsideVault (a symlink on the way); BadRequest (``is_a_directory``, or ``not_a_file``
        for FIFOs, sockets, devices: opening one could block a worker forever); PayloadTooLarge when
        ``max_bytes`` is given and exceeded.
    """
    safe = resolve_safe_path(vault, path)
    try:
        with fs_errors(safe.rel):
            data, st = vault_fs.read_file(vault.root, safe.rel, max_bytes=max_bytes)
    except IsADirectoryError:
        raise BadRequest(
            f"{safe.rel!r} is a folder", code="is_a_directory", hint="use list_directory for folders"
        ) from None
    except OSError:  # absent (or below a file), or unreadable
        raise NotFound(
            f"file {safe.rel!r} does not exist in vault {vault.name!r}",
            hint="check the path with search_fulltext or list_directory",
        ) from None
    return safe, data, st.st_mtime_ns


def _window(text: str, offset: int, max_bytes: int, max_json_chars: int) -> tuple[str, int, int | None, int]:
    """Cut ``text`` to at most ``max_bytes`` UTF-8 bytes starting at byte ``offset``, and small enough that its
    JSON encoding stays under ``max_json_chars`` (so the result budget never has to cut it behind
    ``next_offset``'s back).

    Returns (chunk, start, next_offset or None, total bytes). Offsets always fall on character boundaries:
    an ``offset`` inside a multi-byte character moves forward to the next character, and ``start`` is where
    the chunk really begins.

    Raises:
        BadRequest: ``offset`` outside the text.
    """
    raw = text.encode("utf-8")
    total = len(raw)
    if offset < 0 or offset > total:
        raise BadRequest(f"offset must be between 0 and {total}")
    while offset < total and (raw[offset] & 0xC0) == 0x80:  # never start inside a character
        offset += 1
    size = max_bytes
    while True:
        end = min(total, offset + size)
        while end < total and (raw[end] & 0xC0) == 0x80:
            end -= 1
        chunk = raw[offset:end].decode("utf-8")
        encoded = len(json.dumps(chunk, ensure_ascii=False))
        if encoded <= max_json_chars or size <= 64:
            return chunk, offset, (end if end < total else None), total
        size = max(64, int(size * max_json_chars / encoded * 0.95))


class LinkInfo(BaseModel):
    target: str = Field(description="Link path as written (without #subpath); '' = this note.")
    subpath: str | None = None
    display: str | None = None
    kind: str = Field(description="'wikilink', 'markdown' or 'frontmatter'")
    embed: bool
    line: int
    key: str | None = Field(default=None, description="Frontmatter property holding the link.")
    resolved: str | None = Field(default=None, description="Vault path the link points to; null when unresolved.")


class HeadingInfo(BaseModel):
    level: int
    text: str
    line: int


class FileChunk(Result):
    """A file read in chunks: its ``size`` in bytes, ``sha256`` (of the whole file as served: a note redacted)
    and ``version``, where this chunk starts (``offset``) and the next one does (``next_offset``; null at the
    end)."""

    vault: str
    path: str
    size: int
    sha256: str = Field(description="SHA-256 of the whole file as served (a note redacted).")
    version: str = Field(description="Changes whenever the stored file does; opaque.")
    offset: int
    next_offset: int | None = None


class ReadFileResult(FileChunk):
    content: str = Field(description="Note body after the frontmatter (secrets redacted).")
    frontmatter: dict[str, Any]
    frontmatter_error: str | None = None
    tags: list[str]
    aliases: list[str]
    links: list[LinkInfo]
    headings: list[HeadingInfo]
    modified: str


class ReadFileRawResult(FileChunk):
    mime_type: str
    encoding: str = Field(description="'utf-8' for text, 'base64' for binary files")
    content: str = Field(description="Text, or '' for binaries over MCP: the bytes come as an image/resource block.")

    #: the whole file's bytes when this chunk starts it and it may be shown whole (an image, a PDF that is one
    #: chunk): never dumped, read by :meth:`parts`
    _whole: bytes | None = PrivateAttr(default=None)

    def exact_fields(self) -> tuple[str, ...]:
        """The fields holding exact bytes (a binary chunk's base64 ``content``), which ``pipeline.finish``
        neither redacts nor cuts; none for text."""
        return ("content",) if self.encoding == "base64" else ()

    def parts(self) -> list[dict[str, Any]]:
        """The result's parts (``tools/parts.py`` fields, as mappings: this layer cannot import that one): a
        binary chunk as a ``file`` part (its ``vault://`` URI, the chunk's bytes: ``carries`` ``content``), or,
        for an image read from its start, the whole image as an ``image`` part: in place of the chunk when the
        image is one chunk (the chunk its ``fallback``: bytes that are not an image, or one too large to show),
        after the chunk otherwise (``extra``: left out when it is not an image); a PDF that is a single chunk as a
        ``pdf`` part; none for text or past the end."""
        if self.encoding != "base64" or not self.content:
            return []
        chunk = {
            "kind": "file", "mime_type": self.mime_type, "data": base64.b64decode(self.content),
            "name": self.path, "uri": f"vault://{quote(self.vault, safe='')}/{quote(self.path, safe='/')}",
            "carries": "content",
        }  # fmt: skip
        if self._whole is not None and self.mime_type.startswith("image/"):
            image = {**chunk, "kind": "image", "data": self._whole, "carries": None}
            if self.next_offset is None:  # one chunk: the image, or the chunk if it is none
                return [{**image, "fallback": chunk}]
            # over one read: the chunk stays (a client joins chunks), the whole image beside it if it is one
            return [chunk, {**image, "extra": True}]
        if self._whole is not None and self.mime_type == "application/pdf" and self.next_offset is None:
            return [{**chunk, "kind": "pdf", "carries": None}]
        return [chunk]


def note_text(vault: Vault, path: str) -> str:
    """The redacted text of one note or text file of ``vault`` (lossy decoding of invalid UTF-8), with its
    line breaks kept (line numbers stay true).

    Raises:
        NotFound, PathOutsideVault, BadRequest (folder, not a regular file, or ``not_text`` for binaries).
    """
    safe, data, _ = _load(vault, path)
    text = _decode_text(safe.rel, data)
    if text is None:
        raise BadRequest(f"{safe.rel!r} is not text", code="not_text")
    return redact_text(text, keep_lines=True)


def read_file_text(ws: Workspace, vault: Vault, path: str, *, offset: int = 0) -> ReadFileResult:
    """A note's body and metadata, redacted. ``vault`` is the vault the tool layer already permitted (the
    caller's grants are checked there, never here).

    Returns a :class:`ReadFileResult` (``sha256``: of the whole
    file as served, redacted; ``version``: the stored bytes' keyed version, ``domain/versions.py``, which a
    save sends back). ``content`` is the body after the
    frontmatter block; offsets are UTF-8 byte offsets into that body, and ``offset`` is where ``content`` really
    starts (an ``offset`` inside a multi-byte character moves to the next character boundary). ``resolved`` is the vault path a link
    points to now (Obsidian's resolution over the indexed files), ``None`` when unresolved.

    Raises:
        NotFound (file), PathOutsideVault, BadRequest (a folder, or a binary file: code ``not_text``, use
        read_file_raw).
    """
    safe, data, mtime_ns = _load(vault, path)
    text = _decode_text(safe.rel, data)
    if text is None:
        raise BadRequest(f"{safe.rel!r} is not text", code="not_text", hint="use read_file_raw to get its bytes")
    shown = redact_text(text)  # the file as served: its digest, and whether it holds a secret at all
    if is_note(safe.rel):
        parsed = redact_note(parse_note(text), text, clean=shown is text)
        body = parsed.body
        meta: dict[str, Any] = {
            "frontmatter": parsed.frontmatter,
            "frontmatter_error": parsed.frontmatter_error,
            "tags": distinct_tags(parsed.tags),
            "aliases": list(parsed.aliases),
            "links": [
                asdict(link) | {"resolved": ws.index.resolve_link(vault.name, link.target, safe.rel)}
                for link in parsed.links
            ],
            "headings": [asdict(h) for h in parsed.headings],
        }
    elif Path(safe.rel).suffix.lower() in _TEXT_SUFFIXES:
        body = shown
        meta = {"frontmatter": {}, "frontmatter_error": None, "tags": [], "aliases": [], "links": [], "headings": []}
    else:
        raise BadRequest(f"{safe.rel!r} is not a text note", code="not_text", hint="use read_file_raw")
    chunk, start, next_offset, _ = _window(body, offset, ws.limits.max_read_bytes, ws.limits.budget_chars // 2)
    return ReadFileResult(
        vault=vault.name,
        path=safe.rel,
        content=chunk,
        **meta,
        size=len(data),
        modified=datetime.fromtimestamp(mtime_ns / 1e9, tz=UTC).isoformat(timespec="seconds"),
        sha256=served_sha256(shown),  # of the file as served, never of its secrets
        version=ws.versions.of(data),
        offset=start,
        next_offset=next_offset,
        truncated=next_offset is not None,
    )


def read_raw_file(ws: Workspace, vault: Vault, path: str, *, offset: int = 0) -> ReadFileRawResult:
    """The file exactly as stored, from ``vault`` (already permitted by the tool layer): text redacted and
    windowed like read_file, or binary bytes as base64 in chunks of at most ``limits.max_read_bytes`` bytes.

    Returns a :class:`ReadFileRawResult`: ``encoding`` ``"utf-8"`` or ``"base64"``; ``size`` is the whole file's, ``sha256`` the whole
    file's as served (a text redacted, a binary as stored), ``version`` as :func:`read_file_text`'s; ``offset`` is where
    the chunk starts (text: a UTF-8 byte offset into the redacted text, snapped to a character boundary;
    binary: a byte offset into the file) and ``next_offset`` where the next one does (``None`` at the end).
    A binary chunk is the file's bytes ``[offset, next_offset or size)``, unredacted (attachments are served
    as stored, as by the download route).

    Raises:
        NotFound (file), PathOutsideVault, BadRequest (a folder, not a regular file, an ``offset`` past the
        end).
    """
    safe, data, _ = _load(vault, path)
    text = _decode_text(safe.rel, data)
    if text is not None and not is_text_path(safe.rel) and is_decoded(sniffed_type(data)):
        text = None  # an all-ASCII PDF is still a PDF (a note or a .txt stays text whatever its first bytes)
    fallback = "text/markdown" if is_note(safe.rel) else "application/octet-stream"
    # the bytes say what a file is, not its name: a .png holding a PDF is a PDF, a .jpg holding text is text
    mime = binary_type(safe.rel, data) if text is None else text_type(safe.rel, fallback)
    common = {
        "vault": vault.name,
        "path": safe.rel,
        "mime_type": mime,
        "size": len(data),
        "version": ws.versions.of(data),
    }
    shown = None if text is None else redact_text(text)
    common["sha256"] = served_sha256(data if shown is None else shown)  # of what is served, never of the secrets
    if shown is None:
        if offset < 0 or offset > len(data):
            raise BadRequest(f"offset must be between 0 and {len(data)}")
        end = min(len(data), offset + ws.limits.max_read_bytes)
        next_offset = end if end < len(data) else None
        chunk = base64.b64encode(data[offset:end]).decode("ascii")
        result = ReadFileRawResult(
            **common,
            encoding="base64",
            content=chunk,
            offset=offset,
            next_offset=next_offset,
            truncated=next_offset is not None,
        )
        if offset == 0 and data and (mime.startswith("image/") or mime == "application/pdf"):
            result._whole = data  # shown whole by the fronts that take media (ReadFileRawResult.parts)
        return result
    chunk, start, next_offset, _ = _window(shown, offset, ws.limits.max_read_bytes, ws.limits.budget_chars // 2)
    return ReadFileRawResult(
        **common,
        encoding="utf-8",
        content=chunk,
        offset=start,
        next_offset=next_offset,
        truncated=next_offset is not None,
    )


def read_file_bytes(ws: Workspace, vault: Vault, path: str) -> tuple[str, bytes, str]:
    """Exact bytes for HTTP downloads (images, attachments) from ``vault`` (already permitted by the tool
    layer): (vault-relative path, bytes, mime type).

    Notes (text) are redacted before being returned; attachments are returned as stored.

    Raises:
        NotFound (file), PathOutsideVault, BadRequest (a folder, not a regular file), PayloadTooLarge (over
        ``MAX_DOWNLOAD_BYTES``).
    """
    safe, data, _ = _load(vault, path, max_bytes=MAX_DOWNLOAD_BYTES)
    mime = mimetypes.guess_type(safe.rel)[0] or ("text/markdown" if is_note(safe.rel) else "application/octet-stream")
    text = _decode_text(safe.rel, data)
    return (safe.rel, data, mime) if text is None else (safe.rel, redact_text(text).encode("utf-8"), mime)
