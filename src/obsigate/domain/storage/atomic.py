"""Crash-safe file writes: a file is either its old bytes or its new bytes, never a torn mix.

:func:`atomic_write` writes the new bytes to a temporary file in the *same folder* (so the final step is a
rename on one filesystem), flushes it to disk (``fsync``), then renames it over the target
(``os.replace``, atomic on POSIX and Windows) and flushes the folder so the rename itself survives a power
cut. A process killed at any point leaves the target untouched or fully replaced.

The temporary file is named ``.<name>.<random>.obsigate.tmp``: the leading dot makes it hidden and the
``.tmp`` suffix an editor temp (``domain.vault.is_hidden`` / ``is_editor_temp``), so the vault walker, the
watcher and the path guard never show it as a vault file, even when a crash leaves it behind
(:func:`remove_stale_temps` sweeps such leftovers).
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import time
from pathlib import Path

__all__ = [
    "TEMP_SUFFIX",
    "atomic_write",
    "atomic_write_at",
    "fsync_dir",
    "fsync_fd",
    "is_atomic_temp",
    "remove_stale_temps",
]

TEMP_SUFFIX = ".obsigate.tmp"
_NAME_BYTES = 100  # of the target's name kept in the temp name (a name may be 255 bytes; the temp must fit too)
_NO_HARDLINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS}


def is_atomic_temp(name: str) -> bool:
    """True for the file name (basename) of a temporary file made by :func:`atomic_write`."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def _temp_name(target_name: str) -> str:
    short = target_name.encode("utf-8", "surrogateescape")[:_NAME_BYTES].decode("utf-8", "ignore")
    return f".{short}.{secrets.token_hex(6)}{TEMP_SUFFIX}"


def fsync_fd(dir_fd: int) -> None:
    """Flush an open folder's entries to disk; filesystems that cannot fsync a folder are skipped silently."""
    try:
        os.fsync(dir_fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise


def fsync_dir(folder: str | os.PathLike[str]) -> None:
    """Flush a folder's entries (a rename, a link, an unlink) to disk. Filesystems that cannot fsync a
    folder (``EINVAL``, ``EBADF``, some network/FUSE mounts) are skipped silently; other errors raise."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(folder, flags)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EINVAL):
            return
        raise
    try:
        fsync_fd(fd)
    finally:
        os.close(fd)


def _unlink_quietly(name: str, dir_fd: int | None = None) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except OSError:
        pass


def atomic_write(path: Path, data: bytes, *, exclusive: bool = False, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` so that readers and crashes only ever see the old or the new content.

    For the server's own files (data dir). A vault file is written with
    :func:`obsigate.domain.storage.vault_fs.write_file`, which reaches its folder without following symlinks
    and then calls :func:`atomic_write_at`.

    Args:
        path: the file to write. Its folder must exist (missing folders are the caller's decision). A symlink
            at ``path`` is replaced by the new file, never followed.
        data, exclusive, mode: see :func:`atomic_write_at`.

    Raises:
        FileNotFoundError: the folder of ``path`` does not exist.
        FileExistsError, IsADirectoryError, PermissionError, OSError: see :func:`atomic_write_at`.
    """
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        atomic_write_at(dir_fd, name, data, exclusive=exclusive, mode=mode)
    finally:
        os.close(dir_fd)


def atomic_write_at(dir_fd: int, name: str, data: bytes, *, exclusive: bool = False, mode: int | None = None) -> None:
    """Write ``data`` to the entry ``name`` of the open folder ``dir_fd``, crash-safe (see the module docstring).

    Everything happens relative to ``dir_fd``: the temp file is created there with ``O_EXCL|O_NOFOLLOW``, and
    renamed over ``name`` with ``os.replace(src_dir_fd=, dst_dir_fd=)``, which replaces a symlink at ``name``
    instead of following it (the new file never lands anywhere but in this folder).

    Args:
        dir_fd: an open descriptor of the folder (``O_RDONLY|O_DIRECTORY``: it is fsynced).
        name: one entry name, no ``/``.
        data: the complete new content.
        exclusive: create only: never replace anything that exists at ``name`` (file, folder or symlink,
            even a dangling one). Done with ``os.link`` of the finished temp file, which fails if the name
            exists, so two concurrent creators cannot both win.
        mode: permission bits of the written file. Default: an existing regular file's bits are kept (and
            its owner, where allowed); a new file gets ``0o666`` less the process umask, as ``open()`` does.

    Raises:
        FileExistsError: ``exclusive`` and ``name`` already exists.
        IsADirectoryError, PermissionError, OSError: the write failed; ``name`` is unchanged and no temporary
            file is left behind.
    """
    existing: os.stat_result | None = None
    if not exclusive:
        try:
            existing = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            existing = None
    temp = _temp_name(name)
    # with a mode, the temp is born owner-only: a reader who opened a wider temp before the fchmod below would
    # keep its handle and read a secret written afterwards
    born = 0o666 if mode is None else 0o600
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, born, dir_fd=dir_fd)
    placed = False
    try:
        try:
            if mode is not None:
                os.fchmod(fd, stat.S_IMODE(mode))
            elif existing is not None and stat.S_ISREG(existing.st_mode):
                _copy_owner_and_mode(fd, existing)
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if exclusive:
            _link_exclusive(dir_fd, temp, name, data, mode)
            _unlink_quietly(temp, dir_fd)
        else:
            os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        placed = True
        fsync_fd(dir_fd)
    except BaseException:
        if not placed:
            _unlink_quietly(temp, dir_fd)
        raise


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _copy_owner_and_mode(fd: int, existing: os.stat_result) -> None:
    """Give the temp file the replaced file's owner (best effort: only root or the owner may) and mode."""
    if hasattr(os, "fchown"):
        try:
            os.fchown(fd, existing.st_uid, existing.st_gid)
        except OSError:
            pass
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(existing.st_mode))


def _link_exclusive(dir_fd: int, temp: str, name: str, data: bytes, mode: int | None) -> None:
    """Publish ``temp`` at ``name`` (both in ``dir_fd``) without ever replacing an existing name.

    On filesystems without hard links, falls back to ``O_EXCL`` creation of ``name`` and a direct write:
    still never overwrites, but a crash in the middle can leave a short file there (it is removed on any
    error that is not a crash)."""
    try:
        os.link(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
        return
    except OSError as exc:
        if isinstance(exc, FileExistsError) or exc.errno not in _NO_HARDLINKS:
            raise
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    fd = os.open(name, flags, 0o666 if mode is None else stat.S_IMODE(mode), dir_fd=dir_fd)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        _unlink_quietly(name, dir_fd)
        raise


def remove_stale_temps(folder: str | os.PathLike[str] | int, *, older_than_s: float = 3600.0) -> int:
    """Delete :func:`atomic_write` temp files in ``folder`` (a path, or an open folder descriptor; not
    recursive) last modified more than ``older_than_s`` seconds ago: leftovers of a process killed mid-write.
    Returns how many were removed; a folder that cannot be listed counts as none."""
    dir_fd = folder if isinstance(folder, int) else None
    removed = 0
    cutoff = time.time() - older_than_s
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        try:
            if (
                is_atomic_temp(entry.name)
                and entry.is_file(follow_symlinks=False)
                and entry.stat(follow_symlinks=False).st_mtime < cutoff
            ):
                os.unlink(entry.name if dir_fd is not None else entry.path, dir_fd=dir_fd)
                removed += 1
        except OSError:
            continue
    return removed
