"""list_backups and diff_backup through the real tool layer (call_tool), over an indexed vault with a real
backup store."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.domain.storage.backups import BackupStore
from obsigate.tools.api import REGISTRY, Scope, ServiceError, ToolContext, call_tool
from obsigate.tools.context import ToolRuntime

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
UNKNOWN = "20200101T000000.000000Z-0000"


@pytest.fixture
def rt(runtime: ToolRuntime, tmp_path: Path) -> ToolRuntime:
    runtime.workspace.backups = BackupStore(tmp_path / "data" / "backups")
    return runtime


def run(rt: ToolRuntime, name: str, args: dict, principal: Principal = ANONYMOUS, mode: str = "mcp") -> dict:
    return anyio.run(call_tool, ToolContext(principal, rt, mode=mode), name, args)


def fails(rt: ToolRuntime, name: str, args: dict, principal: Principal = ANONYMOUS) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        run(rt, name, args, principal)
    return err.value


def test_both_tools_are_read_only_and_offered_everywhere() -> None:
    for name, params in (
        ("list_backups", ["vault", "path", "limit", "offset"]),
        ("diff_backup", ["vault", "path", "version", "compare_with"]),
    ):
        spec = REGISTRY.get(name)
        assert spec is not None and list(spec.input_schema["properties"]) == params
        assert spec.risk == "read" and spec.scopes == {Scope.IN_APP, Scope.MCP}
        assert spec.annotations["readOnlyHint"] is True and spec.annotations["destructiveHint"] is False
        assert spec.input_schema.get("additionalProperties") is False
        assert "truncated" in spec.output_schema["properties"]


def test_list_then_diff_then_find_a_deleted_note(rt: ToolRuntime) -> None:
    store = rt.workspace.backups
    assert store is not None
    ideas = rt.workspace.vaults["notes"].root / "Ideas.md"
    first = store.save("notes", "Ideas.md", ideas.read_bytes(), reason="edit_file")
    ideas.write_text("# Ideas\n\nA tidepool sensor network. #project/sensors\n\n- [x] sketch the buoy\n")
    second = store.save("notes", "Ideas.md", ideas.read_bytes(), reason="delete_file")
    ideas.unlink()

    listed = run(rt, "list_backups", {"vault": "notes", "path": "Ideas.md"})
    assert listed["vault"] == "notes" and listed["path"] == "Ideas.md" and listed["total"] == 2
    assert [v["version"] for v in listed["versions"]] == [second, first]
    assert [(v["reason"], v["deleted"]) for v in listed["versions"]] == [("delete_file", True), ("edit_file", False)]
    assert listed["truncated"] is False

    between = run(rt, "diff_backup", {"vault": "notes", "path": "Ideas.md", "version": first, "compare_with": second})
    assert between["compare_with"] == second and between["truncated"] is False
    assert "-- [ ] sketch the buoy" in between["diff"] and "+- [x] sketch the buoy" in between["diff"]
    now = run(rt, "diff_backup", {"vault": "notes", "path": "Ideas.md", "version": second})
    assert now["compare_with"] is None and now["diff"].splitlines()[1] == "+++ Ideas.md (absent now)"
    assert run(rt, "list_backups", {"vault": "notes", "path": "Never/Saved.md"})["versions"] == []


def test_secrets_never_leave_through_a_diff(rt: ToolRuntime) -> None:
    store = rt.workspace.backups
    assert store is not None
    version = store.save(
        "notes", "Projects/Secret.md", f"# Credentials\n\npassword: {SECRET}\n".encode(), reason="edit_file"
    )
    out = run(rt, "diff_backup", {"vault": "notes", "path": "Projects/Secret.md", "version": version})
    assert SECRET not in str(out) and "[REDACTED:" in out["diff"]


def test_errors_have_their_codes(rt: ToolRuntime) -> None:
    alice = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
    assert fails(rt, "list_backups", {"vault": "other", "path": "Private.md"}, alice).code == "vault_access_denied"
    assert fails(rt, "list_backups", {"vault": "notes", "path": "../other/Private.md"}).code == "path_outside_vault"
    assert fails(rt, "list_backups", {"vault": "notes", "path": ".obsidian/app.json"}).code == "path_outside_vault"
    assert fails(rt, "diff_backup", {"vault": "notes", "path": "Home.md", "version": UNKNOWN}).code == "not_found"
    bad = fails(rt, "diff_backup", {"vault": "notes", "path": "Home.md", "version": "latest"})
    assert bad.code == "invalid_argument" and bad.hint and "list_backups" in bad.hint
    assert fails(rt, "diff_backup", {"vault": "notes", "path": "Home.md"}).code == "invalid_argument"
    assert fails(rt, "list_backups", {"vault": "notes", "path": "Home.md", "limit": 0}).code == "invalid_argument"
    rt.workspace.backups = None
    assert fails(rt, "list_backups", {"vault": "notes", "path": "Home.md"}).code == "unavailable"


def test_vault_grants_are_checked_before_the_path_and_the_store(rt: ToolRuntime) -> None:
    """The services take a permitted vault: the grant checks (once, in the tool layer) come first."""
    alice = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
    assert fails(rt, "list_backups", {"vault": "other", "path": "Private.md"}, alice).code == "vault_access_denied"
    assert fails(rt, "list_backups", {"vault": "nope", "path": "A.md"}).code == "not_found"
    assert fails(rt, "list_backups", {"vault": "other", "path": "../escape.md"}, alice).code == "vault_access_denied"
    rt.workspace.backups = None
    denied = fails(rt, "diff_backup", {"vault": "other", "path": "Private.md", "version": UNKNOWN}, alice)
    assert denied.code == "vault_access_denied"  # access is checked before the store


def test_a_long_diff_fits_the_result_budget(rt: ToolRuntime) -> None:
    store = rt.workspace.backups
    assert store is not None
    long = rt.workspace.vaults["notes"].root / "Long.md"
    long.write_text("".join(f"line {i}\n" for i in range(40_000)))
    version = store.save("notes", "Long.md", "".join(f"LINE {i}\n" for i in range(40_000)).encode(), reason="edit_file")
    out = run(rt, "diff_backup", {"vault": "notes", "path": "Long.md", "version": version})
    assert out["truncated"] is True and out["diff"].endswith("compare narrower versions or read the backup\n")
    assert (
        "budget" not in out["notice"]
    )  # cut by the service on a line boundary, not by the budget (issue 9: truncated has a notice)


def test_every_backed_up_path_is_paged(rt: ToolRuntime) -> None:
    """Issue 9 item 1: past 200 backed-up paths, limit/offset/next_offset reach every one (was: 200 and
    truncated, with no way on)."""
    store = rt.workspace.backups
    assert store is not None
    paths = {f"Old/Note {i:03}.md" for i in range(230)}
    for p in sorted(paths):
        store.save("notes", p, b"# gone\n", reason="delete_file", deleted=True)
    first = run(rt, "list_backups", {"vault": "notes"})
    assert (len(first["files"]), first["total"], first["offset"], first["truncated"], first["next_offset"]) == (
        200,
        230,
        0,
        True,
        200,
    )
    seen, offset = [], 0
    while offset is not None:
        page = run(rt, "list_backups", {"vault": "notes", "limit": 64, "offset": offset})
        assert page["offset"] == offset and len(page["files"]) <= 64 and page["total"] == 230
        seen += [f["path"] for f in page["files"]]
        offset = page["next_offset"]
    assert page["truncated"] is False and len(seen) == 230 and set(seen) == paths
    past = run(rt, "list_backups", {"vault": "notes", "offset": 500})
    assert past["files"] == [] and past["next_offset"] is None and past["truncated"] is False
    # a file's versions page the same way
    for n in range(3):
        store.save("notes", "Ideas.md", f"v{n}\n".encode(), reason="edit_file")
    versions = run(rt, "list_backups", {"vault": "notes", "path": "Ideas.md", "limit": 2})
    assert (len(versions["versions"]), versions["total"], versions["next_offset"]) == (2, 3, 2)
    rest = run(rt, "list_backups", {"vault": "notes", "path": "Ideas.md", "limit": 2, "offset": 2})
    assert len(rest["versions"]) == 1 and rest["next_offset"] is None
    assert fails(rt, "list_backups", {"vault": "notes", "limit": 1001}).code == "invalid_argument"
    assert fails(rt, "list_backups", {"vault": "notes", "offset": -1}).code == "invalid_argument"
