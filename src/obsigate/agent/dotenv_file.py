"""``<data-dir>/.env``: provider keys an admin keeps beside the data instead of in the environment (seeds §2.3:
keys in ``data/api_keys.json``, fallback ``.env``).

The file is read with python-dotenv's parser (``KEY=value`` lines, ``export`` prefixes, quotes, ``#``
comments), with no ``${VAR}`` expansion (a value is taken as written: nothing of the process environment
leaks into it). It is re-read when it changes on disk (inode, size, mtime). Like ``api_keys.json`` it is
never read through a symlink and must be a regular file of at most :data:`MAX_BYTES`; a file that cannot be
used keeps its last good values, with a warning naming the file and the reason, never a value. A file that
others may read is used, with a warning (the admin decides its mode; it may be a mounted secret).
"""

from __future__ import annotations

import io
import logging
import os
import stat
from pathlib import Path

from dotenv import dotenv_values

from obsigate.agent.data_files import CachedFile

__all__ = ["DOTENV_FILE", "MAX_BYTES", "DotEnvFile"]

log = logging.getLogger(__name__)

DOTENV_FILE = ".env"
MAX_BYTES = 64 * 1024
_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


class DotEnvFile(CachedFile[dict[str, str]]):
    """The variables of one ``.env`` file (``{name: value}``; a name without ``=`` is left out). Not
    thread-safe on its own: the caller (``AISettings``) holds its lock around :meth:`read`."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, {})

    def _load(self) -> dict[str, str]:
        """The file's variables now (``{}`` when missing). Raises OSError or ValueError when it cannot be used."""
        try:
            fd = os.open(self.path, _FLAGS)  # a symlink: ELOOP; a FIFO: opened, then refused below
        except FileNotFoundError:
            return {}
        with os.fdopen(fd, "rb") as handle:
            st = os.fstat(handle.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise ValueError("not a regular file")
            if st.st_size > MAX_BYTES:
                raise ValueError(f"larger than {MAX_BYTES} bytes")
            if st.st_mode & 0o077:
                log.warning(
                    "%s may be read by other users (mode %o); chmod 600 it", self.path, stat.S_IMODE(st.st_mode)
                )
            text = handle.read(MAX_BYTES + 1).decode("utf-8")
        parsed = dotenv_values(stream=io.StringIO(text), interpolate=False)
        return {name: value for name, value in parsed.items() if value is not None}
