"""``search_advanced``: exact text or regular-expression search, filtered by path globs, tag, dates and size.

How notes are found: first the index's metadata alone (path globs, tag, size, dates) gives the notes that
pass the filters; then, when there is a ``q``, each of those notes' indexed text (the body after the
frontmatter, :meth:`VaultIndex.note_texts`, about 20 µs a note instead of a disk read plus redaction) is
matched. A literal matches anywhere, inside words too (``udget`` finds ``budget``, as Obsidian's search does);
with ``whole_word`` the full-text index first narrows the notes to those holding its words.

Every note is matched on its **redacted** text (the index only holds redacted text), so a secret can never be
found, counted or shown in a snippet. The whole search stops after :data:`TIME_BUDGET_S`, and a
regex gets at most :data:`NOTE_TIMEOUT_S` per note (the ``regex`` package's ``timeout``, which also releases
the GIL while matching): a catastrophic pattern such as ``(a+)+$`` cannot hang the server, and the result
then says it is partial (``timed_out``). Globs are ``wcmatch`` globs (``**`` spans folders), with caps on
their number, length and brace expansion.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import regex as rx
from pydantic import BaseModel, Field
from wcmatch import glob as wcglob

from obsigate.domain.index.sqlite_store import tag_key
from obsigate.domain.index.vault_index import FileRecord
from obsigate.domain.text import nfc
from obsigate.domain.vault import note_title
from obsigate.services.errors import BadRequest
from obsigate.services.results import FromIndex, Page, Result
from obsigate.services.search import MAX_LIMIT, MAX_SEARCH_OFFSET
from obsigate.services.search_args import MAX_Q_CHARS, compile_globs, compile_query, size_range, time_range
from obsigate.services.workspace import Workspace, iso_utc

TIME_BUDGET_S = 2.0  # the whole search, retrieval to last note
NOTE_TIMEOUT_S = 0.5  # one note's regex matching
MAX_INDEX_CANDIDATES = 5_000  # a whole-word query the index matches in more notes is scanned instead
MAX_COUNTED = 1_000  # matches counted per note
SNIPPET_CHARS = 200
SORTS = ("relevance", "path", "modified", "created", "size")

_INDEX_WORD = rx.compile(r"[^\W_]+")  # what the index tokenizer keeps (letters and digits)
_WS = rx.compile(r"\s+")


# ------------------------------------------------------------------------------------------ matching


@dataclass(slots=True)
class _Found:
    vault: str
    path: str
    size: int
    mtime_ns: int
    created_ns: int
    matches: int = 0
    snippet: str | None = None
    tags: tuple[str, ...] | None = None


def _clean(s: str) -> str:
    """Collapse whitespace; a literal ``<mark>`` in a note must not pass for ours."""
    if "<" in s:
        s = s.replace("<mark>", "‹mark›").replace("</mark>", "‹/mark›")
    return _WS.sub(" ", s)


def snippet(text: str, spans: Sequence[tuple[int, int]]) -> str:
    """About :data:`SNIPPET_CHARS` characters of ``text`` around the first of ``spans`` (sorted, non-empty
    character ranges), each span inside wrapped in ``<mark>…</mark>``; ``…`` marks cuts. Whitespace is
    collapsed. Bounded work whatever the length of ``text`` (a huge one-line note included)."""
    lo = max(0, spans[0][0] - SNIPPET_CHARS // 4)
    if lo:
        sp = text.rfind(" ", max(0, lo - 40), lo)
        lo = sp + 1 if sp >= 0 else lo
    hi = min(len(text), lo + SNIPPET_CHARS)
    if hi < len(text):
        sp = text.rfind(" ", lo + SNIPPET_CHARS // 2, hi)
        hi = sp if sp > 0 else hi
    out: list[str] = []
    pos = lo
    for a, z in spans:
        a, z = max(a, pos), min(z, hi)
        if a >= hi:
            break
        if z > a:
            out += (_clean(text[pos:a]), "<mark>", _clean(text[a:z]), "</mark>")
            pos = z
    out.append(_clean(text[pos:hi]))
    return ("…" if lo else "") + "".join(out).strip() + ("…" if hi < len(text) else "")


def _lead(body: str) -> str:
    """The start of a note's body, clipped: the snippet of a hit found without ``q``."""
    lead = _clean(body[: SNIPPET_CHARS * 4]).strip()
    return lead if len(lead) <= SNIPPET_CHARS else lead[:SNIPPET_CHARS].rstrip() + "…"


