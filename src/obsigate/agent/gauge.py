"""The context gauge: how full a conversation's context window is (issue 21 item 5; arsenal.md §i).

After every provider call the assistant records (:meth:`ContextGauge.record`) the provider's own counts
(``prompt``, ``completion``, ``cached``) with the model, and the offline estimate of each part of the request it
sent (``cl100k_base``, :mod:`obsigate.agent.tokens`): ``system_prompt`` (the instructions), ``tool_definitions``
(the offered tools' name, description and schema), ``context_files`` (the gathered notes in the system prompt),
``history`` (user and assistant messages, tool calls included) and ``tool_results`` (the ``tool`` messages).

:meth:`ContextGauge.report` gives the next request's size:

* ``used`` = the last call's real prompt count + the tokens of the messages stored since, estimated and multiplied
  by the last call's correction ratio (real prompt / estimated prompt of that same request): a tokenizer that is
  not the model's is off by a steady factor, which the ratio takes out. With no real count (a provider that
  reports none, or the conversation's model changed since) ``used`` is the estimate times the last ratio of that
  model (1 without one). ``source`` is ``provider`` when ``used`` is exactly the provider's figure (nothing
  added since), else ``estimate``;
* ``reserved`` = room kept for the answer: the request's own cap when it set one, else :data:`RESERVED_OUTPUT`,
  at most an eighth of the window;
* ``total`` = ``used`` + ``reserved``; ``breakdown`` has the five parts (each part's estimate scaled by the same
  factor, rounded so they sum to ``used`` exactly) and ``reserved``: its six values sum to ``total``;
* ``percent`` = ``total`` / ``window`` (the model's, :func:`obsigate.agent.capabilities.context_window`);
  ``level`` ``warn70``/``warn85``/``warn95`` from 70, 85 and 95 %, else ``ok``.

The system prompt and tools of the next request are taken as the last request's: a new question may gather other
notes, which the next call's figure then shows.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from obsigate.agent.capabilities import context_window
from obsigate.agent.prompts import split_context
from obsigate.agent.providers.base import ChatRequest, Usage
from obsigate.agent.store import AgentStore, UsageRow
from obsigate.agent.tokens import ENCODING, count_tokens
from obsigate.tools.api import NotFound

__all__ = ["LEVELS", "PARTS", "RESERVED_OUTPUT", "ContextGauge", "level_of", "request_parts", "scale_parts"]

#: The parts of a request, in the breakdown's order (``reserved`` follows them).
PARTS = ("system_prompt", "tool_definitions", "context_files", "history", "tool_results")
#: The room kept for the answer when the request sets no cap of its own (tokens; at most an eighth of the window).
RESERVED_OUTPUT = 4096
#: Warning levels: the first threshold (percent of the window) ``percent`` reaches, highest first.
LEVELS = ((95.0, "warn95"), (85.0, "warn85"), (70.0, "warn70"))
#: Tokens a chat format adds around each message (role markers, separators), as OpenAI's cookbook counts them.
MESSAGE_OVERHEAD = 4
#: Live runs kept for :meth:`ContextGauge.report`'s session lookup (a tool call knows its run, not its conversation).
_SESSIONS = 1024


def message_tokens(message: Mapping[str, Any]) -> int:
    """The estimated tokens of one neutral message (``agent/providers/base.py``): its role, text, tool calls
    (name and arguments as JSON) and :data:`MESSAGE_OVERHEAD`; ``raw`` and image references are left out."""
    n = (
        MESSAGE_OVERHEAD
        + count_tokens(str(message.get("role") or ""))
        + count_tokens(str(message.get("content") or ""))
    )
    for call in message.get("tool_calls") or []:
        if isinstance(call, dict):
            args = json.dumps(call.get("arguments") or {}, ensure_ascii=False)
            n += count_tokens(str(call.get("name") or "")) + count_tokens(args)
    return n


def _messages_parts(messages: list[dict[str, Any]]) -> dict[str, int]:
    history = tool_results = 0
    for message in messages:
        if message.get("role") == "tool":
            tool_results += message_tokens(message)
        else:
            history += message_tokens(message)
    return {"history": history, "tool_results": tool_results}


def request_parts(request: ChatRequest) -> dict[str, int]:
    """The estimated tokens of each of :data:`PARTS` in ``request`` (``cl100k_base``)."""
    instructions, context = split_context(request.system)
    tools = sum(count_tokens(json.dumps(asdict(t), ensure_ascii=False)) for t in request.tools or [])
    return {
        "system_prompt": count_tokens(instructions), "tool_definitions": tools, "context_files": count_tokens(context),
        **_messages_parts(request.messages),
    }  # fmt: skip


def scale_parts(parts: Mapping[str, int], total: int) -> dict[str, int]:
    """``parts`` scaled to sum to ``total`` exactly (largest remainders get the rounding; all zero: ``total`` goes
    to ``history``)."""
    whole = sum(parts.values())
    if whole <= 0:
        return {k: (total if k == "history" else 0) for k in parts}
    shares = {k: v * total / whole for k, v in parts.items()}
    out = {k: int(v) for k, v in shares.items()}
    for k in sorted(shares, key=lambda k: shares[k] - out[k], reverse=True)[: total - sum(out.values())]:
        out[k] += 1
    return out


def level_of(percent: float) -> str:
    """``warn95``, ``warn85``, ``warn70`` or ``ok`` for a window filled to ``percent``."""
    return next((name for limit, name in LEVELS if percent >= limit), "ok")


class ContextGauge:
    """The context gauge over the assistant's ``store``; ``windows`` (configured windows by model name) and
    ``window`` (one for every other model, 0: none) as :func:`~obsigate.agent.capabilities.context_window` takes
    them; ``clock``: seconds since the epoch."""

    def __init__(
        self,
        store: AgentStore,
        *,
        windows: Mapping[str, int] | None = None,
        window: int = 0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.windows = dict(windows or {})
        self.window = window
        self._clock = clock
        self._lock = threading.Lock()
        #: run id → (user, conversation id): a tool call of a run names its run (``ToolContext.session_id``)
        self._sessions: OrderedDict[str, tuple[str, str]] = OrderedDict()

    def window_of(self, model: str) -> int:
        """``model``'s context window in tokens."""
        return context_window(model, self.windows, self.window)

    def record(
        self, user: str, cid: str, provider: str, model: str, request: ChatRequest, usage: Usage,
        session: str | None = None,
    ) -> None:  # fmt: skip
        """Keep one provider call of ``user``'s conversation ``cid``: ``usage`` as the provider reported it and the
        estimate of ``request``'s parts; ``session``: the run it belongs to (found again by :meth:`report`).
        Tokenizes the whole request: call it from a worker thread.

        Raises:
            NotFound: the conversation is gone (deleted meanwhile).
        """
        if session is not None:
            with self._lock:
                self._sessions[session] = (user, cid)
                self._sessions.move_to_end(session)
                while len(self._sessions) > _SESSIONS:
                    self._sessions.popitem(last=False)
        parts = request_parts(request)
        parts["reserved"] = request.max_tokens or 0
        row = UsageRow(
            provider=provider, model=model, prompt_tokens=usage.prompt_tokens, completion_tokens=usage.completion_tokens,
            cached_tokens=usage.cached_tokens, messages=len(request.messages), estimate=parts, at=self._clock(),
        )  # fmt: skip
        self.store.add_usage(user, cid, row)

    def conversation_of(self, user: str, session: str | None) -> str | None:
        """The conversation of ``user``'s live run ``session`` (or ``session`` itself when it is one of ``user``'s
        conversations); ``None`` when it is neither (an MCP session)."""
        if not session:
            return None
        with self._lock:
            known = self._sessions.get(session)
        if known is not None and known[0] == user:
            return known[1]
        try:
            self.store.conversation(user, session)
        except NotFound:  # an MCP session, another person's conversation
            return None
        return session

    def report(self, user: str, cid: str, *, provider: str | None = None, model: str | None = None) -> dict[str, Any]:
        """The gauge of ``user``'s conversation ``cid`` (see the module's docstring): ``{conversation_id, provider,
        model, window, used, reserved, total, percent, level, source, encoding, breakdown, last_usage, totals}``,
        for ``provider``/``model`` (default: the conversation's, the last it answered with; a call's own report
        names the model it just called, which the conversation notes only once its answer is stored).
        Tokenizes the messages since the last call: call it from a worker thread.

        Raises:
            NotFound: no such conversation of this user.
        """
        info = self.store.conversation(user, cid)
        provider, model = provider or info.provider, model or info.model
        rows = self.store.usage(user, cid)
        messages = self.store.messages(user, cid)
        window = self.window_of(model)
        last = rows[-1] if rows else None
        base = {k: (last.estimate.get(k, 0) if last else 0) for k in PARTS}
        added = _messages_parts(messages[last.messages :] if last else messages)
        raw = {k: base[k] + added.get(k, 0) for k in PARTS}
        same = [r for r in rows if r.model == model and r.prompt_tokens > 0]
        ratio = _ratio(same[-1]) if same else 1.0
        if last is not None and last is (same[-1] if same else None):
            used = last.prompt_tokens + round(ratio * sum(added.values()))
            source = "provider" if sum(added.values()) == 0 else "estimate"
        else:
            used, source = round(ratio * sum(raw.values())), "estimate"
        breakdown = scale_parts(raw, used)
        cap = last.estimate.get("reserved", 0) if last else 0
        reserved = min(cap or RESERVED_OUTPUT, window // 8)
        total = used + reserved
        share = 100.0 * total / window if window else 0.0  # the level on the exact share, not the rounded one
        percent = round(share, 1)
        return {
            "conversation_id": cid, "provider": provider, "model": model, "window": window, "used": used,
            "reserved": reserved, "total": total, "percent": percent, "level": level_of(share), "source": source,
            "encoding": ENCODING, "breakdown": {**breakdown, "reserved": reserved},
            "last_usage": _last(last), "totals": _totals(rows),
        }  # fmt: skip


def _ratio(row: UsageRow) -> float:
    """Real prompt tokens per estimated token of ``row``'s request (1 when it has no estimate)."""
    estimated = sum(row.estimate.get(k, 0) for k in PARTS)
    return row.prompt_tokens / estimated if estimated > 0 else 1.0


def _last(row: UsageRow | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {"provider": row.provider, "model": row.model, "prompt_tokens": row.prompt_tokens,
            "completion_tokens": row.completion_tokens, "cached_tokens": row.cached_tokens, "at": row.at}  # fmt: skip


def _totals(rows: list[UsageRow]) -> list[dict[str, Any]]:
    """Per (provider, model), in first-use order: ``calls`` and the summed counts."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        t = out.setdefault((r.provider, r.model), {"provider": r.provider, "model": r.model, "calls": 0,
                                                   "prompt_tokens": 0, "completion_tokens": 0, "cached_tokens": 0})  # fmt: skip
        t["calls"] += 1
        t["prompt_tokens"] += r.prompt_tokens
        t["completion_tokens"] += r.completion_tokens
        t["cached_tokens"] += r.cached_tokens
    return list(out.values())
