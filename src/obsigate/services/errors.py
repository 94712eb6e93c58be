"""Every expected failure: one exception tree and one catalogue of stable error codes.

A failure a caller can act on is raised as a :class:`ServiceError` (or a subclass) carrying a ``code`` from
:data:`CATALOGUE`. The catalogue is the one place a code is defined: its HTTP status (REST), how MCP carries
it (:class:`Channel`), its meaning and the default next step. Each front translates an error exactly once:
REST renders :meth:`ServiceError.to_dict` with ``http_status``; MCP turns it into an ``isError`` tool result
or a JSON-RPC error. ``docs/mcp.md`` §7 holds :func:`render_catalogue`'s table (``make docs`` rewrites it;
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
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


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


_R, _P, _H, _REST = Channel.RESULT, Channel.PROTOCOL, Channel.HTTP, Channel.REST

CATALOGUE: dict[str, ErrorCode] = {
    e.code: e
    for e in (
        ErrorCode("invalid_argument", 400, _R, "Arguments do not match the schema; `details.errors` lists them",
                  "fix the arguments"),
        ErrorCode("path_outside_vault", 400, _R, "Absolute path, `..`, backslash, NUL, hidden entry or a symlink "
                  "leaving the vault", "use a vault-relative path with '/'"),
        ErrorCode("unsafe_name", 400, _R, "A new name with a separator, a reserved or hidden name"),
        ErrorCode("is_a_directory", 400, _R, "A folder where a file was expected", "list_directory"),
        ErrorCode("not_a_directory", 400, _R, "A file where a folder was expected", "read_file"),
        ErrorCode("not_a_file", 400, _R, "A special file (socket, device) where a regular file was expected"),
        ErrorCode("not_text", 400, _R, "A binary or non-UTF-8 file where text was expected", "read_file_raw"),
        ErrorCode("invalid_regex", 400, _R, "The regex does not compile or expands too much", "fix the pattern"),
        ErrorCode("invalid_glob", 400, _R, "Too many globs, an empty or long one, or braces expanding too far"),
        ErrorCode("count_mismatch", 400, _R, "`find` occurs another number of times than `expected_count`",
                  "read the note again, or set expected_count"),
        ErrorCode("ambiguous", 400, _R, "The heading occurs more than once in the note"),
        ErrorCode("hidden_entries", 409, _R, "A folder holds hidden entries ObsiGate never touches"),
        ErrorCode("directory_not_empty", 409, _R, "Deleting a non-empty folder without `recursive`"),
        ErrorCode("invalid_confirmation", 400, _R, "The confirmation token is malformed, expired, for another "
                  "tool, or its proposal is gone; `details.reason` says which", "propose again"),
        ErrorCode("unsupported_media_type", 400, _REST, "A write whose body is not declared as JSON"),
        ErrorCode("unauthenticated", 401, _H, "No, an expired or a revoked credential",
                  "send Authorization: Bearer <token or API key>"),
        ErrorCode("forbidden", 403, _R, "Not allowed for you (e.g. another user's confirmation token)"),
        ErrorCode("vault_access_denied", 403, _R, "The vault is not granted to you (or does not exist)",
                  "call list_vaults to see the vaults you can use"),
        ErrorCode("vault_read_only", 403, _R, "The vault is served read-only"),
        ErrorCode("destructive_tools_disabled", 403, _R, "Rename, move, replace and delete are off for this vault "
                  "(`aiDestructiveTools`)"),
        ErrorCode("forbidden_origin", 403, _REST, "A browser write from another site's `Origin`"),
        ErrorCode("auth_disabled", 400, _REST, "Login or token calls while authentication is off"),
        ErrorCode("not_found", 404, _R, "No such file, folder, vault or backup", "list_directory, search_paths"),
        ErrorCode("unknown_tool", 404, _P, "No tool of that name on this front", "list the tools"),
        ErrorCode("unknown_prompt", 404, _P, "No prompt of that name", "see prompts/list"),
        ErrorCode("unknown_template", 404, _P, "No resource template of that URI", "see resources/templates/list"),
        ErrorCode("method_not_allowed", 405, _REST, "The route does not take this HTTP method"),
        ErrorCode("conflict", 409, _R, "A file changed since it was read or proposed; nothing was written",
                  "read or propose again"),
        ErrorCode("exists", 409, _R, "The target already exists; nothing is overwritten"),
        ErrorCode("token_reused", 409, _R, "The confirmation token was already used", "propose again"),
        ErrorCode("confirmation_required", 409, _R, "A write tool called without its propose_/apply_ steps",
                  "call propose_<tool>, then apply_<tool>"),
        ErrorCode("too_large", 413, _R, "A file or request body over its cap"),
        ErrorCode("misdirected_request", 421, _H, "A `Host` that is not this server's (DNS-rebinding guard)",
                  "set --public-url or OBSIGATE_ALLOWED_HOSTS"),
        ErrorCode("rate_limited", 429, _R, "Too many calls; `details.retry_after` in seconds", "wait"),
        ErrorCode("internal_error", 500, _R, "Unexpected failure (logged server-side, never a traceback)",
                  "retry; report it if it persists"),
        ErrorCode("backup_failed", 500, _R, "The backup before a change failed, so nothing was changed"),
        ErrorCode("backup_damaged", 500, _R, "A stored backup does not match its checksum"),
        ErrorCode("unavailable", 503, _R, "A service the call needs is not configured or not ready"),
        ErrorCode("timeout", 503, _R, "The search ran out of its time budget", "narrow the query"),
        ErrorCode("http_error", 400, _REST, "Another HTTP-level refusal (the status says which)"),
    )
}  # fmt: skip


def error_body(code: str, message: str, hint: str | None = None, details: dict[str, Any] | None = None) -> dict[str, Any]:
    """The one wire shape of an error, for REST and MCP alike: ``{"code", "message", ["hint"], ["details"]}``."""
    out: dict[str, Any] = {"code": code, "message": message}
    if hint:
        out["hint"] = hint
    if details:
        out["details"] = details
    return out


class ServiceError(Exception):
    """Base of every expected failure.

    Args:
        message: human sentence saying what went wrong and how to fix the call.
        code: a :data:`CATALOGUE` code; default the class's own.
        hint: next step for an agent (e.g. "call list_vaults"); none given → none sent.
        details: JSON-safe extra data (``retry_after``, ``errors``, ``reason``...).

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
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if self.code not in CATALOGUE:
            raise ValueError(f"error code {self.code!r} is not in services.errors.CATALOGUE")
        self.hint = hint
        self.details = details or {}

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
        return error_body(self.code, self.message, self.hint, self.details)


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
