"""``search_paths``: find files by a fuzzy match on their path, title and aliases (Obsidian's quick switcher idea:
obsidian-app.md §6.1 -- a note is also found by its frontmatter ``aliases``, and an exact name comes first)."""

from __future__ import annotations

import re
import threading
import weakref
from bisect import bisect_right
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
    """One file of a vault as the switcher matches it, folded once (see :func:`_table`)."""

    path: str
    full: str  # the shown (redacted) path, folded
    name: str  # its file name without .md, folded
    aliases: tuple[str, ...]  # the note's aliases as indexed
    folded_aliases: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Table:
    """A vault's candidates with their folded paths (and aliases) joined one per line, so the letters of a
    query are looked for by one regular expression over the whole text (C speed) instead of a Python loop over
    every path; only the lines that hold every word are then scored."""

    cands: list[_Candidate]
    paths: str  # c.full of every candidate, one per line
    starts: list[int]  # offset of each line in ``paths``
    alias_text: str  # every folded alias, one per line
    alias_starts: list[int]
    alias_owner: list[int]  # the candidate of each alias line

    def lines(self, word: str) -> set[int]:
        """The candidates whose folded path holds ``word``'s letters in order (what :func:`folded_score`
        accepts), plus those with an alias holding ``word``."""
        subseq = _subsequence_re(word)
        out = {bisect_right(self.starts, m.start()) - 1 for m in subseq.finditer(self.paths)}
        at = self.alias_text.find(word)
        while at >= 0:
            line = bisect_right(self.alias_starts, at) - 1
            out.add(self.alias_owner[line])
            nxt = self.alias_text.find("\n", at)
            at = -1 if nxt < 0 else self.alias_text.find(word, nxt + 1)
        return out


def _subsequence_re(word: str) -> re.Pattern[str]:
    """``word``'s letters in order within one line: ``l[^u\\n]*u[^m\\n]*m`` (each gap stops at the next letter:
    no backtracking, so one pass over the text; the match is the greedy earliest one, as
    :func:`subsequence_span`'s)."""
    parts = [re.escape(word[0])]
    for ch in word[1:]:
        parts.append(f"[^{re.escape(ch)}\\n]*{re.escape(ch)}")
    parts.append("[^\\n]*")  # the rest of the line: one match per line, the next search starts on the next one
    return re.compile("".join(parts))


def _joined(texts: Sequence[str]) -> tuple[str, list[int]]:
    starts, pos = [], 0
    for t in texts:
        starts.append(pos)
        pos += len(t) + 1
    return "\n".join(texts), starts


#: index -> vault -> (graph_version, table): every path of a vault folded and redacted once per change of the
#: vault rather than on every keystroke (the quick switcher asks on each one; 10k paths cost ~30 ms to fold and
#: redact in Python). Weak keys: an index closed and dropped (tests) takes its entries with it.
_CACHE: weakref.WeakKeyDictionary[object, dict[str, tuple[str, _Table]]] = weakref.WeakKeyDictionary()
_CACHE_LOCK = threading.Lock()


def _table(ws: Workspace, vault: str) -> _Table:
    """The files of ``vault`` folded for matching, rebuilt when the index says the vault changed. The version
    is read BEFORE the files: a change made while they are read bumps it again, so a stale table never outlives
    the next call."""
    version = ws.index.graph_version(vault)
    with _CACHE_LOCK:
        hit = _CACHE.get(ws.index, {}).get(vault)
    if hit is not None and hit[0] == version:
        return hit[1]
    by_path = ws.index.aliases(vault)
    cands: list[_Candidate] = []
    alias_lines: list[str] = []
    alias_owner: list[int] = []
    for path in ws.index.file_states(vault):
        full = fold(shown_path(path))  # what a reader sees: a name's secret is not searchable
        named = tuple(by_path.get(path, ()))
        folded = tuple(fold(a).replace("\n", " ") for a in named)
        for a in folded:
            alias_lines.append(a)
            alias_owner.append(len(cands))
        cands.append(_Candidate(path, full, full.rsplit("/", 1)[-1].removesuffix(".md"), named, folded))
    paths, starts = _joined([c.full.replace("\n", " ") for c in cands])
    alias_text, alias_starts = _joined(alias_lines)
    table = _Table(cands, paths, starts, alias_text, alias_starts, alias_owner)
    with _CACHE_LOCK:
        _CACHE.setdefault(ws.index, {})[vault] = (version, table)
    return table


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
        table = _table(ws, name)
        found = set.intersection(*(table.lines(w) for w in words))
        for c in (table.cands[i] for i in found):
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
