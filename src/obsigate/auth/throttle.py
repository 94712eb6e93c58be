"""Sign-in throttling that cannot lock others out (issue 16 item 4; ``security.md`` §4.5 and §6).

Every password check (``POST /api/auth/login`` and ``POST /api/auth/session``) passes :meth:`LoginThrottle.admit`
*before* the slow argon2 verification, so parallel requests cannot multiply the guesses. An attempt is counted
under three kinds of keys, each a moving window of the ``limits`` library in process memory (one ObsiGate process
serves every request, so memory is exact here):

=========================  ===========================  ====================================================
key                        default limits               whom it can hold back
=========================  ===========================  ====================================================
user name + client address 5 a minute, then 20 an hour  that name from that address only
user name, any address     100 an hour                  that name, from addresses it never signed in from
client address, any name   30 a minute                  that address, for names never signed in from it
=========================  ===========================  ====================================================

What keeps a flood from locking other people out:

* An attempt that is held is **not counted**: a flood stops feeding the windows that hold it, so once it stops
  each window frees up within its own length (the *bounded delay*: 60 s for an address, at most an hour for a
  name + address pair after 20 failures, which the two tiers make a *growing* delay: a minute, then an hour).
* A successful sign-in clears the counters of its (name, address) pair and remembers the pair as **known** (in
  memory, for ``known_ttl_s``, at most ``max_known`` pairs, the oldest forgotten first). A known pair is held only
  by its own pair limit, never by the per-name or per-address ones.
* So a flood from address A, for unknown names or for one real user, never holds anyone back at address B (the
  pair and address keys are A's; the per-name limit is five times what one address can add to it in an hour,
  since A's own pair stops at 20); and at address A it does not hold back a user who has signed in from A before,
  while a user new to A waits at most one per-address window (60 s) once the flood stops.

User names are compared case-insensitively and kept only as a short SHA-256 prefix. The client address is what
the front says it is (``api/client_address.py``: the socket peer, or ``X-Forwarded-For`` from a trusted proxy).
A restart forgets every counter and every known pair.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from limits import RateLimitItem, RateLimitItemPerHour, RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from obsigate.services.errors import RateLimited

__all__ = [
    "KNOWN_PAIRS_MAX",
    "KNOWN_PAIR_TTL_S",
    "PER_ADDRESS",
    "PER_NAME",
    "PER_PAIR",
    "LoginThrottle",
]

#: Attempts for one user name from one client address: 5 a minute, and 20 an hour (the delay grows).
PER_PAIR: tuple[RateLimitItem, ...] = (RateLimitItemPerMinute(5), RateLimitItemPerHour(20))
#: Attempts for one user name from addresses it has not signed in from: five times one address's hourly share.
PER_NAME: tuple[RateLimitItem, ...] = (RateLimitItemPerHour(100),)
#: Attempts from one client address for names that have not signed in from it (an unknown-user flood, spraying).
PER_ADDRESS: tuple[RateLimitItem, ...] = (RateLimitItemPerMinute(30),)
#: How long a successful (name, address) pair stays known, and how many pairs are remembered.
KNOWN_PAIR_TTL_S = 30 * 24 * 3600
KNOWN_PAIRS_MAX = 10_000


def _account(name: str) -> str:
    """The key of a user name: case-folded like the user store compares names, hashed so no name is kept."""
    return hashlib.sha256(name.lower().encode("utf-8", "surrogatepass")).hexdigest()[:16]


class LoginThrottle:
    """Counts sign-in attempts per (name, address), per name and per address; see the module docstring.

    Args:
        per_pair, per_name, per_address: the limits of each key kind, all of which must allow an attempt
            (``limits`` items: ``RateLimitItemPerMinute(5)``...); an empty tuple turns a kind off.
        known_ttl_s: seconds a successful (name, address) pair stays exempt from the per-name and per-address
            limits.
        max_known: most pairs remembered; the least recently successful are forgotten first.
        clock: seconds since the epoch, for the known pairs only (the windows use the ``limits`` library's clock).

    Thread-safe.
    """

    def __init__(
        self,
        *,
        per_pair: Sequence[RateLimitItem] = PER_PAIR,
        per_name: Sequence[RateLimitItem] = PER_NAME,
        per_address: Sequence[RateLimitItem] = PER_ADDRESS,
        known_ttl_s: float = KNOWN_PAIR_TTL_S,
        max_known: int = KNOWN_PAIRS_MAX,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if max_known < 1 or known_ttl_s <= 0:
            raise ValueError("need max_known >= 1 and known_ttl_s > 0")
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._per_pair = tuple(per_pair)
        self._per_name = tuple(per_name)
        self._per_address = tuple(per_address)
        self._known_ttl_s = known_ttl_s
        self._max_known = max_known
        self._clock = clock
        self._known: OrderedDict[tuple[str, str], float] = OrderedDict()  # (account, address) -> known until
        self._lock = threading.Lock()

    def admit(self, name: str, address: str) -> None:
        """Count one sign-in attempt for user ``name`` from client ``address``, or refuse it uncounted.

        Call it before checking the password, and :meth:`succeeded` when the password was right.

        Raises:
            RateLimited: code ``rate_limited`` (HTTP 429), ``details["retry_after"]``: whole seconds (at least 1)
                until every limit that held the attempt has room again.
        """
        account = _account(name)
        checks: list[tuple[RateLimitItem, tuple[str, ...]]] = [
            (item, ("login-pair", account, address)) for item in self._per_pair
        ]
        with self._lock:
            if not self._is_known(account, address):
                checks += [(item, ("login-name", account)) for item in self._per_name]
                checks += [(item, ("login-address", address)) for item in self._per_address]
            held = [(item, keys) for item, keys in checks if not self._limiter.test(item, *keys)]
            if not held:
                for item, keys in checks:
                    self._limiter.hit(item, *keys)
                return
            reset = max(self._limiter.get_window_stats(item, *keys).reset_time for item, keys in held)
        retry = max(1, math.ceil(reset - time.time()))
        raise RateLimited(
            f"too many sign-in attempts; retry in {retry} s",
            hint=f"wait {retry} seconds before signing in again",
            details={"retry_after": retry},
        )

    def succeeded(self, name: str, address: str) -> None:
        """Record a right password for ``name`` from ``address``: the pair's counters start again from zero, and
        the pair is known (exempt from the per-name and per-address limits) for ``known_ttl_s``."""
        account = _account(name)
        with self._lock:
            for item in self._per_pair:
                self._limiter.clear(item, "login-pair", account, address)
            self._known[(account, address)] = self._clock() + self._known_ttl_s
            self._known.move_to_end((account, address))
            while len(self._known) > self._max_known:
                self._known.popitem(last=False)

    def _is_known(self, account: str, address: str) -> bool:
        until = self._known.get((account, address))
        if until is None:
            return False
        if until <= self._clock():
            del self._known[(account, address)]
            return False
        return True
