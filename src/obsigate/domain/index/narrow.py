"""Narrowing a search-syntax query with the full-text index: a *superset* of the notes that can match.

The search service (``services/search_syntax.py``) checks every candidate exactly on its text; this module
only has to never leave a matching note out, and to leave out as many others as it cheaply can. A spec is a
small tree of tuples, independent of the parser's AST:

* ``("and", [spec, …])`` / ``("or", [spec, …])``;
* ``("sub", text)``: ``text`` found anywhere, inside words too. Each word the index analyzer makes of it must
  occur *inside* some indexed word of the title or body (a tantivy regex query ``.*word.*`` over the term
  dictionary): a case- and accent-insensitive substring of the text lies inside the folded words it spans;
* ``("phrase", text)``: ``text`` as whole words: the analyzed words as a phrase in the title or body;
* ``("tag", key)``: the note carries tag ``key`` (lower case, no ``#``) or a nested one;
* ``("paths", frozenset)``: one of these vault-relative paths.

A spec that yields no query (a ``sub`` of punctuation only) matches every note: still a superset.
"""

from __future__ import annotations

from typing import Any

import tantivy

from obsigate.domain.index.fulltext import doc_key
from obsigate.domain.text import nfc

__all__ = ["Spec", "to_query"]

Spec = tuple[str, Any]
_FIELDS = ("title", "body")  # what the service checks a plain term against (the file name and the content)


def _any_field(build: Any) -> tantivy.Query:
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, build(f)) for f in _FIELDS])


def to_query(sch: tantivy.Schema, an: tantivy.TextAnalyzer, vault: str, spec: Spec) -> tantivy.Query | None:
    """The tantivy query for ``spec`` in ``vault`` (see the module docstring), or ``None`` for "every note"."""
    kind, arg = spec
    query, occur = tantivy.Query, tantivy.Occur
    if kind in ("and", "or"):
        parts = [to_query(sch, an, vault, s) for s in arg]
        if kind == "or" and any(p is None for p in parts):
            return None
        kept = [p for p in parts if p is not None]
        if not kept:
            return None
        return query.boolean_query([(occur.Must if kind == "and" else occur.Should, p) for p in kept])
    if kind == "tag":
        return query.term_query(sch, "tags", arg)
    if kind == "paths":
        return query.term_set_query(sch, "key", [doc_key(vault, p) for p in arg])
    words = an.analyze(nfc(arg))
    if not words:
        return None
    if kind == "phrase":
        if len(words) == 1:
            return _any_field(lambda f: query.term_query(sch, f, words[0]))
        return _any_field(lambda f: query.phrase_query(sch, f, list(words)))
    # "sub": the analyzer keeps letters and digits only, so a word needs no escaping in the regex
    return query.boolean_query(
        [(occur.Must, _any_field(lambda f, w=w: query.regex_query(sch, f, f".*{w}.*"))) for w in dict.fromkeys(words)]
    )
