"""Scripted Gemini answers for :class:`fakes.llm_server.FakeLLM` (``llm.md`` §2.4–§2.7, §4.3 items 7–12).

Building blocks return plain dicts (a part, a ``GenerateContentResponse`` chunk, usage); the ``stream_*``
helpers return a streamed :class:`Reply` (``data: <json>`` events separated by ``\\r\\n\\r\\n`` as Google sends
them, no ``[DONE]``), ``generate`` a non-streamed one, ``error`` and its named variants the real error bodies.

Typical use::

    fake.add(stream_calls([("read_file", {"vault": "v", "path": "a.md"})], text="Let me look.", signature="c2ln"),
             stream_text(["It says ", "hello."]))

Signatures are opaque base64 strings; ``"c2ln"`` is base64 of ``sig``.
"""

from __future__ import annotations

import json
from typing import Any

from fakes.llm_server import Reply

SEP = b"\r\n\r\n"

# --- building blocks ------------------------------------------------------------------------------------


def text_part(text: str, *, signature: str | None = None, thought: bool = False) -> dict[str, Any]:
    """A text part; ``thought=True`` makes it a thought summary, ``signature`` adds a ``thoughtSignature``."""
    part: dict[str, Any] = {"text": text}
    if thought:
        part["thought"] = True
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def call_part(
    name: str, args: Any = None, *, signature: str | None = None, call_id: str | None = None
) -> dict[str, Any]:
    """A ``functionCall`` part (``args`` None: left out, as Gemini does for a call without arguments)."""
    call: dict[str, Any] = {"name": name}
    if args is not None:
        call["args"] = args
    if call_id is not None:
        call["id"] = call_id
    part: dict[str, Any] = {"functionCall": call}
    if signature is not None:
        part["thoughtSignature"] = signature
    return part


def usage(prompt: int = 10, candidates: int = 5, thoughts: int = 0, cached: int = 0) -> dict[str, int]:
    """A ``usageMetadata`` object (total = the sum); ``cached``: ``cachedContentTokenCount`` (part of ``prompt``)."""
    total = prompt + candidates + thoughts
    out = {"promptTokenCount": prompt, "candidatesTokenCount": candidates, "totalTokenCount": total}
    if thoughts:
        out["thoughtsTokenCount"] = thoughts
    if cached:
        out["cachedContentTokenCount"] = cached
    return out


def chunk(
    parts: list[dict[str, Any]] | None = None,
    *,
    finish: str | None = None,
    usage_metadata: dict[str, Any] | None = None,
    finish_message: str | None = None,
) -> dict[str, Any]:
    """One ``GenerateContentResponse``: a candidate with ``parts`` (role ``model``), an optional
    ``finishReason`` (+ ``finishMessage``) and ``usageMetadata``."""
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts or [])}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    if finish_message is not None:
        candidate["finishMessage"] = finish_message
    out: dict[str, Any] = {"candidates": [candidate], "modelVersion": "gemini-fake", "responseId": "r1"}
    if usage_metadata is not None:
        out["usageMetadata"] = usage_metadata
    return out


def event(data: Any) -> bytes:
    """One SSE event with Google's separator."""
    return b"data: " + json.dumps(data).encode() + SEP


def sse(
    *chunks: dict[str, Any] | bytes, delay_s: float = 0.0, close_early: bool = False, before_s: float = 0.0
) -> Reply:
    """A streamed reply of ``chunks`` (dicts become ``data:`` events, bytes are written as they are), one TCP
    write each after ``delay_s``; ``close_early`` cuts the connection after the last one."""
    body = [c if isinstance(c, bytes) else event(c) for c in chunks]
    return Reply(chunks=body, sse=True, delay_s=delay_s, close_early=close_early, before_s=before_s)


# --- streamed answers -----------------------------------------------------------------------------------


def stream_text(
    pieces: list[str],
    *,
    signature: str | None = None,
    finish: str = "STOP",
    usage_metadata: dict[str, Any] | None = None,
    thought: str | None = None,
    delay_s: float = 0.0,
) -> Reply:
    """A text answer streamed one piece per chunk, then a final chunk with ``finishReason`` and usage.
    ``signature``: carried by an EMPTY text part in the final chunk (as Gemini 3 does, §2.5). ``thought``: a
    thought-summary part first (never answer text)."""
    chunks: list[dict[str, Any]] = []
    if thought is not None:
        chunks.append(chunk([text_part(thought, thought=True)]))
    chunks += [chunk([text_part(p)]) for p in pieces]
    final_parts = [text_part("", signature=signature)] if signature is not None else []
    chunks.append(chunk(final_parts, finish=finish, usage_metadata=usage_metadata or usage()))
    return sse(*chunks, delay_s=delay_s)


