"""The OpenAI-compatible provider against the scripted fake over loopback (``llm.md`` §1, §4.3 items 1–6, 8–12).

Every test runs the real client (httpx2, SSE reader, timeouts) against a real socket, and asserts on what the
fake recorded as sent as well as on the turn returned.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import anyio
import httpx2
import pytest
from fakes import openai_replies as oa
from fakes.llm_server import FakeLLM, Reply
from support import free_port

from obsigate.agent.providers.base import ChatRequest, ProviderConfig, ProviderError, ToolDef, ToolsRejected, Turn
from obsigate.agent.providers.http import retry_delay
from obsigate.agent.providers.openai_compat import OpenAICompatProvider

pytestmark = pytest.mark.anyio

KEY = "sk-test-0123456789"
TOOLS = [
    ToolDef(
        "read_file",
        "Read a note",
        {
            "type": "object",
            "properties": {"vault": {"type": "string"}, "path": {"type": "string"}},
            "required": ["vault", "path"],
        },
    ),
    ToolDef("search", "Search notes", {"type": "object", "properties": {"q": {"type": "string"}}}),
]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def config(fake: FakeLLM | None, **overrides: Any) -> ProviderConfig:
    values: dict[str, Any] = dict(
        name="deepseek", dialect="openai", model="fake-model", api_key=KEY,
        base_url=f"{fake.base_url}/v1" if fake else "http://127.0.0.1:9/v1",
        timeout_s=5.0, turn_timeout_s=15.0, max_retries=2, retry_cap_s=0.02,
    )  # fmt: skip
    values.update(overrides)
    return ProviderConfig(**values)


def ask(text: str = "Hi", *, tools: bool = False, stream: bool = True, history: list | None = None) -> ChatRequest:
    messages = [*(history or []), {"role": "user", "content": text}] if text else list(history or [])
    return ChatRequest(system="You are the assistant.", messages=messages, tools=TOOLS if tools else None,
                       stream=stream)  # fmt: skip


async def chat(fake: FakeLLM | None, request: ChatRequest, **overrides: Any) -> tuple[Turn, list[str]]:
    """One turn with a fresh provider; returns it and the pieces ``on_delta`` got."""
    pieces: list[str] = []

    async def on_delta(piece: str) -> None:
        pieces.append(piece)

    provider = OpenAICompatProvider(config(fake, **overrides))
    try:
        return await provider.chat(request, on_delta), pieces
    finally:
        await provider.aclose()


async def fails(fake: FakeLLM | None, request: ChatRequest, **overrides: Any) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        await chat(fake, request, **overrides)
    assert KEY not in info.value.message
    return info.value


def sent(fake: FakeLLM, n: int = -1) -> dict[str, Any]:
    return fake.requests[n].json


# --- 1. streamed text ---------------------------------------------------------------------------------------


async def test_streamed_text_reaches_on_delta_piece_by_piece(fake: FakeLLM) -> None:
    fake.add(oa.stream_text(["Hel", None, "", "lo"]))
    turn, pieces = await chat(fake, ask())
    assert pieces == ["Hel", "lo"]
    assert turn.text == "Hello" and turn.tool_calls == [] and turn.finish_reason == "stop"
    assert turn.usage.as_dict() == oa.USAGE
    assert turn.message == {"role": "assistant", "content": "Hello", "tool_calls": [],
                            "raw": {"role": "assistant", "content": "Hello"},
                            "provider": "deepseek", "model": "fake-model"}  # fmt: skip


async def test_the_request_sent(fake: FakeLLM) -> None:
    fake.add(oa.stream_text(["ok"]))
    await chat(fake, ask("What is in a.md?", tools=True))
    rec = fake.requests[0]
    assert (rec.method, rec.path) == ("POST", "/v1/chat/completions")
    assert rec.headers["authorization"] == f"Bearer {KEY}"  # recorded names are lower-case
    assert rec.json == {
        "model": "fake-model",
        "messages": [{"role": "system", "content": "You are the assistant."},
                     {"role": "user", "content": "What is in a.md?"}],
        "tools": [{"type": "function", "function": {"name": t.name, "description": t.description,
                                                    "parameters": t.parameters}} for t in TOOLS],
        "tool_choice": "auto",
        "stream": True,
        "stream_options": {"include_usage": True},
    }  # fmt: skip


async def test_no_key_sends_no_authorization_and_no_tools_sends_no_tool_fields(fake: FakeLLM) -> None:
    fake.add(oa.stream_text(["ok"]))
    await chat(fake, ask(), api_key=None, name="ollama")
    rec = fake.requests[0]
    assert "authorization" not in rec.headers
    assert "tools" not in rec.json and "tool_choice" not in rec.json and "parallel_tool_calls" not in rec.json


# --- 2./3. tool calls ---------------------------------------------------------------------------------------

TRICKY = {"vault": "v", "path": 'notes/"quoted" é ☃ \\ 𝄞.md'}


def escape_splits(args: dict[str, Any]) -> list[int]:
    """Cut points right after every backslash (inside \\" and \\\\ escapes) and after every non-ASCII char."""
    text = json.dumps(args, ensure_ascii=False)
    return [i + 1 for i, ch in enumerate(text) if ch == "\\" or ord(ch) > 127]


@pytest.mark.parametrize("write_size", [None, 3])
async def test_arguments_split_inside_escapes_and_multibyte_text(fake: FakeLLM, write_size: int | None) -> None:
    """write_size=3 also cuts the SSE bytes mid-line and inside UTF-8 sequences (separate TCP writes)."""
    fake.add(oa.stream_tool_calls([("call_a", "read_file", TRICKY)], text="Let me check.", split=escape_splits(TRICKY),
                                  write_size=write_size))  # fmt: skip
    turn, pieces = await chat(fake, ask(tools=True))
    assert pieces == ["Let me check."]
    assert [(c.id, c.name, c.arguments, c.error) for c in turn.tool_calls] == [("call_a", "read_file", TRICKY, None)]
    assert turn.finish_reason == "tool_calls"
    assert turn.message["raw"] == {
        "role": "assistant", "content": "Let me check.",
        "tool_calls": [{"id": "call_a", "type": "function",
                        "function": {"name": "read_file", "arguments": json.dumps(TRICKY, ensure_ascii=False)}}],
    }  # fmt: skip
    assert turn.message["tool_calls"] == [{"id": "call_a", "name": "read_file", "arguments": TRICKY}]


@pytest.mark.parametrize("variant", ["indexed", "ollama", "no_index"])
@pytest.mark.parametrize("split", [None, 1, 5])
async def test_parallel_calls_in_every_index_variant(fake: FakeLLM, variant: str, split: int | None) -> None:
    calls = [("call_a", "read_file", {"vault": "v", "path": "a.md"}), ("call_b", "search", {"q": "x"})]
    fake.add(oa.stream_tool_calls(calls, split=split, variant=variant))
    turn, pieces = await chat(fake, ask(tools=True))
    assert pieces == []
    assert [(c.id, c.name, c.arguments, c.error) for c in turn.tool_calls] == [(*c, None) for c in calls]
    assert turn.message["raw"]["content"] is None  # as OpenAI's non-streamed message has it
    assert [c["id"] for c in turn.message["raw"]["tool_calls"]] == ["call_a", "call_b"]


async def test_tool_calls_decide_not_finish_reason(fake: FakeLLM) -> None:
    """OpenAI (forced choice), Ollama and others end tool-call turns with "stop" (§1.4)."""
    fake.add(oa.stream_tool_calls([("call_a", "search", {"q": "x"})], finish="stop"))
    turn, _ = await chat(fake, ask(tools=True))
    assert [c.name for c in turn.tool_calls] == ["search"] and turn.finish_reason == "stop"


# --- 4. reasoning and extra fields --------------------------------------------------------------------------


async def test_reasoning_is_kept_on_raw_and_never_streamed_as_text(fake: FakeLLM) -> None:
    calls = [("call_a", "search", {"q": "x"})]
    fake.add(oa.stream_tool_calls(calls, text="Looking.", reasoning=["I should ", "search."]))
    turn, pieces = await chat(fake, ask(tools=True))
    assert pieces == ["Looking."] and turn.text == "Looking."
    assert turn.message["raw"]["reasoning_content"] == "I should search."


async def test_openrouter_reasoning_details_and_gemini_signatures_are_kept(fake: FakeLLM) -> None:
    details = [{"type": "reasoning.text", "text": "I will ", "format": "unknown", "index": 0},
               {"type": "reasoning.text", "text": "search.", "index": 0},
               {"type": "reasoning.encrypted", "data": "enc1", "id": None, "index": 1}]  # fmt: skip
    signature = {"extra_content": {"google": {"thought_signature": "c2ln"}}}
    events = oa.text_chunks([], reasoning=["think"], reasoning_key="reasoning")
    events += [oa.chunk({"reasoning_details": [d]}) for d in details]
    events += oa.tool_call_chunks([("call_a", "search", {"q": "x"}, signature), ("call_b", "search", {"q": "y"})])
    events += oa.finish_chunks("tool_calls", "final")
    fake.add(oa.sse(events))
    turn, _ = await chat(fake, ask(tools=True), name="openrouter")
    raw = turn.message["raw"]
    assert raw["reasoning"] == "think"
    assert raw["reasoning_details"] == [  # pieces of one item (same type and index) merged, as non-streamed
        {"type": "reasoning.text", "text": "I will search.", "format": "unknown", "index": 0},
        details[2],
    ]
    assert raw["tool_calls"][0]["extra_content"] == signature["extra_content"]
    assert "extra_content" not in raw["tool_calls"][1]


async def test_raw_is_replayed_verbatim_to_the_same_provider_and_model(fake: FakeLLM) -> None:
    fake.add(oa.stream_tool_calls([("call_a", "search", {"q": "x"})], reasoning=["hmm"]), oa.stream_text(["Done."]))
    first, _ = await chat(fake, ask("find x", tools=True))
    history = [{"role": "user", "content": "find x"}, first.message,
               {"role": "tool", "tool_call_id": "call_a", "name": "search", "content": '{"hits": []}'}]  # fmt: skip
    second, _ = await chat(fake, ask("", tools=True, history=history))
    assert second.text == "Done."
    messages = sent(fake)["messages"]
    assert messages[2] == first.message["raw"]
    assert messages[2]["reasoning_content"] == "hmm"
    assert messages[3] == {"role": "tool", "tool_call_id": "call_a", "content": '{"hits": []}'}
    assert messages[3]["tool_call_id"] == messages[2]["tool_calls"][0]["id"]


async def test_another_providers_message_is_rebuilt_without_reasoning(fake: FakeLLM) -> None:
    fake.add(oa.stream_text(["ok"]))
    foreign = {"role": "assistant", "content": "", "provider": "gemini", "model": "gemini-3",
               "tool_calls": [{"id": "g1", "name": "search", "arguments": {"q": "é"}}],
               "raw": {"role": "model", "parts": [{"functionCall": {}, "thoughtSignature": "sig"}]}}  # fmt: skip
    history = [{"role": "user", "content": "q"}, foreign,
               {"role": "tool", "tool_call_id": "g1", "name": "search", "content": "[]"}]  # fmt: skip
    await chat(fake, ask("", tools=True, history=history))
    assert sent(fake)["messages"][2] == {
        "role": "assistant", "content": None,
        "tool_calls": [{"id": "g1", "type": "function", "function": {"name": "search", "arguments": '{"q": "é"}'}}],
    }  # fmt: skip
    # same provider name, another model: rebuilt too (reasoning is bound to the model that wrote it)
    fake.add(oa.stream_text(["ok"]))
    own = {**foreign, "provider": "deepseek", "model": "other", "content": "text", "tool_calls": [],
           "raw": {"role": "assistant", "content": "text", "reasoning_content": "secret"}}  # fmt: skip
    await chat(fake, ask("next", history=[{"role": "user", "content": "q"}, own]))
    assert sent(fake)["messages"][2] == {"role": "assistant", "content": "text"}


# --- 5. usage -----------------------------------------------------------------------------------------------


NO_USAGE = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}


