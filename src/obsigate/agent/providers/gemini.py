"""The native Google Gemini client: ``generateContent`` / ``streamGenerateContent`` over raw httpx2.

Wire format: ``llm.md`` §2 (endpoint and auth §2.1, request body §2.2, schemas §2.3, function calls and
responses §2.4, ``thoughtSignature`` rules §2.5, streaming §2.6, errors §2.7), itself from
<https://ai.google.dev/gemini-api/docs/function-calling>, <https://ai.google.dev/gemini-api/docs/thought-signatures>
and google-genai 3.6.1 (``google/genai/types.py``, ``_api_client.py``).

The two things that break Gemini agents elsewhere, and how this module handles them:

* The model's ``content`` is kept whole as the assistant message's ``raw`` (every part, in order, each
  ``thoughtSignature`` on the part it came on, empty-text parts included) and replayed verbatim while the
  provider and model stay the same. A message from another provider or model is rebuilt without signatures;
  a rebuilt step of the current turn that calls functions gets the documented dummy signature on its first
  call (§2.5), or Gemini 3 answers 400 "Function call is missing a thought_signature".
* A stream only counts when a chunk carried a ``finishReason``: a cut connection is an error, never a short
  answer, and its function calls are never returned.
"""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import quote

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
from obsigate.agent.providers.http import classify, open_response
from obsigate.agent.providers.image_parts import gemini_parts, gemini_response_parts
from obsigate.agent.providers.schemas import gemini_schema
from obsigate.agent.providers.sse import SSEDecoder

__all__ = ["SKIP_SIGNATURE", "GeminiProvider", "request_body"]

#: The value the thought-signatures page documents for a function call Gemini did not produce itself (§2.5).
SKIP_SIGNATURE = "skip_thought_signature_validator"
_NORMAL_FINISH = {"STOP", "MAX_TOKENS"}
_BLOCKED_FINISH = {
    "SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_RECITATION", "LANGUAGE",
}  # fmt: skip
_CALL_FINISH = {"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS", "MISSING_THOUGHT_SIGNATURE"}


