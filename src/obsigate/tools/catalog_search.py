"""Search tools: search_fulltext and list_tags."""

from __future__ import annotations

from pydantic import BaseModel, Field

from obsigate.services import paths_search as paths_svc
from obsigate.services import search as svc
from obsigate.services.search import MAX_SEARCH_OFFSET
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import IndexState, Page


class SearchFulltextArgs(ToolArgs):
    q: str = Field(description="Words to find (plain text; every word must match; no query syntax).", max_length=500)
    vault: str | None = Field(default=None, description="Search only this vault; default: every vault you can use.")
    tag: str | None = Field(default=None, description="Only notes with this tag (nested tags included: 'a' matches 'a/b').", max_length=200)
    limit: int = Field(default=20, ge=1, le=100, description="Most hits to return.")
    offset: int = Field(default=0, ge=0, le=MAX_SEARCH_OFFSET, description="Hits to skip (from a previous next_offset).")


class SearchHitInfo(BaseModel):
    vault: str
    path: str
    title: str
    score: float
    snippet: str = Field(description="Matching passage; matches wrapped in <mark>…</mark>.")
    tags: list[str]


class SearchFulltextResult(ToolOutput, Page):
    query: str
    hits: list[SearchHitInfo]
    index: IndexState
    warning: str | None = None


@tool("search_fulltext", title="Search notes")
def search_fulltext(ctx: ToolContext, args: SearchFulltextArgs) -> SearchFulltextResult:
    """Find notes containing all the given words, best matches first (BM25; title matches rank higher).

    Returns paths with a highlighted snippet; read a hit with read_file. Page with `offset` = `next_offset`."""
    return SearchFulltextResult(
        **svc.search_vaults(
            ctx.workspace, args.q, ctx.allowed_vaults, vault=args.vault, tag=args.tag, limit=args.limit, offset=args.offset
        )
    )


class ListTagsArgs(ToolArgs):
    vault: str | None = Field(default=None, description="Only this vault; default: every vault you can use.")


class TagInfo(BaseModel):
    tag: str
    count: int = Field(description="Notes carrying the tag or one of its nested children.")


class ListTagsResult(ToolOutput):
    tags: list[TagInfo]
    total: int
    index: IndexState


@tool("list_tags", title="List tags")
def list_tags(ctx: ToolContext, args: ListTagsArgs) -> ListTagsResult:
    """List the tags used in your vaults with how many notes carry each, most used first.

    Nested tags count toward their parents (#project/alpha counts for #project)."""
    return ListTagsResult(**svc.list_tags(ctx.workspace, ctx.allowed_vaults, vault=args.vault))


class SearchPathsArgs(ToolArgs):
    q: str = Field(description="Words of the file path or title, in any order; letters may be skipped.", max_length=200)
    vault: str | None = Field(default=None, description="Only this vault; default: every vault you can use.")
    limit: int = Field(default=20, ge=1, le=100, description="Most paths to return.")


class PathHit(BaseModel):
    vault: str
    path: str
    title: str
    score: float


class SearchPathsResult(ToolOutput):
    query: str
    hits: list[PathHit]
    total: int


@tool("search_paths", title="Find files by path")
def search_paths(ctx: ToolContext, args: SearchPathsArgs) -> SearchPathsResult:
    """Find notes and attachments by their path or title, forgivingly: 'plan budget' finds
    'Projects/Field Station/Budget Plan.md'. Use it when you know roughly what a note is called;
    use search_fulltext to search inside notes."""
    return SearchPathsResult(**paths_svc.search_paths(ctx.workspace, args.q, ctx.allowed_vaults, vault=args.vault, limit=args.limit))


class SuggestTagsArgs(ToolArgs):
    q: str = Field(default="", description="Start or letters of a tag ('#' optional); empty = most used tags.", max_length=200)
    vault: str | None = Field(default=None, description="Only this vault; default: every vault you can use.")
    limit: int = Field(default=20, ge=1, le=100, description="Most tags to return.")


class SuggestTagsResult(ToolOutput):
    query: str
    tags: list[TagInfo]
    total: int


@tool("suggest_tags", title="Suggest tags")
def suggest_tags(ctx: ToolContext, args: SuggestTagsArgs) -> SuggestTagsResult:
    """Suggest existing tags for a prefix or a few letters, with how many notes use each, best first.

    Use it before tagging a note, to reuse the vault's tags ('sens' finds #project/sensors)."""
    return SuggestTagsResult(**svc.suggest_tags(ctx.workspace, args.q, ctx.allowed_vaults, vault=args.vault, limit=args.limit))