def _count(pattern: rx.Pattern[str], text: str, timeout: float | None) -> tuple[int, list[tuple[int, int]]]:
    """(non-empty matches, up to :data:`MAX_COUNTED`; their spans near the first, for the snippet).

    ``timeout`` (seconds) bounds a regex and releases the GIL while it runs; ``None`` for a literal, which is
    linear anyway (and twice as fast without the clock checks).

    Raises:
        TimeoutError: matching took longer than ``timeout``.
    """
    spans: list[tuple[int, int]] = []
    count, steps = 0, 0
    found = pattern.finditer(text) if timeout is None else pattern.finditer(text, timeout=timeout, concurrent=True)
    for m in found:
        steps += 1
        if m.end() > m.start():
            count += 1
            if not spans or m.start() < spans[0][0] + SNIPPET_CHARS:
                spans.append(m.span())
        if count >= MAX_COUNTED or steps >= MAX_COUNTED * 10:
            break
    return count, spans


def _inside(value: int, bounds: tuple[int | None, int | None] | None, *, end_inclusive: bool) -> bool:
    if bounds is None:
        return True
    lo, hi = bounds
    return (lo is None or value >= lo) and (hi is None or value < hi or (end_inclusive and value == hi))


@dataclass(slots=True)
class _Filters:
    include: wcglob.WcMatcher | None
    exclude: wcglob.WcMatcher | None
    created: tuple[int | None, int | None] | None
    modified: tuple[int | None, int | None] | None
    size: tuple[int | None, int | None] | None

    def any(self) -> bool:
        return any(x is not None for x in (self.include, self.exclude, self.created, self.modified, self.size))

    def ok(self, rec: FileRecord) -> bool:
        return (
            (self.include is None or self.include.match(rec.path))
            and not (self.exclude and self.exclude.match(rec.path))
            and _inside(rec.size, self.size, end_inclusive=True)
            and _inside(rec.mtime_ns, self.modified, end_inclusive=False)
            and _inside(rec.created_ns, self.created, end_inclusive=False)
        )


def _passing(ws: Workspace, vault: str, filters: _Filters, tag: str) -> dict[str, FileRecord]:
    """The notes of ``vault`` passing the path, date, size and tag filters, from the index's metadata alone."""
    tagged = ws.index.notes_with_tag(vault, tag) if tag else None
    return {
        r.path: r
        for r in ws.index.file_records(vault)
        if r.note and (tagged is None or r.path in tagged) and filters.ok(r)
    }


def _prefilter(ws: Workspace, q: str, vault: str, passing: dict[str, FileRecord]) -> set[str] | None:
    """For a whole-word literal: the passing notes holding all its words per the index (a superset of the
    exact matches: the index folds case and accents), or ``None`` when the index cannot narrow the scan."""
    words = _INDEX_WORD.findall(q)
    if not words or any(len(w.encode()) > 60 for w in words):
        return None  # the index drops words over 64 bytes
    page = ws.index.search(q, vaults=[vault], limit=MAX_INDEX_CANDIDATES)
    if page.total > MAX_INDEX_CANDIDATES:
        return None
    return {h.path for h in page.hits if h.path in passing}


