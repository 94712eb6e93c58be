"""Search tools: search_fulltext, search_advanced, list_tags, search_paths and suggest_tags."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from obsigate.services import paths_search as paths_svc
from obsigate.services import search as svc
from obsigate.services import search_advanced as adv_svc
from obsigate.services import search_args
from obsigate.services.paths_search import SearchPathsResult
from obsigate.services.search import MAX_SEARCH_OFFSET, ListTagsResult, SearchFulltextResult, SuggestTagsResult
from obsigate.services.search_advanced import SearchAdvancedResult
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, tool
from obsigate.tools.schemas import Glob, Globs, Limit, Offset, Tag, VaultFilter

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 4


class SearchFulltextArgs(ToolArgs):
    q: str = Field(
        description='Words, or Obsidian syntax: tag: path: file: line:() section:() task: "a b" -x OR /re/',
        max_length=500,
    )
    vault: str | None = VaultFilter()
    tag: str | None = Tag()
    limit: int = Limit(20, le=100)
    offset: int = Offset(le=MAX_SEARCH_OFFSET)


@tool(
    "search_fulltext",
    title="Search notes",
    label=("Recherche dans le vault : {q}", "Vault searched: {q}"),
    rest=Rest("GET", "/search", summary="Full-text search (BM25, title boosted)", name="search", defaults={"q": ""}),
)
def search_fulltext(ctx: ToolContext, args: SearchFulltextArgs) -> SearchFulltextResult:
    """Find notes with all the words or Obsidian search syntax, best first, with snippets; dates, sizes,
    globs: search_advanced."""
    return svc.search_vaults(ctx.workspace, args.q, ctx.scope, tag=args.tag, limit=args.limit, offset=args.offset)


class TimeRange(ToolArgs):
    after: str | None = Field(default=None, description="ISO 8601 date or date-time, inclusive.", max_length=64)
    before: str | None = Field(default=None, description="Exclusive.", max_length=64)


class SizeRange(ToolArgs):
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)


class SearchAdvancedArgs(ToolArgs):
    q: str = Field(
        default="",
        description="Exact text (a regex if regex); '' lists the notes passing the filters.",
        max_length=search_args.MAX_Q_CHARS,
    )
    vault: str | None = VaultFilter()
    tag: str | None = Tag()
    limit: int = Limit(20, le=100)
    offset: int = Offset(le=MAX_SEARCH_OFFSET)
    sort: Literal["relevance", "path", "modified", "created", "size"] | None = Field(
        default=None,
        description="Default: relevance for literal q, else path; modified, created, size: newest/largest first.",
    )
    case_sensitive: bool = False
    whole_word: bool = False
    regex: bool = Field(default=False, description="q is a Python regular expression.")
    include_paths: list[Glob] | None = Globs("Only paths matching a glob (** spans folders).")
    exclude_paths: list[Glob] | None = Globs("Paths to leave out (globs).")
    created: TimeRange | None = None
    modified: TimeRange | None = None
    size: SizeRange | None = Field(default=None, description="In bytes, inclusive.")


@tool(
    "search_advanced",
    title="Search notes exactly (filters, regex)",
    label=("Recherche dans le vault : {q}", "Vault searched: {q}"),
    rest=(
        Rest("GET", "/search/advanced", summary="Exact or regex search with path, tag, date and size filters"),
        Rest(
            "POST",
            "/search/advanced",
            summary="Advanced search with the tool's arguments as a JSON body",
            name="search_advanced_post",
        ),
    ),
)
def search_advanced(ctx: ToolContext, args: SearchAdvancedArgs) -> SearchAdvancedResult:
    """Find notes by exact text or regex, filtered by path globs, tag, dates and size; gives match counts and
    snippets. Stops after 2 s (timed_out): then narrow it."""
    return adv_svc.search_advanced(ctx.workspace, ctx.scope, **args.service_args())


class ListTagsArgs(ToolArgs):
    vault: str | None = VaultFilter()
    limit: int = Limit(500, le=1000)
    offset: int = Offset()


@tool(
    "list_tags",
    title="List tags",
    label=("Tags consultés", "Tags listed"),
    rest=Rest("GET", "/tags", summary="Tags with note counts", name="tags"),
)
def list_tags(ctx: ToolContext, args: ListTagsArgs) -> ListTagsResult:
    """List the tags with their note counts, most used first (nested tags count for their parents)."""
    return svc.list_tags(ctx.workspace, ctx.scope, limit=args.limit, offset=args.offset)


class SearchPathsArgs(ToolArgs):
    q: str = Field(description="Words of the path or title, any order; letters may be skipped.", max_length=200)
    vault: str | None = VaultFilter()
    limit: int = Limit(20, le=100)
    offset: int = Offset()


@tool(
    "search_paths",
    title="Find files by path",
    label=("Chemins recherchés : {q}", "Paths searched: {q}"),
    rest=Rest(
        "GET",
        "/tree-search",
        summary="Find files by a fuzzy match on their path and title",
        name="tree_search",
        defaults={"q": ""},
    ),
)
def search_paths(ctx: ToolContext, args: SearchPathsArgs) -> SearchPathsResult:
    """Find files by path or title, forgivingly ('plan budget' finds 'Projects/Budget Plan.md'). To search
    inside notes use search_fulltext."""
    return paths_svc.search_paths(ctx.workspace, args.q, ctx.scope, limit=args.limit, offset=args.offset)


class SuggestTagsArgs(ToolArgs):
    q: str = Field(default="", description="Start or letters of a tag; '' = the most used.", max_length=200)
    vault: str | None = VaultFilter()
    limit: int = Limit(20, le=100)
    offset: int = Offset()


@tool(
    "suggest_tags",
    title="Suggest tags",
    label=("Tags suggérés pour {q}", "Tags suggested for {q}"),
    rest=Rest("GET", "/tags/suggest", summary="Existing tags matching a prefix or a few letters, with note counts"),
)
def suggest_tags(ctx: ToolContext, args: SuggestTagsArgs) -> SuggestTagsResult:
    """Suggest existing tags matching a prefix or a few letters, with note counts."""
    return svc.suggest_tags(ctx.workspace, args.q, ctx.scope, limit=args.limit, offset=args.offset)
