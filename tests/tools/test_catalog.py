"""Freezes the tool catalog (names, parameters, risk, scopes) and checks every tool is documented."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from obsigate.tools.api import REGISTRY, Scope
from obsigate.tools.catalog.links import ExportGraphArgs, ExportGraphResult
from obsigate.tools.registry import Risk, ToolKind, ToolRegistry, tool

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
    "export_graph": ["vault", "tag"],
    "list_recent": ["vault", "limit", "mode", "offset"],
    "search_advanced": [
        "q",
        "vault",
        "tag",
        "limit",
        "offset",
        "sort",
        "case_sensitive",
        "whole_word",
        "regex",
        "include_paths",
        "exclude_paths",
        "created",
        "modified",
        "size",
    ],
    "list_backups": ["vault", "path", "limit", "offset"],
    "diff_backup": ["vault", "path", "version", "compare_with"],
    "list_trash": ["vault", "limit", "offset"],
}
# The seeds' write catalog (risk M = write, D = dangerous); each also gets propose_<tool> / apply_<tool>.
WRITES = {
    "create_file": (Risk.WRITE, ["vault", "path", "content"]),
    "create_directory": (Risk.WRITE, ["vault", "path"]),
    "edit_file": (Risk.WRITE, ["vault", "path", "content", "find", "replace", "expected_count", "heading"]),
    "append_to_file": (Risk.WRITE, ["vault", "path", "content"]),
    "restore_backup": (Risk.WRITE, ["vault", "path", "version"]),
    "rename_file": (Risk.DANGEROUS, ["vault", "path", "new_name"]),
    "rename_directory": (Risk.DANGEROUS, ["vault", "path", "new_name"]),
    "move_path": (Risk.DANGEROUS, ["vault", "source_path", "destination_dir"]),
    "replace_in_files": (
        Risk.DANGEROUS,
        [
            "find",
            "replace",
            "vault",
            "case_sensitive",
            "whole_word",
            "regex",
            "include_paths",
            "exclude_paths",
            "replace_all",
            "dry_run",
        ],
    ),
    "delete_file": (Risk.DANGEROUS, ["vault", "path"]),
    "delete_directory": (Risk.DANGEROUS, ["vault", "path", "recursive"]),
    "restore_trash": (Risk.WRITE, ["vault", "path", "kind"]),
}
#: Writes applied to the file as it is then (they commute with any other write), not refused when it changed since
#: the proposal: each is declared ``rebased=True``.
REBASED = {"create_file", "create_directory", "append_to_file"}
#: The web app's own tools (its trash view, the whole-vault graph): REST, the web app and the CLI only, never
#: offered to a model (a graph export may be bigger than a model's context).
WEB_ONLY = {"list_trash", "restore_trash", "propose_restore_trash", "apply_restore_trash", "export_graph"}


def test_catalog_is_frozen() -> None:
    tools = {spec.name: spec for spec in REGISTRY if spec.kind is ToolKind.TOOL}
    assert {n: list(s.input_schema["properties"]) for n, s in tools.items() if s.risk == "read"} == EXPECTED
    assert {n: (s.risk, list(s.input_schema["properties"])) for n, s in tools.items() if s.risk != "read"} == WRITES
    for name in WRITES:
        propose, apply = REGISTRY.get(f"propose_{name}"), REGISTRY.get(f"apply_{name}")
        assert propose is not None and list(propose.input_schema["properties"]) == list(
            tools[name].input_schema["properties"]
        )
        assert apply is not None and list(apply.input_schema["properties"]) == ["confirmation_token"]


def test_the_rebased_writes_are_frozen() -> None:
    assert {s.name for s in REGISTRY.declared() if s.rebased} == REBASED
    assert all(REGISTRY.get(name).planner is not None for name in REBASED)


def test_read_tools_are_read_only_and_offered_everywhere() -> None:
    for spec in REGISTRY:
        assert spec.scopes == (frozenset() if spec.name in WEB_ONLY else {Scope.IN_APP, Scope.MCP}), spec.name
        assert spec.input_schema["type"] == "object"
        assert "truncated" in spec.output_schema["properties"]
        assert len(spec.description) > 40
        if spec.risk == "read" and spec.kind is ToolKind.TOOL:
            assert spec.annotations == {
                "readOnlyHint": True,
                "destructiveHint": False,
                "idempotentHint": True,
                "openWorldHint": False,
            }


def test_write_tools_say_what_they_risk() -> None:
    for name, (risk, _) in WRITES.items():
        apply = REGISTRY.get(f"apply_{name}")
        assert apply.annotations["readOnlyHint"] is False
        assert apply.annotations["destructiveHint"] is (risk is Risk.DANGEROUS)
        assert REGISTRY.get(f"propose_{name}").annotations["readOnlyHint"] is True


def test_every_tool_has_a_heading_in_the_mcp_guide() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "mcp.md").read_text(encoding="utf-8")
    for spec in REGISTRY:
        assert f"`{spec.name}`" in guide, spec.name


def test_an_uncut_result_is_never_offered_to_a_model() -> None:
    with pytest.raises(ValueError, match="unbounded"):

        @tool("dump", title="Dump", registry=ToolRegistry())  # offered in-app and over MCP by default
        def dump(ctx, args: ExportGraphArgs) -> ExportGraphResult:
            """A whole vault, uncut."""
            raise AssertionError


#: tools/list order: the catalogue's families by their ORDER (tools/catalog/__init__.py), each in declaration order.
LISTED_ORDER = [
    *["list_vaults", "list_directory", "list_all_files", "read_file", "read_file_raw"],
    *["get_backlinks", "get_graph", "export_graph"],
    *["search_fulltext", "search_advanced", "list_tags", "search_paths", "suggest_tags", "list_recent"],
    *["list_backups", "diff_backup", "list_trash"],
    *["create_file", "create_directory", "edit_file", "append_to_file", "restore_backup", "restore_trash"],
    *["rename_file", "rename_directory", "move_path", "replace_in_files", "delete_file", "delete_directory"],
]


def test_the_catalogue_keeps_its_order() -> None:
    """Discovered modules still register in the order tools/list has always shown (a pinned order, not the
    file names' alphabetical one)."""
    assert [spec.name for spec in REGISTRY if spec.kind is ToolKind.TOOL] == LISTED_ORDER


def test_a_catalogue_module_without_an_order_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import obsigate.tools.catalog as catalog

    (tmp_path / "zz_extra.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(catalog, "__path__", [*catalog.__path__, str(tmp_path)])
    catalog.load.cache_clear()
    try:
        with pytest.raises(TypeError, match="zz_extra: ORDER"):
            catalog.load()
    finally:
        monkeypatch.undo()
        catalog.load.cache_clear()
        catalog.load()
        sys.modules.pop("obsigate.tools.catalog.zz_extra", None)