@pytest.mark.parametrize(
    ("usage", "expected"), [("final", oa.USAGE), ("null", oa.USAGE), ("on_finish", oa.USAGE), (None, NO_USAGE)]
)
async def test_usage_variants(fake: FakeLLM, usage: Any, expected: dict[str, int]) -> None:
    fake.add(oa.stream_text(["a"], usage=usage))
    turn, _ = await chat(fake, ask())
    assert turn.usage.as_dict() == expected and turn.text == "a"


# --- 6. SSE framing -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("crlf", [False, True])
async def test_comments_blank_lines_crlf_and_byte_by_byte_writes(fake: FakeLLM, crlf: bool) -> None:
    fake.add(oa.stream_text(["Grüße ", "☃"], prelude=[": OPENROUTER PROCESSING", "", ": keep-alive", ""],
                            crlf=crlf, write_size=1))  # fmt: skip
    turn, pieces = await chat(fake, ask())
    assert pieces == ["Grüße ", "☃"] and turn.text == "Grüße ☃"


async def test_non_streamed_answer_with_deepseek_blank_lines(fake: FakeLLM) -> None:
    fake.add(oa.completion({"role": "assistant", "content": "Hi!", "reasoning_content": "r"}, blank_lines=3))
    turn, pieces = await chat(fake, ask(stream=False))
    assert "stream" not in sent(fake) and "stream_options" not in sent(fake)
    assert pieces == ["Hi!"] and turn.text == "Hi!" and turn.usage.as_dict() == oa.USAGE
    assert turn.message["raw"] == {"role": "assistant", "content": "Hi!", "reasoning_content": "r"}


