"""What every LLM provider client offers the agent: one request shape, one turn shape, one error tree.

The conversation is kept in a small neutral form (:data:`Message` dicts, below) so a conversation can move
between providers; each assistant message also keeps ``raw``, the message exactly as its provider returned
it, which that provider replays verbatim (DeepSeek ``reasoning_content``, OpenRouter ``reasoning_details``,
Gemini ``thoughtSignature`` on the part it came on: ``llm.md`` §0.2). A provider replays ``raw`` only when
``provider`` and ``model`` of the stored message are its own; otherwise it rebuilds the message from the
neutral fields, signatures and reasoning dropped (``llm.md`` §2.5: signatures are bound to the model).

Neutral messages (JSON-safe dicts, stored as they are in SQLite):

* ``{"role": "user", "content": str, "images"?: [ref]}`` — ``images``: references kept with the conversation
  (``agent/images.py``); those to send carry ``data`` (base64), the rest go as a text note (``image_parts``)
* ``{"role": "assistant", "content": str, "tool_calls": [{"id", "name", "arguments": dict}], "raw": dict,
  "provider": str, "model": str}`` — ``tool_calls`` may be empty, ``raw`` is the native message
  (OpenAI: the ``choices[0].message`` object; Gemini: the candidate's ``content`` object)
* ``{"role": "tool", "tool_call_id": str, "name": str, "content": str}`` — one per call of the previous
  assistant message, in its order (``content``: the result as JSON text)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from obsigate.tools.errors import ServiceError

__all__ = [
    "DIALECTS",
    "TURN_TIMEOUT_S",
    "ChatRequest",
    "Message",
    "OnDelta",
    "Provider",
    "ProviderConfig",
    "ProviderError",
    "ToolCall",
    "ToolDef",
    "ToolsRejected",
    "Turn",
    "Usage",
]

Message = dict[str, Any]
Dialect = Literal["openai", "gemini"]
DIALECTS: tuple[Dialect, ...] = ("openai", "gemini")
#: The default bound of one whole turn (retries and fallbacks included), in seconds.
TURN_TIMEOUT_S = 600.0
#: Called with each piece of answer text as the provider streams it (never reasoning or thought text).
OnDelta = Callable[[str], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ProviderConfig:
    """One configured provider: ``name`` (``deepseek``, ``openai``, ``openrouter``, ``ollama``, ``gemini``,
    ``custom``), its wire ``dialect``, ``base_url`` (up to and including ``/v1``, or ``/v1beta`` for Gemini, no
    trailing slash), ``api_key`` (``None``: send none, as for Ollama) and the ``model`` to call.

    ``timeout_s``: connect and idle-read timeout of one request, in seconds (a keep-alive comment does not reset
    the idle timer forever: the whole turn is also bounded by ``turn_timeout_s``). ``max_retries``: how often a
    429/5xx is retried; ``retry_cap_s``: the longest wait between tries, ``Retry-After`` included.

    ``local``: the server is a local engine (Ollama, llama.cpp, vLLM, LM Studio on this machine or the local
    network: :func:`~obsigate.agent.providers.catalog.is_local_engine`). A *non-streamed* request to it sends
    no byte before the whole answer is generated, on a CPU that can take minutes: its read timeout is
    ``local_timeout_s`` instead (:meth:`read_timeout_s`).
    """

    name: str
    dialect: Dialect
    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 60.0
    turn_timeout_s: float = TURN_TIMEOUT_S
    max_retries: int = 2
    retry_cap_s: float = 10.0
    local: bool = False
    local_timeout_s: float = 600.0

    def read_timeout_s(self, stream: bool) -> float:
        """The read timeout of one request: ``local_timeout_s`` for a non-streamed request to a local engine
        (its first byte comes with the whole answer), else ``timeout_s`` (the idle timeout between bytes)."""
        return self.local_timeout_s if self.local and not stream else self.timeout_s


@dataclass(frozen=True, slots=True)
class ToolDef:
    """A tool as the model sees it: ``name``, ``description`` and ``parameters`` (JSON Schema, root
    ``type: object``; each provider converts it to what it accepts)."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(slots=True)
