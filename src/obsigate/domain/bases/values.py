"""Values of the Bases expression language and the rules shared by operators and functions.

Plain Python stands for the JSON-like types (``None``, ``bool``, ``int``/``float``, ``str``, ``list``,
``dict``); the others are the small classes below (obsidian-app.md §1.3, [API] Value subclasses): dates
(:class:`Date`), durations (:class:`Duration`), links (:class:`Link`), files (:class:`FileRef`), the row
object ``this`` (:class:`RowRef`) and regular expressions (:class:`Regex`). Render-only values of ``html()``,
``icon()`` and ``image()`` are :class:`Rendered`.

A failed operation raises :class:`BaseEvalError`; the query turns it into one cell's error value, never into
a failed request.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date as _date
from datetime import datetime, timedelta
from typing import Any, Protocol

DAY_MS = 86_400_000.0


class BaseEvalError(ValueError):
    """An expression that cannot be evaluated for one row (an unknown function, a type error...)."""


# ------------------------------------------------------------------------------------------- the vault


@dataclass(frozen=True, slots=True)
class LinkRef:
    """A link written in a file: its target as written (no ``#subpath``) and whether it is an embed."""

    target: str
    embed: bool = False


@dataclass(slots=True)
class FileFacts:
    """What Bases knows of one file (obsidian-app.md §1.4): stat values (bytes, ns since the epoch), and for a
    note its frontmatter. ``tags`` and ``links`` are there for an :class:`Env` that keeps them with the file
    (the tests' vault); the evaluator asks :meth:`Env.tags` and :meth:`Env.links`."""

    path: str
    size: int
    mtime_ns: int
    ctime_ns: int
    props: dict[str, Any] = field(default_factory=dict)
    tags: tuple[str, ...] = ()
    links: tuple[LinkRef, ...] = ()


class Env(Protocol):
    """The vault as the evaluator sees it (implemented by ``services.bases`` over the index)."""

    def file(self, path: str) -> FileFacts | None:
        """The facts of an indexed file, or None."""
        ...

    def resolve(self, target: str, source: str) -> str | None:
        """The file a link target written in ``source`` points to (Obsidian's resolution), or None."""
        ...

    def tags(self, path: str) -> tuple[str, ...]:
        """The tags of a note (frontmatter and body, no ``#``); () for other files. Asked only when an expression
        needs them: the service answers from the index."""
        ...

    def links(self, path: str) -> tuple[LinkRef, ...]:
        """The links written in a note (body and frontmatter, embeds flagged); () for other files."""
        ...

    def backlinks(self, path: str) -> list[str]:
        """Paths of the files linking to ``path``."""
        ...


# ------------------------------------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class Date:
    """A date (``time`` False: midnight, shown without time) or a date-time, naive local time."""

    dt: datetime
    time: bool = True


@dataclass(frozen=True, slots=True)
class Duration:
    """A span: calendar ``months`` (from ``y``/``M`` units) plus ``ms`` milliseconds."""

    months: int = 0
    ms: float = 0.0

    @property
    def total_ms(self) -> float:
        """The span in milliseconds, a month counted as 30.4375 days (365.25 / 12)."""
        return self.ms + self.months * 30.4375 * DAY_MS


@dataclass(frozen=True, slots=True)
class Link:
    """A link: the ``target`` text, an optional ``display`` text and the ``path`` it resolves to (or None)."""

    target: str
    display: str | None = None
    path: str | None = None


@dataclass(frozen=True, slots=True)
class FileRef:
    """A file of the vault (``file``, ``this.file``, ``link.asFile()``)."""

    path: str


@dataclass(frozen=True, slots=True)
class RowRef:
    """``this``: the file the base is shown for, as an object with ``file``, ``note`` and its properties."""

    path: str


@dataclass(frozen=True, slots=True)
class Regex:
    """A regular expression literal; ``glob`` is the ``g`` flag (replace every match)."""

    pattern: Any  # a compiled pattern of the ``regex`` package (matched with a timeout)
    glob: bool


@dataclass(frozen=True, slots=True)
class Rendered:
    """A render-only value: ``kind`` is ``html``, ``icon`` or ``image``; ``text`` its argument."""

    kind: str
    text: str


# ------------------------------------------------------------------------------------------- parsing

_DATE_RE = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|[+-]\d{2}:?\d{2})?)?"
)
_COMPACT_RE = re.compile(r"(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2}))?")
_DUR_RE = re.compile(r"\s*([+-]?\d+(?:\.\d+)?)\s*([a-zA-Z]+)\s*")
_UNITS: dict[str, tuple[str, float]] = {}
for _names, _unit in (
    (("y", "year", "years"), ("months", 12)),
    (("M", "month", "months"), ("months", 1)),
    (("w", "week", "weeks"), ("ms", 7 * DAY_MS)),
    (("d", "day", "days"), ("ms", DAY_MS)),
    (("h", "hour", "hours"), ("ms", 3_600_000)),
    (("m", "minute", "minutes"), ("ms", 60_000)),
    (("s", "second", "seconds"), ("ms", 1_000)),
    (("ms", "millisecond", "milliseconds"), ("ms", 1)),
):
    for _n in _names:
        _UNITS[_n] = _unit


