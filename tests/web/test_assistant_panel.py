"""The assistant panel in a real browser, against a real ObsiGate whose provider is the tests' scripted fake
(issue 11 journeys: "assistant with the fake provider → steps → confirmation card with two diffs → Approve
all → files changed and tree refreshed"; "Stop mid-stream")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake


@pytest.fixture
def app_server(
    live_server: Any, web_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """Auth off, the default provider ``custom`` pointed at the fake."""
    use_fake(monkeypatch, fake)
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "panel-data")


def _open_panel(page: Any, url: str) -> None:
    page.goto(f"{url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".assistant textarea")


def test_steps_one_card_with_two_diffs_approve_all_then_the_tree_shows_the_new_note(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path
) -> None:
    fake.add(
        o.stream_tool_calls([("r1", "read_file", {"vault": "notes", "path": "Ideas.md"})], text="Reading."),
        o.stream_tool_calls(
            [
                ("c1", "create_file", {"vault": "notes", "path": "Buoy.md", "content": "# Buoy\n\nA float.\n"}),
                ("c2", "append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "See [[Buoy]]."}),
            ]
        ),
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
    page.wait_for_selector(".msg.assistant a.internal-link")
    assert (web_vault / "Buoy.md").read_text() == "# Buoy\n\nA float.\n"
    assert (web_vault / "Ideas.md").read_text().endswith("See [[Buoy]].")
    page.wait_for_selector("#tree >> text=Buoy")  # the tree refreshed after the write
    page.click(".msg.assistant a.internal-link")  # a link in the answer opens the note
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


def _chat(page: Any, message: str) -> None:
    """Send ``message`` as a plain chat and wait for the answer's end (Send is back)."""
    page.uncheck("#as-agent")
    page.fill(".assistant textarea", message)
    page.click(".assistant-input button[type=submit]")
    page.wait_for_selector(".assistant-input button[type=submit] >> text=Send")


def _provider_messages(fake: FakeLLM) -> list[dict[str, Any]]:
    """The messages of the provider's last chat request."""
    return [r for r in fake.requests if r.method == "POST"][-1].json["messages"]


def test_a_conversation_is_listed_resumed_after_a_reload_continued_and_deleted(
    page: Any, app_server: Any, fake: FakeLLM
) -> None:
    fake.add(o.stream_text(["Tidepools ", "are small."]), o.stream_text(["Rock pools ", "too."]))
    _open_panel(page, app_server.url)
    _chat(page, "What is a tidepool?")
    page.wait_for_selector(".msg.assistant >> text=Tidepools are small.")
    page.click("#as-history")
    entry = page.locator(".conv-open", has_text="What is a tidepool?")
    entry.wait_for()
    assert entry.get_attribute("aria-current") == "true" and "2 messages" in entry.inner_text()

    page.reload(wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".msg.assistant >> text=Tidepools are small.")  # this tab's conversation came back
    page.click("#as-new")
    assert page.locator(".assistant-log > *").count() == 0
    page.click("#as-history")
    page.click(".conv-open >> text=What is a tidepool?")  # resume it from the list
    page.wait_for_selector(".msg.user >> text=What is a tidepool?")
    assert page.locator("#as-conversations").is_hidden()
    _chat(page, "And a rock pool?")
    page.wait_for_selector(".msg.assistant >> text=Rock pools too.")
    sent = [(m["role"], m["content"]) for m in _provider_messages(fake) if m["role"] != "system"]
    assert sent == [
        ("user", "What is a tidepool?"),
        ("assistant", "Tidepools are small."),
        ("user", "And a rock pool?"),
    ]

    page.click("#as-history")
    page.wait_for_selector(".conv-open >> text=4 messages")  # the same conversation, continued
    assert page.locator(".conv-open").count() == 1
    page.click(".conv-delete")
    page.wait_for_selector("dialog.confirm >> text=Delete this conversation?")
    page.click("dialog.confirm button.primary")
    page.wait_for_selector(".conversation-list >> text=No conversations yet.")
    assert page.locator(".assistant-log > *").count() == 0  # the open conversation was the deleted one
    assert page.evaluate("fetch('/api/ai/conversations').then(r => r.json())") == {"conversations": []}
    assert page.watch.problems() == []


