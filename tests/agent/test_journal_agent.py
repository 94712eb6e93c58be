"""The tool journal from the in-app assistant (the fake provider over HTTP): every call of a run is a row of the
front ``in_app`` in the conversation, under the run as its turn; the change the person approves is preceded by
its intent row; the turn's cumulative hash is stored with the conversation, and ``obsigate journal verify``
checks the journal against it (a cut-off tail of that turn is found by it)."""

from __future__ import annotations

import sqlite3
from typing import Any

from cli_runner import run_cli
from fakes import openai_replies as o
from support import journal_records

from obsigate.domain.storage.tool_journal import JOURNAL_FILE


def anchors(a: Any) -> list[tuple[str, str, int, int, str]]:
    with sqlite3.connect(a.data / "assistant.sqlite3") as db:
        return db.execute(
            "SELECT conversation_id, turn_id, rows, last_seq, cumulative_hash FROM turn_hashes"
        ).fetchall()


def test_a_runs_calls_are_journalled_in_its_conversation_and_turn(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls([("r1", "read_file", {"vault": "notes", "path": "Home.md"})]),
        o.stream_tool_calls([("c1", "create_file", {"vault": "notes", "path": "Agent.md", "content": "# A\n"})]),
    )
    first = a.agent({"message": "read then write", "vault": "notes", "language": "en"})
    assert first.status == 200, first.raw
    card = first.one("confirmation")
    a.fake.add(o.stream_text(["Done."]))
    second = a.agent({"run_id": card["run_id"], "confirm_all": True})
    done = second.one("done")
    assert done["stopped"] == "completed" and (a.vault / "Agent.md").read_text() == "# A\n"

    cid, run_id = done["conversation_id"], card["run_id"]
    rows = [r for r in journal_records(a.data) if r["front"] == "in_app" and r["conversation"] == cid]
    # one row per call: the model's read, its proposal, the approved apply and the undo record's read of the result
    assert [r["tool"] for r in rows] == ["read_file", "propose_create_file", "apply_create_file", "read_file_raw"]
    assert {r["turn"] for r in rows} == {run_id}
    (intent,) = [r for r in journal_records(a.data, "intent") if r["conversation"] == cid]
    assert intent["call_id"] == rows[2]["call_id"] and intent["seq"] < rows[2]["seq"]

    ((conv, turn, count, last_seq, _),) = anchors(a)  # stored with the conversation when the turn ended
    assert (conv, turn, count, last_seq) == (cid, run_id, 5, rows[-1]["seq"])  # 4 calls + the intent row
    verified = run_cli("journal", "verify", data=a.data)
    assert verified.returncode == 0, verified.stderr

    with sqlite3.connect(a.data / JOURNAL_FILE) as db:  # the turn's last row cut off
        db.execute("DELETE FROM tool_journal WHERE seq = ?", (last_seq,))
    failed = run_cli("journal", "verify", data=a.data)
    assert failed.returncode == 1 and f"at seq {last_seq}: truncated" in failed.stderr, failed.stderr
