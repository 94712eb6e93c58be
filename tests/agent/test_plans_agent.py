"""The plan in the assistant's runs, end to end: a real ObsiGate on loopback, the scripted fake provider speaking
OpenAI's wire format over a socket. The person's edits between two steps (the panel's PUT and the file itself)
are in the model's next request; an answer that leaves a step in progress is turned back once; conversations'
plans are private."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx2
from fakes import gemini_replies as g
from fakes import openai_replies as o
from support import alice_and_bob

from obsigate.agent.plan_watch import NOTE_HEAD

ASK = {"message": "Summarise the meetings into a note", "vault": "notes"}
PLAN = [
    {"step": "Read the meeting notes", "status": "completed"},
    {"step": "Draft the summary", "status": "in_progress"},
]


def _plan_files(data: Path) -> list[Path]:
    return sorted((data / "users").glob("*/plans/*.md"))


def test_the_persons_edits_reach_the_next_step_and_a_step_left_in_progress_is_turned_back_once(
    assistant: Any,
) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls(
            [
                ("c_plan", "update_plan", {"explanation": "Two steps.", "plan": PLAN}),
                ("c_make", "create_file", {"vault": "notes", "path": "Summary.md", "content": "# Summary\n"}),
            ],
            text="Planning.",
        ),
        o.stream_text(["All done."]),  # leaves 'Draft the summary…' in progress: turned back
        o.stream_text(["Done, the summary is drafted."]),  # still in progress: a second answer ends the run
    )
    first = a.agent(ASK)
    assert first.status == 200, first.raw
    assert [t["status"] for t in first.tools() if t["id"] == "c_plan"] == ["running", "ok"]
    shown = first.one("plan")  # the panel sees the plan as soon as the model writes it
    assert shown["revision"] == 1 and shown["plan"] == PLAN and "- [~] Draft the summary" in shown["markdown"]
    cid, run_id = first.one("done")["conversation_id"], first.one("confirmation")["run_id"]
    (plan_file,) = _plan_files(a.data)
    assert plan_file.name == f"{cid}.md"

    # between the steps, the person edits the plan in the panel (REST, through the tool layer)...
    url = f"{a.url}/api/ai/conversations/{cid}/plan"
    assert httpx2.get(url).json()["revision"] == 1
    edited = [PLAN[0], {"step": "Draft the summary in French", "status": "in_progress"}]
    stale = httpx2.put(url, json={"plan": edited, "revision": 0})
    assert stale.status_code == 409 and stale.json()["code"] == "conflict"
    assert stale.json()["details"]["plan"]["revision"] == 1
    two = httpx2.put(url, json={"plan": [{**s, "status": "in_progress"} for s in edited], "revision": 1})
    assert two.status_code == 400 and two.json()["code"] == "invalid_argument"
    put = httpx2.put(url, json={"plan": edited, "revision": 1})
    assert put.status_code == 200 and put.json()["revision"] == 2 and put.json()["edited_by"] == "person"
    # ...and then in the file itself
    plan_file.write_text(plan_file.read_text(encoding="utf-8") + "- [ ] Ask Bob to review it\n", encoding="utf-8")

    second = a.agent({"run_id": run_id, "confirm_all": True})
    assert second.status == 200, second.raw
    # the next request ends with the plan as saved now: both edits, its revision (the hand edit counts as one)
    after = a.fake.requests[1].json["messages"]
    assert after[-2]["role"] == "tool" and after[-1]["role"] == "user"
    note = after[-1]["content"]
    assert note.startswith(NOTE_HEAD) and "revision 3" in note
    assert "- [~] Draft the summary in French" in note and "- [ ] Ask Bob to review it" in note
    assert second.named("plan")[0]["revision"] == 3
    # the first answer left a step in progress: turned back once, with a hint naming it; the second ends the run
    notice = second.one("notice")
    assert notice["code"] == "plan_in_progress" and "Draft the summary in French" in notice["message"]
    turned = a.fake.requests[2].json["messages"]
    assert turned[-2] == {"role": "assistant", "content": "All done."}
    assert turned[-1]["role"] == "user" and "'Draft the summary in French' in progress" in turned[-1]["content"]
    assert len(a.fake.requests) == 3
    assert second.one("message")["content"] == "Done, the summary is drafted."
    assert second.one("done")["stopped"] == "completed"
    # neither the note nor the turned-back answer and its hint are stored in the conversation
    stored = a.get(f"/api/ai/conversations/{cid}").json()["messages"]
    text = json.dumps(stored)
    assert NOTE_HEAD not in text and "All done." not in text and "in progress: complete it" not in text
    assert stored[-1]["content"] == "Done, the summary is drafted."

    # the next message in this conversation reads the plan before the model's first turn
    a.fake.add(o.stream_text(["Bob will review it."]), o.stream_text(["Bob reviews it."]))
    third = a.agent({**ASK, "message": "Who reviews?", "conversation_id": cid})
    assert third.status == 200 and third.one("plan")["revision"] == 3
    last = a.fake.requests[3].json["messages"][-1]
    assert last["role"] == "user" and last["content"].startswith("Who reviews?\n\n" + NOTE_HEAD)
    # each run turns back once: this one too, and its next answer ends it
    assert third.one("notice")["code"] == "plan_in_progress" and third.one("done")["stopped"] == "completed"
    assert third.one("message")["content"] == "Bob reviews it." and len(a.fake.requests) == 5

    # once the plan is completed, nothing is added to a request and nothing is turned back
    done = [{**s, "status": "completed"} for s in httpx2.get(url).json()["plan"]]
    assert httpx2.put(url, json={"plan": done, "revision": 3}).json()["status"] == "completed"
    a.fake.add(o.stream_text(["Finished."]))
    fourth = a.agent({**ASK, "message": "Thanks", "conversation_id": cid})
    assert fourth.one("message")["content"] == "Finished." and not fourth.named("notice")
    assert a.fake.requests[5].json["messages"][-1]["content"] == "Thanks"


def test_a_run_that_never_plans_reads_no_plan(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_text(["Hello."]))
    out = a.agent(ASK)
    assert out.status == 200 and out.one("message")["content"] == "Hello." and not out.named("plan")
    assert NOTE_HEAD not in json.dumps(a.fake.requests[0].json)
    assert _plan_files(a.data) == [] and len(a.fake.requests) == 1


def test_a_conversations_plan_is_its_owners_only(assistant: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    alice, bob = alice_and_bob(data)
    a = assistant(auth_enabled=True, data_dir=data)
    a.fake.add(o.stream_tool_calls([("p", "update_plan", {"plan": PLAN[:1]})]), o.stream_text(["Planned."]))
    cid = a.agent(ASK, headers=alice).one("done")["conversation_id"]
    url = f"{a.url}/api/ai/conversations/{cid}/plan"
    assert httpx2.get(url).status_code == 401
    assert httpx2.get(url, headers=alice).json()["plan"] == PLAN[:1]
    for response in (httpx2.get(url, headers=bob), httpx2.put(url, headers=bob, json={"plan": PLAN, "revision": 1})):
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert not (data / "users" / "bob").exists()  # bob's refused edit wrote nothing anywhere
    assert httpx2.get(url, headers=alice).json()["revision"] == 1
    assert httpx2.get(f"{a.url}/api/ai/conversations/nope/plan", headers=alice).status_code == 404
    plan_file = data / "users" / "alice" / "plans" / f"{cid}.md"
    assert plan_file.is_file()
    assert httpx2.delete(f"{a.url}/api/ai/conversations/{cid}", headers=bob).status_code == 404
    assert plan_file.is_file()  # bob cannot delete alice's conversation, nor its plan
    assert httpx2.delete(f"{a.url}/api/ai/conversations/{cid}", headers=alice).status_code in (200, 204)
    assert not plan_file.exists()  # the plan goes with its conversation


def test_the_plan_in_geminis_dialect(assistant: Any) -> None:
    """The note after a turn's function responses is a user content of its own; the model's step before it is
    replayed verbatim, its thought signature with it."""
    a = assistant()
    a.fake.add(
        g.stream_calls([("update_plan", {"plan": PLAN})], text="Planning.", signature="c2lnMQ=="),
        g.stream_text(["Working on the draft."]),  # turned back: a step is in progress
        g.stream_text(["Drafted."]),
    )
    out = a.agent({**ASK, "provider": "gemini"})
    assert out.status == 200 and out.one("message")["content"] == "Drafted."
    assert out.one("plan")["revision"] == 1 and out.one("notice")["code"] == "plan_in_progress"
    contents = a.fake.requests[1].json["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user", "user"]
    assert contents[1]["parts"][-1]["thoughtSignature"] == "c2lnMQ=="
    assert contents[2]["parts"][0]["functionResponse"]["name"] == "update_plan"
    assert (
        contents[3]["parts"][0]["text"].startswith(NOTE_HEAD)
        and "- [~] Draft the summary" in contents[3]["parts"][0]["text"]
    )
    hinted = a.fake.requests[2].json["contents"]
    assert hinted[-2]["role"] == "model" and "in progress: complete it" in hinted[-1]["parts"][-1]["text"]


def test_the_explanation_round_trips_through_the_panels_put_and_get(assistant: Any) -> None:
    """What the person (or the model) sends as the explanation is what GET gives back, byte for byte: list
    lines, checklist-looking lines, blank lines, a heading, spaces; none of it becomes a step."""
    a = assistant()
    a.fake.add(o.stream_text(["Hello."]))
    cid = a.agent(ASK).one("done")["conversation_id"]
    url = f"{a.url}/api/ai/conversations/{cid}/plan"
    step = [{"step": "Write summary", "status": "in_progress"}]
    explanations = [
        "Approach:\n1. read the notes\n2. draft",
        "Options:\n- keep it\n* drop it",
        "ctx:\n- [~] injected\n- [x] fake",
        "Line one\n\nLine two",
        "# A heading line\ntext",
        "  leading spaces\ntrailing spaces  \n",
    ]
    for revision, explanation in enumerate(explanations):
        put = httpx2.put(url, json={"plan": step, "explanation": explanation, "revision": revision})
        assert put.status_code == 200, put.text
        assert put.json()["explanation"] == explanation and put.json()["revision"] == revision + 1
        got = httpx2.get(url).json()
        assert got["explanation"] == explanation and got["plan"] == step and got["edited_by"] == "person"
    (plan_file,) = _plan_files(a.data)
    assert plan_file.read_text(encoding="utf-8").endswith("> trailing spaces  \n>\n\n- [~] Write summary\n")
