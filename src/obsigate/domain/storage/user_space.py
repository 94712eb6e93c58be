"""Each user's own space in the data dir (issue 21, the ECHO seed's "Espace Personnel"): ``<data-dir>/users/<user>/``.

Tools keep there what belongs to a person rather than to a vault: artifacts and uploads (``files/``, the file
space) and the assistant's plans (``plans/``). It is never a vault: no index, no watcher, no MCP ``vault://``.
Folders are created ``0700`` and a symlink met on the way is refused, never followed (``O_NOFOLLOW`` walk), so a
user's space can only be reached through its owner's name.

User names are already safe folder names (``auth/users.py`` ``NAME_RE``: ``[A-Za-z0-9_.-]{1,64}``, not only
dots); :func:`user_dir` checks that again, so no other caller can walk out of ``users/``.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from obsigate.domain.storage.private_files import DIR_MODE, make_private_dir

__all__ = ["USERS_DIR", "UnsafeUserName", "user_dir"]

#: The folder of every user's space, under the data dir.
USERS_DIR = "users"

_SAFE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


class UnsafeUserName(ValueError):
    """A user name that is not a plain folder name (``NAME_RE``): never joined to a path."""


def user_dir(data_dir: Path, user: str, *parts: str, create: bool = True) -> Path:
    """``<data_dir>/users/<user>/<parts...>``, when ``create`` every level (``users/``, ``<user>/``, each part)
    created ``0700``, or tightened to ``0700`` when an older version left it ``0755``.

    Args:
        parts: fixed sub-folder names chosen by the caller (``"files"``, ``"plans"``), never user input.

    Raises:
        UnsafeUserName: ``user`` or a part is not a plain name (``/``, ``..``, empty, over 64 characters).
        OSError: a folder cannot be created, or one on the way is a symlink or not a folder.
    """
    for name in (user, *parts):
        if not _SAFE.fullmatch(name) or set(name) == {"."}:
            raise UnsafeUserName(f"{name!r} is not a plain folder name")
    path = data_dir / USERS_DIR
    for name in (user, *parts):
        path = path / name
    if create:
        make_private_dir(data_dir)
        level = data_dir
        for name in (USERS_DIR, user, *parts):
            level = level / name
            _private_level(level)
        _check_no_symlink(data_dir, path)
    return path


def _private_level(path: Path) -> None:
    """Create the folder ``path`` ``0700`` if it is missing (its parent exists), and tighten it to ``0700`` when
    it has group or other bits (a folder made by an older version, ``0755``): opened ``O_NOFOLLOW``, changed on
    its descriptor, so a symlink is never followed and the folder checked is the folder changed.

    Raises:
        OSError: it cannot be created, or it is a symlink (``ELOOP``) or not a folder (``ENOTDIR``).
    """
    try:
        os.mkdir(path, DIR_MODE)
    except FileExistsError:
        pass
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        if os.fstat(fd).st_mode & 0o077:
            try:
                os.fchmod(fd, DIR_MODE)
            except PermissionError:
                pass  # another owner's folder keeps its mode (make_private_dir does the same)
    finally:
        os.close(fd)


def _check_no_symlink(data_dir: Path, path: Path) -> None:
    """Refuse ``path`` when a component below ``data_dir`` is a symlink or not a folder (``lstat``, not followed).

    Raises:
        OSError: ``ELOOP`` for a symlink, ``ENOTDIR`` for anything else that is not a folder.
    """
    current = data_dir
    for name in path.relative_to(data_dir).parts:
        current = current / name
        mode = os.lstat(current).st_mode
        if stat.S_ISLNK(mode):
            raise OSError(40, "a symlink in a user's space is never followed", str(current))
        if not stat.S_ISDIR(mode):
            raise OSError(20, "not a folder", str(current))
