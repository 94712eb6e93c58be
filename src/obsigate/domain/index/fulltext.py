"""The tantivy side of the index: schema, analyzer, note documents and query building.

Everything here decides *what* is indexed and *how a query matches*; it holds no state. It is separate from
the write path (:mod:`obsigate.domain.index.committer`) and from ranking the not-yet-committed notes
(:mod:`obsigate.domain.index.overlay`) because both of those must agree with it exactly: the overlay analyses
notes with :func:`analyzer` and mirrors :func:`user_query` in Python.

The index lives in ``db_path.with_suffix(".tantivy")``: per note ``title`` (file stem), ``aliases``,
``headings``, ``props`` (frontmatter keys and values as text), ``body`` (stored, compressed: the only copy
of note text, used for snippets) and raw ``key``/``vault``/``tags``/``tagd`` fields for filtering, deletes
and display. The query semantics it implements are described in :mod:`obsigate.domain.index.vault_index`.
"""

from __future__ import annotations

import bisect
import logging
import shutil
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tantivy

from obsigate.domain.text import nfc
from obsigate.domain.vault import note_title

if TYPE_CHECKING:
    from obsigate.domain.markdown.note import ParsedNote

__all__ = [
    "FIELD_BOOSTS",
    "FT_SCHEMA_VERSION",
    "PREFIX_MIN_CHARS",
    "PREFIX_TERMS",
    "PREFIX_WEIGHT",
    "IndexBusyError",
    "NoteDoc",
    "analyzer",
    "doc_key",
    "expand",
    "filtered_query",
    "note_doc",
    "open_index",
    "open_writer",
    "query_pieces",
    "schema",
    "user_query",
]

log = logging.getLogger(__name__)

FT_SCHEMA_VERSION = "1"  # tantivy fields / analyzer
FIELD_BOOSTS: dict[str, float] = {"title": 4.0, "aliases": 3.0, "headings": 2.0, "props": 1.0, "body": 1.0}
PREFIX_TERMS = 8  # longer words a query word may also match (by document frequency)
PREFIX_MIN_CHARS = 3
PREFIX_WEIGHT = 0.5
PREFIX_SKIP_DF = 1000  # no expansion for a word already in more than this many notes (and > 2 % of them)
MAX_QUERY_PIECES = 16
_GAP = "\x00"  # separates values of a multi-valued field in overlay token lists (no phrase across values)


class IndexBusyError(RuntimeError):
    """Another process (or another open :class:`VaultIndex`) holds the full-text index writer lock."""


def analyzer() -> tantivy.TextAnalyzer:
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(64))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
        .build()
    )


def schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("key", stored=True, tokenizer_name="raw")
    sb.add_text_field("vault", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("tags", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("tagd", stored=True, tokenizer_name="raw", index_option="basic")
    for name in FIELD_BOOSTS:
        sb.add_text_field(name, stored=(name == "body"), tokenizer_name="fold")
    return sb.build()


def doc_key(vault: str, path: str) -> str:
    return f"{vault}:{path}"  # vault names never contain ':'


# --------------------------------------------------------------------------------------- opening


def open_index(path: Path, sch: tantivy.Schema, an: tantivy.TextAnalyzer, *, reuse: bool) -> tuple[tantivy.Index, bool]:
    """Open the index folder, or recreate it empty; returns ``(index, recreated)``.

    It is recreated when ``reuse`` is false (format changed), or the folder is missing, corrupt or
    incompatible: it is a cache, rebuilt from the vaults.
    """
    fresh = not reuse or not path.is_dir() or not tantivy.Index.exists(str(path))
    index = None
    if not fresh:
        try:
            index = tantivy.Index(sch, path=str(path), reuse=True)
        except Exception as exc:  # noqa: BLE001 — corrupt or incompatible (tantivy's error types vary): rebuilt from the vaults
            log.warning("full-text index at %s unreadable (%s); recreating it", path, exc)
            fresh = True
    if fresh:
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
        index = tantivy.Index(sch, path=str(path), reuse=False)
    assert index is not None
    index.register_tokenizer("fold", an)
    index.config_reader("Manual", 0)
    return index, fresh


def open_writer(index: tantivy.Index, path: Path, heap_mb: int, threads: int) -> tantivy.IndexWriter:
    """The index's single writer; :class:`IndexBusyError` when another process holds its lock."""
    try:
        return index.writer(max(heap_mb, 16) * 1_000_000, threads)
    except ValueError as exc:
        if "Lock" in str(exc):
            raise IndexBusyError(f"the search index {path} is in use by another process; stop it first") from exc
        raise


# --------------------------------------------------------------------------------------- documents


def _flatten(value: Any, out: list[str], budget: list[int]) -> None:
    if budget[0] <= 0:
        return
    if isinstance(value, dict):
        for k, v in value.items():
            out.append(str(k))
            _flatten(v, out, budget)
    elif isinstance(value, (list, tuple, set)):
        for v in value:
            _flatten(v, out, budget)
    elif value is not None:
        s = str(value)
        budget[0] -= len(s)
        out.append(s)


def _props_text(frontmatter: Any) -> str:
    out: list[str] = []
    if isinstance(frontmatter, dict):
        _flatten(frontmatter, out, [20_000])
    return "\n".join(out)


@dataclass(slots=True)
class NoteDoc:
    """A note as the overlay holds it (analyzed fields) and as the committer turns it into a tantivy doc."""

    vault: str
    path: str
    values: dict[str, list[str]]  # raw field values (multi-valued)
    tag_keys: list[str]
    tags: tuple[str, ...]
    tokens: dict[str, list[str]] = field(default_factory=dict)
    tf: dict[str, Counter[str]] = field(default_factory=dict)
    lengths: dict[str, int] = field(default_factory=dict)
    sorted_terms: dict[str, list[str]] = field(default_factory=dict)
    tdoc: Any = None

    def analyze(self, an: tantivy.TextAnalyzer) -> None:
        for name in FIELD_BOOSTS:
            toks: list[str] = []
            for i, v in enumerate(self.values[name]):
                if i:
                    toks.append(_GAP)
                toks.extend(an.analyze(v))
            self.tokens[name] = toks
            self.tf[name] = Counter(toks)
            self.lengths[name] = len(toks)
            if name in ("title", "body"):
                self.sorted_terms[name] = sorted(self.tf[name])

    def prefixed(self, fname: str, prefix: str) -> list[str]:
        """Distinct words of ``fname`` (title or body) starting with ``prefix`` (bisect on sorted words)."""
        terms = self.sorted_terms[fname]
        i = bisect.bisect_left(terms, prefix)
        out = []
        while i < len(terms) and terms[i].startswith(prefix):
            out.append(terms[i])
            i += 1
        return out

    def to_tantivy(self, sch: tantivy.Schema) -> tantivy.Document:
        fields: dict[str, Any] = {"key": doc_key(self.vault, self.path), "vault": self.vault}
        if self.tag_keys:
            fields["tags"] = self.tag_keys
            fields["tagd"] = list(self.tags)
        for name in FIELD_BOOSTS:
            if self.values[name]:
                fields[name] = self.values[name]
        return tantivy.Document.from_dict(fields, sch)


def note_doc(vault: str, path: str, parsed: ParsedNote, tag_keys: list[str], tags: tuple[str, ...]) -> NoteDoc:
    """The full-text fields of a parsed note (not analyzed yet), all text in NFC like the queries."""
    return NoteDoc(
        vault=vault,
        path=path,
        values={
            "title": [nfc(note_title(path))],
            "aliases": [nfc(str(a)) for a in parsed.aliases],
            "headings": [nfc(h.text) for h in parsed.headings],
            "props": [nfc(_props_text(parsed.frontmatter))],
            "body": [nfc(parsed.body)],
        },
        tag_keys=tag_keys,
        tags=tags,
    )


# ----------------------------------------------------------------------------------------- queries


def query_pieces(an: tantivy.TextAnalyzer, query: str) -> list[tuple[str, ...]] | None:
    """User text → analyzed pieces (each a word tuple); None if some piece can never match."""
    pieces: list[tuple[str, ...]] = []
    for raw in nfc(query[:2000]).split():
        words = tuple(an.analyze(raw))
        if words:
            if words not in pieces:
                pieces.append(words)
        elif any(ch.isalnum() for ch in raw):
            return None  # e.g. a word longer than the analyzer keeps: nothing indexed can match it
    return pieces[:MAX_QUERY_PIECES]


def expand(searcher: tantivy.Searcher, piece: tuple[str, ...]) -> list[str]:
    """Longer indexed words a one-word piece also matches (most frequent first); none for frequent words."""
    if len(piece) != 1 or len(piece[0]) < PREFIX_MIN_CHARS:
        return []
    word = piece[0]
    if searcher.doc_freq("body", word) > max(PREFIX_SKIP_DF, searcher.num_docs // 50):
        return []  # a frequent complete word ("the"): expanding it costs a lot and adds little
    found: dict[str, int] = {}
    for fname in ("body", "title"):
        for term, n in searcher.terms_with_prefix(fname, word, limit=PREFIX_TERMS + 1):
            if term != word:
                found[term] = found.get(term, 0) + n
    return sorted(found, key=lambda t: (-found[t], t))[:PREFIX_TERMS]


def user_query(sch: tantivy.Schema, pieces: list[tuple[str, ...]], expansions: list[list[str]]) -> tantivy.Query:
    """Every piece must match in some field (boosted); expansions add half-weight title/body terms."""
    query, occur = tantivy.Query, tantivy.Occur
    musts = []
    for words, exps in zip(pieces, expansions, strict=True):
        should = []
        for fname, boost in FIELD_BOOSTS.items():
            if len(words) == 1:
                q = query.term_query(sch, fname, words[0])
            else:
                q = query.phrase_query(sch, fname, list(words))
            should.append((occur.Should, query.boost_query(q, boost)))
            if fname in ("title", "body"):
                for e in exps:
                    should.append(
                        (occur.Should, query.boost_query(query.term_query(sch, fname, e), boost * PREFIX_WEIGHT))
                    )
        musts.append((occur.Must, query.boolean_query(should)))
    return query.boolean_query(musts)


def filtered_query(
    sch: tantivy.Schema,
    user_q: tantivy.Query,
    vaults: Sequence[str],
    tag_key: str,
    hidden_keys: Sequence[str],
    dead_vaults: Sequence[str],
) -> tantivy.Query:
    """``user_q`` limited to ``vaults`` (and ``tag_key``), minus notes the overlay supersedes.

    Filters score 0 so they do not change the ranking.
    """
    query, occur = tantivy.Query, tantivy.Occur
    clauses = [
        (occur.Must, user_q),
        (occur.Must, query.const_score_query(query.term_set_query(sch, "vault", list(vaults)), 0.0)),
    ]
    if tag_key:
        clauses.append((occur.Must, query.const_score_query(query.term_query(sch, "tags", tag_key), 0.0)))
    if hidden_keys:
        clauses.append((occur.MustNot, query.term_set_query(sch, "key", list(hidden_keys))))
    if dead_vaults:
        clauses.append((occur.MustNot, query.term_set_query(sch, "vault", list(dead_vaults))))
    return query.boolean_query(clauses)
