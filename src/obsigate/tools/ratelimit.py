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

#: How often, at most, counters of windows that have ended are dropped (seconds).
SWEEP_EVERY_S = 1.0


class SweptMemoryStorage(MemoryStorage):
    """``limits``' in-memory storage without its cleanup thread per call.

    ``MemoryStorage`` drops ended windows from a ``threading.Timer`` of 10 ms that it starts again from
    ``incr`` whenever the last one has finished: at an agent's pace (a call every few ms) that is a new
    thread on almost every call, started on the event loop, which waits for the thread to run (0.1 ms
    typical, 3.5 ms p95 with the GIL contended; issue 20's profile: 15 % of a ``read_file`` over MCP). The
    counts do not need it: ``get`` already ignores and drops an ended window of the key it reads. Here the
    sweep of the other keys (memory only) runs inline, at most every :data:`SWEEP_EVERY_S`, under the
    storage's per-key locks as before.
    """

    def __init__(self) -> None:
        super().__init__()
        self._next_sweep = 0.0

    # ``MemoryStorage.incr`` and ``acquire_*`` call ``self.__schedule_expiry()``, i.e. this name (Python's
    # name mangling of a private method); ``tests/tools/test_ratelimit.py`` checks no thread is started.
    def _MemoryStorage__schedule_expiry(self) -> None:  # noqa: N802 — the mangled name is the hook
        now = time.monotonic()
        if now >= self._next_sweep:
            self._next_sweep = now + SWEEP_EVERY_S
            self._MemoryStorage__expire_events()  # type: ignore[attr-defined]


class ToolRateLimiter:
    """``limit`` calls per ``window_s`` seconds per identity, and ``per_tool`` per identity and tool."""

    def __init__(self, limit: int, window_s: int, per_tool: int | None = None) -> None:
        self._limiter = SlidingWindowCounterRateLimiter(SweptMemoryStorage())
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
