"""The panel's small parts of issue 18 item 8 in a real browser, against a real ObsiGate whose provider is the
tests' scripted fake: the large-context warning with "Send anyway", then "Undo this run" under the finished run."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake


@pytest.fixture
def app_server(
    live_server: Any, web_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """Auth off, the default provider ``custom`` at the fake, a 3000-token window (the folder is over half)."""
    use_fake(monkeypatch, fake)
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "d", ai_context_window=3000)


def _shot(page: Any, name: str) -> None:
    """A screenshot to look at by eye when OBSIGATE_SHOTS names a folder (light, then dark)."""
    folder = os.environ.get("OBSIGATE_SHOTS")
    if folder:
        page.locator("section.assistant").screenshot(path=f"{folder}/{name}.png")


def test_a_large_context_warns_then_undo_this_run_puts_the_files_back(
    page: Any, app_server: Any, fake: FakeLLM, web_vault: Path
) -> None:
    ideas = (web_vault / "Ideas.md").read_bytes()
    fake.add(
        o.stream_tool_calls(
            [
                ("c1", "create_file", {"vault": "notes", "path": "Buoy.md", "content": "# Buoy\n"}),
                ("e1", "edit_file", {"vault": "notes", "path": "Ideas.md", "content": "# Ideas\n\nrewritten\n"}),
            ]
        ),
        o.stream_text(["Done."]),
    )
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.fill(".assistant textarea", "Rewrite my ideas")
    page.watch.expect("status of 413")  # the refusal the warning is drawn from (the browser logs it)
    page.click(".assistant-input button[type=submit]")
    warning = page.wait_for_selector(".context-warning")
    assert "over 50% of the model's 3000-token context" in warning.inner_text()
    assert fake.requests == []  # nothing sent before the person chooses
    _shot(page, "context-warning-light")
    warning.query_selector("button.primary").click()  # Send anyway
    page.wait_for_selector(".confirm-card:not(.context-warning) button.primary >> text=Approve all (2)").click()
    undo = page.wait_for_selector("button.undo-run")
    assert (web_vault / "Buoy.md").exists() and (web_vault / "Ideas.md").read_text() == "# Ideas\n\nrewritten\n"
    _shot(page, "undo-light")
    undo.click()
    page.wait_for_selector(".run-actions >> text=Undone: 2 file(s) put back as they were.")
    assert not (web_vault / "Buoy.md").exists() and (web_vault / "Ideas.md").read_bytes() == ideas
    assert page.locator("button.undo-run").count() == 0
    page.click("#theme-btn")
    page.click("#theme-btn")
    _shot(page, "undo-dark")
    assert page.watch.problems() == []
