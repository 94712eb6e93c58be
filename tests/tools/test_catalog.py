"""Freezes the tool catalog (names, parameters, risk, scopes) and checks every tool is documented."""

from __future__ import annotations

from pathlib import Path

from obsigate.tools.api import REGISTRY, Scope

EXPECTED = {
    "list_vaults": [],
    "list_directory": ["vault", "path", "limit", "offset"],
    "list_all_files": ["vault", "dir", "limit", "recursive", "offset"],
    "read_file": ["vault", "path", "offset"],
    "read_file_raw": ["vault", "path", "offset"],
    "search_fulltext": ["q", "vault", "tag", "limit", "offset"],
    "list_tags": ["vault", "limit", "offset"],
    "search_paths": ["q", "vault", "limit", "offset"],
    "suggest_tags": ["q", "vault", "limit", "offset"],
    "get_backlinks": ["vault", "path", "limit", "offset", "unlinked"],
    "get_graph": ["vault", "path", "depth", "scope", "tag", "limit"],
    "list_recent": ["vault", "limit", "mode", "offset"],
    "search_advanced": [
        "q", "vault", "tag", "limit", "offset", "sort", "case_sensitive", "whole_word", "regex",
        "include_paths", "exclude_paths", "created", "modified", "size",
    ],
}


def test_catalog_is_frozen() -> None:
    got = {spec.name: list(spec.input_schema["properties"]) for spec in REGISTRY}
    assert got == EXPECTED


def test_every_tool_is_read_only_and_offered_everywhere() -> None:
    for spec in REGISTRY:
        assert spec.risk == "read"
        assert spec.scopes == {Scope.IN_APP, Scope.MCP}
        assert spec.annotations == {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
        assert spec.input_schema["type"] == "object"
        assert "truncated" in spec.output_schema["properties"]
        assert len(spec.description) > 40


def test_every_tool_has_a_heading_in_the_mcp_guide() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")
    for spec in REGISTRY:
        assert f"`{spec.name}`" in guide, spec.name
