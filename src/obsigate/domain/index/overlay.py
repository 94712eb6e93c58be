"""The overlay: notes written since the last tantivy commit, searchable at once (docs/decisions.md D1).

A tantivy commit costs 25-300 ms, so writes do not wait for it. Each interactive write records the note
here, analyzed with the index's own analyzer; a search excludes the committed versions of overlaid notes and
matches and scores these in Python (:func:`matches`), with BM25 over the committed index's statistics. The
committer drops the entries a commit covered (:meth:`Overlay.committed`), so an entry lives about
``commit_interval`` seconds. Kept apart from the committer because it is the one place where Python
re-implements tantivy's matching: it must stay in step with :func:`obsigate.domain.index.fulltext.user_query`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import tantivy

from obsigate.domain.index.fulltext import FIELD_BOOSTS, PREFIX_MIN_CHARS, PREFIX_TERMS, PREFIX_WEIGHT, NoteDoc

__all__ = ["OVERLAY_COMMIT_AT", "Key", "Overlay", "Pending", "matches"]

OVERLAY_COMMIT_AT = 64  # overlay size that triggers an immediate commit
OVERLAY_MAX_DOCS = 256  # beyond this, a write becomes visible at the next commit instead of at once
_AVG_LEN = {"title": 3.0, "aliases": 3.0, "headings": 12.0, "props": 10.0}  # overlay BM25 estimates

Key = tuple[str, str]  # (vault, path)


@dataclass(slots=True)
class Pending:
    gen: int
    doc: NoteDoc | None  # None = tombstone (deleted, or committed version hidden)


class Overlay:
    """Overlaid notes and deleted vaults, by the generation of the write that made them.

    Not thread-safe on its own: the committer calls every method under its state lock.
    """

    __slots__ = ("dead_vaults", "pending")

    def __init__(self) -> None:
        self.pending: dict[Key, Pending] = {}
        self.dead_vaults: dict[str, int] = {}  # vault → gen of a delete_vault not yet committed

    def __len__(self) -> int:
        return len(self.pending)

    def __contains__(self, key: Key) -> bool:
        return key in self.pending

    def put(self, key: Key, gen: int, doc: NoteDoc | None, tomb: bool, visible: bool) -> None:
        """Record a write of ``key``; ``visible`` is false for bulk writes (searchable after the commit).

        A tombstone hides the committed version; past the caps the entry is dropped instead, and the note
        shows its committed version until the next commit.
        """
        if tomb:
            if doc is None and len(self.pending) < OVERLAY_MAX_DOCS * 40:
                self.pending[key] = Pending(gen, None)
            else:
                self.pending.pop(key, None)
        elif visible and doc is not None and len(self.pending) < OVERLAY_MAX_DOCS:
            self.pending[key] = Pending(gen, doc)
        else:
            self.pending.pop(key, None)

    def drop_vault(self, vault: str, gen: int) -> None:
        self.dead_vaults[vault] = gen
        for k in [k for k in self.pending if k[0] == vault]:
            del self.pending[k]

    def committed(self, top: int) -> None:
        """Forget what a commit up to generation ``top`` made visible in tantivy."""
        for k in [k for k, p in self.pending.items() if p.gen <= top]:
            del self.pending[k]
        for v in [v for v, g in self.dead_vaults.items() if g <= top]:
            del self.dead_vaults[v]

    def snapshot(self, vaults: Sequence[str]) -> tuple[list[tuple[Key, Pending]], list[str]]:
        """Entries and deleted vaults among ``vaults``, copied so a search can use them without the lock."""
        pending = [(k, p) for k, p in self.pending.items() if k[0] in vaults]
        dead = [v for v in self.dead_vaults if v in vaults]
        return pending, dead


# ------------------------------------------------------------------------------------------ scoring


def _bm25(tf: float, df: int, n_docs: int, dl: float, avgdl: float) -> float:
    idf = math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
    return idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * dl / max(avgdl, 1.0)))


def _count_phrase(tokens: list[str], words: tuple[str, ...]) -> int:
    n, k, first = 0, len(words), words[0]
    for i, t in enumerate(tokens):
        if t == first and tuple(tokens[i : i + k]) == words:
            n += 1
    return n


def matches(
    pending: Sequence[tuple[Key, Pending]],
    tag_key: str,
    pieces: list[tuple[str, ...]],
    expansions: list[list[str]],
    searcher: tantivy.Searcher,
    avg_body: float,
) -> list[tuple[float, NoteDoc]]:
    """``(score, doc)`` of the overlaid notes matching the query (and carrying ``tag_key`` if set)."""
    n_docs = max(searcher.num_docs, 1)
    df_cache: dict[tuple[str, str], int] = {}
    out = []
    for _k, p in pending:
        d = p.doc
        if d is None or (tag_key and tag_key not in d.tag_keys):
            continue
        s = _score(d, pieces, expansions, searcher, n_docs, df_cache, avg_body)
        if s is not None:
            out.append((s, d))
    return out


def _score(
    d: NoteDoc,
    pieces: list[tuple[str, ...]],
    expansions: list[list[str]],
    searcher: tantivy.Searcher,
    n_docs: int,
    df_cache: dict[tuple[str, str], int],
    avg_body: float,
) -> float | None:
    """BM25-like score of an overlay note, or None if some piece does not match (mirrors user_query).

    Statistics: document frequencies and counts from the committed index (+1 for this note); average
    lengths estimated (body: mean word count of indexed notes). Matching is exact; scores are close to,
    not equal to, tantivy's (the note is in the overlay for about ``commit_interval`` seconds).
    """
    # cheap rejection first: every piece must occur somewhere
    for words in pieces:
        w0 = words[0]
        if not any(w0 in tf for tf in d.tf.values()) and not (
            len(words) == 1 and len(w0) >= PREFIX_MIN_CHARS and any(d.prefixed(f, w0) for f in ("title", "body"))
        ):
            return None

    def df(fname: str, term: str) -> int:
        k = (fname, term)
        v = df_cache.get(k)
        if v is None:
            v = df_cache[k] = searcher.doc_freq(fname, term)
        return v

    total = 0.0
    for words, exps in zip(pieces, expansions, strict=True):
        piece_score = 0.0
        matched = False
        exp_set = set(exps)
        for fname, boost in FIELD_BOOSTS.items():
            tf = d.tf[fname]
            if not tf:
                continue
            dl = d.lengths[fname]
            avg = avg_body if fname == "body" else _AVG_LEN[fname]
            if len(words) == 1:
                n = tf.get(words[0], 0)
                if n:
                    matched = True
                    piece_score += boost * _bm25(n, df(fname, words[0]) + 1, n_docs + 1, dl, avg)
                if fname in ("title", "body") and len(words[0]) >= PREFIX_MIN_CHARS:
                    for term in d.prefixed(fname, words[0]):
                        if term != words[0] and (term in exp_set or len(exps) < PREFIX_TERMS):
                            matched = True
                            w = PREFIX_WEIGHT * _bm25(tf[term], df(fname, term) + 1, n_docs + 1, dl, avg)
                            piece_score += boost * w
            elif all(w in tf for w in words):
                n = _count_phrase(d.tokens[fname], words)
                if n:
                    matched = True
                    piece_score += boost * sum(_bm25(n, df(fname, w) + 1, n_docs + 1, dl, avg) for w in words)
        if not matched:
            return None
        total += piece_score
    return total
