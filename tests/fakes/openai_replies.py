"""Scripted replies of the OpenAI Chat Completions dialect for :class:`fakes.llm_server.FakeLLM` (``llm.md`` §1).

Small API (every function returns a :class:`~fakes.llm_server.Reply` unless said otherwise)::

    fake.add(stream_text(["Hel", "lo"]))                                     # streamed text, usage, [DONE]
    fake.add(stream_tool_calls([("call_a", "read_file", {"vault": "v", "path": "a.md"})], text="Let me look.", split=7))
    fake.add(plain("Hello"), plain_tool_calls([("call_a", "read_file", {"path": "a.md"})]))   # non-streamed JSON
    fake.add(rate_limited(retry_after="0"), ollama_no_tools(), error(503, {"error": {"message": "busy"}}))

Streams are built from chunk dicts (:func:`chunk`), serialised by :func:`sse` with the byte-level knobs the
tests need: ``crlf`` line endings, ``prelude`` comment/blank lines (``: keep-alive``), ``write_size`` (cut the
body into TCP writes of that many bytes: events split mid-line and inside multi-byte UTF-8), ``delay_s`` per
write, ``done`` (``data: [DONE]``) and ``close_early`` (a dropped connection).

Tool calls are ``(id, name, arguments)`` tuples (optionally a fourth item: extra keys of the call, such as
``{"extra_content": {"google": {"thought_signature": "c2ln"}}}``); ``arguments`` is a dict (dumped with
``ensure_ascii=False``) or a raw string sent as it is (malformed JSON on purpose); ``id`` may be ``None``.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

from fakes.llm_server import Reply

MODEL = "fake-model"
#: the usage the helpers report unless told otherwise
USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}

ToolCallSpec = tuple[Any, ...]  # (id | None, name, dict | str[, extra keys])


# --- chunks -----------------------------------------------------------------------------------------------


def chunk(delta: dict[str, Any] | None = None, *, finish: str | None = None, usage: dict[str, Any] | None = None,
          choices: Any = ..., **extra: Any) -> dict[str, Any]:  # fmt: skip
    """One ``chat.completion.chunk`` (§1.5): one choice with ``delta`` and ``finish_reason`` ``finish``;
    ``choices`` overrides the list (``[]`` or ``None`` for the usage chunk); ``usage`` and ``extra`` keys are
    added at the top level."""
    body: dict[str, Any] = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": MODEL}
    if choices is ...:
        choices = [{"index": 0, "delta": delta if delta is not None else {}, "finish_reason": finish}]
    body["choices"] = choices
    if usage is not None:
        body["usage"] = usage
    body.update(extra)
    return body


def usage_chunks(usage: Any = "final") -> list[dict[str, Any]]:
    """The usage tail of a stream: ``"final"`` (a ``choices: []`` chunk with :data:`USAGE`), ``"null"`` (vLLM's
    ``choices: null``), a dict (a ``choices: []`` chunk with that usage), ``None`` or ``"on_finish"`` (no chunk;
    for ``"on_finish"`` pass ``usage=USAGE`` on the finish chunk yourself, as :func:`stream_text` does)."""
    if usage == "final":
        return [chunk(choices=[], usage=USAGE)]
    if usage == "null":
        return [chunk(choices=None, usage=USAGE)]
    if isinstance(usage, dict):
        return [chunk(choices=[], usage=usage)]
    return []


def split_text(text: str, split: int | list[int] | None) -> list[str]:
    """``text`` cut every ``split`` characters, or at the given positions (list), or not at all (``None``)."""
    if split is None or not text:
        return [text]
    if isinstance(split, int):
        cuts = list(range(split, len(text), split))
    else:
        cuts = sorted(p for p in split if 0 < p < len(text))
    bounds = [0, *cuts, len(text)]
    return [text[a:b] for a, b in itertools.pairwise(bounds) if b > a]


# --- serialisation ----------------------------------------------------------------------------------------


def sse(events: list[dict[str, Any] | str], *, done: bool = True, crlf: bool = False, prelude: Sequence[str] = (),
        write_size: int | None = None, delay_s: float = 0.0, close_early: bool = False,
        status: int = 200, headers: dict[str, str] | None = None) -> Reply:  # fmt: skip
    """A streamed reply: each event (a dict dumped as JSON, or a string sent as the ``data`` value as it is) as
    ``data: ...`` plus a blank line; ``prelude`` lines (comments such as ``": keep-alive"``, or ``""`` for a blank
    line) first; ``data: [DONE]`` last when ``done``. One write per event unless ``write_size`` cuts the body
    into writes of that many bytes."""
    nl = "\r\n" if crlf else "\n"
    parts = [line + nl for line in prelude]
    for event in [*events, *(["[DONE]"] if done else [])]:
        data = event if isinstance(event, str) else json.dumps(event, ensure_ascii=False)
        parts.append("".join(f"data: {line}{nl}" for line in data.split("\n")) + nl)
    if write_size:
        body = "".join(parts).encode()
        writes = [body[i : i + write_size] for i in range(0, len(body), write_size)]
    else:
        writes = [p.encode() for p in parts]
    return Reply(status=status, chunks=writes, sse=True, delay_s=delay_s, close_early=close_early,
                 headers=dict(headers or {}))  # fmt: skip


# --- streamed answers -------------------------------------------------------------------------------------


def text_chunks(pieces: list[str | None], *, reasoning: Sequence[str] = (), reasoning_key: str = "reasoning_content",
                role_chunk: bool = True) -> list[dict[str, Any]]:  # fmt: skip
    """The chunks of a text answer: a first ``{"role": "assistant", "content": ""}`` chunk (``role_chunk``), the
    ``reasoning`` pieces as ``delta[reasoning_key]`` (``reasoning_content`` for DeepSeek, ``reasoning`` for
    OpenRouter), then one ``content`` delta per piece (``None`` sends ``"content": null``)."""
    out = [chunk({"role": "assistant", "content": ""})] if role_chunk else []
    out += [chunk({reasoning_key: r}) for r in reasoning]
    out += [chunk({"content": p}) for p in pieces]
    return out


def tool_call_chunks(calls: list[ToolCallSpec], *, split: int | list[int] | None = 7,
                     variant: str = "indexed") -> list[dict[str, Any]]:  # fmt: skip
    """The chunks of tool calls (§1.5): per call a first delta with ``id``, ``type``, ``function.name`` and empty
    ``arguments``, then the arguments cut by ``split`` (:func:`split_text`; ``None``: the whole call in one
    delta). ``variant``: ``"indexed"`` (index 0, 1, ...), ``"ollama"`` (every call at index 0, told apart by
    its id), ``"no_index"`` (no ``index`` key at all, old Ollama)."""
    out: list[dict[str, Any]] = []
    for n, spec in enumerate(calls):
        call_id, name, args = spec[0], spec[1], spec[2]
        extra = spec[3] if len(spec) > 3 else {}
        text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        position = {"index": n} if variant == "indexed" else {"index": 0} if variant == "ollama" else {}
        head: dict[str, Any] = {**position, "type": "function", "function": {"name": name, "arguments": ""}, **extra}
        if call_id is not None:
            head["id"] = call_id
        if split is None:
            head["function"]["arguments"] = text
            out.append(chunk({"tool_calls": [head]}))
            continue
        out.append(chunk({"tool_calls": [head]}))
        for piece in split_text(text, split):
            out.append(chunk({"tool_calls": [{**position, "function": {"arguments": piece}}]}))
    return out


def finish_chunks(finish: str | None, usage: Any) -> list[dict[str, Any]]:
    """The end of a stream: the ``finish_reason`` chunk (none when ``finish`` is ``None``: a cut stream), with
    the usage on it for ``usage="on_finish"``, then :func:`usage_chunks`."""
    out = []
    if finish is not None:
        out.append(chunk({}, finish=finish, usage=USAGE if usage == "on_finish" else None))
    return out + usage_chunks(usage)


def stream_text(pieces: list[str | None], *, reasoning: Sequence[str] = (), reasoning_key: str = "reasoning_content",
                finish: str | None = "stop", usage: Any = "final", **sse_options: Any) -> Reply:  # fmt: skip
    """A streamed text answer: :func:`text_chunks` + :func:`finish_chunks`, serialised by :func:`sse`
    (``sse_options``: ``done``, ``crlf``, ``prelude``, ``write_size``, ``delay_s``, ``close_early``)."""
    events = text_chunks(pieces, reasoning=reasoning, reasoning_key=reasoning_key) + finish_chunks(finish, usage)
    return sse(events, **sse_options)


def stream_tool_calls(calls: list[ToolCallSpec], *, text: str = "", reasoning: Sequence[str] = (),
                      reasoning_key: str = "reasoning_content", split: int | list[int] | None = 7,
                      variant: str = "indexed", finish: str | None = "tool_calls", usage: Any = "final",
                      **sse_options: Any) -> Reply:  # fmt: skip
    """A streamed tool-call answer: reasoning, then ``text`` (in one delta), then :func:`tool_call_chunks`, then
    :func:`finish_chunks`; ``sse_options`` as for :func:`stream_text`."""
    events = text_chunks([text] if text else [], reasoning=reasoning, reasoning_key=reasoning_key)
    events += tool_call_chunks(calls, split=split, variant=variant) + finish_chunks(finish, usage)
    return sse(events, **sse_options)


def mid_stream_error(pieces: list[str], error_event: dict[str, Any] | str | None = None, *,
                     done: bool = False, **sse_options: Any) -> Reply:  # fmt: skip
    """Text pieces, then an error event after HTTP 200 (default OpenRouter's ``{"error": {"code": 502,
    "message": ...}}`` with an empty ``choices``; see :data:`VLLM_FLAT_ERROR_EVENT`), no finish."""
    if error_event is None:
        error_event = {"error": {"code": 502, "message": "upstream provider failed"}, "choices": []}
    return sse([*text_chunks(pieces), error_event], done=done, **sse_options)


#: vLLM's older flat mid-stream error (§1.6)
VLLM_FLAT_ERROR_EVENT = {"object": "error", "message": "decoding failed", "type": "InternalServerError", "param": None,
                         "code": None}  # fmt: skip


def stall(comments: int = 200, delay_s: float = 0.02, *, comment: str = ": keep-alive") -> Reply:
    """A stream that only ever sends keep-alive comments (``comments`` of them, one per ``delay_s``): the idle
    timer never fires, only the whole-turn deadline can end it."""
    return Reply(chunks=[f"{comment}\n\n".encode()] * comments, sse=True, delay_s=delay_s)


# --- non-streamed answers ---------------------------------------------------------------------------------


def completion(message: dict[str, Any], *, finish: str | None = "stop", usage: dict[str, Any] | None = USAGE,
               blank_lines: int = 0) -> Reply:  # fmt: skip
    """A non-streamed ``chat.completion`` (§1.2) with ``message`` as ``choices[0].message``; ``blank_lines``
    blank keep-alive lines before the JSON (DeepSeek, §1.5)."""
    body: dict[str, Any] = {"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": MODEL,
                            "choices": [{"index": 0, "message": message, "finish_reason": finish}]}  # fmt: skip
    if usage is not None:
        body["usage"] = usage
    chunks = [b"\n" * blank_lines] if blank_lines else []
    return Reply(chunks=[*chunks, json.dumps(body, ensure_ascii=False).encode()])


def plain(text: str, **extra: Any) -> Reply:
    """A non-streamed text answer; ``extra`` keys go on the message (``reasoning_content="..."``)."""
    return completion({"role": "assistant", "content": text, **extra})


def raw_tool_calls(calls: list[ToolCallSpec]) -> list[dict[str, Any]]:
    """``calls`` as a message's ``tool_calls`` list (§1.2)."""
    out = []
    for spec in calls:
        call_id, name, args = spec[0], spec[1], spec[2]
        extra = spec[3] if len(spec) > 3 else {}
        text = args if isinstance(args, str) else json.dumps(args, ensure_ascii=False)
        call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": text}, **extra}
        if call_id is not None:
            call["id"] = call_id
        out.append(call)
    return out


