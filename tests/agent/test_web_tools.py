"""The in-app assistant's web tools end to end (issue 18 items 4, 5, 9): a model (the scripted fake provider)
searches the fake SearXNG and reads a page on a loopback site allowed through OBSIGATE_FETCH_ALLOW; the steps
carry the tools' labels; the audit keeps the query and the URL; without a search engine web_search is not offered."""

from __future__ import annotations

import json
from typing import Any

from fakes import openai_replies as o
from fakes.web_sites import SECRETS, Sites
from fakes.web_sites import sites as sites  # the module's loopback servers (a fixture)
from support import journal_records

ALLOW = "127.0.0.2/32,127.0.0.3/32"


def _audit(a: Any) -> list[dict[str, Any]]:
    return journal_records(a.data)


def test_the_model_searches_then_reads_a_page(assistant: Any, sites: Sites) -> None:
    a = assistant(fetch_allow=ALLOW, searxng_url=sites.site.url)
    page = f"{sites.site.url}/page?api_key=sk-live-0123456789abcdef0123"
    a.fake.add(
        o.stream_tool_calls([("s1", "web_search", {"query": "heron habits", "max_results": 3, "language": "en"})]),
        o.stream_tool_calls([("f1", "fetch_url", {"url": page})]),
        o.stream_tool_calls([("s2", "web_search", {"query": "broken engine"})]),
        o.stream_text(["Herons wait."]),
    )
    out = a.agent({"message": "what do herons do?", "vault": "notes", "language": "fr"})
    assert out.status == 200, out.raw
    assert {"web_search", "fetch_url"} <= set(a.sent_tool_names())
    assert "Web search is not configured" not in json.dumps(a.fake.requests[0].json["messages"])
    done = [t for t in out.tools() if t["status"] != "running"]
    assert [(t["name"], t["status"]) for t in done] == [
        ("web_search", "ok"),
        ("fetch_url", "ok"),
        ("web_search", "error"),
    ]
    assert done[0]["label"] == "Recherche sur le web : heron habits"
    assert done[1]["label"].startswith(f"Page web consultée : {sites.site.url}/page")
    assert "sk-live-0123456789abcdef0123" not in done[1]["label"]  # a label is redacted like the audit
    tool_messages = [m for m in a.fake.requests[3].json["messages"] if m["role"] == "tool"]
    found = json.loads(tool_messages[0]["content"])
    assert [r["url"] for r in found["results"]] == [
        "https://example.org/0",
        "https://example.org/1",
        "https://example.org/2",
    ]
    assert found["answers"] == ["42"] and found["unresponsive_engines"] == ["bing"]
    read = json.loads(tool_messages[1]["content"])
    assert read["title"] == "Field notes" and "The heron waited by the reeds" in read["text"]
    assert "sk-live-0123456789abcdef0123" not in json.dumps(read)  # the final URL is redacted like any result
    failed = json.loads(tool_messages[2]["content"])["error"]
    assert failed["code"] == "web_search_failed" and "search error" in failed["message"]
    searched = [p for p, _ in sites.site.paths if p == "/search"]
    assert len(searched) == 2
    records = {r["tool"]: r for r in _audit(a) if r["tool"] in ("web_search", "fetch_url")}
    assert records["fetch_url"]["args"]["url"].startswith(f"{sites.site.url}/page?api_key=[REDACTED")
    assert records["fetch_url"]["result"] == "ok" and records["web_search"]["args"]["query"] == "broken engine"


def test_without_a_search_engine_web_search_is_not_offered(assistant: Any, sites: Sites) -> None:
    a = assistant(fetch_allow=None, searxng_url=None)
    a.fake.add(
        o.stream_tool_calls([("f1", "fetch_url", {"url": f"{sites.secret.url}/secret"})]),
        o.stream_text(["Web search is not configured here."]),
    )
    hits = len(sites.secret.paths)
    out = a.agent({"message": "search the web for herons", "vault": "notes"})
    assert out.status == 200, out.raw
    names = a.sent_tool_names()
    assert "fetch_url" in names and "web_search" not in names
    assert "Web search is not configured on this server" in json.dumps(a.fake.requests[0].json["messages"][0])
    refused = json.loads(next(m for m in a.fake.requests[1].json["messages"] if m["role"] == "tool")["content"])
    assert refused["error"]["code"] == "url_not_allowed" and len(sites.secret.paths) == hits


def test_secrets_in_a_page_reach_no_model(assistant: Any, sites: Sites) -> None:
    """trafilatura escapes ``_`` in its markdown (``ghp\\_…``): the text is unescaped before the door redacts it."""
    a = assistant(fetch_allow=ALLOW)
    a.fake.add(o.stream_tool_calls([("f1", "fetch_url", {"url": f"{sites.site.url}/secrets"})]), o.stream_text(["ok"]))
    out = a.agent({"message": "read the ops page", "vault": "notes"})
    assert out.status == 200, out.raw
    sent = json.dumps(a.fake.requests[1].json["messages"])
    assert "The deploy job reads its tokens" in sent and "[REDACTED" in sent
    assert not [s for s in SECRETS if s in sent or s.replace("_", "\\_") in sent]
