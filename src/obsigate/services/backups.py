"""The backup services: ``list_backups``, ``diff_backup`` and the trash (``list_trash``: deleted files that
are still gone) over the workspace's store, and the one place the store's failures become service errors
(:func:`store_errors`, used by :func:`save_backup` and :func:`read_backup`, which the mutations call).

The store itself (layout, version ids, retention) is :mod:`obsigate.domain.storage.backups`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from pydantic import BaseModel, Field

from obsigate.domain.diff import MAX_DIFF_CHARS, MAX_DIFF_INPUT_BYTES
from obsigate.domain.storage import vault_fs
from obsigate.domain.storage.backups import (
    BackupArgumentError,
    BackupError,
    BackupFailedError,
    BackupNotFoundError,
    BackupStore,
)
from obsigate.domain.vault import Vault
from obsigate.services.errors import BadRequest, NotFound, ServiceError, Unavailable, is_storage_full, storage_full
from obsigate.services.paths import SafePath, normalize_rel, resolve_safe_path
from obsigate.services.results import Page, Result
from obsigate.services.workspace import Workspace, check_page, page_fields

__all__ = [
    "MAX_FOLDER_FILES",
    "MAX_LIMIT",
    "BackedUpFile",
    "BackupVersion",
    "DiffBackupResult",
    "ListBackupsResult",
    "ListTrashResult",
    "TrashEntry",
    "Trashed",
    "TrashedFile",
    "diff_backup",
    "list_backups",
    "list_trash",
    "read_backup",
    "save_backup",
    "store_errors",
    "trashed_files",
]


def _service_error(exc: BackupError) -> ServiceError:
    if isinstance(exc, BackupArgumentError):
        return BadRequest(exc.message, hint=exc.hint)
    if isinstance(exc, BackupNotFoundError):
        return NotFound(exc.message, hint=exc.hint)
    if isinstance(exc, BackupFailedError) and is_storage_full(exc):
        return storage_full(f"the disk of the backups is full: {exc.message}; nothing was changed")
    return ServiceError(exc.message, code=exc.code, hint=exc.hint)  # backup_failed, backup_damaged


@contextmanager
def store_errors() -> Iterator[None]:
    """Turn a :class:`~obsigate.domain.storage.backups.BackupError` raised inside the block into its service
    error, with the same message and hint: ``BackupArgumentError`` → :class:`BadRequest`
    (``invalid_argument``, 400), ``BackupNotFoundError`` → :class:`NotFound` (``not_found``, 404),
    ``BackupFailedError`` → ``backup_failed`` (500), or ``storage_full`` (507) when a full disk caused it,
    ``BackupDamagedError`` → ``backup_damaged`` (500)."""
    try:
        yield
    except BackupError as exc:
        raise _service_error(exc) from None


def save_backup(
    store: BackupStore, vault: str, path: str, data: bytes, *, reason: str, deleted: bool | None = None
) -> str:
    """:meth:`BackupStore.save <obsigate.domain.storage.backups.BackupStore.save>` of ``path`` (normalised
    first) with service errors; returns the new version id.

    Raises:
        BadRequest, PathOutsideVault: an invalid path or vault name. ServiceError (``backup_failed``, 500; or
        ``storage_full``, 507: the disk is full): the backup could not be written; the caller must not go on
        with its change.
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
        raise Unavailable(
            "backups are not enabled on this server", hint="the server was started without a backup store"
        )
    return ws.backups


def _current_bytes(safe: SafePath) -> bytes | None:
    """The file's bytes now, or ``None`` when nothing readable as a regular file is there (a symlink
    neither). Reads at most one byte past ``MAX_DIFF_INPUT_BYTES`` (a larger file is not diffed anyway)."""
    try:
        with vault_fs.open_file(safe.vault.root, safe.rel) as (fd, _):
            return os.read(fd, MAX_DIFF_INPUT_BYTES + 1)
    except OSError:
        return None


#: Largest ``limit`` of :func:`list_backups` (entries per page).
MAX_LIMIT = 1000


class BackupVersion(BaseModel):
    version: str = Field(description="Version id; ids sort by age.")
    created: str = Field(description="When the backup was taken, ISO 8601 UTC.")
    size: int = Field(description="Size of the saved file in bytes.")
    file_version: str = Field(description="The saved file's version, as read_file's (equal: same content).")
    reason: str = Field(description="The change that made the backup: edit_file, delete_file, rename_file...")
    deleted: bool = Field(default=False, description="The file was deleted; this backup holds its content.")


