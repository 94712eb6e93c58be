"""A tool result's image and PDF in the assistant's step (issue 21 item 1), in a real browser against a real
ObsiGate whose provider is the scripted fake: the agent reads a vault image (2000×1000 px) and a PDF with
``read_file_raw``; the step shows the image inline (the normalised 1568×784 PNG, served by URL from the
conversation, never base64 in the stream) and the PDF as a link; both come back when the conversation is
reopened after a reload."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake
from PIL import Image

SHOTS = os.environ.get("OBSIGATE_SHOTS")


def _png() -> bytes:
    image = Image.new("RGB", (2000, 1000), (30, 110, 170))
    for x in range(0, 2000, 120):
        image.paste((250, 210, 60), (x, 0, x + 40, 1000))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _pdf() -> bytes:
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=595, height=842)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture
def app_server(
    live_server: Any, web_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """Auth off, the default provider ``custom`` at the fake with a vision model; an image and a PDF in the vault."""
    use_fake(monkeypatch, fake, CUSTOM_MODEL="gpt-4o")
    (web_vault / "Attachments" / "reef.png").write_bytes(_png())
    (web_vault / "Attachments" / "survey.pdf").write_bytes(_pdf())
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "parts-data")


def test_a_result_image_is_shown_inline_in_its_step(page: Any, app_server: Any, fake: FakeLLM) -> None:
    calls = [
        ("r1", "read_file_raw", {"vault": "notes", "path": "Attachments/reef.png"}),
        ("r2", "read_file_raw", {"vault": "notes", "path": "Attachments/survey.pdf"}),
    ]
    fake.add(o.stream_tool_calls(calls, text="Looking."), o.stream_text(["Yellow stripes on blue."]))
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".assistant textarea")
    page.fill(".assistant textarea", "What is in reef.png and survey.pdf?")
    page.click(".assistant-input button[type=submit]")
    page.wait_for_selector(".msg.assistant >> text=stripes")

    img = page.wait_for_selector(".step-parts .step-image img")
    page.wait_for_function("() => document.querySelector('.step-parts img').complete")
    assert page.eval_on_selector(".step-parts img", "(i) => [i.naturalWidth, i.naturalHeight]") == [1568, 784]
    src = img.get_attribute("src")
    assert src.startswith("/api/ai/conversations/") and "/images/" in src
    pdf = page.locator(".step-parts a.step-pdf")
    assert pdf.inner_text() == "PDF: Attachments/survey.pdf"
    assert pdf.get_attribute("download") == "survey.pdf"  # saved: its URL is served under a sandboxing CSP
    assert page.request.get(f"{app_server.url}{pdf.get_attribute('href')}").body()[:5] == b"%PDF-"
    # the model got the image after the tool messages, and no base64 reached the page's event stream
    sent = fake.requests[-1].json["messages"]
    assert [m["role"] for m in sent][-3:] == ["tool", "tool", "user"]
    if SHOTS:
        page.locator("section.assistant").screenshot(path=str(Path(SHOTS) / "assistant-result-parts.png"))

    page.reload(wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".steps-fold summary")
    if not page.is_visible(".step-parts img"):  # a reopened conversation's steps are folded
        page.click(".steps-fold summary")
    page.wait_for_selector(".step-parts .step-image img")
    assert page.locator(".step-parts a.step-pdf").count() == 1
    assert page.watch.problems() == []
