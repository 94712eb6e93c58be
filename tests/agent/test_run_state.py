"""A paused run's stored state: steps as a dataclass with an Enum state, proposals as ids of the confirmation
store; a run stored by the version before (string states, whole proposals with their tokens) still loads, so a
server upgraded while a run awaits its confirmation can still settle it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from obsigate.agent.loop import Pending, Run, Step, StepState
from obsigate.tools.confirm.store import ConfirmationService

RUN = {"id": "r1", "user": "alice", "conversation_id": "c1", "provider": "fake", "model": "m", "system": "s",
       "vault": "notes", "language": "en"}  # fmt: skip


def test_a_run_stored_with_whole_proposals_loads_as_ids(tmp_path: Path) -> None:
    service = ConfirmationService.in_data_dir(tmp_path)
    issued = service.issue(user="alice", tool="create_file", vault="notes", args={"path": "A.md"}, reads={},
                           paths=["A.md"])  # fmt: skip
    legacy = {
        **RUN, "armed": False, "tools_on": True, "iterations": 1, "calls_used": 2,
        "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7},
        "turn": [
            {"id": "c_r", "name": "read_file", "arguments": {"path": "B.md"}, "error": None, "state": "done",
             "content": "{}", "label": "Read B.md"},
            {"id": "c_w", "name": "create_file", "arguments": {"path": "A.md"}, "error": None, "state": "pending",
             "content": None, "label": "File proposed: A.md"},
            {"id": "c_d", "name": "read_file", "arguments": {"path": "A.md"}, "error": None, "state": "deferred",
             "content": None, "label": "Read A.md"},
        ],
        "pending": [{"id": "c_w", "tool": "create_file", "label": "File proposed: A.md",
                     "proposal": {"status": "proposed", "summary": "create A.md", "confirmation_token": issued.token}}],
    }  # fmt: skip
    run = Run.from_json(json.loads(json.dumps(legacy)))
    assert [s.state for s in run.turn] == [StepState.DONE, StepState.PENDING, StepState.DEFERRED]
    assert run.turn[1] == Step("c_w", "create_file", {"path": "A.md"}, None, "File proposed: A.md", StepState.PENDING)
    assert run.pending == [Pending("c_w", "create_file", "File proposed: A.md", issued.jti)]
    assert run.usage.total_tokens == 7 and run.calls_used == 2
    stored = service.proposal(run.pending[0].proposal_id, user="alice")
    assert stored is not None and stored.paths == ["A.md"] and stored.tool == "create_file"
    assert service.proposal(issued.jti, user="bob") is None  # an id is no credential: the user must match

    saved = json.dumps(run.to_json())
    assert issued.token not in saved and "confirmation_token" not in saved
    again = Run.from_json(json.loads(saved))
    assert again == run and json.loads(saved)["turn"][1]["state"] == "pending"


def test_a_confirmation_store_made_before_views_is_upgraded(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "confirmations.sqlite3") as db:
        db.executescript(
            "CREATE TABLE proposals (jti TEXT PRIMARY KEY, user TEXT NOT NULL, tool TEXT NOT NULL, vault TEXT NOT NULL,"
            " args_json TEXT NOT NULL, reads_json TEXT NOT NULL, paths_json TEXT NOT NULL, exp INTEGER NOT NULL);"
            "INSERT INTO proposals VALUES ('old', 'alice', 'create_file', 'notes', '{}', '{}', '[\"A.md\"]', 9999999999);"
        )
    service = ConfirmationService.in_data_dir(tmp_path)
    old = service.proposal("old", user="alice")
    assert old is not None and old.view == {} and old.paths == ["A.md"]
    issued = service.issue(user="alice", tool="create_file", vault="notes", args={}, reads={}, paths=["B.md"],
                           view=lambda i: {"summary": "create B.md", "expires_in": i.expires_in})  # fmt: skip
    assert issued.view == {"summary": "create B.md", "expires_in": 300}
    assert service.proposal(issued.jti, user="alice").view == issued.view  # type: ignore[union-attr]
    assert service.revoke_id("old", user="alice") == "old" and service.proposal("old", user="alice") is None
