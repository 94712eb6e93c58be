"""The caller's own file space (``services/user_files.py``): two tools a model may use (``list_user_files``,
``read_user_file``) and the web app's and the REST API's own operations (``upload_user_file``,
``user_file_info``, ``download_user_file``, ``delete_user_file``: ``scopes=()``, run with ``front_call=True`` by
:mod:`obsigate.tools.operations`), plus MCP's ``obsigate://files/{file_id}`` resource.

Every one works on the caller's own files only (``ctx.principal.name``): another user's ``file_id`` is
``not_found``, like an id that never existed. Deleting stays the person's own action (REST and the web app).
"""

from __future__ import annotations

import base64
import binascii
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from obsigate.domain.redaction import redact_text
from obsigate.services.errors import BadRequest, PayloadTooLarge, Unavailable
from obsigate.services.files import _window as text_window
from obsigate.services.results import Page
from obsigate.services.user_files import FILE_URI_PREFIX, FileRecord, FileSpace
from obsigate.tools.context import ToolContext
from obsigate.tools.kinds import Kind, operation
from obsigate.tools.registry import Risk, ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import Limit, Offset

__all__ = ["FILE_RESOURCE_TEMPLATE", "TEXT_TYPES", "is_text_type"]

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 11

#: MCP's resource template of a file of the space (``resources/read``).
FILE_RESOURCE_TEMPLATE = f"{FILE_URI_PREFIX}{{file_id}}"
#: Types read as text (besides ``text/*``).
TEXT_TYPES = frozenset({"application/json"})

_FileId = Field(min_length=1, max_length=200, description="From list_user_files or a tool result.")


def is_text_type(mime_type: str) -> bool:
    """Whether a file of ``mime_type`` is read as text."""
    return mime_type.startswith("text/") or mime_type in TEXT_TYPES


def _space(ctx: ToolContext) -> FileSpace:
    files = ctx.runtime.files
    if files is None:
        raise Unavailable("this server has no file space")
    return files


def _offered(runtime: Any) -> bool:
    return getattr(runtime, "files", None) is not None


class UserFile(BaseModel):
    """A file of the caller's space, as listed."""

    file_id: str
    name: str
    mime_type: str
    size: int
    created_at: str
    created_by_tool: str | None = None


def _listed(record: FileRecord) -> UserFile:
    data = record.to_dict()
    return UserFile(**{k: data[k] for k in UserFile.model_fields})


class ListUserFilesArgs(ToolArgs):
    limit: int = Limit(50, le=200)
    offset: int = Offset()


class ListUserFilesResult(ToolOutput, Page):
    files: list[UserFile]
    used_bytes: int
    quota_bytes: int


@tool(
    "list_user_files",
    title="Your files",
    label=("Fichiers personnels listés", "Your files listed"),
    available=_offered,
)
def list_user_files(ctx: ToolContext, args: ListUserFilesArgs) -> ListUserFilesResult:
    """List your own files (uploads, tool artifacts), newest first."""
    space = _space(ctx)
    user = ctx.principal.name
    records, total = space.list(user, limit=args.limit, offset=args.offset)
    end = args.offset + len(records)
    return ListUserFilesResult(
        files=[_listed(r) for r in records], total=total, offset=args.offset,
        next_offset=end if end < total else None, used_bytes=space.used_bytes(user), quota_bytes=space.quota_bytes,
    )  # fmt: skip


class ReadUserFileArgs(ToolArgs):
    file_id: str = _FileId
    offset: int = Field(default=0, ge=0, le=2**40, description="Byte offset (next_offset).")


class ReadUserFileResult(ToolOutput):
    file_id: str
    name: str
    mime_type: str
    size: int
    encoding: str = Field(description="'utf-8' for text; 'none' for a binary (content empty).")
    content: str
    offset: int = 0
    next_offset: int | None = None
    _media: bytes | None = PrivateAttr(default=None)

    def parts(self) -> list[dict[str, Any]]:
        """An image, PDF or audio file as one part (``tools/parts.py`` fields): the fronts that take media show it
        (an image normalised, within a result's caps; beyond them a reference to this very ``file_id``, never a
        copy); none for text or another binary."""
        kind = _media_kind(self.mime_type)
        if self._media is None or kind is None:
            return []
        return [
            {"kind": kind, "mime_type": self.mime_type, "data": self._media, "name": self.name, "file_id": self.file_id}
        ]


def _media_kind(mime_type: str) -> str | None:
    """The part kind of a file of ``mime_type`` a model may see (``image``, ``pdf``, ``audio``), else ``None``."""
    if mime_type.startswith("image/"):
        return "image"
    if mime_type == "application/pdf":
        return "pdf"
    return "audio" if mime_type.startswith("audio/") else None