def _mention(page: Any, text: str, option: str) -> None:
    """Type ``@text`` in the message box and wait for ``option`` among the completions."""
    page.locator(".assistant textarea").press_sequentially(f"@{text}")
    page.wait_for_selector(f"#as-mentions [role=option] >> text={option}")


def test_at_mentions_become_chips_and_the_provider_gets_those_notes(page: Any, app_server: Any, fake: FakeLLM) -> None:
    fake.add(o.stream_text(["Both read."]))
    _open_panel(page, app_server.url)  # the open note is Ideas.md: "these files" must not mean it
    page.uncheck("#as-agent")
    box = page.locator(".assistant textarea")
    box.fill("Compare ")
    _mention(page, "plan", "Plan")
    assert box.get_attribute("aria-activedescendant") == "as-mention-0"
    assert page.locator("#as-mention-0").get_attribute("aria-selected") == "true"
    box.press("Enter")  # keyboard: the first completion
    assert page.locator("#as-mentions").is_hidden() and box.input_value() == "Compare "
    assert page.input_value("#as-mode") == "mentions"
    _mention(page, "home", "Home")
    box.press("Enter")
    _mention(page, "attach", "Attachments")
    assert "mention-folder" in page.get_attribute("#as-mention-0", "class")  # folders of the matching files come first
    box.press("ArrowDown")
    box.press("ArrowUp")
    box.press("Enter")
    _mention(page, "idea", "Ideas")
    box.press("Escape")  # closes the list, keeps the text
    assert page.locator("#as-mentions").is_hidden() and box.input_value().endswith("@idea")
    box.press("Backspace")  # typing again reopens it
    page.wait_for_selector("#as-mentions [role=option] >> text=Ideas")
    page.click("#as-mentions [role=option] >> text=Ideas")  # the mouse too
    chips = page.locator(".mention-chips .chip-label")
    assert chips.all_inner_texts() == ["Projects/Plan.md", "Home.md", "Attachments/", "Ideas.md"]
    page.click(".chip-remove[aria-label='Remove Ideas.md']")
    assert chips.all_inner_texts() == ["Projects/Plan.md", "Home.md", "Attachments/"]
    box.fill("Compare these two")
    with page.expect_request("**/api/ai/bookslm/chat") as request:
        page.click(".assistant-input button[type=submit]")
    body = request.value.post_data_json
    assert (body["mode"], body["files"], body["extra_directories"]) == (
        "files",
        ["Projects/Plan.md", "Home.md"],
        ["Attachments"],
    )
    page.wait_for_selector(".msg.assistant >> text=Both read.")
    system = _provider_messages(fake)[0]["content"]
    assert "The budget for the tidepool buoy is small." in system and "Welcome. See" in system
    assert "A tidepool sensor network" not in system  # the open note was not asked for
    assert page.watch.problems() == []


def test_the_open_panel_follows_a_language_switch_and_keeps_its_conversation(
    page: Any, app_server: Any, fake: FakeLLM
) -> None:
    fake.add(o.stream_text(["Tidepools ", "are small."]))
    _open_panel(page, app_server.url)
    page.fill(".assistant textarea", "What are tidepools?")
    page.click(".assistant button[type=submit]")
    page.wait_for_selector(".msg.assistant >> text=are small.")
    page.select_option("#lang-select", "fr")
    page.wait_for_selector(".assistant button[type=submit] >> text=Envoyer")
    page.wait_for_selector(".msg.assistant >> text=are small.")  # the conversation, drawn again from the server
    page.select_option("#lang-select", "en")
    page.wait_for_selector(".assistant button[type=submit] >> text=Send")
