"""Web tools of the in-app assistant: web_search (the admin's SearXNG) and fetch_url (one public page as text).

In-app only (``scopes=(Scope.IN_APP,)``): never offered over MCP, whose clients have their own web tools, and no
REST route. Both go out through the one guarded client (``services/net``); web_search is offered only when a
search engine is configured (``OBSIGATE_SEARXNG_URL``). Labels from the seeds' catalogue (§4 "Web").
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from obsigate.services.net import web as svc
from obsigate.services.net.searxng import MAX_RESULTS
from obsigate.services.net.web import FetchUrlResult, WebSearchResult
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Scope, ToolArgs, tool

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 9

MAX_URL_CHARS = 2048


class WebSearchArgs(ToolArgs):
    query: str = Field(min_length=1, max_length=400)
    max_results: int = Field(8, ge=1, le=MAX_RESULTS)
    category: Literal["general", "news", "science", "it", "images", "videos"] | None = None
    language: str | None = Field(None, pattern=r"^(all|[a-z]{2}(-[A-Z]{2})?)$", description="e.g. 'fr', 'en-US'.")
    page: int = Field(1, ge=1, le=10)


class FetchUrlArgs(ToolArgs):
    url: str = Field(min_length=1, max_length=MAX_URL_CHARS, description="Public http(s) URL.")
    max_chars: int = Field(20_000, ge=500, le=100_000)


def _search_configured(runtime: Any) -> bool:
    return bool(runtime.web.search_configured)


@tool(
    "web_search",
    title="Web search",
    scopes=(Scope.IN_APP,),
    label=("Recherche sur le web : {q}", "Web searched: {q}"),
    available=_search_configured,
)
async def web_search(ctx: ToolContext, args: WebSearchArgs) -> WebSearchResult:
    """Search the web; results with title, URL and snippet. Read a result with fetch_url."""
    return await svc.web_search(
        ctx.runtime.web, args.query, max_results=args.max_results, category=args.category, language=args.language,
        page=args.page,
    )  # fmt: skip


@tool(
    "fetch_url",
    title="Fetch a web page",
    scopes=(Scope.IN_APP,),
    label=("Page web consultée : {url}", "Web page read: {url}"),
)
async def fetch_url(ctx: ToolContext, args: FetchUrlArgs) -> FetchUrlResult:
    """Read a public web page or document (HTML, text, JSON, PDF) as text, with its title and final URL."""
    return await svc.fetch_readable(ctx.runtime.web, args.url, args.max_chars)
