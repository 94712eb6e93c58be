"""How the fake providers count a request's prompt tokens, as a real provider reports them in ``usage``.

Neither counts as the context gauge estimates (``agent/gauge.py``: ``cl100k_base`` over the neutral messages):
they count the request *as sent on the wire*, framing included, with a tokenizer of their own, so the gauge's
correction ratio has real work to do:

* :func:`openai_prompt_tokens`: OpenAI's cookbook rule (3 priming tokens, 4 per message) over ``cl100k_base``,
  scaled by ``factor`` (another model's vocabulary: 1.25 means 25 % more tokens for the same text);
* :func:`gemini_prompt_tokens`: one token per 4 UTF-8 bytes of each text, call, response and declaration (rounded
  up), the rule of thumb Google documents for its models.

:func:`counted` wraps a reply builder so the usage it reports is the request's own count.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from fakes.llm_server import Recorded, Reply

from obsigate.agent.tokens import count_tokens


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def openai_prompt_tokens(body: dict[str, Any], factor: float = 1.25) -> int:
    """The prompt tokens of an OpenAI Chat Completions request ``body``."""
    n = 3
    for message in body.get("messages") or []:
        n += 4 + count_tokens(_text(message.get("content") or ""))
        for call in message.get("tool_calls") or []:
            n += count_tokens(call["function"]["name"]) + count_tokens(_text(call["function"]["arguments"]))
    n += sum(count_tokens(_text(t["function"])) for t in body.get("tools") or [])
    return round(n * factor)


def gemini_prompt_tokens(body: dict[str, Any]) -> int:
    """The prompt tokens of a Gemini ``generateContent`` request ``body`` (4 bytes a token)."""
    pieces: list[str] = [p.get("text", "") for p in (body.get("systemInstruction") or {}).get("parts") or []]
    for content in body.get("contents") or []:
        for part in content.get("parts") or []:
            for key in ("text", "functionCall", "functionResponse"):
                if key in part:
                    pieces.append(_text(part[key]))
    for tool in body.get("tools") or []:
        pieces += [_text(d) for d in tool.get("functionDeclarations") or []]
    return sum(math.ceil(len(p.encode()) / 4) for p in pieces) + 2 * len(body.get("contents") or [])


def counted(build: Callable[[int], Reply], dialect: str = "openai") -> Callable[[Recorded], Reply]:
    """A script item whose reply is ``build(prompt_tokens)``, the request's own count in ``dialect``."""

    def reply(recorded: Recorded) -> Reply:
        body = recorded.json or {}
        return build(gemini_prompt_tokens(body) if dialect == "gemini" else openai_prompt_tokens(body))

    return reply
