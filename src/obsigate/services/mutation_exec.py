"""Carry out a planned mutation: backups first, journalled atomic steps, all-or-nothing, then the index.

A plan is a list of steps (:class:`Write`, :class:`MakeDir`, :class:`Move`, :class:`Remove`). :func:`execute`
backs up every file a step overwrites, moves or removes (``BackupStore``), opens an entry in the change
journal (``domain/storage/journal.py``), and performs the steps in order, each after writing down how to undo
it (file contents through ``vault_fs.write_file``: temp file, fsync, rename; no symlink followed). On any failure it undoes the steps
intended so far, in reverse, and closes the journal entry before answering (a refusal of the disk as a
catalogued error, never a 500); if the process dies instead, :func:`recover` does the same at the next start. A rename that rewrites 40 notes lands whole or leaves the vault as it was, even across kill -9.
Deleting never unlinks a file that is not in the backup store first, and leaves nothing hidden in the vault.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import stat
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from obsigate.domain.storage import vault_fs
from obsigate.domain.storage.atomic import is_atomic_temp, remove_stale_temps
from obsigate.domain.storage.journal import Entry, ReadBackup, Recovered, RootOf
from obsigate.domain.vault import Vault
from obsigate.services.backups import read_backup, save_backup
from obsigate.services.changes import BackupRef
from obsigate.services.errors import BadRequest, Conflict, ServiceError, Unavailable, is_storage_full, storage_full
from obsigate.services.paths import fs_errors, kind_of
from obsigate.services.workspace import Workspace

__all__ = ["MakeDir", "Move", "Remove", "Step", "Write", "execute", "recover", "sweep_temps", "vault_lock"]

log = logging.getLogger(__name__)

_LOCKS: dict[str, threading.RLock] = {}
_LOCKS_GUARD = threading.Lock()


def vault_lock(vault: Vault) -> threading.RLock:
    """The lock serialising every mutation of one vault in this process (ten parallel appends all land)."""
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(str(vault.root), threading.RLock())


@dataclass(frozen=True, slots=True)
class Write:
    """Write ``data`` at ``path``; ``exclusive``: only if nothing is there (``exists`` otherwise)."""

    path: str
    data: bytes
    exclusive: bool = False


@dataclass(frozen=True, slots=True)
class MakeDir:
    """Create the folder ``path`` (and missing parents)."""

    path: str


@dataclass(frozen=True, slots=True)
class Move:
    """Rename file or folder ``src`` to ``dst`` (which must not exist; its parent must)."""

    src: str
    dst: str


@dataclass(frozen=True, slots=True)
class Remove:
    """Delete file or folder ``path`` (a folder with everything below it), after backing it up."""

    path: str


Step = Write | MakeDir | Move | Remove


@dataclass(slots=True)
class Outcome:
    """What :func:`execute` did: backups made (:class:`BackupRef`) and every path it touched; ``sha256``: the
    backed-up bytes' hashes by path (the journal's undo check needs them; not a result)."""

    backups: list[BackupRef] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)
    sha256: dict[str, str] = field(default_factory=dict)


def _parent_of(rel: str) -> str:
    return rel.rsplit("/", 1)[0] if "/" in rel else ""


def _below(vault: Vault, rel: str) -> tuple[list[str], list[str]]:
    """``(files, folders)`` under the folder ``rel``, as spelled on disk, hidden ones included: a folder is
    deleted whole, so every file in it is backed up. Symlinks are never followed; a tree deeper than the walk
    sees is refused (``vault_fs.TooDeep``), never deleted unseen."""
    files, folders = [], []
    with fs_errors(rel):
        for disk, st in vault_fs.walk(vault.root, rel, strict=True):
            if stat.S_ISREG(st.st_mode):
                files.append(disk)
            elif stat.S_ISDIR(st.st_mode):
                folders.append(disk)
    return files, folders


def _read(vault: Vault, rel: str) -> bytes:
    with fs_errors(rel):
        return vault_fs.read_file(vault.root, rel)[0]


def _backup(
    ws: Workspace, vault: Vault, rel: str, reason: str, out: Outcome, read: Mapping[str, bytes] | None = None
) -> None:
    """Save the file at ``rel`` (or every file under the folder ``rel``) to the backup store; ``read``: bytes
    the plan already read under the vault's lock, by path (saved as they are, not read again)."""
    if ws.backups is None:
        raise Unavailable("no backup store is configured; refusing to change files without backups")
    found = kind_of(vault, rel)
    if found == "dir":
        items = _below(vault, rel)[0]
    elif found == "file":
        items = [rel]
    else:
        return
    for path in items:
        data = read[path] if read and path in read else _read(vault, path)
        out.backups.append(BackupRef(path=path, version=save_backup(ws.backups, vault.name, path, data, reason=reason)))
        out.sha256[path] = hashlib.sha256(data).hexdigest()


