"""The context gauge in the assistant panel, in a real browser against a real ObsiGate whose provider is the
scripted fake reporting each request's own token count (``fakes/token_counts.py``): % and tokens after each
provider call, the figure of a reopened conversation, and the notices at 70/85/95 % of a small configured window
(issue 21 item 5)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake
from fakes.token_counts import counted

#: A folder to keep the screenshots in, to look at by eye (none: not taken).
SHOTS = os.environ.get("OBSIGATE_SHOTS")
WINDOW = 2400


def _text(text: str) -> Any:
    return counted(lambda prompt: o.stream_text([text], usage={"prompt_tokens": prompt, "completion_tokens": 20,
                                                               "prompt_tokens_details": {"cached_tokens": 0}}))  # fmt: skip


@pytest.fixture
def app_server(
    live_server: Any, web_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """Auth off, the default provider ``custom`` at the fake, its model given a small window."""
    use_fake(monkeypatch, fake)
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "gauge-data",
                       ai_context_windows={"fake-model": WINDOW}, ai_context_share=1.0)  # fmt: skip


def _chat(page: Any, message: str) -> None:
    page.fill(".assistant textarea", message)
    page.click(".assistant-input button[type=submit]")
    page.wait_for_selector(".assistant-input button[type=submit] >> text=Send")


def _gauge(page: Any) -> dict[str, Any]:
    page.wait_for_selector(".context-gauge:not([hidden])")
    return page.eval_on_selector(
        ".context-gauge",
        """g => ({
        level: g.dataset.level, line: g.querySelector('.gauge-line').textContent,
        now: Number(g.querySelector('[role=meter]').getAttribute('aria-valuenow')),
        notice: g.querySelector('.gauge-notice').hidden ? null : g.querySelector('.gauge-notice').textContent})""",
    )


def test_the_gauge_fills_warns_and_comes_back_with_the_conversation(page: Any, app_server: Any, fake: FakeLLM) -> None:
    long_answer = " ".join(f"Tidepool fact {i}: anemones close at low tide." for i in range(90))
    fake.add(_text("Tidepools are small."), _text(long_answer), _text("Yes."))
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".assistant textarea")
    assert page.locator(".context-gauge").is_hidden()  # no conversation: no gauge
    page.uncheck("#as-agent")
    page.select_option("#as-mode", "general")

    _chat(page, "What is a tidepool?")
    first = _gauge(page)
    assert first["level"] == "ok" and first["notice"] is None and f"/ {WINDOW / 1000:.1f}k tokens" in first["line"]
    assert 0 < first["now"] < 70
    if SHOTS:
        page.locator("section.assistant").screenshot(path=str(Path(SHOTS) / "gauge-ok.png"))

    _chat(page, "Tell me everything.")
    page.wait_for_selector(".context-gauge:not([data-level='ok'])")
    warned = _gauge(page)
    assert warned["level"] in ("warn70", "warn85", "warn95") and warned["now"] >= 70
    assert warned["notice"] and "The context is" in warned["notice"]
    page.click(".gauge-more summary")
    assert "Conversation" in page.inner_text(".gauge-parts") and "fake-model" in page.inner_text(".gauge-parts")
    if SHOTS:
        page.locator("form.assistant-input").screenshot(path=str(Path(SHOTS) / "gauge-warn.png"))

    page.click("#as-new")
    assert page.locator(".context-gauge").is_hidden()  # a new conversation has no figure yet
    page.click("#as-history")
    page.click(".conv-open >> text=What is a tidepool?")
    page.wait_for_selector(".msg.user >> text=Tell me everything.")
    assert _gauge(page)["level"] == warned["level"]  # reopened: the server's figure again
    assert page.watch.problems() == []
