"""A full disk: a clear ``storage_full``, the note intact, the journal consistent, the server up (issue 20).

The vault and the data dir each live on a small tmpfs of their own (mounted by the test: root only, skipped with
the reason otherwise), under a real ``obsigate serve``. The test fills one disk with a file beside the vault (or
the data dir), then writes through the REST API:

- the vault's disk full: overwrite, append and create answer 507 ``storage_full`` (not ``write_failed``, not a
  500), nothing in the vault changed (no temp file left either), nothing left in the change journal, nothing
  reported as "not rolled back" (the undo of a write that never landed must not try to rewrite the old bytes);
- the data dir's disk full: the backup before an overwrite and the journal entry of a create cannot be written →
  ``storage_full``, no empty journal entry left behind, and an agent's proposal over MCP, which SQLite cannot
  store, is refused the same way; reads and searches go on; a note edited outside the server
  meanwhile cannot be indexed (SQLite's "database or disk is full"), and a clean stop still takes a moment, not the
  minute the index's committer used to wait for the failed transaction's full-text operations;
- an index transaction that meets the full disk fails with SQLite's own "database or disk is full" (SQLite has
  rolled it back itself: a second ROLLBACK used to raise "no transaction is active" over it), and the store
  takes the next transaction once there is room;
- a change-journal record or a tool-journal row the disk has room for only part of: each is an error (the
  step is not taken; the tool journal's transaction rolled back whole); neither leaves a torn line (``os.write`` writes what fits
  and returns short, the next write fails);
- space freed, the server starts again on the same folders with nothing to recover, indexes the outside edit, and
  the same writes land, the old bytes in the backups.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from robust.serving import Server
from support import free_port

from obsigate.domain.index.sqlite_store import MetaStore, put_diagnostic
from obsigate.domain.storage.journal import ChangeJournal
from obsigate.domain.storage.tool_journal import JournalEntry, ToolJournal
from obsigate.mcp.server import ERROR_META_KEY
from obsigate.services.errors import is_storage_full

pytestmark = pytest.mark.e2e

NOTES = {f"Note {i}.md": f"# Note {i}\n\nA tidepool note, number {i}.\n" for i in range(5)}
BIG = "x " * 60_000  # 120 KB: more than a full disk has left


def _mount(target: Path, size: str) -> str | None:
    """Mount a tmpfs of ``size`` at ``target``; the reason it could not, or ``None``."""
    if shutil.which("mount") is None:
        return "no mount command"
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(target)],
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    return None if done.returncode == 0 else f"mount -t tmpfs failed: {done.stderr.strip() or done.returncode}"


def _umount(target: Path) -> None:
    subprocess.run(["umount", "-l", str(target)], capture_output=True, timeout=30)


def fill(disk: Path) -> Path:
    """Fill the filesystem of ``disk`` to the last byte with a file beside the vault / data dir; returns it."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for chunk in (1 << 16, 4096, 1):
            while True:
                try:
                    os.write(fd, b"\0" * chunk)
                except OSError as exc:
                    assert exc.errno == errno.ENOSPC, exc
                    break
    finally:
        os.close(fd)
    assert shutil.disk_usage(disk).free < 4096
    return filler


@dataclass
class Disks:
    vault: Path  # on the vault's tmpfs
    data: Path  # on the data dir's tmpfs
    port: int
    log: Path
    server: Server | None = None

    def start(self) -> Server:
        self.server = Server({"v": self.vault}, self.data, port=self.port, log=self.log)
        return self.server

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url


def _need_root() -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (run the suite as root to test a full disk)")


@pytest.fixture(scope="module")
def disks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Disks]:
    _need_root()
    root = tmp_path_factory.mktemp("full")
    mounted: list[Path] = []
    try:
        for name, size in (("vdisk", "3m"), ("ddisk", "32m")):
            reason = _mount(root / name, size)
            if reason is not None:
                pytest.skip(f"no small disk to fill: {reason}")
            mounted.append(root / name)
        vault = root / "vdisk" / "v"
        vault.mkdir()
        for path, text in NOTES.items():
            (vault / path).write_text(text)
        disks = Disks(vault, root / "ddisk" / "data", free_port(), root / "server.log")
        disks.start()
        yield disks
        if disks.server is not None:
            disks.server.stop()
    finally:
        for target in mounted:
            _umount(target)


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root``, hidden ones (a temp file left over) included."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def journal(disks: Disks) -> list[str]:
    folder = disks.data / "journal"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def writes(url: str) -> dict[str, httpx2.Response]:
    """An overwrite, an append and a create, each larger than what a full disk has left."""
    with httpx2.Client(base_url=url, timeout=30) as c:
        return {
            "overwrite": c.patch("/api/file/v", json={"path": "Note 1.md", "content": f"# Note 1\n\n{BIG}\n"}),
            "append": c.post("/api/file/v/append", json={"path": "Note 2.md", "content": BIG}),
            "create": c.post("/api/file/v", json={"path": "Folder/New.md", "content": BIG}),
        }


