"""How much of the model's context a request would fill, and the warning before it is sent (issue 18 item 8).

The default "This folder" mode on a root note sends the whole vault (about 19,500 tokens for the demo vault):
more than half the window of many local engines, and billed at every turn by a hosted provider. Before a chat
or agent request is sent, its size is estimated — the system prompt with the gathered notes, the conversation
so far, the message and, for an agent, the tool schemas — at 4 characters per token (the tool layer's own rule
of thumb, ``tools/budget.py``; real tokenizers give 3–5 for English and code). Over ``share`` of the model's
context window (``OBSIGATE_AI_CONTEXT_SHARE``, default 0.5), the request is refused with ``context_too_large``
(413, ``details``: the figures) unless it says ``accept_large_context: true``.

The window is the model's own in ``OBSIGATE_AI_CONTEXT_WINDOWS``, else ``OBSIGATE_AI_CONTEXT_WINDOW`` when set, else
the model family's from the capability table (``agent/capabilities.py`` :data:`WINDOWS`: the vendors' published
context lengths), else :data:`DEFAULT_WINDOW`: an unknown model is most often a local engine, whose window is what
it was started with (configure it).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from obsigate.agent.capabilities import DEFAULT_WINDOW, WINDOWS, context_window
from obsigate.tools.api import ServiceError

__all__ = ["DEFAULT_SHARE", "DEFAULT_WINDOW", "WINDOWS", "ContextEstimate", "estimate", "window_of"]

#: The share of the window a request may fill without the person accepting it.
DEFAULT_SHARE = 0.5
#: Characters per token of the estimate.
CHARS_PER_TOKEN = 4


def window_of(model: str, override: int = 0, overrides: Mapping[str, int] | None = None) -> int:
    """The context window of ``model`` in tokens (:func:`obsigate.agent.capabilities.context_window`): its own
    configured window in ``overrides``, else ``override`` when positive, else the capability table's."""
    return context_window(model, overrides, override)


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


def estimate(
    *parts: Any, model: str, share: float = DEFAULT_SHARE, window: int = 0, windows: Mapping[str, int] | None = None
) -> ContextEstimate:
    """The estimate for a request made of ``parts`` (strings as they are, anything else as its JSON: messages,
    tool schemas) to ``model``; ``window``, ``windows``: the configured windows (:func:`window_of`)."""
    chars = sum(len(p) if isinstance(p, str) else len(json.dumps(p, ensure_ascii=False, default=str)) for p in parts)
    size = window_of(model, window, windows)
    return ContextEstimate(-(-chars // CHARS_PER_TOKEN), size, share, int(size * share))
