"""The web services behind ``fetch_url`` and ``web_search``: what the admin configured (:class:`WebAccess`) and
the two calls, each returning its typed result."""

from __future__ import annotations

from dataclasses import dataclass, field

import anyio
from pydantic import BaseModel, Field

from obsigate.services.errors import Unavailable
from obsigate.services.net import searxng
from obsigate.services.net.client import Resolver, fetch
from obsigate.services.net.extract import readable
from obsigate.services.net.guard import NetPolicy
from obsigate.services.results import Result

__all__ = ["FetchUrlResult", "SearchHit", "WebAccess", "WebSearchResult", "fetch_readable", "web_search"]


@dataclass(frozen=True)
class WebAccess:
    """The outbound settings: ``policy`` (the guard's allow list, ``OBSIGATE_FETCH_ALLOW``), ``searxng_url``
    (``OBSIGATE_SEARXNG_URL``; ``None``: no web search), ``max_bytes`` (a fetched body's cap, bytes) and
    ``deadline_s`` (one fetch's total time, seconds); ``resolver``: how names resolve (``None``: the system's;
    a stub in tests)."""

    policy: NetPolicy = field(default_factory=NetPolicy)
    searxng_url: str | None = None
    max_bytes: int = 5_000_000
    deadline_s: float = 20.0
    resolver: Resolver | None = None

    @property
    def search_configured(self) -> bool:
        return bool(self.searxng_url)


class FetchUrlResult(Result):
    """A fetched page as text: where it ended (``url``, after redirects), its ``title``, ``content_type`` and
    ``text`` (``truncated``: cut at ``max_chars`` or pages left out of a long PDF)."""

    url: str
    title: str | None = None
    content_type: str
    text: str
    chars: int = Field(description="Length of the whole extracted text.")


class SearchHit(BaseModel):
    title: str
    url: str
    snippet: str = ""
    engine: str | None = None
    published: str | None = None


class WebSearchResult(Result):
    """Search results, each with its ``url``; ``answers`` and ``suggestions`` as the engine gave them."""

    query: str
    page: int
    results: list[SearchHit]
    answers: list[str] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    unresponsive_engines: list[str] = Field(default_factory=list)


async def fetch_readable(web: WebAccess, url: str, max_chars: int) -> FetchUrlResult:
    """Fetch ``url`` through the guard and return its readable text, cut at ``max_chars`` characters.

    Raises:
        ServiceError: :func:`~obsigate.services.net.client.fetch`'s codes (``url_not_allowed``, ``fetch_failed``,
            ``timeout``, ``too_large``, ``unsupported_content_type``), ``fetch_failed`` for an unreadable PDF.
    """
    doc = await fetch(url, web.policy, max_bytes=web.max_bytes, deadline_s=web.deadline_s, resolver=web.resolver)
    text = await anyio.to_thread.run_sync(readable, doc)
    cut = len(text.text) > max_chars
    return FetchUrlResult(
        url=doc.url,
        title=text.title,
        content_type=doc.content_type,
        text=text.text[:max_chars],
        chars=len(text.text),
        truncated=cut or text.truncated,
        notice=f"text cut at {max_chars} of {len(text.text)} characters" if cut else None,
    )


async def web_search(
    web: WebAccess, query: str, *, max_results: int, category: str | None, language: str | None, page: int
) -> WebSearchResult:
    """Search the web through the configured SearXNG.

    Raises:
        Unavailable: ``unavailable`` when no SearXNG is configured.
        ServiceError: :func:`~obsigate.services.net.searxng.search`'s codes.
    """
    if not web.searxng_url:
        raise Unavailable("web search is not configured on this server", hint="the admin sets OBSIGATE_SEARXNG_URL")
    found = await searxng.search(
        web.searxng_url, web.policy, query, max_results=max_results, category=category, language=language,
        page=page, deadline_s=web.deadline_s, resolver=web.resolver,
    )  # fmt: skip
    return WebSearchResult.model_validate(found)
