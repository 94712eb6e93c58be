"""The plan box of the assistant panel in a real browser, against a real ObsiGate whose provider is the scripted
fake (issue 21 item 4): the plan shows live when the model writes it; the person ticks a step and renames
another between two steps; the model's next request holds the edits; a reloaded page shows the plan again."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake

PLAN = [
    {"step": "Read the ideas", "status": "completed"},
    {"step": "Draft the Buoy note", "status": "in_progress"},
    {"step": "Link it from Ideas", "status": "pending"},
]
SHOTS = os.environ.get("OBSIGATE_SHOTS")  # a folder to keep the screenshots in, to look at by eye


@pytest.fixture
def app_server(
    live_server: Any, web_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> Any:
    use_fake(monkeypatch, fake)
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "plan-data")


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.locator("section.assistant").screenshot(path=str(Path(SHOTS) / name))


def test_the_plan_shows_live_and_the_persons_edits_reach_the_model(
    page: Any, app_server: Any, fake: FakeLLM, tmp_path: Path
) -> None:
    fake.add(
        o.stream_tool_calls(
            [
                ("p1", "update_plan", {"explanation": "Three steps.", "plan": PLAN}),
                ("c1", "create_file", {"vault": "notes", "path": "Buoy.md", "content": "# Buoy\n"}),
            ],
            text="Here is my plan.",
        ),
        o.stream_text(["Done."]),
    )
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.fill(".assistant textarea", "Write a Buoy note and link it")
    page.click(".assistant-input button[type=submit]")
    page.wait_for_selector(".confirm-card")
    box = page.locator(".plan-box")
    box.wait_for()
    assert box.locator("summary").inner_text() == "Plan · 1/3 done · revision 1"
    assert box.locator(".plan-step").all_inner_texts()[1].startswith("◐\nDraft the Buoy note")
    assert box.locator(".plan-in_progress .plan-text").inner_text() == "Draft the Buoy note"
    _shot(page, "plans-panel-live.png")

    # between the steps: the person ticks the step in progress and renames the next one
    box.locator(".plan-step").nth(1).locator(".plan-tick").click()
    page.wait_for_selector(".plan-box summary >> text=revision 2")
    box.locator(".plan-step").nth(2).locator(".plan-text").dblclick()
    field = box.locator(".plan-input")
    field.fill("Link it from Ideas and Home")
    field.press("Enter")
    page.wait_for_selector(".plan-box summary >> text=revision 3")
    assert box.locator(".plan-completed").count() == 2 and box.locator(".plan-why").inner_text() == "Three steps."
    (plan_file,) = (tmp_path / "plan-data" / "users").glob("*/plans/*.md")
    assert "- [x] Draft the Buoy note\n- [ ] Link it from Ideas and Home\n" in plan_file.read_text(encoding="utf-8")
    _shot(page, "plans-panel-edited.png")

    page.locator(".confirm-card button.primary").click()
    page.wait_for_selector(".msg.assistant >> text=Done.")
    note = fake.requests[-1].json["messages"][-1]["content"]
    assert "- [x] Draft the Buoy note" in note and "- [ ] Link it from Ideas and Home" in note

    page.reload(wait_until="networkidle")  # the reopened conversation shows its plan again
    page.click("#assistant-btn")
    page.wait_for_selector(".plan-box summary >> text=2/3 done")
    page.click("#as-new")
    assert page.locator(".plan-box").is_hidden()
    assert page.watch.problems() == []