def assert_storage_full(answers: dict[str, httpx2.Response]) -> None:
    for what, r in answers.items():
        assert r.status_code == 507, (what, r.status_code, r.text)
        body = r.json()
        assert body["code"] == "storage_full", (what, body)
        assert "full" in body["message"] and "nothing was changed" in body["message"], (what, body)
        assert body["hint"].startswith("free some disk space"), body
        assert "details" not in body, (what, body)  # nothing left changed ("not_rolled_back")


async def propose_over_mcp(url: str) -> dict:
    """``propose_append_to_file`` over MCP with the SDK's client; the error object of its ``isError`` result."""
    with anyio.fail_after(30):
        async with (
            httpx2.AsyncClient() as http,
            Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,
        ):
            result = await client.call_tool(
                "propose_append_to_file", {"vault": "v", "path": "Note 2.md", "content": BIG}
            )
    assert result.is_error is True, result
    return result.meta[ERROR_META_KEY]


def assert_up(url: str) -> None:
    assert httpx2.get(f"{url}/api/health", timeout=10).status_code == 200
    read = httpx2.get(f"{url}/api/file/v", params={"path": "Note 3.md"}, timeout=10)
    assert read.status_code == 200 and read.json()["content"] == NOTES["Note 3.md"], read.text


def test_a_full_vault_disk(disks: Disks) -> None:
    before = snapshot(disks.vault)
    filler = fill(disks.vault.parent)
    try:
        assert_storage_full(writes(disks.url))
        assert snapshot(disks.vault) == before
        assert journal(disks) == []
        assert_up(disks.url)
    finally:
        filler.unlink()


def test_a_full_data_disk(disks: Disks) -> None:
    assert disks.server is not None
    before = snapshot(disks.vault)
    filler = fill(disks.data.parent)
    try:
        assert_storage_full(writes(disks.url))
        assert snapshot(disks.vault) == before
        assert journal(disks) == []  # the create's entry could not be written: none left for a recovery
        assert_up(disks.url)
        hits = httpx2.get(f"{disks.url}/api/search", params={"q": "tidepool"}, timeout=10).json()["hits"]
        assert sorted(h["path"] for h in hits) == sorted(NOTES)
        # an agent's proposal cannot be stored (SQLite is full): the same answer, over MCP
        error = anyio.run(propose_over_mcp, disks.url)
        assert error["code"] == "storage_full" and "full" in error["message"], error
        # a person edits a note in Obsidian meanwhile: the watcher cannot index it on the full disk
        (disks.vault / "Note 4.md").write_text("# Note 4\n\nRewritten outside, a seagrass note.\n")
        deadline = 20.0
        while "indexing Note 4.md failed" not in disks.log.read_text() and deadline > 0:
            deadline -= 0.1
            httpx2.get(f"{disks.url}/api/health", timeout=10).raise_for_status()  # and the server stays up
            time.sleep(0.1)
        assert "indexing Note 4.md failed" in disks.log.read_text()
        took = disks.server.stop(grace=20)
        assert disks.server.proc.returncode in (0, -15), disks.server.proc.returncode  # not killed
        assert took < 10, f"the server took {took:.1f} s to stop on a full disk"
    finally:
        filler.unlink()


