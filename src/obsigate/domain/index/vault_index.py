"""Persistent search and tag index: SQLite for metadata, tantivy for full text (decision: docs/decisions.md D1).

:class:`VaultIndex` is the one entry point; the parts behind it, each a module of this package:

* :mod:`~obsigate.domain.index.sqlite_store` — SQLite at ``db_path`` (normally ``<data_dir>/index.sqlite3``):
  file states, tags, links, diagnostics and the journal of full-text operations not yet committed.
* :mod:`~obsigate.domain.index.fulltext` — the tantivy index at ``db_path.with_suffix(".tantivy")``: fields,
  analyzer, query building.
* :mod:`~obsigate.domain.index.committer` — writes: SQLite at once, tantivy in background batches, crash recovery.
* :mod:`~obsigate.domain.index.overlay` — notes written since the last tantivy commit, searchable at once.
* :mod:`~obsigate.domain.index.snippets` — the highlighted excerpt of each hit.

Both stores are caches of the vault folders: a schema change, a missing or corrupt tantivy folder, or an
interrupted commit is repaired on open by wiping or marking rows stale (``file_states`` then reports them as
changed, so the next incremental refresh re-indexes them). A write is visible to the next search at once.
Only one process may open an index at a time (tantivy's writer lock): a second one gets
:class:`IndexBusyError`.

Query semantics (user text is terms, never syntax): the text is NFC-normalised and split on whitespace; each
piece is run through the index analyzer (tantivy ``simple`` tokenizer → remove tokens over 64 bytes →
lowercase → ASCII folding, so ``procédure`` = ``procedure`` = ``PROCEDURE``). A piece that yields one word is
a term, several words (``don't``, ``a-b``) a phrase, none (``*``, ``(``, ``"``) is dropped; all pieces must
match (AND). Each word of three characters or more also matches up to ``PREFIX_TERMS`` (8) longer words that
start with it (the most frequent ones in the index, scored at half weight), so ``kube`` finds ``kubernetes``;
a word that is itself frequent (over ``PREFIX_SKIP_DF`` (1000) notes and 2 % of them, e.g. ``the``) is not
expanded.
Ranking is BM25 over the fields, with boosts title 4, aliases 3, headings 2, props 1, body 1.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tantivy

from obsigate.domain.index import fulltext, narrow, overlay, snippets
from obsigate.domain.index import sqlite_store as index_store
from obsigate.domain.index.committer import Change, Committer, Op
from obsigate.domain.index.fulltext import IndexBusyError
from obsigate.domain.index.linkgraph import Backlink, LinkGraph, OutLink
from obsigate.domain.index.sqlite_store import MetaStore
from obsigate.domain.links.resolve import link_contexts
from obsigate.domain.vault import note_title

if TYPE_CHECKING:
    from obsigate.domain.markdown.note import ParsedNote

__all__ = ["Backlink", "FileRecord", "IndexBusyError", "OutLink", "SearchHit", "SearchPage", "TagCount", "VaultIndex"]


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One search result.

    Attributes:
        vault, path: where the note is (vault-relative POSIX path).
        title: file stem (``"projects/Plan.md"`` → ``"Plan"``).
        score: BM25 relevance, higher is better; only comparable within one result page.
        snippet: plain note text of about 30 words (≤ ~200 characters plus ``…``) around the best match, with
            matched words wrapped in ``<mark>``/``</mark>``. Not HTML-escaped: the only markup is ``<mark>``
            (literal ``<mark>`` in the note is rewritten ``‹mark›``); render it as text. Whitespace is collapsed.
        tags: the note's distinct tags (display casing), without ``#``.
    """

    vault: str
    path: str
    title: str
    score: float
    snippet: str
    tags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SearchPage:
    """A page of hits; ``total`` is the exact number of matching notes across the requested vaults."""

    hits: list[SearchHit]
    total: int


@dataclass(frozen=True, slots=True)
class TagCount:
    """A distinct tag (display casing = the most frequent spelling) and the number of notes carrying it.

    Nested parents count as in Obsidian's tag pane: a note with ``#a/b`` counts toward ``a/b`` and ``a``.
    """

    tag: str
    count: int


