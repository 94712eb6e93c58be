"""A plan survives a restart and a kill -9 between (and during) updates: a real ``obsigate serve`` process, the
official MCP client over HTTP (sessionless: the user's default plan), SIGKILL. The file is only ever its old or
its new text, so after any crash the plan reads back whole, at the last answered revision or the one after."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from robust.serving import Server
from support import SMALL_VAULT, write_tree

pytestmark = pytest.mark.e2e

PLAN = [{"step": "Collect", "status": "completed"}, {"step": "Sort", "status": "in_progress"}]


async def _call(url: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    async with (
        httpx2.AsyncClient(timeout=10) as http,
        Client(streamable_http_client(f"{url}/mcp", http_client=http), mode="auto") as client,
    ):
        result = await client.call_tool(name, args)
    assert result.is_error is False, result.content
    return result.structured_content


def call(server: Server, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return anyio.run(_call, server.url, name, args)


def test_a_plan_survives_restarts_and_kill_9(tmp_path: Path) -> None:
    vault, data = write_tree(tmp_path / "notes", SMALL_VAULT), tmp_path / "data"
    server = Server({"notes": vault}, data)
    try:
        assert call(server, "update_plan", {"explanation": "Before the crash.", "plan": PLAN})["revision"] == 1
        server.kill()  # between two updates
        server = Server({"notes": vault}, data)
        got = call(server, "get_plan", {})
        assert got["revision"] == 1 and got["plan"] == PLAN and got["explanation"] == "Before the crash."
        done = [{**s, "status": "completed"} for s in PLAN]
        assert call(server, "update_plan", {"plan": done, "revision": 1})["revision"] == 2
        server.stop()  # a clean restart
        server = Server({"notes": vault}, data)
        assert call(server, "get_plan", {})["plan"] == done

        # kill -9 while updates follow each other: whatever the moment, the plan reads back whole
        answered = [2]
        stop = threading.Event()

        def hammer() -> None:
            n = 0
            while not stop.is_set():
                n += 1
                steps = [{"step": f"step {n} #{i}", "status": "pending"} for i in range(20)]
                try:
                    out = anyio.run(_call, server.url, "update_plan", {"plan": steps, "revision": answered[-1]})
                except Exception:  # noqa: BLE001 — the server died under the call
                    return
                answered.append(out["revision"])

        worker = threading.Thread(target=hammer)
        worker.start()
        # the kill lands mid-stream on any machine: once an update has been answered, then at a random instant
        deadline = time.monotonic() + 60
        while len(answered) < 3 and worker.is_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(random.uniform(0.0, 0.5))
        server.kill()
        stop.set()
        worker.join(30)
        assert len(answered) > 2, "no update was answered before the kill"
        server = Server({"notes": vault}, data)
        got = call(server, "get_plan", {})
        assert got["revision"] in (answered[-1], answered[-1] + 1) and len(got["plan"]) == 20
        assert (
            call(server, "update_plan", {"plan": PLAN, "revision": got["revision"]})["revision"] == got["revision"] + 1
        )
    finally:
        server.stop()
