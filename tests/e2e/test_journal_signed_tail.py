"""After a kill -9, a cut-off tail of the tool journal is found because the server signs its unsigned rows on a
timer (``journal_checkpoint_seconds``, ``api/app.sign_journal_forever``): a real ``obsigate serve`` process, REST
calls journaled, SIGKILL (no clean shutdown signs anything), the newest rows deleted by hand, then the real
``obsigate journal verify``. With the timer far away, the same cut goes unseen: the timer is what closes it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from robust.serving import Server
from support import SMALL_VAULT, write_tree

pytestmark = pytest.mark.e2e


def _last_seq(data: Path) -> int:
    with sqlite3.connect(f"file:{data / 'journal.sqlite3'}?mode=ro", uri=True) as db:
        return int(db.execute("SELECT MAX(seq) FROM tool_journal").fetchone()[0] or 0)


def _head_seq(data: Path) -> int:
    return int(json.loads((data / "journal.head").read_text())["seq"])


def _crash_and_cut(tmp_path: Path, every_s: str, wait_signed: bool) -> subprocess.CompletedProcess[str]:
    vault, data = write_tree(tmp_path / "notes", SMALL_VAULT), tmp_path / "data"
    server = Server({"notes": vault}, data, env={"OBSIGATE_JOURNAL_CHECKPOINT_SECONDS": every_s})
    try:
        for _ in range(3):
            assert httpx2.get(f"{server.url}/api/vaults", timeout=10).status_code == 200
        last = _last_seq(data)
        assert last > _head_seq(data)  # the calls' rows are not signed yet
        if wait_signed:
            deadline = time.monotonic() + 30
            while _head_seq(data) < last:
                assert time.monotonic() < deadline, "the tail was not signed within 30 s"
                time.sleep(0.1)
    finally:
        server.kill()
    with sqlite3.connect(data / "journal.sqlite3", isolation_level=None) as db:
        db.execute("DELETE FROM tool_journal WHERE seq > ?", (last - 2,))  # two rows cut off the end
    env = {**os.environ, "OBSIGATE_DATA_DIR": str(data)}
    cmd = [sys.executable, "-m", "obsigate", "journal", "verify", "--json"]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=60)


def test_a_tail_signed_by_the_timer_is_caught_when_cut_after_a_kill(tmp_path: Path) -> None:
    verified = _crash_and_cut(tmp_path, "1", wait_signed=True)
    assert verified.returncode == 1, verified.stdout + verified.stderr
    (report,) = [json.loads(line) for line in verified.stdout.splitlines() if line.strip()]
    assert report["ok"] is False and report["findings"][0]["kind"] == "truncated", report


def test_without_the_timer_the_same_cut_is_not_seen(tmp_path: Path) -> None:
    verified = _crash_and_cut(tmp_path, "86400", wait_signed=False)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert json.loads(verified.stdout)["ok"] is True