def test_a_restart_recovers_cleanly_and_the_writes_land(disks: Disks) -> None:
    logged = len(disks.log.read_text())
    disks.start()
    assert journal(disks) == []
    assert ToolJournal(disks.data).verify().ok  # no torn row in the tool journal after the full disk
    assert "change recovery" not in disks.log.read_text()[logged:]
    hits = httpx2.get(f"{disks.url}/api/search", params={"q": "seagrass"}, timeout=10).json()["hits"]
    assert [h["path"] for h in hits] == ["Note 4.md"]  # the outside edit, indexed at last
    with httpx2.Client(base_url=disks.url, timeout=10) as c:
        read = {path: c.get("/api/file/v", params={"path": path}).json()["version"] for path in NOTES}
    for what, r in writes(disks.url).items():
        assert r.status_code == 200, (what, r.text)
    now = snapshot(disks.vault)
    assert now["Note 1.md"] == f"# Note 1\n\n{BIG}\n".encode()
    assert now["Note 2.md"] == (NOTES["Note 2.md"] + BIG).encode()
    assert now["Folder/New.md"] == BIG.encode()
    with httpx2.Client(base_url=disks.url, timeout=10) as c:
        for path in ("Note 1.md", "Note 2.md"):  # every backup taken (the refused writes' too) holds the note as it was
            versions = c.get("/api/file/v/backups", params={"path": path}).json()["versions"]
            assert versions and {v["file_version"] for v in versions} == {read[path]}, versions
    assert journal(disks) == []


@contextmanager
def _small_disk(target: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` of its own at ``target`` while inside (skipped without root or ``mount``)."""
    _need_root()
    reason = _mount(target, size)
    if reason is not None:
        pytest.skip(f"no small disk to fill: {reason}")
    try:
        yield target
    finally:
        _umount(target)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs of its own."""
    with _small_disk(tmp_path / "disk", "1m") as disk:
        yield disk


@pytest.fixture
def one_page_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of one 4 KB page: a file that fills it takes a short write, then ENOSPC."""
    with _small_disk(tmp_path / "disk", "4k") as disk:
        yield disk


def test_a_journal_record_the_disk_has_no_room_for_is_an_error_not_a_torn_line(one_page_disk: Path) -> None:
    """``os.write`` on a nearly full disk writes what fits and returns short: a record written with one call was
    torn without an error, the step done with its undo lost (a crash then left the change half made)."""
    journal = ChangeJournal(one_page_disk)
    entry = journal.begin("v", "edit_file")
    assert entry.path is not None
    room = 4096 - entry.path.stat().st_size - 10
    entry.intend({"op": "mkdir", "path": "x" * (room - len('{"op":"mkdir","path":""}\n'))})
    assert entry.path.stat().st_size == 4086
    with pytest.raises(OSError) as raised:
        entry.intend({"op": "mkdir", "path": "Folder"})
    assert raised.value.errno == errno.ENOSPC
    [(_, records)] = journal.pending()  # what a recovery would read: the whole records, not the torn one
    assert [r["op"] for r in records] == ["begin", "mkdir"]
    entry.commit()  # no room for the commit line either: the entry is forgotten all the same
    assert list(journal.pending()) == [] and not entry.path.exists()


def test_a_tool_journal_row_the_disk_has_no_room_for_is_an_error_and_the_chain_stays_whole(small_disk: Path) -> None:
    """A full disk refuses a journal row whole (SQLite's transaction is rolled back): ``append`` raises an error
    the door reads as ``storage_full`` (a change is then not made), and every row written before still verifies."""
    journal = ToolJournal(small_disk, checkpoint_every=50)
    written, refused = 0, None
    for n in range(2000):  # ~2 KB of summarised arguments each: the 1 MB disk is full long before the end
        entry = JournalEntry(
            "alice", "token", "mcp", "read_file", "ai_tool_call", "ok", args={"p": f"{n}" + "x" * 2000}
        )
        try:
            journal.append(entry)
        except (sqlite3.Error, OSError) as exc:
            refused = exc
            break
        written += 1
    assert refused is not None and is_storage_full(refused), refused
    assert 10 < written < 2000
    report = journal.verify()
    assert report.ok and report.rows == written, report.findings
    journal.close()


def test_an_index_transaction_on_a_full_disk(small_disk: Path) -> None:
    store = MetaStore(small_disk / "index.sqlite3")
    try:
        filler = fill(small_disk)
        rows = [put_diagnostic("v", f"Note {i}.md", "code", "m" * 1000, 0) for i in range(2000)]  # ~2 MB
        with pytest.raises(sqlite3.OperationalError) as raised, store.transaction() as c:
            MetaStore.run(c, rows)
        assert str(raised.value) == "database or disk is full"
        assert is_storage_full(raised.value) and not store.wconn.in_transaction
        filler.unlink()
        with store.transaction() as c:
            MetaStore.run(c, rows[:10])
        assert store.wconn.execute("SELECT count(*) FROM diagnostics").fetchone() == (10,)
    finally:
        store.close()