@dataclass(frozen=True, slots=True)
class FileRecord:
    """An indexed file: where it is, its stat values (bytes, ns since the epoch) and whether it is a note."""

    vault: str
    path: str
    size: int
    mtime_ns: int
    created_ns: int
    note: bool


class VaultIndex:
    """Search/tag/file-state index of every vault of a server (see the module docstring for the design).

    Thread-safe: any method may be called from any thread (the indexer writes from a worker thread while
    services search from a threadpool). Writes are serialised; searches and reads run concurrently (SQLite
    WAL, one read connection per thread; tantivy searchers are immutable snapshots).

    Args:
        db_path: SQLite file (created with its folder if missing); tantivy lives next to it in
            ``db_path.with_suffix(".tantivy")``.
        commit_interval: seconds the committer waits to group full-text operations into one commit.
        writer_heap_mb: tantivy indexing memory budget (split between its indexing threads).
        writer_threads: tantivy indexing threads (0 = one per core). One leaves a core to the Python side
            (reading, parsing, SQLite), which is the bottleneck of a build on small machines.

    Raises:
        IndexBusyError: another process has this index open.
        sqlite3.Error / OSError: the files cannot be created or opened.
    """

    def __init__(
        self,
        db_path: Path,
        *,
        commit_interval: float = 1.0,
        writer_heap_mb: int = 64,
        writer_threads: int = 1,
    ) -> None:
        self._store = MetaStore(Path(db_path))
        self._tls = threading.local()
        self._an = fulltext.analyzer()
        self._schema = fulltext.schema()
        try:
            self._committer = Committer(
                self._store,
                self._store.db_path.with_suffix(".tantivy"),
                self._an,
                self._schema,
                commit_interval=commit_interval,
                heap_mb=writer_heap_mb,
                threads=max(0, writer_threads),
            )
            self._graph = LinkGraph(self._store)
        except BaseException:
            self._store.close()
            raise

    # ---------------------------------------------------------------------------------------- writes

    def batch(self) -> AbstractContextManager[None]:
        """Group the calling thread's writes for bulk indexing.

        Inside the block, writes from this thread are buffered and committed to SQLite every 512 changes or
        0.5 s (and at exit), and their full-text changes become searchable at the next full-text commit
        (≈ ``commit_interval``) instead of at once. Reads in the block may not see buffered writes. Other
        threads are unaffected. Nested blocks join the outer one.
        """
        return self._batched()

    @contextlib.contextmanager
    def _batched(self) -> Iterator[None]:
        # In a batch, the links that files appearing or vanishing may re-target are re-resolved once at the
        # end (one query per vault) instead of once per file: 100k separate lookups during a first build.
        if getattr(self._tls, "file_set_changes", None) is not None:
            with self._committer.batch():
                yield
            return
        changes: dict[str, set[str]] = {}
        self._tls.file_set_changes = changes
        try:
            with self._committer.batch():
                try:
                    yield
                finally:
                    self._tls.file_set_changes = None
                    for vault, paths in changes.items():
                        self._committer.apply(Change([self._reresolve(vault, paths)]))
        finally:
            self._tls.file_set_changes = None
            for vault in self.vault_names():  # the batch is committed: cached link answers may be stale
                self._graph.invalidate(vault)

    def _file_set_changed(self, ch: Change, vault: str, path: str) -> None:
        """Queue the re-resolution of links ``path`` appearing or vanishing may re-target (now, or at batch end)."""
        pending = getattr(self._tls, "file_set_changes", None)
        if pending is not None:
            pending.setdefault(vault, set()).add(path)
        else:
            ch.sql.append(self._reresolve(vault, [path]))

    def upsert_note(
        self,
        vault: str,
        path: str,
        text: str,
        parsed: ParsedNote,
        *,
        size: int,
        mtime_ns: int,
        created_ns: int = 0,
    ) -> None:
        """Index (or re-index) a note: file state, tags, links, full text; clears its diagnostics.

        Args:
            vault, path: vault name and vault-relative NFC path of a ``.md`` file.
            text: the decoded note (unused beyond ``parsed``; kept for callers' symmetry).
            parsed: ``obsigate.domain.markdown.note.parse_note(text)``; uses ``body``, ``frontmatter``, ``tags``,
                ``aliases``, ``headings`` and ``links``.
            size, mtime_ns: the file's stat values, returned later by :meth:`file_states`.
            created_ns: the file's creation time (``obsigate.domain.vault.created_ns``); 0 = use ``mtime_ns``.
        """
        del text
        rows, distinct, keys = index_store.tag_rows(parsed.tags)
        doc = fulltext.note_doc(vault, path, parsed, keys, distinct)
        ntok = self._committer.prepare(doc)
        ch = Change(index_store.clear_note_rows(vault, path))
        ch.sql.append(index_store.put_file(vault, path, size, mtime_ns, note=True, ntok=ntok, created_ns=created_ns))
        if rows:
            ch.sql.append(index_store.put_tags(vault, path, rows))
        if parsed.aliases:
            ch.sql.append(index_store.put_aliases(vault, path, parsed.aliases))
        new_file = self._graph.touch(vault, path, exists=True)
        if parsed.links:
            resolved = self._graph.resolve_all(vault, path, (lk.target for lk in parsed.links))
            ch.sql.append(index_store.put_links(vault, path, parsed.links, link_contexts(parsed), resolved))
        if new_file:
            self._file_set_changed(ch, vault, path)
        ch.ops.append(Op(0, "upsert", vault, path, doc))
        ch.overlay.append((vault, path, doc, False))
        self._committer.apply(ch)
        self._graph.invalidate(vault)

    def upsert_file(self, vault: str, path: str, *, size: int, mtime_ns: int, created_ns: int = 0) -> None:
        """Record a non-searchable file (attachment, or a note that could not be decoded).

        Removes any previous note data for the path (text, tags, links, diagnostics).
        """
        was_note = self._store.is_note(vault, path)
        ch = Change(index_store.clear_note_rows(vault, path))
        ch.sql.append(index_store.put_file(vault, path, size, mtime_ns, note=False, created_ns=created_ns))
        if self._graph.touch(vault, path, exists=True):
            self._file_set_changed(ch, vault, path)
        if was_note or self._committer.is_overlaid((vault, path)):
            ch.ops.append(Op(0, "delete", vault, path))
            ch.overlay.append((vault, path, None, True))
        self._committer.apply(ch)
        self._graph.invalidate(vault)

    def delete(self, vault: str, path: str) -> None:
        """Forget one file (note or not) and its tags, links, text and diagnostics. Unknown paths are a no-op."""
        ch = Change(index_store.clear_note_rows(vault, path))
        ch.sql.append(index_store.delete_file(vault, path))
        if self._graph.touch(vault, path, exists=False):
            self._file_set_changed(ch, vault, path)
        ch.ops.append(Op(0, "delete", vault, path))
        ch.overlay.append((vault, path, None, True))
        self._committer.apply(ch)
        self._graph.invalidate(vault)

    def _reresolve(self, vault: str, paths: Collection[str]) -> index_store.Stmt:
        """A statement re-resolving the stored links that ``paths`` appearing or disappearing may re-target."""
        return (lambda c: self._graph.on_files_changed(c, vault, paths), None, False)

    def delete_vault(self, vault: str) -> None:
        """Forget every file of ``vault`` (e.g. a vault removed from the configuration)."""
        ch = Change(index_store.delete_vault(vault))
        ch.ops.append(Op(0, "delete_vault", vault))
        self._committer.apply(ch)
        self._graph.drop_vault(vault)

    def record_diagnostic(self, vault: str, path: str, code: str, message: str) -> None:
        """Attach a problem to a file (``invalid_utf8``, ``invalid_frontmatter``...). One row per code.

        Diagnostics are cleared when the file is re-indexed (upsert) or deleted.
        """
        self._committer.apply(Change([index_store.put_diagnostic(vault, path, code, message, time.time_ns())]))

    def flush(self, timeout: float | None = 30.0) -> bool:
        """Commit queued full-text changes now and wait for it. Returns False on timeout or closed index."""
        return self._committer.flush(timeout)

    def close(self) -> None:
        """Commit pending full-text changes, stop the committer, release the writer lock, close SQLite.

        Idempotent. Any later call other than ``close`` raises ``RuntimeError``.
        """
        if self._store.closed:
            return
        self._committer.drain()
        self._store.closed = True  # reads are refused from here on, writes by stop()
        self._committer.stop()
        self._store.close()

    # ----------------------------------------------------------------------------------------- reads

    @property
    def commit_error(self) -> str | None:
        """The last full-text commit failure (cleared by the next successful commit), or ``None``.

        While it is set, new writes stay searchable through the overlay (up to its cap) and are retried.
        """
        err = self._committer.commit_error
        return None if err is None else f"{type(err).__name__}: {err}"

    def file_states(self, vault: str, *, under: str | None = None) -> dict[str, tuple[int, int]]:
        """``{path: (size, mtime_ns)}`` of every indexed file of ``vault`` (or only below folder ``under``).

        A note whose full-text state is unknown (after a crash or an index format change) reports size ``-1``,
        so an incremental refresh re-indexes it.
        """
        return self._store.file_states(vault, under)

    def aliases(self, vault: str) -> dict[str, list[str]]:
        """``{path: [alias, …]}``: the frontmatter ``aliases`` of the notes of ``vault`` that have some (as indexed:
        redacted), each note's in its own order. Notes without aliases are absent."""
        return self._store.aliases(vault)

    def note_count(self, vault: str | None = None) -> int:
        """Number of searchable notes, in one vault or all."""
        return self._store.count("files", vault, notes_only=True)

    def file_count(self, vault: str | None = None) -> int:
        """Number of indexed files (notes, attachments, undecodable notes), in one vault or all."""
        return self._store.count("files", vault)

    def vault_names(self) -> list[str]:
        """Names of the vaults that have at least one indexed file, sorted."""
        return self._store.vault_names()

    def diagnostics(self, vault: str | None = None, limit: int = 100) -> list[dict]:
        """Recorded problems, ordered by vault, path, code: ``[{"vault", "path", "code", "message", "at_ns"}]``."""
        return self._store.diagnostics(vault, limit)

    def diagnostic_count(self, vault: str | None = None) -> int:
        """Number of recorded diagnostics, in one vault or all."""
        return self._store.count("diagnostics", vault)

    def list_tags(self, *, vaults: Sequence[str]) -> list[TagCount]:
        """Distinct tags of the notes in ``vaults`` with note counts, by count descending then tag.

        Tags are case-insensitive (``#Work`` = ``#work``); the display casing is the spelling used most often
        (ties: the one sorting first). ``a/b`` also counts toward ``a`` (once per note).
        """
        vs = list(dict.fromkeys(vaults))
        if not vs:
            return []
        return [TagCount(tag, count) for tag, count in self._store.tag_counts(vs)]

    def file_records(self, vault: str, *, under: str | None = None) -> list[FileRecord]:
        """Every indexed file of ``vault`` (or below folder ``under``), sorted by path."""
        return [FileRecord(vault, *row) for row in self._store.file_records(vault, under)]

    def recent(
        self, vaults: Sequence[str], *, mode: str = "modified", limit: int = 20, offset: int = 0
    ) -> tuple[list[FileRecord], int]:
        """Files of ``vaults`` newest first by ``mode`` (``"modified"`` or ``"created"``), ties by vault, path.

        Returns ``(page, total)`` with ``total`` the number of indexed files in those vaults.

        Raises:
            ValueError: unknown ``mode`` or negative ``limit``/``offset``.
        """
        if mode not in ("modified", "created") or limit < 0 or offset < 0:
            raise ValueError("mode must be 'modified' or 'created'; limit and offset >= 0")
        vs = list(dict.fromkeys(vaults))
        if not vs:
            return [], 0
        rows, total = self._store.recent(vs, "mtime_ns" if mode == "modified" else "created_ns", limit, offset)
        return [FileRecord(*row) for row in rows], total

    def outgoing_links(self, vault: str, path: str) -> list[OutLink]:
        """The links of note ``path`` in document order, each with the file it resolves to now (or ``None``).

        A same-note link (``[[#Heading]]``) resolves to ``path`` itself.
        """
        return self._graph.outgoing(vault, path)

    def backlinks(self, vault: str, path: str, *, limit: int = 50, offset: int = 0) -> tuple[list[Backlink], int]:
        """Notes linking to file ``path`` (linked mentions, obsidian.md §11), by source path.

        Every link form counts: wikilinks, embeds, markdown links and quoted frontmatter links, resolved as
        Obsidian resolves them *now* (a new root-level ``Note.md`` takes over bare ``[[Note]]`` links at once).

        Returns ``(page, total)``: ``total`` = number of linking notes; each ``Backlink`` lists that note's
        links to ``path`` with line and context.
        """
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must be >= 0")
        return self._graph.backlinks(vault, path, limit, offset)

    def backlink_sources(self, vault: str, path: str) -> set[str]:
        """Paths of every note linking to file ``path`` (itself excluded)."""
        return self._graph.backlink_sources(vault, path)

    def notes_linking_names(self, vault: str, names: Iterable[str]) -> set[str]:
        """Notes of ``vault`` with a link whose lower-cased last segment (``links.link_name``) is in ``names``:
        every note whose links a file appearing, disappearing or moving under those names may affect."""
        return self._graph.sources_with_names(vault, names)

    def resolve_link(self, vault: str, linkpath: str, source: str) -> str | None:
        """The indexed file that ``linkpath`` (no ``#subpath``) written in note ``source`` points to, or ``None``."""
        return self._graph.resolve(vault, linkpath, source)

    def has_file(self, vault: str, path: str) -> bool:
        """True if ``path`` is an indexed file of ``vault``."""
        return self._graph.exists(vault, path)

    def link_edges(self, vault: str) -> list[tuple[str, str | None, str, int]]:
        """All links of ``vault`` as ``(source, resolved target or None, target, count)``; see ``LinkGraph.edges``."""
        return self._graph.edges(vault)

    def graph_version(self, vault: str) -> str:
        """Changes with every indexed change of ``vault`` (files, tags, links); unique to this process."""
        return self._graph.version(vault)

    def notes_with_tag(self, vault: str, tag: str) -> set[str]:
        """Paths of the notes of ``vault`` carrying ``tag`` or a nested one (case-insensitive, ``#`` optional)."""
        return self._store.notes_with_tag(vault, index_store.tag_key(tag))

    def note_texts(
        self, vault: str, paths: Collection[str] | None = None, *, where: narrow.Spec | None = None
    ) -> Iterator[tuple[str, str, tuple[str, ...]]]:
        """``(path, body, tags)`` of the searchable notes of ``vault`` (only ``paths`` when given), in no set order.

        ``body`` is the indexed text after the frontmatter: redacted and NFC, as :meth:`search` sees it (writes
        not yet committed to tantivy included); ``tags`` its distinct tags (display casing, no ``#``). Reading it costs about 20 µs a note, against a file read plus
        redaction from disk; a caller scanning many notes should still bound its time. Generated lazily.
        ``where`` (a :mod:`~obsigate.domain.index.narrow` spec) leaves out committed notes that cannot match it
        (notes not yet committed are all given: the caller checks each note exactly anyway).
        """
        if self._store.closed:
            raise RuntimeError("index is closed")
        searcher, pending, dead = self._committer.snapshot([vault])
        wanted = None if paths is None else set(paths)
        hidden = []
        for (_, path), entry in pending:
            hidden.append(fulltext.doc_key(vault, path))
            if entry.doc is not None and (wanted is None or path in wanted):
                yield path, entry.doc.values["body"][0], entry.doc.tags
        if dead or (wanted is not None and not wanted):
            return
        narrowed = None if where is None else narrow.to_query(self._schema, self._an, vault, where)
        base = tantivy.Query.all_query() if narrowed is None else narrowed
        q = fulltext.filtered_query(self._schema, base, [vault], "", hidden, [])
        if wanted is not None and len(wanted) <= 1000:  # few notes: look them up by key instead of scanning
            keys = [fulltext.doc_key(vault, p) for p in wanted]
            q = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, q), (tantivy.Occur.Must, tantivy.Query.term_set_query(self._schema, "key", keys))]
            )
        res = searcher.search(q, max(1, searcher.num_docs))
        skip = len(vault) + 1
        for _, addr in res.hits:
            doc = searcher.doc(addr)
            path = (doc.get_first("key") or "")[skip:]  # every document has its key
            if wanted is None or path in wanted:
                yield path, doc.get_first("body") or "", tuple(doc.get_all("tagd"))

    # ---------------------------------------------------------------------------------------- search

    def search(
        self,
        query: str,
        *,
        vaults: Sequence[str],
        tag: str | None = None,
        limit: int = 20,
        offset: int = 0,
    ) -> SearchPage:
        """Notes of ``vaults`` matching every word of ``query`` (see the module docstring), best first.

        Args:
            query: user text; never interpreted as query syntax. Empty/blank/punctuation-only → empty page.
            vaults: vault names to search; empty → empty page.
            tag: only notes carrying this tag or a nested one (``a`` matches ``a`` and ``a/b``, not ``ab``);
                case-insensitive, leading ``#`` optional; blank = no filter.
            limit, offset: page window over the ranked results.

        Returns:
            ``SearchPage(hits, total)`` with ``total`` the exact number of matching notes.

        Raises:
            ValueError: negative ``limit`` or ``offset``.
            RuntimeError: the index is closed.
        """
        if limit < 0 or offset < 0:
            raise ValueError("limit and offset must be >= 0")
        if self._store.closed:
            raise RuntimeError("index is closed")
        vs = list(dict.fromkeys(vaults))
        pieces = fulltext.query_pieces(self._an, query) if isinstance(query, str) else None
        if not vs or not pieces:
            return SearchPage([], 0)
        tag_key = index_store.tag_key(tag) if tag else ""
        searcher, pending, dead = self._committer.snapshot(vs)
        expansions = [fulltext.expand(searcher, p) for p in pieces]
        user_q = fulltext.user_query(self._schema, pieces, expansions)
        hidden = [fulltext.doc_key(v, p) for (v, p), _ in pending]
        q = fulltext.filtered_query(self._schema, user_q, vs, tag_key, hidden, dead)
        want = offset + limit
        res = searcher.search(q, max(want, 1), count=True)
        scored: list[tuple[float, int, Any]] = [(s, 0, addr) for s, addr in res.hits]
        extra = overlay.matches(pending, tag_key, pieces, expansions, searcher, self._committer.avg_body)
        scored += [(s, 1, d) for s, d in extra]
        scored.sort(key=lambda t: -t[0])  # stable: tantivy's order kept among equal scores
        hits: list[SearchHit] = []
        gen = None
        for score, from_overlay, obj in scored[offset:want]:
            if from_overlay:
                snippet = snippets.overlay_snippet(self._an, obj.values["body"][0], pieces)
                hits.append(SearchHit(obj.vault, obj.path, note_title(obj.path), score, snippet, obj.tags))
                continue
            if gen is None:
                gen = snippets.generator(searcher, user_q, self._schema)
            doc = searcher.doc(obj)
            vault, _, path = (doc.get_first("key") or "").partition(":")  # every document has its key
            snippet = snippets.committed_snippet(gen, doc, doc.get_first("body") or "")
            hits.append(SearchHit(vault, path, note_title(path), float(score), snippet, tuple(doc.get_all("tagd"))))
        return SearchPage(hits, res.count + len(extra))  # type: ignore[attr-defined]  # the stub lacks .count