def plain_tool_calls(calls: list[ToolCallSpec], text: str | None = None, **extra: Any) -> Reply:
    """A non-streamed tool-call answer (``content`` null unless ``text``); ``extra`` keys go on the message."""
    message = {"role": "assistant", "content": text, "tool_calls": raw_tool_calls(calls), **extra}
    return completion(message, finish="tool_calls")


# --- refusals (llm.md §1.7, §1.8, §5.2) ---------------------------------------------------------------------


def error(status: int, body: Any, headers: dict[str, str] | None = None) -> Reply:
    """An HTTP error with ``body`` (a dict/list dumped as JSON, or a string sent as it is)."""
    data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
    return Reply(status=status, chunks=[data], headers=dict(headers or {}))


def openai_error(status: int, message: str, type_: str = "invalid_request_error", code: Any = None) -> Reply:
    """``{"error": {"message", "type", "param", "code"}}`` with ``status`` (OpenAI, DeepSeek)."""
    return error(status, {"error": {"message": message, "type": type_, "param": None, "code": code}})


def ollama_no_tools(model: str = "registry.ollama.ai/library/gemma3:4b") -> Reply:
    """Ollama ``/v1``: 400 ``<model> does not support tools``."""
    return openai_error(400, f"{model} does not support tools", "api_error")


