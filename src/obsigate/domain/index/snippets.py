"""Snippets: about 30 words of a hit's body around the best match, matched words in ``<mark>``.

Two producers must give the same shape of text: tantivy's ``SnippetGenerator`` for committed notes
(:func:`committed_snippet`) and a Python equivalent for overlay notes (:func:`overlay_snippet`). The output
is plain note text whose only markup is ``<mark>``: literal ``<mark>`` in a note is rewritten ``‹mark›``,
and whitespace is collapsed. Kept apart from searching because it is pure text shaping, the part of a
result page most tuned for cost (see :func:`committed_snippet`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import tantivy

from obsigate.domain.index.fulltext import PREFIX_MIN_CHARS

__all__ = ["SNIPPET_CHARS", "SNIPPET_WINDOW", "committed_snippet", "generator", "overlay_snippet"]

SNIPPET_CHARS = 200  # ≈ 30 words
SNIPPET_WINDOW = 800  # characters of the body tried first for the snippet
_WS = re.compile(r"\s+")
_OPEN, _CLOSE = "\ue000", "\ue001"  # private-use placeholders for <mark> while cleaning


def _clean(s: str) -> str:
    """Collapse whitespace; neutralise literal ``<mark>`` tags and our placeholders found in note text."""
    if "<" in s:
        s = s.replace("<mark>", "‹mark›").replace("</mark>", "‹/mark›")
    if "\ue000" in s or "\ue001" in s:
        s = s.replace(_OPEN, "").replace(_CLOSE, "")
    return _WS.sub(" ", s)


def _mark_bytes(text: str, ranges: Sequence[tuple[int, int]]) -> str:
    """Wrap UTF-8 *byte* ranges of ``text`` (tantivy's offsets) in <mark>…</mark>; collapse whitespace."""
    text = text.replace(_OPEN, " ").replace(_CLOSE, " ") if ("\ue000" in text or "\ue001" in text) else text
    if text.isascii():
        pos_of = None
    else:
        b = text.encode("utf-8")
        pos_of = lambda i: len(b[:i].decode("utf-8", "ignore"))  # noqa: E731
    out: list[str] = []
    pos = 0
    for a, z in sorted(ranges):
        if pos_of is not None:
            a, z = pos_of(a), pos_of(z)
        if a < pos:
            continue
        out += (text[pos:a], _OPEN, text[a:z], _CLOSE)
        pos = z
    out.append(text[pos:])
    return _clean_marked("".join(out))


def _clean_marked(s: str) -> str:
    if "<" in s:
        s = s.replace("<mark>", "‹mark›").replace("</mark>", "‹/mark›")
    return _WS.sub(" ", s).replace(_OPEN, "<mark>").replace(_CLOSE, "</mark>")


def _lead(body: str) -> str:
    """Snippet for a hit without a body match: the start of the body, clipped at a word boundary."""
    text = _clean(body).strip()
    if len(text) <= SNIPPET_CHARS:
        return text
    cut = text.rfind(" ", 0, SNIPPET_CHARS)
    return text[: cut if cut > SNIPPET_CHARS // 2 else SNIPPET_CHARS] + "…"


def generator(searcher: tantivy.Searcher, query: tantivy.Query, sch: tantivy.Schema) -> tantivy.SnippetGenerator:
    """A body snippet generator for ``query``; build it once per page, only when a committed hit needs it."""
    gen = tantivy.SnippetGenerator.create(searcher, query, sch, "body")
    gen.set_max_num_chars(SNIPPET_CHARS)
    return gen


def committed_snippet(gen: tantivy.SnippetGenerator, doc: tantivy.Document, body: str) -> str:
    """Best-matching fragment of ``body`` with marks; the start of the body if no word of it matched.

    Snippet generation re-tokenizes the text, so it first looks only at the first
    :data:`SNIPPET_WINDOW` characters (where frequent words nearly always occur) and falls back to the
    whole body when that window has no match (measured: halves the cost of a 20-hit page of long notes).
    """
    sn = None
    if len(body) > SNIPPET_WINDOW:
        cut = body.rfind(" ", 0, SNIPPET_WINDOW)
        window = body[: cut if cut > SNIPPET_WINDOW // 2 else SNIPPET_WINDOW]
        sn = gen.snippet_from_doc(tantivy.Document(body=window))
        if not sn.highlighted():
            sn = None
    if sn is None:
        sn = gen.snippet_from_doc(doc)
    ranges = [(h.start, h.end) for h in sn.highlighted()]
    if not ranges:
        return _lead(body)
    fr = sn.fragment_range()
    snippet = _mark_bytes(sn.fragment(), ranges).strip()
    if fr.start > 0:
        snippet = "…" + snippet.lstrip()
    if fr.end < (len(body) if body.isascii() else len(body.encode("utf-8"))):
        snippet = snippet.rstrip() + "…"
    return snippet


def overlay_snippet(an: tantivy.TextAnalyzer, body: str, pieces: list[tuple[str, ...]]) -> str:
    """The same shape of snippet for an overlay note, marking words the query's pieces match."""
    singles = {w[0] for w in pieces if len(w) == 1}
    prefixes = tuple(w[0] for w in pieces if len(w) == 1 and len(w[0]) >= PREFIX_MIN_CHARS)
    phrase_words = {w for p in pieces if len(p) > 1 for w in p}

    def find(text: str) -> list[tuple[int, int]]:
        return [
            (t.char_offset_from, t.char_offset_to)
            for t in an.pre_tokenize(text).tokens
            if t.text in singles or t.text in phrase_words or (prefixes and t.text.startswith(prefixes))
        ]

    marks = find(body[:SNIPPET_WINDOW]) if len(body) > SNIPPET_WINDOW else []
    if not marks or marks[0][0] > SNIPPET_WINDOW - SNIPPET_CHARS:
        marks = find(body)
    if not marks:
        return _lead(body)
    start = marks[0][0]
    lo = max(0, start - SNIPPET_CHARS // 4)
    if lo:
        sp = body.rfind(" ", 0, lo)
        lo = sp + 1 if sp >= 0 and lo - sp < 40 else lo
    hi = min(len(body), lo + SNIPPET_CHARS)
    if hi < len(body):
        sp = body.rfind(" ", lo, hi)
        hi = sp if sp > lo + SNIPPET_CHARS // 2 else hi
    out, pos = [], lo
    for a, z in marks:
        if a < pos or z > hi:
            continue
        out.append(_clean(body[pos:a]))
        out.append("<mark>" + _clean(body[a:z]) + "</mark>")
        pos = z
    out.append(_clean(body[pos:hi]))
    snippet = "".join(out).strip()
    return ("…" if lo > 0 else "") + snippet + ("…" if hi < len(body) else "")