@tool(
    "read_user_file",
    title="Your file",
    label=("Fichier personnel lu", "Your file read"),
    available=_offered,
)
def read_user_file(ctx: ToolContext, args: ReadUserFileArgs) -> ReadUserFileResult:
    """Read one of your files by file_id: text in pages (offset), a binary as its metadata."""
    record, data = _space(ctx).read(ctx.principal.name, args.file_id)
    head = {"file_id": record.file_id, "name": record.name, "mime_type": record.mime_type, "size": record.size}
    if not is_text_type(record.mime_type):
        result = ReadUserFileResult(
            **head, encoding="none", content="",
            notice=f"{record.mime_type} {record.size} bytes: not text; name it by file_id where a file is expected",
        )  # fmt: skip
        result._media = data if _media_kind(record.mime_type) else None
        return result
    text = redact_text(data.decode("utf-8", errors="replace"), keep_lines=True)
    limits = ctx.workspace.limits
    chunk, start, next_offset, _ = text_window(text, args.offset, limits.max_read_bytes, limits.budget_chars // 2)
    return ReadUserFileResult(
        **head, encoding="utf-8", content=chunk, offset=start, next_offset=next_offset,
        truncated=next_offset is not None,
        notice=None if next_offset is None else f"more follows: call again with offset={next_offset}",
    )  # fmt: skip


# -- the fronts' own operations (offered to no model) -----------------------------------------------------------


class FileIdArgs(ToolArgs):
    file_id: str = _FileId


class UserFileResult(ToolOutput):
    """One file's whole record (``FileRecord.to_dict``: ``file_id``, ``name``, ``mime_type``, ``size``,
    ``sha256``, ``created_at``, ``last_used_at``, ``expires_at``, ``created_by_tool``, ``conversation``, ``turn``,
    ``journal_seq``, ``origin``, ``uri``)."""

    file: dict[str, Any]


class UploadArgs(ToolArgs):
    """A new file: its display ``name``, its bytes as base64 ``content``, and the ``conversation`` it belongs to
    (then it expires like the conversation's artifacts; without one it is kept until deleted): a plain token,
    ``[A-Za-z0-9_-]{1,64}`` (anything else is ``invalid_argument``, nothing stored)."""

    name: str = Field(min_length=1, max_length=1024)
    content: str
    conversation: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]{1,64}$")


@tool(
    "upload_user_file",
    title="Upload a file to your space",
    risk=Risk.WRITE,
    scopes=(),
    label=("Fichier personnel ajouté", "File added to your space"),
)
def upload_user_file(ctx: ToolContext, args: UploadArgs) -> UserFileResult:
    """Store a file the person uploads in their own file space (REST ``POST /api/files``, the web app)."""
    space = _space(ctx)
    if len(args.content) // 4 * 3 > space.max_bytes + 2:  # refused before decoding anything
        raise PayloadTooLarge(
            f"the file is over the most a file may hold ({space.max_bytes} bytes)", code="file_too_large",
            details={"max_bytes": space.max_bytes},
        )  # fmt: skip
    try:
        data = base64.b64decode(args.content, validate=True)
    except (binascii.Error, ValueError):
        raise BadRequest("content must be base64") from None
    record = space.put(
        ctx.principal.name, data, name=args.name, conversation=args.conversation, turn=ctx.turn_id, origin="upload"
    )
    return UserFileResult(file=record.to_dict())


@tool("user_file_info", title="One of your files", scopes=(), label=("Fichier personnel consulté", "Your file viewed"))
def user_file_info(ctx: ToolContext, args: FileIdArgs) -> UserFileResult:
    """One of the caller's files: its whole record (REST ``GET /api/files/{file_id}``)."""
    return UserFileResult(file=_space(ctx).get(ctx.principal.name, args.file_id).to_dict())


class DownloadUserFileResult(UserFileResult):
    """The record and the bytes (``content``, base64, exact: never redacted or cut; bounded by the space's
    ``max_bytes``)."""

    UNBOUNDED: ClassVar[bool] = True

    content: str

    def exact_fields(self) -> tuple[str, ...]:
        """``content``: exact bytes."""
        return ("content",)


@tool(
    "download_user_file",
    title="Download one of your files",
    scopes=(),
    label=("Fichier personnel téléchargé", "Your file downloaded"),
)
def download_user_file(ctx: ToolContext, args: FileIdArgs) -> DownloadUserFileResult:
    """The bytes of one of the caller's files (REST ``GET /api/files/{file_id}/content``, the web app's preview)."""
    record, data = _space(ctx).read(ctx.principal.name, args.file_id)
    return DownloadUserFileResult(file=record.to_dict(), content=base64.b64encode(data).decode("ascii"))


@tool(
    "delete_user_file",
    title="Delete one of your files",
    risk=Risk.DANGEROUS,
    scopes=(),
    label=("Fichier personnel supprimé", "Your file deleted"),
)
def delete_user_file(ctx: ToolContext, args: FileIdArgs) -> UserFileResult:
    """Delete one of the caller's files: bytes, metadata and caches (REST ``DELETE /api/files/{file_id}``)."""
    return UserFileResult(file=_space(ctx).delete(ctx.principal.name, args.file_id).to_dict())


# -- MCP resource ---------------------------------------------------------------------------------------------


class FileResourceArgs(BaseModel):
    """A file-space resource: its ``uri`` and the ``file_id`` it names."""

    model_config = ConfigDict(extra="forbid", strict=True)

    uri: str
    file_id: str = Field(min_length=1, max_length=200)


@operation(Kind.RESOURCE, FILE_RESOURCE_TEMPLATE, title="Your file", vault_arg=None)
def user_file_resource(ctx: ToolContext, args: FileResourceArgs) -> dict[str, Any]:
    """One of the caller's files: ``{"kind": "user_file", "mime_type", "encoding": "utf-8"|"base64", "content",
    "name", "size"}`` (text redacted)."""
    record, data = _space(ctx).read(ctx.principal.name, args.file_id)
    out = {"kind": "user_file", "mime_type": record.mime_type, "name": record.name, "size": record.size}
    if is_text_type(record.mime_type):
        return out | {"encoding": "utf-8", "content": redact_text(data.decode("utf-8", errors="replace"))}
    return out | {"encoding": "base64", "content": base64.b64encode(data).decode("ascii")}