class GeminiProvider:
    """:class:`~obsigate.agent.providers.base.Provider` for a ``dialect="gemini"`` :class:`ProviderConfig`.

    ``config.base_url`` includes the API version (``https://generativelanguage.googleapis.com/v1beta``);
    requests go to ``{base_url}/models/{model}:generateContent`` or ``:streamGenerateContent?alt=sse`` with
    the key in ``x-goog-api-key`` (§2.1). ``client``: an httpx2 client to use (not closed by :meth:`aclose`);
    none given, one is made with ``config.timeout_s`` as connect, read (idle), write and pool timeout.
    """

    def __init__(self, config: ProviderConfig, client: httpx2.AsyncClient | None = None) -> None:
        if config.dialect != "gemini":
            raise ValueError(f"GeminiProvider needs a gemini-dialect config, not {config.dialect!r}")
        self.config = config
        self._own_client = client is None
        self._client = client or httpx2.AsyncClient(timeout=httpx2.Timeout(config.timeout_s))

    async def aclose(self) -> None:
        """Close the connection pool (only when this provider made its client)."""
        if self._own_client:
            await self._client.aclose()

    def url(self, stream: bool) -> str:
        """The endpoint for one turn (``models/`` prefix of ``config.model`` tolerated)."""
        model = quote(self.config.model.removeprefix("models/"), safe="-._~")
        method = "streamGenerateContent?alt=sse" if stream else "generateContent"
        return f"{self.config.base_url.rstrip('/')}/models/{model}:{method}"

    async def chat(self, request: ChatRequest, on_delta: OnDelta | None = None) -> Turn:
        """Send ``request``; return the complete :class:`Turn` (``message.raw``: the model's ``content``
        object; ``finish_reason``: Gemini's own, ``STOP`` or ``MAX_TOKENS``). ``on_delta`` gets each piece of
        answer text (thought parts never) while streaming.

        Retries: 429/5xx and connection failures before the body starts (:func:`http.open_response`).
        The whole turn, retries included, is bounded by ``config.turn_timeout_s``.

        Raises:
            ProviderError: ``provider_auth_failed`` (401/403, 400 ``API_KEY_INVALID``), ``model_not_found``
                (404), ``provider_rate_limited`` (429 after retries), ``provider_unavailable`` (5xx after
                retries, unreachable, idle read past ``timeout_s``, turn past ``turn_timeout_s``),
                ``context_length_exceeded``, ``provider_bad_response`` (other 4xx such as a schema keyword
                Gemini refuses; a blocked prompt or answer; ``MALFORMED_FUNCTION_CALL`` and other call
                failures; an error inside the stream; a stream cut before a ``finishReason``).
            ToolsRejected: a 4xx saying the model takes no function calling (``llm.md`` §1.7 patterns).
            anyio.get_cancelled_exc_class(): the caller was cancelled; the upstream response is closed first.
        """
        config = self.config
        body = request_body(config, request)
        tools_sent = bool(body.get("tools"))
        headers = {"x-goog-api-key": config.api_key} if config.api_key else {}
        first_id = 1 + sum(len(m.get("tool_calls") or []) for m in request.messages if m.get("role") == "assistant")
        assembly = _Assembly(config, tools_sent, first_id)
        try:
            with anyio.fail_after(config.turn_timeout_s):
                response = await open_response(
                    self._client, config, self.url(request.stream), body=body, headers=headers,
                    tools_sent=tools_sent, stream=request.stream,
                )  # fmt: skip
                try:
                    if request.stream:
                        await _read_stream(response, assembly, on_delta)
                    else:
                        assembly.add_payload((await response.aread()).decode("utf-8", "replace"))
                finally:
                    with anyio.CancelScope(shield=True):  # the caller's cancel must still hang up upstream
                        await response.aclose()
        except TimeoutError:
            raise ProviderError(
                f"{config.name} ({config.model}) did not finish the answer within {config.turn_timeout_s:g} s",
                code="provider_unavailable",
            ) from None
        except httpx2.TimeoutException:
            raise ProviderError(
                f"{config.name} ({config.model}) sent nothing for {config.read_timeout_s(request.stream):g} s",
                code="provider_unavailable",
            ) from None
        except (httpx2.RemoteProtocolError, httpx2.ReadError) as exc:
            raise ProviderError(
                f"{config.name} ({config.model}) dropped the connection mid-answer ({type(exc).__name__})",
                code="provider_bad_response",
            ) from None
        return assembly.turn()


# --- request --------------------------------------------------------------------------------------------


def request_body(config: ProviderConfig, request: ChatRequest) -> dict[str, Any]:
    """The JSON body of ``generateContent`` for ``request`` (§2.2): ``systemInstruction``, ``contents`` built
    from the neutral messages (see the module docstring of ``providers.base``), and, with tools,
    ``tools[0].functionDeclarations`` (``parametersJsonSchema`` converted by :func:`gemini_schema`; left out
    for a tool without parameters) and ``toolConfig.functionCallingConfig.mode`` (``AUTO``, or ``NONE`` for
    ``tool_choice="none"``); ``generationConfig.maxOutputTokens`` for ``max_tokens``."""
    body: dict[str, Any] = {"contents": _contents(config, request.messages)}
    if request.system:
        body["systemInstruction"] = {"parts": [{"text": request.system}]}
    if request.tools:
        body["tools"] = [{"functionDeclarations": [_declaration(t) for t in request.tools]}]
        body["toolConfig"] = {"functionCallingConfig": {"mode": "NONE" if request.tool_choice == "none" else "AUTO"}}
    if request.max_tokens is not None:
        body["generationConfig"] = {"maxOutputTokens": request.max_tokens}
    return body


