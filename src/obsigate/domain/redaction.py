"""Secret redaction for anything that leaves ObsiGate towards a client or a model.

Two layers, as measured in ``shared/reference/security.md`` §5: provider token shapes (formats published by
the providers; patterns written here) and structural rules (PEM blocks, URL user-info, ``name = value``
assignments whose name says secret). A match becomes ``[REDACTED:<rule>]`` so the reader still knows a
secret was there. Patterns are anchored on fixed prefixes and bounded repeats, so a hostile note cannot make
them backtrack badly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_PLACEHOLDERS = ("example", "your", "xxxx", "changeme", "<", "${", "placeholder", "redacted", "****")

# (rule id, compiled pattern, group holding the secret: 0 = whole match)
_TOKEN_RULES: list[tuple[str, re.Pattern[str], int]] = [
    ("private-key", re.compile(r"-----BEGIN[A-Z ]{0,40}PRIVATE KEY-----[\s\S]{0,10000}?-----END[A-Z ]{0,40}PRIVATE KEY-----"), 0),
    ("anthropic-api-key", re.compile(r"\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,120}"), 0),
    ("openai-api-key", re.compile(r"\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,200}"), 0),
    ("openai-api-key", re.compile(r"\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b"), 0),
    ("github-token", re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b"), 0),
    ("github-token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{60,100}\b"), 0),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b"), 0),
    ("google-api-key", re.compile(r"\bAIza[A-Za-z0-9_-]{35}\b"), 0),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,100}"), 0),
    ("slack-webhook", re.compile(r"https://hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,100}"), 0),
    ("stripe-key", re.compile(r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}\b"), 0),
    ("obsigate-api-key", re.compile(r"\bog_[A-Za-z0-9]{40,60}\b"), 0),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,1000}"), 0),
    ("url-credentials", re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@]{1,100}:([^\s@/]{3,200})@"), 1),
]
# `api_key = "..."`, `password: hunter22`, `export DB_PASSWORD=...` (name must say it is secret)
_ASSIGNMENT = re.compile(
    r"(?i)\b([A-Za-z0-9_.-]{0,40}(?:password|passwd|secret|token|api[_-]?key|apikey|private[_-]?key|access[_-]?key|auth)"
    r"[A-Za-z0-9_.-]{0,20})(\s{0,3}[:=]\s{0,3})([\"']?)([^\s\"'`]{8,500})\3"
)


def _is_placeholder(value: str) -> bool:
    low = value.lower()
    return any(p in low for p in _PLACEHOLDERS) or low.startswith("[redacted")


def redact_text(text: str) -> str:
    """Return ``text`` with every detected secret replaced by ``[REDACTED:<rule>]``.

    Shapes: str → str; text without secrets comes back unchanged (same object).
    """
    if not text:
        return text
    out = text
    for rule, pattern, group in _TOKEN_RULES:
        if group == 0:
            out = pattern.sub(f"[REDACTED:{rule}]", out)
        else:
            out = pattern.sub(_group_replacer(rule, group), out)

    def _assign(m: re.Match[str]) -> str:
        value = m.group(4)
        if _is_placeholder(value):
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}{m.group(3)}[REDACTED:secret-assignment]{m.group(3)}"

    return _ASSIGNMENT.sub(_assign, out)


def _group_replacer(rule: str, group: int) -> Callable[[re.Match[str]], str]:
    def repl(m: re.Match[str]) -> str:
        start, end = m.span(group)
        base = m.start(0)
        whole = m.group(0)
        return whole[: start - base] + f"[REDACTED:{rule}]" + whole[end - base :]

    return repl


def redact_payload(value: Any) -> Any:
    """Redact every string inside a JSON-like value (dicts, lists, tuples, str); other values pass through."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        return {k: redact_payload(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_payload(v) for v in value]
    return value