async def test_non_streamed_tool_calls(fake: FakeLLM) -> None:
    sig = {"extra_content": {"google": {"thought_signature": "c2ln"}}}
    calls = [("call_a", "read_file", {"vault": "v", "path": "a.md"}, sig), (None, "search", {"q": 1})]
    fake.add(oa.plain_tool_calls(calls))
    turn, pieces = await chat(fake, ask(tools=True, stream=False))
    assert pieces == []
    a, b = turn.tool_calls
    assert (a.id, a.name, a.arguments) == ("call_a", "read_file", {"vault": "v", "path": "a.md"})
    assert b.id and b.name == "search" and b.arguments == {"q": 1}
    raw = turn.message["raw"]
    assert raw["content"] is None and raw["tool_calls"][0]["extra_content"] == sig["extra_content"]
    assert raw["tool_calls"][1]["id"] == b.id  # the synthesised id is on raw too: the tool result can pair


async def test_a_server_that_ignores_stream_true(fake: FakeLLM) -> None:
    fake.add(oa.plain("whole"))
    turn, pieces = await chat(fake, ask())
    assert pieces == ["whole"] and turn.text == "whole"


async def test_a_finished_stream_without_done_is_complete(fake: FakeLLM) -> None:
    fake.add(oa.stream_text(["a"], done=False))
    turn, _ = await chat(fake, ask())
    assert turn.text == "a" and turn.finish_reason == "stop"


