"""Arguments of ``search_advanced``, checked and compiled: date and size ranges, path globs, the query pattern.

Each check raises :class:`~obsigate.services.errors.BadRequest` with a stable code (``invalid_argument``,
``invalid_glob``, ``invalid_regex``) before any note is read, and caps what could cost unbounded time:
glob count, length and brace expansion; pattern length and the expansion of counted repeats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import regex as rx
from wcmatch import glob as wcglob

from obsigate.domain.text import nfc
from obsigate.services.errors import BadRequest

MAX_Q_CHARS = 500
MAX_PATTERN_WEIGHT = 20_000  # counted repeats expand at compile time: (a{1000}){1000} takes seconds
MAX_GLOBS = 20  # per list
MAX_GLOB_CHARS = 256
MAX_GLOB_EXPANSION = 256  # patterns one list may expand to through braces

_GLOB_FLAGS = wcglob.GLOBSTAR | wcglob.BRACE | wcglob.FORCEUNIX | wcglob.IGNORECASE
_COUNTED = rx.compile(r"\{(\d*)(?:,(\d*))?\}")


def _instant(value: object, name: str) -> int:
    """ISO 8601 date (UTC midnight) or date-time (UTC when it has no offset) → ns since the epoch."""
    try:
        if not isinstance(value, str):
            raise ValueError
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise BadRequest(
            f"{name} must be an ISO 8601 date or date-time, e.g. 2024-05-01 or 2024-05-01T09:30:00Z; got {value!r}"
        ) from None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    delta = parsed - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000


def time_range(value: Mapping[str, Any] | None, name: str) -> tuple[int | None, int | None] | None:
    """``{"after", "before"}`` → (after_ns inclusive, before_ns exclusive), or ``None`` when unbounded."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) - {"after", "before"}:
        raise BadRequest(f"{name} must be an object with 'after' and/or 'before'")
    lo = None if value.get("after") is None else _instant(value["after"], f"{name}.after")
    hi = None if value.get("before") is None else _instant(value["before"], f"{name}.before")
    if lo is not None and hi is not None and lo >= hi:
        raise BadRequest(f"{name}.after must be earlier than {name}.before")
    return None if lo is None and hi is None else (lo, hi)


def size_range(value: Mapping[str, Any] | None) -> tuple[int | None, int | None] | None:
    """``{"min", "max"}`` in bytes, both inclusive → (min, max), or ``None`` when unbounded."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) - {"min", "max"}:
        raise BadRequest("size must be an object with 'min' and/or 'max' (bytes)")
    bounds = (value.get("min"), value.get("max"))
    for b in bounds:
        if b is not None and (isinstance(b, bool) or not isinstance(b, int) or b < 0):
            raise BadRequest(f"size.min and size.max must be whole numbers of bytes >= 0; got {b!r}")
    if bounds[0] is not None and bounds[1] is not None and bounds[0] > bounds[1]:
        raise BadRequest("size.min must not be larger than size.max")
    return None if bounds == (None, None) else bounds


def compile_globs(patterns: Sequence[str] | None, name: str) -> wcglob.WcMatcher | None:
    """Vault-relative path globs → one matcher (a path matches if any glob does), or ``None`` for none.

    ``*`` and ``?`` stay inside one folder, ``**`` spans folders (``Projects/**``, ``**/*.md``), ``{a,b}``
    alternates, ``[...]`` is a set; case is ignored.

    Raises:
        BadRequest (code ``invalid_glob``): more than :data:`MAX_GLOBS` globs, one longer than
            :data:`MAX_GLOB_CHARS`, an empty one, or braces expanding to more than :data:`MAX_GLOB_EXPANSION`.
    """
    if not patterns:
        return None
    if isinstance(patterns, str) or len(patterns) > MAX_GLOBS:
        raise BadRequest(f"{name} must be a list of at most {MAX_GLOBS} globs", code="invalid_glob")
    for p in patterns:
        if not isinstance(p, str) or not p.strip() or len(p) > MAX_GLOB_CHARS or "\x00" in p:
            raise BadRequest(f"each of {name} must be a glob of 1 to {MAX_GLOB_CHARS} characters", code="invalid_glob")
    try:
        return wcglob.compile([nfc(p.strip()) for p in patterns], flags=_GLOB_FLAGS, limit=MAX_GLOB_EXPANSION)
    except Exception as exc:  # noqa: BLE001 — wcmatch's private PatternLimitException (too many brace expansions), ValueError
        raise BadRequest(
            f"{name}: invalid glob ({exc})", code="invalid_glob", hint="e.g. 'Projects/**' or '**/*.md'"
        ) from None


def _pattern_weight(pattern: str) -> int:
    """How many atoms ``pattern`` expands to when compiled (counted repeats multiply what they repeat,
    nested ones multiply each other): an upper bound, cheap to compute, to refuse compile-time bombs."""
    stack, last, i, n = [0], 1, 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "{" and (m := _COUNTED.match(pattern, i)) and (m.group(1) or m.group(2)):
            times = max(int(m.group(1) or 0), int(m.group(2) or 0))
            stack[-1] += last * (times - 1)
            last *= times
            i = m.end()
            continue
        if c == "(":
            stack.append(0)
        elif c == ")" and len(stack) > 1:
            last = max(stack.pop(), 1)
            stack[-1] += last
        else:
            if c == "\\":
                i += 1
            elif c == "[":  # skip the set: ']' first is literal, '\' escapes
                i += 2 if pattern.startswith("[^", i) else 1
                i += pattern.startswith("]", i)
                while i < n and pattern[i] != "]":
                    i += 2 if pattern[i] == "\\" else 1
            last = 1
            stack[-1] += 1
        i += 1
    return sum(stack)


def compile_query(q: str, *, regex: bool, case_sensitive: bool, whole_word: bool) -> rx.Pattern[str]:
    """The matcher for ``q``: the literal text, or ``q`` as a regular expression (Python syntax, ``^``/``$``
    at line ends). ``whole_word`` refuses a match touching a letter, digit or ``_`` on either side.

    Raises:
        BadRequest (code ``invalid_regex``): the pattern does not compile or expands too much.
    """
    if regex and _pattern_weight(q) > MAX_PATTERN_WEIGHT:
        raise BadRequest("regex repeats too much (counted repeats like {1000} multiply)", code="invalid_regex")
    flags = rx.MULTILINE | (0 if case_sensitive else rx.IGNORECASE)
    try:
        pattern = rx.compile(q if regex else rx.escape(q), flags)  # alone first: 'a)|(b' must not fit the wrapper
        return rx.compile(rf"(?<!\w)(?:{pattern.pattern})(?!\w)", flags) if whole_word else pattern
    except (rx.error, OverflowError, RecursionError, ValueError) as exc:
        raise BadRequest(f"invalid regular expression: {exc}", code="invalid_regex") from None
