"""GeminiProvider against the scripted fake over loopback (``llm.md`` §2, §4.3 items 7–12): what it sends,
how it replays signatures, how it reads streams, and every way a turn can fail."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import anyio
import pytest
from fakes import gemini_replies as g
from fakes.llm_server import FakeLLM, Reply

from obsigate.agent.providers.base import ChatRequest, ProviderConfig, ProviderError, ToolDef, ToolsRejected
from obsigate.agent.providers.gemini import SKIP_SIGNATURE, GeminiProvider
from obsigate.agent.providers.http import classify

pytestmark = pytest.mark.anyio

READ = ToolDef("read_file", "Read a note.", {
    "type": "object", "additionalProperties": False,
    "properties": {"path": {"type": "string"}, "tag": {"type": ["string", "null"], "const": "x"}},
    "required": ["path"]})  # fmt: skip
LIST = ToolDef("list_vaults", "List vaults.", {"type": "object", "additionalProperties": False, "properties": {}})


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def config(fake: FakeLLM, **kw: Any) -> ProviderConfig:
    base = {"name": "gemini", "dialect": "gemini", "base_url": f"{fake.base_url}/v1beta", "model": "gemini-fake",
            "api_key": "k-123", "timeout_s": 10.0, "turn_timeout_s": 30.0, "max_retries": 2, "retry_cap_s": 0.02}  # fmt: skip
    base.update(kw)
    return ProviderConfig(**base)


async def chat(fake: FakeLLM, request: ChatRequest, deltas: list[str] | None = None, **kw: Any):
    provider = GeminiProvider(config(fake, **kw))

    async def on_delta(text: str) -> None:
        if deltas is not None:
            deltas.append(text)

    try:
        return await provider.chat(request, on_delta)
    finally:
        await provider.aclose()


async def fails(fake: FakeLLM, request: ChatRequest, **kw: Any) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        await chat(fake, request, **kw)
    return info.value


def ask(text: str = "Hi", *, tools: list[ToolDef] | None = None, stream: bool = True) -> ChatRequest:
    return ChatRequest("You are the assistant.", [{"role": "user", "content": text}], tools, stream)


# --- request shape --------------------------------------------------------------------------------------


async def test_streamed_request_shape_and_text_answer(fake: FakeLLM) -> None:
    fake.add(g.stream_text(["Hel", "lo ", "there."], usage_metadata=g.usage(7, 3, thoughts=2)))
    deltas: list[str] = []
    turn = await chat(fake, ask(tools=[READ, LIST]), deltas)

    (req,) = fake.requests
    assert req.method == "POST"
    assert req.path == "/v1beta/models/gemini-fake:streamGenerateContent?alt=sse"
    assert req.headers["x-goog-api-key"] == "k-123"
    assert "authorization" not in req.headers
    body = req.json
    assert body["systemInstruction"] == {"parts": [{"text": "You are the assistant."}]}
    assert body["contents"] == [{"role": "user", "parts": [{"text": "Hi"}]}]
    assert body["toolConfig"] == {"functionCallingConfig": {"mode": "AUTO"}}
    read, listing = body["tools"][0]["functionDeclarations"]
    assert read["name"] == "read_file" and read["description"] == "Read a note."
    assert read["parametersJsonSchema"] == {
        "type": "object", "required": ["path"],
        "properties": {"path": {"type": "string"}, "tag": {"type": "string", "nullable": True, "enum": ["x"]}}}  # fmt: skip
    assert "parameters" not in read
    assert listing == {"name": "list_vaults", "description": "List vaults."}  # no-argument tool: no schema at all

    assert deltas == ["Hel", "lo ", "there."]
    assert turn.text == "Hello there." and turn.tool_calls == [] and turn.finish_reason == "STOP"
    assert turn.usage.as_dict() == {"prompt_tokens": 7, "completion_tokens": 5, "total_tokens": 12}
    assert turn.message["raw"] == {"role": "model", "parts": [{"text": "Hello there."}]}
    assert turn.message["provider"] == "gemini" and turn.message["model"] == "gemini-fake"
    assert turn.message["content"] == "Hello there." and turn.message["tool_calls"] == []


async def test_plain_chat_sends_no_tools_and_no_key_when_none(fake: FakeLLM) -> None:
    fake.add(g.stream_text(["ok"]))
    await chat(fake, ChatRequest("", [{"role": "user", "content": "x"}]), api_key=None)
    (req,) = fake.requests
    assert "x-goog-api-key" not in req.headers
    assert set(req.json) == {"contents"}


async def test_non_streamed_turn(fake: FakeLLM) -> None:
    fake.add(g.generate([g.text_part("Sure. "), g.call_part("read_file", {"path": "a.md"}, signature="c2ln")],
                        usage_metadata=g.usage(4, 6)))  # fmt: skip
    deltas: list[str] = []
    turn = await chat(fake, ask(tools=[READ], stream=False), deltas)
    assert fake.requests[0].path == "/v1beta/models/gemini-fake:generateContent"
    assert turn.text == "Sure. " and deltas == []
    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [("gemini-call-1", "read_file", {"path": "a.md"})]
    assert turn.usage.total_tokens == 10


async def test_thought_parts_are_never_answer_text_but_stay_in_raw(fake: FakeLLM) -> None:
    fake.add(g.stream_text(["Answer."], thought="thinking about it"))
    deltas: list[str] = []
    turn = await chat(fake, ask(), deltas)
    assert turn.text == "Answer." and deltas == ["Answer."]
    assert turn.message["raw"]["parts"][0] == {"text": "thinking about it", "thought": True}


async def test_stream_merges_plain_text_but_keeps_signed_and_empty_parts(fake: FakeLLM) -> None:
    fake.add(g.sse(
        g.chunk([g.text_part("a")]), g.chunk([g.text_part("b")]),
        g.chunk([g.text_part("c", signature="czE=")]), g.chunk([g.text_part("d")]),
        g.chunk([g.text_part("", signature="czI=")], finish="STOP", usage_metadata=g.usage())))  # fmt: skip
    turn = await chat(fake, ask())
    assert turn.text == "abcd"
    assert turn.message["raw"]["parts"] == [
        {"text": "ab"},
        {"text": "c", "thoughtSignature": "czE="},
        {"text": "d"},
        {"text": "", "thoughtSignature": "czI="},
    ]


# --- function calls, replay, signatures -----------------------------------------------------------------


async def test_parallel_calls_then_verbatim_replay_with_signatures_in_place(fake: FakeLLM) -> None:
    fake.add(
        g.stream_calls([("read_file", {"path": "a.md"}), ("read_file", {"path": "b.md"}), ("list_vaults", None)],
                       text="Let me look.", signature="c2ln"),
        g.stream_text(["Both say hi."], signature="ZW5k"),
        g.stream_text(["Bye."]),
    )  # fmt: skip
    first = await chat(fake, ask("read both", tools=[READ, LIST]))
    assert first.text == "Let me look." and first.finish_reason == "STOP"
    assert [(c.id, c.name, c.arguments, c.error) for c in first.tool_calls] == [
        ("gemini-call-1", "read_file", {"path": "a.md"}, None),
        ("gemini-call-2", "read_file", {"path": "b.md"}, None),
        ("gemini-call-3", "list_vaults", {}, None)]  # fmt: skip
    raw = first.message["raw"]
    assert raw["parts"][1] == {
        "functionCall": {"name": "read_file", "args": {"path": "a.md"}},
        "thoughtSignature": "c2ln",
    }
    assert "thoughtSignature" not in raw["parts"][2]
    saved = copy.deepcopy(raw)

    # results stored out of order: they go back in call order, one user content, objects only
    history = [
        {"role": "user", "content": "read both"},
        first.message,
        {"role": "tool", "tool_call_id": "gemini-call-2", "name": "read_file", "content": json.dumps({"text": "B"})},
        {"role": "tool", "tool_call_id": "gemini-call-1", "name": "read_file", "content": "plain words"},
        {"role": "tool", "tool_call_id": "gemini-call-3", "name": "list_vaults",
         "content": json.dumps({"error": {"code": "not_found", "message": "no"}})},
    ]  # fmt: skip
    second = await chat(fake, ChatRequest("sys", history, [READ, LIST]))
    contents = fake.requests[1].json["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user"]
    assert contents[1] == saved  # verbatim: same parts, same order, signature on the same part
    assert contents[2]["parts"] == [
        {"functionResponse": {"name": "read_file", "response": {"result": "plain words"}}},
        {"functionResponse": {"name": "read_file", "response": {"result": {"text": "B"}}}},
        {"functionResponse": {"name": "list_vaults", "response": {"error": {"code": "not_found", "message": "no"}}}},
    ]  # no "id": those were synthesised locally
    assert second.message["raw"]["parts"] == [{"text": "Both say hi."}, {"text": "", "thoughtSignature": "ZW5k"}]

    # the next user turn replays the empty signed part too
    await chat(fake, ChatRequest("sys", [*history, second.message, {"role": "user", "content": "thanks"}], [READ]))
    contents = fake.requests[2].json["contents"]
    assert contents[3] == {
        "role": "model",
        "parts": [{"text": "Both say hi."}, {"text": "", "thoughtSignature": "ZW5k"}],
    }
    assert contents[4] == {"role": "user", "parts": [{"text": "thanks"}]}


async def test_call_ids_given_by_the_model_are_echoed(fake: FakeLLM) -> None:
    fake.add(
        g.stream_calls([("read_file", {"path": "a"}, "fc-1"), ("read_file", {"path": "b"})]), g.stream_text(["ok"])
    )
    first = await chat(fake, ask(tools=[READ]))
    assert [c.id for c in first.tool_calls] == ["fc-1", "gemini-call-2"]
    history = [{"role": "user", "content": "Hi"}, first.message,
               {"role": "tool", "tool_call_id": "fc-1", "name": "read_file", "content": "1"},
               {"role": "tool", "tool_call_id": "gemini-call-2", "name": "read_file", "content": "2"}]  # fmt: skip
    await chat(fake, ChatRequest("", history, [READ]))
    parts = fake.requests[1].json["contents"][2]["parts"]
    assert parts == [{"functionResponse": {"name": "read_file", "response": {"result": 1}, "id": "fc-1"}},
                     {"functionResponse": {"name": "read_file", "response": {"result": 2}}}]  # fmt: skip


async def test_synthesised_ids_stay_unique_across_steps(fake: FakeLLM) -> None:
    fake.add(g.stream_calls([("read_file", {"path": "c"})]))
    history = [{"role": "user", "content": "Hi"},
               {"role": "assistant", "content": "", "provider": "gemini", "model": "gemini-fake",
                "tool_calls": [{"id": "gemini-call-1", "name": "read_file", "arguments": {"path": "a"}}],
                "raw": {"role": "model", "parts": [g.call_part("read_file", {"path": "a"}, signature="c2ln")]}},
               {"role": "tool", "tool_call_id": "gemini-call-1", "name": "read_file", "content": "1"}]  # fmt: skip
    turn = await chat(fake, ChatRequest("", history, [READ]))
    assert [c.id for c in turn.tool_calls] == ["gemini-call-2"]


def _signed_history(provider: str, model: str) -> list[dict[str, Any]]:
    """An older turn and a current-turn step, both with calls and signatures, from ``provider``/``model``."""

    def step(call_id: str, path: str) -> dict[str, Any]:
        return {"role": "assistant", "content": "Looking.", "provider": provider, "model": model,
                "tool_calls": [{"id": call_id, "name": "read_file", "arguments": {"path": path}},
                               {"id": call_id + "b", "name": "list_vaults", "arguments": {}}],
                "raw": {"role": "model", "parts": [g.text_part("Looking."),
                        g.call_part("read_file", {"path": path}, signature="b2xk", call_id=call_id),
                        g.call_part("list_vaults", {}, call_id=call_id + "b")]}}  # fmt: skip

    def results(call_id: str) -> list[dict[str, Any]]:
        return [{"role": "tool", "tool_call_id": call_id, "name": "read_file", "content": "x"},
                {"role": "tool", "tool_call_id": call_id + "b", "name": "list_vaults", "content": "[]"}]  # fmt: skip

    return [{"role": "user", "content": "first"}, step("old", "o.md"), *results("old"),
            {"role": "assistant", "content": "Done.", "tool_calls": [], "raw": {"role": "model", "parts": [
                g.text_part("Done."), g.text_part("", signature="ZA==")]}, "provider": provider, "model": model},
            {"role": "user", "content": "second"}, step("cur", "c.md"), *results("cur")]  # fmt: skip


@pytest.mark.parametrize(("provider", "model"), [("gemini", "gemini-older"), ("deepseek", "deepseek-chat")])
async def test_another_model_loses_signatures_and_current_steps_get_the_dummy(
    fake: FakeLLM, provider: str, model: str
) -> None:
    fake.add(g.stream_text(["ok"]))
    await chat(fake, ChatRequest("", _signed_history(provider, model), [READ, LIST]))
    contents = fake.requests[0].json["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user", "model", "user", "model", "user"]
    old, done, cur = contents[1], contents[3], contents[5]
    assert old == {"role": "model", "parts": [  # before the last user message: rebuilt, no signature at all
        {"text": "Looking."}, {"functionCall": {"name": "read_file", "args": {"path": "o.md"}}},
        {"functionCall": {"name": "list_vaults", "args": {}}}]}  # fmt: skip
    assert done == {"role": "model", "parts": [{"text": "Done."}]}
    assert cur["parts"][1] == {"functionCall": {"name": "read_file", "args": {"path": "c.md"}},
                               "thoughtSignature": SKIP_SIGNATURE}  # fmt: skip
    assert "thoughtSignature" not in cur["parts"][2]
    assert "b2xk" not in json.dumps(contents)
    # ids of another model are not echoed either
    assert all("id" not in p["functionResponse"] for p in contents[6]["parts"])


async def test_same_model_replays_every_step_verbatim(fake: FakeLLM) -> None:
    fake.add(g.stream_text(["ok"]))
    history = _signed_history("gemini", "gemini-fake")
    await chat(fake, ChatRequest("", history, [READ, LIST]))
    contents = fake.requests[0].json["contents"]
    assert contents[1] == history[1]["raw"] and contents[5] == history[6]["raw"]
    assert contents[3] == history[4]["raw"]
    assert [p["functionResponse"].get("id") for p in contents[6]["parts"]] == ["cur", "curb"]


async def test_bad_call_arguments_become_call_errors(fake: FakeLLM) -> None:
    fake.add(g.sse(g.chunk([g.call_part("read_file", ["not", "an", "object"]), g.call_part("", {"a": 1})],
                           finish="STOP", usage_metadata=g.usage())))  # fmt: skip
    turn = await chat(fake, ask(tools=[READ]))
    bad_args, no_name = turn.tool_calls
    assert bad_args.arguments is None and "not a JSON object" in (bad_args.error or "")
    assert no_name.arguments is None and no_name.error
    assert turn.message["tool_calls"][0]["arguments"] == {}


# --- finish reasons and stream failures -----------------------------------------------------------------


@pytest.mark.parametrize("reason", ["MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL"])
async def test_call_failures_are_bad_responses(fake: FakeLLM, reason: str) -> None:
    fake.add(g.stream_finish(reason, message="Malformed function call: read_file(path=)"))
    err = await fails(fake, ask(tools=[READ]))
    assert err.code == "provider_bad_response"
    assert reason in err.message and "Malformed function call" in err.message


@pytest.mark.parametrize("reason", ["SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII"])
async def test_blocked_answers(fake: FakeLLM, reason: str) -> None:
    fake.add(g.stream_finish(reason, text="Part of an answer"))
    err = await fails(fake, ask())
    assert err.code == "provider_bad_response" and "blocked the answer" in err.message and reason in err.message


@pytest.mark.parametrize("stream", [True, False])
async def test_blocked_prompt(fake: FakeLLM, stream: bool) -> None:
    fake.add(g.stream_blocked("PROHIBITED_CONTENT") if stream else g.generate_blocked("PROHIBITED_CONTENT"))
    err = await fails(fake, ask(stream=stream))
    assert err.code == "provider_bad_response" and "blocked the prompt" in err.message


async def test_max_tokens_is_a_normal_end(fake: FakeLLM) -> None:
    fake.add(g.stream_text(["cut sh"], finish="MAX_TOKENS"))
    turn = await chat(fake, ask())
    assert turn.finish_reason == "MAX_TOKENS" and turn.text == "cut sh"


async def test_dropped_stream_is_an_error_and_returns_no_calls(fake: FakeLLM) -> None:
    fake.add(g.stream_dropped(["Let me"], calls=[("read_file", {"path": "a"})]))
    err = await fails(fake, ask(tools=[READ]))
    assert err.code == "provider_bad_response"
    assert len(fake.requests) == 1  # never retried once the body started


async def test_stream_ending_without_finish_reason_is_an_error(fake: FakeLLM) -> None:
    fake.add(g.stream_ended(["half an ", "answer"]))
    err = await fails(fake, ask())
    assert err.code == "provider_bad_response" and "finish reason" in err.message


async def test_raw_error_json_in_the_stream_is_mapped(fake: FakeLLM) -> None:
    fake.add(g.stream_raw_error(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted", pieces=["Hi"]))
    deltas: list[str] = []
    with pytest.raises(ProviderError) as info:
        await chat(fake, ask(), deltas)
    assert info.value.code == "provider_rate_limited" and "exhausted" in info.value.message
    assert deltas == ["Hi"] and len(fake.requests) == 1


async def test_data_error_event_in_the_stream_is_mapped(fake: FakeLLM) -> None:
    fake.add(g.stream_data_error(500, "INTERNAL", "An internal error has occurred.", pieces=["a"]))
    err = await fails(fake, ask())
    assert err.code == "provider_unavailable" and "internal error" in err.message


async def test_unreadable_event_is_a_bad_response(fake: FakeLLM) -> None:
    fake.add(g.sse(b'data: {"candidates": [\r\n\r\n'))
    err = await fails(fake, ask())
    assert err.code == "provider_bad_response"


# --- HTTP errors and retries ----------------------------------------------------------------------------


@pytest.mark.parametrize(("reply", "code", "tries"), [
    (g.error_invalid_key, "provider_auth_failed", 1),
    (g.error_permission_denied, "provider_auth_failed", 1),
    (g.error_not_found, "model_not_found", 1),
    (g.error_schema, "provider_bad_response", 1),
    (g.error_missing_signature, "provider_bad_response", 1),
    (g.error_rate_limited, "provider_rate_limited", 3),
    (g.error_internal, "provider_unavailable", 3),
    (g.error_unavailable, "provider_unavailable", 3),
    (g.error_deadline, "provider_unavailable", 3),
])  # fmt: skip
async def test_http_errors(fake: FakeLLM, reply: Any, code: str, tries: int) -> None:
    fake.add(*[reply() for _ in range(tries)])
    err = await fails(fake, ask(tools=[READ]))  # tools sent: a schema 400 is still not ToolsRejected
    assert err.code == code
    assert len(fake.requests) == tries
    assert "k-123" not in err.message


async def test_a_model_without_function_calling_rejects_tools(fake: FakeLLM) -> None:
    fake.add(g.error(400, "INVALID_ARGUMENT", "Function calling is not enabled for models/gemini-image"))
    with pytest.raises(ToolsRejected):
        await chat(fake, ask(tools=[READ]))
    assert len(fake.requests) == 1


async def test_v1_base_url_and_models_prefix(fake: FakeLLM) -> None:
    fake.add(g.generate(text="ok"))
    await chat(fake, ask(stream=False), base_url=f"{fake.base_url}/v1/", model="models/gemini-2.5-flash")
    assert fake.requests[0].path == "/v1/models/gemini-2.5-flash:generateContent"


async def test_failed_precondition_is_unavailable(fake: FakeLLM) -> None:
    fake.add(g.error(400, "FAILED_PRECONDITION", "User location is not supported for the API use."))
    assert (await fails(fake, ask())).code == "provider_unavailable"


async def test_retries_honour_retry_after_then_succeed(fake: FakeLLM) -> None:
    fake.add(g.error_rate_limited(retry_after="0.3"), g.error_unavailable(retry_after="0.2"), g.stream_text(["fine"]))
    started = time.monotonic()
    turn = await chat(fake, ask(), retry_cap_s=5.0)
    assert turn.text == "fine" and len(fake.requests) == 3
    assert time.monotonic() - started >= 0.45


async def test_rate_limit_reports_retry_after(fake: FakeLLM) -> None:
    fake.add(g.error_rate_limited(retry_after="7"))
    err = await fails(fake, ask(), max_retries=0)
    assert err.code == "provider_rate_limited" and err.details["retry_after"] == 7


# --- timeouts and cancellation --------------------------------------------------------------------------


async def test_stalled_stream_hits_the_idle_timeout(fake: FakeLLM) -> None:
    stalled = g.stream_text(["never"])
    stalled.delay_s = 3.0  # headers go out at once; the first body byte would take 3 s
    fake.add(stalled)
    started = time.monotonic()
    err = await fails(fake, ask(), timeout_s=0.4)
    assert err.code == "provider_unavailable" and "sent nothing" in err.message
    assert time.monotonic() - started < 2.5


async def test_turn_timeout_bounds_a_slow_trickle(fake: FakeLLM) -> None:
    fake.add(g.stream_text([f"w{i} " for i in range(40)], delay_s=0.05))
    err = await fails(fake, ask(), turn_timeout_s=0.5)
    assert err.code == "provider_unavailable" and "within" in err.message


async def test_cancellation_hangs_up_upstream(fake: FakeLLM) -> None:
    fake.add(g.stream_text([f"w{i} " for i in range(200)], delay_s=0.03))
    provider = GeminiProvider(config(fake))
    got: list[str] = []
    try:
        with anyio.CancelScope() as scope:

            async def on_delta(text: str) -> None:
                got.append(text)
                if len(got) == 2:
                    scope.cancel()

            await provider.chat(ask(), on_delta)
        assert scope.cancelled_caught
        deadline = time.monotonic() + 1.0
        while fake.disconnects == 0 and time.monotonic() < deadline:
            await anyio.sleep(0.02)
        assert fake.disconnects == 1
        assert len(got) == 2
    finally:
        await provider.aclose()


# --- classify keeps the OpenAI dialect's behaviour ------------------------------------------------------


def test_classify_google_reasons_only_touch_google_bodies() -> None:
    openai_400 = json.dumps({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}})
    assert classify(400, openai_400, tools_sent=False, provider="openai", model="m").code == "provider_bad_response"
    google_400 = json.dumps({"error": {"code": 400, "message": "API key not valid.", "status": "INVALID_ARGUMENT",
                             "details": [{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}]}})  # fmt: skip
    assert classify(400, google_400, tools_sent=False, provider="gemini", model="m").code == "provider_auth_failed"
    assert (
        classify(400, f"[{google_400}]", tools_sent=False, provider="gemini", model="m").code == "provider_auth_failed"
    )
    context = json.dumps({"error": {"code": 400, "status": "INVALID_ARGUMENT",
                         "message": "The input token count (2000000) exceeds the maximum number of tokens allowed (1048576)."}})  # fmt: skip
    assert classify(400, context, tools_sent=True, provider="gemini", model="m").code == "context_length_exceeded"


def test_provider_refuses_another_dialect() -> None:
    with pytest.raises(ValueError):
        GeminiProvider(ProviderConfig(name="openai", dialect="openai", base_url="http://x/v1", model="m"))


def test_reply_helpers_are_valid_sse() -> None:
    reply: Reply = g.stream_calls([("a", {"x": 1})], text="t")
    assert all(c.startswith(b"data: ") and c.endswith(b"\r\n\r\n") for c in reply.chunks)


def test_a_question_left_unanswered_is_merged_with_the_next_one() -> None:
    from obsigate.agent.providers.base import ChatRequest, ProviderConfig
    from obsigate.agent.providers.gemini import request_body

    config = ProviderConfig("gemini", "gemini", "http://127.0.0.1:9/v1beta", "gemini-fake", "k")
    body = request_body(
        config, ChatRequest("sys", [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}])
    )
    assert body["contents"] == [{"role": "user", "parts": [{"text": "a"}, {"text": "b"}]}]
