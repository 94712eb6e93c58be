"""docs/tools.md is what the registry says now (regenerate with `make docs`), and it names every tool."""

from __future__ import annotations

from pathlib import Path

from obsigate.tools.api import REGISTRY
from obsigate.tools.reference import render
from obsigate.tools.registry import ToolKind

DOC = Path(__file__).resolve().parents[2] / "docs" / "tools.md"


def test_the_tool_reference_is_fresh() -> None:
    assert DOC.read_text(encoding="utf-8") == render(REGISTRY), "docs/tools.md is stale: run `make docs`"


def test_the_reference_shows_each_tool_with_its_bounds_and_routes() -> None:
    text = render(REGISTRY)
    for spec in REGISTRY:
        if spec.kind is ToolKind.TOOL:
            assert f"## `{spec.name}`" in text, spec.name
            for route in spec.rest:
                assert f"`{route.method} /api{route.path}`" in text, (spec.name, route.path)
        else:  # propose_/apply_ are named under their tool
            assert f"`{spec.name}`" in text, spec.name
    section = text.split("## `list_recent`", 1)[1].split("\n## ", 1)[0]
    assert "| `limit` | integer |  | ≥ 1, ≤ 100 |" in section
