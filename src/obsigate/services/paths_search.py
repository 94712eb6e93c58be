"""``search_paths``: find files by a fuzzy match on their path, title and aliases (Obsidian's quick switcher idea:
obsidian-app.md §6.1 -- a note is also found by its frontmatter ``aliases``, and an exact name comes first)."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, Field

from obsigate.domain.text import fold
from obsigate.domain.vault import note_title
from obsigate.services.errors import BadRequest
from obsigate.services.redacted_paths import shown_path
from obsigate.services.results import Page, Result
from obsigate.services.workspace import Workspace, check_page, page_fields

MAX_QUERY_WORDS = 8
MAX_LIMIT = 100
EXACT_BONUS = 20.0  # a name (or alias) equal to the whole query: above any sum of per-word scores of 8 words


def subsequence_span(word: str, text: str) -> int | None:
    """Length of the greedy window of ``text`` holding ``word``'s letters in order (from the first
    occurrence of its first letter), or ``None`` when they are not all there in order. Empty ``word`` → 0."""
    if not word:
        return 0
    start = text.find(word[0])
    if start < 0:
        return None
    pos = start
    for ch in word[1:]:
        pos = text.find(ch, pos + 1)
        if pos < 0:
            return None
    return pos - start + 1


def path_score(path: str, words: list[str]) -> float | None:
    """How well ``path`` matches every word (folded with :func:`~obsigate.domain.text.fold`: case and accents
    ignored), higher is better; ``None`` if a word does not match.

    Per word: in the file name (title) scores most, at its start more; anywhere in the path less; a scattered
    in-order match (``plnbdg`` for ``Plan/Budget``) least, by how compact it is. A name equal to the whole query
    scores above all of these (the note someone typed the name of comes first). Shorter paths break ties.
    """
    full = fold(path)
    return folded_score(full, full.rsplit("/", 1)[-1].removesuffix(".md"), len(path), words)


def folded_score(full: str, name: str, length: int, words: list[str]) -> float | None:
    """:func:`path_score` of a path already folded (``full``; ``name`` its file name without ``.md``;
    ``length`` the path's own length), for callers that fold each path once and match it many times."""
    score = EXACT_BONUS if name == " ".join(words) else 0.0
    for word in words:
        if word in name:
            score += 6.0 if name.startswith(word) else 4.0
        elif word in full:
            score += 2.0
        else:
            span = subsequence_span(word, full)
            if span is None:
                return None
            score += len(word) / span
    return score - length / 1000.0


def alias_score(path: str, aliases: Sequence[str], words: list[str]) -> float | None:
    """The best score of ``path``'s note through one of its ``aliases`` (every word in the alias, scored as in
    :func:`path_score`'s file name), or ``None`` when no alias holds every word. ``aliases`` already folded."""
    best: float | None = None
    query = " ".join(words)
    for a in aliases:
        if not all(w in a for w in words):
            continue
        score = (EXACT_BONUS if a == query else 0.0) + sum(6.0 if a.startswith(w) else 4.0 for w in words)
        best = score if best is None else max(best, score)
    return None if best is None else best - len(path) / 1000.0


@dataclass(frozen=True, slots=True)
class _Candidate:
    """One file of a vault as the switcher matches it, folded once (see :func:`_candidates`)."""

    path: str
    full: str  # the shown (redacted) path, folded
    name: str  # its file name without .md, folded
    aliases: tuple[str, ...]  # the note's aliases as indexed
    folded_aliases: tuple[str, ...]


#: index -> vault -> (graph_version, candidates): every path of a vault folded and redacted once per change of
#: the vault rather than on every keystroke (the quick switcher asks on each one; 10k paths cost ~30 ms to
#: fold and redact in Python, the matching itself a few ms). Weak keys: an index closed and dropped (tests)
#: takes its entries with it.
_CACHE: weakref.WeakKeyDictionary[object, dict[str, tuple[str, list[_Candidate]]]] = weakref.WeakKeyDictionary()
_CACHE_LOCK = threading.Lock()


def _candidates(ws: Workspace, vault: str) -> list[_Candidate]:
    """The files of ``vault`` folded for matching, rebuilt when the index says the vault changed. The version
    is read BEFORE the files: a change made while they are read bumps it again, so a stale list never outlives
    the next call."""
    version = ws.index.graph_version(vault)
    with _CACHE_LOCK:
        hit = _CACHE.get(ws.index, {}).get(vault)
    if hit is not None and hit[0] == version:
        return hit[1]
    by_path = ws.index.aliases(vault)
    out = []
    for path in ws.index.file_states(vault):
        full = fold(shown_path(path))  # what a reader sees: a name's secret is not searchable
        named = tuple(by_path.get(path, ()))
        out.append(
            _Candidate(path, full, full.rsplit("/", 1)[-1].removesuffix(".md"), named, tuple(fold(a) for a in named))
        )
    with _CACHE_LOCK:
        _CACHE.setdefault(ws.index, {})[vault] = (version, out)
    return out


class PathHit(BaseModel):
    vault: str
    path: str
    title: str
    score: float
    aliases: list[str] = Field(
        default_factory=list, description="The note's frontmatter aliases (a switcher shows the one that matched)."
    )


class SearchPathsResult(Result, Page):
    query: str
    hits: list[PathHit]


def search_paths(
    ws: Workspace,
    q: str,
    vaults: Sequence[str],
    *,
    limit: int = 20,
    offset: int = 0,
) -> SearchPathsResult:
    """Files of ``vaults`` (declared names the tool layer already put in the caller's scope: the one named, or
    every vault they may use) whose path fuzzily matches ``q`` (every word must match), or one of whose
    frontmatter aliases holds every word, as a reader is shown it: a secret in a name is matched as its
    ``[REDACTED:…]`` marker, never letter by letter (aliases are indexed redacted).

    Returns a :class:`SearchPathsResult`, best first.

    Raises:
        BadRequest: an empty query, ``limit`` outside 1..100 or a negative ``offset``.
    """
    words = fold(q).split()[:MAX_QUERY_WORDS] if isinstance(q, str) else []
    if not words:
        raise BadRequest("q must contain at least one word", hint="e.g. 'budget plan'")
    check_page(limit, offset, max_limit=MAX_LIMIT)
    scored = []
    aliases: dict[tuple[str, str], list[str]] = {}
    for name in vaults:
        for c in _candidates(ws, name):
            score = folded_score(c.full, c.name, len(c.path), words)
            if c.aliases:
                aliases[(name, c.path)] = list(c.aliases)
                via_alias = alias_score(c.path, c.folded_aliases, words)
                if via_alias is not None and (score is None or via_alias > score):
                    score = via_alias
            if score is not None:
                scored.append((-score, name, c.path))
    scored.sort()
    hits = [
        PathHit(vault=v, path=p, title=note_title(p), score=round(-s, 3), aliases=aliases.get((v, p), []))
        for s, v, p in scored[offset : offset + limit]
    ]
    return SearchPathsResult(query=q, hits=hits, **page_fields(len(scored), offset, len(hits)))