def stream_calls(
    calls: list[tuple[str, Any]] | list[tuple[str, Any, str]],
    *,
    text: str | None = None,
    signature: str | None = "c2ln",
    finish: str = "STOP",
    usage_metadata: dict[str, Any] | None = None,
    delay_s: float = 0.0,
) -> Reply:
    """Optional ``text`` chunk, then ONE chunk with a ``functionCall`` part per ``(name, args)`` or
    ``(name, args, id)`` (only the first carries ``signature``: parallel calls, §2.5), then a final chunk with
    ``finishReason`` (``STOP``: Gemini has no tool-call finish reason) and usage."""
    chunks: list[dict[str, Any]] = []
    if text is not None:
        chunks.append(chunk([text_part(text)]))
    parts = []
    for n, call in enumerate(calls):
        name, args, *rest = call
        parts.append(call_part(name, args, signature=signature if n == 0 else None, call_id=rest[0] if rest else None))
    chunks.append(chunk(parts))
    chunks.append(chunk([], finish=finish, usage_metadata=usage_metadata or usage()))
    return sse(*chunks, delay_s=delay_s)


def stream_finish(reason: str, *, text: str | None = None, message: str | None = None) -> Reply:
    """A stream ending with ``reason`` (``MALFORMED_FUNCTION_CALL``, ``SAFETY``, ``RECITATION``...) after an
    optional ``text`` chunk; ``message``: the ``finishMessage``."""
    chunks = [chunk([text_part(text)])] if text is not None else []
    chunks.append(chunk([], finish=reason, finish_message=message, usage_metadata=usage()))
    return sse(*chunks)


def stream_blocked(reason: str = "SAFETY") -> Reply:
    """A blocked prompt: one chunk with no candidates and ``promptFeedback.blockReason``."""
    return sse({"promptFeedback": {"blockReason": reason}, "usageMetadata": usage(candidates=0)})


def stream_dropped(pieces: list[str], *, calls: list[tuple[str, Any]] | None = None) -> Reply:
    """Text chunks (and optionally a chunk of calls), then the connection is cut: no ``finishReason`` ever."""
    chunks: list[dict[str, Any]] = [chunk([text_part(p)]) for p in pieces]
    if calls:
        chunks.append(chunk([call_part(n, a, signature="c2ln" if i == 0 else None) for i, (n, a) in enumerate(calls)]))
    return sse(*chunks, close_early=True)


def stream_ended(pieces: list[str]) -> Reply:
    """Text chunks, then a clean end of body without any ``finishReason`` (a proxy that ended the stream)."""
    return sse(*[chunk([text_part(p)]) for p in pieces])


def stream_raw_error(
    status: int = 429, status_name: str = "RESOURCE_EXHAUSTED", message: str = "Resource has been exhausted",
    *, pieces: list[str] | None = None,
) -> Reply:  # fmt: skip
    """Optional text chunks, then an error written RAW into the 200 body (pretty-printed JSON over several
    lines, wrapped in a list, no ``data:`` prefix), as google-genai's stream reader expects (§2.6)."""
    chunks: list[dict[str, Any] | bytes] = [chunk([text_part(p)]) for p in pieces or []]
    raw = json.dumps([error_body(status, status_name, message)], indent=2).replace("\n", "\r\n")
    chunks.append(raw.encode() + b"\r\n")
    return sse(*chunks)


def stream_data_error(status: int = 500, status_name: str = "INTERNAL", message: str = "An internal error has occurred.",
                      *, pieces: list[str] | None = None) -> Reply:  # fmt: skip
    """Optional text chunks, then ``data: {"error": {...}}`` in the 200 stream."""
    chunks: list[dict[str, Any] | bytes] = [chunk([text_part(p)]) for p in pieces or []]
    chunks.append(error_body(status, status_name, message))
    return sse(*chunks)


# --- non-streamed answers -------------------------------------------------------------------------------


