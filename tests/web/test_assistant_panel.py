"""The assistant panel in a real browser, against a real ObsiGate whose provider is the tests' scripted fake
(issue 11 journeys: "assistant with the fake provider → steps → confirmation card with two diffs → Approve
all → files changed and tree refreshed"; "Stop mid-stream")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, provider_env


@pytest.fixture
def app_server(live_server: Any, web_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Auth off, the default provider ``custom`` pointed at the fake."""
    for k, v in provider_env(fake).items():
        if v is None:
            monkeypatch.delenv(k, raising=False)
        else:
            monkeypatch.setenv(k, v)
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "panel-data")


def _open_panel(page: Any, url: str) -> None:
    page.goto(f"{url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".assistant textarea")


def test_steps_one_card_with_two_diffs_approve_all_then_the_tree_shows_the_new_note(page: Any, app_server: Any, fake: FakeLLM, web_vault: Path) -> None:
    fake.add(
        o.stream_tool_calls([("r1", "read_file", {"vault": "notes", "path": "Ideas.md"})], text="Reading."),
        o.stream_tool_calls([
            ("c1", "create_file", {"vault": "notes", "path": "Buoy.md", "content": "# Buoy\n\nA float.\n"}),
            ("c2", "append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "See [[Buoy]]."}),
        ]),  # fmt: skip
        o.stream_text(["Done: ", "[[Buoy]] is new."]),
    )
    _open_panel(page, app_server.url)
    page.fill(".assistant textarea", "Add a Buoy note and link it from Ideas")
    page.click(".assistant-input button[type=submit]")
    card = page.wait_for_selector(".confirm-card")
    assert page.locator(".confirm-card li").count() == 2
    diffs = page.locator(".confirm-card pre.diff")
    assert "+# Buoy" in diffs.nth(0).inner_text() and "+See [[Buoy]]." in diffs.nth(1).inner_text()
    approve = card.query_selector("button.primary")
    assert approve.inner_text() == "Approve all (2)"
    assert page.locator(".steps-fold summary").first.inner_text().startswith("3 steps")
    assert not (web_vault / "Buoy.md").exists()  # nothing before the approval
    approve.click()
    page.wait_for_selector(".msg.assistant a.wikilink")
    assert (web_vault / "Buoy.md").read_text() == "# Buoy\n\nA float.\n"
    assert (web_vault / "Ideas.md").read_text().endswith("See [[Buoy]].")
    page.wait_for_selector("#tree >> text=Buoy")  # the tree refreshed after the write
    page.click(".msg.assistant a.wikilink")  # a link in the answer opens the note
    page.wait_for_selector(".note-title >> text=Buoy")
    assert page.watch.problems() == []


def test_stop_mid_stream_cancels_the_provider_request(page: Any, app_server: Any, fake: FakeLLM) -> None:
    fake.add(o.stream_text([f"word{i} " for i in range(300)], delay_s=0.05))
    _open_panel(page, app_server.url)
    page.fill(".assistant textarea", "Tell me a long story")
    page.click(".assistant-input button[type=submit]")
    page.wait_for_selector(".msg.assistant.streaming >> text=word3")
    send = page.locator(".assistant-input button[type=submit]")
    assert send.inner_text() == "Stop"
    send.click()
    stopped_at = time.monotonic()
    page.wait_for_selector(".assistant .notice >> text=Stopped.")
    while fake.disconnects == 0 and time.monotonic() - stopped_at < 3:
        time.sleep(0.02)
    assert fake.disconnects >= 1 and time.monotonic() - stopped_at < 2
    assert send.inner_text() == "Send"
    page.watch.expect("AbortError")
    assert [p for p in page.watch.problems() if "abort" not in p.lower()] == []