class ToolCall:
    """One call the model asked for. ``id``: the provider's call id (synthesised when the provider gives none,
    as Gemini often does). ``arguments``: the parsed object; ``None`` when ``error`` says why it could not be
    parsed (invalid JSON, not an object) — the agent returns that error to the model as the call's result."""

    id: str
    name: str
    arguments: dict[str, Any] | None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Usage:
    """Token counts of one turn as the provider reported them (0 when it did not). ``cached_tokens``: the part of
    ``prompt_tokens`` served from the provider's prompt cache (OpenAI ``prompt_tokens_details.cached_tokens``,
    DeepSeek ``prompt_cache_hit_tokens``, Gemini ``cachedContentTokenCount``): already counted in the prompt."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    cached_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.total_tokens + other.total_tokens,
            self.cached_tokens + other.cached_tokens,
        )

    def as_dict(self) -> dict[str, int]:
        """``{prompt_tokens, completion_tokens, total_tokens}``, and ``cached_tokens`` when the provider reported
        any (a provider without a cache keeps the shape it always had)."""
        out = {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
               "total_tokens": self.total_tokens}  # fmt: skip
        if self.cached_tokens:
            out["cached_tokens"] = self.cached_tokens
        return out


@dataclass(slots=True)
class Turn:
    """One complete answer of the model.

    ``message``: the neutral assistant :data:`Message` to append to the conversation (``raw`` included).
    ``text``: the answer text (thoughts and reasoning excluded). ``tool_calls``: what it wants run (empty: it
    answered). ``finish_reason``: the provider's own (``stop``, ``tool_calls``, ``STOP``...). ``usage``: tokens.
    """

    message: Message
    text: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """What the agent asks of a provider: a ``system`` prompt, the neutral ``messages``, the ``tools`` to offer
    (``None`` or empty: plain chat), whether to ``stream``, and ``tool_choice``: ``auto`` (the model decides) or
    ``none`` (the tools stay declared, so the history's calls make sense, but the model must answer in text:
    OpenAI ``tool_choice: "none"``, Gemini ``functionCallingConfig.mode: NONE``). ``max_tokens``: a cap on the
    answer's length (``None``: the provider's own; the settings page's test call sends a tiny one)."""

    system: str
    messages: list[Message]
    tools: list[ToolDef] | None = None
    stream: bool = True
    tool_choice: Literal["auto", "none"] = "auto"
    max_tokens: int | None = None


class ProviderError(ServiceError):
    """A provider failure, with a catalogued code: ``provider_not_configured``, ``provider_auth_failed``,
    ``provider_rate_limited`` (``details.retry_after``, s), ``provider_unavailable``, ``model_not_found``,
    ``context_length_exceeded``, ``provider_bad_response``. The message never holds the API key."""

    code = "provider_unavailable"


class ToolsRejected(Exception):
    """The provider refused the request because of its tools (``llm.md`` §1.7: Ollama's "does not support
    tools", OpenRouter's "No endpoints found that support tool use", vLLM's auto tool choice, llama.cpp's
    ``--jinja``, FastAPI-style 422): the agent retries once without tools, as plain chat, with a notice."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Provider(Protocol):
    """A provider client for one :class:`ProviderConfig`."""

    config: ProviderConfig

    async def chat(self, request: ChatRequest, on_delta: OnDelta | None = None) -> Turn:
        """Send ``request`` and return the complete :class:`Turn`; while streaming, ``on_delta`` gets each piece
        of answer text as it arrives.

        Retries 429/5xx (bounded backoff, ``Retry-After`` honoured up to ``retry_cap_s``) before the first
        streamed byte reached ``on_delta``; never after.

        Raises:
            ToolsRejected: the provider rejects tools (the caller retries without them).
            ProviderError: every other failure, with a stable code; a stream that ends without a finish reason
                (a dropped connection) is ``provider_bad_response``, never an answer, and its half-received tool
                calls are never returned.
            anyio.get_cancelled_exc_class(): the caller was cancelled; the upstream request is closed at once.
        """
        ...

    async def aclose(self) -> None:
        """Close the connection pool."""
        ...
