"""Approval that stays honest (issue 18 item 8), end to end on a real server with the scripted fake provider:
an "Approve all" covers additions and the notes the person saw, never a replacement of a note they were not
shown; "Undo this run"; the agent's own rate budget; the size cap of a call's arguments."""

from __future__ import annotations

import json
from typing import Any

import httpx2
from fakes import gemini_replies as g
from fakes import openai_replies as o

ASK = {"message": "Tidy my notes", "vault": "notes"}


def _call(cid: str, name: str, **args: Any) -> tuple[str, str, dict[str, Any]]:
    return (cid, name, {"vault": "notes", **args})


def test_approve_all_then_a_replace_of_an_unseen_note_asks_again(assistant: Any) -> None:
    a = assistant()
    plan_before = (a.vault / "Projects/Plan.md").read_bytes()
    a.fake.add(
        o.stream_tool_calls([_call("e1", "append_to_file", path="Ideas.md", content="- [ ] shown")]),
        o.stream_tool_calls(
            [
                _call("c1", "create_file", path="New.md", content="# New\n"),
                _call("d1", "create_directory", path="Later"),
                _call("a1", "append_to_file", path="Home.md", content="appended, never shown"),
                _call("s1", "edit_file", path="Ideas.md", content="# Ideas\n\nrewritten (shown before)\n"),
                _call("n1", "edit_file", path="New.md", content="# New\n\nthe run's own note\n"),
                _call("r1", "edit_file", path="Projects/Plan.md", content="# Plan\n\nreplaced whole\n"),
            ]
        ),
        o.stream_tool_calls([_call("r2", "edit_file", path="Projects/Plan.md", find="whole", replace="again")]),
        o.stream_text(["done"]),
    )
    first = a.agent(ASK)
    assert [x["id"] for x in first.one("confirmation")["actions"]] == ["e1"]
    second = a.agent({"run_id": first.one("confirmation")["run_id"], "confirm_all": True})
    # additions, and replacements of a note shown or created by the run, go ahead on the approval ...
    assert [t["id"] for t in second.tools("ok")] == ["e1", "c1", "d1", "a1", "s1", "n1"]
    assert (a.vault / "New.md").read_text() == "# New\n\nthe run's own note\n" and (a.vault / "Later").is_dir()
    assert (a.vault / "Home.md").read_text().endswith("appended, never shown")
    assert (a.vault / "Ideas.md").read_text() == "# Ideas\n\nrewritten (shown before)\n"
    # ... the whole-content replace of a note never shown pauses and asks, like the first time
    actions = second.one("confirmation")["actions"]
    assert [(x["id"], x["paths"]) for x in actions] == [("r1", ["Projects/Plan.md"])] and "+replaced whole" in actions[
        0
    ]["diff"]
    assert second.one("done")["stopped"] == "awaiting_confirmation"
    assert (a.vault / "Projects/Plan.md").read_bytes() == plan_before
    third = a.agent({"run_id": actions and second.one("confirmation")["run_id"], "confirm_all": True})
    # approved: that note is now one the person saw, a later edit of it goes ahead
    assert [t["id"] for t in third.tools("ok")] == ["r1", "r2"] and third.one("done")["stopped"] == "completed"
    assert (a.vault / "Projects/Plan.md").read_text() == "# Plan\n\nreplaced again\n"


