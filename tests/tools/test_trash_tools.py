"""The trash (list_trash, restore_trash) through the real tool layer, over an indexed vault with a real backup
store: deletes made by the real delete tools, restores written to disk."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.domain.storage.backups import BackupStore
from obsigate.domain.storage.journal import ChangeJournal
from obsigate.tools.api import REGISTRY, Scope, ServiceError, ToolContext, call_tool
from obsigate.tools.context import ToolRuntime

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")


@pytest.fixture
def rt(runtime: ToolRuntime, tmp_path: Path) -> ToolRuntime:
    runtime.workspace.backups = BackupStore(tmp_path / "data" / "backups")
    runtime.workspace.journal = ChangeJournal(tmp_path / "data")
    return runtime


def run(rt: ToolRuntime, name: str, args: dict, principal: Principal = ANONYMOUS, mode: str = "rest") -> dict:
    """A person's own call (the web app's REST front): writes run confirmed, as REST runs them."""
    return anyio.run(call_tool, ToolContext(principal, rt, mode=mode, confirmed=True), name, args)


def fails(rt: ToolRuntime, name: str, args: dict, principal: Principal = ANONYMOUS, mode: str = "rest") -> ServiceError:
    with pytest.raises(ServiceError) as err:
        run(rt, name, args, principal, mode)
    return err.value


def root(rt: ToolRuntime) -> Path:
    return rt.workspace.vaults["notes"].root


def test_the_trash_tools_are_the_web_apps_only() -> None:
    """Not offered to models (MCP or the in-app assistant: they find deleted files with list_backups), so
    MCP's tools/list does not grow; REST, the web app and the CLI see every tool."""
    trash = REGISTRY.get("list_trash")
    assert trash is not None and trash.risk == "read" and trash.scopes == frozenset()
    assert list(trash.input_schema["properties"]) == ["vault", "limit", "offset"]
    for name in ("restore_trash", "propose_restore_trash", "apply_restore_trash"):
        assert REGISTRY.get(name).scopes == frozenset()
    assert not {"list_trash", "restore_trash"} & {s.name for s in REGISTRY.for_scope(Scope.MCP)}
    assert not {"list_trash", "restore_trash"} & {s.name for s in REGISTRY.for_scope(Scope.IN_APP)}


def test_models_cannot_call_them(rt: ToolRuntime) -> None:
    for mode in ("mcp", "in_app"):
        assert fails(rt, "list_trash", {"vault": "notes"}, mode=mode).code == "unknown_tool"


def test_delete_then_trash_then_restore_a_file(rt: ToolRuntime) -> None:
    ideas = root(rt) / "Ideas.md"
    content = ideas.read_bytes()
    assert run(rt, "list_trash", {"vault": "notes"})["entries"] == []
    run(rt, "delete_file", {"vault": "notes", "path": "Ideas.md"})
    assert not ideas.exists()

    trash = run(rt, "list_trash", {"vault": "notes"})
    assert trash["total"] == 1 and trash["next_offset"] is None
    [entry] = trash["entries"]
    assert (entry["kind"], entry["path"], entry["count"]) == ("file", "Ideas.md", 1)
    [f] = entry["files"]
    assert (f["path"], f["reason"], f["size"]) == ("Ideas.md", "delete_file", len(content))
    assert entry["deleted_at"] == f["deleted_at"] and f["deleted_at"].endswith("+00:00")

    done = run(rt, "restore_trash", {"vault": "notes", "path": "Ideas.md"})
    assert done["changes"] == [{"path": "Ideas.md", "action": "create", "to": None}]
    assert ideas.read_bytes() == content
    assert run(rt, "list_trash", {"vault": "notes"})["entries"] == []
    assert run(rt, "search_fulltext", {"q": "sketch buoy", "vault": "notes"})["hits"][0]["path"] == "Ideas.md"


