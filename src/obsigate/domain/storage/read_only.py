"""Reading the server's data dir without changing it (the ``obsigate journal`` commands): an SQLite file opened
read-only that creates nothing beside it, and a small file read bounded.

A reader inspecting a data dir must leave it as it found it: no file created, rewritten or chmodded, no WAL
checkpoint, so that what it reports is about the data dir, not about itself. SQLite's ``mode=ro`` alone is not
enough: on a WAL database with no ``-wal`` file it creates ``-wal`` and ``-shm`` and leaves them there.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

__all__ = ["connect_read_only", "read_small"]

# O_NONBLOCK: a FIFO at the path must not hang the open (it is then refused as not a regular file)
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


def connect_read_only(path: Path, *, timeout: float = 5.0) -> sqlite3.Connection:
    """The SQLite database ``path`` opened read-only (``PRAGMA query_only`` too): it cannot write, checkpoint or
    create a file.

    With no ``<path>-wal`` beside it no process has the database open (SQLite deletes that file at the last
    close), so it is opened ``immutable``: nothing is created and no lock is taken. Otherwise (a server running,
    or killed) it is opened ``mode=ro`` through the existing ``-wal``/``-shm``, so the newest rows are seen.

    Raises:
        sqlite3.Error: the file cannot be opened (missing, unreadable). A file that is not SQLite fails at the
            first query (``sqlite3.DatabaseError``), not here.
    """
    path = Path(path).absolute()
    wal = path.with_name(path.name + "-wal")
    mode = "ro" if wal.exists() else "ro&immutable=1"
    conn = sqlite3.connect(f"{path.as_uri()}?mode={mode}", uri=True, timeout=timeout, check_same_thread=False)
    conn.execute("PRAGMA query_only=1")
    return conn


def read_small(path: Path, limit: int = 4096) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (a symlink is followed). A device
    (``/dev/zero``), FIFO or folder is refused without reading it, and so is a file larger than ``limit``: a
    key or head file is a few hundred bytes, and reading whatever is there would exhaust the memory.

    Raises:
        FileNotFoundError: nothing at ``path``.
        OSError: it cannot be opened or read.
        ValueError: not a regular file, or larger than ``limit`` bytes.
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{path} is not a regular file")
        if st.st_size > limit:
            raise ValueError(f"{path} is larger than {limit} bytes")
        data = os.read(fd, limit + 1)  # one more: a file that grew since the fstat is refused too
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError(f"{path} is larger than {limit} bytes")
    return data