def test_undo_restores_every_file_once_and_refuses_newer_work(assistant: Any) -> None:
    a = assistant()
    before = {p: (a.vault / p).read_bytes() for p in ("Home.md", "Ideas.md", "Projects/Plan.md")}
    a.fake.add(
        o.stream_tool_calls(
            [
                _call("c1", "create_file", path="Sub/New.md", content="# New\n"),
                _call("e1", "edit_file", path="Ideas.md", content="# Ideas\n\nall gone\n"),
                _call("d1", "delete_file", path="Home.md"),
                _call("p1", "append_to_file", path="Projects/Plan.md", content="one"),
            ]
        ),
        o.stream_tool_calls([_call("p2", "append_to_file", path="Projects/Plan.md", content="two")]),
        o.stream_text(["done"]),
    )
    first = a.agent(ASK)
    run_id = first.one("confirmation")["run_id"]
    second = a.agent({"run_id": run_id, "confirm_all": True})
    assert second.one("done")["stopped"] == "completed" and not (a.vault / "Home.md").exists()
    assert (a.vault / "Sub/New.md").exists() and (a.vault / "Projects/Plan.md").read_text().endswith("one\ntwo")

    assert a.post("/api/ai/runs/nosuchrun/undo", {}).body["code"] == "not_found"
    undone = a.post(f"/api/ai/runs/{run_id}/undo", {})
    assert undone.status == 200, undone.raw
    report = undone.body
    assert sorted((r["path"], r["action"]) for r in report["restored"]) == [
        ("Home.md", "restored"), ("Ideas.md", "restored"), ("Projects/Plan.md", "restored"), ("Sub/New.md", "deleted"),
    ]  # fmt: skip
    assert report["conflicts"] == [] and report["skipped"] == []
    assert {p: (a.vault / p).read_bytes() for p in before} == before
    assert not (a.vault / "Sub/New.md").exists()
    trash = httpx2.get(f"{a.url}/api/trash/notes").json()  # the created note is in the trash, not lost
    assert "Sub/New.md" in json.dumps(trash)
    again = a.post(f"/api/ai/runs/{run_id}/undo", {})
    assert (again.status, again.body["code"]) == (409, "run_undone"), again.raw

    # a second run, then newer work on its file: a conflict, nothing done, unless forced
    a.fake.add(
        o.stream_tool_calls([_call("e2", "edit_file", path="Ideas.md", content="# Ideas\n\nby the run\n")]),
        o.stream_text(["done"]),
    )
    run2 = a.agent(ASK).one("confirmation")["run_id"]
    assert a.agent({"run_id": run2, "confirm_all": True}).one("done")["stopped"] == "completed"
    (a.vault / "Ideas.md").write_text("# Ideas\n\nnewer work\n")
    refused = a.post(f"/api/ai/runs/{run2}/undo", {})
    assert (refused.status, refused.body["code"]) == (409, "conflict"), refused.raw
    assert refused.body["details"]["changed"] == [{"vault": "notes", "path": "Ideas.md"}]
    assert (a.vault / "Ideas.md").read_text() == "# Ideas\n\nnewer work\n"
    forced = a.post(f"/api/ai/runs/{run2}/undo", {"force": True})
    assert forced.status == 200 and (a.vault / "Ideas.md").read_bytes() == before["Ideas.md"]
    versions = httpx2.get(f"{a.url}/api/file/notes/backups", params={"path": "Ideas.md"}).json()["versions"]
    newest = versions[0]["version"]  # the newer work was backed up before the forced undo replaced it
    diff = httpx2.get(f"{a.url}/api/file/notes/diff", params={"path": "Ideas.md", "version": newest}).json()
    assert "-newer work" in diff["diff"]
    assert a.post(f"/api/ai/runs/{run2}/undo", {"force": "yes"}).body["code"] == "invalid_argument"


def test_agent_runs_have_their_own_rate_budget(assistant: Any) -> None:
    # an hour's window: the limits, not the machine's speed, decide (62 calls took over a minute on a slow CI)
    a = assistant(tool_rate_limit=60, agent_rate_limit=90, tool_rate_window=3600)
    for run in range(4):
        a.fake.add(o.stream_tool_calls([(f"r{run}_{i}", "list_vaults", {}) for i in range(25)]), o.stream_text(["ok"]))
    for _ in range(3):  # 3 x (1 context + 25 calls) = 78: over the 60 of a REST client, within the agent's 90
        done = a.agent(ASK)
        assert done.one("done")["stopped"] == "completed", done.raw
        assert len(done.tools("ok")) == 25
    # the REST client's 60 calls a minute are untouched by the agent's
    codes = [httpx2.get(f"{a.url}/api/vaults").status_code for _ in range(62)]
    assert codes[:60] == [200] * 60 and 429 in codes[60:]
    # and the agent's budget is still a limit: the fourth run runs out
    fourth = a.agent(ASK)
    assert 0 < len(fourth.tools("ok")) < 25 and fourth.tools("error")
    results = [m for m in a.fake.requests[-1].json["messages"] if m["role"] == "tool"]
    assert any("rate_limited" in m["content"] for m in results)


