"""Step labels say where a call stands (issue 18 item 7): a change says the change to make until it is applied,
then the change made, or how it ended; an unknown tool is named and nothing more. Pure functions: no server."""

from __future__ import annotations

import json

from obsigate.agent.labels import state_label, step_state


def test_the_state_comes_from_the_answer_then_the_status() -> None:
    assert step_state("dangerous", "error", json.dumps({"status": "rejected", "message": "no"})) == "rejected"
    assert step_state("read", "error", json.dumps({"status": "not_run", "message": "x"})) == "not_run"
    assert step_state(None, "error", json.dumps({"error": {"code": "unknown_tool", "message": "x"}})) == "unavailable"
    assert step_state("write", "error", json.dumps({"error": {"code": "conflict", "message": "x"}})) == "failed"
    assert step_state("write", "ok", json.dumps({"status": "applied"})) == "applied"
    assert step_state("write", "ok") == "applied" and step_state("read", "ok") == "done"
    assert step_state("read", "ok", json.dumps({"content": "# A"})) == "done"
    assert step_state("write", "pending_confirmation") == "proposed" and step_state("read", "deferred") == "deferred"
    assert step_state("read", "running") == "running" and step_state("read", "ok", "not json") == "done"


def test_labels_by_state_in_both_languages() -> None:
    args = {"vault": "v", "path": "Old.md"}
    assert state_label("delete_file", args, "en", "proposed") == "Delete file: Old.md"
    assert state_label("delete_file", args, "en", "applied") == "File deleted: Old.md"
    assert state_label("delete_file", args, "en", "rejected") == "Delete file: Old.md — rejected"
    assert state_label("delete_file", args, "fr", "rejected") == "Supprimer le fichier : Old.md — refusé"
    assert state_label("create_file", args, "en", "applied") == "File created: Old.md"
    assert state_label("create_file", args, "fr", "failed") == "Créer le fichier : Old.md — échec"
    assert state_label("read_file", args, "en", "done") == "File read: Old.md"
    assert state_label("read_file", args, "en", "not_run") == "File read: Old.md — not run"
    assert state_label("delete_file", {}, "en", "unavailable") == "Tool not available: delete_file"
    assert state_label("no_such_tool", {}, "fr", "unavailable") == "Outil non disponible : no_such_tool"
    assert state_label("x" * 200, None, "en", "unavailable") == "Tool not available: " + "x" * 79 + "…"
