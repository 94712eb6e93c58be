"""The vault grant is checked exactly once per call, by the tool layer (issue 8, item 1).

A real :class:`Workspace` (subclassed only to count) runs under the real registry, door, pipeline and
confirmation flow: every call that names a vault calls ``Workspace.get_vault`` once, and the tools and
services then work on what that check resolved (``ToolContext.vault`` / ``scope``).
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import pytest
from support import CountingWorkspace

from obsigate.auth.principal import Principal
from obsigate.domain.storage.backups import BackupStore
from obsigate.tools.api import ServiceError, ToolContext, call_tool
from obsigate.tools.completion import complete
from obsigate.tools.confirm.flow import Answer, settle
from obsigate.tools.confirm.store import ConfirmationService
from obsigate.tools.context import ToolRuntime
from obsigate.tools.operations import download_file
from obsigate.tools.prompts import get_prompt
from obsigate.tools.resources import read_resource

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")


@pytest.fixture
def rt(runtime: ToolRuntime, tmp_path: Path) -> ToolRuntime:
    """The shared test runtime (vaults ``notes`` and ``other``) over a counting workspace, with a backup store
    and confirmations."""
    ws = runtime.workspace
    fields = {f.name: getattr(ws, f.name) for f in dataclasses.fields(ws)}
    fields["backups"] = BackupStore(tmp_path / "data" / "backups")
    (tmp_path / "data").mkdir(exist_ok=True)
    return dataclasses.replace(
        runtime,
        workspace=CountingWorkspace(**fields),
        confirmations=ConfirmationService.in_data_dir(tmp_path / "data", ttl_s=300),
    )


def calls(rt: ToolRuntime) -> Counter[str]:
    ws = rt.workspace
    assert isinstance(ws, CountingWorkspace)
    return ws.calls


def counted(rt: ToolRuntime, run: Any) -> tuple[Any, Counter[str]]:
    """``run()``'s result and the permission calls it made."""
    calls(rt).clear()
    out = run()
    return out, Counter(calls(rt))


def tool(rt: ToolRuntime, name: str, args: dict[str, Any], mode: str = "mcp", who: Principal = ALICE) -> Any:
    return lambda: anyio.run(call_tool, ToolContext(who, rt, mode=mode), name, args)


ONCE = Counter({"get_vault": 1})


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("read_file", {"vault": "notes", "path": "Projects/Plan.md"}),
        ("search_fulltext", {"q": "budget", "vault": "notes"}),
        ("read_file_raw", {"vault": "notes", "path": "Home.md"}),
        ("list_directory", {"vault": "notes", "path": "Projects"}),
        ("list_all_files", {"vault": "notes"}),
        ("get_backlinks", {"vault": "notes", "path": "Home.md", "unlinked": True}),
        ("get_graph", {"vault": "notes", "path": "Home.md"}),
        ("search_advanced", {"q": "budget", "vault": "notes"}),
        ("list_tags", {"vault": "notes"}),
        ("search_paths", {"q": "plan", "vault": "notes"}),
        ("suggest_tags", {"q": "pro", "vault": "notes"}),
        ("list_recent", {"vault": "notes"}),
        ("list_backups", {"vault": "notes", "path": "Home.md"}),
    ],
)
def test_a_read_tool_naming_a_vault_checks_it_once(rt: ToolRuntime, name: str, args: dict[str, Any]) -> None:
    _, made = counted(rt, tool(rt, name, args))
    assert made == ONCE, name


def test_read_file_and_search_fulltext_check_the_vault_exactly_once(rt: ToolRuntime) -> None:
    read, made = counted(rt, tool(rt, "read_file", {"vault": "notes", "path": "Projects/Plan.md"}))
    assert made["get_vault"] == 1 and read["path"] == "Projects/Plan.md"
    found, made = counted(rt, tool(rt, "search_fulltext", {"q": "budget", "vault": "notes"}))
    assert made["get_vault"] == 1 and {h["vault"] for h in found["hits"]} == {"notes"} and found["hits"]


