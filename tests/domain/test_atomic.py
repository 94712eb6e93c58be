"""atomic_write on real files: crash safety (SIGKILL mid-write), exclusive create races, permissions, cleanup."""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from obsigate.domain.storage.atomic import _temp_name, atomic_write, is_atomic_temp, remove_stale_temps
from obsigate.domain.vault import Vault, is_editor_temp, is_hidden, iter_files

SRC = Path(__file__).resolve().parents[2] / "src"


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if is_atomic_temp(p.name))


def test_replace_writes_the_new_bytes_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "Plan.md"
    target.write_bytes(b"old\r\n")
    atomic_write(target, b"\xef\xbb\xbfnew\r\n")
    assert target.read_bytes() == b"\xef\xbb\xbfnew\r\n"
    atomic_write(tmp_path / "New.md", b"")
    assert (tmp_path / "New.md").read_bytes() == b""
    assert leftovers(tmp_path) == [] and sorted(os.listdir(tmp_path)) == ["New.md", "Plan.md"]


def test_missing_folder_is_the_callers_business(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        atomic_write(tmp_path / "no" / "such" / "Note.md", b"x")
    assert not (tmp_path / "no").exists()


def test_temp_names_are_hidden_editor_temps_that_the_walker_skips(tmp_path: Path) -> None:
    for name in ("Plan.md", "x" * 255, "é" * 127, "C++ (draft) v1.2.md"):
        temp = _temp_name(name)
        assert is_atomic_temp(temp) and is_hidden(temp) and is_editor_temp(temp)
        assert len(temp.encode()) <= 255
    (tmp_path / "Plan.md").write_text("# Plan\n")
    (tmp_path / _temp_name("Plan.md")).write_text("half a note")
    assert [e.path for e in iter_files(Vault("v", tmp_path))] == ["Plan.md"]


def test_existing_permission_bits_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "Private.md"
    target.write_bytes(b"a")
    os.chmod(target, 0o640)
    atomic_write(target, b"b")
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    os.chmod(target, 0o604)
    atomic_write(target, b"c")
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o604 and target.read_bytes() == b"c"


def test_new_files_follow_the_umask_unless_a_mode_is_given(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        atomic_write(tmp_path / "a.md", b"a")
        atomic_write(tmp_path / "b.md", b"b", mode=0o600)
        atomic_write(tmp_path / "c.md", b"c", exclusive=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "a.md").st_mode) == 0o640
    assert stat.S_IMODE(os.stat(tmp_path / "b.md").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(tmp_path / "c.md").st_mode) == 0o640


def test_a_symlink_is_replaced_never_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "Note.md"
    real.write_bytes(b"old")
    link = tmp_path / "Link.md"
    link.symlink_to(real)
    atomic_write(link, b"new")
    assert not link.is_symlink() and link.read_bytes() == b"new" and real.read_bytes() == b"old"


def test_exclusive_never_replaces_anything(tmp_path: Path) -> None:
    existing = tmp_path / "Note.md"
    existing.write_bytes(b"keep me")
    with pytest.raises(FileExistsError):
        atomic_write(existing, b"overwrite", exclusive=True)
    assert existing.read_bytes() == b"keep me"
    dangling = tmp_path / "Dangling.md"
    dangling.symlink_to(tmp_path / "nowhere.md")
    with pytest.raises(FileExistsError):
        atomic_write(dangling, b"x", exclusive=True)
    assert not (tmp_path / "nowhere.md").exists()
    (tmp_path / "Folder").mkdir()
    with pytest.raises(FileExistsError):
        atomic_write(tmp_path / "Folder", b"x", exclusive=True)
    atomic_write(tmp_path / "Fresh.md", b"fresh", exclusive=True)
    assert (tmp_path / "Fresh.md").read_bytes() == b"fresh"
    assert leftovers(tmp_path) == []


def _create(target: Path, i: int, barrier: threading.Barrier, outcome: dict[int, str]) -> None:
    barrier.wait()
    try:
        atomic_write(target, f"writer {i}\n".encode() * 5000, exclusive=True)
        outcome[i] = "won"
    except FileExistsError:
        outcome[i] = "exists"


def test_two_threads_creating_one_path_exactly_one_wins(tmp_path: Path) -> None:
    for round_ in range(40):
        target = tmp_path / f"race-{round_}.md"
        barrier = threading.Barrier(2)
        outcome: dict[int, str] = {}
        threads = [threading.Thread(target=_create, args=(target, i, barrier, outcome)) for i in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome.values()) == ["exists", "won"], outcome
        winner = next(i for i, r in outcome.items() if r == "won")
        assert target.read_bytes() == f"writer {winner}\n".encode() * 5000
    assert leftovers(tmp_path) == []


def test_a_failed_replace_leaves_the_target_and_no_temp(tmp_path: Path) -> None:
    folder = tmp_path / "Projects"
    folder.mkdir()
    (folder / "inside.md").write_text("x")
    with pytest.raises(OSError):
        atomic_write(folder, b"a file where a folder is")
    assert folder.is_dir() and leftovers(tmp_path) == []


def test_a_failed_fsync_leaves_the_old_content_and_no_temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "Note.md"
    target.write_bytes(b"old")

    def broken_fsync(fd: int) -> None:
        raise OSError(errno.EIO, "simulated disk error")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(OSError, match="simulated"):
        atomic_write(target, b"new")
    with pytest.raises(OSError, match="simulated"):
        atomic_write(tmp_path / "Other.md", b"new", exclusive=True)
    monkeypatch.undo()
    assert target.read_bytes() == b"old" and not (tmp_path / "Other.md").exists()
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root ignores folder permissions")
def test_a_read_only_folder_refuses_and_leaves_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "Note.md").write_bytes(b"old")
    os.chmod(folder, 0o500)
    try:
        with pytest.raises(PermissionError):
            atomic_write(folder / "Note.md", b"new")
        assert (folder / "Note.md").read_bytes() == b"old" and leftovers(folder) == []
    finally:
        os.chmod(folder, 0o700)


WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[2])
    from obsigate.domain.storage.atomic import atomic_write

    path = Path(sys.argv[1])
    old, new = b"A" * 3_000_000, b"B" * 3_500_001
    i = 0
    while True:
        atomic_write(path, new if i % 2 else old)
        i += 1
        if i == 3:
            print("looping", flush=True)
    """
)


def test_a_process_killed_mid_write_leaves_the_old_or_the_new_file(tmp_path: Path) -> None:
    """SIGKILL at random moments of a rewrite loop: the file is always one whole version, never torn."""
    target = tmp_path / "Big.md"
    target.write_bytes(b"A" * 3_000_000)
    script = tmp_path / "writer.py"
    script.write_text(WRITER)
    mid_write = 0  # kills that caught a temp file being written (it is left behind, hidden)
    for delay in (0.0, 0.013, 0.031, 0.047, 0.071, 0.097, 0.13, 0.2):
        proc = subprocess.Popen([sys.executable, str(script), str(target), str(SRC)], stdout=subprocess.PIPE)
        try:
            assert proc.stdout is not None and proc.stdout.readline() == b"looping\n"
            time.sleep(delay)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=30)
            if proc.stdout is not None:
                proc.stdout.close()
        data = target.read_bytes()
        assert data in (b"A" * 3_000_000, b"B" * 3_500_001), f"torn file: {len(data)} bytes"
        assert [e.path for e in iter_files(Vault("v", tmp_path))] == ["Big.md", "writer.py"]
        left = leftovers(tmp_path)
        mid_write += bool(left)
        assert remove_stale_temps(tmp_path, older_than_s=0) == len(left)
    assert mid_write >= 1, "no kill landed during a write; the test proves nothing"
