"""A tool result's image where the model sees it (issue 21 item 1), end to end: a real ObsiGate on loopback, the
scripted fake provider recording what it receives. ``read_file_raw`` on a vault PNG (2000×1000 px: normalised
to 1568×784) in an agent run: OpenAI-compatible Chat gets the tool message as text (the part's text line, no
base64) and ONE synthetic ``user`` message after it with the image; Gemini gets it in ``functionResponse.parts
[].inlineData``; a model without vision gets the text line only. The SHA-256 checked is the normalised PNG's,
the one the tool layer computes (``tools/parts.py``). The bytes are kept once in the conversation and replayed
by reference; the web app's ``tool`` event names them by URL."""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from conftest import LiveServer
from fakes import gemini_replies as g
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, running, use_fake
from pictures import blank_pdf, noisy_png, striped_png
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings
from obsigate.tools.parts import normalise_image

SHOT = striped_png(2000, 1000)
PAPER = blank_pdf(2)
PHOTO = noisy_png(400, 300)  # over one read (200 000 bytes): read_file_raw's chunk and the whole image
NORMALISED = normalise_image(SHOT)
assert NORMALISED is not None
SHOT_SHA = hashlib.sha256(NORMALISED[0]).hexdigest()
CALL = {"vault": "notes", "path": "Pics/shot.png"}


@dataclass
class Server:
    url: str
    fake: FakeLLM
    data: Path

    def agent(self, body: Any) -> list[tuple[str, Any]]:
        response = httpx2.post(f"{self.url}/api/ai/bookslm/agent", json=body, timeout=60)
        assert response.status_code == 200, response.text
        events = []
        for block in response.text.replace("\r\n", "\n").split("\n\n"):
            lines = dict(line.split(":", 1) for line in block.split("\n") if line and not line.startswith(":"))
            if "data" in lines:
                events.append((lines.get("event", "message").strip(), json.loads(lines["data"])))
        return events

    def get(self, path: str) -> httpx2.Response:
        return httpx2.get(f"{self.url}{path}", timeout=30)


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running() as fake, pytest.MonkeyPatch.context() as mp:
        use_fake(
            mp, fake, CUSTOM_MODEL="gpt-4o", GEMINI_MODEL="gemini-2.5-flash",
            OPENAI_BASE_URL=f"{fake.base_url}/v1", OPENAI_API_KEY="sk-test-0000", OPENAI_MODEL="gpt-4o",
        )  # fmt: skip
        root = tmp_path_factory.mktemp("parts")
        vault = write_tree(
            root / "vault", {**SMALL_VAULT, "Pics/shot.png": SHOT, "Pics/photo.png": PHOTO, "Docs/paper.pdf": PAPER}
        )
        settings = load_settings(
            data_dir=root / "data", port=free_port(), tool_rate_limit=10_000, auth_enabled=False,
            vaults={"notes": {"path": str(vault)}},
        )  # fmt: skip
        server = LiveServer(settings).start()
        server.wait_ready()
        try:
            yield Server(server.url, fake, root / "data")
        finally:
            server.stop()


def _done(events: list[tuple[str, Any]]) -> dict[str, Any]:
    (done,) = [d for e, d in events if e == "done"]
    return done


def _tool_event(events: list[tuple[str, Any]]) -> dict[str, Any]:
    return [d for e, d in events if e == "tool" and d["status"] == "ok"][-1]


def _sha_of_data_url(url: str) -> str:
    head, b64 = url.split(",", 1)
    assert head == "data:image/png;base64"
    return hashlib.sha256(base64.b64decode(b64)).hexdigest()


def test_openai_gets_the_image_in_one_synthetic_user_message(srv: Server) -> None:
    srv.fake.add(o.stream_tool_calls([("c1", "read_file_raw", CALL)]), o.stream_text(["Stripes."]))
    events = srv.agent({"message": "What is in Pics/shot.png?", "vault": "notes"})
    assert _done(events)["stopped"] == "completed", events
    sent = srv.fake.requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "user"]
    tool, synthetic = sent[3], sent[4]
    result = json.loads(tool["content"])  # the tool message stays text: JSON, the bytes left out, the text line in
    assert result["content"] == "" and result["encoding"] == "base64"
    assert result["parts"] == ["image/png 1568×784, Pics/shot.png"]
    assert "iVBOR" not in tool["content"]
    assert synthetic["content"][0]["type"] == "text" and "c1" in synthetic["content"][0]["text"]
    (image,) = synthetic["content"][1:]
    assert _sha_of_data_url(image["image_url"]["url"]) == SHOT_SHA

    # the web app's step: the part with a URL (never base64 in the stream), serving the same bytes
    event = _tool_event(events)
    (part,) = event["parts"]
    assert (part["kind"], part["mime_type"], part["width"], part["height"]) == ("image", "image/png", 1568, 784)
    assert "data" not in part and part["sha256"] == SHOT_SHA
    served = srv.get(part["url"])
    assert served.status_code == 200 and hashlib.sha256(served.content).hexdigest() == SHOT_SHA

    # kept by reference, once: the stored tool message holds no bytes; the next request replays the image
    cid = _done(events)["conversation_id"]
    with sqlite3.connect(srv.data / "assistant.sqlite3") as db:
        stored = [json.loads(m) for (m,) in db.execute(
            "SELECT message FROM messages WHERE conversation_id = ? ORDER BY seq", (cid,))]  # fmt: skip
        (count,) = db.execute("SELECT COUNT(*) FROM images WHERE conversation_id = ?", (cid,)).fetchone()
    tool_stored = next(m for m in stored if m["role"] == "tool")
    assert tool_stored["images"] == [{"id": SHOT_SHA, "mime_type": "image/png", "name": "Pics/shot.png",
                                      "bytes": len(NORMALISED[0]), "tool_call_id": "c1"}]  # fmt: skip
    assert count == 1
    srv.fake.add(o.stream_text(["Still stripes."]))
    srv.agent({"message": "And again?", "conversation_id": cid})
    replay = srv.fake.requests[-1].json["messages"]
    assert [m["role"] for m in replay] == ["system", "user", "assistant", "tool", "user", "assistant", "user"]
    assert _sha_of_data_url(replay[4]["content"][1]["image_url"]["url"]) == SHOT_SHA

    # a reopened conversation shows the step's part again? its stored message keeps it for the web app
    assert tool_stored["parts"][0]["url"] == part["url"]


