"""The change journal on real folders: a change cut short is rolled back at the next start, a failing step
is rolled back at once through the same undo records, temp files of killed writes are swept, and a delete
leaves nothing hidden in the vault (issue 9). kill -9 of a real server: tests/e2e/test_kill.py."""

from __future__ import annotations

import errno
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import write_tree

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.storage.backups import BackupStore
from obsigate.domain.storage.journal import ChangeJournal, undo_record
from obsigate.domain.vault import Vault
from obsigate.services import mutation_exec as ex
from obsigate.services.errors import ServiceError
from obsigate.services.workspace import Workspace

NOTES = {"Home.md": "# Home\n[[Area/A]]\n", "Area/A.md": "# A\n", "Area/Deep/B.md": "# B\n", "Area/Empty/.keep": ""}


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    root = write_tree(tmp_path / "v", {k: v for k, v in NOTES.items() if not k.endswith(".keep")})
    (root / "Area" / "Empty").mkdir()
    index = VaultIndex(tmp_path / "index.sqlite3")
    vaults = {"v": Vault("v", root)}
    indexer = Indexer(index, vaults)
    indexer.refresh_all()
    yield Workspace(vaults=vaults, index=index, indexer=indexer, backups=BackupStore(tmp_path / "backups"),
                    journal=ChangeJournal(tmp_path / "data"))  # fmt: skip
    index.close()