def _declaration(tool: ToolDef) -> dict[str, Any]:
    declaration: dict[str, Any] = {"name": tool.name, "description": tool.description}
    schema = gemini_schema(tool.parameters)
    if schema.get("properties"):  # an OBJECT with no properties was a 400 on the schema field: omit instead
        declaration["parametersJsonSchema"] = schema
    return declaration


def _contents(config: ProviderConfig, messages: list[Message]) -> list[dict[str, Any]]:
    # §2.5: signatures are validated from the last user message with real content (not a functionResponse)
    # onwards; in the neutral form every "user" message is such a message, tool results are role "tool".
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    contents: list[dict[str, Any]] = []
    previous: Message | None = None  # the assistant message the next tool results answer
    echo_ids: set[str] = set()  # call ids Gemini itself gave in `previous` (only those go back)
    i = 0
    while i < len(messages):
        msg = messages[i]
        role = msg.get("role")
        if role == "user":
            parts = gemini_parts(msg)  # {"text"}, then its images as inlineData parts
            last = contents[-1] if contents else None
            if last is not None and last["role"] == "user" and not any("functionResponse" in p for p in last["parts"]):
                last["parts"].extend(parts)  # a question left unanswered (its turn failed): turns must alternate
            else:
                contents.append({"role": "user", "parts": parts})
            i += 1
        elif role == "assistant":
            previous = msg
            content, echo_ids = _model_content(config, msg, current=i > last_user)
            if content is not None:
                contents.append(content)
            i += 1
        elif role == "tool":
            group: list[Message] = []
            while i < len(messages) and messages[i].get("role") == "tool":
                group.append(messages[i])
                i += 1
            calls = (previous or {}).get("tool_calls") or []
            order = {c.get("id"): n for n, c in enumerate(calls)}
            names = {c.get("id"): c.get("name") for c in calls}
            group.sort(key=lambda t: order.get(t.get("tool_call_id"), len(order)))  # stable: unknown ids keep order
            parts = [_function_response(t, names, echo_ids) for t in group]
            contents.append({"role": "user", "parts": parts})
        else:
            i += 1  # no other role exists in the neutral form
    return contents


def _model_content(config: ProviderConfig, msg: Message, *, current: bool) -> tuple[dict[str, Any] | None, set[str]]:
    """The ``model`` content for an assistant message and the call ids to echo in its responses."""
    raw = msg.get("raw")
    if (
        msg.get("provider") == config.name
        and msg.get("model") == config.model
        and isinstance(raw, dict)
        and isinstance(raw.get("parts"), list)
        and raw["parts"]
    ):
        content = copy.deepcopy(raw)  # verbatim: parts, order, signatures, empty-text parts
        content.setdefault("role", "model")
        ids = {
            str(p["functionCall"]["id"])
            for p in raw["parts"]
            if isinstance(p, dict) and isinstance(p.get("functionCall"), dict) and p["functionCall"].get("id")
        }
        return content, ids
    # another provider or model: rebuild from the neutral fields, no signatures (they are bound to the model)
    parts: list[dict[str, Any]] = []
    if msg.get("content"):
        parts.append({"text": str(msg["content"])})
    for n, call in enumerate(msg.get("tool_calls") or []):
        args = call.get("arguments")
        function = {"name": str(call.get("name") or ""), "args": args if isinstance(args, dict) else {}}
        part: dict[str, Any] = {"functionCall": function}
        if current and n == 0:
            part["thoughtSignature"] = SKIP_SIGNATURE
        parts.append(part)
    if not parts:
        return None, set()  # an empty model turn: Gemini refuses a content without parts
    return {"role": "model", "parts": parts}, set()