def _locator(ws: Workspace) -> tuple[RootOf, ReadBackup]:
    """The journal's view of this workspace: each vault's root (its files reached through ``vault_fs``) and
    the backup store."""

    def root_of(vault: str) -> Path:
        return ws.vaults[vault].root

    def read(vault: str, rel: str, version: str) -> bytes:
        if ws.backups is None:
            raise LookupError("no backup store")
        return read_backup(ws.backups, vault, rel, version)

    return root_of, read


def _make_parents(vault: Vault, rel: str, entry: Entry) -> None:
    """Create the missing folders above ``rel``, each journalled first.

    Raises:
        BadRequest ``not_a_directory``: a file stands where one of those folders goes (checked before any).
        PathOutsideVault: a symlink on the way.
    """
    missing = []
    parent = _parent_of(rel)
    while parent and kind_of(vault, parent) is None:
        missing.append(parent)
        parent = _parent_of(parent)
    if parent and kind_of(vault, parent) != "dir":
        held = missing[-1] if missing else rel
        raise BadRequest(f"{parent!r} is a file, so it cannot hold {held!r}", code="not_a_directory")
    for folder in reversed(missing):
        entry.intend({"op": "mkdir", "path": folder})
        with fs_errors(folder):
            vault_fs.make_folder(vault.root, folder)


def _exists_error(path: str) -> Conflict:
    return Conflict(f"{path!r} already exists", code="exists", hint="pick another name or edit it")


def _write(
    vault: Vault, step: Write, entry: Entry, versions: dict[str, str], hashes: dict[str, str] | None = None
) -> None:
    """Write one file after journalling its undo. ``versions``/``hashes``: the backup version and SHA-256 of
    files already backed up (read once, by :func:`_backup`); any other existing file is read here."""
    _make_parents(vault, step.path, entry)
    record: dict[str, object] = {"op": "write", "path": step.path, "backup": None,
                                 "after": hashlib.sha256(step.data).hexdigest()}  # fmt: skip
    found = kind_of(vault, step.path)
    if found is not None:
        if step.exclusive or found != "file":
            raise _exists_error(step.path)
        record["backup"] = versions.get(step.path)
        if record["backup"] is not None and hashes and step.path in hashes:
            record["before_sha256"] = hashes[step.path]
        else:  # not backed up before the change (a note this change moved here): its bytes go in the record
            old = _read(vault, step.path)
            record["before_sha256"] = hashlib.sha256(old).hexdigest()
            if record["backup"] is None:
                record["before"] = base64.b64encode(old).decode("ascii")
    entry.intend(record)
    try:
        with fs_errors(step.path):
            vault_fs.write_file(vault.root, step.path, step.data, exclusive=step.exclusive)
    except FileExistsError:
        entry.records.pop()  # nothing was written: undoing it would delete the file someone else made
        raise _exists_error(step.path) from None


def _move(vault: Vault, step: Move, entry: Entry) -> None:
    if kind_of(vault, step.dst) is not None:
        raise Conflict(f"{step.dst!r} already exists", code="exists")
    _make_parents(vault, step.dst, entry)
    entry.intend({"op": "move", "src": step.src, "dst": step.dst})
    with fs_errors(step.src):
        vault_fs.rename(vault.root, step.src, step.dst)


def _remove(ws: Workspace, vault: Vault, step: Remove, entry: Entry, versions: dict[str, str], reason: str) -> None:
    if kind_of(vault, step.path) == "dir":
        files, folders = _below(vault, step.path)
        dirs = [step.path, *folders]
    else:
        files, dirs = [step.path], []
    for path in files:  # a file that appeared since the backups were taken is saved too: the undo needs it
        if path not in versions:
            versions[path] = save_backup(ws.backups, vault.name, path, _read(vault, path), reason=reason)  # type: ignore[arg-type]
    # every file is in the backup store now: the undo restores from there
    entry.intend({"op": "remove", "path": step.path, "files": [{"path": p, "version": versions[p]} for p in files],
                  "dirs": dirs})  # fmt: skip
    with fs_errors(step.path):
        vault_fs.remove_tree(vault.root, step.path)


