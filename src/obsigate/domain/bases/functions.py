"""The documented methods of strings, numbers, lists, dates, objects and regular expressions, and ``format``'s
moment.js tokens (obsidian-app.md §1.5, §3.8). "Functions follow JavaScript behaviour" [HELP:Functions].

Each method is ``f(receiver, *args) -> value`` in a table per type; a missing entry or a wrong argument raises
:class:`~.values.BaseEvalError` with a message a person can act on. The methods that need the vault (files,
links) or take a per-element expression (``filter``, ``map``, ``reduce``) live in :mod:`.evaluate`.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

import regex as rx

from obsigate.domain.bases.values import (
    BaseEvalError,
    Date,
    Duration,
    Link,
    Regex,
    compare,
    equal,
    format_number,
    link_text,
    to_string,
    truthy,
)

MAX_REPEAT_CHARS = 100_000
REGEX_TIMEOUT_S = 0.05  # one match of a user's pattern: a catastrophic one fails its cell, never hangs

Method = Callable[..., Any]


class TagList(list[Any]):
    """``file.tags``: ``contains("a")`` also matches nested tags ``a/b``, case-insensitively, ``#`` optional
    (RN 1.9.11, 1.9.14)."""


def _tag_key(v: Any) -> str:
    return to_string(v).lstrip("#").casefold()


def _contains_item(items: list[Any], x: Any) -> bool:
    if isinstance(items, TagList):
        want = _tag_key(x)
        return any(_tag_key(t) == want or _tag_key(t).startswith(want + "/") for t in items)
    return any(equal(item, x) for item in items)


def _num(v: Any, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise BaseEvalError(f"{what} needs a number, not {to_string(v)!r}")
    return v


def _int(v: Any, what: str) -> int:
    n = _num(v, what)
    if isinstance(n, float) and not n.is_integer():
        raise BaseEvalError(f"{what} needs a whole number")
    return int(n)


def _js_slice(seq: Any, start: Any = 0, end: Any = None) -> Any:
    s = _int(start, "slice") if start is not None else 0
    e = _int(end, "slice") if end is not None else None
    return seq[s:e]


def _round(n: Any, digits: Any = 0) -> float:
    d = _int(digits, "round")
    factor = 10**d
    v = math.floor(_num(n, "round") * factor + 0.5) / factor  # JavaScript's Math.round: halves up
    return int(v) if d <= 0 else v


def _to_fixed(n: Any, digits: Any = 0) -> str:
    d = _int(digits, "toFixed")
    if not 0 <= d <= 100:
        raise BaseEvalError("toFixed takes 0..100 digits")
    return f"{_num(n, 'toFixed'):.{d}f}"


def _repeat(s: str, n: Any) -> str:
    k = _int(n, "repeat")
    if k < 0 or len(s) * k > MAX_REPEAT_CHARS:
        raise BaseEvalError("repeat count out of range")
    return s * k


def _split(s: str, sep: Any, limit: Any = None) -> list[str]:
    parts = (
        sep.pattern.split(s, timeout=REGEX_TIMEOUT_S)
        if isinstance(sep, Regex)
        else s.split(to_string(sep))
        if sep != ""
        else list(s)
    )
    return parts[: _int(limit, "split")] if limit is not None else parts


def _replace(s: str, pattern: Any, repl: Any) -> str:
    r = to_string(repl)
    if isinstance(pattern, Regex):
        js = re.sub(
            r"\$(\d+|&)", lambda m: "\\g<0>" if m.group(1) == "&" else f"\\g<{m.group(1)}>", r.replace("\\", "\\\\")
        )
        return str(pattern.pattern.sub(js, s, count=0 if pattern.glob else 1, timeout=REGEX_TIMEOUT_S))
    return s.replace(to_string(pattern), r)  # a string pattern replaces every occurrence (obsidian-app.md §1.5)


def _title(s: str) -> str:
    return re.sub(r"\b(\w)", lambda m: m.group(1).upper(), s)


def _contains_text(s: str, x: Any) -> bool:
    return link_text(x).casefold() in s.casefold()  # case-insensitive (RN 1.9.1)


STRING: dict[str, Method] = {
    "contains": _contains_text,
    "containsAll": lambda s, *xs: all(_contains_text(s, x) for x in xs),
    "containsAny": lambda s, *xs: any(_contains_text(s, x) for x in xs),
    "startsWith": lambda s, x: s.startswith(to_string(x)),
    "endsWith": lambda s, x: s.endswith(to_string(x)),
    "isEmpty": lambda s: len(s) == 0,
    "lower": lambda s: s.lower(),
    "upper": lambda s: s.upper(),
    "title": _title,
    "trim": lambda s: s.strip(),
    "repeat": _repeat,
    "reverse": lambda s: s[::-1],
    "slice": _js_slice,
    "split": _split,
    "replace": _replace,
}


def _sort_key_cmp(a: Any, b: Any) -> int:
    c = compare(a, b)
    if c is not None:
        return c
    return (a is None) - (b is None)


def _sorted(items: list[Any]) -> list[Any]:
    from functools import cmp_to_key

    return sorted(items, key=cmp_to_key(_sort_key_cmp))


def _unique(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for x in items:
        if not any(equal(x, y) for y in out):
            out.append(x)
    return out


def _flat(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for x in items:
        out.extend(x if isinstance(x, list) else [x])
    return out


LIST: dict[str, Method] = {
    "contains": _contains_item,
    "containsAll": lambda xs, *ys: all(_contains_item(xs, y) for y in ys),
    "containsAny": lambda xs, *ys: any(_contains_item(xs, y) for y in ys),
    "isEmpty": lambda xs: len(xs) == 0,
    "join": lambda xs, sep=",": to_string(sep).join(to_string(x) for x in xs),
    "reverse": lambda xs: xs[::-1],
    "slice": _js_slice,
    "sort": _sorted,
    "unique": _unique,
    "flat": _flat,
}

NUMBER: dict[str, Method] = {
    "abs": lambda n: abs(n),
    "ceil": lambda n: math.ceil(n) if math.isfinite(n) else n,
    "floor": lambda n: math.floor(n) if math.isfinite(n) else n,
    "round": _round,
    "toFixed": _to_fixed,
    "isEmpty": lambda n: False,
}

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December"]  # fmt: skip
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_MOMENT = re.compile(r"\[[^\]]*\]|YYYY|YY|MMMM|MMM|MM|M|Do|DDDD|DD|D|dddd|ddd|d|HH|H|hh|h|mm|m|ss|s|SSS|A|a|X|x|Q|WW|W")


def _ordinal(n: int) -> str:
    last = 0 if 11 <= n % 100 <= 13 or n % 10 > 3 else n % 10
    return f"{n}{('th', 'st', 'nd', 'rd')[last]}"


def moment_format(dt: datetime, fmt: str) -> str:
    """``dt`` formatted with moment.js tokens (obsidian-app.md §3.8; English names; ``[text]`` literal)."""
    h12 = dt.hour % 12 or 12
    iso_week = dt.isocalendar()[1]
    table: dict[str, Callable[[], str]] = {
        "YYYY": lambda: f"{dt.year:04d}", "YY": lambda: f"{dt.year % 100:02d}",
        "MMMM": lambda: _MONTHS[dt.month - 1], "MMM": lambda: _MONTHS[dt.month - 1][:3],
        "MM": lambda: f"{dt.month:02d}", "M": lambda: str(dt.month),
        "Do": lambda: _ordinal(dt.day), "DDDD": lambda: f"{dt.timetuple().tm_yday:03d}",
        "DD": lambda: f"{dt.day:02d}", "D": lambda: str(dt.day),
        "dddd": lambda: _DAYS[dt.weekday()], "ddd": lambda: _DAYS[dt.weekday()][:3],
        "d": lambda: str((dt.weekday() + 1) % 7),
        "HH": lambda: f"{dt.hour:02d}", "H": lambda: str(dt.hour), "hh": lambda: f"{h12:02d}", "h": lambda: str(h12),
        "mm": lambda: f"{dt.minute:02d}", "m": lambda: str(dt.minute),
        "ss": lambda: f"{dt.second:02d}", "s": lambda: str(dt.second),
        "SSS": lambda: f"{dt.microsecond // 1000:03d}",
        "A": lambda: "AM" if dt.hour < 12 else "PM", "a": lambda: "am" if dt.hour < 12 else "pm",
        "X": lambda: str(int(dt.timestamp())), "x": lambda: str(int(dt.timestamp() * 1000)),
        "Q": lambda: str((dt.month - 1) // 3 + 1), "WW": lambda: f"{iso_week:02d}", "W": lambda: str(iso_week),
    }  # fmt: skip
    return _MOMENT.sub(lambda m: m.group(0)[1:-1] if m.group(0).startswith("[") else table[m.group(0)](), fmt)


DATE: dict[str, Method] = {
    "date": lambda d: Date(d.dt.replace(hour=0, minute=0, second=0, microsecond=0), time=False),
    "format": lambda d, fmt="YYYY-MM-DD": moment_format(d.dt, to_string(fmt)),
    "time": lambda d: d.dt.strftime("%H:%M:%S"),
    "isEmpty": lambda d: False,
}

DATE_FIELDS: dict[str, Callable[[datetime], int]] = {
    "year": lambda dt: dt.year,
    "month": lambda dt: dt.month,
    "day": lambda dt: dt.day,
    "hour": lambda dt: dt.hour,
    "minute": lambda dt: dt.minute,
    "second": lambda dt: dt.second,
    "millisecond": lambda dt: dt.microsecond // 1000,
}

DURATION_FIELDS: dict[str, float] = {
    "years": 365.25 * 86_400_000,
    "months": 30.4375 * 86_400_000,
    "weeks": 7 * 86_400_000,
    "days": 86_400_000,
    "hours": 3_600_000,
    "minutes": 60_000,
    "seconds": 1_000,
    "milliseconds": 1,
}

OBJECT: dict[str, Method] = {
    "isEmpty": lambda o: len(o) == 0,
    "keys": lambda o: list(o.keys()),
    "values": lambda o: list(o.values()),
}

REGEX: dict[str, Method] = {"matches": lambda r, s: r.pattern.search(to_string(s), timeout=REGEX_TIMEOUT_S) is not None}


def table_for(v: Any) -> dict[str, Method] | None:
    """The method table of a value's type (a link takes the string methods on its text)."""
    if isinstance(v, str):
        return STRING
    if isinstance(v, list):
        return LIST
    if isinstance(v, bool):
        return None
    if isinstance(v, int | float):
        return NUMBER
    if isinstance(v, Date):
        return DATE
    if isinstance(v, dict):
        return OBJECT
    if isinstance(v, Regex):
        return REGEX
    return None


