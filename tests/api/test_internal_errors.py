"""An internal error (a 5xx) is logged on the server's console with a fresh error id, and the client gets the
same id (issue 16 item 5): over REST (a tool's failure, and a failure outside the tool layer), over MCP (an
``isError`` result) and in the audit record. The failures are genuine: the index closed under a running
server, the user database damaged on disk under ``obsigate serve``."""

from __future__ import annotations

import logging
import re
import subprocess
import sys
import time
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import TextContent
from support import alice_token, free_port, journal_records

from obsigate.mcp.server import ERROR_META_KEY

ERROR_ID = re.compile(r"[0-9a-f]{8}")


def logged(caplog: pytest.LogCaptureFixture, error_id: str) -> list[logging.LogRecord]:
    """The log records that name ``error_id``."""
    return [r for r in caplog.records if error_id in r.getMessage()]


def audit_of(data: Path) -> list[dict]:
    return journal_records(data)


def check_internal_error(body: dict) -> str:
    """The REST/MCP error object of an internal error: its code and an id the message and hint repeat."""
    assert body["code"] == "internal_error"
    error_id = body["error_id"]
    assert ERROR_ID.fullmatch(error_id) and error_id in body["message"] and error_id in body["hint"]
    return error_id


def test_a_tool_failure_over_rest_is_logged_with_the_id_the_client_gets(
    live_server, small_vault: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    token = alice_token(data)
    server = live_server({"notes": small_vault}, data_dir=data)
    server.app.state.runtime.workspace.index.close()  # the index is gone under the running server
    caplog.set_level(logging.INFO)
    r = httpx2.get(f"{server.url}/api/search", params={"q": "tidepool"}, headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 500 and "Traceback" not in r.text
    error_id = check_internal_error(r.json())
    [record] = logged(caplog, error_id)
    assert record.levelno == logging.ERROR and record.name == "obsigate.errors"
    text = record.getMessage()
    assert text.startswith(f"internal error {error_id}: search_fulltext failed (rest call by alice)")
    assert "Traceback" in text and "RuntimeError: index is closed" in text  # the traceback, server side only
    assert token not in caplog.text
    last = audit_of(data)[-1]  # still audited, now with the id
    assert (last["tool"], last["result"], last["error_id"]) == ("search_fulltext", "internal_error", error_id)


@pytest.mark.anyio
async def test_a_tool_failure_over_mcp_carries_the_logged_id(
    live_server, small_vault: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=False)
    server.app.state.runtime.workspace.index.close()
    caplog.set_level(logging.INFO)
    with anyio.fail_after(30):
        async with (
            httpx2.AsyncClient() as http,
            Client(streamable_http_client(f"{server.url}/mcp", http_client=http)) as client,
        ):
            result = await client.call_tool("search_fulltext", {"q": "tidepool"})
    assert result.is_error is True and result.structured_content is None
    error_id = check_internal_error(result.meta[ERROR_META_KEY])
    text = result.content[0]
    assert isinstance(text, TextContent) and text.text.startswith("internal_error: ") and error_id in text.text
    assert "Traceback" not in text.text
    [record] = logged(caplog, error_id)
    assert record.levelno == logging.ERROR and "mcp call by anonymous" in record.getMessage()
    assert "RuntimeError: index is closed" in record.getMessage()
    last = audit_of(tmp_path / "data")[-1]
    assert (last["mode"], last["result"], last["error_id"]) == ("mcp", "internal_error", error_id)


def test_serve_prints_a_failure_outside_the_tool_layer_with_the_id_the_client_gets(
    tmp_path: Path, small_vault: Path
) -> None:
    """``obsigate serve`` as a user runs it: its user database is damaged on disk while it runs, so checking a
    bearer token fails unexpectedly (before any tool). Both fronts answer 500 with an error id, and stderr
    has one ERROR line with that id and the traceback, without the token."""
    data, port = tmp_path / "data", free_port()
    token = alice_token(data)
    url = f"http://127.0.0.1:{port}"
    stderr = tmp_path / "stderr.txt"
    cmd = [sys.executable, "-m", "obsigate", "serve", "--vault", f"notes={small_vault}", "--data-dir", str(data),
           "--port", str(port)]  # fmt: skip
    with stderr.open("wb") as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, stderr.read_text()
            try:
                if httpx2.get(f"{url}/api/health", timeout=1).status_code == 200:
                    break
            except httpx2.HTTPError:
                time.sleep(0.05)
        auth = {"Authorization": f"Bearer {token}"}
        assert httpx2.get(f"{url}/api/vaults", headers=auth).status_code == 200
        with (data / "users.sqlite3").open("r+b") as db:
            db.write(b"\0" * 100)  # the SQLite header: "file is not a database" from the next query on
        rest = httpx2.get(f"{url}/api/vaults", headers=auth)
        mcp = httpx2.post(f"{url}/mcp", headers={**auth, "Accept": "application/json, text/event-stream"},
                          json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})  # fmt: skip
    finally:
        proc.terminate()
        proc.wait(20)
    printed = stderr.read_text(encoding="utf-8")
    assert token not in printed
    for answer, what in ((rest, "GET /api/vaults failed (http)"), (mcp, "POST /mcp failed (http)")):
        assert answer.status_code == 500 and "Traceback" not in answer.text
        error_id = check_internal_error(answer.json())
        lines = [line for line in printed.splitlines() if error_id in line]
        assert len(lines) == 1 and f" ERROR obsigate.errors: internal error {error_id}: {what}" in lines[0], printed
        after = printed.split(lines[0], 1)[1]
        assert (
            after.startswith("\nTraceback") and "DatabaseError: file is not a database" in after.split(" ERROR ", 1)[0]
        )