# --- 8. HTTP errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("reply", "code"), [
    (oa.unauthorized(), "provider_auth_failed"),
    (oa.openai_error(403, "Forbidden by moderation"), "provider_auth_failed"),
    (oa.payment_required(), "provider_unavailable"),
    (oa.model_not_found(), "model_not_found"),
    (oa.context_length(), "context_length_exceeded"),
    (oa.llamacpp_context_exceeded(), "context_length_exceeded"),
    (oa.llama_server_context_exceeded(), "context_length_exceeded"),
    (oa.openai_error(400, "prompt too big", code="context_length_exceeded"), "context_length_exceeded"),
    (oa.error(200, {"error": {"code": 400, "message": "request (9000 tokens) exceeds the available context size (8192 "
                              "tokens)", "type": "exceed_context_size_error"}}), "context_length_exceeded"),
    (oa.openai_error(400, "Invalid 'messages[1].content'"), "provider_bad_response"),
    (oa.error(422, {"detail": [{"loc": ["body", "messages"], "msg": "field required"}]}), "provider_bad_response"),
    (Reply(chunks=[b"<html>gateway</html>"]), "provider_bad_response"),
    (Reply(chunks=[f"\n\nunexpected key {KEY}".encode()]), "provider_bad_response"),  # key echoed: scrubbed
    (oa.error(200, {"id": "x", "object": "chat.completion", "choices": []}), "provider_bad_response"),
    (oa.error(200, {"error": {"message": "overloaded", "code": 503}}), "provider_unavailable"),
])  # fmt: skip
async def test_refusals_map_to_stable_codes_without_retry(fake: FakeLLM, reply: Reply, code: str) -> None:
    fake.add(reply)
    error = await fails(fake, ask(stream=False))
    assert error.code == code
    assert len(fake.requests) == 1


@pytest.mark.parametrize("reply", [
    oa.ollama_no_tools(), oa.openrouter_no_tool_endpoints(), oa.vllm_no_auto_tool_choice(flat=True),
    oa.vllm_no_auto_tool_choice(flat=False), oa.llamacpp_needs_jinja(), oa.fastapi_422_tools(),
    oa.error(400, {"error": "gemma3 does not support tools"}),
])  # fmt: skip
async def test_tools_rejected_shapes(fake: FakeLLM, reply: Reply) -> None:
    fake.add(reply)
    with pytest.raises(ToolsRejected):
        await chat(fake, ask(tools=True))
    assert len(fake.requests) == 1  # not retried, not re-sent without tools: the agent decides


async def test_a_tools_message_without_tools_sent_is_an_ordinary_error(fake: FakeLLM) -> None:
    fake.add(oa.ollama_no_tools())
    assert (await fails(fake, ask())).code == "provider_bad_response"


