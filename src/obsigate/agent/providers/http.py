"""HTTP plumbing both dialects share: send with bounded retries, and turn a provider's refusal into one of
our stable codes (``llm.md`` §1.7, §1.8, §2.7).

Retried: HTTP 408/409/425/429 and 5xx (500, 502, 503, 504, 529...) and network failures before the status line
(refused, reset, a connect or write timeout; not a wrong URL scheme or proxy), at most
``ProviderConfig.max_retries`` times, waiting ``Retry-After`` (seconds or an HTTP date) when the provider
sends one, else 0.5 s, 1 s, 2 s..., never longer than ``retry_cap_s``. Never retried: 4xx other than 429
(a wrong key or model does not get better), anything once the answer has started streaming, and a *read*
timeout before the status line: the whole request reached the server, which may still be generating (a
non-streamed answer sends nothing until it is complete), so sending it again would start a second generation,
billed by a hosted provider, queued behind the first by a one-slot local engine, and abandoned at the same
timeout. It fails with ``provider_unavailable`` and a hint naming the setting to raise.
"""

from __future__ import annotations

import datetime
import email.utils
import json
import re
import time
from typing import Any

import anyio
import httpx2

from obsigate.agent.providers.base import ProviderConfig, ProviderError, ToolsRejected

__all__ = ["classify", "error_message", "open_response", "retry_delay"]

#: Messages that mean "this model or server does not take tools" (``llm.md`` §1.7); matched with the status.
_TOOLS_REJECTED = re.compile(
    r"does not support tools|support tool use|tool_choice|tool choice|tools param|unsupported param: tools"
    r"|function calling is not|does not support function|tools are not supported|enable-auto-tool-choice",
    re.IGNORECASE,
)
_CONTEXT = re.compile(
    r"context[ _]length|maximum context|context window|too many tokens|prompt is too long|input token count"
    r"|exceeds the (?:maximum|context)|(?:available )?context size|exceed_context_size|\bn_ctx\b",
    re.IGNORECASE,
)
#: The error ``code``/``type`` values that name a prompt over the context whatever the message says: OpenAI's and
#: llama-cpp-python's ``context_length_exceeded``, llama.cpp's server ``exceed_context_size_error``.
_CONTEXT_CODES = frozenset({"context_length_exceeded", "exceed_context_size_error"})
_RETRIED = {408, 409, 425, 429}


def error_message(body: str) -> str:
    """The human message inside a provider's error body, whatever its shape: OpenAI/OpenRouter/Gemini
    ``{"error": {"message"}}``, Ollama native ``{"error": "..."}``, vLLM's flat ``{"object": "error",
    "message"}``, FastAPI's ``{"detail": [...]}``, or plain text (cut to 500 characters)."""
    try:
        data: Any = json.loads(body)
    except ValueError:
        return body.strip()[:500] or "(empty body)"
    if isinstance(data, list) and data:  # Gemini's stream may wrap the error in a one-item list
        data = data[0]
    if isinstance(data, dict):
        err = data.get("error", data)
        if isinstance(err, str):
            return err[:500]
        if isinstance(err, dict):
            msg = err.get("message") or err.get("detail")
            if isinstance(msg, str):
                return msg[:500]
        detail = data.get("detail")
        if detail is not None:
            return json.dumps(detail)[:500]
    return body.strip()[:500]


def _error_codes(body: str) -> set[str]:
    """The string ``code`` and ``type`` of an error body's ``error`` object (or of a flat one), lower-cased;
    empty for any other body."""
    try:
        data: Any = json.loads(body)
    except ValueError:
        return set()
    if isinstance(data, list) and data:
        data = data[0]
    err = data.get("error", data) if isinstance(data, dict) else None
    if not isinstance(err, dict):
        return set()
    return {v.lower() for v in (err.get("code"), err.get("type")) if isinstance(v, str)}


