"""Carry out a planned mutation: backups first, journalled atomic steps, all-or-nothing, then the index.

A plan is a list of steps (:class:`Write`, :class:`MakeDir`, :class:`Move`, :class:`Remove`). :func:`execute`
backs up every file a step overwrites, moves or removes (``BackupStore``), opens an entry in the change
journal (``domain/storage/journal.py``), and performs the steps in order, each after writing down how to undo
it (file contents through ``atomic_write``: temp file, fsync, rename). On any failure it undoes the steps
intended so far, in reverse, and closes the journal entry before answering (a refusal of the disk as a
catalogued error, never a 500); if the process dies instead, :func:`recover` does the same at the next start. A rename that rewrites 40 notes lands whole or leaves the vault as it was, even across kill -9.
Deleting never unlinks a file that is not in the backup store first, and leaves nothing hidden in the vault.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import stat
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from obsigate.domain.storage.atomic import atomic_write, is_atomic_temp, remove_stale_temps
from obsigate.domain.storage.journal import Entry, Recovered, remove_tree
from obsigate.domain.vault import Vault
from obsigate.services.backups import read_backup, save_backup
from obsigate.services.errors import BadRequest, Conflict, ServiceError, Unavailable
from obsigate.services.paths import resolve_safe_path
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
    """What :func:`execute` did: backups made (``[{"path", "version"}]``) and every path it touched;
    ``sha256``: the backed-up bytes' hashes by path (the journal's undo check needs them; not a result)."""

    backups: list[dict[str, str]] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)
    sha256: dict[str, str] = field(default_factory=dict)


def _files_below(folder: Path, rel: str) -> list[tuple[str, str]]:
    """``(vault path, OS path)`` of every regular file under ``folder`` (vault path ``rel``), hidden ones
    included: a folder is deleted whole, so everything in it is backed up. Symlinks are not followed."""
    out = []
    for dirpath, _, names in os.walk(folder):
        for name in names:
            osp = os.path.join(dirpath, name)
            if os.path.isfile(osp) and not os.path.islink(osp):
                out.append((f"{rel}/{os.path.relpath(osp, folder).replace(os.sep, '/')}", osp))
    return out


def _backup(ws: Workspace, vault: Vault, rel: str, reason: str, out: Outcome) -> None:
    """Save the file at ``rel`` (or every file under the folder ``rel``) to the backup store."""
    if ws.backups is None:
        raise Unavailable("no backup store is configured; refusing to change files without backups")
    target = resolve_safe_path(vault, rel).abs
    if target.is_dir():
        items = _files_below(target, rel)
    elif target.is_file():
        items = [(rel, str(target))]
    else:
        return
    for path, osp in items:
        with open(osp, "rb") as f:
            data = f.read()
        out.backups.append({"path": path, "version": save_backup(ws.backups, vault.name, path, data, reason=reason)})
        out.sha256[path] = hashlib.sha256(data).hexdigest()


def _locator(ws: Workspace):  # noqa: ANN202 — the journal's Locate and ReadBackup over this workspace
    def locate(vault: str, rel: str) -> Path:
        return resolve_safe_path(ws.vaults[vault], rel).abs

    def read(vault: str, rel: str, version: str) -> bytes:
        if ws.backups is None:
            raise LookupError("no backup store")
        return read_backup(ws.backups, vault, rel, version)

    return locate, read


def _make_parents(vault: Vault, path: Path, entry: Entry) -> None:
    """Create the missing folders above ``path``, each journalled first.

    Raises:
        BadRequest ``not_a_directory``: a file stands where one of those folders goes (checked before any).
    """
    missing = []
    parent = path.parent
    while not parent.exists():
        missing.append(parent)
        parent = parent.parent
    if not parent.is_dir():
        held = (missing[-1] if missing else path).relative_to(vault.root).as_posix()
        raise BadRequest(f"{parent.relative_to(vault.root).as_posix()!r} is a file, so it cannot hold {held!r}",
                         code="not_a_directory")  # fmt: skip
    for folder in reversed(missing):
        entry.intend({"op": "mkdir", "path": folder.relative_to(vault.root).as_posix()})
        folder.mkdir()


def _exists_error(path: str) -> Conflict:
    return Conflict(f"{path!r} already exists", code="exists", hint="pick another name or edit it")


def _write(
    vault: Vault, step: Write, entry: Entry, versions: dict[str, str], hashes: dict[str, str] | None = None
) -> None:
    """Write one file after journalling its undo. ``versions``/``hashes``: the backup version and SHA-256 of
    files already backed up (read once, by :func:`_backup`); any other existing file is read here."""
    target = resolve_safe_path(vault, step.path).abs
    _make_parents(vault, target, entry)
    record: dict[str, object] = {"op": "write", "path": step.path, "backup": None,
                                 "after": hashlib.sha256(step.data).hexdigest()}  # fmt: skip
    if os.path.lexists(target):
        if step.exclusive or not stat.S_ISREG(os.stat(target).st_mode):
            raise _exists_error(step.path)
        record["backup"] = versions.get(step.path)
        if record["backup"] is not None and hashes and step.path in hashes:
            record["before_sha256"] = hashes[step.path]
        else:  # not backed up before the change (a note this change moved here): its bytes go in the record
            old = target.read_bytes()
            record["before_sha256"] = hashlib.sha256(old).hexdigest()
            if record["backup"] is None:
                record["before"] = base64.b64encode(old).decode("ascii")
    entry.intend(record)
    try:
        atomic_write(target, step.data, exclusive=step.exclusive)
    except FileExistsError:
        entry.records.pop()  # nothing was written: undoing it would delete the file someone else made
        raise _exists_error(step.path) from None


def _move(vault: Vault, step: Move, entry: Entry) -> None:
    src, dst = resolve_safe_path(vault, step.src).abs, resolve_safe_path(vault, step.dst).abs
    if os.path.lexists(dst):
        raise Conflict(f"{step.dst!r} already exists", code="exists")
    _make_parents(vault, dst, entry)
    entry.intend({"op": "move", "src": step.src, "dst": step.dst})
    os.rename(src, dst)


def _remove(ws: Workspace, vault: Vault, step: Remove, entry: Entry, versions: dict[str, str], reason: str) -> None:
    target = resolve_safe_path(vault, step.path).abs
    if target.is_dir() and not target.is_symlink():
        files = [p for p, _ in _files_below(target, step.path)]
        dirs = [
            f"{step.path}/{os.path.relpath(os.path.join(d, n), target).replace(os.sep, '/')}"
            for d, names, _ in os.walk(target) for n in names
        ]  # fmt: skip
        dirs = [step.path, *dirs]
    else:
        files, dirs = [step.path], []
    for path in files:  # a file that appeared since the backups were taken is saved too: the undo needs it
        if path not in versions:
            data = resolve_safe_path(vault, path).abs.read_bytes()
            versions[path] = save_backup(ws.backups, vault.name, path, data, reason=reason)  # type: ignore[arg-type]
    # every file is in the backup store now: the undo restores from there
    entry.intend({"op": "remove", "path": step.path, "files": [{"path": p, "version": versions[p]} for p in files],
                  "dirs": dirs})  # fmt: skip
    remove_tree(target)


def execute(ws: Workspace, vault: Vault, steps: Sequence[Step], *, reason: str) -> Outcome:
    """Run ``steps`` on ``vault`` all-or-nothing (see the module docstring). The caller holds
    :func:`vault_lock` and has checked the plan is still current.

    Returns:
        :class:`Outcome` with the backups made and the touched paths (old and new); the index is refreshed
        for each of them before returning.

    Raises:
        Conflict (``exists``), BadRequest (``not_a_directory``, ``is_a_directory``), Unavailable (no backup
        store), ServiceError ``write_failed`` (503: any other OSError of a step, ``details.not_rolled_back``
        listing what its undo could not put back): each after rolling back what was done and closing the
        change's journal entry.
    """
    out = Outcome()
    at = ""  # the path being backed up or changed, for an error's message
    try:  # backups of everything that will be overwritten, moved or removed, before any change
        for step in steps:
            at = step.src if isinstance(step, Move) else step.path
            if (isinstance(step, Write) and not step.exclusive) or isinstance(step, Remove | Move):
                _backup(ws, vault, at, reason, out)
    except OSError as exc:  # unreadable, or vanished since the plan: nothing was changed yet
        raise _step_error(exc, at, []) from exc
    versions = {b["path"]: b["version"] for b in out.backups}
    entry = ws.journal.begin(vault.name, reason) if ws.journal is not None else Entry(None, vault.name)
    try:
        for step in steps:
            at = step.dst if isinstance(step, Move) else step.path
            if isinstance(step, Write):
                _write(vault, step, entry, versions, out.sha256)
                out.touched.append(step.path)
            elif isinstance(step, MakeDir):
                target = resolve_safe_path(vault, step.path).abs
                if target.exists():
                    raise Conflict(f"{step.path!r} already exists", code="exists")
                _make_parents(vault, target / "x", entry)
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
    back (then always ``write_failed``, whose details name them)."""
    if failed:
        log.error("a failed change could not be rolled back whole (%s); left changed: %s", exc, failed)
    elif isinstance(exc, FileExistsError):  # something appeared meanwhile, beside the vault lock (Obsidian)
        return Conflict(f"{at!r} already exists; nothing was changed", code="exists")
    elif isinstance(exc, NotADirectoryError):
        return BadRequest(f"a file stands where a folder of {at!r} goes; nothing was changed", code="not_a_directory")
    elif isinstance(exc, IsADirectoryError):
        return BadRequest(f"a folder stands at {at!r}; nothing was changed", code="is_a_directory")
    undone = "some of it could not be rolled back (the backups hold the old files)" if failed else "nothing was changed"
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
        for folder, dirs, names in os.walk(vault.root):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            if any(is_atomic_temp(n) for n in names):
                removed += remove_stale_temps(folder, older_than_s=0)
    return removed


def _refresh(ws: Workspace, vault: Vault, paths: Sequence[str]) -> None:
    """Bring the index up to date at once (own writes are searchable before the watcher sees them)."""
    if ws.indexer is None:
        return
    for path in dict.fromkeys(paths):
        ws.indexer.refresh_path(vault.name, path)
