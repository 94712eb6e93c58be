"""The planning tools over MCP with the official SDK client: listed with honest annotations, the rendered plan
in the result's text and structuredContent, one plan per MCP session (the user's default plan without one),
errors as isError results with their code, and no user reads another's plan."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client

from obsigate.mcp.server import ERROR_META_KEY

pytestmark = pytest.mark.anyio

PLAN = [{"step": "Outline", "status": "completed"}, {"step": "Write", "status": "in_progress"}]


async def ok(client: Client, name: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, args)
    assert result.is_error is False, result.content
    assert json.loads(result.content[0].text) == result.structured_content  # the text copy: every client sees it
    return result.structured_content


async def error(client: Client, name: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, args)
    assert result.is_error is True
    return result.meta[ERROR_META_KEY]


async def test_plans_over_mcp(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert tools["update_plan"].annotations.read_only_hint is False
        assert tools["get_plan"].annotations.read_only_hint is True
        assert (await ok(client, "get_plan", {}))["exists"] is False
        out = await ok(client, "update_plan", {"plan": PLAN})
        assert out["revision"] == 1 and "- [~] Write" in out["markdown"] and out["edited_by"] == "assistant"
        two = await error(client, "update_plan", {"plan": [{**s, "status": "in_progress"} for s in PLAN]})
        assert two["code"] == "invalid_argument" and "at most one" in two["message"]
        stale = await error(client, "update_plan", {"plan": PLAN, "revision": 0})
        assert stale["code"] == "conflict" and stale["details"]["plan"]["revision"] == 1
        again = await ok(client, "update_plan", {"plan": [{**s, "status": "completed"} for s in PLAN], "revision": 1})
        assert again["revision"] == 2 and again["status"] == "completed"
        assert (await ok(client, "get_plan", {}))["revision"] == 2
    # a legacy session is a conversation of its own; sessionless calls share the user's default plan
    async with gateway.client(gateway.tokens["alice"], era) as client:
        fresh = await ok(client, "get_plan", {})
        assert fresh["exists"] is (era == "auto")
    folder = gateway.runtime.data_dir / "users" / "alice" / "plans"
    names = sorted(p.name for p in folder.iterdir())
    assert ("_default.md" in names) is (era == "auto") and len(names) == 1
    # bob, in his own sessions, never sees alice's plan
    async with gateway.client(gateway.tokens["bob"], era) as client:
        assert (await ok(client, "get_plan", {}))["exists"] is False
        await ok(client, "update_plan", {"plan": PLAN[:1]})
    assert len(list((folder.parent.parent / "bob" / "plans").iterdir())) == 1
    (mine,) = folder.iterdir()  # alice's plan is as she left it
    assert mine.read_text(encoding="utf-8").endswith("- [x] Outline\n- [x] Write\n")