def _google_status(body: str) -> tuple[str | None, set[str]]:
    """The ``error.status`` and the ``ErrorInfo`` reasons of a Google error body (``{"error": {"code",
    "message", "status", "details": [{"@type": ".../google.rpc.ErrorInfo", "reason"}]}}``, possibly wrapped in
    a one-item list); ``(None, set())`` for any other body."""
    try:
        data: Any = json.loads(body)
    except ValueError:
        return None, set()
    if isinstance(data, list) and data:
        data = data[0]
    err = data.get("error") if isinstance(data, dict) else None
    if not isinstance(err, dict):
        return None, set()
    status = err.get("status") if isinstance(err.get("status"), str) else None
    details = d if isinstance(d := err.get("details"), list) else []
    reasons = {d["reason"] for d in details if isinstance(d, dict) and isinstance(d.get("reason"), str)}
    return status, reasons


def classify(status: int, body: str, *, tools_sent: bool, provider: str, model: str) -> Exception:
    """The exception for a refused request: :class:`ToolsRejected` when ``tools_sent`` and the status and
    message are one of ``llm.md`` §1.7's (400/404/422, or llama.cpp's 500 "tools param requires --jinja"),
    else a :class:`ProviderError`:

    ============================  =====================================================================
    401, 403                      ``provider_auth_failed``
    400 Google API_KEY_INVALID    ``provider_auth_failed`` (Gemini's wrong key, ``llm.md`` §2.7)
    400 FAILED_PRECONDITION       ``provider_unavailable`` (Gemini: API not available to the account)
    402                           ``provider_unavailable`` (out of credit: the key works, the account does not)
    404                           ``model_not_found``
    429                           ``provider_rate_limited``
    400/413/422, context          ``context_length_exceeded`` (the message names the context, its size or
                                  ``n_ctx``; or the error's code/type says so: OpenAI, llama-cpp-python,
                                  llama.cpp's server)
    other 4xx                     ``provider_bad_response``
    5xx                           ``provider_unavailable``
    ============================  =====================================================================
    """
    message = error_message(body)
    where = f"{provider} ({model})"
    # Gemini (§2.7) answers a wrong key with 400 INVALID_ARGUMENT + ErrorInfo reason API_KEY_INVALID, and an
    # account that may not use the API (region, billing) with 400 FAILED_PRECONDITION; both are found only in
    # the Google error shape, so other dialects are unaffected.
    status_name, reasons = _google_status(body)
    if status == 400 and reasons & {"API_KEY_INVALID", "API_KEY_EXPIRED", "API_KEY_SERVICE_BLOCKED"}:
        return ProviderError(f"{where} refused the API key: {message}", code="provider_auth_failed")
    if status == 400 and status_name == "FAILED_PRECONDITION":
        return ProviderError(f"{where} refused the account (region or billing): {message}", code="provider_unavailable")
    if tools_sent and _TOOLS_REJECTED.search(message) and status in (400, 404, 422, 500):
        return ToolsRejected(message)
    if tools_sent and status == 422 and '"detail"' in body and "tool" in body.lower():
        return ToolsRejected(message)
    if status in (401, 403):
        return ProviderError(f"{where} refused the API key: {message}", code="provider_auth_failed")
    if status == 402:
        return ProviderError(f"{where} refused the request (payment required): {message}", code="provider_unavailable")
    if status == 404:
        return ProviderError(f"{where}: model or endpoint not found: {message}", code="model_not_found")
    if status == 429:
        return ProviderError(f"{where} is rate-limiting requests: {message}", code="provider_rate_limited")
    if status in (400, 413, 422) and (_CONTEXT.search(message) or _error_codes(body) & _CONTEXT_CODES):
        return ProviderError(f"{where}: {message}", code="context_length_exceeded")
    if 400 <= status < 500:
        return ProviderError(f"{where} rejected the request (HTTP {status}): {message}", code="provider_bad_response")
    return ProviderError(f"{where} failed (HTTP {status}): {message}", code="provider_unavailable")


def retry_delay(attempt: int, retry_after: str | None, cap_s: float) -> float:
    """Seconds to wait before try ``attempt + 1`` (``attempt`` counts from 0): ``Retry-After`` (delta seconds or
    an HTTP date, RFC 9110 §10.2.3) when given and valid, else 0.5 × 2^attempt; at most ``cap_s``."""
    delay = 0.5 * (2**attempt)
    if retry_after:
        value = retry_after.strip()
        try:
            delay = float(value)
        except ValueError:
            try:  # raises on a malformed date since Python 3.10 (it used to return None)
                parsed = email.utils.parsedate_to_datetime(value) if value else None
            except (TypeError, ValueError):
                parsed = None
            if parsed is not None:
                if parsed.tzinfo is None:  # "-0000" parses naive; HTTP dates are always GMT
                    parsed = parsed.replace(tzinfo=datetime.UTC)
                delay = parsed.timestamp() - time.time()
    return max(0.0, min(delay, cap_s))


