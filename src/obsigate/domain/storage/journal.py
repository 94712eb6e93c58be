"""The change journal: every change to a vault is written ahead, so a killed process leaves the vault whole.

Before a change touches the vault, :meth:`ChangeJournal.begin` creates ``<data_dir>/journal/<id>.jsonl``;
before each step changes anything, :meth:`Entry.intend` appends (and fsyncs) how to undo it — the file's
backup version, the folders it creates, where a move came from — and :meth:`Entry.commit` marks the change
done. The rule on restart is **roll back**: a change without its ``commit`` line was never answered as a
success, so :meth:`ChangeJournal.recover` undoes its intended steps in reverse and the vault is exactly as
before (the bytes come from the backup store, which holds every overwritten, moved and removed file before
the first step). The undo of each step is idempotent (it checks the disk), so a step intended but never done,
or a recovery itself killed half-way, are undone correctly by the next recovery. The same undo runs when a
step fails in a live process, so there is one rollback path; that entry is then forgotten whatever the undo
did, as the next changes may build on the vault as it was left.

Records (one JSON object a line): ``begin {id, vault, reason}``; ``write {path, backup, before, after,
before_sha256}`` (``backup``: the version holding the old bytes; else ``before``: those bytes, base64, for a
file the backups do not hold, such as a note moved by this change and then rewritten; neither: the file did
not exist; ``after``/``before_sha256``: SHA-256 of the bytes written and of the old ones — a file holding
anything else was changed by someone else since, e.g. edited in Obsidian while the server was down, and the
undo leaves it alone, so a recovery never loses a person's edit); ``mkdir {path}`` (a folder this change
creates); ``move {src, dst}``; ``remove {path, files: [{path, version}], dirs: [path]}`` (every file, with its
backup, and every folder below ``path``); ``commit``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from obsigate.domain.storage import vault_fs
from obsigate.domain.storage.atomic import fsync_dir
from obsigate.domain.storage.private_files import make_private_dir

__all__ = ["ChangeJournal", "Entry", "ReadBackup", "Recovered", "RootOf", "undo_record"]

JOURNAL_DIR = "journal"

#: ``vault name -> the vault's root``; its files are reached through :mod:`vault_fs`, never by name.
RootOf = Callable[[str], Path]
#: ``(vault, vault-relative path, version) -> bytes`` from the backup store.
ReadBackup = Callable[[str, str, str], bytes]


@dataclass(slots=True)
class Entry:
    """One change being made: append its undo records with :meth:`intend`, then :meth:`commit` or
    :meth:`roll_back`. ``path`` ``None``: an entry kept in memory only (a workspace without a journal)."""

    path: Path | None
    vault: str
    records: list[dict[str, Any]] = field(default_factory=list)

    def intend(self, record: dict[str, Any]) -> None:
        """Write ``record`` (how to undo the step about to be done) durably, before the step."""
        self.records.append(record)
        if self.path is not None:
            _append(self.path, record)

    def commit(self) -> None:
        """Mark the change whole (durably); the entry is then forgotten. A ``commit`` line the disk has no room
        for is not an error: the change is done, and removing the entry says the same (it is never rolled back)."""
        if self.path is not None:
            try:
                _append(self.path, {"op": "commit"})
            except OSError:
                pass
            self.path.unlink(missing_ok=True)

    def roll_back(self, root_of: RootOf, read_backup: ReadBackup) -> list[str]:
        """Undo every intended step, newest first (a failed step in a live process), then forget the entry,
        even when an undo failed: this process goes on serving, so later changes may land on the same paths,
        and replaying this entry at the next start would undo them (a restored note deleted again). What an
        undo could not put back is still in the backup store.

        Returns:
            The vault paths whose undo failed (``[]``: the vault is as before the change).
        """
        failed: list[str] = []
        for record in reversed(self.records):
            try:
                undo_record(self.vault, record, root_of, read_backup)
            except Exception:  # noqa: BLE001 — one failed undo (a damaged backup too) must not stop the others
                failed.append(str(record.get("path") or record.get("src") or ""))
        if self.path is not None:
            self.path.unlink(missing_ok=True)
        return failed


@dataclass(frozen=True, slots=True)
class Recovered:
    """What :meth:`ChangeJournal.recover` did to one unfinished change: ``paths`` put back as before;
    ``kept``: files changed since by someone else (an edit while the server was down), left as they are."""

    id: str
    vault: str
    reason: str
    paths: list[str]
    kept: list[str] = field(default_factory=list)


def _append(path: Path, record: dict[str, Any]) -> None:
    """Append ``record`` as one JSON line and fsync it.

    Raises:
        OSError: the line could not be written whole (a full disk: ``os.write`` first writes what fits and
            returns short, and only the next write fails; a torn line is read back as the entry's end).
    """
    line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        view = memoryview(line)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


class ChangeJournal:
    """The journal folder of one data dir (``<data_dir>/journal``, 0700)."""

    def __init__(self, data_dir: Path) -> None:
        self.folder = make_private_dir(Path(data_dir) / JOURNAL_DIR)

    def begin(self, vault: str, reason: str) -> Entry:
        """Start journalling a change of ``vault`` (``reason``: the tool, for the audit of a recovery).

        Raises:
            OSError: the entry could not be written (a full disk); nothing of it is left in the journal.
        """
        entry_id = uuid.uuid4().hex
        path = self.folder / f"{entry_id}.jsonl"
        try:
            _append(path, {"op": "begin", "id": entry_id, "vault": vault, "reason": reason})
            fsync_dir(str(self.folder))  # the entry's name must survive a crash too
        except BaseException:  # a full disk: the change will not start, so no empty entry may wait for recovery
            path.unlink(missing_ok=True)
            raise
        return Entry(path, vault)

    def pending(self) -> Iterator[tuple[Path, list[dict[str, Any]]]]:
        """Every unfinished change (no ``commit`` line): its file and its records, oldest first. A torn last
        line (the process died while appending it) is ignored: its step had not started."""
        for path in sorted(self.folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime):
            records: list[dict[str, Any]] = []
            for line in path.read_bytes().splitlines():
                try:
                    records.append(json.loads(line))
                except ValueError:
                    break
            if records and records[-1].get("op") == "commit":
                path.unlink(missing_ok=True)
                continue
            yield path, records

    def recover(
        self, root_of: RootOf, read_backup: ReadBackup, report: Callable[[Recovered], None] | None = None
    ) -> list[Recovered]:
        """Roll back every unfinished change (see the module docstring), ``report`` it (the audit record is
        written before the entry is forgotten: a crash in between repeats the idempotent roll-back and the
        report at the next start, it never loses them), then forget it.

        Raises:
            OSError, LookupError: a step could not be undone; its entry is kept for the next start.
        """
        done = []
        for path, records in self.pending():
            head = records[0] if records and records[0].get("op") == "begin" else {}
            vault = str(head.get("vault", ""))
            touched: list[str] = []
            kept: list[str] = []
            for record in reversed(records[1:]):
                undone = undo_record(vault, record, root_of, read_backup)
                touched += undone
                if record.get("op") == "write" and not undone:
                    kept.append(record["path"])
            change = Recovered(str(head.get("id", path.stem)), vault, str(head.get("reason", "")), touched, kept)
            if report is not None:
                report(change)
            path.unlink(missing_ok=True)
            done.append(change)
        return done


def undo_record(vault: str, record: dict[str, Any], root_of: RootOf, read_backup: ReadBackup) -> list[str]:
    """Undo one step, whether it was done, half done or not done at all; return the vault paths it put back.
    Every path is reached through :mod:`vault_fs` (no symlink followed: a file swapped for a symlink since is
    left as it is, like any file changed by someone else).

    Raises:
        OSError, LookupError: the disk or the backup store refused.
    """
    op = record.get("op")
    root = root_of(vault)
    if op == "write":
        rel = record["path"]
        present = vault_fs.exists(root, rel)
        current = _sha256(root, rel) if present else None
        if record.get("after") and present and current not in (record["after"], record.get("before_sha256")):
            return []  # changed since by someone else (an edit while the server was down): theirs wins, kept
        if present and current is not None and current == record.get("before_sha256"):
            return [rel]  # the write never landed: the old bytes are there (rewriting them could fail on a full disk)
        if record.get("backup"):
            vault_fs.write_file(root, rel, read_backup(vault, rel, record["backup"]))
        elif record.get("before") is not None:  # bytes of a file not in the backups (a note moved, then edited)
            vault_fs.write_file(root, rel, base64.b64decode(record["before"]))
        elif present:
            vault_fs.remove_file(root, rel)
        return [rel]
    if op == "mkdir":
        try:
            vault_fs.remove_folder(root, record["path"])
        except OSError:
            pass  # gone already, or not empty: something else lives there now, keep it
        return []
    if op == "move":
        src, dst = record["src"], record["dst"]
        if vault_fs.exists(root, dst) and not vault_fs.exists(root, src):
            _make_folders(root, _parent_of(src))
            vault_fs.rename(root, dst, src)
        return [src, dst]
    if op == "remove":
        for folder in record.get("dirs", []):
            _make_folders(root, folder)
        for item in record.get("files", []):
            if not vault_fs.exists(root, item["path"]):
                _make_folders(root, _parent_of(item["path"]))
                vault_fs.write_file(root, item["path"], read_backup(vault, item["path"], item["version"]))
        return [record["path"]] + [f["path"] for f in record.get("files", [])]
    return []


def _parent_of(rel: str) -> str:
    return rel.rsplit("/", 1)[0] if "/" in rel else ""


def _make_folders(root: Path, rel: str) -> None:
    """Create ``rel`` and its missing parents (``mkdir -p``), never through a symlink."""
    segs = [s for s in rel.split("/") if s]
    for i in range(1, len(segs) + 1):
        try:
            vault_fs.make_folder(root, "/".join(segs[:i]))
        except FileExistsError:
            pass


def _sha256(root: Path, rel: str) -> str | None:
    """SHA-256 (hex) of the file ``rel``'s bytes now; ``None`` when it cannot be read as a regular file."""
    try:
        return hashlib.sha256(vault_fs.read_file(root, rel)[0]).hexdigest()
    except OSError:
        return None
