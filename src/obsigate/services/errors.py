"""Every expected failure: one exception tree and one catalogue of stable error codes.

A failure a caller can act on is raised as a :class:`ServiceError` (or a subclass) carrying a ``code`` from
:data:`CATALOGUE`. The catalogue (``error_codes.toml`` beside this module) is the one place a code is defined: its HTTP status (REST), how MCP carries
it (:class:`Channel`), its meaning and the default next step. Each front translates an error exactly once:
REST renders :meth:`ServiceError.to_dict` with ``http_status``; MCP turns it into an ``isError`` tool result
or a JSON-RPC error. An unexpected exception is contained once, by :func:`internal_error`: one ERROR line on the
console with a fresh error id and the traceback, and an ``internal_error`` for the caller carrying that same id. ``docs/mcp.md`` §7 holds :func:`render_catalogue`'s table (``make docs`` rewrites it;
``tests/test_errors.py`` fails when a code is used but not catalogued, or the docs are stale).

Hierarchy (class default codes; any catalogued code may be raised with the class of its kind)::

    ServiceError (internal_error)
    ├── BadRequest (invalid_argument)
    │   └── PathOutsideVault (path_outside_vault)
    ├── Unauthenticated (unauthenticated)
    ├── Forbidden (forbidden)
    │   └── VaultAccessDenied (vault_access_denied)
    ├── NotFound (not_found)
    ├── Conflict (conflict)
    ├── PayloadTooLarge (too_large)
    ├── RateLimited (rate_limited)
    └── Unavailable (unavailable)

A full disk is one answer wherever it is met (the vault's disk, the backups, the change journal, the index):
:func:`is_storage_full` recognises it (``ENOSPC``, ``EDQUOT``, SQLite's ``SQLITE_FULL``) and
:func:`storage_full` builds its ``storage_full`` (507) error.
"""

from __future__ import annotations

import errno
import logging
import secrets
import sqlite3
import tomllib
import traceback
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from typing import Any

from obsigate.domain.redaction import redact_text

#: Where unexpected failures are logged (``obsigate serve`` prints the ``obsigate`` loggers on stderr).
log = logging.getLogger("obsigate.errors")


class Channel(StrEnum):
    """How MCP carries a code. ``result``: a ``tools/call`` result with ``isError: true`` (and JSON-RPC
    ``-32602`` with ``data.code`` from resources, prompts and completion, which have no ``isError``);
    ``protocol``: always a JSON-RPC ``-32602`` error; ``http``: refused by the HTTP layer before MCP;
    ``rest``: the REST API only."""

    RESULT = "result"
    PROTOCOL = "protocol"
    HTTP = "http"
    REST = "rest"


@dataclass(frozen=True, slots=True)
class ErrorCode:
    """One catalogued code: ``http_status``, MCP ``channel``, what it ``means`` and the default ``hint``."""

    code: str
    http_status: int
    channel: Channel
    means: str
    hint: str | None = None


def _load_catalogue() -> dict[str, ErrorCode]:
    """:data:`CATALOGUE` from ``error_codes.toml`` beside this module (data, so it reads as a table)."""
    text = resources.files(__package__).joinpath("error_codes.toml").read_text(encoding="utf-8")
    return {
        code: ErrorCode(code, row["status"], Channel(row["mcp"]), row["means"], row.get("hint"))
        for code, row in tomllib.loads(text).items()
    }


#: Every error code ObsiGate answers with, in the order docs/mcp.md lists them.
CATALOGUE: dict[str, ErrorCode] = _load_catalogue()


def error_body(
    code: str,
    message: str,
    hint: str | None = None,
    details: dict[str, Any] | None = None,
    error_id: str | None = None,
) -> dict[str, Any]:
    """The one wire shape of an error, for REST and MCP alike: ``{"code", "message", ["hint"], ["details"],
    ["error_id"]}`` (``error_id``: an ``internal_error``'s id, the one the server's log line carries)."""
    out: dict[str, Any] = {"code": code, "message": message}
    if hint:
        out["hint"] = hint
    if details:
        out["details"] = details
    if error_id:
        out["error_id"] = error_id
    return out


class ServiceError(Exception):
    """Base of every expected failure.

    Args:
        message: human sentence saying what went wrong and how to fix the call.
        code: a :data:`CATALOGUE` code; default the class's own.
        hint: next step for an agent (e.g. "call list_vaults"); none given → none sent.
        details: JSON-safe extra data (``retry_after``, ``errors``, ``reason``...).
        error_id: the id of the server's log line about this failure (an ``internal_error`` made by
            :func:`internal_error`); ``None`` for an expected failure, which is not logged.

    ``http_status`` comes from the catalogue entry of ``code``.

    Raises:
        ValueError: ``code`` is not catalogued (a bug: add it to :data:`CATALOGUE` first).
    """

    code: str = "internal_error"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        hint: str | None = None,
        details: dict[str, Any] | None = None,
        error_id: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if self.code not in CATALOGUE:
            raise ValueError(f"error code {self.code!r} is not in services.errors.CATALOGUE")
        self.hint = hint
        self.details = details or {}
        self.error_id = error_id

    @property
    def http_status(self) -> int:
        """The REST status of this error's code."""
        return CATALOGUE[self.code].http_status

    @property
    def channel(self) -> Channel:
        """How MCP carries this error's code."""
        return CATALOGUE[self.code].channel

    def to_dict(self) -> dict[str, Any]:
        """Return the wire shape (see :func:`error_body`)."""
        return error_body(self.code, self.message, self.hint, self.details, self.error_id)


