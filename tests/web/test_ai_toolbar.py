"""Issue 18 item 1 in Chromium: the editor's AI toolbar against the scripted fake provider. Select a line, run an
action, see the diff; Reject leaves the text, Accept replaces it, Undo restores it, Stop stops the stream (and
the server's request to the provider); translate asks for its language first; a provider's failure is shown."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, running, use_fake
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings

LINE = "A tidepool sensor network. #project/sensors"
FIXED = "A tide-pool sensor network. #project/sensors"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, FakeLLM, Path]]:
    """One ObsiGate (auth off) whose default provider is the fake, for this module's tests."""
    root = tmp_path_factory.mktemp("ai-toolbar")
    vault = write_tree(root / "vault", SMALL_VAULT)
    with running() as fake, pytest.MonkeyPatch.context() as mp:
        use_fake(mp, fake)
        settings = load_settings(
            data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=False
        )
        live = LiveServer(settings).start()
        live.wait_ready()
        try:
            yield live.url, fake, vault
        finally:
            live.stop()


def _doc(page: Any) -> str:
    return page.inner_text(".editor-box .cm-content")


def _select_line(page: Any, text: str) -> None:
    page.click(f".editor-box .cm-line >> text={text[:10]}")
    page.keyboard.press("Home")
    page.keyboard.press("Shift+End")
    page.wait_for_selector("#ai-open", state="visible")


def _run(page: Any, action: str) -> None:
    page.click("#ai-open")
    page.click(f".ai-menu [data-action={action}]")


def test_select_run_review_reject_accept_undo_stop(page: Any, served: tuple[str, FakeLLM, Path]) -> None:
    url, fake, vault = served
    before = (vault / "Ideas.md").read_text()
    page.goto(f"{url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#edit-note")
    page.wait_for_selector(".editor-box .cm-content")
    assert page.is_hidden("#ai-open")  # no selection, no toolbar

    # fix: the answer streams in, then shows as a diff; nothing is replaced; Reject leaves the text
    fake.add(o.stream_text(["A tide-pool ", "sensor network. ", "#project/sensors"], delay_s=0.05))
    _select_line(page, LINE)
    _run(page, "fix")
    page.wait_for_selector(".ai-diff")
    assert page.inner_text(".ai-diff del") == "tidepool" and page.inner_text(".ai-diff ins") == "tide-pool"
    assert LINE in _doc(page) and FIXED not in _doc(page)
    assert fake.requests[-1].json["messages"][-1] == {"role": "user", "content": LINE}
    page.click(".ai-reject")
    assert page.is_hidden(".ai-result") and LINE in _doc(page)

    # Accept replaces the selection; Undo puts it back
    fake.add(o.stream_text(["A tide-pool sensor network. #project/sensors"]))
    _select_line(page, LINE)
    _run(page, "improve")
    page.click(".ai-accept")
    page.wait_for_selector(".ai-undo")
    assert FIXED in _doc(page) and LINE not in _doc(page)
    page.click(".ai-undo")
    page.wait_for_selector(".ai-result >> text=Restored.")
    assert LINE in _doc(page) and FIXED not in _doc(page)
    page.click(".ai-close")

    # translate asks for the language first; the server gets it in the task
    fake.add(o.stream_text(["Un réseau de capteurs. #project/sensors"]))
    _select_line(page, LINE)
    _run(page, "translate")
    page.fill("#ai-field", "French")
    page.keyboard.press("Enter")
    page.wait_for_selector(".ai-diff")
    assert fake.requests[-1].json["messages"][0]["content"].endswith("Translate it into French.")
    page.click(".ai-reject")

    # a provider failure is shown in the panel, the text left as it was
    fake.add(o.unauthorized())
    _select_line(page, LINE)
    _run(page, "shorten")
    page.wait_for_selector(".ai-status.error >> text=The AI action failed")
    page.click(".ai-close")
    assert LINE in _doc(page)

    # Stop: the stream ends, nothing is replaced, and the server hangs up on the provider
    fake.add(o.stream_text([f"word{i} " for i in range(200)], delay_s=0.05))
    disconnects = fake.disconnects
    _select_line(page, LINE)
    _run(page, "expand")
    page.wait_for_selector(".ai-stream >> text=word2")
    page.click(".ai-stop")
    stopped_at = time.monotonic()
    page.wait_for_selector(".ai-result >> text=Stopped: nothing was replaced.")
    while fake.disconnects == disconnects and time.monotonic() - stopped_at < 3:
        time.sleep(0.02)
    assert fake.disconnects > disconnects and time.monotonic() - stopped_at < 1.5
    assert LINE in _doc(page) and "word2" not in _doc(page)
    assert (vault / "Ideas.md").read_text() == before  # nothing saved without Save