def openrouter_no_tool_endpoints() -> Reply:
    """OpenRouter: 404 "No endpoints found that support tool use"."""
    return error(404, {"error": {"message": "No endpoints found that support tool use. To learn more about "
                                            "provider routing, visit: https://openrouter.ai/docs/provider-routing",
                                 "code": 404}})  # fmt: skip


def vllm_no_auto_tool_choice(flat: bool = True) -> Reply:
    """vLLM without ``--enable-auto-tool-choice``: 400, the older flat shape or the newer wrapped one."""
    err = {"object": "error", "message": '"auto" tool choice requires --enable-auto-tool-choice and '
           "--tool-call-parser to be set", "type": "BadRequestError", "param": None, "code": 400}  # fmt: skip
    return error(400, err if flat else {"error": err})


def llamacpp_needs_jinja() -> Reply:
    """llama.cpp server without ``--jinja``: 500 "tools param requires --jinja flag"."""
    return error(500, {"error": {"code": 500, "message": "tools param requires --jinja flag", "type": "server_error"}})


def llamacpp_streaming_tools() -> Reply:
    """llama-cpp-python's server, streamed request with tools (§5.2): 500 "Automatic streaming tool choice is
    not supported" (its error handler's OpenAI-style body)."""
    return error(500, {"error": {"message": "Automatic streaming tool choice is not supported",
                                 "type": "internal_server_error", "param": None, "code": None}})  # fmt: skip


