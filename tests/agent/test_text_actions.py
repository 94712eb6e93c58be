"""Issue 18 item 1: the editor's AI text actions, ``POST /api/ai/{action}``, on a real server whose provider is
the scripted fake (a real socket, the providers' wire formats): every action streamed, the prompt the fake got
(the action's task and the redacted selection), the errors before any provider call, Stop."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
from conftest import LiveServer
from fakes import gemini_replies as g
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, running, use_fake
from support import SMALL_VAULT, free_port, journal_text, write_tree

from obsigate.agent.text_actions import ACTIONS, MAX_SELECTION_CHARS, SYSTEM
from obsigate.config import load_settings

#: An OpenAI key the redaction rules know, and what it reads once redacted.
KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
SELECTION = "Teh budget for the tidepool buoy is smal. See [[Plan]]."
#: The field each action that needs one gets, and how its task reads then.
FIELDS = {"translate": {"target_lang": "French"}, "tone": {"tone": "playful"},
          "custom": {"instruction": "Rewrite it as a haiku."}}  # fmt: skip


@dataclass
class Events:
    """An answer: ``status``, its SSE ``items`` (``(event, data)``) or its JSON ``body``, and the ``raw`` text."""

    status: int
    raw: str
    items: list[tuple[str, Any]] = field(default_factory=list)
    body: Any = None

    def named(self, name: str) -> list[Any]:
        return [d for e, d in self.items if e == name]

    def one(self, name: str) -> Any:
        (found,) = self.named(name)
        return found


def parse_sse(text: str) -> list[tuple[str, Any]]:
    """``(event, data)`` pairs of an SSE body, comments skipped; one JSON ``data:`` line each."""
    items = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        lines = block.split("\n")
        event = next((line[6:].strip() for line in lines if line.startswith("event:")), "message")
        data = [line[5:].strip() for line in lines if line.startswith("data:")]
        if data:
            items.append((event, json.loads(data[0])))
    return items


class Server:
    """One ObsiGate (auth off) whose default provider is ``custom`` at the fake, for the whole module."""

    def __init__(self, url: str, fake: FakeLLM, data: Path) -> None:
        self.url, self.fake, self.data = url, fake, data

    def post(self, action: str, body: Any, headers: dict[str, str] | None = None) -> Events:
        response = httpx2.post(f"{self.url}/api/ai/{action}", json=body, headers=headers or {}, timeout=30)
        out = Events(response.status_code, raw=response.text)
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            out.items = parse_sse(response.text)
        else:
            out.body = response.json()
        return out


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("text-actions")
    vault = write_tree(root / "vault", SMALL_VAULT)
    with running() as fake, pytest.MonkeyPatch.context() as mp:
        use_fake(mp, fake)
        settings = load_settings(
            data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=False
        )
        live = LiveServer(settings).start()
        try:
            yield Server(live.url, fake, root / "data")
        finally:
            live.stop()


@pytest.fixture
def s(server: Server) -> Server:
    server.fake.requests.clear()
    server.fake.script.clear()
    return server


def _messages(body: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The system prompt and the other messages of an OpenAI-dialect request body."""
    system = [m["content"] for m in body["messages"] if m["role"] == "system"]
    return "".join(system), [m for m in body["messages"] if m["role"] != "system"]


@pytest.mark.parametrize("action", list(ACTIONS))
def test_every_action_streams_its_answer_and_sends_its_task_with_the_selection(s: Server, action: str) -> None:
    s.fake.add(o.stream_text(["The bud", "get is ", "small."]))
    out = s.post(action, {"text": SELECTION, **FIELDS.get(action, {})})
    assert out.status == 200, out.raw
    assert [d["text"] for d in out.named("delta")] == ["The bud", "get is ", "small."]  # streamed, piece by piece
    done = out.one("done")
    assert done["text"] == "The budget is small." and done["action"] == action
    assert done["placement"] == ACTIONS[action].placement and done["model"] == "fake-model"
    assert [e for e, _ in out.items][-1] == "done"
    (request,) = s.fake.requests
    assert request.json["stream"] is True and "tools" not in request.json
    system, messages = _messages(request.json)
    value = next(iter(FIELDS.get(action, {"": ""}).values()))
    assert system == SYSTEM + ACTIONS[action].task.format(value=value)
    assert messages == [{"role": "user", "content": SELECTION}]


def test_the_selection_is_sent_redacted(s: Server) -> None:
    s.fake.add(o.stream_text(["ok"]))
    out = s.post("improve", {"text": f'Deploy with api_key = "{KEY}" then rest.'})
    assert out.one("done")["text"] == "ok"
    sent = json.dumps(s.fake.requests[0].json)
    assert KEY not in sent and "[REDACTED:" in sent and "Deploy with api_key" in sent
    audit = journal_text(s.data)
    assert '"ai_text_action"' in audit and KEY not in audit  # audited like every read, the text as a digest


