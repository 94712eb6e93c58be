"""The assistant against a local engine's ways, end to end (issue 16): a real ObsiGate on loopback and the
scripted fake provider speaking llama-cpp-python 0.3.36's wire format (its empty event stream, its 400 bodies,
its whole-answer-at-the-end non-streamed replies) over a real socket. The fake listens on 127.0.0.1, so the
``custom`` provider pointed at it is a local engine (``is_local_engine``)."""

from __future__ import annotations

import json
from typing import Any

from fakes import openai_replies as o

from obsigate.agent.providers.schemas import MODEL_DROPPED

ASK = {"message": "Read my ideas", "vault": "notes"}


def _slow(reply: Any, seconds: float) -> Any:
    """``reply`` sent after ``seconds`` of silence (a non-streamed answer: nothing before the whole generation)."""
    reply.before_s = seconds
    return reply


def test_a_call_past_a_bound_the_model_never_saw_is_refused_by_the_tool_layer(assistant: Any) -> None:
    """The tools go out without ``maxLength`` & co., yet a path over the real 1024-character bound is refused
    by the tool's own model (``invalid_argument``, told to the model as the call's result) and nothing runs."""
    a = assistant()
    long_path = "x" * 1100 + ".md"
    a.fake.add(
        o.stream_tool_calls([("call_r", "read_file", {"vault": "notes", "path": long_path})]),
        o.stream_text(["That path is too long."]),
    )
    out = a.agent(ASK)
    assert out.status == 200, out.raw
    assert [t["status"] for t in out.tools()] == ["running", "error"]
    assert out.one("done")["stopped"] == "completed"
    offered = json.dumps(a.fake.requests[0].json["tools"])
    assert a.sent_tool_names() and not any(f'"{k}"' in offered for k in MODEL_DROPPED)
    result = json.loads(a.fake.requests[1].json["messages"][-1]["content"])
    assert result["error"]["code"] == "invalid_argument" and "1024" in json.dumps(result)


def test_a_prompt_over_the_engines_context_is_context_length_exceeded(assistant: Any) -> None:
    """llama-cpp-python answers a streamed prompt over its n_ctx with an empty event stream; asked again
    non-streamed, it says why (400): the chat and the agent end with ``context_length_exceeded``, not a
    generic failure, and the turn was sent twice at most."""
    a = assistant()
    a.fake.add(o.llamacpp_streaming_tools_empty(), o.llamacpp_context_exceeded(n_ctx=512, prompt=9000))
    chat = a.chat({"message": "word " * 9000, "mode": "general"})
    assert chat.status == 200, chat.raw
    error = chat.one("error")
    assert error["code"] == "context_length_exceeded" and "512" in error["message"], error
    assert [e for e, _ in chat.items][-1] == "error" and not chat.named("delta")
    a.fake.add(o.llamacpp_streaming_tools_empty(), o.llamacpp_context_exceeded(n_ctx=512, prompt=4483))
    run = a.agent(ASK)
    assert run.one("error")["code"] == "context_length_exceeded", run.items
    assert [r.json.get("stream") for r in a.fake.requests] == [True, None, True, None]
    assert "tools" in a.fake.requests[3].json  # the agent's turn, asked again with its tools


def test_a_local_engines_slow_non_streamed_turn_is_waited_for_not_sent_again(assistant: Any) -> None:
    """With ``ai_timeout`` 0.5 s, the non-streamed turn (after the refused streamed one) takes 1.5 s to
    generate: it gets ``ai_local_timeout`` and is answered, once; the run completes."""
    a = assistant(ai_timeout=0.5, ai_local_timeout=30)
    a.fake.add(
        o.llamacpp_streaming_tools_empty(),
        _slow(o.plain_tool_calls([("call_v", "list_vaults", {})]), 1.5),
        _slow(o.plain("You have one vault: notes."), 1.5),
    )
    out = a.agent(ASK, timeout=60)
    assert out.status == 200, out.raw
    assert not out.named("error"), out.items
    assert [(t["name"], t["status"]) for t in out.tools()] == [("list_vaults", "running"), ("list_vaults", "ok")]
    assert out.one("message")["content"] == "You have one vault: notes."
    assert [r.json.get("stream") for r in a.fake.requests] == [True, None, None]  # each turn generated once


def test_a_local_turn_past_its_timeout_fails_once_and_names_the_setting(assistant: Any) -> None:
    a = assistant(ai_timeout=0.5, ai_local_timeout=1)
    a.fake.add(o.llamacpp_streaming_tools_empty(), _slow(o.plain("too late"), 3), o.plain("never asked"))
    out = a.agent(ASK, timeout=60)
    error = out.one("error")
    assert error["code"] == "provider_unavailable" and "within 1 s" in error["message"], error
    assert "OBSIGATE_AI_LOCAL_TIMEOUT" in error.get("hint", ""), error
    assert len(a.fake.requests) == 2  # the streamed try, then one non-streamed request: never re-sent