def parse_date(text: str) -> Date | None:
    """``YYYY-MM-DD``, ``YYYY-MM-DD HH:mm(:ss)``, ISO 8601 with ``T``, fraction and offset (converted to local
    time), ``YYYYMMDD`` and ``YYYYMMDDHHmm`` (obsidian-app.md §1.3, RN 1.9.3, 1.10.0); None otherwise."""
    s = text.strip()
    m = _DATE_RE.fullmatch(s)
    try:
        if m:
            y, mo, d, hh, mi, ss, frac, tz = m.groups()
            if hh is None:
                return Date(datetime(int(y), int(mo), int(d)), time=False)
            micro = int((frac or "0").ljust(6, "0"))
            dt = datetime(int(y), int(mo), int(d), int(hh), int(mi), int(ss or 0), micro)
            if tz:
                iso = dt.isoformat() + ("+00:00" if tz == "Z" else tz[:3] + ":" + tz[-2:])
                dt = datetime.fromisoformat(iso).astimezone().replace(tzinfo=None)
            return Date(dt, time=True)
        m = _COMPACT_RE.fullmatch(s)
        if m:
            y, mo, d, hh, mi = m.groups()
            if hh is None:
                return Date(datetime(int(y), int(mo), int(d)), time=False)
            return Date(datetime(int(y), int(mo), int(d), int(hh), int(mi)), time=True)
    except ValueError:
        return None
    return None


def parse_duration(text: str) -> Duration | None:
    """``"1M"``, ``"2h"``, ``"7d"``, ``"1 day"``, ``"-3 weeks"``, ``"1y 2d"`` (obsidian-app.md §1.3); None otherwise.
    ``M`` is a month and ``m`` a minute."""
    pos = 0
    months = 0.0
    ms = 0.0
    found = False
    while pos < len(text):
        m = _DUR_RE.match(text, pos)
        if not m or m.end() == pos:
            return None
        unit = _UNITS.get(m.group(2)) or _UNITS.get(m.group(2).lower() if len(m.group(2)) > 1 else "")
        if unit is None:
            return None
        n = float(m.group(1))
        if unit[0] == "months":
            months += n * unit[1]
        else:
            ms += n * unit[1]
        found = True
        pos = m.end()
    if not found:
        return None
    whole = int(months)
    return Duration(whole, ms + (months - whole) * 30.4375 * DAY_MS)


