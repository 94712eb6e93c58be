"""Plain chat's ``obsigate-action`` blocks in the assistant panel (issue 18 item 6), in Chromium against a real
ObsiGate whose provider is the scripted fake: the same Apply card as the agent's, applied through the same
resume; a bad block is shown in the conversation."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake


def block(data: Any) -> str:
    return f"```obsigate-action\n{data if isinstance(data, str) else json.dumps(data)}\n```"


@pytest.fixture
def app_server(
    live_server: Any, web_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """Auth off, the default provider ``custom`` pointed at the fake."""
    use_fake(monkeypatch, fake)
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "chat-actions-data")


def test_plain_chat_blocks_show_the_apply_card_and_approve_writes(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path, tmp_path: Path
) -> None:
    answer = "\n\n".join([
        "Two things for your trip:",
        block({"action": "create_file", "path": "Trips/Budget.md", "content": "# Budget\n\n- boat: 40\n"}),
        block({"action": "create_directory", "path": "Trips/Photos"}),
        block('{"action": "create_file", "path": "Broken.md"'),
    ])  # fmt: skip
    fake.add(o.stream_text([answer[i : i + 40] for i in range(0, len(answer), 40)]))
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".assistant textarea")
    page.uncheck("#as-agent")  # plain chat
    page.fill(".assistant textarea", "Plan my trip")
    page.click(".assistant-input button[type=submit]")
    card = page.wait_for_selector(".confirm-card")
    assert page.locator(".confirm-card li").count() == 2
    assert page.locator(".confirm-card .action-label").all_inner_texts() == [
        "Create file: Trips/Budget.md", "Create folder: Trips/Photos",
    ]  # fmt: skip
    assert "+# Budget" in page.locator(".confirm-card pre.diff").first.inner_text()
    notice = page.locator(".assistant .notice").first.inner_text()
    assert notice.startswith("obsigate-action block 3: not valid JSON")  # the bad block, in the conversation
    assert not (web_vault / "Trips").exists()
    if os.environ.get("OBSIGATE_SHOTS"):  # to look at it: light, then dark
        shots = Path(os.environ["OBSIGATE_SHOTS"])
        page.screenshot(path=str(shots / "plain-chat-card-light.png"))
        page.evaluate("document.documentElement.dataset.theme = 'dark'")
        page.screenshot(path=str(shots / "plain-chat-card-dark.png"))
    approve = card.query_selector("button.primary")
    assert approve.inner_text() == "Approve all (2)"
    approve.click()
    page.wait_for_selector("#tree >> text=Trips")  # the tree refreshed after the write
    page.wait_for_selector(".assistant-input button[type=submit] >> text=Send")
    assert (web_vault / "Trips/Budget.md").read_text() == "# Budget\n\n- boat: 40\n"
    assert (web_vault / "Trips/Photos").is_dir() and not (web_vault / "Broken.md").exists()
    assert len([r for r in fake.requests if r.method == "POST"]) == 1  # applying asks no model
    assert page.watch.problems() == []
