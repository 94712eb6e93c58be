"""Stop while the provider sends nothing (issue 18 item 7): a reasoning model thinking sends only SSE comments
(``: keep-alive``), a stalled one nothing at all, a non-streamed or queued one not even its status line. When the
person hangs up, the upstream request must be closed within 1 s: the fake provider (``tests/fakes``) watches its
socket while it waits and stamps when it saw the close (``Recorded.closed_at``)."""

from __future__ import annotations

import time
from typing import Any

import httpx2
from fakes import openai_replies as o
from fakes.llm_server import Reply

#: The bound, on a loaded 2-core machine; measured ~2-10 ms when idle (docs/assistant.md "Stop").
WITHIN_S = 1.0

SCENARIOS = [
    # (what the provider does, route, provider, reply)
    ("keep-alive comments every 0.2 s", "chat", None, o.stall(comments=300, delay_s=0.2)),
    ("silence after the status line", "chat", "gemini", Reply(chunks=[b""], sse=True, delay_s=60)),
    ("no status line yet", "agent", None, Reply(before_s=60)),
    ("silence after the status line", "agent", "gemini", Reply(chunks=[b""], sse=True, delay_s=60)),
]


def test_stop_closes_the_upstream_request_within_a_second_while_the_provider_sends_nothing(assistant: Any) -> None:
    a = assistant()
    took: dict[str, float] = {}
    for what, route, provider, reply in SCENARIOS:
        a.fake.add(reply)
        asked = len(a.fake.requests)
        body = {"message": "think hard", "vault": "notes", **({"provider": provider} if provider else {})}
        with httpx2.Client(timeout=30) as client:
            with client.stream("POST", f"{a.url}/api/ai/bookslm/{route}", json=body) as response:
                assert response.status_code == 200
                deadline = time.monotonic() + 10
                while len(a.fake.requests) == asked and time.monotonic() < deadline:
                    time.sleep(0.01)
                time.sleep(0.3)  # the provider is thinking
            hung_up = time.perf_counter()  # the response is closed: the client hung up
        upstream = a.fake.requests[asked]
        deadline = time.monotonic() + 10
        while upstream.closed_at is None and time.monotonic() < deadline:
            time.sleep(0.005)
        assert upstream.closed_at is not None, f"{what} ({route}, {provider or 'custom'}): upstream never closed"
        took[f"{what} ({route}, {provider or 'custom'})"] = upstream.closed_at - hung_up
    print("upstream closed after the hang-up:", {k: f"{v * 1000:.0f} ms" for k, v in took.items()})
    assert all(v < WITHIN_S for v in took.values()), took
    # each stopped conversation ends with the stop line (the run was cancelled, not left running)
    latest = a.get("/api/ai/conversations").json()["conversations"][0]
    assert a.get(f"/api/ai/conversations/{latest['id']}").json()["messages"][-1]["content"] == "Stopped."
