"""private_files: owner-only folders, files and secrets, created so no other user can ever open them."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from obsigate.domain.storage import atomic
from obsigate.domain.storage.private_files import ensure_private_file, load_or_create_secret, make_private_dir


def mode(p: Path) -> int:
    return stat.S_IMODE(os.stat(p).st_mode)


def test_private_dirs_are_created_0700_and_existing_ones_tightened_only_on_request(tmp_path: Path) -> None:
    made = make_private_dir(tmp_path / "a" / "b")
    assert made == tmp_path / "a" / "b" and mode(made) == 0o700
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o755)
    make_private_dir(shared)
    assert mode(shared) == 0o755  # a folder the user chose keeps its mode
    make_private_dir(shared, tighten=True)
    assert mode(shared) == 0o700
    (tmp_path / "file").write_text("x")
    with pytest.raises(FileExistsError):
        make_private_dir(tmp_path / "file")


def test_a_private_file_is_created_0600_and_an_existing_one_tightened_not_changed(tmp_path: Path) -> None:
    path = tmp_path / "data" / "users.sqlite3"
    ensure_private_file(path)
    assert path.read_bytes() == b"" and mode(path) == 0o600 and mode(path.parent) == 0o700
    path.write_bytes(b"rows")
    os.chmod(path, 0o644)
    ensure_private_file(path)
    assert path.read_bytes() == b"rows" and mode(path) == 0o600


def test_a_private_file_is_never_a_symlink_a_folder_or_a_fifo(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"theirs")
    os.chmod(target, 0o644)
    link = tmp_path / "audit.log"
    link.symlink_to(target)
    with pytest.raises(OSError):
        ensure_private_file(link)
    assert target.read_bytes() == b"theirs" and mode(target) == 0o644
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError):
        ensure_private_file(tmp_path / "folder")
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(OSError):  # refused at once, not a hang waiting for a reader
        ensure_private_file(tmp_path / "fifo")


def test_a_secret_is_created_once_0600_with_nbytes_random_bytes(tmp_path: Path) -> None:
    path = tmp_path / "data" / "confirm.key"
    key = load_or_create_secret(path, 32)
    assert len(key) == 32 and path.read_text() == key.hex() + "\n"
    assert mode(path) == 0o600 and mode(path.parent) == 0o700
    assert sorted(p.name for p in path.parent.iterdir()) == ["confirm.key"]  # no temp left
    assert load_or_create_secret(path, 32) == key
    assert len(load_or_create_secret(tmp_path / "default")) == 64
    os.chmod(path, 0o640)
    assert load_or_create_secret(path, 32) == key and mode(path) == 0o600


@pytest.mark.parametrize(
    ("content", "message"),
    [("not hex at all", "does not hold hex"), ("00" * 16, "holds 16 bytes; need >= 32"), ("é", "does not hold hex")],
)
def test_a_bad_secret_file_is_refused(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "secret"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        load_or_create_secret(path)
    assert path.read_text() == content


def test_secret_lengths_and_non_regular_files(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="shorter than"):
        load_or_create_secret(tmp_path / "short", 16)
    assert not (tmp_path / "short").exists()
    (tmp_path / "short").write_text("ab" * 16)
    assert load_or_create_secret(tmp_path / "short", 16, min_bytes=16) == b"\xab" * 16
    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(ValueError, match="not a regular file"):
        load_or_create_secret(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    with pytest.raises(ValueError, match="not a regular file"):
        load_or_create_secret(tmp_path / "folder")


def test_a_secret_symlink_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("11" * 64)
    (tmp_path / "jwt_secret").symlink_to(target)
    with pytest.raises(OSError):
        load_or_create_secret(tmp_path / "jwt_secret")


def test_racing_first_uses_agree_on_one_secret(tmp_path: Path) -> None:
    path = tmp_path / "jwt_secret"
    keys: list[bytes] = []
    barrier = threading.Barrier(8)

    def worker() -> None:
        barrier.wait()
        keys.append(load_or_create_secret(path))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(keys) == 8 and len(set(keys)) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["jwt_secret"]


def test_the_secret_is_never_in_a_file_others_could_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    created: list[int] = []
    real_open = os.open

    def spy(path: str, flags: int, mode: int = 0o777, *args: object, **kwargs: object) -> int:
        if flags & os.O_CREAT:
            created.append(mode)
        return real_open(path, flags, mode, *args, **kwargs)

    monkeypatch.setattr(atomic.os, "open", spy)
    load_or_create_secret(tmp_path / "secret")
    assert created and all(m & 0o077 == 0 for m in created)  # the temp file is born 0600, not widened later
