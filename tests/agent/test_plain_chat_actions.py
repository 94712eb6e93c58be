"""The ``obsigate-action`` protocol of plain chat (issue 18 item 6) end to end: a real ObsiGate on loopback, the
scripted fake provider over a real socket. A plain-chat answer's blocks become proposals through the tool layer's
door, shown in the agent's confirmation event and settled through the agent's resume; bad blocks are errors in
the conversation; a provider that rejects tools falls back to this chat; an agent run with tools ignores them."""

from __future__ import annotations

import json
import re
from typing import Any

from fakes import openai_replies as o
from support import journal_records

JWT = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.")


def block(data: Any) -> str:
    return f"```obsigate-action\n{data if isinstance(data, str) else json.dumps(data)}\n```"


TWO = (
    "Here are the two notes you asked for.\n\n"
    + block({"action": "create_file", "path": "Trips/Budget.md", "content": "# Budget\n\n- boat: 40\n"})
    + "\n\nand a folder for the photos:\n\n"
    + block({"action": "create_directory", "vault": "notes", "path": "Trips/Photos"})
    + "\n"
)


def _pieces(text: str, size: int = 23) -> list[str | None]:
    """``text`` streamed in pieces that cut the blocks anywhere (the server parses the finished answer)."""
    return [text[i : i + size] for i in range(0, len(text), size)]


def _conversation(a: Any, cid: str) -> list[dict[str, Any]]:
    return a.get(f"/api/ai/conversations/{cid}").json()["messages"]


def _audit(a: Any) -> list[dict[str, Any]]:
    return journal_records(a.data)


