"""The tool rate limiter (``tools/ratelimit.py``): the limits hold, and counting a call starts no thread.

``limits``' own ``MemoryStorage`` starts a cleanup ``threading.Timer`` from nearly every call made more than
10 ms after the previous one (issue 20's profile: 15 % of an MCP ``read_file``); the storage used here sweeps
inline instead, at most once a second.
"""

from __future__ import annotations

import threading
import time

import pytest

from obsigate.services.errors import RateLimited
from obsigate.tools.ratelimit import SWEEP_EVERY_S, ToolRateLimiter


def test_the_identity_and_the_per_tool_limits_still_refuse_with_a_retry_time() -> None:
    limiter = ToolRateLimiter(limit=5, window_s=60, per_tool=2)
    limiter.hit("ann", "read_file")
    limiter.hit("ann", "read_file")
    with pytest.raises(RateLimited) as per_tool:
        limiter.hit("ann", "read_file")
    assert per_tool.value.code == "rate_limited" and 1 <= per_tool.value.details["retry_after"] <= 61
    limiter.hit("ann", "search_fulltext")  # another tool: its own per-tool budget, the same identity budget
    limiter.hit("bob", "read_file")  # another identity: untouched by ann's calls
    # ann's identity count: 2 read_file + 1 refused (counted against the identity before the tool) + 1 search
    limiter.hit("ann", "list_vaults")
    with pytest.raises(RateLimited):
        limiter.hit("ann", "list_files")


def test_counting_calls_spaced_out_starts_no_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    limiter = ToolRateLimiter(limit=1_000, window_s=60)
    started: list[threading.Thread] = []
    real_start = threading.Thread.start

    def spy(self: threading.Thread) -> None:
        started.append(self)
        real_start(self)

    monkeypatch.setattr(threading.Thread, "start", spy)
    for i in range(20):
        limiter.hit("ann", f"tool{i % 3}")
        time.sleep(0.015)  # longer than limits' 10 ms timer: its storage would start a new one every call
    assert started == []


def test_ended_windows_are_swept_from_memory() -> None:
    limiter = ToolRateLimiter(limit=10, window_s=1)
    limiter.hit("ann", "read_file")
    storage = limiter._limiter.storage
    assert any("ann" in key for key in storage.storage)
    time.sleep(2 + SWEEP_EVERY_S)  # a counter lives two windows, then the next sweep may drop it
    limiter.hit("bob", "read_file")
    assert not any("ann" in key for key in storage.storage), dict(storage.storage)
    assert any("bob" in key for key in storage.storage)
