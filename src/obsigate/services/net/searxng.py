"""A SearXNG client: its JSON search API (``GET /search?format=json``; ``arsenal.md`` §e, read from
searxng/searxng's ``searx/webutils.py`` and ``searx/webapp.py``) through the guarded client.

The instance is the admin's (``OBSIGATE_SEARXNG_URL``): its host is allowed through the guard as configured (it
is typically on the same machine or network), but only for the search request itself, which follows no
redirect. Every field of a result but ``url`` and ``title`` is optional (``number_of_results`` was dropped in
May 2026; older instances still send it). Engine failures become ``web_search_failed`` with SearXNG's own
words, so the model can rephrase or give up.
"""

from __future__ import annotations

import json
from typing import Any

import httpx2

from obsigate.services.errors import RateLimited, ServiceError
from obsigate.services.net.client import Resolver, fetch
from obsigate.services.net.guard import NetPolicy, check_url

__all__ = ["MAX_RESULTS", "search"]

MAX_RESULTS = 20
_SNIPPET_CHARS = 400
_JSON = frozenset({"application/json"})


async def search(
    base_url: str,
    policy: NetPolicy,
    query: str,
    *,
    max_results: int = 8,
    category: str | None = None,
    language: str | None = None,
    page: int = 1,
    deadline_s: float = 15.0,
    resolver: Resolver | None = None,
) -> dict[str, Any]:
    """Search ``query`` on the SearXNG at ``base_url``.

    Returns:
        ``{"query", "page", "results": [{"title", "url", "snippet", "engine", "published"}] (at most
        ``max_results``), "answers": [str], "suggestions": [str], "unresponsive_engines": [str]}``.

    Raises:
        ServiceError: ``web_search_failed`` (an HTTP error, JSON output disabled (403), a body that is not
        SearXNG's), ``rate_limited`` (429: the instance's limiter), and :func:`~.client.fetch`'s errors
        (``timeout``, ``fetch_failed``, ``url_not_allowed``...).
    """
    base = httpx2.URL(base_url.rstrip("/") + "/search")
    params: dict[str, Any] = {"q": query, "format": "json", "pageno": page}
    if category:
        params["categories"] = category
    if language:
        params["language"] = language
    url = base.copy_merge_params(params)
    trusted = policy.with_host(check_url(base).host)
    answer = await fetch(
        str(url), trusted, max_bytes=2_000_000, deadline_s=deadline_s, max_redirects=0, accept=_JSON,
        resolver=resolver, errors_as_results=True, headers={"accept": "application/json"},
    )  # fmt: skip
    body = _json(answer.body)
    if answer.status == 429:
        raise RateLimited("the search engine is rate limiting ObsiGate", details={"retry_after": 60})
    if answer.status >= 400 or not isinstance(body, dict) or not isinstance(body.get("results"), list):
        raise _failed(answer.status, body)
    return {
        "query": query,
        "page": page,
        "results": [r for r in map(_result, body["results"]) if r is not None][:max_results],
        "answers": [str(a.get("answer"))[:_SNIPPET_CHARS] for a in _dicts(body.get("answers")) if a.get("answer")][:3],
        "suggestions": [str(s)[:100] for s in body.get("suggestions") or [] if isinstance(s, str)][:5],
        "unresponsive_engines": [str(e[0]) for e in body.get("unresponsive_engines") or [] if e][:10],
    }


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _result(item: Any) -> dict[str, Any] | None:
    if not isinstance(item, dict) or not isinstance(item.get("url"), str) or not item["url"]:
        return None
    snippet = " ".join(str(item.get("content") or "").split())
    return {
        "title": str(item.get("title") or item["url"])[:300],
        "url": item["url"][:2048],
        "snippet": snippet[:_SNIPPET_CHARS],
        "engine": str(item.get("engine") or "") or None,
        "published": item.get("publishedDate") if isinstance(item.get("publishedDate"), str) else None,
    }


def _failed(status: int, body: Any) -> ServiceError:
    said = body.get("error") if isinstance(body, dict) else None
    if status == 403:
        message = "the search engine refuses JSON answers (its settings.yml must list json in search.formats)"
    elif said:
        message = f"the search engine failed: {str(said)[:200]}"
    elif status < 400:
        message = "the search engine's answer is not SearXNG's JSON"
    else:
        message = f"the search engine answered HTTP {status}"
    return ServiceError(message, code="web_search_failed", details={"status": status})
