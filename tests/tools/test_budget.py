"""The result size budget cuts lists and strings, never the shape."""

from __future__ import annotations

import json

from obsigate.tools.budget import CUT_MARK, fit_to_budget


def _size(d: dict) -> int:
    return len(json.dumps(d, ensure_ascii=False, separators=(",", ":")))


def test_small_result_is_untouched() -> None:
    data = {"hits": [1, 2, 3], "truncated": False}
    assert fit_to_budget(dict(data), 1000) == data


def test_long_list_is_halved_until_it_fits() -> None:
    data = {"hits": [{"path": f"note-{i}.md", "snippet": "x" * 50} for i in range(1000)], "truncated": False}
    out = fit_to_budget(data, 5000)
    assert _size(out) <= 5000
    assert 0 < len(out["hits"]) < 1000
    assert out["hits"][0]["path"] == "note-0.md"  # best hits kept, tail dropped
    assert out["truncated"] is True and "budget" in out["notice"]


def test_huge_string_is_cut_with_a_mark() -> None:
    data = {"content": "é" * 300_000, "path": "a.md", "truncated": False}
    out = fit_to_budget(data, 10_000)
    assert _size(out) <= 10_000
    assert out["content"].endswith(CUT_MARK)
    assert out["path"] == "a.md"


def test_a_page_that_ends_before_the_total_says_so() -> None:
    """Issue 9 item 3: ``truncated`` is never true with ``notice: null``."""
    page = {
        "entries": list(range(200)),
        "total": 812,
        "offset": 0,
        "next_offset": 200,
        "truncated": True,
        "notice": None,
    }
    out = fit_to_budget(page, 100_000)
    assert out["notice"] == "showing 1-200 of 812; call again with offset=200 for more"
    last = {"entries": [1, 2], "total": 812, "offset": 810, "next_offset": None, "truncated": False, "notice": None}
    assert fit_to_budget(dict(last), 100_000)["notice"] is None
    read = {"content": "abc", "offset": 0, "next_offset": 3, "truncated": True, "notice": None}
    assert "offset=3" in fit_to_budget(read, 100_000)["notice"]
    graph = {"nodes": [1], "edges": [], "total_nodes": 9, "truncated": True, "notice": None}
    assert fit_to_budget(graph, 100_000)["notice"]


def test_a_page_cut_by_the_budget_continues_where_the_cut_began() -> None:
    hits = [{"path": f"note-{i}.md", "snippet": "x" * 50} for i in range(100)]
    data = {"hits": hits, "total": 1000, "offset": 100, "next_offset": 200, "truncated": True, "notice": None}
    out = fit_to_budget(data, 3000)
    kept = len(out["hits"])
    assert 0 < kept < 100 and out["next_offset"] == 100 + kept  # nothing skipped
    assert "budget" in out["notice"] and f"offset={100 + kept}" in out["notice"]
