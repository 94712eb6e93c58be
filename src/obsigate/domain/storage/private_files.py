"""Files only their owner may read: HMAC keys and peppers, the user and confirmation databases, the audit log.

The rules every such file in the data dir follows, in one place:

* a folder made to hold them is created ``0700`` (:func:`make_private_dir`);
* a file is created ``0600`` by the very call that creates it, so no other user can open it even for a
  moment, and an existing one with group or other bits is tightened to ``0600`` with a warning
  (:func:`ensure_private_file`);
* a symlink where a private file should be is refused, never followed (``O_NOFOLLOW``: ``ELOOP``);
* a random secret is created once, complete or not at all, and processes racing on first use agree on one
  (:func:`load_or_create_secret`); replacing it (:func:`replace_secret`, the JWT key's rotation) is atomic too,
  and a reader can tell the file changed from one ``lstat`` (:func:`file_identity`) without reading it again.
"""

from __future__ import annotations

import logging
import os
import secrets
import stat
from pathlib import Path

from obsigate.domain.storage.atomic import TEMP_SUFFIX, atomic_write, fsync_dir

__all__ = [
    "DIR_MODE", "FILE_MODE", "FileIdentity", "ensure_private_file", "file_identity", "load_or_create_secret",
    "load_or_create_secret_with_identity", "make_private_dir", "read_secret", "replace_secret",
]  # fmt: skip

log = logging.getLogger(__name__)

FILE_MODE = 0o600
DIR_MODE = 0o700
# O_NONBLOCK: a FIFO planted at the path must not hang the open; it is then refused as not a regular file
_OPEN_FLAGS = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)

#: What tells one version of a file from another without reading it: ``(st_dev, st_ino, st_size, st_mtime_ns)``.
#: An atomic replacement always gets a new inode, so a rotation is seen even within one mtime tick.
FileIdentity = tuple[int, int, int, int]


def _identity(st: os.stat_result) -> FileIdentity:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def file_identity(path: Path) -> FileIdentity | None:
    """The :data:`FileIdentity` of ``path`` itself (one ``lstat``: a symlink there is not followed, so it reads
    as a change and the next read refuses it), or ``None`` when nothing is there.

    Raises:
        OSError: the path cannot be examined (other than missing).
    """
    try:
        return _identity(os.lstat(path))
    except FileNotFoundError:
        return None


def make_private_dir(path: Path, *, tighten: bool = False) -> Path:
    """Create the folder ``path`` (and missing parents) with mode ``0700`` if it is missing, and return it.

    Args:
        path: the folder.
        tighten: also set an existing ``path`` to ``0700`` (best effort: a folder of another owner keeps its
            mode). For folders ObsiGate owns (the data dir, the backup store); the folder of a secret file
            may be one the user chose, so it is left as it is by default.

    Raises:
        OSError: it cannot be created, or something other than a folder is there (``FileExistsError``).
    """
    path = Path(path)
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    if tighten:
        try:
            os.chmod(path, DIR_MODE)
        except OSError:
            pass
    return path


def _tighten(fd: int, st: os.stat_result, path: Path) -> None:
    """Remove the group and other bits of the open file ``fd`` (``st`` is its ``fstat``), with a warning.
    Done on the descriptor, so the file checked is the file changed."""
    if st.st_mode & 0o077:
        log.warning("private file %s had mode %o; tightening to 0600", path, stat.S_IMODE(st.st_mode))
        os.fchmod(fd, FILE_MODE)


def ensure_private_file(path: Path) -> None:
    """Make ``path`` a regular file only its owner may read or write, before anything opens it (SQLite, an
    append-only log): create it empty with mode ``0600`` if it is missing, or tighten an existing one with
    group or other bits to ``0600`` (its content untouched). Its folder is created ``0700`` if missing
    (:func:`make_private_dir`, existing folders are left as they are).

    Raises:
        OSError: it cannot be created or opened for writing, a symlink is there (``ELOOP``), or it is not a
            regular file.
    """
    path = Path(path)
    make_private_dir(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | _OPEN_FLAGS, FILE_MODE)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path} is not a regular file")
        _tighten(fd, st, path)
    finally:
        os.close(fd)


