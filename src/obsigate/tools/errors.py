"""The error tree for the fronts, without the tool catalogue: a leaf any transport imports to raise or catch an
error (``agent/providers``, the settings, a route's own checks) at the cost of :mod:`obsigate.services.errors`
alone. :mod:`obsigate.tools.api` re-exports the same names with the entry points that run tools.

Transports never import services (``tests/test_architecture.py``): this is their one way to the errors.
"""

from __future__ import annotations

from obsigate.services.errors import (
    CATALOGUE,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    PayloadTooLarge,
    RateLimited,
    ServiceError,
    Unauthenticated,
    Unavailable,
    error_body,
    internal_error,
)

__all__ = [
    "CATALOGUE", "BadRequest", "Conflict", "Forbidden", "NotFound", "PayloadTooLarge", "RateLimited", "ServiceError",
    "Unauthenticated", "Unavailable", "error_body", "internal_error",
]  # fmt: skip
