"""Search tools: search_fulltext, search_advanced, list_tags, search_paths and suggest_tags."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from obsigate.services import paths_search as paths_svc
from obsigate.services import search as svc
from obsigate.services import search_advanced as adv_svc
from obsigate.services import search_args
from obsigate.services.search import MAX_SEARCH_OFFSET
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import MAX_LIST_OFFSET, IndexState, Page


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


Glob = Annotated[str, Field(min_length=1, max_length=search_args.MAX_GLOB_CHARS)]
_INSTANT = "ISO 8601 date (UTC midnight) or date-time (UTC unless it has an offset), e.g. 2024-05-01 or 2024-05-01T09:30:00Z"


class TimeRange(ToolArgs):
    after: str | None = Field(default=None, description=f"On or after this instant. {_INSTANT}.", max_length=64)
    before: str | None = Field(default=None, description=f"Strictly before this instant. {_INSTANT}.", max_length=64)


class SizeRange(ToolArgs):
    min: int | None = Field(default=None, ge=0, description="Smallest size in bytes (inclusive).")
    max: int | None = Field(default=None, ge=0, description="Largest size in bytes (inclusive).")


class SearchAdvancedArgs(ToolArgs):
    q: str = Field(
        default="",
        description="Text to find, exactly as written (not query syntax); a regular expression when regex is true. "
        "May be empty when a filter is given: then the notes passing the filters are listed.",
        max_length=search_args.MAX_Q_CHARS,
    )
    vault: str | None = Field(default=None, description="Search only this vault; default: every vault you can use.")
    tag: str | None = Field(default=None, description="Only notes with this tag (nested tags included: 'a' matches 'a/b').", max_length=200)
    limit: int = Field(default=20, ge=1, le=100, description="Most hits to return.")
    offset: int = Field(default=0, ge=0, le=MAX_SEARCH_OFFSET, description="Hits to skip (from a previous next_offset).")
    sort: Literal["relevance", "path", "modified", "created", "size"] | None = Field(
        default=None,
        description="Order: relevance (most matches first; default when q is literal text), path (default "
        "otherwise), or newest/largest first: modified, created, size.",
    )
    case_sensitive: bool = Field(default=False, description="Match letter case exactly.")
    whole_word: bool = Field(default=False, description="Only matches not touching a letter, digit or '_' on either side.")
    regex: bool = Field(default=False, description="q is a regular expression (Python syntax; ^ and $ match at line ends).")
    include_paths: list[Glob] | None = Field(
        default=None,
        max_length=search_args.MAX_GLOBS,
        description="Only notes whose vault-relative path matches one of these globs (case-insensitive): * and ? stay "
        "in one folder, ** spans folders, {a,b} alternates. E.g. ['Projects/**', '*.md' (top folder only)].",
    )
    exclude_paths: list[Glob] | None = Field(
        default=None, max_length=search_args.MAX_GLOBS, description="Leave out notes whose path matches one of these globs."
    )
    created: TimeRange | None = Field(default=None, description="Only notes created in this range.")
    modified: TimeRange | None = Field(default=None, description="Only notes last modified in this range.")
    size: SizeRange | None = Field(default=None, description="Only notes of this size in bytes.")


class AdvancedHit(BaseModel):
    vault: str
    path: str
    title: str
    snippet: str = Field(description="About 200 characters around the first match, matches in <mark>…</mark>; without q, the note's start.")
    matches: int = Field(description="Matches in the note (counted up to 1000).")
    size: int = Field(description="Bytes.")
    modified: str = Field(description="ISO 8601, UTC.")
    created: str = Field(description="ISO 8601, UTC.")
    tags: list[str]


class SearchAdvancedResult(ToolOutput, Page):
    query: str
    sort: str
    hits: list[AdvancedHit]
    timed_out: bool = Field(description="The time budget ran out: hits and total are partial (see warning).")
    index: IndexState
    warning: str | None = None


@tool("search_advanced", title="Search notes exactly (filters, regex)")
def search_advanced(ctx: ToolContext, args: SearchAdvancedArgs) -> SearchAdvancedResult:
    """Find notes containing exact text or a regular expression, optionally case-sensitive or whole-word, and filter
    them by path globs, tag, created/modified dates and size (q may be empty to list notes by filters alone).

    Use it when search_fulltext's word matching is not precise enough. A literal q matches anywhere in a note's
    body, inside words too ('udget' finds 'budget') unless whole_word. Each hit gives the number of matches and
    a snippet. A search stops after 2 seconds: timed_out is then true and results are partial; narrow
    it with vault, include_paths or dates. Page with `offset` = `next_offset`."""
    return SearchAdvancedResult(
        **adv_svc.search_advanced(
            ctx.workspace,
            ctx.allowed_vaults,
            q=args.q,
            vault=args.vault,
            tag=args.tag,
            limit=args.limit,
            offset=args.offset,
            sort=args.sort,
            case_sensitive=args.case_sensitive,
            whole_word=args.whole_word,
            regex=args.regex,
            include_paths=args.include_paths,
            exclude_paths=args.exclude_paths,
            created=args.created.model_dump() if args.created else None,
            modified=args.modified.model_dump() if args.modified else None,
            size=args.size.model_dump() if args.size else None,
        )
    )


class ListTagsArgs(ToolArgs):
    vault: str | None = Field(default=None, description="Only this vault; default: every vault you can use.")
    limit: int = Field(default=500, ge=1, le=1000, description="Most tags to return.")
    offset: int = Field(default=0, ge=0, le=MAX_LIST_OFFSET, description="Items to skip (from a previous next_offset).")


class TagInfo(BaseModel):
    tag: str
    count: int = Field(description="Notes carrying the tag or one of its nested children.")


class ListTagsResult(ToolOutput, Page):
    tags: list[TagInfo]
    index: IndexState


@tool("list_tags", title="List tags")
def list_tags(ctx: ToolContext, args: ListTagsArgs) -> ListTagsResult:
    """List the tags used in your vaults with how many notes carry each, most used first.

    Nested tags count toward their parents (#project/alpha counts for #project)."""
    return ListTagsResult(
        **svc.list_tags(ctx.workspace, ctx.allowed_vaults, vault=args.vault, limit=args.limit, offset=args.offset)
    )


class SearchPathsArgs(ToolArgs):
    q: str = Field(description="Words of the file path or title, in any order; letters may be skipped.", max_length=200)
    vault: str | None = Field(default=None, description="Only this vault; default: every vault you can use.")
    limit: int = Field(default=20, ge=1, le=100, description="Most paths to return.")
    offset: int = Field(default=0, ge=0, le=MAX_LIST_OFFSET, description="Items to skip (from a previous next_offset).")


class PathHit(BaseModel):
    vault: str
    path: str
    title: str
    score: float


class SearchPathsResult(ToolOutput, Page):
    query: str
    hits: list[PathHit]


@tool("search_paths", title="Find files by path")
def search_paths(ctx: ToolContext, args: SearchPathsArgs) -> SearchPathsResult:
    """Find notes and attachments by their path or title, forgivingly: 'plan budget' finds
    'Projects/Field Station/Budget Plan.md'. Use it when you know roughly what a note is called;
    use search_fulltext to search inside notes."""
    return SearchPathsResult(**paths_svc.search_paths(
        ctx.workspace, args.q, ctx.allowed_vaults, vault=args.vault, limit=args.limit, offset=args.offset
    ))


class SuggestTagsArgs(ToolArgs):
    q: str = Field(default="", description="Start or letters of a tag ('#' optional); empty = most used tags.", max_length=200)
    vault: str | None = Field(default=None, description="Only this vault; default: every vault you can use.")
    limit: int = Field(default=20, ge=1, le=100, description="Most tags to return.")
    offset: int = Field(default=0, ge=0, le=MAX_LIST_OFFSET, description="Items to skip (from a previous next_offset).")


class SuggestTagsResult(ToolOutput, Page):
    query: str
    tags: list[TagInfo]


@tool("suggest_tags", title="Suggest tags")
def suggest_tags(ctx: ToolContext, args: SuggestTagsArgs) -> SuggestTagsResult:
    """Suggest existing tags for a prefix or a few letters, with how many notes use each, best first.

    Use it before tagging a note, to reuse the vault's tags ('sens' finds #project/sensors)."""
    return SuggestTagsResult(**svc.suggest_tags(
        ctx.workspace, args.q, ctx.allowed_vaults, vault=args.vault, limit=args.limit, offset=args.offset
    ))
