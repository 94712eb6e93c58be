"""The tool layer's one error type: what a model or client sees when a call fails."""

from __future__ import annotations

from typing import Any

from obsigate.services.errors import ServiceError, error_body


class ToolError(Exception):
    """A failed tool call: stable ``code``, a ``message`` saying how to fix the call, an optional ``hint``
    (next step), ``details`` (JSON-safe) and the ``http_status`` REST answers with."""

    def __init__(
        self, code: str, message: str, *, hint: str | None = None, details: dict[str, Any] | None = None, http_status: int = 400
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.details = details or {}
        self.http_status = http_status

    @classmethod
    def from_service(cls, exc: ServiceError) -> ToolError:
        """Translate a :class:`ServiceError` (the only place this mapping happens)."""
        return cls(exc.code, exc.message, hint=exc.hint, details=exc.details, http_status=exc.http_status)

    def to_dict(self) -> dict[str, Any]:
        """Wire shape ``{"code", "message", ["hint"], ["details"]}`` (:func:`~obsigate.services.errors.error_body`)."""
        return error_body(self.code, self.message, self.hint, self.details)