def test_a_deleted_folder_is_one_entry_and_comes_back_whole(rt: ToolRuntime) -> None:
    (root(rt) / "Projects" / "Deep").mkdir()
    (root(rt) / "Projects" / "Deep" / "Low.md").write_text("# Low\n")
    before = {p.relative_to(root(rt)).as_posix(): p.read_bytes() for p in (root(rt) / "Projects").rglob("*.md")}
    run(rt, "delete_file", {"vault": "notes", "path": "Ideas.md"})
    run(rt, "delete_directory", {"vault": "notes", "path": "Projects", "recursive": True})
    assert not (root(rt) / "Projects").exists()

    entries = run(rt, "list_trash", {"vault": "notes"})["entries"]
    assert [(e["kind"], e["path"], e["count"]) for e in entries] == [("folder", "Projects", 3), ("file", "Ideas.md", 1)]
    assert [f["path"] for f in entries[0]["files"]] == sorted(before)
    assert {f["reason"] for f in entries[0]["files"]} == {"delete_directory"}

    # one file of the folder: its folders are made again, and the rest stays in the trash
    run(rt, "restore_trash", {"vault": "notes", "path": "Projects/Deep/Low.md"})
    assert (root(rt) / "Projects" / "Deep" / "Low.md").read_text() == "# Low\n"
    left = run(rt, "list_trash", {"vault": "notes"})["entries"]
    assert sorted((e["kind"], e["path"], e["count"]) for e in left) == [
        ("file", "Ideas.md", 1), ("file", "Projects/Plan.md", 1), ("file", "Projects/Secret.md", 1)]  # fmt: skip

    run(rt, "restore_trash", {"vault": "notes", "path": "Projects"})
    assert {p.relative_to(root(rt)).as_posix(): p.read_bytes() for p in (root(rt) / "Projects").rglob("*.md")} == before
    assert [e["path"] for e in run(rt, "list_trash", {"vault": "notes"})["entries"]] == ["Ideas.md"]


def test_nothing_is_restored_over_a_file(rt: ToolRuntime) -> None:
    run(rt, "delete_directory", {"vault": "notes", "path": "Projects", "recursive": True})
    (root(rt) / "Projects").mkdir()
    (root(rt) / "Projects" / "Plan.md").write_text("# a new plan\n")
    # the re-created file leaves the trash; the folder's other file is still there, under a folder that exists
    entries = run(rt, "list_trash", {"vault": "notes"})["entries"]
    assert [(e["kind"], e["path"]) for e in entries] == [("file", "Projects/Secret.md")]
    err = fails(rt, "restore_trash", {"vault": "notes", "path": "Projects/Plan.md"})
    assert (err.code, err.http_status) == ("exists", 409)
    assert (root(rt) / "Projects" / "Plan.md").read_text() == "# a new plan\n"
    assert fails(rt, "restore_trash", {"vault": "notes", "path": "Never.md"}).code == "not_found"
    run(rt, "restore_trash", {"vault": "notes", "path": "Projects"})  # what the trash holds under it: Secret.md
    assert (root(rt) / "Projects" / "Secret.md").exists() and (
        root(rt) / "Projects" / "Plan.md"
    ).read_text() == "# a new plan\n"


def test_a_file_where_the_folder_was_is_refused_with_a_code(rt: ToolRuntime) -> None:
    run(rt, "delete_directory", {"vault": "notes", "path": "Projects", "recursive": True})
    (root(rt) / "Projects").write_text("a file named like the old folder\n")
    err = fails(rt, "restore_trash", {"vault": "notes", "path": "Projects/Plan.md"})
    assert (err.code, err.http_status) == ("not_a_directory", 400)
    assert (root(rt) / "Projects").read_text() == "a file named like the old folder\n"


def test_a_deleted_file_and_a_deleted_folder_of_one_path_are_two_entries(rt: ToolRuntime) -> None:
    """'Sub/' deleted, then a file 'Sub' made and deleted: two entries, and kind says which one comes back (they
    were one 'file' entry of count 2, whose restore wrote 'Sub' and then failed below it with a 500)."""
    run(rt, "create_file", {"vault": "notes", "path": "Sub/a.md", "content": "original a\n"})
    run(rt, "delete_directory", {"vault": "notes", "path": "Sub", "recursive": True})
    run(rt, "create_file", {"vault": "notes", "path": "Sub", "content": "a file called Sub\n"})
    run(rt, "delete_file", {"vault": "notes", "path": "Sub"})
    entries = run(rt, "list_trash", {"vault": "notes"})["entries"]
    assert [(e["kind"], e["path"], e["count"], [f["path"] for f in e["files"]]) for e in entries] == [
        ("file", "Sub", 1, ["Sub"]), ("folder", "Sub", 1, ["Sub/a.md"])]  # fmt: skip

    assert fails(rt, "restore_trash", {"vault": "notes", "path": "Sub", "kind": "dir"}).code == "invalid_argument"
    done = run(rt, "restore_trash", {"vault": "notes", "path": "Sub", "kind": "folder"})
    assert done["summary"] == "restore folder Sub from the trash: 1 file"
    assert (root(rt) / "Sub" / "a.md").read_text() == "original a\n"
    # the file 'Sub' now stands where a folder is: refused by the planner, nothing written
    err = fails(rt, "restore_trash", {"vault": "notes", "path": "Sub", "kind": "file"})
    assert (err.code, err.http_status) == ("exists", 409)
    assert [(e["kind"], e["path"]) for e in run(rt, "list_trash", {"vault": "notes"})["entries"]] == []
    assert (root(rt) / "Sub").is_dir()