async def test_429_with_retry_after_zero_then_success_is_one_turn(fake: FakeLLM) -> None:
    fake.add(oa.rate_limited(retry_after="0"), oa.stream_text(["ok"]))
    turn, _ = await chat(fake, ask(), retry_cap_s=5.0)
    assert turn.text == "ok" and len(fake.requests) == 2


async def test_503_twice_then_success(fake: FakeLLM) -> None:
    fake.add(oa.server_error(503), oa.server_error(502), oa.stream_text(["ok"]))
    turn, _ = await chat(fake, ask())
    assert turn.text == "ok" and len(fake.requests) == 3


@pytest.mark.parametrize("status", [500, 502, 503, 504])
async def test_5xx_gives_up_after_max_retries(fake: FakeLLM, status: int) -> None:
    fake.add(*[oa.server_error(status)] * 3)
    assert (await fails(fake, ask())).code == "provider_unavailable"
    assert len(fake.requests) == 3


@pytest.mark.parametrize("retry_after", [None, "7", "soon"])
async def test_429_exhausted_reports_retry_after(fake: FakeLLM, retry_after: str | None) -> None:
    fake.add(*[oa.rate_limited(retry_after=retry_after)] * 2)
    error = await fails(fake, ask(), max_retries=1)
    assert error.code == "provider_rate_limited" and len(fake.requests) == 2
    assert error.details["retry_after"] == (7 if retry_after == "7" else 1)


def test_retry_delay_reads_seconds_and_http_dates_and_survives_garbage() -> None:
    assert retry_delay(0, "3", 10) == 3 and retry_delay(0, "30", 10) == 10
    assert retry_delay(0, "Wed, 21 Oct 2015 07:28:00 GMT", 10) == 0  # in the past
    future = format_datetime(datetime.now(UTC) + timedelta(seconds=60), usegmt=True)
    assert retry_delay(0, future, 10) == 10
    assert retry_delay(1, "soon", 10) == 1.0 and retry_delay(2, None, 10) == 2.0


async def test_401_never_retried_and_the_key_never_in_the_message(fake: FakeLLM) -> None:
    fake.add(oa.openai_error(401, f"Incorrect API key provided: {KEY}"))
    error = await fails(fake, ask())
    assert error.code == "provider_auth_failed" and len(fake.requests) == 1
    assert "***" in error.message


async def test_unreachable_server() -> None:
    error = await fails(None, ask(), base_url=f"http://127.0.0.1:{free_port()}/v1", max_retries=1)
    assert error.code == "provider_unavailable"


@pytest.mark.parametrize("base_url", ["localhost:11434/v1", "ftp://127.0.0.1/v1", "http://[::1/v1"])
async def test_a_malformed_base_url_is_a_configuration_error(base_url: str) -> None:
    error = await fails(None, ask(), base_url=base_url)
    assert error.code == "provider_not_configured"


async def test_a_shared_client_is_used_and_left_open(fake: FakeLLM) -> None:
    fake.add(oa.stream_text(["a"]), oa.plain("b"))
    async with httpx2.AsyncClient() as client:
        provider = OpenAICompatProvider(config(fake), client)
        assert (await provider.chat(ask())).text == "a"
        await provider.aclose()
        assert not client.is_closed
        assert (await OpenAICompatProvider(config(fake), client).chat(ask(stream=False))).text == "b"


# --- 9. failures after HTTP 200 -----------------------------------------------------------------------------


@pytest.mark.parametrize(("reply", "code"), [
    (oa.mid_stream_error(["Hel"]), "provider_unavailable"),  # OpenRouter, carries code 502
    (oa.mid_stream_error(["Hel"], {"error": {"message": "upstream failed"}}), "provider_bad_response"),
    (oa.mid_stream_error(["Hel"], {"error": {"message": "x"}, "choices": [{"index": 0, "delta": {}}]}),
     "provider_bad_response"),
    (oa.mid_stream_error(["Hel"], oa.VLLM_FLAT_ERROR_EVENT), "provider_bad_response"),
    (oa.mid_stream_error(["Hel"], {"error": {"message": f"key {KEY} revoked", "code": 401}}), "provider_auth_failed"),
    (oa.mid_stream_error(["Hel"], {"error": {"message": "slow down", "code": "429"}}), "provider_rate_limited"),
    (oa.mid_stream_error(["Hel"], '{"choices": [{"index": 0, "delta": {"content": "tru'), "provider_bad_response"),
    (oa.stream_text(["Hel"], finish="error"), "provider_bad_response"),
    (oa.stream_text(["Hel"], finish=None, usage=None), "provider_bad_response"),  # [DONE] without finish
    (oa.stream_text(["Hel"], finish=None, usage=None, done=False, close_early=True), "provider_bad_response"),
    (Reply(chunks=oa.stream_text(["Hel"], finish=None, usage=None, done=False).chunks, sse=True, reset=True),
     "provider_bad_response"),  # connection reset
])  # fmt: skip
async def test_mid_stream_failures(fake: FakeLLM, reply: Reply, code: str) -> None:
    fake.add(reply)
    error = await fails(fake, ask())
    assert error.code == code and len(fake.requests) == 1  # never retried once the answer started


