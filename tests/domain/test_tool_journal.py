"""The tool journal on a real SQLite file: the chain, the signed checkpoints and head, verify against the five
kinds of tampering and a chain rebuilt without the key, concurrent writers, a 10 MB result, salted digests."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import threading
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from obsigate.domain.storage.tool_journal import (
    GENESIS,
    HEAD_FILE,
    JOURNAL_FILE,
    JournalEntry,
    ToolJournal,
    key_id_of,
    row_hash,
)


def entry(n: int, *, turn: str = "t1", result: object = None, **kw: object) -> JournalEntry:
    fields: dict[str, object] = {"raw_args": {"path": f"Note {n}.md"}, **kw}
    return JournalEntry(
        user="alice", auth_kind="jwt", front="mcp", tool="read_file", action="ai_tool_call", outcome="ok",
        conversation="c1", turn=turn, args={"path": f"Note {n}.md"},
        result=result if result is not None else {"text": f"body {n}"}, duration_ms=1.5, **fields,  # type: ignore[arg-type]
    )  # fmt: skip


def filled(tmp_path: Path, rows: int = 30, every: int = 10) -> ToolJournal:
    journal = ToolJournal(tmp_path, checkpoint_every=every)
    for n in range(1, rows + 1):
        journal.append(entry(n))
    return journal


def db(tmp_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(tmp_path / JOURNAL_FILE, isolation_level=None)


def test_rows_chain_from_genesis_and_the_files_are_private(tmp_path: Path) -> None:
    journal = filled(tmp_path, 3)
    rows = list(journal.iter_rows())
    assert [r["seq"] for r in rows] == [1, 2, 3]
    assert rows[0]["prev_hash"] == GENESIS
    for before, row in zip([{"row_hash": GENESIS}, *rows], rows, strict=False):
        assert row["prev_hash"] == before["row_hash"] == row["prev_hash"]
        assert row_hash(row["prev_hash"], row) == row["row_hash"]
    for name in (JOURNAL_FILE, "journal.salt", "journal_signing.key"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    assert journal.verify().ok


def test_digests_are_salted_and_contents_are_kept_only_when_enabled(tmp_path: Path) -> None:
    journal = filled(tmp_path / "a", 1)
    row = next(journal.iter_rows())
    plain = hashlib.sha256(json.dumps({"text": "body 1"}, separators=(",", ":")).encode()).hexdigest()
    assert row["result_digest"].startswith("hmac-sha256:") and plain not in row["result_digest"]
    assert row["args_content"] is None and row["result_content"] is None
    other = filled(tmp_path / "b", 1)  # another data dir, another salt: the same result, another digest
    assert next(other.iter_rows())["result_digest"] != row["result_digest"]

    kept = ToolJournal(tmp_path / "c", keep_content=True)
    kept.append(entry(1, raw_args={"path": "a.md", "confirmation_token": "eyJsecret"}))
    row = next(kept.iter_rows())
    assert json.loads(row["result_content"]) == {"text": "body 1"}
    assert json.loads(row["args_content"]) == {"path": "a.md"}  # a credential is never kept
    assert kept.verify().ok


def test_a_10_mb_result_is_kept_by_digest_and_size(tmp_path: Path) -> None:
    journal = ToolJournal(tmp_path, keep_content=True)
    big = {"content": "x" * (10 * 1024 * 1024)}
    journal.append(entry(1, result=big, result_file_id="U_alice_C_c1_T_1_abc"))
    row = next(journal.iter_rows())
    assert row["result_size"] > 10 * 1024 * 1024 and row["result_content"] is None
    assert row["result_digest"] == journal.digest(json.dumps(big, separators=(",", ":")).encode())
    assert row["result_file_id"] == "U_alice_C_c1_T_1_abc"
    assert (tmp_path / JOURNAL_FILE).stat().st_size < 1024 * 1024  # the bytes themselves are not in the journal
    assert journal.verify().ok


def test_four_writer_threads_keep_one_gap_free_chain(tmp_path: Path) -> None:
    journal = ToolJournal(tmp_path, checkpoint_every=100)
    errors: list[BaseException] = []

    def write(t: int) -> None:
        try:
            for n in range(200):
                journal.append(entry(n, turn=f"thread{t}"))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(t,)) for t in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    report = journal.verify([journal.turn_hash("c1", f"thread{t}") for t in range(4)])  # type: ignore[misc]
    assert report.ok and report.rows == report.last_seq == 800 and report.signed_seq == 800, report.findings
    assert [r["seq"] for r in journal.iter_rows()] == list(range(1, 801))


def test_verify_names_an_edited_row(tmp_path: Path) -> None:
    filled(tmp_path)
    db(tmp_path).execute('UPDATE tool_journal SET args = \'{"path": "Other.md"}\' WHERE seq = 17')
    first = ToolJournal(tmp_path, checkpoint_every=10).verify().first
    assert first is not None and (first.kind, first.seq) == ("edited", 17)


def test_verify_names_a_deleted_row(tmp_path: Path) -> None:
    filled(tmp_path)
    db(tmp_path).execute("DELETE FROM tool_journal WHERE seq = 13")
    first = ToolJournal(tmp_path, checkpoint_every=10).verify().first
    assert first is not None and (first.kind, first.seq) == ("deleted", 13)


def test_verify_names_a_deleted_row_even_when_the_later_ones_are_renumbered(tmp_path: Path) -> None:
    filled(tmp_path)
    conn = db(tmp_path)
    conn.execute("DELETE FROM tool_journal WHERE seq = 13")
    conn.execute("UPDATE tool_journal SET seq = seq + 1000 WHERE seq > 13")
    conn.execute("UPDATE tool_journal SET seq = seq - 1001 WHERE seq > 1000")
    first = ToolJournal(tmp_path, checkpoint_every=10).verify().first
    assert first is not None and (first.kind, first.seq) == ("deleted", 13)


def test_verify_names_an_inserted_row_even_with_a_well_formed_hash(tmp_path: Path) -> None:
    filled(tmp_path)
    conn = db(tmp_path)
    conn.execute("UPDATE tool_journal SET seq = seq + 1000 WHERE seq >= 12")
    conn.execute("UPDATE tool_journal SET seq = seq - 999 WHERE seq > 1000")  # 12.. moved to 13..
    forged = dict(next(r for r in ToolJournal(tmp_path, checkpoint_every=10).iter_rows() if r["seq"] == 11))
    forged.update(seq=12, args='{"path": "Forged.md"}', call_id="f" * 32, prev_hash=forged["row_hash"])
    forged["row_hash"] = row_hash(forged["prev_hash"], forged)  # the forger can compute sha256 too
    conn.execute(
        f"INSERT INTO tool_journal ({', '.join(forged)}) VALUES ({', '.join('?' * len(forged))})", list(forged.values())
    )
    first = ToolJournal(tmp_path, checkpoint_every=10).verify().first
    assert first is not None and (first.kind, first.seq) == ("inserted", 12)


def test_verify_names_reordered_rows(tmp_path: Path) -> None:
    filled(tmp_path)
    conn = db(tmp_path)
    conn.execute("UPDATE tool_journal SET seq = -1 WHERE seq = 14")
    conn.execute("UPDATE tool_journal SET seq = 14 WHERE seq = 15")
    conn.execute("UPDATE tool_journal SET seq = 15 WHERE seq = -1")
    first = ToolJournal(tmp_path, checkpoint_every=10).verify().first
    assert first is not None and (first.kind, first.seq) == ("reordered", 14)


def test_verify_names_a_cut_off_tail(tmp_path: Path) -> None:
    filled(tmp_path, 30).close()  # the clean shutdown signed row 30 (also a multiple of 10 here)
    db(tmp_path).execute("DELETE FROM tool_journal WHERE seq > 24")
    first = ToolJournal(tmp_path, checkpoint_every=10).verify().first
    assert first is not None and (first.kind, first.seq) == ("truncated", 25)


def test_verify_names_a_cut_off_tail_past_the_last_checkpoint_by_the_turns_hash(tmp_path: Path) -> None:
    journal = filled(tmp_path, 25)
    anchor = journal.turn_hash("c1", "t1")
    assert anchor is not None and anchor.last_seq == 25 and anchor.rows == 25
    db(tmp_path).execute("DELETE FROM tool_journal WHERE seq > 22")
    first = ToolJournal(tmp_path, checkpoint_every=10).verify([anchor]).first
    assert first is not None and (first.kind, first.seq) == ("truncated", 23)


def test_verify_finds_a_chain_rebuilt_without_the_key(tmp_path: Path) -> None:
    filled(tmp_path, 30).close()
    conn = db(tmp_path)
    rows = list(ToolJournal(tmp_path, checkpoint_every=10).iter_rows())
    prev = rows[15]["prev_hash"]
    for row in rows[15:]:  # edit row 16, then rehash everything after it consistently
        if row["seq"] == 16:
            row["args"] = '{"path": "Rewritten.md"}'
        row["prev_hash"] = prev
        row["row_hash"] = prev = row_hash(prev, row)
        conn.execute("UPDATE tool_journal SET args = ?, prev_hash = ?, row_hash = ? WHERE seq = ?",
                     (row["args"], row["prev_hash"], row["row_hash"], row["seq"]))  # fmt: skip
    conn.execute("UPDATE checkpoints SET row_hash = (SELECT row_hash FROM tool_journal WHERE seq = checkpoints.seq)")
    report = ToolJournal(tmp_path, checkpoint_every=10).verify()
    assert report.first is not None and report.first.kind == "rebuilt" and report.first.seq == 11, report.findings
    # the checkpoints re-pointed at the new hashes no longer verify: said after the rows' finding, not instead
    assert [f.kind for f in report.findings] == ["rebuilt", "bad_signature"], report.findings
    # and with the checkpoints and the head gone too: a checkpoint that must exist is missing
    conn.execute("DELETE FROM checkpoints")
    (tmp_path / HEAD_FILE).unlink()
    report = ToolJournal(tmp_path, checkpoint_every=10).verify()
    assert report.first is not None and report.first.kind == "rebuilt" and report.first.seq == 1


def test_an_intact_journal_after_restart_and_unsigned_rows_are_not_a_failure(tmp_path: Path) -> None:
    journal = filled(tmp_path, 25)  # 21..25 not signed yet (no clean shutdown): reported, not a failure
    report = journal.verify()
    assert report.ok and report.signed_seq == 20 and report.unsigned == 5
    journal.close()
    report = ToolJournal(tmp_path, checkpoint_every=10).verify()
    assert report.ok and report.signed_seq == 25 and report.unsigned == 0


def test_an_unwritable_journal_refuses_appends_and_keeps_its_rows(tmp_path: Path) -> None:
    """A real condition: the database file made immutable (``chattr +i``, which binds root too) or, for another
    user, read-only; a new connection (another thread) then cannot write a row, and nothing is half-written."""
    journal = filled(tmp_path, 3)
    path = tmp_path / JOURNAL_FILE
    immutable = os.geteuid() == 0 and shutil.which("chattr") is not None
    if immutable:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"chattr +i failed here: {done.stderr.strip()}")
    elif os.geteuid() == 0:
        pytest.skip("root without chattr writes a read-only file anyway")
    else:
        path.chmod(0o400)
    failed: list[BaseException] = []

    def append() -> None:
        try:
            journal.append(entry(4))
        except BaseException as exc:  # noqa: BLE001 - checked below
            failed.append(exc)

    try:
        th = threading.Thread(target=append)
        th.start()
        th.join()
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o600)
    assert len(failed) == 1 and isinstance(failed[0], sqlite3.Error), failed
    assert journal.count() == 3 and journal.verify().ok


def test_a_changed_checkpoint_interval_still_verifies(tmp_path: Path) -> None:
    filled(tmp_path, 25, every=10).close()
    journal = ToolJournal(tmp_path, checkpoint_every=7)
    journal.checkpoint()  # what a start does: the tail signed with the interval in force from now on
    for n in range(26, 46):
        journal.append(entry(n))
    report = journal.verify()
    assert report.ok and report.signed_seq == 42 and report.unsigned == 3, report.findings
    db(tmp_path).execute("DELETE FROM checkpoints WHERE seq = 35")
    report = ToolJournal(tmp_path, checkpoint_every=7).verify()
    # checkpoint 42 names 35 as the one before it: a deleted checkpoint, the rows still vouched for by 42
    assert [(f.kind, f.seq) for f in report.findings] == [("deleted", 35)] and report.signed_seq == 42
    db(tmp_path).execute("DELETE FROM checkpoints WHERE seq >= 35")  # the last ones too: nothing names 35 now
    first = ToolJournal(tmp_path, checkpoint_every=7).verify().first
    assert first is not None and first.kind == "rebuilt" and first.seq == 29  # after the last good one (28)


def test_a_replaced_key_pair_is_caught_by_a_public_key_kept_elsewhere(tmp_path: Path) -> None:
    filled(tmp_path, 20).close()
    kept = Ed25519PublicKey.from_public_bytes(bytes.fromhex((tmp_path / "journal_signing.pub").read_text().strip()))
    for name in ("journal_signing.key", "journal_signing.pub", HEAD_FILE):  # a forger with write access to the dir
        (tmp_path / name).unlink()
    db(tmp_path).execute("DELETE FROM checkpoints")
    forger = ToolJournal(tmp_path, checkpoint_every=10)  # a new key pair, every checkpoint signed again with it
    conn = forger._conn()
    for row in forger.iter_rows():
        if row["seq"] % 10 == 0:
            forger._insert_checkpoint(conn, row["seq"], row["row_hash"])
    forger.checkpoint()
    assert forger.verify().ok  # against the data dir's own (new) key the journal looks whole
    report = forger.verify(public_key=kept)
    # the rows are intact, so nothing blames them: the first checkpoint's signature fails with the kept key
    first = report.first
    assert not report.ok and first is not None and (first.kind, first.seq) == ("bad_signature", 10), report.findings
    want = f"checkpoint at seq 10: signature does not verify with key {key_id_of(kept)} (it names key {forger.key_id})"
    assert first.message == want
    assert {f.kind for f in report.findings} == {"bad_signature"}  # the head too, none "rebuilt"


def test_verify_fails_when_the_signatures_are_deleted(tmp_path: Path) -> None:
    filled(tmp_path, 25, every=1000).close()  # no multiple reached: the clean shutdown's checkpoint is the only one
    db(tmp_path).execute("DELETE FROM checkpoints")
    first = ToolJournal(tmp_path, checkpoint_every=1000).verify().first
    assert first is not None and (first.kind, first.seq) == ("deleted", 25)


def test_verify_fails_when_the_head_is_removed_with_a_cut_tail(tmp_path: Path) -> None:
    filled(tmp_path, 25, every=1000).close()
    (tmp_path / HEAD_FILE).unlink()
    conn = db(tmp_path)
    conn.execute("DELETE FROM tool_journal WHERE seq > 20")
    conn.execute("DELETE FROM checkpoints")
    first = ToolJournal(tmp_path, checkpoint_every=1000).verify().first
    assert first is not None and first.kind == "head_missing"


def test_a_new_journal_is_born_with_a_signed_head(tmp_path: Path) -> None:
    journal = ToolJournal(tmp_path)
    head = journal.read_head()
    assert head is not None and (head["seq"], head["row_hash"]) == (0, GENESIS)
    journal.append(entry(1))  # killed before any checkpoint: the unsigned row alone is no failure
    assert ToolJournal(tmp_path).verify().ok


def test_sign_tail_signs_only_what_is_unsigned(tmp_path: Path) -> None:
    journal = filled(tmp_path, 13)  # 11..13 unsigned
    assert journal.verify().unsigned == 3
    cp = journal.sign_tail()
    assert cp is not None and cp["seq"] == 13 and json.loads((tmp_path / HEAD_FILE).read_text())["seq"] == 13
    assert journal.sign_tail() is None  # nothing new: no checkpoint row, no write
    assert journal.verify().ok and journal.verify().unsigned == 0
    journal.append(entry(14))
    assert journal.sign_tail()["seq"] == 14  # type: ignore[index]


def test_a_deleted_time_based_checkpoint_is_found(tmp_path: Path) -> None:
    # the server's timer signs tails between the multiples of the interval: each checkpoint names the one before
    # it, so taking one out from between two others is seen even though the rows stay covered
    journal = filled(tmp_path, 13)
    journal.sign_tail()  # 13
    for n in range(14, 18):
        journal.append(entry(n))
    journal.sign_tail()  # 17
    for n in range(18, 23):
        journal.append(entry(n))  # 20: a multiple
    journal.close()  # 22
    journal = ToolJournal(tmp_path, checkpoint_every=10)
    assert journal.verify().ok and [r["prev"] for r in journal._rows("SELECT prev FROM checkpoints ORDER BY seq")] == [
        0, 10, 13, 17, 20,
    ]  # fmt: skip
    db(tmp_path).execute("DELETE FROM checkpoints WHERE seq = 13")
    report = journal.verify()
    assert [(f.kind, f.seq) for f in report.findings] == [("deleted", 13)], report.findings
    assert report.findings[0].message == "the checkpoint at 13 is gone: 17 was signed after 13, the table goes from 10"
    assert report.signed_seq == 22  # the later checkpoints still vouch for the rows
    db(tmp_path).execute("DELETE FROM checkpoints WHERE seq = 20")  # a multiple, between 17 and 22
    report = journal.verify()
    assert [(f.kind, f.seq) for f in report.findings] == [("deleted", 13), ("deleted", 20)], report.findings


def test_a_reader_changes_nothing_and_cannot_write(tmp_path: Path) -> None:
    filled(tmp_path, 25).close()
    for path in tmp_path.iterdir():
        os.utime(path, ns=(10**18, 10**18))  # a fixed mtime: a rewrite shows even within one clock tick
    before = {p.name: (p.stat().st_mode, p.stat().st_mtime_ns) for p in tmp_path.iterdir()}
    reader = ToolJournal.open_reader(tmp_path, checkpoint_every=10)
    assert reader.count() == 25 and reader.verify().ok and reader.verify().signed_seq == 25
    for write in (lambda: reader.append(entry(26)), reader.checkpoint, reader.sign_tail, lambda: reader.digest(b"")):
        with pytest.raises(PermissionError):
            write()
    reader.close(sign=True)  # a reader's close signs nothing either
    assert {p.name: (p.stat().st_mode, p.stat().st_mtime_ns) for p in tmp_path.iterdir()} == before
    with pytest.raises(FileNotFoundError):
        ToolJournal.open_reader(tmp_path / "none")
    assert not (tmp_path / "none").exists()


@pytest.mark.parametrize(
    ("column", "value"),
    [("signature", "00" * 64), ("every", 7), ("row_hash", "ab" * 32), ("ts", "2020-01-01T00:00:00Z"), ("prev", 0)],
)
def test_an_edited_checkpoint_is_a_bad_signature_and_blames_no_row(tmp_path: Path, column: str, value: object) -> None:
    filled(tmp_path, 30).close()
    db(tmp_path).execute(f"UPDATE checkpoints SET {column} = ? WHERE seq = 20", (value,))
    journal = ToolJournal(tmp_path, checkpoint_every=10)
    report = journal.verify()
    assert [(f.kind, f.seq) for f in report.findings] == [("bad_signature", 20)], report.findings
    assert report.findings[0].message == f"checkpoint at seq 20: signature does not verify with key {journal.key_id}"