def _sort_key(sort: str) -> Any:
    def by_path(f: _Found) -> tuple:
        return (f.path.casefold(), f.path, f.vault)

    if sort == "relevance":
        return lambda f: (-f.matches, *by_path(f))
    if sort == "path":
        return by_path
    attr = {"modified": "mtime_ns", "created": "created_ns", "size": "size"}[sort]
    return lambda f: (-getattr(f, attr), *by_path(f))


@dataclass(slots=True)
class _Scan:
    """What a scan found and how far it got."""

    found: list[_Found]
    checked: int = 0
    candidates: int = 0
    out_of_time: bool = False
    slow: int = 0


def _scan(
    ws: Workspace, vault: str, paths: Collection[str], pattern: rx.Pattern[str], scan: _Scan, *, regex: bool, deadline: float,
    records: dict[str, FileRecord],
) -> None:  # fmt: skip
    """Match ``pattern`` on the indexed text of ``paths`` until ``deadline``, adding hits to ``scan``."""
    scan.candidates += len(paths)
    for path, body, tags in ws.index.note_texts(vault, paths):
        now = time.monotonic()
        if now >= deadline:
            scan.out_of_time = True
            return
        scan.checked += 1
        try:
            timeout = max(0.01, min(NOTE_TIMEOUT_S, deadline - now)) if regex else None
            matches, spans = _count(pattern, body, timeout)
        except TimeoutError:
            scan.slow += 1
            continue
        if matches:
            r = records[path]
            scan.found.append(
                _Found(vault, path, r.size, r.mtime_ns, r.created_ns, matches, snippet(body, spans), tags)
            )


def _hit(ws: Workspace, f: _Found) -> AdvancedHit:
    """One result hit; a hit found without ``q`` gets the start of its body as snippet, read now."""
    if f.snippet is None:
        f.snippet, f.tags = "", ()
        for _, body, tags in ws.index.note_texts(f.vault, [f.path]):
            f.snippet, f.tags = _lead(body), tags
    return AdvancedHit(
        vault=f.vault, path=f.path, title=note_title(f.path), snippet=f.snippet, matches=f.matches,
        size=f.size, modified=iso_utc(f.mtime_ns), created=iso_utc(f.created_ns), tags=list(f.tags or ()),
    )  # fmt: skip


# ------------------------------------------------------------------------------------------ the search


class AdvancedHit(BaseModel):
    vault: str
    path: str
    title: str
    snippet: str = Field(
        description="About 200 characters around the first match, matches in <mark>…</mark>; without q, the note's start."
    )
    matches: int = Field(description="Matches in the note (counted up to 1000).")
    size: int = Field(description="Bytes.")
    modified: str = Field(description="ISO 8601, UTC.")
    created: str = Field(description="ISO 8601, UTC.")
    tags: list[str]


class SearchAdvancedResult(Result, Page, FromIndex):
    query: str
    sort: str
    hits: list[AdvancedHit]
    timed_out: bool = Field(description="The time budget ran out: hits and total are partial (see warning).")


