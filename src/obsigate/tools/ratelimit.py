"""Per-identity and per-tool rate limits (``OBSIGATE_TOOL_RATE_LIMIT*``), on the ``limits`` library.

Sliding-window counters (``shared/reference/security.md`` §6), in process memory: one ObsiGate process
serves all requests, so memory storage is exact here.
"""

from __future__ import annotations

import time

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from obsigate.services.errors import RateLimited


class ToolRateLimiter:
    """``limit`` calls per ``window_s`` seconds per identity, and ``per_tool`` per identity and tool."""

    def __init__(self, limit: int, window_s: int, per_tool: int | None = None) -> None:
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._global = RateLimitItemPerSecond(limit, window_s)
        self._per_tool = RateLimitItemPerSecond(per_tool or limit, window_s)

    def hit(self, identity: str, tool: str) -> None:
        """Count one call. Raises RateLimited (code ``rate_limited``, details ``retry_after`` in s)."""
        for item, keys in ((self._global, ("id", identity)), (self._per_tool, ("tool", identity, tool))):
            if not self._limiter.hit(item, *keys):
                reset = self._limiter.get_window_stats(item, *keys).reset_time
                retry = max(1, int(reset - time.time()) + 1)
                raise RateLimited(
                    f"too many calls; retry in {retry} s",
                    hint=f"wait {retry} seconds before calling again",
                    details={"retry_after": retry},
                )