def test_gemini_gets_the_image_in_the_function_response(srv: Server) -> None:
    srv.fake.add(g.stream_calls([("read_file_raw", CALL)]), g.stream_text(["Stripes."]))
    events = srv.agent({"message": "Look at Pics/shot.png", "vault": "notes", "provider": "gemini"})
    assert _done(events)["stopped"] == "completed", events
    contents = srv.fake.requests[-1].json["contents"]
    response = contents[-1]["parts"][0]["functionResponse"]
    assert response["name"] == "read_file_raw"
    assert response["response"]["result"]["parts"] == ["image/png 1568×784, Pics/shot.png"]
    (inline,) = response["parts"]
    assert inline["inlineData"]["mimeType"] == "image/png"
    assert hashlib.sha256(base64.b64decode(inline["inlineData"]["data"])).hexdigest() == SHOT_SHA


def test_a_model_without_vision_gets_the_text_line_only(srv: Server) -> None:
    srv.fake.add(o.stream_tool_calls([("c1", "read_file_raw", CALL)]), o.stream_text(["A file."]))
    events = srv.agent({"message": "What is Pics/shot.png?", "vault": "notes", "model": "fake-model"})
    assert _done(events)["stopped"] == "completed", events
    sent = srv.fake.requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool"]  # no synthetic message
    assert json.loads(sent[3]["content"])["parts"] == ["image/png 1568×784, Pics/shot.png"]
    assert "base64," not in json.dumps(sent)


def test_an_image_over_one_read_reaches_the_model_whole_and_its_chunk_does_not(srv: Server) -> None:
    call = {"vault": "notes", "path": "Pics/photo.png"}
    srv.fake.add(o.stream_tool_calls([("c1", "read_file_raw", call)]), o.stream_text(["Noise."]))
    events = srv.agent({"message": "Look at Pics/photo.png", "vault": "notes"})
    assert _done(events)["stopped"] == "completed", events
    tool, synthetic = srv.fake.requests[-1].json["messages"][3:]
    result = json.loads(tool["content"])
    assert result["content"] == "" and result["next_offset"] == 200_000  # it says there is more to the file
    assert result["parts"] == ["image/png 400×300, Pics/photo.png"]  # the chunk's own line is left out
    (image,) = synthetic["content"][1:]
    assert base64.b64decode(image["image_url"]["url"].split(",", 1)[1]) == PHOTO
    assert [p["kind"] for p in _tool_event(events)["parts"]] == ["image"]


def test_a_pdf_reaches_the_providers_that_read_pdfs_and_a_text_line_elsewhere(srv: Server) -> None:
    call, sha = {"vault": "notes", "path": "Docs/paper.pdf"}, hashlib.sha256(PAPER).hexdigest()
    line = f"application/pdf {len(PAPER)} B, Docs/paper.pdf"

    # OpenAI's own API: a "file" part in the synthetic user message
    srv.fake.add(o.stream_tool_calls([("p1", "read_file_raw", call)]), o.stream_text(["Two blank pages."]))
    events = srv.agent({"message": "Read Docs/paper.pdf", "vault": "notes", "provider": "openai"})
    assert _done(events)["stopped"] == "completed", events
    sent = srv.fake.requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "user"]
    assert json.loads(sent[3]["content"])["parts"] == [line]
    text, part = sent[4]["content"]
    assert "documents" in text["text"] and "p1" in text["text"]
    assert part["type"] == "file" and part["file"]["filename"] == "Docs/paper.pdf"
    head, b64 = part["file"]["file_data"].split(",", 1)
    assert head == "data:application/pdf;base64" and hashlib.sha256(base64.b64decode(b64)).hexdigest() == sha

    # Gemini: inlineData in the functionResponse
    srv.fake.add(g.stream_calls([("read_file_raw", call)]), g.stream_text(["Two pages."]))
    events = srv.agent({"message": "Read Docs/paper.pdf", "vault": "notes", "provider": "gemini"})
    assert _done(events)["stopped"] == "completed", events
    (inline,) = srv.fake.requests[-1].json["contents"][-1]["parts"][0]["functionResponse"]["parts"]
    assert inline["inlineData"]["mimeType"] == "application/pdf"
    assert hashlib.sha256(base64.b64decode(inline["inlineData"]["data"])).hexdigest() == sha

    # another OpenAI-compatible server (the custom provider, a vision model): no "file" part it would refuse
    srv.fake.add(o.stream_tool_calls([("p2", "read_file_raw", call)]), o.stream_text(["A PDF."]))
    events = srv.agent({"message": "Read Docs/paper.pdf", "vault": "notes"})
    assert _done(events)["stopped"] == "completed", events
    sent = srv.fake.requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool"]
    assert json.loads(sent[3]["content"])["parts"] == [line] and "base64," not in json.dumps(sent)
