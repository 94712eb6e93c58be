"""LoginThrottle over the real `limits` library and the real clock (issue 16 item 4). The windows of the rules
that wait are a second or two long here (the module's defaults are asserted as numbers), so each wait is real."""

from __future__ import annotations

import time

from limits import RateLimitItemPerHour, RateLimitItemPerMinute, RateLimitItemPerSecond

from obsigate.auth import throttle as th
from obsigate.auth.throttle import LoginThrottle
from obsigate.services.errors import RateLimited

A, B, C = "198.51.100.1", "198.51.100.2", "198.51.100.3"


def held(throttle: LoginThrottle, name: str, address: str) -> int | None:
    """``retry_after`` when the attempt is held, else ``None`` (the attempt is then counted)."""
    try:
        throttle.admit(name, address)
    except RateLimited as exc:
        assert exc.code == "rate_limited" and exc.http_status == 429
        return exc.details["retry_after"]
    return None


def flood(throttle: LoginThrottle, address: str, count: int, name: str | None = None) -> list[int | None]:
    return [held(throttle, name or f"nobody{i}", address) for i in range(count)]


def test_the_defaults() -> None:
    assert th.PER_PAIR == (RateLimitItemPerMinute(5), RateLimitItemPerHour(20))
    assert th.PER_NAME == (RateLimitItemPerHour(100),) and th.PER_ADDRESS == (RateLimitItemPerMinute(30),)
    # one address can add at most 20 an hour to a name's count: the per-name limit is 5x that
    assert th.PER_NAME[0].amount >= 5 * th.PER_PAIR[1].amount
    assert th.KNOWN_PAIR_TTL_S == 30 * 24 * 3600 and th.KNOWN_PAIRS_MAX == 10_000


def test_failures_for_one_name_from_one_address_hold_only_that_pair() -> None:
    t = LoginThrottle()
    assert flood(t, A, 5, "alice") == [None] * 5
    retry = held(t, "alice", A)
    assert retry is not None and 1 <= retry <= 60
    assert held(t, "ALICE", A) is not None  # the same name, compared as the user store does
    assert held(t, "alice", B) is None  # alice from her own address
    assert held(t, "bob", A) is None  # another name from the attacker's address


def test_the_pair_delay_grows_from_a_minute_to_an_hour() -> None:
    t = LoginThrottle(per_pair=(RateLimitItemPerSecond(2, 1), RateLimitItemPerHour(4)))
    assert flood(t, A, 2, "alice") == [None, None]
    assert 1 <= held(t, "alice", A) <= 1  # first tier: the short window
    time.sleep(1.1)
    assert flood(t, A, 2, "alice") == [None, None]
    assert 3000 < held(t, "alice", A) <= 3600  # 4 in the hour: now the long window holds it


def test_an_unknown_user_flood_from_one_address_never_holds_another_address() -> None:
    t = LoginThrottle()
    outcome = flood(t, A, 60)
    assert outcome[:30] == [None] * 30 and all(r is not None and r <= 60 for r in outcome[30:])
    assert held(t, "alice", A) is not None  # a name new to A: held by A's window (at most 60 s, see below)
    assert held(t, "alice", B) is None and held(t, "nobody1", B) is None


def test_a_flood_holds_a_name_new_to_that_address_at_most_one_window_after_it_stops() -> None:
    t = LoginThrottle(per_address=(RateLimitItemPerSecond(5, 2),))
    assert flood(t, A, 5) == [None] * 5
    started = time.monotonic()
    retry = held(t, "alice", A)
    assert retry is not None and retry <= 2
    for _ in range(20):  # the flood goes on while held: held attempts are not counted
        assert flood(t, A, 1) != [None]
    time.sleep(max(0.0, retry - (time.monotonic() - started)) + 0.05)
    assert held(t, "alice", A) is None  # the rule: at most one per-address window after the flood stops


def test_a_user_known_at_an_address_is_not_held_by_a_flood_from_it() -> None:
    t = LoginThrottle()
    t.admit("alice", A)
    t.succeeded("alice", A)
    assert all(r is not None for r in flood(t, A, 100)[30:])
    for _ in range(5):  # only alice's own pair limit applies to her at A: no delay at all
        assert held(t, "alice", A) is None
    t.succeeded("alice", A)  # a right password starts her pair count again
    assert held(t, "alice", A) is None


def test_the_per_name_limit_needs_several_addresses_and_spares_known_ones() -> None:
    t = LoginThrottle(per_pair=(RateLimitItemPerHour(20),), per_name=(RateLimitItemPerHour(40),))
    t.succeeded("alice", C)  # alice's own machine
    for address in (A, B):  # one address alone stops at 20, under the per-name 40
        assert flood(t, address, 20, "alice") == [None] * 20
        assert held(t, "alice", address) is not None
    assert held(t, "alice", "198.51.100.9") is not None  # 40 reached: a new address for alice waits
    assert held(t, "alice", C) is None  # her known address does not


def test_known_pairs_expire_and_are_bounded() -> None:
    now = [1000.0]
    t = LoginThrottle(per_address=(RateLimitItemPerMinute(1),), known_ttl_s=60, max_known=2, clock=lambda: now[0])
    t.succeeded("alice", A)
    assert flood(t, A, 1) == [None] and held(t, "nobody", A) is not None
    assert held(t, "alice", A) is None
    now[0] += 61  # forgotten after known_ttl_s
    assert held(t, "alice", A) is not None
    t.succeeded("alice", A)
    t.succeeded("bob", A)
    t.succeeded("carol", A)  # a third pair: the least recently successful (alice) is forgotten
    assert held(t, "carol", A) is None and held(t, "bob", A) is None and held(t, "alice", A) is not None