def test_without_a_vault_the_scope_is_every_accessible_vault_checked_once(rt: ToolRuntime) -> None:
    found, made = counted(rt, tool(rt, "search_fulltext", {"q": "tidepool"}))
    assert made == Counter({"accessible": 1}) and {h["vault"] for h in found["hits"]} == {"notes"}
    listed, made = counted(rt, tool(rt, "list_vaults", {}))
    assert made == Counter({"accessible": 1}) and [v["name"] for v in listed["vaults"]] == ["notes"]


def test_a_denied_vault_is_refused_by_its_one_check_before_any_path_error(rt: ToolRuntime) -> None:
    def refused() -> str:
        with pytest.raises(ServiceError) as info:
            tool(rt, "read_file", {"vault": "other", "path": "../../etc/passwd"})()
        return info.value.code

    code, made = counted(rt, refused)
    assert code == "vault_access_denied" and made == ONCE


def test_propose_and_apply_each_check_the_vault_exactly_once(rt: ToolRuntime) -> None:
    args = {"vault": "notes", "path": "Once.md", "content": "# Once\n"}
    proposal, made = counted(rt, tool(rt, "propose_create_file", args))
    assert made == ONCE and proposal["status"] == "proposed" and proposal["vault"] == "notes"
    token = proposal["confirmation_token"]
    applied, made = counted(rt, tool(rt, "apply_create_file", {"confirmation_token": token}))
    assert made == ONCE and applied["vault"] == "notes"
    assert (rt.workspace.vaults["notes"].root / "Once.md").read_text() == "# Once\n"


def test_an_inline_accept_checks_the_vault_once(rt: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    proposal = tool(rt, "propose_append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "more\n"})()
    out, made = counted(rt, lambda: anyio.run(settle, ctx, proposal, Answer.ACCEPT))
    assert made == ONCE and out["status"] == "applied"


def test_a_direct_confirmed_write_checks_the_vault_once(rt: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, rt, mode="rest", confirmed=True)
    args = {"vault": "notes", "path": "Direct.md", "content": "x\n"}
    out, made = counted(rt, lambda: anyio.run(call_tool, ctx, "create_file", args))
    assert made == ONCE and out["changes"][0]["path"] == "Direct.md"


def test_the_other_entry_points_check_the_vault_once(rt: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    prompt_args = {"vault": "notes", "path": "Projects/"}
    (_, text), made = counted(rt, lambda: anyio.run(get_prompt, ctx, "summarize-directory", prompt_args))
    # (``accessible`` once more: the tools the message may name, ``visible_tools``, not a vault grant)
    assert made == Counter({"get_vault": 1, "accessible": 1}) and '"Projects"' in text
    resource, made = counted(rt, lambda: anyio.run(read_resource, ctx, "vault://notes/Home.md", "notes", "Home.md"))
    assert made == ONCE and resource["kind"] == "file" and resource["path"] == "Home.md"
    info, made = counted(rt, lambda: anyio.run(read_resource, ctx, "vault://notes", "notes", None))
    assert made == ONCE and info == {"kind": "vault", "name": "notes", "notes": 4, "read_only": False}
    (data, mime), made = counted(rt, lambda: anyio.run(download_file, ctx, "notes", "Attachments/pic.png"))
    assert made == ONCE and data.startswith(b"\x89PNG") and mime == "image/png"

    def completion() -> list[str]:
        ask = complete(ctx, "ref/prompt", "find-related", "path", "Pl", {"vault": "notes"}, limiter=None)
        return anyio.run(lambda: ask)

    values, made = counted(rt, completion)
    assert made == ONCE and values[0] == "Projects/Plan.md"


def test_services_and_tool_functions_never_check_grants() -> None:
    """Only the tool layer's pipeline and entry points call the permission functions; services and the
    catalog's tool functions work on what ``permit`` resolved (``ctx.vault``, ``ctx.scope``)."""
    import obsigate

    root = Path(obsigate.__file__).parent
    checks = re.compile(r"\.(get_vault|scope|accessible)\(|allowed_vaults|\ballowed\s*[:,)]")
    for path in sorted([*root.glob("services/*.py"), *root.glob("tools/catalog/*.py")]):
        if path.name == "workspace.py":  # where the permission functions live
            continue
        found = [m.group(0) for m in checks.finditer(path.read_text(encoding="utf-8"))]
        assert not found, f"{path.relative_to(root)} checks vault grants: {found}"
