"""The one way into a vault's files: every path is walked from the vault root's directory descriptor, one
component at a time, and no symlink is ever followed.

Why: a path checked by name and then opened by name can be swapped for a symlink in between. Issue 16
measured it: a note flipped every millisecond between a file and a symlink to the server's JWT key returned
the key within 22-44 requests (the bug class of CVE-2025-53109/53110; ``shared/reference/security.md``
§1.3-1.4). Here nothing is opened by its whole name. Each folder on the way is opened with
``O_DIRECTORY|O_NOFOLLOW`` relative to the previous folder's descriptor; the file itself with ``O_NOFOLLOW``
(and ``O_NONBLOCK``: a FIFO swapped in must not hang a worker). The work is then done on those descriptors:
``fstat``, read, write (temp file + fsync + ``renameat``), ``unlinkat``. A symlink met anywhere raises
:class:`OutsideVault` and is never replaced by its target. Nothing else in ObsiGate opens a vault path
(``tests/test_architecture.py`` checks it).

Paths are vault-relative and ``/``-separated, already checked by the string policy (``services.paths``). They
are checked again here for ``..`` and NUL. A name stored in another Unicode normal form than the one asked for
(NFD, from macOS) is found by comparing NFC forms within its folder. The vault root itself is trusted: it is
the real path resolved at start (``domain.vault.Vault``).
"""

from __future__ import annotations

import errno
import os
import shutil
import stat
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Literal

from obsigate.domain.storage.atomic import atomic_write_at, fsync_fd
from obsigate.domain.text import nfc

__all__ = [
    "FileTooLarge",
    "Kind",
    "NotRegular",
    "OutsideVault",
    "TooDeep",
    "exists",
    "folder",
    "kind",
    "list_folder",
    "lstat",
    "make_folder",
    "open_file",
    "pin",
    "read_file",
    "remove_file",
    "remove_folder",
    "remove_tree",
    "rename",
    "stat_names",
    "walk",
    "write_file",
]

Kind = Literal["file", "dir", "symlink", "other"]
MAX_DEPTH = 64  # folders deeper than this are not walked
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_CHUNK = 1 << 20


class OutsideVault(OSError):
    """The path meets a symlink (on the way or at its end), or climbs out with ``..``. ``filename`` is the
    vault-relative path asked for."""

    def __init__(self, rel: str, why: str = "a symlink inside the vault is never followed") -> None:
        super().__init__(errno.ELOOP, why, rel)


class NotRegular(OSError):
    """The path names a FIFO, socket or device: never opened for reading (it could block forever)."""

    def __init__(self, rel: str) -> None:
        super().__init__(errno.EINVAL, "not a regular file", rel)


class TooDeep(OSError):
    """A strict :func:`walk` met a folder deeper than :data:`MAX_DEPTH` (what it holds cannot be seen)."""

    def __init__(self, rel: str) -> None:
        super().__init__(errno.ELOOP, f"deeper than {MAX_DEPTH} folders", rel)


class FileTooLarge(OSError):
    """The file is over the caller's byte cap; ``size`` is its size in bytes."""

    def __init__(self, rel: str, size: int) -> None:
        super().__init__(errno.EFBIG, f"file is {size} bytes", rel)
        self.size = size


def _segments(rel: str) -> list[str]:
    if "\x00" in rel:
        raise OutsideVault(rel, "NUL in a path")
    segs = [s for s in rel.split("/") if s not in ("", ".")]
    if ".." in segs:
        raise OutsideVault(rel, "'..' climbs out of the vault")
    return segs


def _disk_name(dir_fd: int, seg: str) -> str:
    """``seg`` as spelled in the folder ``dir_fd``: itself, or else the one entry whose NFC form it is (a name
    synced from macOS keeps its NFD spelling on Linux; Obsidian compares NFC, obsidian.md §12)."""
    if seg.isascii():
        return seg
    try:
        os.stat(seg, dir_fd=dir_fd, follow_symlinks=False)
        return seg
    except FileNotFoundError:
        pass
    try:
        return next((n for n in os.listdir(dir_fd) if nfc(n) == seg), seg)
    except OSError:
        return seg


