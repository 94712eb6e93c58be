"""Reading tools: read_file (parsed note) and read_file_raw (exact file)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from obsigate.services import files as svc
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import Path, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 2


class ReadFileArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path()
    offset: int = Field(default=0, ge=0, le=2**40, description="Byte offset (next_offset).")


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


class FileChunk(ToolOutput):
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


@tool(
    "read_file",
    title="Read a note",
    label=("Fichier lu : {path}", "File read: {path}"),
    rest=Rest(
        "GET", "/file/{vault}", summary="Read a note: content, frontmatter, tags, links, headings", name="get_file"
    ),
)
def read_file(ctx: ToolContext, args: ReadFileArgs) -> ReadFileResult:
    """Read a note: body, frontmatter, tags, links, headings; long notes in chunks. Secrets show as
    [REDACTED:...]."""
    return ReadFileResult(**svc.read_file_text(ctx.workspace, ctx.permitted_vault, **args.service_args()))


class ReadFileRawArgs(ReadFileArgs):
    pass


class ReadFileRawResult(FileChunk):
    mime_type: str
    encoding: str = Field(description="'utf-8' for text, 'base64' for binary files")
    content: str = Field(description="Text, or '' for binaries over MCP: the bytes come as an image/resource block.")

    def exact_fields(self) -> tuple[str, ...]:
        """The fields holding exact bytes (a binary chunk's base64 ``content``), which ``pipeline.finish``
        neither redacts nor cuts; none for text."""
        return ("content",) if self.encoding == "base64" else ()


@tool(
    "read_file_raw",
    title="Read a file as stored",
    label=("Fichier lu : {path}", "File read: {path}"),
    rest=Rest(
        "GET",
        "/file/{vault}/source",
        summary="A file as stored: the whole text with its frontmatter (secrets redacted), or base64 chunks",
        name="get_file_source",
    ),
)
def read_file_raw(ctx: ToolContext, args: ReadFileRawArgs) -> ReadFileRawResult:
    """Read a file as stored (frontmatter included); a binary as an image or resource block. Chunked like
    read_file."""
    return ReadFileRawResult(**svc.read_raw_file(ctx.workspace, ctx.permitted_vault, **args.service_args()))
