"""The audit keeps a web call's URL or query (issue 18 item 9): whole up to its cap, redacted, never hashed away
like a long content argument."""

from __future__ import annotations

from obsigate.tools.audit import summarize_args


def test_a_url_and_a_query_are_kept_redacted() -> None:
    url = "https://bob:hunter2@example.org/docs/" + "a" * 150 + "?token=ghp_1234567890abcdefghijklmnopqrstuvwxyz12"
    kept = summarize_args({"url": url, "query": "heron " * 30, "content": "heron " * 30})
    assert kept["url"].startswith("https://[REDACTED]@example.org/docs/aaaa") and "hunter2" not in kept["url"]
    assert "ghp_1234567890" not in kept["url"] and "token=[REDACTED" in kept["url"]
    assert kept["query"] == "heron " * 30  # 180 characters: kept, where another long string is hashed
    assert kept["content"].startswith("<180 chars sha256:")
    assert len(summarize_args({"url": "https://e.org/" + "b" * 5000})["url"]) == 2048