def test_two_blocks_two_proposals_one_card_approve_writes_like_any_write(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_text(_pieces(TWO)))
    out = a.chat({"message": "Plan my trip", "vault": "notes", "language": "en"})
    assert out.status == 200, out.raw
    assert "".join(d["text"] for d in out.named("delta")) == TWO  # the answer streams as it is
    pending = out.tools("pending_confirmation")
    assert [(t["id"], t["name"], t["label"]) for t in pending] == [
        ("action-1", "create_file", "Create file: Trips/Budget.md"),
        ("action-2", "create_directory", "Create folder: Trips/Photos"),
    ]
    card = out.one("confirmation")
    assert [x["paths"] for x in card["actions"]] == [["Trips/Budget.md"], ["Trips/Photos"]]
    assert "+# Budget" in card["actions"][0]["diff"] and "+- boat: 40" in card["actions"][0]["diff"]
    done = out.one("done")
    assert done["stopped"] == "awaiting_confirmation" and done["run_id"] == card["run_id"]
    assert not JWT.search(out.raw), "a confirmation token reached the browser"
    assert not (a.vault / "Trips").exists()  # nothing before the approval
    assert "obsigate-action" in a.fake.requests[0].json["messages"][0]["content"]  # plain chat's prompt says how

    applied = a.agent({"run_id": card["run_id"], "confirm_all": True})
    assert [(t["id"], t["status"]) for t in applied.tools()] == [("action-1", "ok"), ("action-2", "ok")]
    assert applied.one("done")["stopped"] == "completed" and len(a.fake.requests) == 1  # no model turn after
    assert (a.vault / "Trips/Budget.md").read_text() == "# Budget\n\n- boat: 40\n"
    assert (a.vault / "Trips/Photos").is_dir()
    records = [(r.get("tool"), r.get("action")) for r in _audit(a)]
    for tool in ("create_file", "create_directory"):  # proposed, then applied, through the door like any write
        assert (f"propose_{tool}", "ai_tool_propose") in records and (f"apply_{tool}", "ai_tool_apply") in records
    messages = _conversation(a, done["conversation_id"])
    assert [m["role"] for m in messages] == ["user", "assistant", "assistant"]
    assert messages[-1]["content"] == "- File created: Trips/Budget.md\n- Folder created: Trips/Photos"
    assert a.agent({"run_id": card["run_id"], "confirm_all": True}).body["code"] == "run_not_paused"

    # the next turn: the note rides on the answer (roles still alternate), the model knows what was written
    a.fake.add(o.stream_text(["Done."]))
    assert (
        a.chat({"message": "thanks", "conversation_id": done["conversation_id"]}).one("done")["stopped"] == "completed"
    )
    sent = a.fake.requests[1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert sent[2]["content"].startswith("Here are the two notes") and sent[2]["content"].endswith(
        "- Folder created: Trips/Photos"
    )


def test_reject_writes_nothing_and_bad_blocks_are_errors_in_the_conversation(assistant: Any) -> None:
    a = assistant()
    answer = "\n\n".join([
        block({"action": "create_file", "path": "Kept/Out.md", "content": "no"}),
        block('{"action": "create_file", "path": "Broken.md", "content": "unterminated}'),
        block({"action": "delete_file", "path": "Ideas.md"}),
        block({"action": "create_file", "path": "Ideas.md", "content": "# already there"}),
        "```obsigate-action\n{\"action\": \"create_directory\", \"path\": \"Cut\"}",  # never closed: the answer was cut
    ])  # fmt: skip
    a.fake.add(o.stream_text(_pieces(answer)))
    out = a.chat({"message": "go", "vault": "notes", "language": "en"})
    notices = [n["message"] for n in out.named("notice") if n["code"] == "action_invalid"]
    assert len(notices) == 3, out.items
    assert notices[0].startswith("obsigate-action block 2: not valid JSON")
    assert (
        notices[1] == "obsigate-action block 3: unknown action 'delete_file'; use one of create_file, create_directory"
    )
    assert notices[2] == "obsigate-action block 5: not closed (the answer was cut?); not used"
    refused = out.tools("error")
    assert [t["id"] for t in refused] == ["action-4"] and "exists" in refused[0]["summary"]  # never overwrites
    card = out.one("confirmation")
    assert [x["paths"] for x in card["actions"]] == [["Kept/Out.md"]]
    cid = out.one("done")["conversation_id"]
    note = _conversation(a, cid)[-1]
    assert note["role"] == "assistant" and note["content"].count("\n") == 3  # the 3 bad blocks and the refusal
    assert (
        "block 3: unknown action" in note["content"] and "Create file: Ideas.md — failed (exists: " in note["content"]
    )

    rejected = a.agent({"run_id": card["run_id"], "confirm_all": False})
    assert [(t["id"], t["status"], t["summary"]) for t in rejected.tools()] == [("action-1", "error", "rejected")]
    assert rejected.one("done")["stopped"] == "completed"
    assert not (a.vault / "Kept").exists() and not (a.vault / "Broken.md").exists()
    assert (a.vault / "Ideas.md").read_text().startswith("# Ideas")
    assert _conversation(a, cid)[-1]["content"] == "- Create file: Kept/Out.md — rejected"
    assert ("decline_create_file", "ai_tool_decline") in [(r.get("tool"), r.get("action")) for r in _audit(a)]

    # blocks with nothing usable: errors only, no card, the chat just ends
    a.fake.add(o.stream_text(["Sure:\n", block("[1, 2]"), "\n", block({"action": "create_file", "path": "x.md"})]))
    only_bad = a.chat({"message": "again", "vault": "notes", "conversation_id": cid})
    assert [n["message"] for n in only_bad.named("notice")] == [
        "obsigate-action block 1: must be one JSON object",
        "obsigate-action block 2: create_file needs content",
    ]
    assert not only_bad.named("confirmation") and only_bad.one("done")["stopped"] == "completed"


def test_a_new_message_instead_of_an_answer_declines_the_blocks(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_text([block({"action": "create_file", "path": "Later.md", "content": "x"})]))
    first = a.chat({"message": "make Later", "vault": "notes"})
    run_id, cid = first.one("confirmation")["run_id"], first.one("done")["conversation_id"]
    a.fake.add(o.stream_text(["ok, forget it"]))
    a.chat({"message": "no wait", "vault": "notes", "conversation_id": cid})
    assert a.agent({"run_id": run_id, "confirm_all": True}).body["code"] == "run_not_paused"
    assert not (a.vault / "Later.md").exists()
    sent = a.fake.requests[1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]  # the note joined the answer
    assert "Create file: Later.md — not run (not run: the person sent a new message" in sent[2]["content"]


def test_a_provider_that_rejects_tools_falls_back_to_the_chat_with_actions(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.ollama_no_tools(), o.stream_text(_pieces("I cannot use tools here.\n" + block(
        {"action": "create_file", "path": "Fallback.md", "content": "# Fallback\n"}))))  # fmt: skip
    out = a.agent({"message": "make a note", "vault": "notes"})
    assert out.one("notice")["code"] == "tools_unsupported"
    assert "proposes new notes and folders" in out.one("notice")["message"]
    fallback = a.fake.requests[1].json
    assert "tools" not in fallback
    assert "obsigate-action" in fallback["messages"][0]["content"]  # the plain chat's prompt, not the agent's
    assert "native function calls" not in fallback["messages"][0]["content"]
    card = out.one("confirmation")
    assert out.one("done")["stopped"] == "awaiting_confirmation" and card["actions"][0]["paths"] == ["Fallback.md"]
    applied = a.agent({"run_id": card["run_id"], "confirm_all": True})
    assert applied.one("done")["stopped"] == "completed" and len(a.fake.requests) == 2
    assert (a.vault / "Fallback.md").read_text() == "# Fallback\n"

    # remembered: the next run goes straight to the fallback chat, blocks included
    a.fake.add(o.stream_text([block({"action": "create_directory", "path": "Again"})]))
    again = a.agent({"message": "a folder", "vault": "notes"})
    assert (
        "tools" not in a.fake.requests[2].json
        and "obsigate-action" in a.fake.requests[2].json["messages"][0]["content"]
    )
    assert again.one("confirmation")["actions"][0]["paths"] == ["Again"]


def test_agent_mode_forbids_the_blocks_and_ignores_them(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_text([block({"action": "create_file", "path": "Sneaky.md", "content": "x"})]))
    out = a.agent({"message": "make a note", "vault": "notes"})
    system = a.fake.requests[0].json["messages"][0]["content"]
    assert "never as obsigate-action blocks" in system and "tools" in a.fake.requests[0].json
    assert not out.named("confirmation") and not out.tools() and not out.named("notice")
    assert out.one("done")["stopped"] == "completed" and not (a.vault / "Sneaky.md").exists()
