"""Imports flow one way: domain → services → tools → transports (docs/architecture.md)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "obsigate"
# layer → packages it must never import
FORBIDDEN = {
    "domain": {"services", "tools", "auth", "api", "mcp", "cli", "bootstrap", "config"},
    "services": {"tools", "api", "mcp", "cli", "bootstrap", "config"},
    "auth": {"tools", "api", "mcp", "cli", "bootstrap", "config"},  # beside services: may use domain
    "tools": {"api", "mcp", "cli", "bootstrap", "config"},
    "mcp": {"api", "cli"},
    "api": {"cli"},
}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("obsigate."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[1] for a in node.names if a.name.startswith("obsigate."))
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_imports_only_downwards(layer: str) -> None:
    bad = {}
    for path in (SRC / layer).rglob("*.py"):
        hits = _imports(path) & FORBIDDEN[layer]
        if hits:
            bad[str(path.relative_to(SRC))] = sorted(hits)
    assert not bad, f"upward imports: {bad}"


def test_mcp_never_calls_the_rest_api() -> None:
    for path in (SRC / "mcp").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "httpx" not in text and "/api/" not in text, path