def search_advanced(
    ws: Workspace,
    vaults: Sequence[str],
    *,
    q: str = "",
    tag: str | None = None,
    limit: int = 20,
    offset: int = 0,
    sort: str | None = None,
    case_sensitive: bool = False,
    whole_word: bool = False,
    regex: bool = False,
    include_paths: Sequence[str] | None = None,
    exclude_paths: Sequence[str] | None = None,
    created: Mapping[str, Any] | None = None,
    modified: Mapping[str, Any] | None = None,
    size: Mapping[str, Any] | None = None,
) -> SearchAdvancedResult:
    """Notes of ``vaults`` matching ``q`` (literal or regex) and every given filter.

    Args:
        vaults: declared vault names the tool layer already put in the caller's scope (the one named, or every
            vault they may use), searched in this order.
        q: text to find in note bodies (literal: anywhere, inside words too); with ``regex``, a Python regular
            expression (``^``/``$`` at line ends); may be empty when a filter is given.
        tag: notes with this tag or a nested one (``a`` matches ``a/b``).
        sort: ``relevance`` (default with a literal ``q``: most matches first, then path),
            ``path`` (default otherwise), or newest/largest first: ``modified``, ``created``, ``size``.
        include_paths / exclude_paths: globs on the vault-relative path (see :func:`compile_globs`).
        created / modified: ``{"after", "before"}`` ISO 8601 bounds (after inclusive, before exclusive; a date
            is UTC midnight). Created is the birth time, else the inode change time capped at the
            modification time (:func:`obsigate.domain.vault.created_ns`).
        size: ``{"min", "max"}`` bytes, inclusive.

    Returns:
        :class:`SearchAdvancedResult`. ``matches`` counts up to 1000 per note; ``modified``/``created`` are ISO 8601
        UTC. When time ran out (``timed_out``) results are partial, ``truncated`` is true and ``warning`` says so.

    Raises:
        BadRequest: empty ``q`` without a filter, ``q`` too long, limit/offset/sort out of range, a bad date or
            size range (``invalid_argument``), a bad regex (``invalid_regex``) or glob (``invalid_glob``).
    """
    deadline = time.monotonic() + TIME_BUDGET_S
    if not isinstance(q, str) or len(q) > MAX_Q_CHARS:
        raise BadRequest(f"q must be text of at most {MAX_Q_CHARS} characters")
    if not 1 <= limit <= MAX_LIMIT or not 0 <= offset <= MAX_SEARCH_OFFSET:
        raise BadRequest(f"limit must be 1..{MAX_LIMIT} and offset 0..{MAX_SEARCH_OFFSET}")
    filters = _Filters(
        compile_globs(include_paths, "include_paths"),
        compile_globs(exclude_paths, "exclude_paths"),
        time_range(created, "created"),
        time_range(modified, "modified"),
        size_range(size),
    )
    tag_k = tag_key(tag) if isinstance(tag, str) else ""
    q = nfc(q)
    if not q and (regex or not (tag_k or filters.any())):
        raise BadRequest("give q, or at least one filter (tag, include_paths, exclude_paths, created, modified, size)")
    sort = sort or ("relevance" if q and not regex else "path")
    if sort not in SORTS:
        raise BadRequest(f"sort must be one of {', '.join(SORTS)}")
    pattern = compile_query(q, regex=regex, case_sensitive=case_sensitive, whole_word=whole_word) if q else None

    index = ws.index_state()  # before the scan: "complete" must describe the index the scan read
    scan = _Scan([])
    for v in vaults:
        records = _passing(ws, v, filters, tag_k)
        if pattern is None:
            scan.found += [_Found(v, p, r.size, r.mtime_ns, r.created_ns) for p, r in records.items()]
            continue
        narrowed = _prefilter(ws, q, v, records) if whole_word and not regex else None
        paths = narrowed if narrowed is not None else records
        _scan(ws, v, paths, pattern, scan, regex=regex, deadline=deadline, records=records)
        if scan.out_of_time:
            break

    warnings: list[str] = []
    if scan.out_of_time:
        warnings.append(
            f"stopped after {TIME_BUDGET_S:g} s with {scan.checked} notes checked: results are partial;"
            " narrow the search (vault, include_paths, tag, dates)"
        )
    if scan.slow:
        warnings.append(f"{scan.slow} notes took longer than {NOTE_TIMEOUT_S:g} s to match the regex and were skipped")
    timed_out = scan.out_of_time or scan.slow > 0
    if not index.complete:
        warnings.append("the index is still being built; results may be incomplete")

    found = scan.found
    found.sort(key=_sort_key(sort))
    hits = [_hit(ws, f) for f in found[offset : offset + limit]]
    end = offset + len(hits)
    return SearchAdvancedResult(
        query=q,
        sort=sort,
        hits=hits,
        total=len(found),
        offset=offset,
        truncated=end < len(found) or timed_out,
        next_offset=end if end < len(found) else None,
        timed_out=timed_out,
        index=index,
        warning="; ".join(warnings) or None,
    )