class BackedUpFile(BaseModel):
    path: str
    versions: int
    latest: str = Field(description="Newest version id.")
    created: str = Field(description="When the newest backup was taken, ISO 8601 UTC.")
    reason: str
    deleted: bool = Field(description="The newest backup holds a file that was deleted.")


class ListBackupsResult(Result, Page):
    vault: str
    path: str | None
    versions: list[BackupVersion] = Field(description="The file's versions, newest first (with path).")
    files: list[BackedUpFile] | None = Field(
        default=None, description="Without path: every backed-up path, most recent first."
    )


def list_backups(
    ws: Workspace, vault: Vault, path: str | None, *, limit: int = 200, offset: int = 0
) -> ListBackupsResult:
    """The saved versions of one file of ``vault`` (already permitted by the tool layer), newest first; without
    ``path``, every path of the vault that has backups, most recent first (how a deleted note or folder is
    found again). The file need not exist any more: a deleted note keeps its backups under its old path.

    Either list is paged: at most ``limit`` entries (1..``MAX_LIMIT``) from ``offset`` on.

    Returns a :class:`ListBackupsResult`: ``versions`` (:meth:`BackupStore.versions`) with a path, ``files`` (:meth:`BackupStore.files`)
    without one (``versions`` is then ``[]``); ``total`` counts the whole list, ``next_offset`` is the
    ``offset`` of the next page (``None`` at the end). ``file_version`` is the keyed version of the saved
    bytes, as read_file's ``version`` (equal when the file is back to this backup), never their SHA-256: a
    backup of a note holds its secrets, and a plain hash of them could be checked against guesses.

    Raises:
        PathOutsideVault, BadRequest (also ``limit``/``offset`` out of range); Unavailable: no backup store;
        ServiceError ``backup_failed``: a folder of the store is not a real folder.
    """
    check_page(limit, offset, max_limit=MAX_LIMIT)
    if not path:
        with store_errors():
            files = _store(ws).files(vault.name)
        page = files[offset : offset + limit]
        return ListBackupsResult.model_validate(
            {
                "vault": vault.name,
                "path": None,
                "versions": [],
                "files": page,
                **page_fields(len(files), offset, len(page)),
            }
        )
    safe = resolve_safe_path(vault, path)
    with store_errors():
        versions = _store(ws).versions(vault.name, safe.rel)
    page = [
        {k: v for k, v in entry.items() if k != "sha256"} | {"file_version": ws.versions.of_sha256(entry["sha256"])}
        for entry in versions[offset : offset + limit]
    ]
    return ListBackupsResult.model_validate(
        {
            "vault": vault.name,
            "path": safe.rel,
            "versions": page,
            "files": None,
            **page_fields(len(versions), offset, len(page)),
        }
    )


class DiffBackupResult(Result):
    vault: str
    path: str
    version: str
    compare_with: str | None = Field(description="The other version id, or null for the current file.")
    diff: str = Field(
        description="Unified diff from the backup to the other side (secrets redacted); '' when identical; "
        "a one-line note for binary files."
    )


def diff_backup(
    ws: Workspace, vault: Vault, path: str, version: str, *, compare_with: str | None = None
) -> DiffBackupResult:
    """Compare backup ``version`` of a file of ``vault`` (already permitted by the tool layer) with another
    version (``compare_with``) or, by default, with the file as it is now (absent = every line removed). The
    diff goes from the backup to the other side and is redacted; it is cut to fit the tool result budget (at
    most ``MAX_DIFF_CHARS`` characters).

    Returns a :class:`DiffBackupResult` (``compare_with``: a version id, or None = the current file; ``diff``:
    ``""`` when identical).

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
    return DiffBackupResult(
        vault=vault.name, path=safe.rel, version=version, compare_with=compare_with, diff=diff, truncated=truncated
    )


#: Files listed under one deleted folder of :func:`list_trash` (``count`` gives them all; restoring the folder
#: restores every one).
MAX_FOLDER_FILES = 100


def _absent(vault: Vault, rel: str) -> bool:
    """True when nothing is at ``rel`` in ``vault`` now (a path the vault refuses counts as present: it is
    never offered for restoring)."""
    try:
        return not vault_fs.exists(vault.root, resolve_safe_path(vault, rel).rel)
    except (ServiceError, OSError):
        return False


@dataclass(frozen=True, slots=True)
class Trashed:
    """A deleted file still gone: its ``path``, ``version`` (its newest backup: the content it had),
    ``deleted_at`` (ISO 8601 UTC) and the ``reason`` of that backup (``delete_file``...)."""

    path: str
    version: str
    deleted_at: str
    reason: str


def trashed_files(ws: Workspace, vault: Vault, under: str | None = None) -> list[Trashed]:
    """The trash of ``vault``: every file whose newest backup was taken as it was deleted and whose path is
    still free (a file renamed away or re-created is not in the trash), most recently deleted first.
    ``under``: only that path or the files below that folder.

    Raises:
        Unavailable: no backup store; ServiceError ``backup_failed``.
    """
    with store_errors():
        files = _store(ws).files(vault.name)
    out = []
    for f in files:
        path = f["path"]
        if not f["deleted"] or (under and path != under and not path.startswith(f"{under}/")):
            continue
        if _absent(vault, path):
            out.append(Trashed(path, f["latest"], f["created"], f["reason"]))
    return out


def _deleted_folder(vault: Vault, rel: str, absent: dict[str, bool]) -> str | None:
    """The highest folder above ``rel`` that no longer exists (the folder that was deleted with it), or
    ``None`` when the file's own folder is still there. ``absent`` caches the checks."""
    parts = rel.split("/")[:-1]
    for i in range(1, len(parts) + 1):
        folder = "/".join(parts[:i])
        if folder not in absent:
            absent[folder] = _absent(vault, folder)
        if absent[folder]:
            return folder
    return None