def _function_response(msg: Message, names: dict[Any, Any], echo_ids: set[str]) -> dict[str, Any]:
    """One ``functionResponse`` part; ``response`` is always an object (§2.4)."""
    text = msg.get("content")
    try:
        value: Any = json.loads(text) if isinstance(text, str) else text
    except ValueError:
        value = text
    response = value if isinstance(value, dict) and "error" in value else {"result": value}
    call_id = msg.get("tool_call_id")
    name = msg.get("name") or names.get(call_id) or ""
    out: dict[str, Any] = {"name": str(name), "response": response}
    if isinstance(call_id, str) and call_id in echo_ids:
        out["id"] = call_id
    if media := gemini_response_parts(msg):  # the result's images, where the model reads them (arsenal §a)
        out["parts"] = media
    return {"functionResponse": out}


# --- response -------------------------------------------------------------------------------------------


class _Assembly:
    """One turn being put together from one response body or many stream chunks."""

    def __init__(self, config: ProviderConfig, tools_sent: bool, first_id: int) -> None:
        self.config = config
        self.tools_sent = tools_sent
        self.first_id = first_id
        self.role = "model"
        self.parts: list[dict[str, Any]] = []
        self.finish: str | None = None
        self.finish_message: str | None = None
        self.usage: dict[str, Any] = {}
        self.streamed = False  # some text already went to on_delta

    def _where(self) -> str:
        return f"{self.config.name} ({self.config.model})"

    def bad(self, message: str) -> ProviderError:
        return ProviderError(f"{self._where()} {message}", code="provider_bad_response")

    def add_payload(self, text: str) -> str:
        """Take one JSON payload (a whole response, a stream event, or raw error JSON); return its answer text."""
        try:
            data: Any = json.loads(text)
        except ValueError:
            raise self.bad(f"sent an unreadable response: {text[:200]!r}") from None
        items = data if isinstance(data, list) else [data]  # the stream may wrap an error in a one-item list
        return "".join(self.add_chunk(item, text) for item in items)

    def add_chunk(self, chunk: Any, text: str) -> str:
        if not isinstance(chunk, dict):
            raise self.bad(f"sent an unexpected response: {text[:200]!r}")
        if "error" in chunk:
            raise self._error(chunk, text)
        if isinstance(chunk.get("usageMetadata"), dict):
            self.usage = chunk["usageMetadata"]
        candidates = chunk.get("candidates")
        if not isinstance(candidates, list) or not candidates:
            feedback = chunk.get("promptFeedback")
            if isinstance(feedback, dict) and feedback.get("blockReason"):
                detail = feedback.get("blockReasonMessage") or feedback["blockReason"]
                raise self.bad(f"blocked the prompt ({detail}); rephrase the request")
            return ""
        candidate = candidates[0] if isinstance(candidates[0], dict) else {}
        content = candidate.get("content")
        delta: list[str] = []
        if isinstance(content, dict):
            if isinstance(content.get("role"), str):
                self.role = content["role"]
            for part in content.get("parts") or []:
                if not isinstance(part, dict):
                    continue
                self._append(part)
                if isinstance(part.get("text"), str) and not part.get("thought"):
                    delta.append(part["text"])
        if candidate.get("finishReason"):
            self.finish = str(candidate["finishReason"])
            if isinstance(candidate.get("finishMessage"), str):
                self.finish_message = candidate["finishMessage"]
        return "".join(delta)

    def _append(self, part: dict[str, Any]) -> None:
        # Adjacent plain text parts may merge (streamed deltas); anything carrying a signature, a thought flag
        # or a call stays its own part, in place, so replay puts each signature where it came (§2.5).
        if self.parts and set(part) == {"text"} and set(self.parts[-1]) == {"text"}:
            self.parts[-1] = {"text": self.parts[-1]["text"] + part["text"]}
        else:
            self.parts.append(part)

    def _error(self, chunk: dict[str, Any], text: str) -> Exception:
        """An error object inside a 200 body (``data:`` event or raw JSON, §2.6) mapped like an HTTP error."""
        err = chunk.get("error")
        code = err.get("code") if isinstance(err, dict) else None
        status = code if isinstance(code, int) and 400 <= code < 600 else 500
        error = classify(status, text, tools_sent=self.tools_sent, provider=self.config.name, model=self.config.model)
        if isinstance(error, ToolsRejected) and self.streamed:  # too late to retry without tools
            return self.bad(f"failed mid-answer: {error.message}")
        return error

    def turn(self) -> Turn:
        """The finished :class:`Turn`, or the :class:`ProviderError` the finish reason means."""
        finish = self.finish
        note = f": {self.finish_message}" if self.finish_message else ""
        if finish is None:
            raise self.bad("ended the answer without a finish reason (connection dropped?); nothing was kept")
        if finish in _BLOCKED_FINISH:
            raise self.bad(f"blocked the answer ({finish}){note}")
        if finish in _CALL_FINISH:
            raise self.bad(f"produced an invalid function call ({finish}){note}")
        if finish not in _NORMAL_FINISH:
            raise self.bad(f"stopped with finish reason {finish}{note}")
        text = "".join(p["text"] for p in self.parts if isinstance(p.get("text"), str) and not p.get("thought"))
        calls: list[ToolCall] = []
        for part in self.parts:
            call = part.get("functionCall")
            if call is None:
                continue
            calls.append(self._tool_call(call, self.first_id + len(calls)))
        usage = self.usage
        prompt = _int(usage.get("promptTokenCount"))
        completion = _int(usage.get("candidatesTokenCount")) + _int(usage.get("thoughtsTokenCount"))
        total = _int(usage.get("totalTokenCount")) or prompt + completion
        cached = max(0, min(_int(usage.get("cachedContentTokenCount")), prompt))  # part of the prompt, already counted
        message: Message = {
            "role": "assistant",
            "content": text,
            "tool_calls": [{"id": c.id, "name": c.name, "arguments": c.arguments or {}} for c in calls],
            "raw": {"role": self.role, "parts": self.parts},
            "provider": self.config.name,
            "model": self.config.model,
        }
        return Turn(message=message, text=text, tool_calls=calls, finish_reason=finish,
                    usage=Usage(prompt, completion, total, cached))  # fmt: skip

    @staticmethod
    def _tool_call(call: Any, number: int) -> ToolCall:
        if not isinstance(call, dict):
            return ToolCall(f"gemini-call-{number}", "", None, "the function call is not an object")
        given = call.get("id")
        call_id = given if isinstance(given, str) and given else f"gemini-call-{number}"
        name = call.get("name") if isinstance(call.get("name"), str) else ""
        args = call.get("args", {})  # Gemini leaves `args` out for a call without arguments
        if not name:
            return ToolCall(call_id, "", None, "the function call has no name")
        if not isinstance(args, dict):
            return ToolCall(call_id, name, None, f"the arguments are not a JSON object: {json.dumps(args)[:200]}")
        return ToolCall(call_id, name, args)


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


async def _read_stream(response: httpx2.Response, assembly: _Assembly, on_delta: OnDelta | None) -> None:
    async for payload in _sse_payloads(response):
        delta = assembly.add_payload(payload)
        if delta and on_delta is not None:
            assembly.streamed = True
            await on_delta(delta)


async def _sse_payloads(response: httpx2.Response) -> AsyncIterator[str]:
    """The payloads of ``response``'s SSE body (:class:`~obsigate.agent.providers.sse.SSEDecoder`; no ``[DONE]``
    in Gemini), plus any raw JSON that is not ``data:``-prefixed (an error Google writes straight into the body,
    possibly over several lines, as google-genai ``_api_client.py`` expects), yielded once it parses (or at the
    end, as it is)."""
    decoder = SSEDecoder()
    async for chunk in response.aiter_bytes():
        for event in decoder.feed(chunk):
            yield event.data
        if decoder.other_lines:
            joined = "\n".join(decoder.other_lines)
            try:
                json.loads(joined)
            except ValueError:
                continue
            decoder.other_lines.clear()
            yield joined
    if decoder.other_lines:
        yield "\n".join(decoder.other_lines)
