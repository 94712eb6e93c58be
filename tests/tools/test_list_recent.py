"""The list_recent tool through call_tool: schema, permissions, bad input, audit."""

from __future__ import annotations

import os
import time

import anyio
import pytest
from jsonschema import Draft202012Validator

from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.tools.api import REGISTRY, ServiceError, ToolContext, call_tool
from obsigate.tools.context import ToolRuntime

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")


def run(ctx: ToolContext, args: dict) -> dict:
    return anyio.run(call_tool, ctx, "list_recent", args)


def test_registered_read_only_with_the_designed_parameters() -> None:
    spec = REGISTRY.get("list_recent")
    assert spec is not None and spec.title == "Recent files" and spec.risk == "read"
    assert list(spec.input_schema["properties"]) == ["vault", "limit", "mode", "offset"]
    assert spec.input_schema["properties"]["mode"]["enum"] == ["modified", "created"]
    assert spec.input_schema["properties"]["mode"]["default"] == "modified"


def test_result_matches_the_output_schema(runtime: ToolRuntime) -> None:
    notes = runtime.workspace.vaults["notes"].root
    os.utime(notes / "Projects" / "Plan.md", (time.time() + 5, time.time() + 5))  # newest, stamped "now"
    runtime.workspace.indexer.refresh_all()
    out = run(ToolContext(ALICE, runtime, mode="mcp"), {"limit": 2})
    Draft202012Validator(REGISTRY.get("list_recent").output_schema).validate(out)
    assert out["files"][0]["path"] == "Projects/Plan.md" and out["files"][0]["age"] == "just now"
    assert out["total"] == 5 and out["truncated"] is True and out["next_offset"] == 2
    assert {f["vault"] for f in out["files"]} == {"notes"}  # alice never sees "other"


def test_other_users_vault_is_denied(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    for vault in ("other", "ghost"):
        with pytest.raises(ServiceError) as info:
            run(ctx, {"vault": vault})
        assert info.value.code == "vault_access_denied"
        assert "Private" not in info.value.message
    assert run(ToolContext(ANONYMOUS, runtime), {"vault": "other"})["files"][0]["path"] == "Private.md"
    denied = [
        r for r in runtime.journal.tail(10) if r["tool"] == "list_recent" and r["result"] == "vault_access_denied"
    ]
    assert len(denied) == 2 and denied[0]["user"] == "alice"


def test_vault_grants_are_checked_by_the_tool_layer(runtime: ToolRuntime) -> None:
    """The service lists the vaults it is given: which ones (the grant check) is decided here, once."""
    cases = [
        (ALICE, "other", "vault_access_denied"),
        (ALICE, "ghost", "vault_access_denied"),  # an undeclared vault is denied too: names do not leak
        (ANONYMOUS, "ghost", "not_found"),
    ]
    for principal, vault, code in cases:
        with pytest.raises(ServiceError) as info:
            run(ToolContext(principal, runtime, mode="mcp"), {"vault": vault})
        assert info.value.code == code, (principal.name, vault)
    both = run(ToolContext(ANONYMOUS, runtime), {})
    assert {f["vault"] for f in both["files"]} == {"notes", "other"}


@pytest.mark.parametrize(
    "args",
    [{"mode": "accessed"}, {"limit": 0}, {"limit": 101}, {"offset": -1}, {"limit": "many"}, {"since": "yesterday"}],
)
def test_bad_input(runtime: ToolRuntime, args: dict) -> None:
    with pytest.raises(ServiceError) as info:
        run(ToolContext(ANONYMOUS, runtime), args)
    assert info.value.code == "invalid_argument"