def llamacpp_streaming_tools_empty() -> Reply:
    """The same refusal as llama-cpp-python 0.3.36's server really sends it (measured with SmolLM2 on this box):
    HTTP 200, ``text/event-stream``, then the body ends without a single event (the ValueError is raised inside
    its SSE publisher, after the headers)."""
    return sse([], done=False)


def fastapi_422_tools() -> Reply:
    """A FastAPI-based server refusing the ``tools`` field: 422 ``{"detail": [...]}``."""
    return error(422, {"detail": [{"type": "extra_forbidden", "loc": ["body", "tools"],
                                   "msg": "Extra inputs are not permitted", "input": []}]})  # fmt: skip


def unauthorized() -> Reply:
    """401 with OpenAI's masked-key message."""
    return openai_error(401, "Incorrect API key provided: sk-abc***xyz.", code="invalid_api_key")


def payment_required() -> Reply:
    """402 (DeepSeek "Insufficient Balance", OpenRouter credits)."""
    return openai_error(402, "Insufficient Balance", "unknown_error")


def model_not_found(model: str = MODEL) -> Reply:
    """404 as Ollama says it."""
    return error(404, {"error": {"message": f'model "{model}" not found, try pulling it first', "type": "api_error",
                                 "param": None, "code": None}})  # fmt: skip


def context_length() -> Reply:
    """400 context-length error (OpenAI wording)."""
    return openai_error(400, "This model's maximum context length is 8192 tokens. However, your messages "
                             "resulted in 9001 tokens.", code="context_length_exceeded")  # fmt: skip


def llamacpp_context_exceeded(n_ctx: int = 512, prompt: int = 4483) -> Reply:
    """A non-streamed request over llama-cpp-python 0.3.36's context, as its server answers it (its
    ``RouteErrorHandler`` rewrites the ``Requested tokens (N) exceed context window of M`` ValueError): 400,
    OpenAI's wording and code. Streamed, the same prompt gets an empty event stream
    (:func:`llamacpp_streaming_tools_empty`)."""
    return openai_error(400, f"This model's maximum context length is {n_ctx} tokens. However, you requested "
                             f"{prompt} tokens ({prompt} in the messages, None in the completion). Please reduce "
                             "the length of the messages or completion.", code="context_length_exceeded")  # fmt: skip


def llama_server_context_exceeded(n_ctx: int = 4096, prompt: int = 4476) -> Reply:
    """llama.cpp's own ``llama-server`` over its context: 400 ``exceed_context_size_error`` with the sizes."""
    return error(400, {"error": {"code": 400, "message": f"request ({prompt} tokens) exceeds the available context "
                                 f"size ({n_ctx} tokens)", "type": "exceed_context_size_error",
                                 "n_prompt_tokens": prompt, "n_ctx": n_ctx}})  # fmt: skip


def rate_limited(retry_after: str | None = None) -> Reply:
    """429, with ``Retry-After`` when given (seconds or an HTTP date)."""
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    return error(429, {"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}},
                 headers)  # fmt: skip


def server_error(status: int = 500) -> Reply:
    """A 5xx (500, 502 upstream down, 503 overloaded, 504)."""
    return openai_error(status, f"server error {status}", "server_error")
