"""Service errors: one base class with a stable code and an HTTP status.

Every failure a caller can act on is raised as a :class:`ServiceError` subclass. Each front
translates it exactly once: REST renders ``{"code", "message"}`` with ``http_status``; the tool
layer turns it into a ``ToolError`` (an MCP ``isError`` result).

Hierarchy::

    ServiceError (500, internal_error)
    ├── BadRequest (400, invalid_argument)
    │   └── PathOutsideVault (400, path_outside_vault)
    ├── Unauthenticated (401, unauthenticated)
    ├── Forbidden (403, forbidden)
    │   └── VaultAccessDenied (403, vault_access_denied)
    ├── NotFound (404, not_found)
    ├── Conflict (409, conflict)
    ├── PayloadTooLarge (413, too_large)
    ├── RateLimited (429, rate_limited)
    └── Unavailable (503, unavailable)
"""

from __future__ import annotations

from typing import Any


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

    Attributes:
        code: stable machine-readable code (snake_case), part of the public API.
        http_status: status the REST front answers with.
        message: human sentence saying what went wrong and how to fix the call.
        hint: optional next step for an agent (e.g. "call list_vaults").
        details: optional JSON-safe extra data.
    """

    code: str = "internal_error"
    http_status: int = 500

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
        self.hint = hint
        self.details = details or {}

    def to_dict(self) -> dict[str, Any]:
        """Return the wire shape (see :func:`error_body`)."""
        return error_body(self.code, self.message, self.hint, self.details)


class BadRequest(ServiceError):
    code = "invalid_argument"
    http_status = 400


class PathOutsideVault(BadRequest):
    code = "path_outside_vault"


class Unauthenticated(ServiceError):
    code = "unauthenticated"
    http_status = 401


class Forbidden(ServiceError):
    code = "forbidden"
    http_status = 403


class VaultAccessDenied(Forbidden):
    code = "vault_access_denied"


class NotFound(ServiceError):
    code = "not_found"
    http_status = 404


class Conflict(ServiceError):
    code = "conflict"
    http_status = 409


class PayloadTooLarge(ServiceError):
    code = "too_large"
    http_status = 413


class RateLimited(ServiceError):
    code = "rate_limited"
    http_status = 429


class Unavailable(ServiceError):
    code = "unavailable"
    http_status = 503