def _refuse_link(dir_fd: int, name: str, rel: str) -> os.stat_result | None:
    """The entry's own stat (``None`` if absent); a symlink raises :class:`OutsideVault`."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        raise OutsideVault(rel)
    return st


def _open_dir(dir_fd: int, seg: str, rel: str) -> int:
    name = _disk_name(dir_fd, seg)
    try:
        return os.open(name, _DIR, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # O_NOFOLLOW met a symlink (even if it is a folder again by now)
            raise OutsideVault(rel) from None
        if exc.errno == errno.ENOTDIR:
            st = _refuse_link(dir_fd, name, rel)
            if st is not None and stat.S_ISDIR(st.st_mode):  # swapped back meanwhile: it was not a folder
                raise OutsideVault(rel, "a folder on the way changed while it was opened") from None
            raise NotADirectoryError(errno.ENOTDIR, "a file stands where a folder is", rel) from None
        raise


_PINNED: dict[str, tuple[int, int]] = {}  # vault root → (st_dev, st_ino) of the folder it named when declared
_PIN_LOCK = threading.Lock()


def pin(root: str | os.PathLike[str]) -> None:
    """Remember which folder ``root`` is now (device and inode): every later open of that root checks it is
    still that folder, so a vault folder swapped for a symlink (or a parent of it renamed) is refused instead
    of serving whatever the new path leads to. Called when a vault is declared (``domain.vault.Vault``); a
    root that does not exist yet is left unpinned."""
    try:
        st = os.stat(root)
    except OSError:
        return
    with _PIN_LOCK:
        _PINNED[os.fspath(root)] = (st.st_dev, st.st_ino)


def _open_root(root: str | os.PathLike[str]) -> int:
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    pinned = _PINNED.get(os.fspath(root))
    if pinned is not None:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != pinned:
            os.close(fd)
            raise OutsideVault("", "the vault's folder was replaced since it was declared (a symlink or a move)")
    return fd


@contextmanager
def _walk_to(root: str | os.PathLike[str], segs: list[str], rel: str) -> Iterator[int]:
    fd = _open_root(root)
    try:
        for seg in segs:
            nxt = _open_dir(fd, seg, rel)
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


@contextmanager
def folder(root: str | os.PathLike[str], rel: str = "") -> Iterator[int]:
    """An open descriptor of the folder ``rel`` of the vault at ``root`` (``""``: the root), closed on exit.

    Raises:
        OutsideVault: a symlink on the way or at ``rel``.
        FileNotFoundError, NotADirectoryError: no such folder.
    """
    with _walk_to(root, _segments(rel), rel) as fd:
        yield fd


@contextmanager
def _parent(root: str | os.PathLike[str], rel: str) -> Iterator[tuple[int, str]]:
    """``(descriptor of the folder holding rel, rel's name as spelled there)``."""
    segs = _segments(rel)
    if not segs:
        raise OutsideVault(rel, "the vault root is not a file")
    with _walk_to(root, segs[:-1], rel) as fd:
        yield fd, _disk_name(fd, segs[-1])


def lstat(root: str | os.PathLike[str], rel: str) -> os.stat_result:
    """The stat of ``rel`` itself (``""``: the root).

    Raises:
        OutsideVault: ``rel`` is a symlink or lies beyond one.
        FileNotFoundError, NotADirectoryError: absent (or below a file).
    """
    if not _segments(rel):
        with folder(root) as fd:
            return os.fstat(fd)
    with _parent(root, rel) as (fd, name):
        st = _refuse_link(fd, name, rel)
    if st is None:
        raise FileNotFoundError(errno.ENOENT, "no such file or folder", rel)
    return st


def kind(root: str | os.PathLike[str], rel: str) -> Kind | None:
    """What ``rel`` is: ``"file"`` (regular), ``"dir"``, ``"symlink"``, ``"other"`` (FIFO, socket, device), or
    ``None`` when absent (also below a file). ``""`` is the root (``"dir"``).

    Raises:
        OutsideVault: a symlink on the way to ``rel`` (a symlink *at* ``rel`` is reported, not raised).
    """
    segs = _segments(rel)
    if not segs:
        return "dir"
    try:
        with _parent(root, rel) as (fd, name):
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except (FileNotFoundError, NotADirectoryError):
        return None
    if stat.S_ISREG(st.st_mode):
        return "file"
    if stat.S_ISDIR(st.st_mode):
        return "dir"
    return "symlink" if stat.S_ISLNK(st.st_mode) else "other"


def exists(root: str | os.PathLike[str], rel: str) -> bool:
    """Whether anything (even a symlink) has the name ``rel``. Raises :class:`OutsideVault` for a symlink on
    the way."""
    return kind(root, rel) is not None


@contextmanager
def open_file(root: str | os.PathLike[str], rel: str) -> Iterator[tuple[int, os.stat_result]]:
    """``(descriptor, fstat)`` of the regular file ``rel``, opened read-only; closed on exit.

    Raises:
        OutsideVault: a symlink on the way or at ``rel``.
        FileNotFoundError, NotADirectoryError: absent. IsADirectoryError: a folder. NotRegular: a FIFO,
        socket or device. PermissionError, OSError: the disk refused.
    """
    with _parent(root, rel) as (dir_fd, name):
        try:
            fd = os.open(name, _READ, dir_fd=dir_fd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise OutsideVault(rel) from None
            raise
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, "a folder", rel)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegular(rel)
        if st.st_nlink > 1:  # another name of this file may lie outside the vault (the data dir's keys...)
            raise OutsideVault(rel, "a hard-linked file is never read: another name of it may lie outside the vault")
        yield fd, st
    finally:
        os.close(fd)


def read_file(root: str | os.PathLike[str], rel: str, *, max_bytes: int | None = None) -> tuple[bytes, os.stat_result]:
    """The bytes of the regular file ``rel`` and its ``fstat`` (taken on the descriptor that was read).

    Args:
        max_bytes: refuse a file larger than this (checked on the size, and again on what is read, so a file
            growing meanwhile is refused too).

    Raises:
        FileTooLarge: over ``max_bytes``; and see :func:`open_file`.
    """
    with open_file(root, rel) as (fd, st):
        if max_bytes is not None and st.st_size > max_bytes:
            raise FileTooLarge(rel, st.st_size)
        cap = (max_bytes + 1) if max_bytes is not None else None
        parts: list[bytes] = []
        got = 0
        while cap is None or got < cap:
            chunk = os.read(fd, _CHUNK if cap is None else min(_CHUNK, cap - got))
            if not chunk:
                break
            parts.append(chunk)
            got += len(chunk)
        if max_bytes is not None and got > max_bytes:
            raise FileTooLarge(rel, got)
        return b"".join(parts), st


def write_file(root: str | os.PathLike[str], rel: str, data: bytes, *, exclusive: bool = False) -> None:
    """Write ``data`` at ``rel`` crash-safely (temp file in the same folder, fsync, rename; see
    ``atomic.atomic_write_at``). The folder must exist.

    Args:
        exclusive: create only; never replace anything at ``rel``.

    Raises:
        OutsideVault: a symlink on the way or at ``rel`` (a symlink swapped in after that check is replaced by
            the new file, never followed).
        FileExistsError: ``exclusive`` and ``rel`` exists. FileNotFoundError, NotADirectoryError: no folder.
        IsADirectoryError, PermissionError, OSError: the disk refused; nothing changed.
    """
    with _parent(root, rel) as (fd, name):
        if not exclusive:
            st = _refuse_link(fd, name, rel)
            if st is not None and stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError(errno.EISDIR, "a folder", rel)
        atomic_write_at(fd, name, data, exclusive=exclusive)


def make_folder(root: str | os.PathLike[str], rel: str) -> None:
    """Create the one folder ``rel`` (its parent must exist) and flush it to disk.

    Raises:
        FileExistsError: something is there. OutsideVault, FileNotFoundError, NotADirectoryError: see
        :func:`folder`.
    """
    with _parent(root, rel) as (fd, name):
        os.mkdir(name, dir_fd=fd)
        fsync_fd(fd)


def remove_folder(root: str | os.PathLike[str], rel: str) -> None:
    """Remove the empty folder ``rel``.

    Raises:
        OSError (``ENOTEMPTY``): it holds something. NotADirectoryError: not a folder (a symlink too, as
        ``rmdir`` never follows one). FileNotFoundError: absent.
    """
    with _parent(root, rel) as (fd, name):
        os.rmdir(name, dir_fd=fd)
        fsync_fd(fd)


def remove_file(root: str | os.PathLike[str], rel: str) -> None:
    """Remove the entry ``rel`` that is not a folder (a symlink is removed itself: its target is untouched).

    Raises:
        IsADirectoryError: a folder. FileNotFoundError: absent.
    """
    with _parent(root, rel) as (fd, name):
        os.unlink(name, dir_fd=fd)
        fsync_fd(fd)


def remove_tree(root: str | os.PathLike[str], rel: str) -> None:
    """Remove ``rel``, a folder with everything below it or any other entry. ``shutil.rmtree`` with
    ``dir_fd`` works on descriptors and never follows a symlink inside.

    Raises:
        FileNotFoundError: absent. OSError: the disk refused (part may be removed).
    """
    with _parent(root, rel) as (fd, name):
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            shutil.rmtree(name, dir_fd=fd)
        else:
            os.unlink(name, dir_fd=fd)
        fsync_fd(fd)


def rename(root: str | os.PathLike[str], src: str, dst: str) -> None:
    """Move ``src`` (a file or folder, not a symlink) to ``dst``, which must not exist and whose folder
    must; both folders are flushed.

    Raises:
        OutsideVault: a symlink on either way or at ``src``. FileExistsError: ``dst`` exists.
        FileNotFoundError, NotADirectoryError: ``src`` or ``dst``'s folder is absent.
    """
    with _parent(root, src) as (sfd, sname), _parent(root, dst) as (dfd, dname):
        if _refuse_link(sfd, sname, src) is None:
            raise FileNotFoundError(errno.ENOENT, "no such file or folder", src)
        try:
            os.stat(dname, dir_fd=dfd, follow_symlinks=False)
            raise FileExistsError(errno.EEXIST, "already exists", dst)
        except FileNotFoundError:
            pass
        os.rename(sname, dname, src_dir_fd=sfd, dst_dir_fd=dfd)
        fsync_fd(dfd)
        if not os.path.samestat(os.fstat(sfd), os.fstat(dfd)):
            fsync_fd(sfd)


def list_folder(root: str | os.PathLike[str], rel: str = "") -> list[tuple[str, Kind]]:
    """The entries of the folder ``rel``: ``(name as spelled on disk, kind)``, unsorted, without a stat per
    entry (the kind comes from the directory itself where the filesystem records it).

    Raises:
        OutsideVault, FileNotFoundError, NotADirectoryError: see :func:`folder`.
    """
    out: list[tuple[str, Kind]] = []
    with folder(root, rel) as fd, os.scandir(fd) as it:
        for entry in it:
            try:
                if entry.is_symlink():
                    found: Kind = "symlink"
                elif entry.is_dir(follow_symlinks=False):
                    found = "dir"
                elif entry.is_file(follow_symlinks=False):
                    found = "file"
                else:
                    found = "other"
            except OSError:
                continue
            out.append((entry.name, found))
    return out


def stat_names(root: str | os.PathLike[str], rel: str, names: list[str]) -> dict[str, os.stat_result]:
    """The lstat of each of ``names`` in the folder ``rel`` (one folder walk for all); names that vanished
    are left out.

    Raises:
        OutsideVault, FileNotFoundError, NotADirectoryError: see :func:`folder`.
    """
    out: dict[str, os.stat_result] = {}
    with folder(root, rel) as fd:
        for name in names:
            try:
                out[name] = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except OSError:
                continue
    return out


def walk(
    root: str | os.PathLike[str],
    under: str = "",
    *,
    descend: Callable[[str], bool] = lambda name: True,
    strict: bool = False,
) -> Iterator[tuple[str, os.stat_result]]:
    """Every entry below the folder ``under``, depth-first, names sorted by code point, a folder before what
    it holds: ``(path as spelled on disk, relative to the root; its own lstat)``. Files, folders, symlinks
    and special files are all yielded (the caller filters); only real folders for whose name ``descend``
    is true are entered, never a symlink, and not beyond :data:`MAX_DEPTH`. Entries that vanish or cannot
    be read are skipped.

    Args:
        strict: raise :class:`TooDeep` at a folder past :data:`MAX_DEPTH` instead of skipping it (a caller
            about to delete the tree must have seen all of it).

    Raises:
        OutsideVault, FileNotFoundError, NotADirectoryError: ``under`` is not a folder reachable without
        symlinks (raised when the walk starts). TooDeep: see ``strict``.
    """
    segs = _segments(under)
    prefix = "/".join(segs)
    with _walk_to(root, segs, under) as fd:
        yield from _walk_fd(fd, prefix, len(segs), descend, strict)


def _walk_fd(
    fd: int, prefix: str, depth: int, descend: Callable[[str], bool], strict: bool
) -> Iterator[tuple[str, os.stat_result]]:
    try:
        names = sorted(os.listdir(fd))
    except OSError:
        return
    for name in names:
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except OSError:
            continue
        rel = f"{prefix}/{name}" if prefix else name
        yield rel, st
        if stat.S_ISDIR(st.st_mode) and depth >= MAX_DEPTH and strict:
            raise TooDeep(rel)
        if stat.S_ISDIR(st.st_mode) and depth < MAX_DEPTH and descend(name):
            try:
                sub = os.open(name, _DIR, dir_fd=fd)
            except OSError:  # gone, or swapped for a symlink since the stat (ELOOP)
                continue
            try:
                yield from _walk_fd(sub, rel, depth + 1, descend, strict)
            finally:
                os.close(sub)
