"""``search_advanced``: exact text or regular-expression search, filtered by path globs, tag, dates and size.

How notes are found:

* **literal** ``q`` (the default): the full-text index gives the candidates, best first (notes holding every
  word of ``q``, :meth:`VaultIndex.search`), then the exact text is checked on each note read from disk;
* **regex** ``q``, or a literal with no word the index can look up (``->``, a 70-letter word): every note of
  the scoped vaults (the index's file list) is read and matched;
* **empty** ``q``: the notes passing the filters, no text matching.

Every note is matched on its **redacted** text (:func:`~obsigate.domain.redaction.redact_text`), so a secret
can never be found, counted or shown in a snippet. The whole search stops after :data:`TIME_BUDGET_S`, and a
regex gets at most :data:`NOTE_TIMEOUT_S` per note (the ``regex`` package's ``timeout``, which also releases
the GIL while matching): a catastrophic pattern such as ``(a+)+$`` cannot hang the server, and the result
then says it is partial (``timed_out``). Globs are ``wcmatch`` globs (``**`` spans folders), with caps on
their number, length and brace expansion.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import regex as rx
from wcmatch import glob as wcglob

from obsigate.domain.index_store import tag_key
from obsigate.domain.markdown import distinct_tags, parse_note
from obsigate.domain.redaction import redact_text
from obsigate.domain.text import nfc
from obsigate.domain.vault import Vault, created_ns, is_note
from obsigate.services.errors import BadRequest, ServiceError
from obsigate.services.paths import resolve_safe_path
from obsigate.services.search import MAX_LIMIT, MAX_SEARCH_OFFSET
from obsigate.services.search_args import MAX_Q_CHARS, compile_globs, compile_query, size_range, time_range
from obsigate.services.workspace import Workspace, iso_utc

TIME_BUDGET_S = 2.0  # the whole search, retrieval to last note
NOTE_TIMEOUT_S = 0.5  # one note's regex matching
MAX_INDEX_CANDIDATES = 5_000  # index hits verified at most
INDEX_CHUNK = 500
MAX_COUNTED = 1_000  # matches counted per note
MAX_NOTE_BYTES = 16 * 1024 * 1024  # larger notes are skipped
SNIPPET_CHARS = 200
SORTS = ("relevance", "path", "modified", "created", "size")

_INDEX_WORD = rx.compile(r"[^\W_]+")  # what the index tokenizer keeps (letters and digits)
_WS = rx.compile(r"\s+")


# ------------------------------------------------------------------------------------------ matching


@dataclass(slots=True)
class _Found:
    vault: str
    path: str
    rank: int
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
    out, pos = [], lo
    for a, z in spans:
        a, z = max(a, pos), min(z, hi)
        if a >= hi:
            break
        if z > a:
            out += (_clean(text[pos:a]), "<mark>", _clean(text[a:z]), "</mark>")
            pos = z
    out.append(_clean(text[pos:hi]))
    return ("…" if lo else "") + "".join(out).strip() + ("…" if hi < len(text) else "")


def _lead(text: str) -> str:
    """The start of a note's body (after its frontmatter), clipped: the snippet of a hit without ``q``."""
    body = _clean(parse_note(text[: SNIPPET_CHARS * 20]).body).strip()
    return body if len(body) <= SNIPPET_CHARS else body[:SNIPPET_CHARS].rstrip() + "…"


def _count(pattern: rx.Pattern[str], text: str, timeout: float | None) -> tuple[int, list[tuple[int, int]]]:
    """(non-empty matches, up to :data:`MAX_COUNTED`; their spans near the first, for the snippet).

    ``timeout`` (seconds) bounds a regex and releases the GIL while it runs; ``None`` for a literal, which is
    linear anyway (and twice as fast without the clock checks).

    Raises:
        TimeoutError: matching took longer than ``timeout``.
    """
    count, spans, steps = 0, [], 0
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


def _stat_note(vault: Vault, path: str) -> tuple[str, os.stat_result] | None:
    """(OS path, stat) of a note of ``vault``, through the path guard; ``None`` if it is not a regular note
    file inside the vault (any more)."""
    if not is_note(path):
        return None
    try:
        safe = resolve_safe_path(vault, path)
        st = os.stat(safe.abs)
    except (ServiceError, OSError):
        return None
    return (str(safe.abs), st) if stat.S_ISREG(st.st_mode) else None