async def test_a_cut_stream_returns_no_tool_calls(fake: FakeLLM) -> None:
    """The connection drops after a complete-looking call but before finish_reason: nothing may run."""
    events = oa.tool_call_chunks([("call_a", "search", {"q": "x"})])
    fake.add(oa.sse(events, done=False, close_early=True))
    error = await fails(fake, ask(tools=True))
    assert error.code == "provider_bad_response"
    assert "connection broke" in error.message or "no finish_reason" in error.message


# --- 10. malformed calls ------------------------------------------------------------------------------------


async def test_malformed_tool_calls_become_call_errors(fake: FakeLLM) -> None:
    calls = [("c1", "search", '{"q": "tru'), ("c2", "search", "[1, 2]"), ("c3", "", {"q": "x"}),
             ("c4", "delete_everything", {}), (None, "search", ""), ("c6", "search", {"q": 3})]  # fmt: skip
    fake.add(oa.stream_tool_calls(calls))
    turn, _ = await chat(fake, ask(tools=True))
    c1, c2, c3, c4, c5, c6 = turn.tool_calls
    assert c1.arguments is None and c1.error.startswith("invalid JSON arguments:")
    assert c2.arguments is None and c2.error == "invalid JSON arguments: expected a JSON object, got list"
    assert c3.arguments is None and "no function name" in c3.error
    assert c4.arguments is None and "unknown tool 'delete_everything'" in c4.error
    assert c5.id.startswith("call_") and c5.arguments == {} and c5.error is None
    assert c6.arguments == {"q": 3} and c6.error is None  # schema checks are the tool layer's
    assert turn.message["raw"]["tool_calls"][0]["function"]["arguments"] == '{"q": "tru'  # replayed as sent
    assert [c["id"] for c in turn.message["tool_calls"]] == [c.id for c in turn.tool_calls]


# --- 11. timing and cancellation ----------------------------------------------------------------------------


async def test_slow_stream_within_the_idle_timeout(fake: FakeLLM) -> None:
    fake.add(oa.stream_text(["a", "b", "c"], delay_s=0.04))
    _turn, pieces = await chat(fake, ask(), timeout_s=2.0)
    assert pieces == ["a", "b", "c"]


async def test_no_first_byte_within_the_timeout(fake: FakeLLM) -> None:
    fake.add(Reply(before_s=2.0, chunks=[b"{}"]))
    started = time.monotonic()
    error = await fails(fake, ask(), timeout_s=0.2, max_retries=0)
    assert error.code == "provider_unavailable" and time.monotonic() - started < 1.5


async def test_a_read_timeout_before_the_answer_is_never_sent_again(fake: FakeLLM) -> None:
    """The request reached the server, which may still be generating: a re-send would be a second generation
    (billed, or queued behind the first on a one-slot engine). One request, ``provider_unavailable``, and a hint
    naming the setting; connection failures are still retried (see the 5xx/refused tests)."""
    fake.add(Reply(before_s=1.5, chunks=[b"{}"]), oa.plain("never asked"))
    started = time.monotonic()
    error = await fails(fake, ask(stream=False), timeout_s=0.3, max_retries=2)
    assert error.code == "provider_unavailable" and "not sent again" in error.message
    assert "OBSIGATE_AI_TIMEOUT" in (error.hint or "") and time.monotonic() - started < 1.4
    assert len(fake.requests) == 1


async def test_a_local_engines_non_streamed_turn_gets_the_local_timeout(fake: FakeLLM) -> None:
    """A local engine's non-streamed answer comes whole, after the generation: it is waited for up to
    ``local_timeout_s``, while a streamed request to it keeps the idle timeout between bytes."""
    slow = oa.plain("Generated at last.")
    slow.before_s = 1.0
    fake.add(slow)
    turn, pieces = await chat(fake, ask(stream=False), timeout_s=0.3, local=True, local_timeout_s=10.0)
    assert turn.text == "Generated at last." and pieces == ["Generated at last."] and len(fake.requests) == 1
    stalled = oa.stream_text(["late"])
    stalled.before_s = 1.0
    fake.add(stalled)
    error = await fails(fake, ask(), timeout_s=0.3, local=True, local_timeout_s=10.0, max_retries=0)
    assert error.code == "provider_unavailable" and "0.3 s" in error.message


