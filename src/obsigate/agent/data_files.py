"""The server's own small data files (``config.json``, ``api_keys.json``, ``skills.json``, ``.env``): each is
re-read only when it changes on disk, keeps its last good content when a hand edit breaks it, and is written
atomically (temp file, fsync, rename, fsync of the folder)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Generic, TypeVar

from obsigate.tools.errors import Unavailable

__all__ = ["CachedFile", "JsonObjectFile", "process_lock"]

log = logging.getLogger("obsigate.agent.settings")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
T = TypeVar("T")


def unusable_reason(exc: OSError | ValueError) -> str:
    """Why a file could not be used, in words that never quote its content (a decoding error names a byte)."""
    if isinstance(exc, OSError):
        return exc.strerror or type(exc).__name__
    if isinstance(exc, UnicodeDecodeError | json.JSONDecodeError):
        return type(exc).__name__
    return str(exc)


class CachedFile(Generic[T]):
    """A file re-read only when its ``(inode, size, mtime_ns)`` changes: the link's own with ``lstat`` unless
    ``follow_symlinks`` (a file that may be a symlink must be watched through it). Subclasses give
    :meth:`_load`. Not thread-safe on its own: its owner holds a lock."""

    def __init__(self, path: Path, empty: T, *, follow_symlinks: bool = False) -> None:
        self.path = Path(path)
        self._follow = follow_symlinks
        self._signature: tuple[int, int, int] | None = None
        self._value: T = empty

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path) if self._follow else os.lstat(self.path)
        except FileNotFoundError:
            return None
        return (st.st_ino, st.st_size, st.st_mtime_ns)

    def _load(self) -> T:
        """The file's content now (the empty value when missing). Raises OSError or ValueError when unusable."""
        raise NotImplementedError

    def read(self) -> T:
        """The current content, cached until the file changes. A version that cannot be used keeps the last
        good content, with one warning naming the file and the reason (never a value)."""
        signature = self._stat()
        if signature == self._signature:
            return self._value
        try:
            value = self._load()
        except (OSError, ValueError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            log.warning("%s cannot be used (%s); keeping its last good values", self.path, unusable_reason(exc))
            self._signature = signature
            return self._value
        self._signature, self._value = signature, value
        return value


class JsonObjectFile(CachedFile[dict[str, Any]]):
    """A JSON object file (``config.json``, ``api_keys.json``, ``skills.json``): read as a :class:`CachedFile`,
    written atomically. ``private``: mode 0600 (tightened when found looser) and never through a symlink. Not
    thread-safe on its own: its owner holds a lock around every call."""

    def __init__(self, path: Path, *, private: bool) -> None:
        super().__init__(path, {}, follow_symlinks=not private)
        self.private = private  # 0600, symlinks refused

    def _load(self) -> dict[str, Any]:
        """The file's object now (``{}`` when missing). Raises OSError or ValueError when it cannot be used."""
        try:
            fd = os.open(self.path, os.O_RDONLY | (_NOFOLLOW if self.private else 0))
        except FileNotFoundError:
            return {}
        with os.fdopen(fd, "rb") as handle:
            st = os.fstat(handle.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise ValueError("not a regular file")
            if self.private and st.st_mode & 0o077:
                log.warning("%s had mode %o; tightening to 0600", self.path, stat.S_IMODE(st.st_mode))
                os.fchmod(handle.fileno(), 0o600)
            data = json.loads(handle.read().decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError("must hold a JSON object")
        return data

    def read_fresh(self) -> dict[str, Any]:
        """The object on disk now, for a read-modify-write.

        Raises:
            Unavailable (``unavailable``): the file exists but cannot be read or is not a JSON object; it is
                never overwritten then (it may hold settings someone is editing).
        """
        try:
            return self._load()
        except (OSError, ValueError) as exc:
            # the full path is the server's own layout: for its log, never in an answer to any user
            log.warning("%s cannot be read (%s); not overwritten", self.path, type(exc).__name__)
            raise Unavailable(
                f"{self.path.name} in the data folder cannot be read ({type(exc).__name__}); nothing was changed",
                hint=f"fix or remove {self.path.name} in the server's data folder (its log names the full path)",
            ) from None

    def write(self, data: dict[str, Any]) -> None:
        """Replace the file with ``data`` atomically: a temp file in the same folder (created ``0600``, or with
        the mode of the file it replaces unless private), fsync, rename, fsync of the folder."""
        folder = self.path.parent
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        mode = 0o600
        if not self.private:
            try:
                mode = stat.S_IMODE(os.stat(self.path).st_mode)
            except FileNotFoundError:
                pass
        tmp = folder / f".{self.path.name}.{secrets.token_hex(6)}.tmp"
        payload = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        try:
            with os.fdopen(fd, "wb") as handle:
                os.fchmod(handle.fileno(), mode)
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        try:
            dir_fd = os.open(folder, os.O_RDONLY)
        except OSError:
            pass
        else:
            try:
                os.fsync(dir_fd)
            except OSError:
                pass
            finally:
                os.close(dir_fd)
        self._signature, self._value = self._stat(), data


@contextlib.contextmanager
def process_lock(path: Path) -> Iterator[None]:
    """An exclusive ``flock`` on ``path`` (created ``0600``) for the block; a no-op where ``fcntl`` is missing."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover — not POSIX: the in-process lock still holds
        yield
        return
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | _NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