def _read_text(os_path: str) -> str | None:
    """The note's redacted, NFC, LF text; ``None`` if unreadable, not a regular file, or too large."""
    try:
        fd = os.open(os_path, os.O_RDONLY | os.O_NONBLOCK)  # a file swapped for a FIFO must not block
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        data = f.read(MAX_NOTE_BYTES + 1)
    if len(data) > MAX_NOTE_BYTES:
        return None
    return redact_text(nfc(data.decode("utf-8-sig", errors="replace").replace("\r\n", "\n")))


def _has_tag(text: str, key: str) -> bool:
    return any((k := tag_key(t)) == key or k.startswith(key + "/") for t in parse_note(text).tags)


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

    def path_ok(self, path: str) -> bool:
        return (self.include is None or self.include.match(path)) and not (self.exclude and self.exclude.match(path))

    def stat_ok(self, size: int, mtime_ns: int, created: int) -> bool:
        return (
            _inside(size, self.size, end_inclusive=True)
            and _inside(mtime_ns, self.modified, end_inclusive=False)
            and _inside(created, self.created, end_inclusive=False)
        )


Candidate = tuple[str, str, tuple[str, ...] | None]  # (vault, path, tags when the index gave them)


def _index_candidates(ws: Workspace, q: str, vaults: list[str], tag: str | None) -> tuple[int, Iterator[Candidate]]:
    """(notes the index matches for ``q``'s words, those notes best first): at most
    :data:`MAX_INDEX_CANDIDATES`, fetched :data:`INDEX_CHUNK` at a time as they are consumed, so a search
    that runs out of time has not paid for the rest."""
    first = ws.index.search(q, vaults=vaults, tag=tag, limit=min(INDEX_CHUNK, MAX_INDEX_CANDIDATES), offset=0)

    def hits() -> Iterator[Candidate]:
        page, done = first, 0
        while True:
            yield from ((h.vault, h.path, h.tags) for h in page.hits)
            done += len(page.hits)
            if not page.hits or done >= min(page.total, MAX_INDEX_CANDIDATES):
                return
            size = min(INDEX_CHUNK, MAX_INDEX_CANDIDATES - done)
            page = ws.index.search(q, vaults=vaults, tag=tag, limit=size, offset=done)

    return first.total, hits()


def _sort_key(sort: str, ranked: bool) -> Any:
    def by_path(f: _Found) -> tuple:
        return (f.path.casefold(), f.path, f.vault)

    if sort == "relevance":
        return (lambda f: f.rank) if ranked else (lambda f: (-f.matches, *by_path(f)))
    if sort == "path":
        return by_path
    attr = {"modified": "mtime_ns", "created": "created_ns", "size": "size"}[sort]
    return lambda f: (-getattr(f, attr), *by_path(f))


def _verify(
    ws: Workspace,
    cands: Iterable[Candidate],
    filters: _Filters,
    pattern: rx.Pattern[str] | None,
    *,
    regex: bool,
    tag_k: str,
    deadline: float,
) -> tuple[list[_Found], int, bool, int]:
    """Check candidates in order until ``deadline``: path globs, then stat filters, then (when ``pattern``, or a
    ``tag_k`` to check on the text, is given) the note's text. Returns (found, candidates checked, whether time
    ran out before the last one, notes skipped because the regex timed out on them)."""
    found: list[_Found] = []
    checked = slow = 0
    for rank, (vname, path, index_tags) in enumerate(cands):
        now = time.monotonic()
        if now >= deadline:
            return found, checked, True, slow
        checked += 1
        if not filters.path_ok(path) or (located := _stat_note(ws.vaults[vname], path)) is None:
            continue
        os_path, st = located
        f = _Found(vname, path, rank, st.st_size, st.st_mtime_ns, created_ns(st), tags=index_tags)
        if not filters.stat_ok(f.size, f.mtime_ns, f.created_ns):
            continue
        if pattern is not None or tag_k:
            text = _read_text(os_path)
            if text is None or (tag_k and not _has_tag(text, tag_k)):
                continue
            if pattern is not None:
                try:
                    timeout = max(0.01, min(NOTE_TIMEOUT_S, deadline - now)) if regex else None
                    f.matches, spans = _count(pattern, text, timeout)
                except TimeoutError:
                    slow += 1
                    continue
                if not f.matches:
                    continue
                f.snippet = snippet(text, spans)
        found.append(f)
    return found, checked, False, slow