def generate(
    parts: list[dict[str, Any]] | None = None,
    *,
    text: str | None = None,
    finish: str = "STOP",
    usage_metadata: dict[str, Any] | None = None,
) -> Reply:
    """A ``generateContent`` answer: ``parts`` as given, or one text part of ``text``."""
    if parts is None:
        parts = [text_part(text or "")]
    return Reply.json(chunk(parts, finish=finish, usage_metadata=usage_metadata or usage()))


def generate_blocked(reason: str = "PROHIBITED_CONTENT") -> Reply:
    """A non-streamed blocked prompt (no candidates, ``promptFeedback.blockReason``)."""
    return Reply.json({"promptFeedback": {"blockReason": reason}, "usageMetadata": usage(candidates=0)})


# --- errors (real shapes, §2.7) -------------------------------------------------------------------------


def error_body(
    status: int, status_name: str, message: str, details: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """``{"error": {"code", "message", "status"[, "details"]}}``."""
    err: dict[str, Any] = {"code": status, "message": message, "status": status_name}
    if details:
        err["details"] = details
    return {"error": err}


def error(
    status: int,
    status_name: str,
    message: str,
    *,
    details: list[dict[str, Any]] | None = None,
    retry_after: str | None = None,
) -> Reply:
    """An HTTP error reply with Google's body; ``retry_after`` sets the ``Retry-After`` header."""
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    return Reply.json(error_body(status, status_name, message, details), status=status, headers=headers)


def error_invalid_key() -> Reply:
    """400 INVALID_ARGUMENT with ErrorInfo reason ``API_KEY_INVALID`` (the Developer API's wrong key)."""
    return error(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", details=[{
        "@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID", "domain": "googleapis.com",
        "metadata": {"service": "generativelanguage.googleapis.com"}}])  # fmt: skip


def error_permission_denied() -> Reply:
    """403 PERMISSION_DENIED."""
    return error(403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers (callers without established "
                 "identity). Please use API Key or other form of API consumer identity to call this API.")  # fmt: skip


def error_not_found(model: str = "gemini-nope") -> Reply:
    """404 NOT_FOUND for an unknown model."""
    return error(404, "NOT_FOUND", f"models/{model} is not found for API version v1beta, or is not supported for "
                 "generateContent. Call ListModels to see the list of available models and their supported methods.")  # fmt: skip


def error_schema(keyword: str = "const") -> Reply:
    """400 INVALID_ARGUMENT for a schema keyword Gemini does not know (§2.3)."""
    message = (f'Invalid JSON payload received. Unknown name "{keyword}" at '
               f"'tools[0].function_declarations[0].parameters.properties[0].value': Cannot find field.")  # fmt: skip
    return error(400, "INVALID_ARGUMENT", message, details=[{"@type": "type.googleapis.com/google.rpc.BadRequest",
                 "fieldViolations": [{"field": "tools[0].function_declarations[0].parameters.properties[0].value",
                                      "description": message}]}])  # fmt: skip


def error_missing_signature() -> Reply:
    """400 INVALID_ARGUMENT: a current-turn function call replayed without its ``thoughtSignature`` (§2.5)."""
    return error(400, "INVALID_ARGUMENT", "Function call is missing a thought_signature in functionCall parts. "
                 "This is required for tools to work correctly.")  # fmt: skip


def error_rate_limited(retry_after: str | None = None) -> Reply:
    """429 RESOURCE_EXHAUSTED with QuotaFailure/RetryInfo details (``retry_after``: the header, if any)."""
    return error(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing "
                 "details.", details=[{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1s"}],
                 retry_after=retry_after)  # fmt: skip


def error_internal() -> Reply:
    """500 INTERNAL."""
    return error(500, "INTERNAL", "An internal error has occurred. Please retry or report in "
                 "https://developers.generativeai.google/guide/troubleshooting")  # fmt: skip


def error_unavailable(retry_after: str | None = None) -> Reply:
    """503 UNAVAILABLE (model overloaded)."""
    return error(503, "UNAVAILABLE", "The model is overloaded. Please try again later.", retry_after=retry_after)


def error_deadline() -> Reply:
    """504 DEADLINE_EXCEEDED."""
    return error(504, "DEADLINE_EXCEEDED", "Deadline expired before operation could complete.")