def add_duration(d: Date, dur: Duration, sign: int = 1) -> Date:
    """``d`` moved by ``dur`` (calendar months first, the day clamped to the month's end)."""
    dt = d.dt
    if dur.months:
        total = dt.year * 12 + dt.month - 1 + sign * dur.months
        year, month = divmod(total, 12)
        month += 1
        nxt = _date(year + (month == 12), month % 12 + 1, 1)
        last = (nxt - timedelta(days=1)).day
        dt = dt.replace(year=year, month=month, day=min(dt.day, last))
    dt = dt + timedelta(milliseconds=sign * dur.ms)
    keeps_day = d.time is False and dur.ms % DAY_MS == 0
    return Date(dt, time=not keeps_day)


def as_date(v: Any) -> Date | None:
    """A date value, or a string that parses as one; else None."""
    if isinstance(v, Date):
        return v
    if isinstance(v, str):
        return parse_date(v)
    return None


# ------------------------------------------------------------------------------------------- semantics


def type_name(v: Any) -> str:
    """The language's name of a value's type (``isType``)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "object"
    return {
        Date: "date",
        Duration: "duration",
        Link: "link",
        FileRef: "file",
        RowRef: "file",
        Regex: "regexp",
    }.get(type(v), getattr(v, "kind", "object"))


def truthy(v: Any) -> bool:
    """JavaScript truthiness, except that an empty list or object is false (what ``isTruthy`` means)."""
    if v is None or v is False:
        return False
    if isinstance(v, int | float):
        return v != 0 and not (isinstance(v, float) and math.isnan(v))
    if isinstance(v, str | list | dict):
        return len(v) > 0
    return True


def ref_path(v: Any) -> str | None:
    """The file a link, file or ``this`` stands for (None for an unresolved link or another value)."""
    if isinstance(v, FileRef | RowRef):
        return v.path
    if isinstance(v, Link):
        return v.path
    return None


def equal(a: Any, b: Any) -> bool:
    """``==``: links are equal when they resolve to the same file, or (both unresolved) have the same text; a link
    equals a file it resolves to (obsidian-app.md §1.3); a date equals a string naming the same instant."""
    pa, pb = ref_path(a), ref_path(b)
    if pa is not None or pb is not None:
        return pa == pb
    if isinstance(a, Link) and isinstance(b, Link):
        return a.target.lower() == b.target.lower()
    if (isinstance(a, Link) and isinstance(b, str)) or (isinstance(b, Link) and isinstance(a, str)):
        return link_text(a) == link_text(b)
    if isinstance(a, Date) or isinstance(b, Date):
        da, db = as_date(a), as_date(b)
        return da is not None and db is not None and da.dt == db.dt
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def link_text(v: Any) -> str:
    """A link's target text (other values: themselves as text)."""
    return v.target if isinstance(v, Link) else to_string(v)