def _hit(ws: Workspace, f: _Found) -> dict[str, Any]:
    """One result hit; the snippet (without ``q``: the note's start) and tags are read now if still missing."""
    if f.snippet is None or f.tags is None:
        located = _stat_note(ws.vaults[f.vault], f.path)
        text = _read_text(located[0]) if located else None
        if f.snippet is None:
            f.snippet = _lead(text) if text else ""
        if f.tags is None:
            f.tags = tuple(distinct_tags(parse_note(text).tags)) if text else ()
    name = f.path.rsplit("/", 1)[-1]
    return {
        "vault": f.vault, "path": f.path, "title": name[:-3] if is_note(name) else name, "snippet": f.snippet,
        "matches": f.matches, "size": f.size, "modified": iso_utc(f.mtime_ns), "created": iso_utc(f.created_ns),
        "tags": list(f.tags),
    }  # fmt: skip


# ------------------------------------------------------------------------------------------ the search


def search_advanced(
    ws: Workspace,
    allowed: Iterable[str] | None,
    *,
    q: str = "",
    vault: str | None = None,
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
) -> dict[str, Any]:
    """Notes of one or every accessible vault matching ``q`` (literal or regex) and every given filter.

    Args:
        q: text to find (literal: found in notes holding its words, so text inside a word such as ``udget``
            needs ``regex``); with ``regex``, a Python regular expression; may be empty when a filter is given.
        tag: notes with this tag or a nested one (``a`` matches ``a/b``).
        sort: ``relevance`` (default with a literal ``q``: index rank; with a regex: most matches first),
            ``path`` (default otherwise), or newest/largest first: ``modified``, ``created``, ``size``.
        include_paths / exclude_paths: globs on the vault-relative path (see :func:`compile_globs`).
        created / modified: ``{"after", "before"}`` ISO 8601 bounds (after inclusive, before exclusive; a date
            is UTC midnight). Created is the birth time, else the inode change time capped at the
            modification time (:func:`obsigate.domain.vault.created_ns`).
        size: ``{"min", "max"}`` bytes, inclusive.

    Returns:
        ``{"query", "sort", "hits": [{"vault", "path", "title", "snippet", "matches", "size", "modified",
        "created", "tags"}], "total", "offset", "truncated", "next_offset", "timed_out", "index": {"state",
        "complete"}, "warning"}``. ``matches`` counts up to 1000 per note; ``modified``/``created`` are ISO 8601
        UTC. When time ran out (``timed_out``) or the index had too many candidates, results are partial,
        ``truncated`` is true and ``warning`` says so.

    Raises:
        BadRequest: empty ``q`` without a filter, ``q`` too long, limit/offset/sort out of range, a bad date or
            size range (``invalid_argument``), a bad regex (``invalid_regex``) or glob (``invalid_glob``).
        VaultAccessDenied / NotFound: an explicit ``vault`` the caller may not use.
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
    vaults = ws.scope(vault, allowed)

    # the index finds notes by their words; a query without one it keeps (> 64 bytes are dropped) is scanned
    words = _INDEX_WORD.findall(q) if q and not regex else []
    use_index = bool(words) and all(len(w.encode()) <= 60 for w in words)
    cands: Iterable[Candidate]
    if use_index:
        n_cands, cands = _index_candidates(ws, q, vaults, tag_k or None)
    else:
        cands = [(v, p, None) for v in vaults for p in sorted(ws.index.file_states(v)) if is_note(p)]
        n_cands = len(cands)
    capped = n_cands > MAX_INDEX_CANDIDATES and use_index
    found, checked, out_of_time, slow = _verify(
        ws, cands, filters, pattern, regex=regex, tag_k="" if use_index else tag_k, deadline=deadline
    )

    warnings: list[str] = []
    if out_of_time:
        warnings.append(
            f"stopped after {TIME_BUDGET_S:g} s with {checked} of {n_cands} candidate notes checked: results"
            " are partial; narrow the search (vault, include_paths, tag, dates)"
        )
    elif capped:
        warnings.append(
            f"only the {MAX_INDEX_CANDIDATES} notes ranking best for the words of q were checked; narrow the search"
        )
    if slow:
        warnings.append(f"{slow} notes took longer than {NOTE_TIMEOUT_S:g} s to match the regex and were skipped")
    timed_out = out_of_time or slow > 0
    index = ws.index_state()
    if not index["complete"]:
        warnings.append("the index is still being built; results may be incomplete")

    found.sort(key=_sort_key(sort, use_index))
    hits = [_hit(ws, f) for f in found[offset : offset + limit]]
    end = offset + len(hits)
    return {
        "query": q,
        "sort": sort,
        "hits": hits,
        "total": len(found),
        "offset": offset,
        "truncated": end < len(found) or timed_out or capped,
        "next_offset": end if end < len(found) else None,
        "timed_out": timed_out,
        "index": index,
        "warning": "; ".join(warnings) or None,
    }
