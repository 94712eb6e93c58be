"""The parts of issue 18 item 8 that need no server: a run's changes are its owner's only and undone once
(real SQLite), and the argument cap on a turn whose oversized arguments did not even parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from obsigate.agent.arg_cap import cap_arguments
from obsigate.agent.providers.base import ToolCall, Turn
from obsigate.agent.store import AgentStore
from obsigate.tools.api import Conflict


def test_a_runs_changes_are_its_owners_and_it_is_undone_once(tmp_path: Path) -> None:
    store = AgentStore(tmp_path / "a.sqlite3")
    try:
        store.add_change("alice", "r1", {"vault": "notes", "changes": [{"path": "A.md", "action": "create"}]})
        store.add_change("alice", "r1", {"vault": "notes", "changes": [{"path": "B.md", "action": "modify"}]})
        assert [c["changes"][0]["path"] for c in store.run_changes("alice", "r1")] == ["A.md", "B.md"]
        assert store.run_changes("bob", "r1") == []  # another person's run does not exist for them
        store.begin_undo("alice", "r1")
        with pytest.raises(Conflict) as racing:
            store.begin_undo("alice", "r1")  # two racing undos: one wins
        assert racing.value.code == "run_undone"
        store.end_undo("r1", None)  # the first changed nothing (a conflict): it may be tried again
        store.begin_undo("alice", "r1")
        store.end_undo("r1", {"restored": []})
        with pytest.raises(Conflict) as again:
            store.begin_undo("alice", "r1")
        assert again.value.code == "run_undone" and "already undone" in again.value.message
    finally:
        store.close()


def test_oversized_arguments_that_did_not_parse_are_not_kept_either() -> None:
    broken = '{"path": "x.md", "content": "' + "y" * 5000  # cut JSON: the call carries a parse error
    raw = {"role": "assistant", "content": "", "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "create_file", "arguments": broken}},
        {"id": "c2", "type": "function", "function": {"name": "list_vaults", "arguments": "{}"}},
    ]}  # fmt: skip
    calls = [ToolCall("c1", "create_file", None, error="not JSON"), ToolCall("c2", "list_vaults", {})]
    message = {"role": "assistant", "content": "", "raw": raw,
               "tool_calls": [{"id": "c1", "name": "create_file", "arguments": {}}, {"id": "c2", "name": "list_vaults", "arguments": {}}]}  # fmt: skip
    turn = Turn(message=message, text="", tool_calls=calls)
    refused = cap_arguments(turn, 1024)
    assert list(refused) == ["c1"] and calls[0].error == refused["c1"] and calls[1].error is None
    kept = json.dumps(turn.message)
    assert "yyyy" not in kept and f"{len(broken)} bytes refused" in kept
    assert turn.message["raw"]["tool_calls"][1]["function"]["arguments"] == "{}"
    assert calls[0].arguments == {"path": "(arguments too large)"}  # the step's label says why, not "/"
