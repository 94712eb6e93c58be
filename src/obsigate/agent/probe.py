"""The settings page's "Test" button: one tiny call to a provider with its current settings (issue 11 item 8).

One non-streamed request of a short user message, answer capped at :data:`PROBE_MAX_TOKENS` tokens, no retry,
at most :data:`PROBE_TIMEOUT_S` seconds: it proves the key, the base URL and the model work together, for the
price of a few tokens. A provider's refusal is an answer of the test (``ok: false`` with its stable code), not a
failure of the request.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from obsigate.agent.providers import make_provider
from obsigate.agent.providers.base import ChatRequest, Provider, ProviderConfig, ProviderError, ToolsRejected
from obsigate.agent.settings import AISettings

__all__ = ["PROBE_MAX_TOKENS", "PROBE_TIMEOUT_S", "probe"]

PROBE_MAX_TOKENS = 16
PROBE_TIMEOUT_S = 20.0
_PROMPT = "Reply with the single word: ok"


async def probe(
    settings: AISettings,
    provider: str,
    model: str | None = None,
    *,
    make: Callable[[ProviderConfig], Provider] = make_provider,
) -> dict[str, Any]:
    """Call ``provider`` (a known name) once with its current settings, or with ``model`` instead of its default.

    Returns:
        ``{"ok": true, "provider", "model", "latency_ms", "reply"}`` (``reply``: the first 200 characters of the
        answer, possibly empty when the cap cut a reasoning model short), or ``{"ok": false, "provider",
        "model", "latency_ms", "code", "message"}`` with the provider's stable code (``provider_not_configured``,
        ``provider_auth_failed``, ``provider_unavailable``, ``model_not_found``, ``provider_rate_limited``,
        ``provider_bad_response``...). No key appears in either.

    Raises:
        BadRequest (``invalid_argument``): a malformed ``model``.
    """
    started = time.perf_counter()
    chosen = model

    def answer(**fields: Any) -> dict[str, Any]:
        ms = round((time.perf_counter() - started) * 1000)
        return {"provider": provider, "model": chosen, "latency_ms": ms, **fields}

    try:
        config = settings.resolve(provider, model)
        chosen = config.model
        config = replace(
            config, max_retries=0, timeout_s=min(config.timeout_s, PROBE_TIMEOUT_S), turn_timeout_s=PROBE_TIMEOUT_S
        )
        client = make(config)
        try:
            turn = await client.chat(ChatRequest(
                system="", messages=[{"role": "user", "content": _PROMPT}], stream=False, max_tokens=PROBE_MAX_TOKENS,
            ))  # fmt: skip
        finally:
            await client.aclose()
    except ProviderError as exc:
        return answer(ok=False, code=exc.code, message=exc.message)
    except ToolsRejected as exc:  # not expected without tools; still the provider's refusal
        return answer(ok=False, code="provider_bad_response", message=exc.message)
    return answer(ok=True, reply=turn.text[:200])