def any_method(v: Any, name: str, args: list[Any]) -> tuple[bool, Any]:
    """The methods every value has: ``isTruthy``, ``isType``, ``toString`` (and ``isEmpty`` of null)."""
    from obsigate.domain.bases.values import type_name

    if name == "isTruthy":
        return True, truthy(v)
    if name == "isType":
        return True, bool(args) and type_name(v) == to_string(args[0]).lower()
    if name == "toString":
        return True, to_string(v)
    if name == "isEmpty" and v is None:
        return True, True
    return False, None


def call_method(v: Any, name: str, args: list[Any]) -> Any:
    """Run a documented method on a plain value.

    Raises:
        BaseEvalError: no such method for the value's type, or bad arguments.
    """
    done, out = any_method(v, name, args)
    if done:
        return out
    recv = v.target if isinstance(v, Link) else v
    table = table_for(recv)
    fn = table.get(name) if table is not None else None
    if fn is None:
        raise BaseEvalError(f"{name}() is not a method of {_kind(v)} values")
    try:
        return fn(recv, *args)
    except TypeError:
        raise BaseEvalError(f"wrong arguments for {name}()") from None
    except (re.error, rx.error) as exc:
        raise BaseEvalError(f"bad regular expression: {exc}") from None
    except TimeoutError:
        raise BaseEvalError("regular expression too slow") from None


