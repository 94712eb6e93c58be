"""The OpenAI-compatible Chat Completions client: OpenAI, DeepSeek, OpenRouter, Ollama ``/v1``, vLLM, llama.cpp
and llama-cpp-python servers (``llm.md`` §1).

Wire format: ``POST {base_url}/chat/completions`` (§1.1), streamed as SSE ``data: {chunk}`` events ending with
``data: [DONE]`` (§1.5), or one JSON body (§1.2). The accumulator follows §1.6: tool calls reassembled by index
*and* id (Ollama sends every parallel call at ``index: 0``), a missing index means the current call, usage from
the ``choices: []`` / ``choices: null`` / finish chunk, ``{"error": ...}`` and vLLM's flat ``{"object": "error"}``
events are failures, and a stream without a ``finish_reason`` was cut: a failure whose half-received tool calls
are never returned. Whether the model wants tools is decided by the calls received, not by ``finish_reason``
(§1.4). The assistant message is kept as the provider's own ``choices[0].message`` (a streamed one rebuilt into
that shape, every extra field kept: ``reasoning_content``, ``reasoning``, ``reasoning_details``, per-call
``extra_content``) and replayed verbatim to the same provider and model (§0.2, §1.9, §1.10).

Quirk handled (§5.2): llama-cpp-python's server refuses a *streamed* request with tools whenever its model picks
a tool ("Automatic streaming tool choice is not supported"): by HTTP 500 in some versions, by HTTP 200 and an
event stream that ends without a single event in others (0.3.36 raises inside its SSE publisher, after the
headers). Either way nothing was said yet, so the same request is sent non-streamed, tools kept, and later tool
turns to that base URL and model go non-streamed directly. The same empty stream is how that server answers a
prompt over its context (``n_ctx``), tools or not: any empty stream is therefore asked once more non-streamed,
where the server says what went wrong (400 ``context_length_exceeded``). That server also refuses its own
assistant messages back when their ``content`` is ``null`` (its request schema wants a string): to it they are
sent with ``""``.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import anyio
import httpx2

from obsigate.agent.providers.base import (
    ChatRequest,
    Message,
    OnDelta,
    ProviderConfig,
    ProviderError,
    ToolCall,
    ToolDef,
    ToolsRejected,
    Turn,
    Usage,
)
from obsigate.agent.providers.http import classify, error_message, open_response
from obsigate.agent.providers.image_parts import openai_content, openai_tool_images
from obsigate.agent.providers.sse import aiter_sse_data

__all__ = ["OpenAICompatProvider", "build_messages", "build_tools"]

#: finish reasons of a complete answer (§1.4, plus the spellings of TGI/llama.cpp/Anthropic-style gateways);
#: anything else (``error``, ``abort``...) is a failed turn.
_FINISHED = frozenset(
    {"stop", "length", "tool_calls", "content_filter", "function_call", "eos", "eos_token", "end_turn",
     "stop_sequence", "max_tokens"}
)  # fmt: skip
#: delta keys with their own handling; every other key of a delta is kept on the raw message
_DELTA_CORE = frozenset({"role", "content", "tool_calls"})


def build_tools(tools: list[ToolDef]) -> list[dict[str, Any]]:
    """``tools`` in the Chat Completions shape (§1.1): ``[{"type": "function", "function": {"name",
    "description", "parameters"}}]``."""
    return [
        {"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
        for t in tools
    ]


def build_messages(config: ProviderConfig, system: str, messages: list[Message]) -> list[dict[str, Any]]:
    """The ``messages`` array for ``config`` from the neutral conversation (``base`` module docstring).

    System prompt first (omitted when empty); user and tool messages mapped field by field (a user message's
    ``images`` as ``image_url`` parts: :func:`~obsigate.agent.providers.image_parts.openai_content`; the images of
    a turn's tool results in one synthetic ``user`` message after its tool messages:
    :func:`~obsigate.agent.providers.image_parts.openai_tool_images`); an assistant message
    is its ``raw`` dict, untouched, when it came from this provider and model (reasoning and signatures must be
    replayed verbatim, §0.2), else rebuilt from ``content`` and ``tool_calls`` (arguments dumped as JSON
    strings; reasoning, which is bound to the model that wrote it, dropped).
    """
    out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    pdf = config.name == "openai"  # OpenAI's own API reads "file" parts; other compatible servers refuse them
    turn_results: list[Message] = []  # the tool messages of the turn being answered
    for msg in messages:
        role = msg.get("role")
        if role != "tool" and turn_results:
            if (images := openai_tool_images(turn_results, pdf=pdf)) is not None:
                out.append(images)
            turn_results = []
        if role == "user":
            out.append(
                {"role": "user", "content": openai_content(msg) if msg.get("images") else msg.get("content", "")}
            )
        elif role == "tool":
            out.append({"role": "tool", "tool_call_id": msg["tool_call_id"], "content": msg.get("content", "")})
            turn_results.append(msg)
        elif role == "assistant":
            raw = msg.get("raw")
            if isinstance(raw, dict) and msg.get("provider") == config.name and msg.get("model") == config.model:
                out.append(raw)
                continue
            calls = msg.get("tool_calls") or []
            text = msg.get("content") or ""
            rebuilt: dict[str, Any] = {"role": "assistant", "content": text if text or not calls else None}
            if calls:
                rebuilt["tool_calls"] = [
                    {"id": c["id"], "type": "function",
                     "function": {"name": c["name"],
                                  "arguments": json.dumps(c.get("arguments") or {}, ensure_ascii=False)}}
                    for c in calls
                ]  # fmt: skip
            out.append(rebuilt)
        elif role == "system":  # not produced by the agent, but harmless to pass through
            out.append({"role": "system", "content": msg.get("content", "")})
    if turn_results and (images := openai_tool_images(turn_results, pdf=pdf)) is not None:
        out.append(images)
    return out


class OpenAICompatProvider:
    """A :class:`~obsigate.agent.providers.base.Provider` for one ``dialect == "openai"`` :class:`ProviderConfig`.

    ``client``: an ``httpx2.AsyncClient`` to share (its owner closes it); none given → one of our own, closed by
    :meth:`aclose`. Timeouts: connect and idle-read ``config.timeout_s`` per request (a local engine's
    non-streamed request: ``config.local_timeout_s``, :meth:`ProviderConfig.read_timeout_s`), the whole turn
    (retries and the llama-cpp-python fallback included) ``config.turn_timeout_s``.
    """

    def __init__(self, config: ProviderConfig, client: httpx2.AsyncClient | None = None) -> None:
        self.config = config
        self._own_client = client is None
        self._client = client or httpx2.AsyncClient(timeout=httpx2.Timeout(config.timeout_s))
        #: (base_url, model) pairs whose server refuses streamed tool turns (llama-cpp-python, §5.2)
        self._no_streamed_tools: set[tuple[str, str]] = set()

    @property
    def _where(self) -> str:
        return f"{self.config.name} ({self.config.model})"

    async def aclose(self) -> None:
        """Close the connection pool (only when this provider created it)."""
        if self._own_client:
            await self._client.aclose()

    async def chat(self, request: ChatRequest, on_delta: OnDelta | None = None) -> Turn:
        """One turn; see :meth:`Provider.chat <obsigate.agent.providers.base.Provider.chat>` for the contract.

        A non-streamed answer (``request.stream`` false, or the llama-cpp-python fallback) reaches ``on_delta``
        once, whole, when it has text.

        Raises:
            ToolsRejected: one of §1.7's refusals of tools.
            ProviderError: ``provider_unavailable`` (unreachable, 5xx after retries, a timeout: idle read
                ``timeout_s`` or the whole turn ``turn_timeout_s``), ``provider_bad_response`` (not JSON, no
                choices, a mid-stream error event, an unknown ``finish_reason``, a cut stream), or the status's
                code (:func:`~obsigate.agent.providers.http.classify`).
        """
        try:
            with anyio.fail_after(self.config.turn_timeout_s):
                return await self._chat(request, on_delta)
        except TimeoutError:
            raise ProviderError(
                f"{self._where} did not complete its answer within {self.config.turn_timeout_s:g} s",
                code="provider_unavailable",
            ) from None

    async def _chat(self, request: ChatRequest, on_delta: OnDelta | None) -> Turn:
        tools = bool(request.tools)
        key = (self.config.base_url, self.config.model)
        stream = request.stream and not (tools and key in self._no_streamed_tools)
        try:
            return await self._send(request, stream, on_delta)
        except ToolsRejected as exc:
            # llama-cpp-python: "Automatic streaming tool choice is not supported" (HTTP 500) refuses the
            # *streaming*, not the tools: ask again without streaming instead of dropping the tools
            if not (stream and tools and "stream" in exc.message.lower()):
                raise
            self._no_streamed_tools.add(key)
            return await self._send(request, False, on_delta)
        except _EmptyStream:
            # Trigger: an event stream that ended without a single event (llama-cpp-python 0.3.36 raises inside
            # its SSE publisher, after the headers: a refused streamed tool turn, a prompt over its n_ctx...).
            # Why: the stream says nothing of the cause, and nothing was shown or generated for us yet.
            # Outcome: asked once more without streaming; that answer, or the server's own error (say 400
            # context_length_exceeded), is the turn's. A tool turn that then succeeds is remembered as that
            # server's refusal of streamed tool turns.
            if not stream:
                raise
            if tools:
                self._no_streamed_tools.add(key)
            try:
                return await self._send(request, False, on_delta)
            except ProviderError:
                self._no_streamed_tools.discard(key)  # not that refusal after all
                raise

    async def _send(self, request: ChatRequest, stream: bool, on_delta: OnDelta | None) -> Turn:
        body: dict[str, Any] = {
            "model": self.config.model,
            "messages": build_messages(self.config, request.system, request.messages),
        }
        if (self.config.base_url, self.config.model) in self._no_streamed_tools:
            # llama-cpp-python validates its own answer's ``"content": null`` (beside tool_calls) as an error
            # (HTTP 500) when it comes back in the history: send "" to that server
            body["messages"] = [
                {**m, "content": ""} if m.get("role") == "assistant" and m.get("content") is None else m
                for m in body["messages"]
            ]
        if request.tools:
            body["tools"] = build_tools(request.tools)
            body["tool_choice"] = request.tool_choice
        if request.max_tokens is not None:
            # OpenAI's reasoning models refuse the older ``max_tokens``; the other servers know only it
            body["max_completion_tokens" if self.config.name == "openai" else "max_tokens"] = request.max_tokens
        if stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        headers = {"accept": "text/event-stream" if stream else "application/json"}
        if self.config.api_key:
            headers["authorization"] = f"Bearer {self.config.api_key}"
        url = f"{self.config.base_url.rstrip('/')}/chat/completions"
        response = await open_response(
            self._client, self.config, url, body=body, headers=headers, tools_sent=bool(request.tools), stream=stream
        )
        try:
            names = {t.name for t in request.tools or []}
            # the content type decides, not what was asked: some servers ignore "stream" either way
            if "text/event-stream" in response.headers.get("content-type", ""):
                return await self._read_stream(response, on_delta, names)
            return await self._read_body(response, on_delta, names)
        except httpx2.TimeoutException:
            raise ProviderError(
                f"{self._where} stopped sending for {self.config.read_timeout_s(stream):g} s",
                code="provider_unavailable",
            ) from None
        except httpx2.TransportError as exc:
            raise ProviderError(
                f"{self._where}: the connection broke before the answer was complete ({type(exc).__name__})",
                code="provider_bad_response",
            ) from None
        finally:
            # shielded: on cancellation the close must still run, so the server sees the hang-up at once
            with anyio.CancelScope(shield=True):
                await response.aclose()

    # --- answers ------------------------------------------------------------------------------------

    async def _read_body(self, response: httpx2.Response, on_delta: OnDelta | None, names: set[str]) -> Turn:
        text = (await response.aread()).decode("utf-8", "replace")
        try:
            data = json.loads(text)  # json.loads skips DeepSeek's leading blank keep-alive lines
        except ValueError:
            raise self._bad(f"the answer is not JSON: {text.strip()[:200]!r}") from None
        if not isinstance(data, dict):
            raise self._bad("the answer is not a JSON object")
        self._check_error(data)
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise self._bad("the answer has no choices")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise self._bad("the answer's first choice has no message")
        finish = choices[0].get("finish_reason")
        if finish is not None and finish not in _FINISHED:
            raise self._bad(f"the answer ended with finish_reason {finish!r}")
        turn = self._turn(dict(message), finish, _usage(data.get("usage")), names)
        if on_delta is not None and turn.text:
            await on_delta(turn.text)
        return turn

    async def _read_stream(self, response: httpx2.Response, on_delta: OnDelta | None, names: set[str]) -> Turn:
        acc = _Accumulator()
        events = 0
        async for data in aiter_sse_data(response):
            events += 1
            if data.strip() == "[DONE]":
                break
            try:
                chunk = json.loads(data)
            except ValueError:
                raise self._bad(f"a stream event is not JSON: {data[:200]!r}") from None
            if not isinstance(chunk, dict):
                raise self._bad("a stream event is not a JSON object")
            self._check_error(chunk)
            piece = acc.add(chunk)
            if piece and on_delta is not None:
                await on_delta(piece)
        if events == 0:
            raise _EmptyStream(f"{self._where}: the stream ended without a single event")
        if acc.finish_reason is None:
            raise self._bad("the stream ended before the answer was complete (no finish_reason)")
        if acc.finish_reason not in _FINISHED:
            raise self._bad(f"the stream ended with finish_reason {acc.finish_reason!r}")
        return self._turn(acc.message(), acc.finish_reason, acc.usage, names)

    def _turn(self, raw: dict[str, Any], finish: str | None, usage: Usage, names: set[str]) -> Turn:
        """The :class:`Turn` for ``raw`` (a ``choices[0].message``), whose tool calls without an id get one."""
        content = raw.get("content")
        if isinstance(content, list):  # some servers answer with text parts
            text = "".join(p.get("text") or "" for p in content if isinstance(p, dict))
        else:
            text = content if isinstance(content, str) else ""
        calls: list[ToolCall] = []
        raw_calls = raw.get("tool_calls")
        if isinstance(raw_calls, list) and raw_calls:
            raw["tool_calls"] = raw_calls = [dict(c) if isinstance(c, dict) else {} for c in raw_calls]
            for rc in raw_calls:
                if not rc.get("id"):
                    rc["id"] = f"call_{secrets.token_hex(8)}"  # so the tool result can name the call it answers
                calls.append(_tool_call(rc, names))
        message: Message = {
            "role": "assistant",
            "content": text,
            "tool_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments or {}} for c in calls],
            "raw": raw,
            "provider": self.config.name,
            "model": self.config.model,
        }
        return Turn(message=message, text=text, tool_calls=calls, finish_reason=finish, usage=usage)

    # --- failures -----------------------------------------------------------------------------------

    def _bad(self, why: str) -> ProviderError:
        if self.config.api_key:  # ``why`` may quote the body, and a body may echo the key
            why = why.replace(self.config.api_key, "***")
        return ProviderError(f"{self._where}: {why}", code="provider_bad_response")

    def _check_error(self, data: dict[str, Any]) -> None:
        """Raise for an error object sent with HTTP 200: ``{"error": {...}}`` (OpenAI, OpenRouter, vLLM, SGLang)
        or vLLM's older flat ``{"object": "error", "message", "code"}`` (§1.6, §1.8)."""
        error = data.get("error")
        if not error and data.get("object") != "error":
            return
        body = json.dumps(data)
        if self.config.api_key:
            body = body.replace(self.config.api_key, "***")
        holder = error if isinstance(error, dict) else data
        status = holder.get("code") if isinstance(holder, dict) else None
        if isinstance(status, str) and status.isdigit():
            status = int(status)
        if isinstance(status, int) and not isinstance(status, bool) and 400 <= status < 600:
            mapped = classify(status, body, tools_sent=False, provider=self.config.name, model=self.config.model)
            if isinstance(mapped, ProviderError):
                if mapped.code == "provider_rate_limited":
                    mapped.details["retry_after"] = 1  # the contract of the code; no header mid-stream
                raise mapped
        raise self._bad(f"the provider reported an error: {error_message(body)}")


