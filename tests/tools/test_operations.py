"""Every operation goes through the tool layer's steps (issue 17 item 2): the fronts' own operations are
registered tools offered to no model, and MCP prompts, resources and completion are registry kinds with
argument models, run by ``call_operation`` (door → parse → permit → run). Real runtime, real audit log."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from support import journal_records

from obsigate.auth.principal import Principal
from obsigate.tools.api import (
    REGISTRY,
    BadRequest,
    Scope,
    ServiceError,
    ToolContext,
    call_tool,
    get_prompt,
    offered_tools,
    prompt_arguments,
    visible_tools,
)
from obsigate.tools.context import ToolRuntime
from obsigate.tools.kinds import OPERATIONS, Kind

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
FRONT_OPERATIONS = ("bookslm_context", "download_file", "vault_switches")


def audit(tmp_path: Path) -> list[dict[str, Any]]:
    return journal_records(tmp_path)


@pytest.mark.parametrize("name", FRONT_OPERATIONS)
def test_front_operations_are_tools_offered_to_no_model(runtime: ToolRuntime, name: str) -> None:
    spec = REGISTRY.get(name)
    assert spec is not None and spec.scopes == frozenset()
    assert name not in {s.name for s in REGISTRY.for_scope(Scope.MCP)} | {
        s.name for s in REGISTRY.for_scope(Scope.IN_APP)
    }
    for mode in ("mcp", "in_app"):
        ctx = ToolContext(ALICE, runtime, mode=mode)
        assert name not in {s.name for s in visible_tools(ctx)} | {s.name for s in offered_tools(ctx)}
        # a model naming it is refused as an unknown tool: only a front runs it (front_call=True)
        with pytest.raises(ServiceError) as info:
            anyio.run(call_tool, ctx, name, {"vault": "notes", "path": "Home.md", "mode": "general"})
        assert info.value.code == "unknown_tool"


def test_download_file_returns_the_exact_bytes_and_is_audited_as_before(runtime: ToolRuntime, tmp_path: Path) -> None:
    from obsigate.tools.api import download_file

    ctx = ToolContext(ALICE, runtime, mode="web")
    data, mime = anyio.run(download_file, ctx, "notes", "Attachments/pic.png")
    assert data == (runtime.workspace.vaults["notes"].root / "Attachments/pic.png").read_bytes()
    assert mime == "image/png"
    record = audit(tmp_path)[-1]
    assert record["tool"] == "download_file" and record["action"] == "ai_tool_call" and record["vault"] == "notes"
    assert record["result"] == "ok" and record["mode"] == "web"


def test_prompts_are_one_function_each_with_an_argument_model() -> None:
    prompts = OPERATIONS.of_kind(Kind.PROMPT)
    assert [p.name for p in prompts] == ["summarize-directory", "generate-note", "find-related"]
    assert len({p.func for p in prompts}) == len(prompts)
    listed = {p.name: [(a.name, a.required, a.complete) for a in prompt_arguments(p)] for p in prompts}
    assert listed == {
        "summarize-directory": [("vault", True, "vault"), ("path", False, "folder")],
        "generate-note": [("vault", True, "vault"), ("topic", True, "none"), ("folder", False, "folder")],
        "find-related": [("vault", True, "vault"), ("path", True, "note")],
    }


def test_lone_surrogates_in_prompt_arguments_are_invalid(runtime: ToolRuntime, tmp_path: Path) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    with pytest.raises(BadRequest) as info:
        anyio.run(get_prompt, ctx, "find-related", {"vault": "notes", "path": "A\ud800.md"})
    assert info.value.code == "invalid_argument"
    record = audit(tmp_path)[-1]
    assert record["tool"] == "prompts/get" and record["action"] == "mcp_prompt_get"
    assert record["result"] == "invalid_argument"


def test_a_prompt_argument_is_checked_by_its_model(runtime: ToolRuntime, tmp_path: Path) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    for args in ({"vault": "notes", "topic": "   "}, {"vault": "notes", "topic": "x" * 501}, {"topic": "x"}):
        with pytest.raises(BadRequest) as info:
            anyio.run(get_prompt, ctx, "generate-note", args)
        assert info.value.code == "invalid_argument" and info.value.hint == "see prompts/list"
    op, text = anyio.run(get_prompt, ctx, "generate-note", {"vault": " notes ", "topic": " Tea "})
    assert op.name == "generate-note" and '"Tea"' in text  # stripped, as before
    kept = audit(tmp_path)[-1]
    assert kept["args"]["topic"] == "<5 chars>" and kept["args"]["name"] == "generate-note"  # the raw length


def test_vault_switches_is_a_tool_for_admins_only(runtime: ToolRuntime, tmp_path: Path) -> None:
    """The admins' view of the declared vaults runs through the door: audited, and refused to anyone else."""
    from obsigate.tools.api import vault_switches

    admin = Principal(name="root", is_admin=True, vaults=None, auth_kind="jwt")
    switches = anyio.run(vault_switches, ToolContext(admin, runtime, mode="web"))
    assert [v["name"] for v in switches] == list(runtime.workspace.vaults)
    assert all(set(v) == {"name", "read_only", "destructive_tools"} for v in switches)
    with pytest.raises(ServiceError) as info:
        anyio.run(vault_switches, ToolContext(ALICE, runtime, mode="web"))
    assert info.value.code == "forbidden"
    records = [r for r in audit(tmp_path) if r.get("tool") == "vault_switches"]
    assert [(r["user"], r["result"]) for r in records] == [("root", "ok"), ("alice", "forbidden")], records


def test_an_exhausted_budget_never_locks_an_admin_out_of_the_vault_switches(runtime: ToolRuntime) -> None:
    """The admins' pages read the switches on every load (and check grants against them): an agent's spent
    rate budget refuses the vault calls, never that list (found by the issue-17 break-in run)."""
    import dataclasses

    from obsigate.tools.api import vault_switches
    from obsigate.tools.ratelimit import ToolRateLimiter

    limited = dataclasses.replace(runtime, limiter=ToolRateLimiter(2, 60))
    admin = ToolContext(Principal(name="root", is_admin=True, vaults=None, auth_kind="jwt"), limited, mode="rest")
    for _ in range(2):
        anyio.run(call_tool, admin, "list_vaults", {})
    with pytest.raises(ServiceError) as info:
        anyio.run(call_tool, admin, "list_vaults", {})
    assert info.value.code == "rate_limited"
    for _ in range(3):
        assert [v["name"] for v in anyio.run(vault_switches, admin)] == ["notes", "other"]


@pytest.mark.parametrize(("uri", "path"), [("vault://", None), ("vault:///Home.md", "Home.md")])
def test_a_resource_naming_no_vault_is_invalid_not_an_internal_error(
    runtime: ToolRuntime, uri: str, path: str | None
) -> None:
    from obsigate.tools.api import read_resource

    with pytest.raises(ServiceError) as info:
        anyio.run(read_resource, ToolContext(ALICE, runtime, mode="mcp"), uri, "", path)
    assert info.value.code == "invalid_argument"