def test_without_kind_the_file_comes_back_and_the_folder_below_it_is_refused(rt: ToolRuntime) -> None:
    run(rt, "create_file", {"vault": "notes", "path": "Sub/a.md", "content": "original a\n"})
    run(rt, "delete_directory", {"vault": "notes", "path": "Sub", "recursive": True})
    run(rt, "create_file", {"vault": "notes", "path": "Sub", "content": "a file called Sub\n"})
    run(rt, "delete_file", {"vault": "notes", "path": "Sub"})
    assert run(rt, "restore_trash", {"vault": "notes", "path": "Sub"})["summary"] == "restore Sub from the trash"
    assert (root(rt) / "Sub").read_text() == "a file called Sub\n"
    for args in ({"path": "Sub", "kind": "folder"}, {"path": "Sub/a.md"}):
        err = fails(rt, "restore_trash", {"vault": "notes", **args})
        assert (err.code, err.http_status) == ("not_a_directory", 400), args
    assert (root(rt) / "Sub").read_text() == "a file called Sub\n"
    assert not list(rt.workspace.journal.folder.iterdir())  # type: ignore[union-attr]


def test_a_folder_holding_a_file_and_a_folder_of_one_name_is_refused_whole(rt: ToolRuntime) -> None:
    """Inside one deleted folder, a deleted file 'Box/x' and a deleted folder 'Box/x/': restoring 'Box' whole
    would need 'Box/x' to be both; refused before anything is written, each file still comes back alone."""
    run(rt, "create_file", {"vault": "notes", "path": "Box/x/y.md", "content": "y\n"})
    run(rt, "delete_directory", {"vault": "notes", "path": "Box/x", "recursive": True})
    run(rt, "create_file", {"vault": "notes", "path": "Box/x", "content": "x\n"})
    run(rt, "delete_directory", {"vault": "notes", "path": "Box", "recursive": True})
    [entry] = run(rt, "list_trash", {"vault": "notes"})["entries"]
    assert (entry["kind"], entry["path"], entry["count"]) == ("folder", "Box", 2)
    err = fails(rt, "restore_trash", {"vault": "notes", "path": "Box", "kind": "folder"})
    assert (err.code, err.http_status) == ("not_a_directory", 400) and not (root(rt) / "Box").exists()
    run(rt, "restore_trash", {"vault": "notes", "path": "Box/x/y.md"})
    assert (root(rt) / "Box" / "x" / "y.md").read_text() == "y\n"


def test_a_rename_is_not_a_deletion(rt: ToolRuntime) -> None:
    run(rt, "rename_file", {"vault": "notes", "path": "Ideas.md", "new_name": "Thoughts.md"})
    assert run(rt, "list_backups", {"vault": "notes"})["files"]  # the old path has a backup...
    assert run(rt, "list_trash", {"vault": "notes"})["entries"] == []  # ...but nothing was deleted


def test_paging_and_permissions(rt: ToolRuntime) -> None:
    store = rt.workspace.backups
    assert store is not None
    for i in range(7):
        store.save("notes", f"Gone {i}.md", b"x\n", reason="delete_file")
    first = run(rt, "list_trash", {"vault": "notes", "limit": 3})
    assert (len(first["entries"]), first["total"], first["truncated"], first["next_offset"]) == (3, 7, True, 3)
    assert [e["path"] for e in first["entries"]] == ["Gone 6.md", "Gone 5.md", "Gone 4.md"]  # newest first
    last = run(rt, "list_trash", {"vault": "notes", "limit": 3, "offset": 6})
    assert [e["path"] for e in last["entries"]] == ["Gone 0.md"] and last["next_offset"] is None
    assert fails(rt, "list_trash", {"vault": "notes", "limit": 0}).code == "invalid_argument"

    assert fails(rt, "list_trash", {"vault": "other"}, ALICE).code == "vault_access_denied"
    assert fails(rt, "restore_trash", {"vault": "other", "path": "Private.md"}, ALICE).code == "vault_access_denied"
    assert fails(rt, "restore_trash", {"vault": "notes", "path": "../x.md"}).code == "path_outside_vault"
    assert run(rt, "list_trash", {"vault": "notes"}, ALICE)["total"] == 7
    rt.workspace.backups = None
    assert fails(rt, "list_trash", {"vault": "notes"}).code == "unavailable"
