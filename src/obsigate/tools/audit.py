"""What the tool journal keeps of a call's arguments (:func:`summarize_args`) and how a value is shown.

The journal itself (one chained row per call, ``<data_dir>/journal.sqlite3``) is
:mod:`obsigate.domain.storage.tool_journal`, written by the door. Note contents, replacement texts and anything
secret never enter a row's summary: long or content-like arguments are reduced to their length and a SHA-256
prefix.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from obsigate.domain.redaction import redact_text

_CONTENT_KEYS = {"content", "replace", "find", "text", "password", "confirmation_token", "token"}
_MAX_INLINE = 120
#: Arguments an audit reader needs whole (the web tools' target: which page was read, what was searched),
#: kept up to this many characters, redacted (a URL's user name and password, its secret-looking parameters).
_KEPT_KEYS = {"url": 2048, "query": 400}
_USERINFO = re.compile(r"(?<=://)[^/?#@\s]*@")


def shown_value(text: str) -> str:
    """``text`` as it may be shown or logged: a URL's user name and password replaced, secrets redacted
    (:func:`~obsigate.domain.redaction.redact_text`). Used by the audit and the assistant's step labels."""
    return redact_text(_USERINFO.sub("[REDACTED]@", text))


def summarize_args(args: dict[str, Any]) -> dict[str, Any]:
    """Arguments safe to log: content-like or long strings become ``"<N chars sha256:abcd1234>"``; a ``url`` or
    ``query`` (the web tools') is kept, cut at 2048/400 characters and redacted (userinfo, secret parameters)."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        if isinstance(value, str) and key in _KEPT_KEYS:
            out[key] = shown_value(value[: _KEPT_KEYS[key]])
        elif isinstance(value, str) and (key in _CONTENT_KEYS or len(value) > _MAX_INLINE):
            digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:12]
            out[key] = f"<{len(value)} chars sha256:{digest}>"
        elif isinstance(value, str):
            out[key] = redact_text(value)
        elif isinstance(value, (int, float, bool)) or value is None:
            out[key] = value
        else:
            text = json.dumps(value, ensure_ascii=False, default=str)
            out[key] = text if len(text) <= _MAX_INLINE else f"<{type(value).__name__} {len(text)} chars>"
    return out
