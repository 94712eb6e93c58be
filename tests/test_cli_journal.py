"""The ``obsigate journal`` commands read a data dir without changing it: a real journal in ``tmp_path``, every
file's listing, mode, size and mtime compared before and after (no salt, key pair, head or SQLite side file
created, nothing chmodded); a missing public key is named, not reported as a rebuilt chain; an empty or foreign
``journal.sqlite3`` is refused (exit 2); a key file that is a device or huge is refused without being read; a
checkpoint whose signature fails is ``bad_signature``, not ``rebuilt``. The bounded reads run as the real program
under a 1 GiB address-space limit, so reading ``/dev/zero`` whole fails fast instead of exhausting the machine."""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_runner import run_cli

from obsigate.domain.storage.tool_journal import (
    HEAD_FILE,
    JOURNAL_FILE,
    JournalEntry,
    ToolJournal,
    key_id_of,
    load_public_key,
)

PUB, KEY, SALT = "journal_signing.pub", "journal_signing.key", "journal.salt"
PAST = 1_000_000_000  # 2001: any write by a command moves a file's mtime away from it
READERS = (("journal", "verify"), ("journal", "tail"), ("journal", "search", "--user", "alice"))


def snapshot(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry under ``folder`` (itself included): ``(mode, size, mtime_ns)``."""
    entries = [folder, *sorted(folder.rglob("*"))]
    return {p.relative_to(folder).as_posix(): _stat(p) for p in entries}


def _stat(path: Path) -> tuple[int, int, int]:
    st = path.lstat()
    return (st.st_mode, st.st_size if stat.S_ISREG(st.st_mode) else 0, st.st_mtime_ns)


def age(folder: Path) -> None:
    """Set every mtime under ``folder`` to :data:`PAST`, so that a rewrite shows even within one clock tick."""
    for path in [*folder.rglob("*"), folder]:
        os.utime(path, ns=(PAST, PAST), follow_symlinks=False)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A data dir holding a journal of 101 rows, a checkpoint every 10, closed cleanly (its tail signed)."""
    folder = tmp_path / "data"
    journal = ToolJournal(folder, checkpoint_every=10)
    for n in range(1, 102):
        journal.append(
            JournalEntry(user="alice", auth_kind="jwt", front="mcp", tool="read_file", action="ai_tool_call",
                         outcome="ok", args={"path": f"Note {n}.md"}, raw_args={"path": f"Note {n}.md"})
        )  # fmt: skip
    journal.close()
    assert sorted(p.name for p in folder.iterdir()) == sorted([JOURNAL_FILE, SALT, KEY, PUB, HEAD_FILE])
    return folder


def run_program(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    """The real ``obsigate`` under a 1 GiB address-space limit (a read without bound fails in seconds)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    cmd = [sys.executable, "-m", "obsigate", *args, "--data-dir", str(data)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, preexec_fn=limit)


def test_verify_with_the_key_pair_deleted_names_the_missing_public_key_and_creates_nothing(
    data: Path, tmp_path: Path
) -> None:
    kept = tmp_path / "kept.pub"  # the admin's copy, kept off the server
    kept.write_bytes((data / PUB).read_bytes())
    (data / KEY).unlink()
    (data / PUB).unlink()
    age(data)
    before = snapshot(data)
    ran = run_cli("journal", "verify", data=data)
    assert ran.returncode == 1, ran
    assert f"key_missing: {PUB} is missing from {data}" in ran.stderr and "--public-key" in ran.stderr, ran.stderr
    assert "rebuilt" not in ran.stderr and "Traceback" not in ran.stderr
    ran = run_cli("journal", "verify", "--json", data=data)
    report = json.loads(ran.stdout)
    assert ran.returncode == 1 and [f["kind"] for f in report["findings"]] == ["key_missing"], report
    for args in READERS[1:]:
        assert run_cli(*args, data=data).returncode == 0
    assert snapshot(data) == before  # no new key pair, no head signed, nothing rewritten
    # the private key is never needed to verify: the kept public key checks every signature
    ran = run_cli("journal", "verify", "--public-key", str(kept), data=data)
    assert ran.returncode == 0 and ran.stdout.startswith("ok: 101 rows, signed up to 101"), ran
    assert snapshot(data) == before


def test_verify_without_the_private_key_or_the_salt_is_ok_and_recreates_neither(data: Path) -> None:
    (data / KEY).unlink()
    (data / SALT).unlink()
    age(data)
    before = snapshot(data)
    ran = run_cli("journal", "verify", data=data)
    assert ran.returncode == 0 and ran.stdout.startswith("ok: 101 rows"), ran
    for args in READERS[1:]:
        ran = run_cli(*args, data=data)
        assert ran.returncode == 0 and len(ran.stdout.splitlines()) >= 20, ran
    assert snapshot(data) == before
    assert not (data / SALT).exists() and not (data / KEY).exists()


@pytest.mark.parametrize(
    "content", [b"", b"not a database at all\n" * 100, None], ids=["empty", "not-sqlite", "other-tables"]
)
def test_a_file_that_is_no_journal_is_refused_and_nothing_is_created(tmp_path: Path, content: bytes | None) -> None:
    data = tmp_path / "data"
    data.mkdir()
    if content is None:  # an SQLite database, but not the journal's
        with sqlite3.connect(data / JOURNAL_FILE) as db:
            db.execute("CREATE TABLE notes (id INTEGER)")
        db.close()
    else:
        (data / JOURNAL_FILE).write_bytes(content)
    age(data)
    before = snapshot(data)
    out = tmp_path / "otlp"
    for args in (*READERS, ("journal", "export", "--out", str(out))):
        ran = run_cli(*args, data=data)
        assert ran.returncode == 2 and "Traceback" not in ran.stderr, (args, ran)
        assert f"{data / JOURNAL_FILE} is not a tool journal" in ran.stderr, ran.stderr
        assert len(ran.stderr.strip().splitlines()) == 1, ran.stderr
    assert snapshot(data) == before  # no table, salt, key pair or head created
    assert not out.exists()


def test_the_readers_change_no_file_mode(data: Path, tmp_path: Path) -> None:
    for name in (JOURNAL_FILE, SALT, KEY, HEAD_FILE):
        (data / name).chmod(0o644)  # looser than the server keeps them: a reader must not "fix" them
    data.chmod(0o755)
    age(data)
    before = snapshot(data)
    for args in (*READERS, ("journal", "export", "--out", str(tmp_path / "otlp"))):
        ran = run_cli(*args, data=data)
        assert ran.returncode == 0 and "tightening" not in ran.stderr, (args, ran)
    assert snapshot(data) == before
    assert stat.S_IMODE((data / JOURNAL_FILE).stat().st_mode) == 0o644


def test_a_reader_beside_a_running_writer_sees_its_rows_and_adds_no_file(data: Path) -> None:
    """While the server holds the journal (its ``-wal`` and ``-shm`` there), a reader goes through them: the
    newest rows, not yet checkpointed into the database file, are seen, and no file is added."""
    writer = ToolJournal(data, checkpoint_every=10)
    try:
        writer.append(JournalEntry(user="bob", auth_kind="jwt", front="rest", tool="search", action="x", outcome="ok"))
        names = sorted(p.name for p in data.iterdir())
        assert f"{JOURNAL_FILE}-wal" in names
        ran = run_cli("journal", "tail", "-n", "1", "--json", data=data)
        assert ran.returncode == 0 and json.loads(ran.stdout)["user"] == "bob", ran
        assert run_cli("journal", "verify", data=data).returncode == 0
        assert sorted(p.name for p in data.iterdir()) == names
    finally:
        writer.close()


def test_a_public_key_file_that_is_a_device_or_huge_is_refused_quickly(data: Path, tmp_path: Path) -> None:
    huge = tmp_path / "huge.pub"
    huge.write_bytes(b"0" * (10 * 1024 * 1024))
    fifo = tmp_path / "fifo.pub"
    os.mkfifo(fifo)
    garbage = tmp_path / "garbage.pub"
    garbage.write_text("not hex\n")
    for key, why in (("/dev/zero", "is not a regular file"), (str(huge), "is larger than 4096 bytes")):
        started = time.monotonic()
        ran = run_program("journal", "verify", "--public-key", key, data=data)
        assert ran.returncode == 2 and f"cannot use --public-key: {key} {why}" in ran.stderr, ran
        assert "Traceback" not in ran.stderr and time.monotonic() - started < 30
    for key, why in ((fifo, "is not a regular file"), (tmp_path, "is not a regular file"),
                     (garbage, "does not hold an Ed25519 public key"), (tmp_path / "absent.pub", "No such file")):  # fmt: skip
        ran = run_cli("journal", "verify", "--public-key", str(key), data=data)
        assert ran.returncode == 2 and why in ran.stderr and len(ran.stderr.strip().splitlines()) == 1, ran


def test_the_data_dirs_own_public_key_is_read_bounded_too(data: Path) -> None:
    (data / PUB).unlink()
    (data / PUB).symlink_to("/dev/zero")
    ran = run_program("journal", "verify", "--json", data=data)
    assert ran.returncode == 1, ran
    (finding,) = json.loads(ran.stdout)["findings"]
    assert finding["kind"] == "key_missing" and "is not a regular file" in finding["message"], finding
    (data / PUB).unlink()
    (data / PUB).write_bytes(b"a" * (10 * 1024 * 1024))
    ran = run_cli("journal", "verify", "--json", data=data)
    (finding,) = json.loads(ran.stdout)["findings"]
    assert ran.returncode == 1 and "is larger than 4096 bytes" in finding["message"], finding


@pytest.mark.parametrize(
    ("column", "value"),
    [("signature", "00" * 64), ("every", 7), ("row_hash", "ab" * 32)],
)
def test_an_edited_checkpoint_is_a_bad_signature_not_a_rebuilt_chain(data: Path, column: str, value: object) -> None:
    key_id = key_id_of(load_public_key(data / PUB))
    with sqlite3.connect(data / JOURNAL_FILE) as db:
        db.execute(f"UPDATE checkpoints SET {column} = ? WHERE seq = 50", (value,))
    db.close()
    ran = run_cli("journal", "verify", data=data)
    assert ran.returncode == 1, ran
    assert ran.stderr.startswith(
        f"journal verify failed at seq 50: bad_signature: checkpoint at seq 50: signature does not verify with key "
        f"{key_id}"
    ), ran.stderr
    assert "rebuilt" not in ran.stderr and "were changed" not in ran.stderr, ran.stderr


def test_verify_with_another_public_key_blames_the_signatures_not_the_rows(data: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    ToolJournal(other).close()  # another data dir, another key pair
    ran = run_cli("journal", "verify", "--public-key", str(other / PUB), "--json", data=data)
    report = json.loads(ran.stdout)
    assert ran.returncode == 1 and {f["kind"] for f in report["findings"]} == {"bad_signature"}, report
    assert report["findings"][0]["seq"] == 10 and "rows" not in report["findings"][0]["message"]


def test_a_journal_rolled_back_with_its_head_is_found_only_against_a_kept_head(data: Path, tmp_path: Path) -> None:
    # someone who can write the data dir cuts the signed tail, its checkpoints, and puts back an earlier head
    # (every value of which is in the table): locally consistent, so only a copy kept elsewhere tells
    kept = tmp_path / "kept.head"
    kept.write_bytes((data / HEAD_FILE).read_bytes())  # the admin's copy, e.g. taken by a backup job
    conn = sqlite3.connect(data / JOURNAL_FILE)
    with conn:
        conn.execute("DELETE FROM tool_journal WHERE seq >= 51")
        cols = [c[1] for c in conn.execute("PRAGMA table_info(checkpoints)")]
        row = dict(zip(cols, conn.execute("SELECT * FROM checkpoints WHERE seq = 50").fetchone(), strict=True))
        conn.execute("DELETE FROM checkpoints WHERE seq > 50")
    conn.close()
    (data / HEAD_FILE).write_text(json.dumps(row))
    assert run_cli("journal", "verify", data=data).returncode == 0  # the limit, as documented
    ran = run_cli("journal", "verify", "--json", "--head", str(kept), data=data)
    assert ran.returncode == 1, ran
    (finding,) = json.loads(ran.stdout)["findings"]
    assert (finding["kind"], finding["seq"]) == ("truncated", 51) and "the kept head signed 101" in finding["message"]
    garbage = tmp_path / "garbage.head"
    for path, why in ((garbage, "does not hold a journal head"), (tmp_path / "absent", "No such file"),
                      (tmp_path, "is not a regular file")):  # fmt: skip
        garbage.write_text("[1, 2]")
        ran = run_cli("journal", "verify", "--head", str(path), data=data)
        assert ran.returncode == 2 and why in ran.stderr and "Traceback" not in ran.stderr, ran
    forged = json.loads(kept.read_text()) | {"ts": "2020-01-01T00:00:00Z"}
    garbage.write_text(json.dumps(forged))
    ran = run_cli("journal", "verify", "--json", "--head", str(garbage), data=data)
    assert ran.returncode == 1 and json.loads(ran.stdout)["findings"][0]["kind"] == "bad_signature", ran
