"""Reading tools: read_file (parsed note) and read_file_raw (exact file)."""

from __future__ import annotations

from pydantic import Field

from obsigate.services import files as svc
from obsigate.services.files import ReadFileRawResult, ReadFileResult
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, tool
from obsigate.tools.schemas import Path, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 2


class ReadFileArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path()
    offset: int = Field(default=0, ge=0, le=2**40, description="Byte offset (next_offset).")


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
    return svc.read_file_text(ctx.workspace, ctx.permitted_vault, args.path, offset=args.offset)


class ReadFileRawArgs(ReadFileArgs):
    pass


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
    return svc.read_raw_file(ctx.workspace, ctx.permitted_vault, args.path, offset=args.offset)
