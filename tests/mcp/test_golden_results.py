"""The byte-identical pin of issue 21 item 1: a client that announces nothing new gets ``tools/call`` results
byte for byte as before tool results had parts.

``golden/tool_results.json`` holds the exact HTTP response bodies of a set of deterministic calls on the demo
vault (its files' mtimes and the server's version key fixed), recorded from the code before parts existed, for
each protocol revision a client can announce: 2025-03-26 and 2025-11-25 (``initialize`` + session) and
2026-07-28 (sessionless). Re-record only on purpose: ``OBSIGATE_RECORD_GOLDEN=1`` (then review the diff).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import httpx2
import pytest

from obsigate.bootstrap import create_app
from obsigate.config import load_settings

pytestmark = pytest.mark.anyio

GOLDEN = Path(__file__).parent / "golden" / "tool_results.json"
DEMO = Path(__file__).resolve().parents[2] / "src" / "obsigate" / "demo_vault"
BASE = "http://127.0.0.1:8765"
ACCEPT = {"Accept": "application/json, text/event-stream"}
FIXED_MTIME = 1_764_460_800  # 2025-11-30T00:00:00Z
VERSION_KEY = "5a" * 64 + "\n"

#: (label, tool, arguments): deterministic calls, one error among them.
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("read_file", "read_file", {"vault": "demo", "path": "Home.md"}),
    ("list_directory", "list_directory", {"vault": "demo", "path": ""}),
    ("read_file_raw_png", "read_file_raw", {"vault": "demo", "path": "Attachments/tidepool.png"}),
    ("read_file_raw_text", "read_file_raw", {"vault": "demo", "path": "Notes/Tide Model.md"}),
    ("search", "search_fulltext", {"vault": "demo", "q": "tide", "limit": 5}),
    ("error", "read_file", {"vault": "demo", "path": "Nowhere/missing.md"}),
]
VERSIONS = ["2025-03-26", "2025-11-25", "2026-07-28"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _demo_copy(root: Path) -> Path:
    vault = root / "demo"
    shutil.copytree(DEMO, vault)
    for path in sorted(vault.rglob("*"), reverse=True):
        os.utime(path, (FIXED_MTIME, FIXED_MTIME))
    os.utime(vault, (FIXED_MTIME, FIXED_MTIME))
    return vault


async def _bodies(tmp_path: Path) -> dict[str, str]:
    vault = _demo_copy(tmp_path)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    key = data / "version.key"
    key.write_text(VERSION_KEY)
    key.chmod(0o600)
    settings = load_settings(
        data_dir=data, vaults={"demo": {"path": str(vault)}}, port=8765, tool_rate_limit=10_000, auth_enabled=False
    )
    app = create_app(settings)
    out: dict[str, str] = {}
    async with app.router.lifespan_context(app):
        indexer = app.state.runtime.workspace.indexer
        import anyio

        with anyio.fail_after(60):
            while indexer is not None and indexer.state != "ready":
                await anyio.sleep(0.02)
        async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http:
            for version in VERSIONS:
                headers = {**ACCEPT, "MCP-Protocol-Version": version}
                meta: dict[str, Any] = {}
                if version < "2026-07-28":
                    init = {
                        "jsonrpc": "2.0", "id": 1, "method": "initialize",
                        "params": {"protocolVersion": version, "capabilities": {},
                                   "clientInfo": {"name": "golden", "version": "1"}},
                    }  # fmt: skip
                    opened = await http.post("/mcp", json=init, headers=ACCEPT)
                    assert opened.status_code == 200, opened.text
                    headers["mcp-session-id"] = opened.headers["mcp-session-id"]
                    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}
                    assert (await http.post("/mcp", json=done, headers=headers)).status_code == 202
                else:
                    meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": version,
                                      "io.modelcontextprotocol/clientCapabilities": {}}}  # fmt: skip
                for n, (label, tool, args) in enumerate(CALLS, start=2):
                    body = {"jsonrpc": "2.0", "id": n, "method": "tools/call",
                            "params": {"name": tool, "arguments": args, **meta}}  # fmt: skip
                    extra = {"Mcp-Method": "tools/call", "Mcp-Name": tool} if meta else {}
                    response = await http.post("/mcp", json=body, headers={**headers, **extra})
                    assert response.status_code == 200, response.text
                    text = response.text
                    if text.startswith("event:") or text.startswith("data:"):  # an SSE answer: its one message
                        text = next(line[5:].strip() for line in text.splitlines() if line.startswith("data:"))
                    out[f"{version} {label}"] = text
    return out


async def test_results_are_byte_identical_to_the_recorded_ones(tmp_path: Path) -> None:
    bodies = await _bodies(tmp_path)
    if os.environ.get("OBSIGATE_RECORD_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(bodies, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    recorded = json.loads(GOLDEN.read_text())
    assert sorted(bodies) == sorted(recorded)
    for name, body in bodies.items():
        assert body == recorded[name], name
    # the pin covers what it says: an image block, a text result, a search and an error in each revision
    for version in VERSIONS:
        png = json.loads(recorded[f"{version} read_file_raw_png"])["result"]["content"]
        assert [block["type"] for block in png] == ["text", "image"]
        assert json.loads(recorded[f"{version} error"])["result"]["isError"] is True
        assert json.loads(recorded[f"{version} search"])["result"]["structuredContent"]["hits"]
