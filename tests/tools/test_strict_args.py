"""Issue 9 item 1: tool arguments are strict (docs/mcp.md §7): a wrong JSON type is ``invalid_argument``, never
converted; an empty vault name is ``invalid_argument``, not ``not_found`` or "every vault"."""

from __future__ import annotations

import pytest

from obsigate.tools.api import REGISTRY
from obsigate.tools.context import ToolRuntime
from tests.tools.test_dispatch import ALICE, ToolContext, error_of, run


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("list_directory", {"vault": "notes", "limit": "5"}),
        ("list_directory", {"vault": "notes", "limit": True}),
        ("list_directory", {"vault": "notes", "limit": 5.0}),
        ("list_directory", {"vault": "notes", "offset": "0"}),
        ("list_all_files", {"vault": "notes", "recursive": "false"}),
        ("list_all_files", {"vault": "notes", "recursive": 0}),
        ("read_file", {"vault": "notes", "path": 5}),
        ("search_advanced", {"q": "x", "limit": True}),
        ("search_advanced", {"q": "x", "case_sensitive": "yes"}),
        ("search_advanced", {"q": "x", "case_sensitive": 1}),
        ("search_advanced", {"q": "x", "include_paths": "a/**"}),
        ("search_advanced", {"q": "x", "size": {"min": "1"}}),
        ("search_advanced", {"q": "x", "size": {"min": False}}),
        ("search_advanced", {"q": "x", "sort": 1}),
        ("list_recent", {"mode": "Modified"}),
        ("get_graph", {"vault": "notes", "depth": "1"}),
        ("list_directory", {"vault": ""}),
        ("search_fulltext", {"q": "x", "vault": ""}),
        ("search_advanced", {"q": "x", "vault": ""}),
        ("list_tags", {"vault": ""}),
        ("search_paths", {"q": "x", "vault": ""}),
        ("suggest_tags", {"vault": ""}),
        ("list_recent", {"vault": ""}),
    ],
)
def test_wrong_types_and_empty_vault_are_invalid(runtime: ToolRuntime, name: str, args: dict) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    assert error_of(ctx, name, args).code == "invalid_argument"


def test_right_types_still_work(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    listing = run(ctx, "list_directory", {"vault": "notes", "limit": 1, "offset": 0})
    assert len(listing["entries"]) == 1
    assert run(ctx, "list_all_files", {"vault": "notes", "recursive": False})["total"] >= 1
    found = run(ctx, "search_advanced", {
        "q": "plan", "vault": "notes", "limit": 5, "case_sensitive": False, "sort": "path",
        "include_paths": ["**"], "size": {"min": 0}, "modified": {"after": "2000-01-01"},
    })  # fmt: skip
    assert found["hits"]
    assert run(ctx, "list_recent", {"mode": "created", "vault": "notes"})["files"]


def test_every_integer_argument_refuses_a_boolean_and_a_string() -> None:
    """Strictness is the base model's, so every tool has it, nested models included."""
    for spec in REGISTRY:
        model = spec.args_model
        assert model.model_config.get("strict") is True, spec.name
