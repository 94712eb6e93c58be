"""The assistant panel keeps up (issue 18 item 7), in Chromium against a real ObsiGate and the scripted fake
provider: a resumed run streams into the same message with one cumulative step count; the tree refreshes after
an applied change while the run still streams; answers are sanitised markdown; a reload while a run waits
brings its card and steps back, and approving there resumes it; step labels say what happened."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake

PAYLOAD = 'Done: **bold** and [[Buoy]]. <img src="x" onerror="window.__pwned=1"> <script>window.__pwned=2</script>'


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


def _ask(page: Any, message: str) -> None:
    page.fill(".assistant textarea", message)
    page.click(".assistant-input button[type=submit]")


def _labels(page: Any) -> list[str]:
    return [t.strip() for t in page.locator(".assistant-log .turn").last.locator("li.step").all_text_contents()]


def test_a_resumed_run_streams_into_the_same_message_and_the_tree_keeps_up(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path
) -> None:
    streamed = o.stream_text([PAYLOAD[i : i + 8] for i in range(0, len(PAYLOAD), 8)], delay_s=0.05)
    streamed.hold = threading.Event()  # its end waits until the checks made while it streams are done
    fake.add(
        o.stream_tool_calls(
            [
                ("r", "read_file", {"vault": "notes", "path": "Ideas.md"}),
                ("u", "no_such_tool", {}),
                ("c", "create_file", {"vault": "notes", "path": "Buoy.md", "content": "# Buoy\n"}),
                ("a", "append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "\nSee the float too.\n"}),
            ],
            text="Reading.",
        ),
        o.stream_tool_calls([("r2", "read_file", {"vault": "notes", "path": "Buoy.md"})]),
        streamed,
    )
    _open_panel(page, app_server.url)
    _ask(page, "Add a Buoy note")
    card = page.wait_for_selector(".turn .turn-footer .confirm-card")  # the card belongs to the message
    assert page.locator(".steps-fold summary").inner_text().startswith("4 steps")
    assert "Tool not available: no_such_tool" in _labels(page)[1]
    assert "Create file: Buoy.md" in _labels(page)[2]
    card.query_selector("button.primary").click()

    # the tree shows the new note and the open note its new line while the run still streams (Stop is still
    # there: no `done` yet)
    page.wait_for_selector("#tree >> text=Buoy")
    page.wait_for_selector(".markdown-body >> text=See the float too.")
    page.wait_for_selector(".assistant-input button[type=submit] >> text=Stop")  # held open: the run cannot end yet
    streamed.hold.set()
    page.wait_for_selector(".assistant-input button[type=submit] >> text=Send")

    assert page.locator(".assistant-log .turn").count() == 1  # one request, one message
    assert page.locator(".steps-fold summary").inner_text().startswith("5 steps")  # before and after the pause
    labels = _labels(page)
    assert "File created: Buoy.md" in labels[2] and "File appended: Ideas.md" in labels[3]
    assert "File read: Buoy.md" in labels[4]
    answer = page.locator(".turn .msg.assistant")
    assert answer.inner_text().startswith("Reading.")
    assert answer.locator("strong", has_text="bold").count() == 1
    assert answer.locator("script").count() == 0
    assert answer.locator("img").evaluate_all("els => els.filter(e => e.hasAttribute('onerror')).length") == 0
    assert page.evaluate("window.__pwned") is None
    answer.locator("a.internal-link", has_text="Buoy").click()  # a link to a note opens it
    page.wait_for_selector(".note-title >> text=Buoy")
    page.watch.expect("Failed to load resource")  # the sanitised <img src="x">: a harmless 404, no handler
    assert page.watch.problems() == []


def test_an_approval_given_before_the_card_s_request_has_ended_keeps_stop_for_the_resumed_run(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path
) -> None:
    # the fastest possible person: the page approves in the same task that draws the card, before the request
    # that brought it has read its end; that end must not take Stop (and the run) away from the resumed request
    streamed = o.stream_text(["Made ", "it."])
    streamed.hold = threading.Event()
    fake.add(
        o.stream_tool_calls([("c", "create_file", {"vault": "notes", "path": "Quick.md", "content": "q\n"})]), streamed
    )
    _open_panel(page, app_server.url)
    page.evaluate(
        """() => new MutationObserver((_, obs) => {
             const b = document.querySelector(".confirm-card button.primary");
             if (b) { obs.disconnect(); b.click(); }
           }).observe(document.querySelector(".assistant-log"), {childList: true, subtree: true})"""
    )
    _ask(page, "Make Quick")
    page.wait_for_selector(".confirm-card.approved")
    page.wait_for_selector(".turn .msg.assistant >> text=Made")  # the resumed run streams, its end held
    assert page.locator(".assistant-input button[type=submit]").inner_text() == "Stop"
    streamed.hold.set()
    page.wait_for_selector(".assistant-input button[type=submit] >> text=Send")
    assert page.locator(".turn .msg.assistant").inner_text().startswith("Made it.")
    assert (web_vault / "Quick.md").read_text() == "q\n"
    assert page.watch.problems() == []


def test_stop_right_after_an_approval_takes_it_back_and_the_run_still_waits(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path
) -> None:
    # Approve, then Stop in the same task (before the answer's request could start): the answer is taken back,
    # nothing is sent, and the card can still be answered
    fake.add(
        o.stream_tool_calls([("c", "create_file", {"vault": "notes", "path": "Later.md", "content": "l\n"})]),
        o.stream_text(["Made it."]),
    )
    _open_panel(page, app_server.url)
    page.evaluate(
        """() => new MutationObserver((_, obs) => {
             const b = document.querySelector(".confirm-card button.primary");
             if (b) { obs.disconnect(); b.click(); document.querySelector(".assistant-input button[type=submit]").click(); }
           }).observe(document.querySelector(".assistant-log"), {childList: true, subtree: true})"""
    )
    asked = len(fake.requests)
    _ask(page, "Make Later")
    page.wait_for_selector(".assistant-input button[type=submit] >> text=Send")
    page.wait_for_timeout(300)  # time for a resume that should not happen
    card = page.locator(".confirm-card")
    assert card.get_attribute("class") == "confirm-card" and card.locator("button.primary").is_enabled()
    assert len(fake.requests) == asked + 1 and not (web_vault / "Later.md").exists()  # no resume was sent
    assert page.locator(".assistant-log .notice", has_text="Stopped.").count() == 0
    card.locator("button.primary").click()  # the card still answers: the run was waiting all along
    page.wait_for_selector(".turn .msg.assistant >> text=Made it.")
    assert (web_vault / "Later.md").read_text() == "l\n"
    assert page.watch.problems() == []


def test_after_a_stop_on_a_first_message_the_next_one_stays_in_that_conversation(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path
) -> None:
    fake.add(o.stream_text([f"w{i} " for i in range(100)], delay_s=0.1), o.stream_text(["Second answer."]))
    _open_panel(page, app_server.url)
    page.click(".assistant-bar label.switch")  # chat, not agent: both ask the same way
    _ask(page, "A long one")
    page.wait_for_selector(".turn .msg.assistant >> text=w1")
    page.click(".assistant-input button[type=submit]")  # Stop, before any `done`
    page.wait_for_selector(".assistant-log .notice >> text=Stopped.")
    _ask(page, "And then?")
    page.wait_for_selector(".turn .msg.assistant >> text=Second answer.")
    listed = page.request.get(f"{app_server.url}/api/ai/conversations").json()["conversations"]
    assert len(listed) == 1 and listed[0]["messages"] == 4, listed
    assert [m["role"] for m in fake.requests[-1].json["messages"]][-3:] == ["user", "assistant", "user"]
    page.reload(wait_until="networkidle")  # the panel reopens that conversation, both exchanges in it
    page.click("#assistant-btn")
    page.wait_for_selector(".assistant-log >> text=Second answer.")
    assert page.locator(".assistant-log .msg.user").count() == 2
    assert page.watch.problems() == []


def test_a_reload_while_a_run_waits_brings_the_card_back_and_labels_are_honest(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path
) -> None:
    fake.add(
        o.stream_tool_calls(
            [
                ("d", "delete_file", {"vault": "notes", "path": "Home.md"}),
                ("k", "create_file", {"vault": "notes", "path": "Keep.md", "content": "kept\n"}),
            ],
            text="Two changes.",
        ),
        o.stream_text(["Both done."]),
        o.stream_tool_calls([("d2", "delete_file", {"vault": "notes", "path": "Ideas.md"})]),
        o.stream_text(["Left it."]),
    )
    _open_panel(page, app_server.url)
    _ask(page, "Replace Home by Keep")
    page.wait_for_selector(".confirm-card")

    page.reload(wait_until="networkidle")
    page.click("#assistant-btn")
    card = page.wait_for_selector(".turn .confirm-card")  # back, in the message it belongs to
    assert page.locator(".confirm-card li").count() == 2
    assert "-" in page.locator(".confirm-card pre.diff").first.inner_text()
    assert page.locator(".steps-fold summary").inner_text().startswith("2 steps")
    assert "Delete file: Home.md" in _labels(page)[0]
    assert page.locator(".turn .msg.assistant").inner_text().startswith("Two changes.")
    card.query_selector("button.primary").click()  # approving from the restored card resumes the run
    page.wait_for_selector(".turn .msg.assistant >> text=Both done.")
    assert not (web_vault / "Home.md").exists() and (web_vault / "Keep.md").read_text() == "kept\n"
    assert page.locator(".assistant-log .turn").count() == 1
    labels = _labels(page)
    assert "File deleted: Home.md" in labels[0] and "File created: Keep.md" in labels[1]

    _ask(page, "Now delete Ideas")
    page.wait_for_selector(".assistant-log .turn >> nth=1 >> .confirm-card")
    page.locator(".confirm-card").last.locator("button", has_text="Reject").click()
    page.wait_for_selector(".assistant-log .turn >> nth=1 >> text=Left it.")
    assert "Delete file: Ideas.md — rejected" in _labels(page)[0]
    assert not any("File deleted: Ideas.md" in x for x in _labels(page))
    assert (web_vault / "Ideas.md").exists()
    assert page.watch.problems() == []


def test_an_open_editor_keeps_its_unsaved_words_when_the_assistant_changes_the_note(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path
) -> None:
    fake.add(
        o.stream_tool_calls(
            [("a", "append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "\nTheirs.\n"})]
        ),
        o.stream_text(["Appended."]),
    )
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#edit-note")
    page.click(".editor-box .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.type("\nunsaved words")
    page.click("#assistant-btn")
    _ask(page, "Append to Ideas")
    page.wait_for_selector(".confirm-card button.primary").click()
    page.wait_for_selector(".turn .msg.assistant >> text=Appended.")
    assert (web_vault / "Ideas.md").read_text().endswith("Theirs.\n")
    assert "unsaved words" in page.locator(".editor-box .cm-content").inner_text()  # not replaced under them
    page.click("#assistant-btn")  # the panel closed, the usual path: saving over the changed file is a conflict
    page.watch.expect("409")
    page.click("#save-note")
    page.wait_for_selector("dialog.confirm >> text=The file changed on disk")
    assert page.watch.problems() == []
