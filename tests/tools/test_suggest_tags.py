"""suggest_tags on a real indexed vault."""

from __future__ import annotations

import anyio
import pytest

from obsigate.auth.principal import ANONYMOUS
from obsigate.tools.api import ServiceError, ToolContext, call_tool
from obsigate.tools.context import ToolRuntime


def run(runtime: ToolRuntime, args: dict) -> dict:
    return anyio.run(call_tool, ToolContext(ANONYMOUS, runtime, mode="mcp"), "suggest_tags", args)


def test_prefix_nested_part_and_letters(runtime: ToolRuntime) -> None:
    # small vault tags: home, dashboard, project/sensors (2 notes) and its parent project (2 notes)
    assert [t["tag"] for t in run(runtime, {"q": "pro"})["tags"]] == ["project", "project/sensors"]
    assert run(runtime, {"q": "#SENS"})["tags"] == [{"tag": "project/sensors", "count": 2}]
    assert [t["tag"] for t in run(runtime, {"q": "dshbd"})["tags"]] == ["dashboard"]
    assert run(runtime, {"q": "zzz"})["total"] == 0


def test_empty_query_lists_the_most_used(runtime: ToolRuntime) -> None:
    out = run(runtime, {"limit": 2})
    assert [t["count"] for t in out["tags"]] == [2, 2] and out["truncated"] is True


def test_bad_limit(runtime: ToolRuntime) -> None:
    with pytest.raises(ServiceError) as info:
        run(runtime, {"q": "x", "limit": 0})
    assert info.value.code == "invalid_argument"