async def test_the_llamacpp_fallback_waits_with_the_local_timeout(fake: FakeLLM) -> None:
    """The refused streamed tool turn (an empty stream) is asked again non-streamed: that request, whose answer
    takes the whole generation, is the one that gets the local timeout."""
    slow = oa.plain_tool_calls([("call_a", "search", {"q": "x"})])
    slow.before_s = 1.0
    fake.add(oa.llamacpp_streaming_tools_empty(), slow)
    turn, _ = await chat(fake, ask(tools=True), name="custom", timeout_s=0.3, local=True, local_timeout_s=10.0)
    assert [c.name for c in turn.tool_calls] == ["search"]
    assert [r.json.get("stream") for r in fake.requests] == [True, None]


async def test_a_local_engine_past_its_timeout_fails_once_naming_its_setting(fake: FakeLLM) -> None:
    fake.add(Reply(before_s=1.5, chunks=[b"{}"]), oa.plain("never asked"))
    started = time.monotonic()
    error = await fails(fake, ask(stream=False), timeout_s=5.0, local=True, local_timeout_s=0.3, max_retries=2)
    assert error.code == "provider_unavailable" and "within 0.3 s" in error.message
    assert "OBSIGATE_AI_LOCAL_TIMEOUT" in (error.hint or "") and time.monotonic() - started < 1.4
    assert len(fake.requests) == 1


async def test_idle_read_timeout_mid_stream(fake: FakeLLM) -> None:
    fake.add(oa.sse([*oa.text_chunks(["a"]), oa.chunk({"content": "b"})], done=False, delay_s=0.5))
    error = await fails(fake, ask(), timeout_s=0.2)
    assert error.code == "provider_unavailable"


async def test_keep_alive_comments_do_not_extend_the_turn_forever(fake: FakeLLM) -> None:
    fake.add(oa.stall(comments=300, delay_s=0.02))
    started = time.monotonic()
    error = await fails(fake, ask(), timeout_s=1.0, turn_timeout_s=0.4)
    elapsed = time.monotonic() - started
    assert error.code == "provider_unavailable" and 0.35 < elapsed < 3.0
    await wait_for_disconnect(fake)


async def wait_for_disconnect(fake: FakeLLM, timeout: float = 1.0) -> None:
    deadline = time.monotonic() + timeout
    while fake.disconnects == 0:
        assert time.monotonic() < deadline, "the fake never saw the client hang up"
        await anyio.sleep(0.01)


@pytest.mark.parametrize("where", ["reading", "in_on_delta"])
async def test_cancellation_closes_the_upstream_request_at_once(fake: FakeLLM, where: str) -> None:
    """Cancelled while waiting for the next chunk, or while the caller's ``on_delta`` is busy (the body iterator
    is then suspended, and only our own close ends the connection)."""
    fake.add(oa.stream_text([f"w{i} " for i in range(200)], delay_s=0.02))
    provider = OpenAICompatProvider(config(fake))
    first = anyio.Event()
    pieces: list[str] = []

    async def on_delta(piece: str) -> None:
        pieces.append(piece)
        first.set()
        if where == "in_on_delta":
            await anyio.sleep(30)

    async def run() -> None:
        await provider.chat(ask(), on_delta)
        raise AssertionError("chat finished although cancelled")

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await first.wait()
            tg.cancel_scope.cancel()
        await wait_for_disconnect(fake)
    finally:
        await provider.aclose()
    assert 1 <= len(pieces) < 50


# --- llama-cpp-python: streamed requests with tools refused (llm.md §5.2) ------------------------------------


async def test_streamed_tools_refused_falls_back_to_non_streamed_with_tools(fake: FakeLLM) -> None:
    fake.add(oa.llamacpp_streaming_tools(), oa.plain_tool_calls([("call_a", "search", {"q": "x"})], text="Searching."))
    fake.add(oa.plain("Found it."), oa.stream_text(["plain ", "chat"]))
    provider = OpenAICompatProvider(config(fake, name="custom"))
    pieces: list[str] = []

    async def on_delta(piece: str) -> None:
        pieces.append(piece)

    try:
        first = await provider.chat(ask(tools=True), on_delta)
        assert [c.name for c in first.tool_calls] == ["search"] and pieces == ["Searching."]
        second = await provider.chat(ask("again", tools=True), on_delta)  # remembered: non-streamed at once
        assert second.text == "Found it." and pieces[-1] == "Found it."
        third = await provider.chat(ask("no tools"), on_delta)  # plain chat still streams
        assert third.text == "plain chat" and pieces[-2:] == ["plain ", "chat"]
    finally:
        await provider.aclose()
    bodies = [r.json for r in fake.requests]
    assert [b.get("stream") for b in bodies] == [True, None, None, True]
    assert all("tools" in b for b in bodies[:3]) and "tools" not in bodies[3]
    assert bodies[1]["messages"] == bodies[0]["messages"]


