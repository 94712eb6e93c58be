"""web_search's SearXNG client against the fake instance on 127.0.0.2 (its real JSON shape and error answers):
the admin's instance is reached with nothing else allowed; results are bounded and keep their URLs; the engine's
refusals become ``web_search_failed`` with its own words (issue 18 item 4)."""

from __future__ import annotations

from urllib.parse import parse_qs

import anyio
import pytest
from fakes.web_sites import Sites

from obsigate.services.errors import ServiceError
from obsigate.services.net.guard import NetPolicy
from obsigate.services.net.web import WebAccess, web_search


def search(web: WebAccess, query: str, **kw) -> object:
    args = {"max_results": 5, "category": None, "language": None, "page": 1, **kw}
    return anyio.run(lambda: web_search(web, query, **args))


def test_the_configured_instance_is_queried_in_json_with_the_arguments(sites: Sites) -> None:
    web = WebAccess(policy=NetPolicy(), searxng_url=sites.site.url + "/")  # nothing allowed but the instance
    found = search(web, "grey heron", max_results=4, category="news", language="fr", page=2)
    assert [hit.url for hit in found.results] == [f"https://example.org/{i}" for i in range(4)]
    assert found.results[0].snippet == "snippet 0 text" and found.results[0].published == "2026-11-02T00:00:00"
    assert (found.page, found.suggestions, found.answers) == (2, ["grey heron meaning"], ["42"])
    path, headers = sites.site.paths[-1]
    query = parse_qs(sites.site.queries[-1])
    assert path == "/search"
    assert query == {
        "q": ["grey heron"],
        "format": ["json"],
        "pageno": ["2"],
        "categories": ["news"],
        "language": ["fr"],
    }
    assert {k.lower(): v for k, v in headers.items()}["accept"] == "application/json"


@pytest.mark.parametrize(
    ("query", "status", "words"),
    [
        ("json off", 403, "search.formats"),
        ("bad words", 400, "SearxParameterException"),
        ("broken engine", 500, "search error"),
    ],
)
def test_engine_refusals_are_errors_the_model_can_act_on(sites: Sites, query: str, status: int, words: str) -> None:
    with pytest.raises(ServiceError) as failed:
        search(WebAccess(searxng_url=sites.site.url), query)
    assert failed.value.code == "web_search_failed" and failed.value.details["status"] == status
    assert words in failed.value.message


def test_not_configured_and_not_searxng(sites: Sites) -> None:
    with pytest.raises(ServiceError) as missing:
        search(WebAccess(), "x")
    assert missing.value.code == "unavailable" and "not configured" in missing.value.message
    with pytest.raises(ServiceError) as other:  # a URL that is not a SearXNG: no JSON results list
        search(WebAccess(searxng_url=f"{sites.site.url}/data.json?"), "x")
    assert other.value.code in ("web_search_failed", "unsupported_content_type")
