"""``/mcp`` in the OpenAPI document under an ``mcp`` tag (issue 18 item 9, seeds §7 phase 3), and what it says
holds on a live server: the bearer credential, the Origin check, the JSON-RPC body."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
from jsonschema import Draft202012Validator
from support import alice_token

from obsigate.config import load_settings

INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}  # fmt: skip
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def test_the_openapi_document_describes_mcp_and_the_server_does_what_it_says(
    live_server: Any, small_vault: Path, tmp_path: Path
) -> None:
    token = alice_token(tmp_path / "data")
    server = live_server({"notes": small_vault}, auth_enabled=True, data_dir=tmp_path / "data")
    doc = httpx2.get(f"{server.url}/openapi.json").json()
    mcp = doc["paths"]["/mcp"]
    assert set(mcp) == {"post", "get", "delete"}
    assert [t["name"] for t in doc["tags"]] == ["mcp"] and "Streamable HTTP" in doc["tags"][0]["description"]
    assert doc["components"]["securitySchemes"]["bearer"] == {
        "type": "http", "scheme": "bearer",
        "description": "A JWT (`POST /api/auth/login`, `obsigate token create`) or an `og_` API key.",
    }  # fmt: skip
    for op in mcp.values():
        assert op["tags"] == ["mcp"] and op["security"] == [{"bearer": []}]
        assert {"401", "403", "421"} <= set(op["responses"])
        assert [p["name"] for p in op["parameters"]] == ["Mcp-Session-Id", "MCP-Protocol-Version", "Origin"]
    post = mcp["post"]
    body = post["requestBody"]["content"]["application/json"]["schema"]
    Draft202012Validator.check_schema(body)
    Draft202012Validator(body).validate(INITIALIZE)
    assert set(post["responses"]["200"]["content"]) == {"application/json", "text/event-stream"}
    assert "405" in mcp["get"]["responses"]  # the modern era has no GET stream
    assert len({op["operationId"] for path in doc["paths"].values() for op in path.values()}) == sum(
        len(path) for path in doc["paths"].values()
    )  # operation ids stay unique

    # what the entry says is what /mcp does
    anonymous = httpx2.post(f"{server.url}/mcp", json=INITIALIZE, headers=ACCEPT)
    assert anonymous.status_code == 401 and anonymous.headers["www-authenticate"].startswith("Bearer")
    signed = {**ACCEPT, "authorization": f"Bearer {token}"}
    assert httpx2.post(f"{server.url}/mcp", json=INITIALIZE, headers=signed).status_code == 200
    evil = httpx2.post(f"{server.url}/mcp", json=INITIALIZE, headers={**signed, "origin": "https://evil.example"})
    assert evil.status_code == 403


def test_without_auth_the_entry_asks_for_no_credential(tmp_path: Path, small_vault: Path) -> None:
    from obsigate.bootstrap import create_app

    settings = load_settings(data_dir=tmp_path / "d", port=8000, vaults={"notes": {"path": str(small_vault)}},
                             auth_enabled=False)  # fmt: skip
    doc = create_app(settings).openapi()
    assert all(op["security"] == [] and "401" not in op["responses"] for op in doc["paths"]["/mcp"].values())
    assert "bearer" not in doc.get("components", {}).get("securitySchemes", {})