def compare(a: Any, b: Any) -> int | None:
    """-1/0/1 for numbers, strings, dates (a string compared with a date is read as one) and durations; None when
    the two cannot be ordered."""
    if isinstance(a, bool) or isinstance(b, bool):
        a, b = (int(a) if isinstance(a, bool) else a), (int(b) if isinstance(b, bool) else b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return (a > b) - (a < b)
    if isinstance(a, Date) or isinstance(b, Date):
        da, db = as_date(a), as_date(b)
        if da is None or db is None:
            return None
        return (da.dt > db.dt) - (da.dt < db.dt)
    if isinstance(a, Duration) and isinstance(b, Duration):
        return (a.total_ms > b.total_ms) - (a.total_ms < b.total_ms)
    if isinstance(a, str | Link) and isinstance(b, str | Link):
        x, y = link_text(a), link_text(b)
        return (x > y) - (x < y)
    return None


def format_number(n: float) -> str:
    """A number as JavaScript prints it (``3``, ``2.5``, ``∞``)."""
    if isinstance(n, float):
        if math.isinf(n):
            return "∞" if n > 0 else "-∞"
        if math.isnan(n):
            return "NaN"
        if n.is_integer() and abs(n) < 1e21:
            return str(int(n))
        return repr(n)
    return str(n)


def to_string(v: Any) -> str:
    """``toString()``: the value as text (dates ``YYYY-MM-DD`` or ``YYYY-MM-DD HH:mm``, lists joined by ``, ``)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return format_number(v)
    if isinstance(v, str):
        return v
    if isinstance(v, Date):
        return v.dt.strftime("%Y-%m-%d %H:%M" if v.time else "%Y-%m-%d")
    if isinstance(v, Duration):
        return human_duration(v)
    if isinstance(v, Link):
        return v.display or v.target
    if isinstance(v, FileRef | RowRef):
        return v.path.rsplit("/", 1)[-1].removesuffix(".md")
    if isinstance(v, list):
        return ", ".join(to_string(x) for x in v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {to_string(x)}" for k, x in v.items()) + "}"
    if isinstance(v, Regex):
        return "/" + v.pattern.pattern + "/"
    if isinstance(v, Rendered):
        return v.text
    return str(v)


def human_duration(d: Duration) -> str:
    """A duration in its largest whole unit (``3 days``, ``2 months``)."""
    ms = d.total_ms
    for name, size in (("year", 365.25 * DAY_MS), ("month", 30.4375 * DAY_MS), ("week", 7 * DAY_MS),
                       ("day", DAY_MS), ("hour", 3_600_000), ("minute", 60_000), ("second", 1000)):  # fmt: skip
        n = int(abs(ms) // size)
        if n:
            return f"{'-' if ms < 0 else ''}{n} {name}{'s' if n > 1 else ''}"
    return "0 seconds"


def relative(d: Date, now: datetime) -> str:
    """``date.relative()``: ``3 days ago`` or ``in 2 hours``."""
    span = human_duration(Duration(0, abs((now - d.dt).total_seconds()) * 1000))
    return f"{span} ago" if d.dt <= now else f"in {span}"


def note_value(v: Any, resolve: Callable[[str], str | None]) -> Any:
    """A frontmatter value as Bases types it: a ``"[[link]]"`` string is a :class:`Link` (resolved with
    ``resolve``), an ISO date string a :class:`Date`, lists and objects element by element (§1.3)."""
    if isinstance(v, str):
        m = _WIKILINK.fullmatch(v.strip())
        if m:
            target = m.group(1).strip()
            return Link(target, (m.group(3) or "").strip() or None, resolve(target))
        if v[:1].isdigit() and len(v) >= 8:
            d = parse_date(v)
            if d is not None:
                return d
        return v
    if isinstance(v, list):
        return [note_value(x, resolve) for x in v]
    if isinstance(v, dict):
        return {k: note_value(x, resolve) for k, x in v.items()}
    return v


def typed_props(raw: dict[str, Any], types: dict[str, str], resolve: Callable[[str], str | None]) -> dict[str, Any]:
    """A note's frontmatter typed by the vault's property types (``.obsidian/types.json``, obsidian-app.md §1.3,
    §3.7) where it names one, else as :func:`note_value` guesses: ``number`` reads numeric strings,
    ``checkbox`` ``"true"``/``"false"``, ``date``/``datetime`` date strings, ``multitext``/``tags``/``aliases``
    make a single value a list, ``text`` keeps a date-like string a string."""
    out: dict[str, Any] = {}
    for key, v in raw.items():
        kind = types.get(key)
        if kind == "text" and isinstance(v, str):
            m = _WIKILINK.fullmatch(v.strip())
            out[key] = note_value(v, resolve) if m else v
            continue
        value = note_value(v, resolve)
        if kind == "number" and isinstance(value, str):
            try:
                f = float(value.strip())
                value = int(f) if f.is_integer() else f
            except ValueError:
                pass
        elif kind == "checkbox" and isinstance(value, str) and value.strip().lower() in ("true", "false"):
            value = value.strip().lower() == "true"
        elif kind in ("date", "datetime") and isinstance(value, str):
            value = parse_date(value) or value
        elif kind in ("multitext", "tags", "aliases") and value is not None and not isinstance(value, list):
            value = [value]
        out[key] = value
    return out


_WIKILINK = re.compile(r"\[\[([^\]|#]+)(#[^\]|]*)?(?:\|([^\]]*))?\]\]")
