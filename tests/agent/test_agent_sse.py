"""The assistant end to end: a real ObsiGate on loopback, the scripted fake provider speaking each dialect's
wire format over a real socket, SSE read by a plain HTTP client (issue 10's "done when")."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from typing import Any

import anyio
import httpx2
from fakes import gemini_replies as g
from fakes import openai_replies as o
from support import alice_and_bob

from obsigate.agent.assistant import TOOL_LESS_TTL_S

JWT = re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.")
ASK = {"message": "Add a note and extend Ideas", "vault": "notes"}


def _proposals_in_store(a: Any) -> list[str]:
    """The proposal ids the paused runs hold server-side: ids of proposals the confirmation store holds (the
    one copy), never a token (a credential) nor a copy of a proposal."""
    found = []
    for _, _, data in a.runs():
        assert not JWT.search(data) and "confirmation_token" not in data, "a paused run holds a token"
        for item in json.loads(data).get("pending") or []:
            assert set(item) == {"id", "tool", "label", "proposal_id"}
            found.append(item["proposal_id"])
    with sqlite3.connect(a.data / "confirmations.sqlite3") as db:
        stored = {row[0] for row in db.execute("SELECT jti FROM proposals")}
    assert found and set(found) <= stored
    return found


def _assert_no_token(a: Any, *texts: str, proposals: list[str]) -> None:
    assert proposals and all(re.fullmatch(r"[0-9a-f]{32}", p) for p in proposals)
    sent = json.dumps([r.json for r in a.fake.requests])
    for text in (*texts, sent):
        assert not JWT.search(text), "a confirmation token left the server"


def test_read_propose_two_pause_approve_write_answer(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls([("call_r", "read_file", {"vault": "notes", "path": "Ideas.md"})], text="Let me look."),
        o.stream_tool_calls(
            [
                ("call_c", "create_file", {"vault": "notes", "path": "Buoy.md", "content": "# Buoy\n\nSketch ✓\n"}),
                ("call_e", "append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "See [[Buoy]]."}),
            ],
            text="I'll write both.",
            split=5,
        ),
        o.stream_text(["Done: ", "[[Buoy]] exists ", "and Ideas links it."]),
    )
    ideas_before = (a.vault / "Ideas.md").read_bytes()
    first = a.agent(ASK)
    assert first.status == 200, first.raw
    assert [t["status"] for t in first.tools() if t["id"] == "call_r"] == ["running", "ok"]
    assert {t["id"] for t in first.tools("pending_confirmation")} == {"call_c", "call_e"}
    confirmation = first.one("confirmation")
    actions = confirmation["actions"]
    assert [x["tool"] for x in actions] == ["create_file", "append_to_file"]
    assert actions[0]["paths"] == ["Buoy.md"] and "+# Buoy" in actions[0]["diff"] and "Sketch ✓" in actions[0]["diff"]
    assert actions[1]["paths"] == ["Ideas.md"] and "+See [[Buoy]]." in actions[1]["diff"]
    assert actions[0]["label"] == "Create file: Buoy.md" and actions[1]["label"] == "Append to file: Ideas.md"
    done = first.one("done")
    assert done["stopped"] == "awaiting_confirmation" and done["run_id"] == confirmation["run_id"]
    assert "".join(d["text"] for d in first.named("delta")) == "Let me look.I'll write both."
    assert not (a.vault / "Buoy.md").exists() and (a.vault / "Ideas.md").read_bytes() == ideas_before
    proposals = _proposals_in_store(a)
    assert len(proposals) == 2

    second = a.agent({"run_id": confirmation["run_id"], "confirm_all": True})
    assert second.status == 200, second.raw
    assert [(t["id"], t["status"]) for t in second.tools()] == [("call_c", "ok"), ("call_e", "ok")]
    assert second.one("message")["content"] == "Done: [[Buoy]] exists and Ideas links it."
    assert second.one("done")["stopped"] == "completed"
    assert (a.vault / "Buoy.md").read_text(encoding="utf-8") == "# Buoy\n\nSketch ✓\n"
    assert (a.vault / "Ideas.md").read_bytes() == ideas_before + b"See [[Buoy]]."

    # the protocol stayed valid: each request answers every call of the previous assistant message
    third = a.fake.requests[2].json["messages"]
    assert [m["role"] for m in third] == ["system", "user", "assistant", "tool", "assistant", "tool", "tool"]
    assert [m["tool_call_id"] for m in third if m["role"] == "tool"] == ["call_r", "call_c", "call_e"]
    assert json.loads(third[5]["content"])["status"] == "applied"
    assert a.sent_tool_names()[:1] == ["list_vaults"] and "propose_create_file" not in a.sent_tool_names()
    assert "create_file" in a.sent_tool_names()
    conversation = a.get(f"/api/ai/conversations/{done['conversation_id']}").text
    _assert_no_token(a, first.raw, second.raw, conversation, proposals=proposals)
    with sqlite3.connect(a.data / "assistant.sqlite3") as db:
        stored = json.dumps(db.execute("SELECT message FROM messages").fetchall())
    assert not JWT.search(stored)


def test_the_same_run_in_geminis_dialect(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        g.stream_calls([("read_file", {"vault": "notes", "path": "Ideas.md"})], text="Looking.", signature="c2lnMQ=="),
        g.stream_calls(
            [
                ("create_file", {"vault": "notes", "path": "Buoy.md", "content": "# Buoy\n"}),
                ("append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "See [[Buoy]]."}),
            ],
            signature="c2lnMg==",
        ),
        g.stream_text(["All ", "done."]),
    )
    first = a.agent({**ASK, "provider": "gemini"})
    assert first.status == 200, first.raw
    confirmation = first.one("confirmation")
    proposals = _proposals_in_store(a)
    assert [x["tool"] for x in confirmation["actions"]] == ["create_file", "append_to_file"]
    assert not (a.vault / "Buoy.md").exists()
    second = a.agent({"run_id": confirmation["run_id"], "confirm_all": True})
    assert second.one("done")["stopped"] == "completed" and second.one("message")["content"] == "All done."
    assert (a.vault / "Buoy.md").read_text() == "# Buoy\n"
    assert a.fake.requests[0].path.endswith("/v1beta/models/gemini-fake:streamGenerateContent?alt=sse")
    contents = a.fake.requests[2].json["contents"]
    # the model's steps replayed verbatim, signatures on the parts they came on; results grouped per step
    assert contents[1]["role"] == "model" and contents[1]["parts"][-1]["thoughtSignature"] == "c2lnMQ=="
    assert (
        contents[3]["parts"][0]["thoughtSignature"] == "c2lnMg==" and "thoughtSignature" not in contents[3]["parts"][1]
    )
    assert [p["functionResponse"]["name"] for p in contents[4]["parts"]] == ["create_file", "append_to_file"]
    _assert_no_token(a, first.raw, second.raw, proposals=proposals)


def test_reject_changes_nothing_and_tells_the_model(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls(
            [
                ("c1", "create_file", {"vault": "notes", "path": "No.md", "content": "x"}),
                ("c2", "read_file", {"vault": "notes", "path": "Home.md"}),
            ]
        ),
        o.stream_text(["Understood."]),
    )
    first = a.agent(ASK)
    assert [t["status"] for t in first.tools() if t["id"] == "c2"] == ["deferred"]
    rejected = a.agent({"run_id": first.one("confirmation")["run_id"], "confirm_all": False})
    assert rejected.one("done")["stopped"] == "completed"
    assert not (a.vault / "No.md").exists()
    tool_msgs = [m for m in a.fake.requests[1].json["messages"] if m["role"] == "tool"]
    assert json.loads(tool_msgs[0]["content"])["status"] == "rejected"
    assert json.loads(tool_msgs[1]["content"])["status"] == "not_run"


def test_a_file_changed_since_the_card_is_not_overwritten(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls(
            [
                ("c1", "edit_file", {"vault": "notes", "path": "Ideas.md", "content": "# Mine\n"}),
                ("c2", "create_file", {"vault": "notes", "path": "Other.md", "content": "y"}),
            ]
        ),
        o.stream_text(["ok"]),
    )
    first = a.agent(ASK)
    (a.vault / "Ideas.md").write_text("# Changed by hand\n")
    second = a.agent({"run_id": first.one("confirmation")["run_id"], "confirm_all": True})
    statuses = {t["id"]: t["status"] for t in second.tools()}
    assert statuses == {"c1": "error", "c2": "ok"}
    assert (a.vault / "Ideas.md").read_text() == "# Changed by hand\n" and (a.vault / "Other.md").exists()
    tool_msgs = [m for m in a.fake.requests[1].json["messages"] if m["role"] == "tool"]
    assert json.loads(tool_msgs[0]["content"])["error"]["code"] == "conflict"


def test_two_resumes_exactly_one_applies(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_tool_calls([("c1", "append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "once"})]),
               o.stream_text(["ok"]))  # fmt: skip
    run_id = a.agent(ASK).one("confirmation")["run_id"]
    results: list[Any] = []

    def resume() -> None:
        results.append(a.agent({"run_id": run_id, "confirm_all": True}))

    threads = [threading.Thread(target=resume) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status for r in results) == [200, 409]
    assert next(r for r in results if r.status == 409).body["code"] == "run_not_paused"
    assert (a.vault / "Ideas.md").read_text().count("once") == 1


def test_a_paused_run_survives_a_restart_and_expires(assistant: Any, live_server: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_tool_calls([("c1", "create_file", {"vault": "notes", "path": "Kept.md", "content": "k"})]),
               o.stream_text(["ok"]),
               o.stream_tool_calls([("c2", "create_file", {"vault": "notes", "path": "Late.md", "content": "l"})]))  # fmt: skip
    run_id = a.agent(ASK).one("confirmation")["run_id"]
    a.server.stop()  # a restart: a new server over the same data dir
    b = assistant(data_dir=a.data)
    resumed = b.agent({"run_id": run_id, "confirm_all": True})
    assert resumed.status == 200 and (a.vault / "Kept.md").exists()
    late = b.agent(ASK).one("confirmation")["run_id"]
    with sqlite3.connect(a.data / "assistant.sqlite3") as db:  # time passes: the run's TTL is over
        db.execute("UPDATE runs SET expires = 0 WHERE id = ?", (late,))
    expired = b.agent({"run_id": late, "confirm_all": True})
    assert expired.status == 409 and expired.body["code"] == "run_expired" and not (a.vault / "Late.md").exists()
    assert b.agent({"run_id": "nope", "confirm_all": True}).body["code"] == "not_found"


def test_a_hang_up_after_the_card_leaves_the_run_waiting(assistant: Any) -> None:
    # the card is the run's question: a reload or a lost connection once it was sent (before `done`) stops
    # nothing, and the reopened conversation brings the card back (a CI flake of the panel's reload test)
    a = assistant()
    a.fake.add(
        o.stream_tool_calls([("c1", "create_file", {"vault": "notes", "path": "Kept.md", "content": "k"})]),
        o.stream_text(["made"]),
    )
    core = a.server.app.state.assistant
    real_anchor, hung_up = core._anchor, threading.Event()

    async def late_anchor(*args: Any) -> None:  # the step between the card and `done`, made slow enough to hang up
        await anyio.to_thread.run_sync(hung_up.wait, 10)
        await anyio.sleep(0.5)
        await real_anchor(*args)

    core._anchor = late_anchor
    with httpx2.Client(timeout=30) as client:
        with client.stream("POST", f"{a.url}/api/ai/bookslm/agent", json=ASK) as response:
            lines = response.iter_lines()
            while not next(lines).startswith("event: confirmation"):
                pass
    hung_up.set()
    deadline = time.monotonic() + 10
    while a.get("/api/ai/conversations").json()["conversations"] == [] and time.monotonic() < deadline:
        time.sleep(0.05)
    cid = a.get("/api/ai/conversations").json()["conversations"][0]["id"]
    time.sleep(1.0)  # the server has seen the hang-up and finished with the request
    core._anchor = real_anchor
    shown = a.get(f"/api/ai/conversations/{cid}").json()
    assert shown["waiting"] is not None, shown["messages"]
    assert not any("Stopped." in (m.get("content") or "") for m in shown["messages"])
    resumed = a.agent({"run_id": shown["waiting"]["run_id"], "confirm_all": True})
    assert resumed.one("done")["stopped"] == "completed" and (a.vault / "Kept.md").read_text() == "k"


def test_stop_cancels_the_provider_request_and_keeps_what_was_said(assistant: Any) -> None:
    a = assistant(env={"OBSIGATE_LANGUAGE": "fr"})
    a.fake.add(o.stream_text([f"mot{i} " for i in range(200)], delay_s=0.05))
    seen: list[str] = []
    with httpx2.Client(timeout=30) as client:
        with client.stream("POST", f"{a.url}/api/ai/bookslm/chat", json={"message": "long", "language": "fr"}) as r:
            for line in r.iter_lines():
                seen.append(line)
                if sum(1 for s in seen if s.startswith("event: delta")) >= 3:
                    break
        stopped_at = time.monotonic()
    while a.fake.disconnects == 0 and time.monotonic() - stopped_at < 3:
        time.sleep(0.02)
    assert a.fake.disconnects >= 1 and time.monotonic() - stopped_at < 1.5
    time.sleep(0.2)
    listing = a.get("/api/ai/conversations").json()["conversations"]
    messages = a.get(f"/api/ai/conversations/{listing[0]['id']}").json()["messages"]
    assert messages[-1]["role"] == "assistant" and messages[-1]["content"].startswith("mot0 mot1 ")
    assert messages[-1]["content"].endswith("Exécution arrêtée.")


def test_chat_streams_token_by_token(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_text(["Bon", "jour", " !"], delay_s=0.05))
    out = a.chat({"message": "hi", "mode": "files", "vault": "notes", "files": ["Ideas.md"]})
    assert [d["text"] for d in out.named("delta")] == ["Bon", "jour", " !"]
    done = out.one("done")
    assert done["stopped"] == "completed" and done["usage"]["total_tokens"] == 15
    sent = a.fake.requests[0].json
    assert "tools" not in sent and "tidepool sensor" in sent["messages"][0]["content"]  # the file is in context
    again = a.chat({"message": "more", "conversation_id": done["conversation_id"]})
    assert again.status == 200 or again.named("error")
    assert [m["role"] for m in a.fake.requests[1].json["messages"]] == ["system", "user", "assistant", "user"]


def test_tools_rejected_falls_back_to_plain_chat_with_a_notice(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.ollama_no_tools(), o.stream_text(["plain answer"]))
    out = a.agent(ASK)
    assert out.one("notice")["code"] == "tools_unsupported"
    assert out.one("message")["content"] == "plain answer" and out.one("done")["stopped"] == "completed"
    assert "tools" in a.fake.requests[0].json and "tools" not in a.fake.requests[1].json
    a.fake.add(o.stream_text(["again plain"]))  # remembered for this server and model: no tools sent again
    again = a.agent(ASK)
    assert again.one("notice")["code"] == "tools_unsupported" and "tools" not in a.fake.requests[2].json
    # for TOOL_LESS_TTL_S only: an hour later (the remembered time moved back) tools are tried again
    remembered = a.server.app.state.assistant._tool_less
    for key in remembered:
        remembered[key] -= TOOL_LESS_TTL_S
    a.fake.add(o.stream_text(["with tools"]))
    later = a.agent(ASK)
    assert not later.named("notice") and "tools" in a.fake.requests[3].json


def test_bad_calls_are_results_the_model_can_fix(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls(
            [
                ("c1", "no_such_tool", {}),
                ("c2", "read_file", '{"vault": "notes", "pa'),
                ("c3", "read_file", {"vault": "notes", "path": 5}),
            ]
        ),
        o.stream_tool_calls([("c4", "read_file", {"vault": "notes", "path": "Home.md"})]),
        o.stream_text(["fixed"]),
    )
    out = a.agent(ASK)
    assert [(t["id"], t["status"]) for t in out.tools() if t["status"] != "running"][:3] == [
        ("c1", "error"),
        ("c2", "error"),
        ("c3", "error"),
    ]
    assert out.one("done")["stopped"] == "completed"
    errors = [
        json.loads(m["content"])["error"]["code"] for m in a.fake.requests[1].json["messages"] if m["role"] == "tool"
    ]
    assert errors == ["unknown_tool", "invalid_argument", "invalid_argument"]


def test_limits_quota_and_iterations(assistant: Any) -> None:
    a = assistant(env={"BOOKSLM_MAX_TOOL_CALLS": "2", "OBSIGATE_AI_MAX_ITERATIONS": "2"})
    a.fake.add(
        o.stream_tool_calls([(f"q{i}", "list_vaults", {}) for i in range(3)]), o.stream_text(["with what I have"])
    )
    quota = a.agent(ASK)
    assert quota.one("done")["stopped"] == "quota_exceeded"
    assert [t["status"] for t in quota.tools() if t["status"] != "running"] == ["ok", "ok", "error"]
    assert quota.one("message")["content"] == "with what I have"  # a last turn, text only
    assert a.fake.requests[-1].json["tool_choice"] == "none"
    a.fake.add(o.stream_tool_calls([("i1", "list_vaults", {})]), o.stream_tool_calls([("i2", "list_vaults", {})]),
               o.stream_tool_calls([("i3", "list_vaults", {})], text="still calling"))  # fmt: skip
    limited = a.agent(ASK)
    assert limited.one("done")["stopped"] == "max_iterations" and limited.one("message")["content"] == "still calling"
    assert [t["id"] for t in limited.tools("ok")] == ["i1", "i2"]  # the forced last turn's call is not run
    cid = limited.one("done")["conversation_id"]
    roles = [m["role"] for m in a.get(f"/api/ai/conversations/{cid}").json()["messages"]]
    assert roles[-2:] == ["assistant", "tool"]  # answered "not run": the history stays valid


def test_destructive_tools_off_are_not_offered(assistant: Any, small_vault: Any) -> None:
    a = assistant(vaults={"notes": {"path": str(small_vault), "aiDestructiveTools": False}})
    a.fake.add(o.stream_text(["hi"]))
    a.agent(ASK)
    names = a.sent_tool_names()
    assert "create_file" in names and "read_file" in names
    assert not {"delete_file", "delete_directory", "rename_file", "move_path", "replace_in_files"} & set(names)


def test_bad_input_is_a_clear_error(assistant: Any) -> None:
    a = assistant()
    cases = [
        ({"message": "x", "provider": "nope"}, 400, "invalid_argument"),  # the caller's mistake: not a 5xx
        ({"message": "x", "provider": "deepseek"}, 503, "provider_not_configured"),  # no key
        ({"message": "x", "mode": "nope"}, 400, "invalid_argument"),
        ({"message": "x", "surprise": 1}, 400, "invalid_argument"),
        ({"message": ""}, 400, "invalid_argument"),
        ({"message": "x" * 1_000_000}, 413, "too_large"),
        ({"message": "x", "skill": "nope"}, 400, "invalid_argument"),
        ({"message": "x", "conversation_id": "nope"}, 404, "not_found"),
        ({"run_id": "nope", "confirm_all": "yes"}, 400, "invalid_argument"),
        ([1, 2], 400, "invalid_argument"),
    ]
    for body, status, code in cases:
        for path in ("/api/ai/bookslm/agent", "/api/ai/bookslm/chat"):
            if "run_id" in body and path.endswith("chat"):
                continue
            out = a.post(path, body)
            assert (out.status, out.body and out.body.get("code")) == (status, code), (path, body, out.raw[:300])
    big = httpx2.post(f"{a.url}/api/ai/bookslm/chat", content=b'{"message": "' + b"x" * (9 * 1024 * 1024) + b'"}',
                      headers={"content-type": "application/json"})  # fmt: skip
    assert big.status_code == 413 and big.json()["code"] == "too_large"

    def chunks() -> Any:  # no Content-Length: a chunked body, cut by the server once over the cap
        yield b'{"message": "'
        for _ in range(9):
            yield b"x" * (1024 * 1024)
        yield b'"}'

    chunked = httpx2.post(
        f"{a.url}/api/ai/bookslm/chat", content=chunks(), headers={"content-type": "application/json"}
    )
    assert chunked.status_code == 413 and chunked.json()["code"] == "too_large"
    assert a.fake.requests == []  # nothing reached the provider


def test_provider_failures_are_error_events(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.unauthorized())
    assert a.agent(ASK).one("error")["code"] == "provider_auth_failed"
    a.fake.add(o.error(200, "this is not json at all"))
    assert a.chat({"message": "x"}).one("error")["code"] == "provider_bad_response"
    a.fake.add(o.stream_text(["half"], finish=None, done=False, close_early=True))
    cut = a.chat({"message": "x"})
    assert cut.one("error")["code"] == "provider_bad_response" and not cut.named("done")
    a.fake.add(o.model_not_found())
    assert a.chat({"message": "x", "model": "ghost"}).one("error")["code"] == "model_not_found"
    a.fake.add(*[o.rate_limited(retry_after="0")] * 3)
    limited = a.chat({"message": "x"}).one("error")
    assert limited["code"] == "provider_rate_limited" and "retry_after" in limited


def test_conversations_are_private(assistant: Any, tmp_path: Any) -> None:
    data = tmp_path / "data"
    alice, bob = alice_and_bob(data)
    a = assistant(auth_enabled=True, data_dir=data)
    a.fake.add(o.stream_tool_calls([("c1", "create_file", {"vault": "notes", "path": "A.md", "content": "a"})]))
    assert a.agent(ASK).status == 401
    first = a.agent(ASK, headers=alice)
    run_id, cid = first.one("confirmation")["run_id"], first.one("done")["conversation_id"]
    assert a.agent({"run_id": run_id, "confirm_all": True}, headers=bob).body["code"] == "not_found"
    assert a.get(f"/api/ai/conversations/{cid}", headers=bob).status_code == 404
    assert a.get("/api/ai/conversations", headers=bob).json()["conversations"] == []
    assert len(a.get("/api/ai/conversations", headers=alice).json()["conversations"]) == 1
    assert httpx2.delete(f"{a.url}/api/ai/conversations/{cid}", headers=bob).status_code == 404
    assert httpx2.delete(f"{a.url}/api/ai/conversations/{cid}", headers=alice).status_code == 200
    assert a.get(f"/api/ai/conversations/{cid}", headers=alice).status_code == 404
    assert not (a.vault / "A.md").exists()


def test_stop_mid_agent_run_then_continue(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_tool_calls([("s1", "read_file", {"vault": "notes", "path": "Ideas.md"})]),
               o.stream_text([f"w{i} " for i in range(100)], delay_s=0.05))  # fmt: skip
    seen = 0
    with httpx2.Client(timeout=30) as client:
        with client.stream("POST", f"{a.url}/api/ai/bookslm/agent", json=ASK) as r:
            for line in r.iter_lines():
                seen += line.startswith("event: delta")
                if seen >= 3:
                    break
    deadline = time.monotonic() + 3
    while a.fake.disconnects == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert a.fake.disconnects >= 1
    time.sleep(0.2)
    cid = a.get("/api/ai/conversations").json()["conversations"][0]["id"]
    a.fake.add(o.stream_text(["next"]))
    again = a.agent({"message": "go on", "conversation_id": cid})
    assert again.one("done")["stopped"] == "completed"
    sent = a.fake.requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "assistant", "user"]
    assert sent[4]["content"].startswith("w0 w1 ") and sent[4]["content"].endswith("Stopped.")


def test_an_approval_never_lets_an_unseen_change_destroy(assistant: Any) -> None:
    a = assistant()
    a.fake.add(
        o.stream_tool_calls(
            [
                ("e1", "append_to_file", {"vault": "notes", "path": "Home.md", "content": "seen"}),
                ("d1", "delete_file", {"vault": "notes", "path": "Home.md"}),
            ]
        ),
        o.stream_tool_calls(
            [
                ("d2", "delete_file", {"vault": "notes", "path": "Ideas.md"}),
                ("w2", "create_file", {"vault": "notes", "path": "Later.md", "content": "ok"}),
            ]
        ),
        o.stream_text(["done"]),
    )
    first = a.agent(ASK)
    assert [x["id"] for x in first.one("confirmation")["actions"]] == ["e1"]  # the delete was deferred, not shown
    second = a.agent({"run_id": first.one("confirmation")["run_id"], "confirm_all": True})
    # the deferred delete asks for its own confirmation instead of riding on the approval
    assert [x["id"] for x in second.one("confirmation")["actions"]] == ["d1"]
    assert second.one("done")["stopped"] == "awaiting_confirmation"
    assert (a.vault / "Home.md").read_text().endswith("seen") and (a.vault / "Home.md").exists()
    third = a.agent({"run_id": second.one("confirmation")["run_id"], "confirm_all": False})
    assert (a.vault / "Home.md").exists()
    # next turn: the write goes ahead (armed), the delete pauses again
    assert [x["id"] for x in third.one("confirmation")["actions"]] == ["d2"]
    assert (a.vault / "Later.md").exists() and (a.vault / "Ideas.md").exists()


def test_provider_text_with_split_surrogates_and_repeated_ids(assistant: Any) -> None:
    a = assistant()
    events = o.text_chunks(["smile \ud83d", "\ude00 end \udc00"]) + o.finish_chunks("stop", "final")
    halves = o.sse([json.dumps(e) for e in events])  # JSON escapes (\\ud83d...), as providers send them
    a.fake.add(halves)
    out = a.chat({"message": "emoji"})
    assert "".join(d["text"] for d in out.named("delta")) == "smile \U0001f600 end \ufffd"
    assert out.one("done")["stopped"] == "completed"
    a.fake.add(
        o.stream_tool_calls(
            [
                ("dup", "create_file", {"vault": "notes", "path": "DupA.md", "content": "A"}),
                ("dup", "create_file", {"vault": "notes", "path": "DupB.md", "content": "B"}),
            ]
        ),
        o.stream_text(["ok"]),
    )
    first = a.agent(ASK)
    actions = first.one("confirmation")["actions"]
    assert [x["paths"] for x in actions] == [["DupA.md"], ["DupB.md"]] and len({x["id"] for x in actions}) == 2
    second = a.agent({"run_id": first.one("confirmation")["run_id"], "confirm_all": True})
    assert [t["status"] for t in second.tools()] == ["ok", "ok"]
    assert (a.vault / "DupA.md").read_text() == "A" and (a.vault / "DupB.md").read_text() == "B"
    ids = [m["tool_call_id"] for m in a.fake.requests[-1].json["messages"] if m["role"] == "tool"]
    calls = [
        c["id"]
        for m in a.fake.requests[-1].json["messages"]
        if m["role"] == "assistant"
        for c in m.get("tool_calls") or []
    ]
    assert ids == calls and len(set(ids)) == 2


def test_chat_drops_tool_calls_and_one_conversation_answers_one_request(assistant: Any) -> None:
    a = assistant()
    a.fake.add(o.stream_tool_calls([("c1", "read_file", {"vault": "notes", "path": "Home.md"})], text="hm"))
    first = a.chat({"message": "x"})
    cid = first.one("done")["conversation_id"]
    a.fake.add(o.stream_text(["fine"]))
    assert a.chat({"message": "y", "conversation_id": cid}).one("done")["stopped"] == "completed"
    sent = a.fake.requests[-1].json["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"] and "tool_calls" not in sent[2]
    a.fake.add(o.stream_text([f"s{i}" for i in range(40)], delay_s=0.05))
    results: list[Any] = []
    slow = threading.Thread(target=lambda: results.append(a.chat({"message": "slow", "conversation_id": cid})))
    slow.start()
    time.sleep(0.5)
    busy = a.chat({"message": "meanwhile", "conversation_id": cid})
    slow.join()
    assert busy.status == 409 and busy.body["code"] == "conflict"
    assert results[0].one("done")["stopped"] == "completed"


def test_tool_events_carry_the_tools_registered_risk(assistant: Any) -> None:
    """The web app decides "the vault changed" from each step's risk (it keeps no list of write tools)."""
    a = assistant()
    a.fake.add(
        o.stream_tool_calls(
            [
                ("r", "read_file", {"vault": "notes", "path": "Ideas.md"}),
                ("u", "no_such_tool", {}),
                ("w", "create_file", {"vault": "notes", "path": "Risk.md", "content": "x"}),
                ("d", "delete_file", {"vault": "notes", "path": "Home.md"}),
            ]
        ),
        o.stream_text(["ok"]),
        o.stream_text(["ok"]),
    )
    first = a.agent(ASK)
    risks = {(t["id"], t["status"]): t["risk"] for t in first.tools()}
    assert risks[("r", "running")] == risks[("r", "ok")] == "read"
    assert risks[("u", "error")] is None
    assert risks[("w", "pending_confirmation")] == "write"
    second = a.agent({"run_id": first.one("confirmation")["run_id"], "confirm_all": True})
    applied = [t for t in second.tools() if t["id"] == "w"]
    assert applied and all(t["risk"] == "write" for t in applied) and applied[-1]["status"] == "ok"
    assert all(t["risk"] == "dangerous" for t in first.tools() + second.tools() if t["id"] == "d")
    assert any(t["id"] == "d" for t in first.tools() + second.tools())