class _EmptyStream(ProviderError):
    """An event stream that ended cleanly without a single ``data:`` event (not even ``[DONE]``): the turn is
    asked again without streaming (module docstring); a ``provider_bad_response`` only if that, too, answers
    with such a stream."""

    code = "provider_bad_response"


class _Accumulator:
    """Rebuilds ``choices[0].message`` from stream chunks (§1.5, §1.6)."""

    def __init__(self) -> None:
        self.role = "assistant"
        self.text: list[str] = []
        self.extra: dict[str, Any] = {}
        self.calls: list[dict[str, Any]] = []
        self.by_index: dict[int, dict[str, Any]] = {}
        self.current: dict[str, Any] | None = None
        self.finish_reason: str | None = None
        self.usage = Usage()

    def add(self, chunk: dict[str, Any]) -> str:
        """Merge one chunk; returns its answer text (``""`` when none)."""
        if isinstance(chunk.get("usage"), dict):  # the choices: [] / choices: null chunk, or the finish chunk
            self.usage = _usage(chunk["usage"])
        piece = ""
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            if isinstance(delta, dict):
                piece += self._delta(delta)
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
        return piece

    def _delta(self, delta: dict[str, Any]) -> str:
        if isinstance(delta.get("role"), str):
            self.role = delta["role"]
        for key, value in delta.items():
            if key == "reasoning_details" and isinstance(value, list):
                self._reasoning_details(value)
            elif key not in _DELTA_CORE and value is not None:
                _merge(self.extra, key, value)  # reasoning_content, reasoning, refusal...
        for fragment in delta.get("tool_calls") or []:
            if isinstance(fragment, dict):
                self._tool_fragment(fragment)
        content = delta.get("content")
        if isinstance(content, str) and content:
            self.text.append(content)
            return content
        return ""

    def _reasoning_details(self, items: list[Any]) -> None:
        """OpenRouter streams ``reasoning_details`` items in pieces that share ``type`` and ``index``: their
        ``text``/``summary``/``data`` concatenate, other fields are set (as Roo-Code#9506 rebuilds them; the
        merged list is what must be sent back, §1.10)."""
        merged: list[Any] = self.extra.setdefault("reasoning_details", [])
        for item in items:
            index = item.get("index") if isinstance(item, dict) else None
            same = None
            if isinstance(index, int):
                same = next((m for m in merged if isinstance(m, dict) and m.get("index") == index
                             and m.get("type") == item.get("type")), None)  # fmt: skip
            if same is None:
                merged.append(dict(item) if isinstance(item, dict) else item)
                continue
            for key, value in item.items():
                if key in ("text", "summary", "data") and isinstance(value, str):
                    same[key] = (same.get(key) or "") + value
                elif value is not None:
                    same[key] = value

    def _tool_fragment(self, fragment: dict[str, Any]) -> None:
        index = fragment.get("index")
        new_id = fragment.get("id") or ""
        if isinstance(index, int):
            slot = self.by_index.get(index)
            # Ollama: every parallel call at index 0, told apart only by a new id
            if slot is None or (new_id and slot["id"] and new_id != slot["id"]):
                slot = self._open()
                self.by_index[index] = slot
        else:  # old Ollama: no index at all, the fragment continues the current call unless it has a new id
            slot = self.current
            if slot is None or (new_id and slot["id"] and new_id != slot["id"]):
                slot = self._open()
        self.current = slot
        if new_id and not slot["id"]:
            slot["id"] = new_id
        if isinstance(fragment.get("type"), str):
            slot["type"] = fragment["type"]
        function = fragment.get("function")
        if isinstance(function, dict):
            name = function.get("name")
            if isinstance(name, str) and name and name != slot["function"]["name"]:
                slot["function"]["name"] += name  # whole once (OpenAI), repeated or in pieces elsewhere
            arguments = function.get("arguments")
            if isinstance(arguments, str):
                slot["function"]["arguments"] += arguments
            elif isinstance(arguments, dict):  # a server that sends the object itself
                slot["function"]["arguments"] = json.dumps(arguments, ensure_ascii=False)
        for key, value in fragment.items():
            if key not in ("index", "id", "type", "function") and value is not None:
                _merge(slot, key, value)  # extra_content (Gemini's thought signature through OpenAI)...

    def _open(self) -> dict[str, Any]:
        slot: dict[str, Any] = {"id": "", "type": "function", "function": {"name": "", "arguments": ""}}
        self.calls.append(slot)
        return slot

    def message(self) -> dict[str, Any]:
        """The assistant message as the non-streamed answer would have had it (§1.2)."""
        text = "".join(self.text)
        message: dict[str, Any] = {"role": self.role, "content": text if text or not self.calls else None}
        message.update(self.extra)
        if self.calls:
            message["tool_calls"] = self.calls
        return message


