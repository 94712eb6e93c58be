"""The size cap of one tool call's arguments in an agent run (issue 18 item 8; ``OBSIGATE_AI_MAX_TOOL_ARGS_BYTES``).

A model may send a huge argument (a whole book as ``create_file``'s ``content``). Over the cap the call is not
run: the model gets a ``too_large`` error as the call's result and can send something smaller. The assistant
message that carried the call stays in the conversation (the tool-calling protocol needs it), but with the
oversized arguments replaced by a short placeholder, in the neutral ``tool_calls`` and in the provider's ``raw``
message alike: otherwise every later turn of the conversation would send the refused text to the provider again
(and bill it, and fill the context).

The size is counted as the UTF-8 bytes of the arguments' compact JSON.
"""

from __future__ import annotations

import json
from typing import Any

from obsigate.agent.providers.base import Turn

__all__ = ["DEFAULT_MAX_ARGS_BYTES", "cap_arguments", "label_arguments", "placeholder", "size_of"]

#: The default cap: 256 KiB, room for a long note (the write tools take up to 5,000,000 characters from REST).
DEFAULT_MAX_ARGS_BYTES = 262_144


def size_of(arguments: Any) -> int:
    """The UTF-8 size in bytes of ``arguments`` as compact JSON."""
    return len(json.dumps(arguments, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace"))


def placeholder(size: int, cap: int) -> dict[str, str]:
    """What is kept of refused arguments: one short field saying what happened."""
    return {"omitted": f"arguments of {size} bytes refused (over the {cap}-byte cap) and not kept"}


#: The arguments a step's label names (agent/labels.py ``_fill``), and the longest value of them kept.
_LABEL_KEYS = ("path", "source_path", "dir")
_LABEL_MAX_CHARS = 1024


def label_arguments(arguments: dict[str, Any] | None) -> dict[str, str]:
    """What a refused call keeps of its ``arguments`` for its step's label: only its path fields (never the
    content), or, when it has none (or they did not parse), ``{"path": "(arguments too large)"}`` so the label
    says why rather than naming the vault's root."""
    kept = {
        key: value
        for key in _LABEL_KEYS
        if isinstance(value := (arguments or {}).get(key), str) and 0 < len(value) <= _LABEL_MAX_CHARS
    }
    return kept or {"path": "(arguments too large)"}


def cap_arguments(turn: Turn, cap: int) -> dict[str, str]:
    """Refuse the calls of ``turn`` whose arguments are over ``cap`` bytes: each gets an ``error`` (what the model
    is told) and, as ``arguments``, only what its step's label names (:func:`label_arguments`), and its arguments in ``turn.message`` (neutral ``tool_calls`` and the
    provider's ``raw``: OpenAI's ``function.arguments`` string, Gemini's ``functionCall.args``; any other raw shape
    is dropped) become :func:`placeholder`. Returns ``{call id: error message}`` of the refused calls."""
    refused: dict[str, str] = {}
    marks: dict[str, dict[str, str]] = {}
    raw_sizes = _raw_sizes(turn.message.get("raw"))  # arguments that did not even parse count as sent
    for call in turn.tool_calls:
        size = max(raw_sizes.get(call.id, 0), size_of(call.arguments) if call.arguments is not None else 0)
        if size <= cap:
            continue
        refused[call.id] = (
            f"the arguments are {size} bytes, over the {cap}-byte cap of one call; nothing was run. "
            "Send less per call (e.g. create the note short, then append_to_file the rest in parts)"
        )
        marks[call.id] = placeholder(size, cap)
        call.arguments, call.error = label_arguments(call.arguments), refused[call.id]
    if not refused:
        return refused
    message = dict(turn.message)
    message["tool_calls"] = [
        {**c, "arguments": marks[c["id"]]} if isinstance(c, dict) and c.get("id") in marks else c
        for c in message.get("tool_calls") or []
    ]
    message["raw"] = _scrub_raw(message.get("raw"), turn, marks)
    turn.message = message
    return refused


def _raw_sizes(raw: Any) -> dict[str, int]:
    """``{call id: UTF-8 size of its arguments string}`` of an OpenAI-compatible ``raw`` message (``{}`` otherwise)."""
    calls = raw.get("tool_calls") if isinstance(raw, dict) else None
    sizes = {}
    for c in calls if isinstance(calls, list) else ():
        args = (
            c.get("function", {}).get("arguments")
            if isinstance(c, dict) and isinstance(c.get("function"), dict)
            else None
        )
        if isinstance(c.get("id"), str) and isinstance(args, str):
            sizes[c["id"]] = len(args.encode("utf-8", "replace"))
    return sizes


def _scrub_raw(raw: Any, turn: Turn, marks: dict[str, dict[str, str]]) -> Any:
    """``raw`` with the refused calls' arguments replaced (``None`` when its shape is not one this knows)."""
    if not isinstance(raw, dict):
        return raw
    if isinstance(raw.get("tool_calls"), list):  # OpenAI-compatible: arguments as a JSON string
        calls = []
        for c in raw["tool_calls"]:
            if isinstance(c, dict) and c.get("id") in marks and isinstance(c.get("function"), dict):
                c = {**c, "function": {**c["function"], "arguments": json.dumps(marks[c["id"]])}}
            calls.append(c)
        return {**raw, "tool_calls": calls}
    if isinstance(raw.get("parts"), list):  # Gemini: calls in order, matched by position among functionCall parts
        ids = [c.id for c in turn.tool_calls]
        parts, n = [], 0
        for part in raw["parts"]:
            if isinstance(part, dict) and isinstance(part.get("functionCall"), dict):
                if n < len(ids) and ids[n] in marks:
                    part = {**part, "functionCall": {**part["functionCall"], "args": marks[ids[n]]}}
                n += 1
            parts.append(part)
        return {**raw, "parts": parts}
    return None