def load_or_create_secret(path: Path, nbytes: int = 64, *, min_bytes: int = 32) -> bytes:
    """Return the secret stored hex-encoded in ``path``, creating it on first use.

    A new secret is ``nbytes`` from :func:`secrets.token_bytes`, written as hex and a line break by
    :func:`~obsigate.domain.storage.atomic.atomic_write` (``exclusive``, ``0600`` from the start): the file
    appears complete or not at all, and of processes racing on first use one creates it and the others read
    the winner's secret. The folder is created ``0700`` if missing. An existing file with group/other bits is
    tightened to ``0600`` (with a warning) and used.

    Args:
        path: the secret file.
        nbytes: length in bytes of a new secret (at least ``min_bytes``).
        min_bytes: fewest bytes an existing file may hold (RFC 7518 §3.2: 32 for an HS256 key).

    Raises:
        ValueError: ``nbytes < min_bytes``; or the file is not a regular file, is not hex, or holds fewer than
            ``min_bytes`` bytes.
        OSError: the file cannot be created or read (a symlink at ``path``: ``ELOOP``).
    """
    return load_or_create_secret_with_identity(path, nbytes, min_bytes=min_bytes)[0]


def load_or_create_secret_with_identity(
    path: Path, nbytes: int = 64, *, min_bytes: int = 32
) -> tuple[bytes, FileIdentity]:
    """:func:`load_or_create_secret`, with the :data:`FileIdentity` of the very file the secret was read from
    (its descriptor's ``fstat``), so a caller comparing it with :func:`file_identity` later cannot miss a
    replacement that happened while it read. Raises as :func:`load_or_create_secret`."""
    if nbytes < min_bytes:
        raise ValueError(f"a secret of {nbytes} bytes is shorter than the {min_bytes} required")
    path = Path(path)
    make_private_dir(path.parent)
    try:
        return read_secret(path, min_bytes=min_bytes)
    except FileNotFoundError:
        pass
    try:
        atomic_write(path, (secrets.token_bytes(nbytes).hex() + "\n").encode("ascii"), exclusive=True, mode=FILE_MODE)
    except FileExistsError:
        pass  # another process won the race; its file is complete (the link is atomic)
    return read_secret(path, min_bytes=min_bytes)


def replace_secret(path: Path, nbytes: int = 64, *, min_bytes: int = 32) -> bytes:
    """Replace the secret in ``path`` with ``nbytes`` new random bytes (hex, ``0600``) and return them.

    Atomic for every reader (another process included): the new file is written whole under a temporary name
    in the same folder, then renamed over ``path``, so ``path`` holds the old secret or the new one, never a
    mix or nothing. The rename replaces whatever is at ``path`` (a symlink included) rather than writing
    through it. The folder is created ``0700`` if missing.

    Raises:
        ValueError: ``nbytes < min_bytes``.
        OSError: the folder or the file cannot be written (``path`` is then unchanged).
    """
    if nbytes < min_bytes:
        raise ValueError(f"a secret of {nbytes} bytes is shorter than the {min_bytes} required")
    path = Path(path)
    make_private_dir(path.parent)
    key = secrets.token_bytes(nbytes)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}{TEMP_SUFFIX}")
    atomic_write(temp, (key.hex() + "\n").encode("ascii"), exclusive=True, mode=FILE_MODE)
    try:
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)
    return key


def read_secret(path: Path, *, min_bytes: int = 32) -> tuple[bytes, FileIdentity]:
    """The hex secret in ``path`` and the :data:`FileIdentity` of the file read (no symlink followed; group or
    other bits tightened to ``0600`` with a warning).

    Raises:
        FileNotFoundError: nothing at ``path``.
        ValueError: not a regular file, not hex, or fewer than ``min_bytes`` bytes.
        OSError: it cannot be read (a symlink at ``path``: ``ELOOP``).
    """
    fd = os.open(path, os.O_RDONLY | _OPEN_FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"secret file {path} is not a regular file")
        _tighten(fd, st, path)
        raw = os.read(fd, 4096)
        st = os.fstat(fd)  # after a tightening chmod: the identity a later lstat will report
    finally:
        os.close(fd)
    try:
        key = bytes.fromhex(raw.decode("ascii").strip())
    except ValueError:  # UnicodeDecodeError included
        raise ValueError(f"secret file {path} does not hold hex") from None
    if len(key) < min_bytes:
        raise ValueError(f"secret file {path} holds {len(key)} bytes; need >= {min_bytes}")
    return key, _identity(st)