def tree(root: Path) -> dict[str, bytes | None]:
    """Every file (bytes) and folder (None) under ``root``."""
    return {p.relative_to(root).as_posix(): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def test_a_change_cut_short_is_rolled_back_at_the_next_start(ws: Workspace) -> None:
    """The steps land, the process 'dies' before the commit: recovery puts back every byte and folder."""
    vault = ws.vaults["v"]
    before = tree(vault.root)
    out = ex.Outcome()
    for rel in ("Area", "Home.md"):
        ex._backup(ws, vault, rel, "test", out)
    versions = {b.path: b.version for b in out.backups}
    entry = ws.journal.begin("v", "delete_directory")  # type: ignore[union-attr]
    ex._write(vault, ex.Write("Home.md", b"# Home\nrewritten\n"), entry, versions)
    ex._move(vault, ex.Move("Home.md", "New/Home.md"), entry)
    ex._remove(ws, vault, ex.Remove("Area"), entry, versions, "test")
    assert not (vault.root / "Area").exists() and tree(vault.root) != before
    recovered = ex.recover(ws)  # what bootstrap runs before serving
    assert tree(vault.root) == before
    assert [(r.vault, r.reason) for r in recovered] == [("v", "delete_directory")]
    assert {"Home.md", "Area/A.md", "Area/Deep/B.md"} <= set(recovered[0].paths)
    assert not list(ws.journal.folder.iterdir())  # type: ignore[union-attr]
    assert ex.recover(ws) == []


def test_a_step_intended_but_not_done_is_undone_harmlessly(ws: Workspace) -> None:
    vault = ws.vaults["v"]
    before = tree(vault.root)
    entry = ws.journal.begin("v", "move_path")  # type: ignore[union-attr]
    entry.intend({"op": "move", "src": "Home.md", "dst": "Area/Home.md"})  # killed before the rename
    entry.intend({"op": "write", "path": "Fresh.md", "backup": None})  # killed before the create
    assert [r.paths for r in ex.recover(ws)] == [["Fresh.md", "Home.md", "Area/Home.md"]]
    assert tree(vault.root) == before


def test_a_failing_step_rolls_back_through_the_journal(ws: Workspace) -> None:
    vault = ws.vaults["v"]
    before = tree(vault.root)
    steps = [ex.Write("Home.md", b"changed\n"), ex.Write("New/Deep/C.md", b"c\n", exclusive=True),
             ex.Write("Area/A.md", b"refused\n", exclusive=True)]  # fmt: skip
    with pytest.raises(ServiceError) as info:
        ex.execute(ws, vault, steps, reason="test")
    assert info.value.code == "exists" and tree(vault.root) == before  # New/ and New/Deep/ removed again
    assert not list(ws.journal.folder.iterdir())  # type: ignore[union-attr]


def test_a_delete_leaves_nothing_hidden_and_keeps_every_file_in_the_backups(ws: Workspace) -> None:
    vault = ws.vaults["v"]
    out = ex.execute(ws, vault, [ex.Remove("Area")], reason="delete_directory")
    assert not (vault.root / "Area").exists()
    assert [p.name for p in vault.root.iterdir()] == ["Home.md"]  # no .obsigate-deleted-* folder
    assert {b.path for b in out.backups} == {"Area/A.md", "Area/Deep/B.md"}
    assert {f["path"] for f in ws.backups.files("v")} >= {"Area/A.md", "Area/Deep/B.md"}  # type: ignore[union-attr]


def test_temp_files_of_killed_writes_are_swept(ws: Workspace) -> None:
    root = ws.vaults["v"].root
    stale = [root / ".Home.md.a1b2c3d4e5f6.obsigate.tmp", root / "Area" / "Deep" / ".B.md.0f0f0f0f0f0f.obsigate.tmp"]
    for path in stale:
        path.write_bytes(b"half a note")
    (root / ".obsidian").mkdir()
    kept = root / ".obsidian" / ".x.md.aaaaaaaaaaaa.obsigate.tmp"  # hidden folders are not ours to clean
    kept.write_bytes(b"")
    assert ex.sweep_temps(ws) == 2
    assert not any(p.exists() for p in stale) and kept.exists()


def test_recovery_never_undoes_an_edit_made_while_the_server_was_down(ws: Workspace) -> None:
    """A file changed since the interrupted change wrote it (a person editing in Obsidian before the
    restart) is kept as it is and reported; everything else is rolled back. The report is made before the
    journal entry is forgotten, so a crash in between repeats it instead of losing it."""
    vault = ws.vaults["v"]
    out = ex.Outcome()
    ex._backup(ws, vault, "Home.md", "test", out)
    ex._backup(ws, vault, "Area/A.md", "test", out)
    versions = {b.path: b.version for b in out.backups}
    entry = ws.journal.begin("v", "replace_in_files")  # type: ignore[union-attr]
    ex._write(vault, ex.Write("Home.md", b"# Home\nreplaced\n"), entry, versions)
    ex._write(vault, ex.Write("Area/A.md", b"# A\nreplaced\n"), entry, versions)
    (vault.root / "Area" / "A.md").write_bytes(b"# A\nreplaced\nand my own line, typed after the crash\n")
    seen_pending: list[bool] = []

    def report(change: ex.Recovered) -> None:
        seen_pending.append(any(ws.journal.folder.iterdir()))  # type: ignore[union-attr]

    [change] = ex.recover(ws, report)
    assert (vault.root / "Home.md").read_bytes() == NOTES["Home.md"].encode()  # rolled back
    assert (vault.root / "Area" / "A.md").read_bytes().endswith(b"typed after the crash\n")  # theirs, kept
    assert change.kept == ["Area/A.md"] and seen_pending == [True]
    assert not list(ws.journal.folder.iterdir())  # type: ignore[union-attr]


def test_a_plan_whose_file_stands_where_its_own_folder_goes_is_refused_before_any_step(ws: Workspace) -> None:
    """The trash's old bug: a file 'Sub' and 'Sub/a.md' in one change. Refused with a code before anything is
    journalled or written (it was a raw NotADirectoryError, a 500, and a journal entry left behind)."""
    vault = ws.vaults["v"]
    before = tree(vault.root)
    steps = [ex.Write("Sub", b"a file\n", exclusive=True), ex.Write("Sub/a.md", b"# a\n", exclusive=True)]
    with pytest.raises(ServiceError) as info:
        ex.execute(ws, vault, steps, reason="restore_trash")
    assert (info.value.code, info.value.http_status) == ("not_a_directory", 400)
    assert tree(vault.root) == before and not list(ws.journal.folder.iterdir())  # type: ignore[union-attr]


def test_undoing_a_create_below_what_is_now_a_file_is_a_no_op(ws: Workspace) -> None:
    """A create never done, whose folder is a file: the path is absent (ENOTDIR), so there is nothing to undo;
    this undo raised, which kept the entry of a failed change for the next start."""
    vault = ws.vaults["v"]
    (vault.root / "Sub").write_bytes(b"a file\n")
    record = {"op": "write", "path": "Sub/a.md", "backup": None, "after": "0" * 64}
    assert undo_record("v", record, *ex._locator(ws)) == ["Sub/a.md"]
    assert (vault.root / "Sub").read_bytes() == b"a file\n"


@pytest.mark.parametrize(
    ("refusal", "code", "status"),
    [(errno.ENOSPC, "storage_full", 507), (errno.EDQUOT, "storage_full", 507), (errno.EROFS, "write_failed", 503)],
)
def test_a_step_the_disk_refuses_is_answered_rolled_back_and_its_entry_closed(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch, refusal: int, code: str, status: int
) -> None:
    vault = ws.vaults["v"]
    before = tree(vault.root)
    real, calls = ex.vault_fs.write_file, []

    def refusing_disk(root: Path, rel: str, data: bytes, *, exclusive: bool = False) -> None:
        calls.append(rel)
        if len(calls) == 2:
            raise OSError(refusal, os.strerror(refusal))
        real(root, rel, data, exclusive=exclusive)

    monkeypatch.setattr(ex.vault_fs, "write_file", refusing_disk)
    steps = [ex.Write("Home.md", b"changed\n"), ex.Write("New/C.md", b"c\n", exclusive=True)]
    with pytest.raises(ServiceError) as info:
        ex.execute(ws, vault, steps, reason="test")
    assert (info.value.code, info.value.http_status) == (code, status)
    assert "New/C.md" in info.value.message and "nothing was changed" in info.value.message
    assert tree(vault.root) == before and not list(ws.journal.folder.iterdir())  # type: ignore[union-attr]


def test_a_live_roll_back_that_cannot_undo_a_step_still_closes_the_entry(ws: Workspace) -> None:
    """This process goes on serving after the failure, so the entry must not outlive it: replayed at the next
    start it would undo what came later. The paths left changed are returned (the error names them)."""
    vault = ws.vaults["v"]
    entry = ws.journal.begin("v", "edit_file")  # type: ignore[union-attr]
    written = hashlib.sha256((vault.root / "Home.md").read_bytes()).hexdigest()  # as if this change wrote it
    entry.intend({"op": "write", "path": "Home.md", "backup": "gone", "after": written})
    entry.intend({"op": "mkdir", "path": "Fresh"})
    (vault.root / "Fresh").mkdir()
    locate, _ = ex._locator(ws)

    def damaged(vault: str, rel: str, version: str) -> bytes:
        raise LookupError("no such backup")

    assert entry.roll_back(locate, damaged) == ["Home.md"]
    assert not (vault.root / "Fresh").exists()  # the other undos still ran
    assert not list(ws.journal.folder.iterdir())  # type: ignore[union-attr]


def test_a_failed_restore_never_costs_a_later_change_at_the_next_start(tmp_path: Path) -> None:
    """The tester's sequence through the trash planners, on a real data dir, then a restart (a new workspace on
    the same data dir and vault, recovered as bootstrap does): a deleted folder 'Sub' and a deleted file 'Sub'
    are two trash entries; restoring the folder over the restored file is refused before any step; the note
    restored and edited afterwards survives the restart."""
    from obsigate.services import mutations as m
    from obsigate.services.backups import list_trash

    def open_ws() -> Workspace:
        vaults = {"v": Vault("v", root)}
        index = VaultIndex(tmp_path / f"index{len(opened)}.sqlite3")
        indexer = Indexer(index, vaults)
        indexer.refresh_all()
        opened.append(index)
        return Workspace(vaults=vaults, index=index, indexer=indexer, journal=ChangeJournal(tmp_path / "data"),
                         backups=BackupStore(tmp_path / "data" / "backups"))  # fmt: skip

    root = write_tree(tmp_path / "v", {"Home.md": "# Home\n"})
    opened: list[VaultIndex] = []
    ws = open_ws()
    vault = ws.vaults["v"]

    def apply(planner: str, **args: object) -> None:
        m.apply(ws, getattr(m, f"plan_{planner}"), vault, **args)

    def code(planner: str, **args: object) -> tuple[str, int]:
        with pytest.raises(ServiceError) as info:
            apply(planner, **args)
        return info.value.code, info.value.http_status

    apply("create_file", path="Sub/a.md", content="original a\n")
    apply("delete_directory", path="Sub", recursive=True)
    apply("create_file", path="Sub", content="a file called Sub\n")
    apply("delete_file", path="Sub")
    entries = list_trash(ws, vault).model_dump()["entries"]
    assert [(e["kind"], e["path"], e["count"], [f["path"] for f in e["files"]]) for e in entries] == [
        ("file", "Sub", 1, ["Sub"]), ("folder", "Sub", 1, ["Sub/a.md"])]  # fmt: skip

    apply("restore_trash", path="Sub", kind="file")
    assert code("restore_trash", path="Sub", kind="folder") == ("not_a_directory", 400)
    assert code("restore_trash", path="Sub/a.md") == ("not_a_directory", 400)
    assert not list(ws.journal.folder.iterdir())  # type: ignore[union-attr]
    apply("delete_file", path="Sub")
    apply("restore_trash", path="Sub", kind="folder")
    apply("edit_file", path="Sub/a.md", content="IMPORTANT NEW WORK\n")
    assert not list(ws.journal.folder.iterdir())  # type: ignore[union-attr]

    restarted = open_ws()
    assert ex.recover(restarted) == []
    assert (root / "Sub" / "a.md").read_text() == "IMPORTANT NEW WORK\n"
    for index in opened:
        index.close()