class TrashedFile(BaseModel):
    path: str
    version: str = Field(description="Its newest backup: the content it had when it was deleted.")
    deleted_at: str = Field(description="ISO 8601 UTC.")
    reason: str = Field(description="delete_file or delete_directory.")
    size: int | None = Field(description="Bytes.")


class TrashEntry(BaseModel):
    kind: str = Field(description="'file', or 'folder': a deleted folder and the files it held.")
    path: str
    deleted_at: str = Field(description="The latest deletion in the entry, ISO 8601 UTC.")
    count: int = Field(description="Files in the entry.")
    files: list[TrashedFile] = Field(description=f"By path; a folder's first {MAX_FOLDER_FILES}.")


class ListTrashResult(Result, Page):
    vault: str
    entries: list[TrashEntry] = Field(description="Newest deletion first.")


def list_trash(ws: Workspace, vault: Vault, *, limit: int = 100, offset: int = 0) -> ListTrashResult:
    """The trash of ``vault`` (already permitted by the tool layer) as a person sees it: each deleted file whose
    folder still exists is an entry, and the files of a deleted folder are one entry (the highest folder that
    is gone), newest deletion first; paged by entries. A deleted file and a deleted folder of the same path
    (``Sub`` deleted as a folder, then a file ``Sub`` made and deleted) are two entries, told apart by
    ``kind``, as ``restore_trash`` tells them apart.

    Returns a :class:`ListTrashResult` (an entry's ``files``: a folder's first ``MAX_FOLDER_FILES``, by
    path; a file's ``size`` is ``None`` when its backup cannot be read). A file comes back with
    ``restore_trash`` (or ``restore_backup`` of its ``version``).

    Raises:
        BadRequest (``limit``/``offset`` out of range); Unavailable: no backup store; ServiceError
        ``backup_failed``.
    """
    check_page(limit, offset, max_limit=MAX_LIMIT)
    grouped: dict[tuple[str, str], list[Trashed]] = {}  # by (kind, path): a file and a folder may share a path
    absent: dict[str, bool] = {}
    for f in trashed_files(ws, vault):  # newest first: an entry's first file gives its time and place
        folder = _deleted_folder(vault, f.path, absent)
        grouped.setdefault(("folder", folder) if folder else ("file", f.path), []).append(f)
    keys = list(grouped)
    store = _store(ws)

    def size(f: Trashed) -> int | None:
        try:
            return int(store.info(vault.name, f.path, f.version).get("size", 0))
        except BackupError:  # pruned or damaged since it was listed: listed without a size
            return None

    page = [
        TrashEntry(
            kind=kind, path=where, deleted_at=grouped[kind, where][0].deleted_at, count=len(grouped[kind, where]),
            files=[TrashedFile(path=f.path, version=f.version, deleted_at=f.deleted_at, reason=f.reason, size=size(f))
                   for f in sorted(grouped[kind, where], key=lambda f: f.path)[:MAX_FOLDER_FILES]],
        )
        for kind, where in keys[offset : offset + limit]
    ]  # fmt: skip
    return ListTrashResult(vault=vault.name, entries=page, **page_fields(len(keys), offset, len(page)))
