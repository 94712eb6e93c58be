"""The backup services: ``list_backups`` and ``diff_backup`` over the workspace's store, and the one place the
store's failures become service errors (:func:`store_errors`, used by :func:`save_backup` and
:func:`read_backup`, which the mutations call).

The store itself (layout, version ids, retention) is :mod:`obsigate.domain.storage.backups`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from obsigate.domain.diff import MAX_DIFF_CHARS, MAX_DIFF_INPUT_BYTES
from obsigate.domain.storage.backups import (
    BackupArgumentError,
    BackupError,
    BackupNotFoundError,
    BackupStore,
)
from obsigate.domain.vault import Vault
from obsigate.services.errors import BadRequest, NotFound, ServiceError, Unavailable
from obsigate.services.paths import SafePath, normalize_rel, resolve_safe_path
from obsigate.services.workspace import Workspace, check_page, page_fields

__all__ = ["MAX_LIMIT", "diff_backup", "list_backups", "read_backup", "save_backup", "store_errors"]


def _service_error(exc: BackupError) -> ServiceError:
    if isinstance(exc, BackupArgumentError):
        return BadRequest(exc.message, hint=exc.hint)
    if isinstance(exc, BackupNotFoundError):
        return NotFound(exc.message, hint=exc.hint)
    return ServiceError(exc.message, code=exc.code, hint=exc.hint)  # backup_failed, backup_damaged


@contextmanager
def store_errors() -> Iterator[None]:
    """Turn a :class:`~obsigate.domain.storage.backups.BackupError` raised inside the block into its service
    error, with the same message and hint: ``BackupArgumentError`` → :class:`BadRequest`
    (``invalid_argument``, 400), ``BackupNotFoundError`` → :class:`NotFound` (``not_found``, 404),
    ``BackupFailedError`` → ``backup_failed`` (500), ``BackupDamagedError`` → ``backup_damaged`` (500)."""
    try:
        yield
    except BackupError as exc:
        raise _service_error(exc) from None


def save_backup(store: BackupStore, vault: str, path: str, data: bytes, *, reason: str, deleted: bool | None = None) -> str:
    """:meth:`BackupStore.save <obsigate.domain.storage.backups.BackupStore.save>` of ``path`` (normalised
    first) with service errors; returns the new version id.

    Raises:
        BadRequest, PathOutsideVault: an invalid path or vault name. ServiceError (``backup_failed``, 500): the
        backup could not be written; the caller must not go on with its change.
    """
    rel = normalize_rel(path)
    with store_errors():
        return store.save(vault, rel, data, reason=reason, deleted=deleted)


def read_backup(store: BackupStore, vault: str, path: str, version: str) -> bytes:
    """The exact bytes saved as ``version`` of ``path`` (normalised first), with service errors.

    Raises:
        BadRequest: a malformed version id; also PathOutsideVault for an invalid path. NotFound: no such version
        of this file. ServiceError (``backup_damaged``, 500): the stored bytes no longer match their checksum.
    """
    rel = normalize_rel(path)
    with store_errors():
        return store.read(vault, rel, version)


def _store(ws: Workspace) -> BackupStore:
    if ws.backups is None:
        raise Unavailable("backups are not enabled on this server", hint="the server was started without a backup store")
    return ws.backups


def _current_bytes(safe: SafePath) -> bytes | None:
    """The file's bytes now, or ``None`` when nothing readable as a regular file is there. Reads at most one
    byte past ``MAX_DIFF_INPUT_BYTES`` (a larger file is not diffed anyway)."""
    try:
        st = os.stat(safe.abs)
        if not stat.S_ISREG(st.st_mode):
            return None
        fd = os.open(safe.abs, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        return f.read(MAX_DIFF_INPUT_BYTES + 1)


#: Largest ``limit`` of :func:`list_backups` (entries per page).
MAX_LIMIT = 1000


def list_backups(
    ws: Workspace, vault: Vault, path: str | None, *, limit: int = 200, offset: int = 0
) -> dict[str, Any]:
    """The saved versions of one file of ``vault`` (already permitted by the tool layer), newest first; without
    ``path``, every path of the vault that has backups, most recent first (how a deleted note or folder is
    found again). The file need not exist any more: a deleted note keeps its backups under its old path.

    Either list is paged: at most ``limit`` entries (1..``MAX_LIMIT``) from ``offset`` on.

    Returns ``{"vault", "path", "versions": [{"version", "created", "size", "sha256", "reason", "deleted"}],
    "files": [{"path", "versions", "latest", "created", "reason", "deleted"}] | None, "total", "offset",
    "truncated", "next_offset"}``: ``versions`` (:meth:`BackupStore.versions`) with a path, ``files`` (:meth:`BackupStore.files`)
    without one (``versions`` is then ``[]``); ``total`` counts the whole list, ``next_offset`` is the
    ``offset`` of the next page (``None`` at the end).

    Raises:
        PathOutsideVault, BadRequest (also ``limit``/``offset`` out of range); Unavailable: no backup store;
        ServiceError ``backup_failed``: a folder of the store is not a real folder.
    """
    check_page(limit, offset, max_limit=MAX_LIMIT)
    if not path:
        with store_errors():
            files = _store(ws).files(vault.name)
        page = files[offset : offset + limit]
        return {"vault": vault.name, "path": None, "versions": [], "files": page, **page_fields(len(files), offset, len(page))}
    safe = resolve_safe_path(vault, path)
    with store_errors():
        versions = _store(ws).versions(vault.name, safe.rel)
    page = versions[offset : offset + limit]
    return {"vault": vault.name, "path": safe.rel, "versions": page, "files": None, **page_fields(len(versions), offset, len(page))}


def diff_backup(
    ws: Workspace, vault: Vault, path: str, version: str, *, compare_with: str | None = None
) -> dict[str, Any]:
    """Compare backup ``version`` of a file of ``vault`` (already permitted by the tool layer) with another
    version (``compare_with``) or, by default, with the file as it is now (absent = every line removed). The
    diff goes from the backup to the other side and is redacted; it is cut to fit the tool result budget (at
    most ``MAX_DIFF_CHARS`` characters).

    Returns ``{"vault", "path", "version", "compare_with" (a version id, or None = the current file),
    "diff" ("" when identical), "truncated"}``.

    Raises:
        NotFound (version), PathOutsideVault, BadRequest (malformed version id); Unavailable: no backup store;
        ServiceError ``backup_damaged``.
    """
    safe = resolve_safe_path(vault, path)
    store = _store(ws)
    current = _current_bytes(safe) if compare_with is None else None
    max_chars = min(MAX_DIFF_CHARS, max(2_000, ws.limits.budget_chars - 2_000))
    with store_errors():
        diff, truncated = store.diff(vault.name, safe.rel, version, compare_with, current, max_chars=max_chars)
    return {
        "vault": vault.name,
        "path": safe.rel,
        "version": version,
        "compare_with": compare_with,
        "diff": diff,
        "truncated": truncated,
    }