def _merge(target: dict[str, Any], key: str, value: Any) -> None:
    """Streamed extras: text fields concatenate, arrays extend, anything else replaces."""
    old = target.get(key)
    if isinstance(old, str) and isinstance(value, str):
        target[key] = old + value
    elif isinstance(old, list) and isinstance(value, list):
        old.extend(value)
    else:
        target[key] = list(value) if isinstance(value, list) else value


def _usage(data: Any) -> Usage:
    if not isinstance(data, dict):
        return Usage()

    def count(name: str) -> int:
        value = data.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    prompt, completion = count("prompt_tokens"), count("completion_tokens")
    details = data.get("prompt_tokens_details")
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    if not isinstance(cached, int) or isinstance(cached, bool):
        cached = count("prompt_cache_hit_tokens")  # DeepSeek's own field (llm.md §1.9)
    return Usage(prompt, completion, count("total_tokens") or prompt + completion, min(max(cached, 0), prompt))


def _tool_call(raw: dict[str, Any], names: set[str]) -> ToolCall:
    """The :class:`ToolCall` of one raw call; its ``error`` says why it cannot run (§1.2, §1.6)."""
    function = f if isinstance(f := raw.get("function"), dict) else {}
    name = n if isinstance(n := function.get("name"), str) else ""
    arguments = function.get("arguments")
    call = ToolCall(id=raw["id"], name=name, arguments=None)
    if not name:
        call.error = "the tool call has no function name"
        return call
    if names and name not in names:
        call.error = f"unknown tool {name!r}; the tools offered are: {', '.join(sorted(names))}"
        return call
    if isinstance(arguments, dict):
        call.arguments = arguments
        return call
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        call.arguments = {}  # some servers send "" for a call without arguments
        return call
    if not isinstance(arguments, str):
        call.error = f"invalid JSON arguments: expected a JSON object, got {type(arguments).__name__}"
        return call
    try:
        parsed = json.loads(arguments)
    except ValueError as exc:
        call.error = f"invalid JSON arguments: {exc}"
        return call
    if not isinstance(parsed, dict):
        call.error = f"invalid JSON arguments: expected a JSON object, got {type(parsed).__name__}"
        return call
    call.arguments = parsed
    return call
