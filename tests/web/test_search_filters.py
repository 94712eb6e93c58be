"""Search filters and paging in a real browser (issue 11 item 5: "full-text with highlighted snippets, filters
(tag, path globs, dates, regex, case), paging"), against a real ObsiGate over a copy of the small vault."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from support import write_tree

OLD = datetime(2020, 1, 1, tzinfo=UTC).timestamp()


@pytest.fixture
def search_server(live_server: Any, web_vault: Path, tmp_path: Path) -> Any:
    """Auth off; besides the small vault's Ideas and Projects/Plan (both "tidepool", tagged project/sensors): a
    note shouting TIDEPOOL, one last modified in 2020, and 30 notes holding "driftwood" (two pages)."""
    write_tree(web_vault, {
        "Shouty.md": "# Shouty\n\nTIDEPOOL in capitals.\n",
        "Dated.md": "# Dated\n\nAn old tidepool memory.\n",
        **{f"Batch/Drift {i:02}.md": f"# Drift {i:02}\n\nA driftwood log, number {i}.\n" for i in range(30)},
    })  # fmt: skip
    os.utime(web_vault / "Dated.md", (OLD, OLD))
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "search-data")


def _search(page: Any, url: str, q: str, **filters: str) -> None:
    query = "&".join([f"q={q}", "v=notes", *(f"{k}={v}" for k, v in filters.items())])
    page.goto(f"{url}/#/search?{query}", wait_until="networkidle")


def _titles(page: Any) -> list[str]:
    return sorted(page.locator(".search-hit .hit-title").all_inner_texts())


def _expect_titles(page: Any, titles: list[str], timeout: float = 10) -> None:
    """Wait until the hits are exactly ``titles`` (any order): the search runs after a debounce."""
    deadline = time.monotonic() + timeout
    while _titles(page) != sorted(titles) and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert _titles(page) == sorted(titles)


def test_the_tag_filter_narrows_with_suggestions(page: Any, search_server: Any) -> None:
    _search(page, search_server.url, "tidepool")
    _expect_titles(page, ["Dated", "Ideas", "Plan", "Shouty"])
    assert "full-text search" in page.inner_text(".search-status")
    page.click(".search-filters summary")
    assert page.locator("#sf-tags option[value='project/sensors']").count() == 1  # suggested from /api/tags
    page.fill("#sf-tag", "project/sensors")
    _expect_titles(page, ["Ideas", "Plan"])
    assert "tag=project%2Fsensors" in page.url
    assert page.locator(".search-hit mark").first.inner_text().lower() == "tidepool"  # snippets still marked
    assert page.watch.problems() == []


def test_a_regex_finds_a_pattern_and_the_hit_opens_at_the_match(page: Any, search_server: Any) -> None:
    page.goto(f"{search_server.url}/#/search?q=x&v=notes", wait_until="networkidle")
    page.click(".search-filters summary")
    page.check("#sf-re")
    page.fill("#search", r"t[aeiou]depool\s+sensor")
    _expect_titles(page, ["Ideas"])
    assert page.inner_text(".search-hit mark") == "tidepool sensor"
    assert "exact search" in page.inner_text(".search-status")
    page.click(".search-hit .hit-title")
    page.wait_for_selector(".note-title >> text=Ideas")
    assert "f=tidepool%20sensor" in page.url
    assert page.watch.problems() == []


def test_case_sensitive_on_and_off_differ(page: Any, search_server: Any) -> None:
    _search(page, search_server.url, "TIDEPOOL")
    _expect_titles(page, ["Dated", "Ideas", "Plan", "Shouty"])
    page.click(".search-filters summary")
    page.check("#sf-cs")
    _expect_titles(page, ["Shouty"])
    page.uncheck("#sf-cs")
    _expect_titles(page, ["Dated", "Ideas", "Plan", "Shouty"])
    assert page.watch.problems() == []


def test_path_globs_include_and_exclude(page: Any, search_server: Any) -> None:
    _search(page, search_server.url, "tidepool")
    page.click(".search-filters summary")
    page.fill("#sf-inc", "Projects/**")
    _expect_titles(page, ["Plan"])
    page.fill("#sf-inc", "")
    page.fill("#sf-exc", "Projects/**, {Shouty,Dated}.md")  # a comma inside braces stays in its glob
    _expect_titles(page, ["Ideas"])
    assert page.watch.problems() == []


def test_a_date_filter_uses_the_files_modification_time(page: Any, search_server: Any) -> None:
    _search(page, search_server.url, "tidepool")
    page.click(".search-filters summary")
    page.fill("#sf-mb", "2021-01-01")
    _expect_titles(page, ["Dated"])
    page.fill("#sf-mb", "")
    page.fill("#sf-ma", "2021-01-01")
    _expect_titles(page, ["Ideas", "Plan", "Shouty"])
    assert page.watch.problems() == []


def test_load_more_pages_through_the_results(page: Any, search_server: Any) -> None:
    _search(page, search_server.url, "driftwood")
    expect(page.locator(".search-hit")).to_have_count(20)
    assert page.inner_text(".search-status").startswith("30 results · 20 shown")
    page.click(".search-more button")
    expect(page.locator(".search-hit")).to_have_count(30)
    assert page.locator(".search-more").count() == 0
    assert len(set(_titles(page))) == 30  # the second page continues, no repeats
    assert page.inner_text(".search-status").startswith("30 results")
    assert "shown" not in page.inner_text(".search-status")
    assert page.evaluate("document.activeElement.textContent") in _titles(page)  # focus moved to the new hits
    assert page.watch.problems() == []


def test_a_bad_regex_says_why_inline_without_toasts(page: Any, search_server: Any) -> None:
    page.watch.expect("400")  # the browser logs the refused request: the error this test makes
    _search(page, search_server.url, "tide(pool", re="1")
    error = page.wait_for_selector(".search-error[role=alert]")
    assert "invalid regular expression" in error.inner_text() and "invalid_regex" in error.inner_text()
    assert page.locator(".toast").count() == 0 and page.locator(".search-hit").count() == 0
    page.fill("#search", "tide(pool)")  # fixed: the error goes, the hits come
    _expect_titles(page, ["Dated", "Ideas", "Plan", "Shouty"])
    assert page.locator(".search-error").is_hidden()
    assert page.watch.problems() == []


def test_filters_survive_a_reload_and_typing_a_new_query(page: Any, search_server: Any) -> None:
    _search(page, search_server.url, "tidepool")
    page.click(".search-filters summary")
    page.fill("#sf-tag", "project/sensors")
    page.select_option("#sf-sort", "path")
    page.check("#sf-ww")
    _expect_titles(page, ["Ideas", "Plan"])
    page.reload(wait_until="networkidle")
    _expect_titles(page, ["Ideas", "Plan"])
    assert page.input_value("#sf-tag") == "project/sensors" and page.input_value("#sf-sort") == "path"
    assert page.is_checked("#sf-ww") and page.locator(".search-filters").get_attribute("open") is not None
    assert page.inner_text(".search-filters summary").endswith("(3)")
    page.fill("#search", "budget")  # a new query keeps the filters
    _expect_titles(page, ["Plan"])
    assert "tag=project%2Fsensors" in page.url and "ww=1" in page.url
    page.click(".sf-clear")
    _expect_titles(page, ["Plan"])
    assert "tag=" not in page.url and not page.is_checked("#sf-ww")
    assert page.watch.problems() == []