class BadRequest(ServiceError):
    """The call itself is wrong: fixing its arguments fixes it. Raised with the more precise catalogued code
    where there is one (``not_a_directory``, ``invalid_regex``, ``unsafe_name``...)."""

    code = "invalid_argument"


class PathOutsideVault(BadRequest):
    """A path that would leave the vault or touch what it hides (``services.paths.resolve_safe_path``)."""

    code = "path_outside_vault"


class Unauthenticated(ServiceError):
    """No usable credential; REST adds ``WWW-Authenticate: Bearer``. ``details.reason`` names the check
    that failed, never the token."""

    code = "unauthenticated"


class Forbidden(ServiceError):
    """Known caller, refused action."""

    code = "forbidden"


class VaultAccessDenied(Forbidden):
    """The vault is not granted to the caller. Also said for a vault that does not exist, so a refusal
    never confirms which vaults exist (``Workspace.get_vault``)."""

    code = "vault_access_denied"


class NotFound(ServiceError):
    """No such file, folder, backup, tool or prompt."""

    code = "not_found"


class Conflict(ServiceError):
    """The state on disk is not what the call expects: the file changed since it was read or proposed
    (``conflict``), the target exists (``exists``), a token was spent (``token_reused``)...; nothing was
    written."""

    code = "conflict"


class PayloadTooLarge(ServiceError):
    """Over a size cap (a binary read, a request body)."""

    code = "too_large"


class RateLimited(ServiceError):
    """Over the per-user call budget; ``details.retry_after`` is in seconds (REST: ``Retry-After``)."""

    code = "rate_limited"


class Unavailable(ServiceError):
    """A part the call needs is missing or busy: no backup store, no confirmation service, a time budget
    spent (``timeout``)."""

    code = "unavailable"


#: ``errno`` values that mean the disk has no room left: full (``ENOSPC``) or over the user's quota (``EDQUOT``).
STORAGE_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def is_storage_full(exc: BaseException | None) -> bool:
    """Whether ``exc``, or an exception it was raised from or while handling, says the disk is full: an
    ``OSError`` with an errno of :data:`STORAGE_FULL_ERRNOS`, or a ``sqlite3.Error`` whose (primary) result
    code is ``SQLITE_FULL``. The chain is followed because layers below re-raise a disk's refusal as their
    own error (``BackupFailedError`` from the ``OSError``)."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError) and exc.errno in STORAGE_FULL_ERRNOS:
            return True
        code = getattr(exc, "sqlite_errorcode", None) if isinstance(exc, sqlite3.Error) else None
        if isinstance(code, int) and code & 0xFF == sqlite3.SQLITE_FULL:
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def storage_full(message: str, details: dict[str, Any] | None = None) -> ServiceError:
    """The ``storage_full`` error (507) saying ``message`` (what could not be done, and whether anything was
    changed), with the catalogue's hint (free some space, retry)."""
    return ServiceError(message, code="storage_full", hint=CATALOGUE["storage_full"].hint, details=details)


def internal_error(exc: BaseException, what: str, who: str = "") -> ServiceError:
    """Contain an unexpected exception: log it once and return the ``internal_error`` to answer with.

    The log line (logger ``obsigate.errors``, ERROR) starts with ``internal error <id>``, a fresh 8-hex-digit
    id, names ``what`` failed (a tool, a route) and ``who`` called (front and user; never a credential), and
    carries the traceback; every secret the redaction rules know (tokens, keys, passwords) is masked in it.
    The returned error carries the same id in ``error_id``, its message and its hint, so a person can quote
    it and an admin find the line.
    """
    error_id = secrets.token_hex(4)
    trace = "".join(traceback.format_exception(exc)).rstrip()
    line = f"internal error {error_id}: {what} failed" + (f" ({who})" if who else "")
    log.error("%s\n%s", redact_text(line), redact_text(trace))
    return ServiceError(
        f"{what} failed unexpectedly (error id {error_id})",
        code="internal_error",
        hint=f"retry; if it persists, report error id {error_id} to the server's admin",
        error_id=error_id,
    )


def render_catalogue() -> str:
    """The Markdown table of :data:`CATALOGUE` (code, HTTP status, MCP channel, meaning, next step) that
    ``docs/mcp.md`` §7 carries between ``<!-- error-codes:start -->`` and ``<!-- error-codes:end -->``."""
    channel = {
        Channel.RESULT: "`isError` result",
        Channel.PROTOCOL: "JSON-RPC `-32602`",
        Channel.HTTP: "HTTP, before MCP",
        Channel.REST: "REST only",
    }
    rows = ["| Code | HTTP | MCP | Meaning | Next step |", "|---|---|---|---|---|"]
    for e in CATALOGUE.values():
        rows.append(f"| `{e.code}` | {e.http_status} | {channel[e.channel]} | {e.means} | {e.hint or '—'} |")
    return "\n".join(rows)


def rewrite_docs(path: str) -> bool:
    """Put :func:`render_catalogue` between the error-code markers of the Markdown file ``path``; return
    whether it changed."""
    from pathlib import Path

    doc = Path(path)
    text = doc.read_text(encoding="utf-8")
    start, end = "<!-- error-codes:start -->\n", "\n<!-- error-codes:end -->"
    head, _, rest = text.partition(start)
    _, _, tail = rest.partition(end)
    new = f"{head}{start}{render_catalogue()}{end}{tail}"
    if new != text:
        doc.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":  # make docs
    import sys

    print("rewrote" if rewrite_docs(sys.argv[1]) else "up to date", sys.argv[1])