def test_oversized_arguments_are_refused_and_not_replayed(assistant: Any) -> None:
    a = assistant(ai_max_tool_args_bytes=2048)
    big = "x" * 5000
    a.fake.add(
        o.stream_tool_calls(
            [
                _call("big", "create_file", path="Big.md", content=big),
                _call("ok", "create_file", path="Small.md", content="small"),
            ]
        ),
        o.stream_text(["too big, sorry"]),
        o.stream_text(["later turn"]),
    )
    first = a.agent(ASK)
    error = [t for t in first.tools("error") if t["id"] == "big"]
    assert error and "2048-byte cap" in error[0]["summary"]
    assert error[0]["label"].startswith("Create file: Big.md")  # the path, kept for the label (not the content)
    assert [x["id"] for x in first.one("confirmation")["actions"]] == ["ok"]
    second = a.agent({"run_id": first.one("confirmation")["run_id"], "confirm_all": True})
    assert second.one("done")["stopped"] == "completed" and not (a.vault / "Big.md").exists()
    cid = second.one("done")["conversation_id"]
    a.chat({"message": "and now?", "conversation_id": cid})
    for request in a.fake.requests[1:]:  # every later turn carries the placeholder, never the refused text
        sent = json.dumps(request.json)
        assert big not in sent and "refused (over the 2048-byte cap)" in sent
    tool_result = next(m for m in a.fake.requests[1].json["messages"] if m.get("tool_call_id") == "big")
    assert json.loads(tool_result["content"])["error"]["code"] == "too_large"

    # Gemini's dialect: the call's args replaced in the replayed content, its thought signature kept
    a.fake.add(
        g.stream_calls([("create_file", {"vault": "notes", "path": "G.md", "content": big})], signature="c2lnMQ=="),
        g.stream_text(["smaller next time"]),
    )
    sent_before = len(a.fake.requests)
    gemini = a.agent({**ASK, "provider": "gemini"})
    assert gemini.one("done")["stopped"] == "completed" and not (a.vault / "G.md").exists()
    replayed = a.fake.requests[sent_before + 1].json["contents"][1]["parts"][0]
    assert replayed["thoughtSignature"] == "c2lnMQ==" and "refused" in replayed["functionCall"]["args"]["omitted"]
    assert big not in json.dumps(a.fake.requests[sent_before + 1].json)


def test_a_context_over_its_share_of_the_window_warns_first(assistant: Any) -> None:
    a = assistant(ai_context_window=3000)  # a share of 0.5: 1500 tokens; the agent's tool schemas alone are more
    body = {"mode": "directory", "vault": "notes", "directory": ""}
    shown = httpx2.post(f"{a.url}/api/ai/bookslm/context", json=body).json()["estimate"]
    assert shown["context_window"] == 3000 and shown["share"] == 0.5 and shown["limit_tokens"] == 1500
    assert shown["over"] and shown["estimated_tokens"] > 1500
    small = httpx2.post(f"{a.url}/api/ai/bookslm/context", json={"mode": "general", "agent": False}).json()
    assert not small["estimate"]["over"] and small["estimate"]["estimated_tokens"] < shown["estimated_tokens"]

    refused = a.agent({**ASK, **body})
    assert (refused.status, refused.body["code"]) == (413, "context_too_large"), refused.raw
    figures = refused.body["details"]  # the context endpoint's figures, with the message and the request's own lines
    assert 0 < figures["estimated_tokens"] - shown["estimated_tokens"] < 100
    assert {**figures, "estimated_tokens": 0} == {**shown, "estimated_tokens": 0}
    assert a.fake.requests == [] and a.get("/api/ai/conversations").json()["conversations"] == []
    a.fake.add(o.stream_text(["read it all"]))
    accepted = a.agent({**ASK, **body, "accept_large_context": True})
    assert accepted.one("message")["content"] == "read it all"
    bad = a.agent({**ASK, **body, "accept_large_context": "yes"})
    assert (bad.status, bad.body["code"]) == (400, "invalid_argument")