@pytest.mark.parametrize(
    ("action", "field"), [("custom", "instruction"), ("tone", "tone"), ("translate", "target_lang")]
)
def test_the_actions_field_is_sent_redacted_too(s: Server, action: str, field: str) -> None:
    s.fake.add(o.stream_text(["ok"]))
    secret = "AKIAIOSFODNN7EXAMPLE"  # an AWS access key id the redaction rules know
    out = s.post(action, {"text": "Hello", field: f"use {secret} now"})
    assert out.one("done")["text"] == "ok"
    sent = json.dumps(s.fake.requests[0].json)
    assert secret not in sent and "[REDACTED:" in sent and "use " in sent


def test_gemini_gets_the_same_task_in_its_own_dialect(s: Server) -> None:
    s.fake.add(g.stream_text(["Bonjour", " !"]))
    out = s.post("translate", {"text": "Hello!", "target_lang": "French", "provider": "gemini"})
    assert "".join(d["text"] for d in out.named("delta")) == "Bonjour !"
    assert out.one("done")["provider"] == "gemini"
    body = s.fake.requests[0].json
    assert body["systemInstruction"]["parts"][0]["text"].endswith("Translate it into French.")
    assert body["contents"] == [{"role": "user", "parts": [{"text": "Hello!"}]}]


@pytest.mark.parametrize(
    ("action", "body", "status", "code"),
    [
        ("translate", {"text": "Hello"}, 400, "invalid_argument"),
        ("translate", {"text": "Hello", "target_lang": "  "}, 400, "invalid_argument"),
        ("custom", {"text": "Hello"}, 400, "invalid_argument"),
        ("tone", {"text": "Hello"}, 400, "invalid_argument"),
        ("improve", {"text": ""}, 400, "invalid_argument"),
        ("improve", {"text": " \n\t "}, 400, "invalid_argument"),
        ("improve", {"text": 5}, 400, "invalid_argument"),
        ("improve", {"text": "Hello", "temperature": 2}, 400, "invalid_argument"),
        ("improve", {"text": "x" * (MAX_SELECTION_CHARS + 1)}, 413, "too_large"),
        ("improve", {"text": "Hello", "provider": "nope"}, 400, "invalid_argument"),  # the caller's: not a 5xx
        ("rewrite-everything", {"text": "Hello"}, 404, "not_found"),
        ("bookslm", {"text": "Hello"}, 404, "not_found"),
    ],
)
def test_bad_requests_are_refused_before_any_provider_call(
    s: Server, action: str, body: dict[str, Any], status: int, code: str
) -> None:
    out = s.post(action, body)
    assert (out.status, out.body["code"]) == (status, code), out.raw
    assert s.fake.requests == []  # refused whole, never cut and sent


def test_a_selection_at_the_cap_is_sent_whole(s: Server) -> None:
    s.fake.add(o.stream_text(["ok"]))
    text = "word " * (MAX_SELECTION_CHARS // 5)
    assert s.post("shorten", {"text": text}).one("done")["text"] == "ok"
    assert _messages(s.fake.requests[0].json)[1][0]["content"] == text


def test_a_provider_failure_is_an_error_event(s: Server) -> None:
    s.fake.add(o.unauthorized())
    out = s.post("fix", {"text": "Helo"})
    assert out.status == 200 and out.one("error")["code"] == "provider_auth_failed"
    assert out.named("done") == []


def test_the_other_ai_routes_are_not_shadowed(s: Server) -> None:
    assert httpx2.get(f"{s.url}/api/ai/status").status_code == 200
    assert httpx2.post(f"{s.url}/api/ai/conversations", json={}).status_code == 405  # a GET route: not an action
    assert httpx2.get(f"{s.url}/api/ai/improve").status_code == 405


def test_a_cross_site_request_is_refused(s: Server) -> None:
    out = s.post("improve", {"text": "Hello"}, headers={"Origin": "https://evil.example"})
    assert (out.status, out.body["code"]) == (403, "forbidden_origin")
    assert s.fake.requests == []


def test_stop_closes_the_upstream_request(s: Server) -> None:
    s.fake.add(o.stream_text([f"w{i} " for i in range(200)], delay_s=0.05))
    disconnects = s.fake.disconnects
    with httpx2.Client(timeout=30) as client:
        with client.stream("POST", f"{s.url}/api/ai/expand", json={"text": "Hello"}) as r:
            deltas = 0
            for line in r.iter_lines():
                deltas += line.startswith("event: delta")
                if deltas >= 2:
                    break
        stopped_at = time.monotonic()
    while s.fake.disconnects == disconnects and time.monotonic() - stopped_at < 3:
        time.sleep(0.02)
    assert s.fake.disconnects > disconnects and time.monotonic() - stopped_at < 1.5


def test_auth_is_required_when_on(assistant: Any) -> None:
    a = assistant(auth_enabled=True)
    response = httpx2.post(f"{a.url}/api/ai/improve", json={"text": "Hello"})
    assert response.status_code == 401 and response.json()["code"] == "unauthenticated"
    assert a.fake.requests == []
