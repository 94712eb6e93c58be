"""A user's space in the data dir (``domain/storage/user_space.py``): every level it creates is ``0700``
(``users/``, ``users/<name>/`` and the sub-folder), a ``0755`` folder left by an older version is tightened,
and a symlink on the way is refused, never followed."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from obsigate.domain.storage.user_space import user_dir
from obsigate.services.user_files import FileSpace


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_every_level_is_0700_after_first_use(tmp_path: Path) -> None:
    data = tmp_path / "data"
    space = FileSpace(data)
    try:
        space.put("alice", b"hello", name="a.txt", tool="t")
    finally:
        space.close()
    user_dir(data, "alice", "plans")
    for level in ("users", "users/alice", "users/alice/files", "users/alice/plans"):
        assert mode(data / level) == 0o700, level


def test_folders_of_an_older_version_are_tightened(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "users" / "bob" / "files").mkdir(parents=True)
    for level in ("users", "users/bob", "users/bob/files"):
        os.chmod(data / level, 0o755)
    assert user_dir(data, "bob", "files") == data / "users" / "bob" / "files"
    for level in ("users", "users/bob", "users/bob/files"):
        assert mode(data / level) == 0o700, level


def test_a_symlinked_level_is_refused_and_its_target_left_alone(tmp_path: Path) -> None:
    data, elsewhere = tmp_path / "data", tmp_path / "elsewhere"
    (data / "users").mkdir(parents=True)
    elsewhere.mkdir(mode=0o755)
    os.chmod(elsewhere, 0o755)
    (data / "users" / "carol").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OSError):
        user_dir(data, "carol", "files")
    assert mode(elsewhere) == 0o755 and not (elsewhere / "files").exists()
