"""Fixtures for the assistant's end-to-end tests: a scripted fake provider on loopback and a real ObsiGate
server whose providers point at it, plus a small SSE client."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fakes.llm_server import FakeLLM, use_fake
from support import free_port

from obsigate.config import load_settings


@dataclass
class Events:
    """A parsed SSE answer: ``status``, ``items`` (``(event, data)`` in order) and the ``raw`` text."""

    status: int
    items: list[tuple[str, Any]] = field(default_factory=list)
    raw: str = ""
    body: Any = None

    def named(self, name: str) -> list[Any]:
        return [d for e, d in self.items if e == name]

    def one(self, name: str) -> Any:
        found = self.named(name)
        assert len(found) == 1, (name, self.items)
        return found[0]

    def tools(self, status: str | None = None) -> list[dict[str, Any]]:
        return [d for d in self.named("tool") if status is None or d["status"] == status]


def parse_sse(text: str) -> list[tuple[str, Any]]:
    """``event:``/``data:`` pairs of an SSE body (comments skipped); each data line must be one JSON value."""
    items: list[tuple[str, Any]] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        event, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
        if data:
            assert len(data) == 1, block  # one JSON line per event (the contract)
            items.append((event, json.loads(data[0])))
    return items


@dataclass
class Assistant:
    """A live ObsiGate with an assistant whose providers point at ``fake``."""

    url: str
    fake: FakeLLM
    vault: Path
    data: Path
    server: Any = None
    headers: dict[str, str] = field(default_factory=dict)

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None, timeout: float = 60) -> Events:
        with httpx2.Client(timeout=timeout) as client:
            response = client.post(f"{self.url}{path}", json=body, headers={**self.headers, **(headers or {})})
        out = Events(response.status_code, raw=response.text)
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            out.items = parse_sse(response.text)
        else:
            out.body = response.json()
        return out

    def agent(self, body: Any, **kw: Any) -> Events:
        return self.post("/api/ai/bookslm/agent", body, **kw)

    def chat(self, body: Any, **kw: Any) -> Events:
        return self.post("/api/ai/bookslm/chat", body, **kw)

    def get(self, path: str, headers: dict[str, str] | None = None) -> httpx2.Response:
        return httpx2.get(f"{self.url}{path}", headers={**self.headers, **(headers or {})})

    def runs(self) -> list[tuple[str, str, str]]:
        """``(id, state, data)`` rows of the paused-run table, read straight from SQLite."""
        with sqlite3.connect(self.data / "assistant.sqlite3") as db:
            return db.execute("SELECT id, state, data FROM runs").fetchall()

    def sent_tool_names(self, request: int = 0) -> list[str]:
        body = self.fake.requests[request].json
        if "tools" in body and body["tools"] and "functionDeclarations" in body["tools"][0]:
            return [d["name"] for d in body["tools"][0]["functionDeclarations"]]
        return [t["function"]["name"] for t in body.get("tools") or []]


@pytest.fixture
def assistant(
    live_server: Callable[..., Any], small_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Assistant]:
    """``assistant(**settings)`` → a started server (auth off unless ``auth_enabled=True``) whose default
    provider is ``custom`` at the fake (``/v1``) and whose ``gemini`` provider is the fake too (``/v1beta``)."""

    def make(env: dict[str, str] | None = None, vaults: dict[str, Any] | None = None, **overrides: Any) -> Assistant:
        use_fake(monkeypatch, fake, **(env or {}))
        overrides.setdefault("auth_enabled", False)
        data = overrides.pop("data_dir", tmp_path / "data")
        if vaults is None:
            server = live_server({"notes": small_vault}, data_dir=data, **overrides)
        else:
            from conftest import LiveServer  # the vault settings (aiDestructiveTools) need the full form

            settings = load_settings(
                data_dir=data, port=free_port(), vaults=vaults, tool_rate_limit=10_000, **overrides
            )
            server = LiveServer(settings).start()
            server.wait_ready()
            request_stop.append(server)
        return Assistant(server.url, fake, small_vault, data, server)

    request_stop: list[Any] = []
    yield make
    for server in request_stop:
        server.stop()