async def test_streamed_tools_refused_by_an_empty_stream_falls_back_too(fake: FakeLLM) -> None:
    """llama-cpp-python 0.3.36 refuses a streamed tool turn with HTTP 200 and an event stream without one event
    (found by tests/agent/test_real_engine.py): asked again non-streamed, tools kept, and remembered."""
    fake.add(oa.llamacpp_streaming_tools_empty(), oa.plain_tool_calls([("call_a", "search", {"q": "x"})]))
    fake.add(oa.plain("Found it."), oa.stream_text(["plain ", "chat"]))
    provider = OpenAICompatProvider(config(fake, name="custom"))
    try:
        first = await provider.chat(ask(tools=True))
        assert [(c.name, c.arguments) for c in first.tool_calls] == [("search", {"q": "x"})]
        assert first.message["raw"]["content"] is None
        history = [{"role": "user", "content": "Hi"}, first.message,
                   {"role": "tool", "tool_call_id": "call_a", "name": "search", "content": "{}"}]  # fmt: skip
        again = await provider.chat(ask("", tools=True, history=history))  # non-streamed at once
        assert again.text == "Found it."
        assert (await provider.chat(ask("no tools"))).text == "plain chat"  # plain chat still streams
    finally:
        await provider.aclose()
    bodies = [r.json for r in fake.requests]
    assert [b.get("stream") for b in bodies] == [True, None, None, True]
    assert all("tools" in b for b in bodies[:3]) and bodies[1]["messages"] == bodies[0]["messages"]
    # that server's request schema refuses its own "content": null beside tool_calls: it gets ""
    replayed = bodies[2]["messages"][2]
    assert replayed["role"] == "assistant" and replayed["content"] == "" and replayed["tool_calls"][0]["id"] == "call_a"


async def test_an_empty_stream_is_asked_again_without_streaming(fake: FakeLLM) -> None:
    """An event stream without one event says nothing of its cause (llama-cpp-python 0.3.36 answers so a prompt
    over its n_ctx too, tools or not): the turn is asked once more non-streamed, whose answer or error decides;
    a second empty stream is ``provider_bad_response`` (never a loop), and only a tool turn that then succeeds
    is remembered as the refusal of streamed tool turns."""
    fake.add(oa.llamacpp_streaming_tools_empty(), oa.llamacpp_context_exceeded())  # plain chat over the context
    fake.add(oa.llamacpp_streaming_tools_empty(), oa.plain("Whole answer."))  # plain chat answered whole
    fake.add(oa.llamacpp_streaming_tools_empty(), oa.llamacpp_streaming_tools_empty())  # empty twice
    fake.add(oa.llamacpp_streaming_tools_empty(), oa.context_length())  # a tool turn over the context
    fake.add(oa.stream_tool_calls([("call_b", "search", {"q": "y"})]))
    provider = OpenAICompatProvider(config(fake, name="custom"))
    pieces: list[str] = []

    async def on_delta(piece: str) -> None:
        pieces.append(piece)

    try:
        with pytest.raises(ProviderError) as overflow:
            await provider.chat(ask())
        assert overflow.value.code == "context_length_exceeded"
        assert "maximum context length is 512" in overflow.value.message
        assert (await provider.chat(ask(), on_delta)).text == "Whole answer." and pieces == ["Whole answer."]
        with pytest.raises(ProviderError) as empty:
            await provider.chat(ask())
        assert empty.value.code == "provider_bad_response" and "without a single event" in empty.value.message
        with pytest.raises(ProviderError) as tool_overflow:
            await provider.chat(ask(tools=True))
        assert tool_overflow.value.code == "context_length_exceeded"
        assert [c.name for c in (await provider.chat(ask(tools=True))).tool_calls] == ["search"]  # still streams
    finally:
        await provider.aclose()
    assert [r.json.get("stream") for r in fake.requests] == [True, None, True, None, True, None, True, None, True]
    assert fake.requests[1].json["messages"] == fake.requests[0].json["messages"]  # the same turn, asked again
