"""``list_recent``: the most recently modified or created files of the vaults in a call's scope."""

from __future__ import annotations

import time
from collections.abc import Sequence

from pydantic import BaseModel, Field

from obsigate.domain.vault import note_title
from obsigate.services.errors import BadRequest
from obsigate.services.results import FromIndex, Page, Result
from obsigate.services.workspace import Workspace, iso_utc, page_fields

MODES = ("modified", "created")
MAX_LIMIT = 100
MAX_OFFSET = 10_000_000

#: Clock skew tolerated before a timestamp counts as "in the future" (seconds).
FUTURE_SKEW_S = 60

_MINUTE = 60
_HOUR = 60 * _MINUTE
_DAY = 24 * _HOUR
_MONTH = 30 * _DAY
_YEAR = 365 * _DAY


def humanize_age(seconds: float) -> str:
    """How long ago something happened, for people: ``seconds`` is ``now - then`` (may be negative).

    Boundaries (``n`` is always rounded down):

    ========================  ==========================
    ``seconds``               result
    ========================  ==========================
    < -60 (beyond the skew)   ``"in the future"``
    -60 … < 60                ``"just now"``
    60 … < 1 h                ``"1 minute ago"``, ``"n minutes ago"``
    1 h … < 24 h              ``"1 hour ago"``, ``"n hours ago"``
    24 h … < 48 h             ``"yesterday"``
    2 … < 30 days             ``"n days ago"``
    30 … < 365 days           ``"1 month ago"``, ``"n months ago"`` (30-day months, so 1…12)
    ≥ 365 days                ``"1 year ago"``, ``"n years ago"`` (365-day years)
    ========================  ==========================

    Small negative ages (a file stamped by a machine whose clock is slightly ahead) read ``"just now"``.
    """
    if seconds < -FUTURE_SKEW_S:
        return "in the future"
    if seconds < _MINUTE:
        return "just now"
    if seconds < _HOUR:
        return _plural(int(seconds // _MINUTE), "minute")
    if seconds < _DAY:
        return _plural(int(seconds // _HOUR), "hour")
    if seconds < 2 * _DAY:
        return "yesterday"
    if seconds < _MONTH:
        return _plural(int(seconds // _DAY), "day")
    if seconds < _YEAR:
        return _plural(int(seconds // _MONTH), "month")
    return _plural(int(seconds // _YEAR), "year")


def _plural(n: int, unit: str) -> str:
    return f"1 {unit} ago" if n == 1 else f"{n} {unit}s ago"


class RecentFile(BaseModel):
    vault: str
    path: str
    title: str
    is_note: bool
    size: int = Field(description="Bytes.")
    modified: str = Field(description="Last modification, ISO 8601 UTC.")
    created: str = Field(description="Creation time, ISO 8601 UTC (the modification time when unknown).")
    age: str = Field(
        description="How long ago, from the time of the chosen mode: 'just now', '3 hours ago', 'yesterday'..."
    )


class ListRecentResult(Result, Page, FromIndex):
    mode: str
    files: list[RecentFile]


def list_recent(
    ws: Workspace,
    vaults: Sequence[str],
    *,
    mode: str = "modified",
    limit: int = 20,
    offset: int = 0,
    now: float | None = None,
) -> ListRecentResult:
    """The most recently modified (or created) files, notes and attachments alike, newest first.

    Scope: ``vaults``, declared names the tool layer already put in the caller's scope (the one named, or
    every vault they may use; empty → no files). Order comes from the index
    (``VaultIndex.recent``): by modification (``mode="modified"``) or creation time (``mode="created"``),
    newest first, ties by vault then path. Creation time is the file's birth time where the OS records it
    (on Linux: the inode change time capped at the modification time, see
    :func:`obsigate.domain.vault.created_ns`); when unknown (0), the modification time is shown.

    Args:
        now: the current time in seconds since the epoch (default: the clock), for ``age``.

    Returns:
        :class:`ListRecentResult`: each file's ``age`` is :func:`humanize_age` of its ``mode`` time, ``total``
        counts the files in scope; while the first index build runs, a ``warning`` (recent files may be
        missing).

    Raises:
        BadRequest: ``mode`` not ``modified``/``created``, ``limit`` outside 1..100, ``offset`` outside
            0..10 000 000.
    """
    if mode not in MODES:
        raise BadRequest(f"mode must be one of {', '.join(MODES)}, not {mode!r}", hint="use 'modified' or 'created'")
    if not 1 <= limit <= MAX_LIMIT or not 0 <= offset <= MAX_OFFSET:
        raise BadRequest(f"limit must be 1..{MAX_LIMIT} and offset 0..{MAX_OFFSET}")
    index = ws.index_state()  # first: "complete" describes the index read below
    records, total = ws.index.recent(vaults, mode=mode, limit=limit, offset=offset) if vaults else ([], 0)
    clock = time.time() if now is None else now
    files = []
    for rec in records:
        created = rec.created_ns or rec.mtime_ns
        stamp = created if mode == "created" else rec.mtime_ns
        files.append(
            RecentFile(
                vault=rec.vault,
                path=rec.path,
                title=note_title(rec.path),
                is_note=rec.note,
                size=rec.size,
                modified=iso_utc(rec.mtime_ns),
                created=iso_utc(created),
                age=humanize_age(clock - stamp / 1e9),
            )
        )
    return ListRecentResult(
        mode=mode,
        files=files,
        **page_fields(total, offset, len(files)),
        index=index,
        warning=None if index.complete else "the index is still being built; recent files may be missing",
    )