def execute(
    ws: Workspace, vault: Vault, steps: Sequence[Step], *, reason: str, read: Mapping[str, bytes] | None = None
) -> Outcome:
    """Run ``steps`` on ``vault`` all-or-nothing (see the module docstring). The caller holds
    :func:`vault_lock` and has checked the plan is still current; ``read``: the bytes the plan read under that
    lock, by path, which the backups reuse.

    Returns:
        :class:`Outcome` with the backups made and the touched paths (old and new); the index is refreshed
        for each of them before returning.

    Raises:
        Conflict (``exists``), BadRequest (``not_a_directory``, ``is_a_directory``), Unavailable (no backup
        store), ServiceError ``storage_full`` (507: the disk is full or over quota) or ``write_failed`` (503: any
        other OSError of a step; both with ``details.not_rolled_back``
        listing what its undo could not put back): each after rolling back what was done and closing the
        change's journal entry.
    """
    out = Outcome()
    at = ""  # the path being backed up or changed, for an error's message
    try:  # backups of everything that will be overwritten, moved or removed, before any change
        for step in steps:
            at = step.src if isinstance(step, Move) else step.path
            if (isinstance(step, Write) and not step.exclusive) or isinstance(step, Remove | Move):
                _backup(ws, vault, at, reason, out, read)
    except OSError as exc:  # unreadable, or vanished since the plan: nothing was changed yet
        raise _step_error(exc, at, []) from exc
    versions = {b.path: b.version for b in out.backups}
    try:
        entry = ws.journal.begin(vault.name, reason) if ws.journal is not None else Entry(None, vault.name)
    except OSError as exc:  # the journal's disk is full: nothing was changed yet
        raise _step_error(exc, at, []) from exc
    try:
        for step in steps:
            at = step.dst if isinstance(step, Move) else step.path
            if isinstance(step, Write):
                _write(vault, step, entry, versions, out.sha256)
                out.touched.append(step.path)
            elif isinstance(step, MakeDir):
                if kind_of(vault, step.path) is not None:
                    raise Conflict(f"{step.path!r} already exists", code="exists")
                _make_parents(vault, f"{step.path}/x", entry)
                out.touched.append(step.path)
            elif isinstance(step, Move):
                _move(vault, step, entry)
                out.touched += [step.src, step.dst]
            else:
                _remove(ws, vault, step, entry, versions, reason)
                out.touched.append(step.path)
    except OSError as exc:  # the disk's refusal is an answer, not a 500; the entry is closed either way
        failed = entry.roll_back(*_locator(ws))
        raise _step_error(exc, at, failed) from exc
    except BaseException:
        entry.roll_back(*_locator(ws))
        raise
    entry.commit()
    _refresh(ws, vault, out.touched)
    return out


def _step_error(exc: OSError, at: str, failed: list[str]) -> ServiceError:
    """The service error of the step at ``at`` the disk refused; ``failed``: paths its rollback could not put
    back (then always ``write_failed``, or ``storage_full`` for a full disk, whose details name them)."""
    if failed:
        log.error("a failed change could not be rolled back whole (%s); left changed: %s", exc, failed)
    elif isinstance(exc, FileExistsError):  # something appeared meanwhile, beside the vault lock (Obsidian)
        return Conflict(f"{at!r} already exists; nothing was changed", code="exists")
    elif isinstance(exc, NotADirectoryError):
        return BadRequest(f"a file stands where a folder of {at!r} goes; nothing was changed", code="not_a_directory")
    elif isinstance(exc, IsADirectoryError):
        return BadRequest(f"a folder stands at {at!r}; nothing was changed", code="is_a_directory")
    undone = "some of it could not be rolled back (the backups hold the old files)" if failed else "nothing was changed"
    if is_storage_full(exc):
        return storage_full(f"the disk is full: {at!r} could not be changed; {undone}",
                            details={"not_rolled_back": failed[:20]} if failed else None)  # fmt: skip
    return ServiceError(f"the disk refused to change {at!r} ({exc.strerror or type(exc).__name__}); {undone}",
                        code="write_failed", details={"not_rolled_back": failed[:20]} if failed else None)  # fmt: skip


def recover(ws: Workspace, report: Callable[[Recovered], None] | None = None) -> list[Recovered]:
    """Roll back every change the journal holds unfinished (a process killed mid-change; see
    ``domain/storage/journal.py``), before anything is served, ``report`` each one (before it is forgotten),
    and bring the index up to date for what was put back. A file someone changed since is kept as it is
    (``Recovered.kept``).

    Raises:
        OSError, LookupError: a change could not be undone (it stays in the journal; the start must stop).
    """
    if ws.journal is None:
        return []
    done = ws.journal.recover(*_locator(ws), report=report)
    for change in done:
        if change.vault in ws.vaults:
            _refresh(ws, ws.vaults[change.vault], change.paths + change.kept)
    return done


def sweep_temps(ws: Workspace) -> int:
    """Delete the temp files of writes a killed process left in the vaults (``.<name>.<hex>.obsigate.tmp``),
    in every folder; hidden folders (``.obsidian``...) are left alone. Returns how many were removed."""
    removed = 0
    for vault in ws.vaults.values():
        try:
            folders = {_parent_of(disk) for disk, st in vault_fs.walk(vault.root, descend=lambda n: not n.startswith("."))
                       if stat.S_ISREG(st.st_mode) and is_atomic_temp(disk.rsplit("/", 1)[-1])}  # fmt: skip
        except OSError:
            continue
        for folder in sorted(folders):
            try:
                with vault_fs.folder(vault.root, folder) as fd:
                    removed += remove_stale_temps(fd, older_than_s=0)
            except OSError:  # gone or swapped for a symlink since the walk: nothing to sweep there
                continue
    return removed


def _refresh(ws: Workspace, vault: Vault, paths: Sequence[str]) -> None:
    """Bring the index up to date at once (own writes are searchable before the watcher sees them)."""
    if ws.indexer is None:
        return
    for path in dict.fromkeys(paths):
        ws.indexer.refresh_path(vault.name, path)