def _retry_after_s(response: httpx2.Response, cap_s: float) -> int:
    return max(1, round(retry_delay(0, response.headers.get("retry-after"), max(cap_s, 60.0))))


async def open_response(
    client: httpx2.AsyncClient,
    config: ProviderConfig,
    url: str,
    *,
    body: dict[str, Any],
    headers: dict[str, str],
    tools_sent: bool,
    stream: bool = True,
) -> httpx2.Response:
    """POST ``body`` to ``url`` and return the 2xx response with its body not yet read (the caller reads or
    streams it, then closes it with ``aclose()``), retrying as the module docstring says. ``stream``: whether
    the answer is asked as a stream; the read timeout is :meth:`ProviderConfig.read_timeout_s` of it.

    Raises:
        ToolsRejected, ProviderError: see :func:`classify`; ``provider_unavailable`` when the server cannot be
            reached or times out; ``provider_rate_limited`` carries ``details.retry_after`` (s).
    """
    read_s = config.read_timeout_s(stream)
    attempt = 0
    while True:
        try:
            # connect/write/pool timeouts from the config, whatever client was passed in; the read timeout is
            # the idle one, or a local engine's longer one for a non-streamed answer
            timeout = httpx2.Timeout(config.timeout_s, read=read_s)
            request = client.build_request("POST", url, json=body, headers=headers, timeout=timeout)
        except httpx2.InvalidURL as exc:
            raise ProviderError(f"{config.name}: invalid base URL ({exc})", code="provider_not_configured") from None
        try:
            response = await client.send(request, stream=True)
        except httpx2.UnsupportedProtocol:
            raise ProviderError(
                f"{config.name}: the base URL must start with http:// or https:// ({config.base_url})",
                code="provider_not_configured",
            ) from None
        except httpx2.ReadTimeout:
            # Trigger: the request was sent whole and no status line came within the read timeout.
            # Why: the server has the request and may still be generating; a re-send is a second generation.
            # Outcome: fail now, never re-sent (module docstring), with the setting that gives it longer.
            setting = "OBSIGATE_AI_LOCAL_TIMEOUT" if config.local and not stream else "OBSIGATE_AI_TIMEOUT"
            raise ProviderError(
                f"{config.name} ({config.model}) did not answer within {read_s:g} s; the request was not sent again",
                code="provider_unavailable",
                hint=f"a slow model or a busy server: raise {setting} (seconds), or use a smaller model",
            ) from None
        except httpx2.TransportError as exc:
            # every other network failure (refused, reset, write error, pool timeout...) before the status line
            # is retried; only a bad proxy setting will not get better
            if attempt < config.max_retries and not isinstance(exc, httpx2.ProxyError):
                await anyio.sleep(retry_delay(attempt, None, config.retry_cap_s))
                attempt += 1
                continue
            raise ProviderError(
                f"{config.name} could not be reached at {config.base_url} ({type(exc).__name__})",
                code="provider_unavailable",
            ) from None
        if response.status_code < 300:
            return response
        try:
            text = (await response.aread()).decode("utf-8", "replace")
        except httpx2.TransportError:
            text = ""  # the error body was cut: the status alone decides
        finally:
            with anyio.CancelScope(shield=True):  # closed even when the caller is cancelled meanwhile
                await response.aclose()
        status = response.status_code
        if (
            (status in _RETRIED or status >= 500)
            and attempt < config.max_retries
            and not (tools_sent and _TOOLS_REJECTED.search(error_message(text)))
        ):
            await anyio.sleep(retry_delay(attempt, response.headers.get("retry-after"), config.retry_cap_s))
            attempt += 1
            continue
        if config.api_key:  # a server that echoes the key back never gets it into our messages or logs
            text = text.replace(config.api_key, "***")
        error = classify(status, text, tools_sent=tools_sent, provider=config.name, model=config.model)
        if isinstance(error, ProviderError) and error.code == "provider_rate_limited":
            error.details["retry_after"] = _retry_after_s(response, config.retry_cap_s)
        raise error
