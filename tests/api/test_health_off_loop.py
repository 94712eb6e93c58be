"""``GET /api/health`` never holds the event loop (issue 20): the index counts it reports are SQLite
``count(*)`` queries (≈ 25 ms at 100k notes) and run in a worker thread, not in the server's loop thread."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import httpx2
import pytest

from obsigate.domain.index.watcher import Indexer


def test_health_counts_the_index_outside_the_event_loop(
    live_server: Any, small_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = live_server({"notes": small_vault})
    seen: list[threading.Thread] = []
    real_status = Indexer.status

    def status(self: Indexer) -> dict:
        seen.append(threading.current_thread())  # a spy: the real status runs and answers
        return real_status(self)

    monkeypatch.setattr(Indexer, "status", status)
    body = httpx2.get(f"{server.url}/api/health").json()
    assert body["status"] == "ok" and body["index"]["state"] == "ready" and body["index"]["notes"] >= 1
    assert seen and all(t is not server.thread for t in seen)  # uvicorn's loop runs in server.thread
