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

__all__ = ["TEMP_SUFFIX", "atomic_write", "fsync_dir", "is_atomic_temp", "remove_stale_temps"]

TEMP_SUFFIX = ".obsigate.tmp"
_NAME_BYTES = 100  # of the target's name kept in the temp name (a name may be 255 bytes; the temp must fit too)
_NO_HARDLINKS = {errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK, errno.ENOSYS}


def is_atomic_temp(name: str) -> bool:
    """True for the file name (basename) of a temporary file made by :func:`atomic_write`."""
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def _temp_name(target_name: str) -> str:
    short = target_name.encode("utf-8", "surrogateescape")[:_NAME_BYTES].decode("utf-8", "ignore")
    return f".{short}.{secrets.token_hex(6)}{TEMP_SUFFIX}"


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
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.EBADF, errno.ENOTSUP, errno.EOPNOTSUPP):
            raise
    finally:
        os.close(fd)


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def atomic_write(path: Path, data: bytes, *, exclusive: bool = False, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` so that readers and crashes only ever see the old or the new content.

    Args:
        path: the file to write. Its folder must exist (missing folders are the caller's decision).
            A symlink at ``path`` is followed when replacing: the file it points to gets the new bytes and
            the link stays (the caller has checked where it leads, e.g. with ``services.paths``).
        data: the complete new content.
        exclusive: create only: never replace anything that exists at ``path`` (file, folder or symlink,
            even a dangling one). Done with ``os.link`` of the finished temp file, which fails if the name
            exists, so two concurrent creators cannot both win.
        mode: permission bits of the written file. Default: an existing file's bits are kept (and its
            owner, where allowed); a new file gets ``0o666`` less the process umask, as ``open()`` does.

    Raises:
        FileNotFoundError: the folder of ``path`` does not exist.
        FileExistsError: ``exclusive`` and ``path`` already exists.
        IsADirectoryError, PermissionError, OSError: the write failed; ``path`` is unchanged and no
            temporary file is left behind.
    """
    target = os.fspath(path)
    if not exclusive and os.path.islink(target):
        target = os.path.realpath(target)
    folder, name = os.path.split(os.path.abspath(target))
    existing: os.stat_result | None = None
    if not exclusive:
        try:
            existing = os.stat(target)
        except FileNotFoundError:
            existing = None
    temp = os.path.join(folder, _temp_name(name))
    # with a mode, the temp is born owner-only: a reader who opened a wider temp before the fchmod below would
    # keep its handle and read a secret written afterwards
    born = 0o666 if mode is None else 0o600
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), born)
    placed = False
    try:
        try:
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, stat.S_IMODE(mode))
            elif existing is not None and stat.S_ISREG(existing.st_mode):
                _copy_owner_and_mode(fd, existing)
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        if exclusive:
            _link_exclusive(temp, target, data, mode)
            _unlink_quietly(temp)
        else:
            os.replace(temp, target)
        placed = True
        fsync_dir(folder)
    except BaseException:
        if not placed:
            _unlink_quietly(temp)
        raise


def _copy_owner_and_mode(fd: int, existing: os.stat_result) -> None:
    """Give the temp file the replaced file's owner (best effort: only root or the owner may) and mode."""
    if hasattr(os, "fchown"):
        try:
            os.fchown(fd, existing.st_uid, existing.st_gid)
        except OSError:
            pass
    if hasattr(os, "fchmod"):
        os.fchmod(fd, stat.S_IMODE(existing.st_mode))


def _link_exclusive(temp: str, target: str, data: bytes, mode: int | None) -> None:
    """Publish ``temp`` at ``target`` without ever replacing an existing name.

    On filesystems without hard links, falls back to ``O_EXCL`` creation of ``target`` and a direct write:
    still never overwrites, but a crash in the middle can leave a short file there (it is removed on any
    error that is not a crash)."""
    try:
        os.link(temp, target)
        return
    except OSError as exc:
        if isinstance(exc, FileExistsError) or exc.errno not in _NO_HARDLINKS:
            raise
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(target, flags, 0o666 if mode is None else stat.S_IMODE(mode))
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        _unlink_quietly(target)
        raise


def remove_stale_temps(folder: str | os.PathLike[str], *, older_than_s: float = 3600.0) -> int:
    """Delete :func:`atomic_write` temp files in ``folder`` (not recursive) last modified more than
    ``older_than_s`` seconds ago: leftovers of a process killed mid-write. Returns how many were removed;
    a folder that cannot be listed counts as none."""
    removed = 0
    cutoff = time.time() - older_than_s
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        try:
            if is_atomic_temp(entry.name) and entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed
