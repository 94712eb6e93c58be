"""A conversation shown again (issue 18 item 7): its tool steps and the run still awaiting approval come back
from GET /api/ai/conversations/{id} (never a token), and step labels say where each call stands — on the live
SSE events and in the stored view alike. A real ObsiGate on loopback, the fake provider over a real socket."""

from __future__ import annotations

import re
from typing import Any

from fakes import openai_replies as o

JWT = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.")
ASK = {"message": "Tidy up", "vault": "notes"}


def _labels(steps: list[dict[str, Any]]) -> dict[str, tuple[str, str]]:
    return {s["id"]: (s["state"], s["label"]) for s in steps}


def test_a_waiting_run_and_its_steps_come_back_then_honest_labels_after_a_reject(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls(
            [
                ("r", "read_file", {"vault": "notes", "path": "Ideas.md"}),
                ("u", "no_such_tool", {}),
                ("c", "create_file", {"vault": "notes", "path": "Buoy.md", "content": "# Buoy\n"}),
                ("d", "delete_file", {"vault": "notes", "path": "Home.md"}),
            ],
            text="Working.",
        ),
        o.stream_text(["Nothing changed."]),
    )
    first = a.agent(ASK)
    assert first.status == 200, first.raw
    live = {(t["id"], t["status"]): (t["state"], t["label"]) for t in first.tools()}
    assert live[("u", "error")] == ("unavailable", "Tool not available: no_such_tool")
    assert live[("c", "pending_confirmation")] == ("proposed", "Create file: Buoy.md")
    assert live[("d", "pending_confirmation")] == ("proposed", "Delete file: Home.md")
    assert live[("r", "ok")] == ("done", "File read: Ideas.md")
    card = first.one("confirmation")
    cid = first.one("done")["conversation_id"]

    shown = a.get(f"/api/ai/conversations/{cid}?language=en")
    assert shown.status_code == 200, shown.text
    view = shown.json()
    assert not JWT.search(shown.text) and "confirmation_token" not in shown.text
    waiting = view["waiting"]
    assert waiting["run_id"] == card["run_id"]
    assert [(x["id"], x["label"], x["paths"]) for x in waiting["actions"]] == [
        ("c", "Create file: Buoy.md", ["Buoy.md"]),
        ("d", "Delete file: Home.md", ["Home.md"]),
    ]
    assert waiting["actions"] == card["actions"]
    assert "+# Buoy" in waiting["actions"][0]["diff"]
    [group] = view["steps"]
    assert view["messages"][group["message"]]["role"] == "user"
    assert _labels(group["steps"]) == {
        "r": ("done", "File read: Ideas.md"),
        "u": ("unavailable", "Tool not available: no_such_tool"),
        "c": ("proposed", "Create file: Buoy.md"),
        "d": ("proposed", "Delete file: Home.md"),
    }
    assert [s["status"] for s in group["steps"]] == ["ok", "error", "pending_confirmation", "pending_confirmation"]

    rejected = a.agent({"run_id": waiting["run_id"], "confirm_all": False})
    assert rejected.one("done")["stopped"] == "completed"
    ended = {t["id"]: (t["state"], t["label"]) for t in rejected.tools()}
    assert ended["d"] == ("rejected", "Delete file: Home.md — rejected")
    assert (a.vault / "Home.md").exists() and not (a.vault / "Buoy.md").exists()

    after = a.get(f"/api/ai/conversations/{cid}?language=fr").json()
    assert after["waiting"] is None
    assert _labels(after["steps"][0]["steps"]) == {
        "r": ("done", "Fichier lu : Ideas.md"),
        "u": ("unavailable", "Outil non disponible : no_such_tool"),
        "c": ("rejected", "Créer le fichier : Buoy.md — refusé"),
        "d": ("rejected", "Supprimer le fichier : Home.md — refusé"),
    }


def test_an_approved_change_is_labelled_applied_in_the_view(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls([("c", "create_file", {"vault": "notes", "path": "Made.md", "content": "x"})]),
        o.stream_text(["Made it."]),
    )
    first = a.agent(ASK)
    run_id = first.one("confirmation")["run_id"]
    cid = first.one("done")["conversation_id"]
    second = a.agent({"run_id": run_id, "confirm_all": True})
    assert [(t["state"], t["label"]) for t in second.tools()] == [("applied", "File created: Made.md")]
    view = a.get(f"/api/ai/conversations/{cid}?language=en").json()
    assert view["waiting"] is None
    assert _labels(view["steps"][0]["steps"]) == {"c": ("applied", "File created: Made.md")}
