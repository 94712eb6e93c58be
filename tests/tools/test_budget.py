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
