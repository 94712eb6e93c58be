"""How much of the model's context a request would fill, and the warning before it is sent (issue 18 item 8).

The default "This folder" mode on a root note sends the whole vault (about 19,500 tokens for the demo vault):
more than half the window of many local engines, and billed at every turn by a hosted provider. Before a chat
or agent request is sent, its size is estimated — the system prompt with the gathered notes, the conversation
so far, the message and, for an agent, the tool schemas — at 4 characters per token (the tool layer's own rule
of thumb, ``tools/budget.py``; real tokenizers give 3–5 for English and code). Over ``share`` of the model's
context window (``OBSIGATE_AI_CONTEXT_SHARE``, default 0.5), the request is refused with ``context_too_large``
(413, ``details``: the figures) unless it says ``accept_large_context: true``.

The window is ``OBSIGATE_AI_CONTEXT_WINDOW`` when set, else the model family's from :data:`WINDOWS` (the
vendors' published context lengths), else :data:`DEFAULT_WINDOW`: an unknown model is most often a local engine,
whose window is what it was started with (set ``OBSIGATE_AI_CONTEXT_WINDOW`` to it).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from obsigate.tools.api import ServiceError

__all__ = ["DEFAULT_SHARE", "DEFAULT_WINDOW", "WINDOWS", "ContextEstimate", "estimate", "window_of"]

#: The share of the window a request may fill without the person accepting it.
DEFAULT_SHARE = 0.5
#: The window assumed for a model this table does not know: a local engine's common setting (Qwen's and Mistral's
#: native length), large enough for the agent's ~5k tokens of tool schemas and a folder of notes.
DEFAULT_WINDOW = 32_768
#: Characters per token of the estimate.
CHARS_PER_TOKEN = 4

#: Context windows (tokens) by model family, matched on the model name without a ``vendor/`` prefix or an
#: Ollama ``:tag``; first match wins.
WINDOWS: tuple[tuple[re.Pattern[str], int], ...] = tuple(
    (re.compile(p), n)
    for p, n in (
        (r"^gpt-4\.1", 1_047_576),
        (r"^gpt-5", 400_000),
        (r"^(gpt-4o|gpt-4-turbo|chatgpt-4o)", 128_000),
        (r"^o[134]", 200_000),
        (r"^gemini-", 1_048_576),
        (r"^claude", 200_000),
        (r"^deepseek", 128_000),
        (r"^(llama-?3\.[1-3]|llama3\.[1-3])", 131_072),
        (r"^gemma-?3", 131_072),
        (r"^(qwen3|qwen2\.5|mistral|mixtral|ministral)", 32_768),
    )
)


def window_of(model: str, override: int = 0) -> int:
    """The context window of ``model`` in tokens: ``override`` when positive, else :data:`WINDOWS`, else
    :data:`DEFAULT_WINDOW`."""
    if override > 0:
        return override
    family = model.strip().split(":", 1)[0].rsplit("/", 1)[-1].lower()
    return next((n for pattern, n in WINDOWS if pattern.search(family)), DEFAULT_WINDOW)


@dataclass(frozen=True, slots=True)
class ContextEstimate:
    """A request's size: ``tokens`` (estimated), the model's ``context_window``, the ``share`` allowed and
    ``limit`` (``share`` × window, in tokens); ``over``: it would fill more than that."""

    tokens: int
    context_window: int
    share: float
    limit: int

    @property
    def over(self) -> bool:
        return self.tokens > self.limit

    def as_dict(self) -> dict[str, Any]:
        """``{estimated_tokens, context_window, share, limit_tokens, over}``."""
        return {"estimated_tokens": self.tokens, "context_window": self.context_window, "share": self.share,
                "limit_tokens": self.limit, "over": self.over}  # fmt: skip

    def check(self, accepted: bool) -> None:
        """Refuse a request over its share that the person has not accepted.

        Raises:
            ServiceError: ``context_too_large`` (413) with :meth:`as_dict` as ``details``.
        """
        if self.over and not accepted:
            raise ServiceError(
                f"this request would send about {self.tokens} tokens, over {round(self.share * 100)}% of the "
                f"model's {self.context_window}-token context",
                code="context_too_large",
                hint="narrow the context (a folder, a few files), or send again with accept_large_context: true",
                details=self.as_dict(),
            )


def estimate(*parts: Any, model: str, share: float = DEFAULT_SHARE, window: int = 0) -> ContextEstimate:
    """The estimate for a request made of ``parts`` (strings as they are, anything else as its JSON: messages,
    tool schemas) to ``model``; ``window``: the configured override (0: :func:`window_of`'s table)."""
    chars = sum(len(p) if isinstance(p, str) else len(json.dumps(p, ensure_ascii=False, default=str)) for p in parts)
    size = window_of(model, window)
    return ContextEstimate(-(-chars // CHARS_PER_TOKEN), size, share, int(size * share))
