"""Audit trail: one JSON line per tool call in ``<data_dir>/audit.log``.

Records say who called what, on which vault, with which (summarised) arguments, and how it ended. Note
contents, replacement texts and anything secret never enter the log: long or content-like arguments are
reduced to their length and a SHA-256 prefix.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from obsigate.domain.redaction import redact_text
from obsigate.domain.storage.private_files import ensure_private_file

_CONTENT_KEYS = {"content", "replace", "find", "text", "password", "confirmation_token", "token"}
_MAX_INLINE = 120
#: Arguments an audit reader needs whole (the web tools' target: which page was read, what was searched),
#: kept up to this many characters, redacted (a URL's user name and password, its secret-looking parameters).
_KEPT_KEYS = {"url": 2048, "query": 400}
_USERINFO = re.compile(r"(?<=://)[^/?#@\s]*@")


@dataclass(frozen=True, slots=True)
class AuditEvent:
    """One tool call. ``result`` is ``"ok"`` or the error code; ``duration_ms`` is wall time in ms.

    Mutations add ``paths`` (the files a proposal or an application touches), ``proposal`` (the confirmation's
    ``jti``, linking a ``propose_`` record to its ``apply_`` record; never the token itself) and ``backups``
    (the backup ids the tool reported). ``session``: the MCP session or agent run the call belongs to.
    ``error_id``: an ``internal_error``'s id, the one in the server's log line and in the caller's answer.
    """

    user: str
    auth_kind: str
    mode: str
    tool: str
    vault: str | None
    args: dict[str, Any]
    result: str
    duration_ms: float
    action: str = "ai_tool_call"
    paths: list[str] | None = None
    proposal: str | None = None
    backups: list[str] | None = None
    session: str | None = None
    error_id: str | None = None


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


class AuditLog:
    """Append-only JSONL file, safe to call from several threads. The file is created with mode 0600 (an
    existing one is tightened to it; see :func:`~obsigate.domain.storage.private_files.ensure_private_file`).

    Raises:
        OSError: the file cannot be created or opened for writing, or is a symlink or not a regular file.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        ensure_private_file(path)

    def record(self, event: AuditEvent) -> None:
        """Append ``event`` with a UTC ``ts``. I/O errors are swallowed: auditing must not break a read. A record
        the disk has no room for is dropped whole (the file is cut back to where it ended), never left torn."""
        line = {"ts": datetime.now(UTC).isoformat(timespec="milliseconds"), **asdict(event)}
        # backslashreplace: a lone surrogate in a refused argument must not cost the record
        data = (json.dumps(line, ensure_ascii=False, default=str) + "\n").encode("utf-8", "backslashreplace")
        with self._lock:
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                try:
                    end = os.fstat(fd).st_size
                    view = memoryview(data)
                    try:
                        while view:  # a full disk writes what fits and returns short; the next write fails
                            view = view[os.write(fd, view) :]
                    except OSError:
                        os.ftruncate(fd, end)
                        raise
                finally:
                    os.close(fd)
            except OSError:
                pass

    def tail(self, n: int = 50) -> list[dict[str, Any]]:
        """The last ``n`` records, oldest first."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()[-n:]
        except OSError:
            return []
        return [json.loads(line) for line in lines if line.strip()]
