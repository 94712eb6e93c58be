"""Carry out a planned mutation: backups first, atomic steps, all-or-nothing, then the index.

A plan is a list of steps (:class:`Write`, :class:`MakeDir`, :class:`Move`, :class:`Remove`). :func:`execute`
backs up every file a step overwrites, moves or removes (``BackupStore``), performs the steps in order
(file contents through ``domain.atomic.atomic_write``: temp file, fsync, rename), and on any failure undoes
the steps already done, in reverse, before re-raising: a rename that rewrites 40 notes either lands whole or
leaves the vault as it was. Deleting never unlinks a file that is not in the backup store first.
"""

from __future__ import annotations

import os
import shutil
import stat
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from obsigate.domain.storage.atomic import atomic_write
from obsigate.domain.vault import Vault
from obsigate.services.backups import save_backup
from obsigate.services.errors import Conflict, Unavailable
from obsigate.services.paths import resolve_safe_path
from obsigate.services.workspace import Workspace

__all__ = ["MakeDir", "Move", "Remove", "Step", "Write", "execute", "vault_lock"]

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
    """What :func:`execute` did: backups made (``[{"path", "version"}]``) and every path it touched."""

    backups: list[dict[str, str]] = field(default_factory=list)
    touched: list[str] = field(default_factory=list)


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


@dataclass(slots=True)
class _Journal:
    """Undo actions of the steps done so far, and what to finish once every step succeeded."""

    undo: list[Callable[[], None]] = field(default_factory=list)
    on_commit: list[Callable[[], None]] = field(default_factory=list)


def _make_parents(path: Path, undo: list[Callable[[], None]]) -> None:
    missing = []
    parent = path.parent
    while not parent.exists():
        missing.append(parent)
        parent = parent.parent
    for folder in reversed(missing):
        folder.mkdir()
        undo.append(lambda d=folder: d.rmdir())


def _write(vault: Vault, step: Write, undo: list[Callable[[], None]]) -> None:
    target = resolve_safe_path(vault, step.path).abs
    _make_parents(target, undo)
    old: bytes | None = None
    if target.exists():
        if step.exclusive or not stat.S_ISREG(os.stat(target).st_mode):
            raise Conflict(f"{step.path!r} already exists", code="exists", hint="pick another name or edit it")
        old = target.read_bytes()
    try:
        atomic_write(target, step.data, exclusive=step.exclusive)
    except FileExistsError:
        raise Conflict(f"{step.path!r} already exists", code="exists", hint="pick another name or edit it") from None
    if old is None:
        undo.append(lambda: target.unlink(missing_ok=True))
    else:
        undo.append(lambda: atomic_write(target, old))


def _move(vault: Vault, step: Move, undo: list[Callable[[], None]]) -> None:
    src, dst = resolve_safe_path(vault, step.src).abs, resolve_safe_path(vault, step.dst).abs
    if dst.exists():
        raise Conflict(f"{step.dst!r} already exists", code="exists")
    _make_parents(dst, undo)
    os.rename(src, dst)
    undo.append(lambda: os.rename(dst, src))


def _remove(vault: Vault, step: Remove, journal: _Journal) -> None:
    target = resolve_safe_path(vault, step.path).abs
    # Moved aside first (same folder, hidden name: never indexed), deleted only once every step succeeded.
    aside = target.with_name(f".obsigate-deleted-{os.getpid()}-{threading.get_ident()}-{target.name}")
    os.rename(target, aside)
    journal.undo.append(lambda: os.rename(aside, target))
    if aside.is_dir() and not aside.is_symlink():
        journal.on_commit.append(lambda: shutil.rmtree(aside, ignore_errors=True))
    else:
        journal.on_commit.append(lambda: aside.unlink(missing_ok=True))


def execute(ws: Workspace, vault: Vault, steps: Sequence[Step], *, reason: str) -> Outcome:
    """Run ``steps`` on ``vault`` all-or-nothing (see the module docstring). The caller holds
    :func:`vault_lock` and has checked the plan is still current.

    Returns:
        :class:`Outcome` with the backups made and the touched paths (old and new); the index is refreshed
        for each of them before returning.

    Raises:
        Conflict (``exists``), Unavailable (no backup store), OSError: after rolling back what was done.
    """
    out = Outcome()
    for step in steps:  # backups of everything that will be overwritten, moved or removed, before any change
        if isinstance(step, Write) and not step.exclusive:
            _backup(ws, vault, step.path, reason, out)
        elif isinstance(step, Move):
            _backup(ws, vault, step.src, reason, out)
        elif isinstance(step, Remove):
            _backup(ws, vault, step.path, reason, out)
    journal = _Journal()
    undo = journal.undo
    try:
        for step in steps:
            if isinstance(step, Write):
                _write(vault, step, undo)
                out.touched.append(step.path)
            elif isinstance(step, MakeDir):
                target = resolve_safe_path(vault, step.path).abs
                if target.exists():
                    raise Conflict(f"{step.path!r} already exists", code="exists")
                _make_parents(target / "x", undo)
                out.touched.append(step.path)
            elif isinstance(step, Move):
                _move(vault, step, undo)
                out.touched += [step.src, step.dst]
            else:
                _remove(vault, step, journal)
                out.touched.append(step.path)
    except BaseException:
        for action in reversed(undo):
            try:
                action()
            except OSError:
                pass  # best effort: the backups taken above still hold every overwritten file
        raise
    for finish in journal.on_commit:
        finish()
    _refresh(ws, vault, out.touched)
    return out


def _refresh(ws: Workspace, vault: Vault, paths: Sequence[str]) -> None:
    """Bring the index up to date at once (own writes are searchable before the watcher sees them)."""
    if ws.indexer is None:
        return
    for path in dict.fromkeys(paths):
        ws.indexer.refresh_path(vault.name, path)