def _kind(v: Any) -> str:
    from obsigate.domain.bases.values import type_name

    return type_name(v)


def number_of(v: Any) -> float:
    """``number(x)``: dates → epoch ms, booleans → 1/0, numeric strings → numbers.

    Raises:
        BaseEvalError: anything else (obsidian-app.md §1.5: a bad string is an error).
    """
    if isinstance(v, bool):
        return 1 if v else 0
    if isinstance(v, int | float):
        return v
    if isinstance(v, Date):
        return int(v.dt.timestamp() * 1000)
    if isinstance(v, Duration):
        return v.total_ms
    if isinstance(v, str):
        try:
            f = float(v.strip())
        except ValueError:
            raise BaseEvalError(f"number(): {v!r} is not a number") from None
        return int(f) if f.is_integer() else f
    raise BaseEvalError(f"number(): cannot convert {_kind(v)}")


def escape_html(v: Any) -> str:
    """``escapeHTML(s)``."""
    return html.escape(to_string(v))


def min_max(args: list[Any], pick: int) -> Any:
    """``min(...)``/``max(...)`` over numbers or dates (lists are spread); null when none."""
    items = [x for a in args for x in (a if isinstance(a, list) else [a]) if x is not None]
    best: Any = None
    for x in items:
        c = compare(x, best) if best is not None else pick
        if c is None:
            raise BaseEvalError("min()/max() need numbers or dates")
        if best is None or c == pick:
            best = x
    return best


def format_for_sort(v: Any) -> str:
    """A text form for grouping keys."""
    return format_number(v) if isinstance(v, int | float) and not isinstance(v, bool) else to_string(v)
