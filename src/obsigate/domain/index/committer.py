"""The write path: every change commits to SQLite at once and to tantivy in background batches (D1).

Tantivy has one writer per index and a commit (segment write + fsync + reader reload) costs 25-300 ms, so
writes never wait for it. Each write commits its SQLite transaction, together with journal rows (``ftq``)
for its full-text operations; interactive writes then queue those operations for the single background
*committer* thread and record the note in the :class:`~obsigate.domain.index.overlay.Overlay`, so the next
search sees it. The committer batches queued operations into one commit about every ``commit_interval``
seconds, then drops the journal rows and the overlay entries the commit covered.

Writes made inside :meth:`Committer.batch` (the initial build) skip the overlay, are grouped into few
SQLite transactions and are fed to the writer from the writing thread. After a crash, journal rows left
over are undone in tantivy and their notes marked stale, so the next incremental refresh re-indexes them.
This is separate from :mod:`obsigate.domain.index.vault_index` because it is the one part with threads and locks.

Locks, always taken in this order: ``_wlock`` (SQLite writes, generation counter, queue order) →
``_wrlock`` (the tantivy writer, not re-entrant) → ``_state`` (queue, overlay, searcher, thread signals).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import tantivy

from obsigate.domain.index.fulltext import FT_SCHEMA_VERSION, NoteDoc, doc_key, open_index, open_writer
from obsigate.domain.index.overlay import OVERLAY_COMMIT_AT, Key, Overlay, Pending
from obsigate.domain.index.sqlite_store import MetaStore, Stmt

__all__ = ["Change", "Committer", "Op"]

log = logging.getLogger(__name__)

BULK_COMMIT_INTERVAL = 5.0  # seconds between commits while batch() writes stream in


@dataclass(slots=True)
class Op:
    gen: int
    kind: str  # "upsert" | "delete" | "delete_vault"
    vault: str
    path: str | None = None
    doc: NoteDoc | None = None


@dataclass(slots=True)
class Change:
    """One logical write: SQL statements, then (after the SQLite commit) full-text ops and overlay updates."""

    sql: list[Stmt] = field(default_factory=list)
    ops: list[Op] = field(default_factory=list)
    overlay: list[tuple[str, str, NoteDoc | None, bool]] = field(default_factory=list)  # (vault, path, doc, tombstone)


@dataclass(slots=True)
class _Batch:
    changes: list[Change] = field(default_factory=list)
    started: float = 0.0


class Committer:
    """Owns the tantivy index, its writer and current searcher, the overlay and the committer thread.

    Opening recreates a missing, corrupt or old-format tantivy folder (every note then marked stale) and
    recovers from the journal. Raises :class:`~obsigate.domain.index.fulltext.IndexBusyError` when another process
    holds the writer lock.
    """

    def __init__(
        self,
        store: MetaStore,
        ft_path: Path,
        an: tantivy.TextAnalyzer,
        sch: tantivy.Schema,
        *,
        commit_interval: float,
        heap_mb: int,
        threads: int,
    ) -> None:
        self._store = store
        self._ft_path = ft_path
        self._an = an
        self._schema = sch
        self._commit_interval = commit_interval
        self.closed = False
        self._tls = threading.local()
        self._wlock = threading.RLock()  # SQLite writes, generation counter, op queue order
        self._state = threading.Condition(threading.Lock())  # overlay, op queue, searcher, committer signals
        self._wrlock = threading.Lock()  # the tantivy writer (one user at a time: it is not re-entrant)
        self._gen = 0  # last generation handed out (one per full-text operation), under _wlock
        self._applied_gen = 0  # last generation fed to the writer, under _wrlock
        self._committed_gen = 0  # last generation visible in the searcher
        self._ops: list[Op] = []  # interactive operations waiting for the committer, in generation order
        self._dirty_at: float | None = None  # when the first uncommitted change appeared
        self._bulk_dirty = False
        self._flush_requested = False
        self._overlay = Overlay()
        self.commit_error: BaseException | None = None
        self._failures = 0  # full-text commits that failed so far (a full disk...), under _state
        self.avg_body = 300.0  # mean body word count: the overlay's BM25 length estimate
        self._open(heap_mb, threads)
        self._recover()
        self.avg_body = store.avg_body(store.wconn) or self.avg_body
        self._thread = threading.Thread(target=self._commit_loop, name="obsigate-index-commit", daemon=True)
        self._thread.start()

    def _open(self, heap_mb: int, threads: int) -> None:
        reuse = self._store.meta("ft_schema") == FT_SCHEMA_VERSION
        index, fresh = open_index(self._ft_path, self._schema, self._an, reuse=reuse)
        if fresh:
            with self._wlock:
                self._store.reset_full_text(FT_SCHEMA_VERSION)
        self._writer = open_writer(index, self._ft_path, heap_mb, threads)
        self._index = index
        self._searcher = index.searcher()

    def _recover(self) -> None:
        """Undo full-text operations whose commit may not have happened (crash): re-index those notes."""
        rows = self._store.journal_rows()
        if not rows:
            return
        log.info("index: recovering %d uncommitted full-text operations", len(rows))
        with self._wlock, self._store.transaction() as c:
            for vault, path in rows:
                if path is None:
                    self._writer.delete_documents_by_term("vault", vault)
                else:
                    self._writer.delete_documents_by_term("key", doc_key(vault, path))
                    MetaStore.mark_stale(c, vault, path)
            self._writer.commit()
            self._index.reload()
            self._searcher = self._index.searcher()
            MetaStore.clear_journal(c)

    # ---------------------------------------------------------------------------------------- writes

    def in_batch(self) -> bool:
        return getattr(self._tls, "batch", None) is not None

    def prepare(self, doc: NoteDoc) -> int:
        """Get a note ready for :meth:`apply`; returns its body word count (estimated inside a batch)."""
        if self.in_batch():
            doc.tdoc = doc.to_tantivy(self._schema)
            return len(doc.values["body"][0]) // 6  # bulk: skip Python-side analysis, estimate from characters
        doc.analyze(self._an)
        return len(doc.tokens["body"])

    def is_overlaid(self, key: Key) -> bool:
        return key in self._overlay

    def apply(self, change: Change) -> None:
        """Run ``change`` now (own transaction) or buffer it in the calling thread's batch."""
        if self.closed:
            raise RuntimeError("index is closed")
        batch: _Batch | None = getattr(self._tls, "batch", None)
        if batch is not None:
            if not batch.changes:
                batch.started = time.monotonic()
            batch.changes.append(change)
            if len(batch.changes) >= 512 or time.monotonic() - batch.started > 0.5:
                self._flush_batch(batch)
            return
        self._commit_changes([change], interactive=True)

    def _commit_changes(self, changes: list[Change], *, interactive: bool) -> None:
        with self._wlock:
            first = self._gen
            try:
                with self._store.transaction() as c:
                    for ch in changes:
                        for op in ch.ops:
                            self._gen += 1
                            op.gen = self._gen
                            MetaStore.journal(c, op.gen, op.vault, op.path)
                        MetaStore.run(c, ch.sql)
            except BaseException:
                # rolled back (a full disk): its generations never reach the queue, so none may be handed out,
                # or flush() (and closing) would wait for a commit that can never come
                self._gen = first
                raise
            ops = [op for ch in changes for op in ch.ops]
            with self._state:
                if interactive:
                    self._ops.extend(ops)
                    if ops and self._dirty_at is None:
                        self._dirty_at = time.monotonic()
                    if len(self._overlay) >= OVERLAY_COMMIT_AT:
                        self._flush_requested = True  # keep the overlay small: commit now
                for ch in changes:
                    gen = ch.ops[-1].gen if ch.ops else self._gen
                    for vault, path, doc, tomb in ch.overlay:
                        self._overlay.put((vault, path), gen, doc, tomb, interactive)
                    for op in ch.ops:
                        if op.kind == "delete_vault":
                            self._overlay.drop_vault(op.vault, op.gen)
                self._state.notify_all()
            if not interactive and ops:
                # bulk: feed the writer from this thread. Handing thousands of documents to the committer thread
                # would make both threads fight for the GIL (measured: a 10k-note build 9.5 s → 15.5 s).
                with self._wrlock:
                    self._feed_locked([])
                    self._feed_locked(ops)
                with self._state:
                    self._bulk_dirty = True
                    if self._dirty_at is None:
                        self._dirty_at = time.monotonic()
                    self._state.notify_all()
        # back-pressure for a flood of interactive writes
        while True:
            with self._state:
                if len(self._ops) < 20_000 or self.closed:
                    break
                self._flush_requested = True
                self._state.notify_all()
                self._state.wait(0.5)

    def _feed_locked(self, ops: list[Op]) -> None:
        """Apply queued operations, then ``ops``, to the writer (caller holds ``_wrlock``).

        On failure the operations not applied go back to the front of the queue (the committer retries them).
        """
        if not ops:
            with self._state:
                ops, self._ops = self._ops, []
        w = self._writer
        for i, op in enumerate(ops):
            try:
                if op.kind == "delete_vault":
                    w.delete_documents_by_term("vault", op.vault)
                else:
                    assert op.path is not None
                    w.delete_documents_by_term("key", doc_key(op.vault, op.path))
                    if op.kind == "upsert" and op.doc is not None:
                        w.add_document(op.doc.tdoc if op.doc.tdoc is not None else op.doc.to_tantivy(self._schema))
            except Exception:
                log.exception("full-text update failed; will retry")
                with self._state:
                    self._ops[:0] = ops[i:]
                    if self._dirty_at is None:
                        self._dirty_at = time.monotonic()
                return
            self._applied_gen = op.gen

    def _flush_batch(self, batch: _Batch) -> None:
        changes, batch.changes = batch.changes, []
        if changes:
            self._commit_changes(changes, interactive=False)

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Buffer the calling thread's changes (see ``VaultIndex.batch``); nested blocks join the outer one."""
        if getattr(self._tls, "batch", None) is not None:
            yield
            return
        batch = self._tls.batch = _Batch()
        try:
            yield
        finally:
            self._tls.batch = None
            self._flush_batch(batch)

    # ------------------------------------------------------------------------------------ committer

    def _commit_loop(self) -> None:
        conn = self._store.connect()  # the committer's own connection (bookkeeping after each commit)
        while True:
            with self._state:
                while self._dirty_at is None and not self.closed:
                    self._state.wait()
                if self._dirty_at is None and self.closed:
                    return
                interval = self._commit_interval
                if self._bulk_dirty:
                    interval = max(interval, BULK_COMMIT_INTERVAL)
                assert self._dirty_at is not None  # the wait ends dirty or closed; closed and clean returned
                deadline = self._dirty_at + interval
                while (
                    not self.closed
                    and not self._flush_requested
                    and len(self._ops) < 5_000
                    and (wait := deadline - time.monotonic()) > 0
                ):
                    self._state.wait(wait)
                self._flush_requested = False
            try:
                with self._wrlock:
                    self._feed_locked([])
                    top = self._applied_gen
                    self._writer.commit()
                    self._index.reload()
                    searcher = self._index.searcher()
            except Exception as exc:  # keep the thread alive; searches keep using the overlay
                log.exception("full-text commit failed; retrying")
                with self._state:
                    self.commit_error = exc
                    self._failures += 1
                    self._state.notify_all()
                    closed = self.closed
                if closed:
                    log.error("index closing with uncommitted full-text changes (they are re-indexed on next open)")
                    return
                time.sleep(1.0)
                continue
            try:
                with self._wlock:
                    MetaStore.trim_journal(conn, top)
                self.avg_body = MetaStore.avg_body(conn) or self.avg_body
            except sqlite3.Error:
                log.exception("index bookkeeping after a full-text commit failed")
            with self._state:
                self._searcher = searcher
                self._committed_gen = top
                self.commit_error = None
                self._overlay.committed(top)
                if self._ops or self._applied_gen > top:
                    self._dirty_at = time.monotonic()
                else:
                    self._dirty_at = None
                    self._bulk_dirty = False
                self._state.notify_all()

    def snapshot(self, vaults: Sequence[str]) -> tuple[tantivy.Searcher, list[tuple[Key, Pending]], list[str]]:
        """What a search of ``vaults`` sees: the current searcher, overlay entries and deleted vaults."""
        with self._state:
            return self._searcher, *self._overlay.snapshot(vaults)

    def flush(self, timeout: float | None, *, until_failure: bool = False) -> bool:
        """Commit queued full-text changes now and wait for it. Returns False on timeout or when closed, and with
        ``until_failure`` as soon as a commit attempt made meanwhile failed (a full disk: retrying until the
        timeout would only delay closing; what was not committed is re-indexed at the next open)."""
        with self._wlock:
            target = self._gen
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._state:
            failures = self._failures
            while self._committed_gen < target:
                if self.closed and not self._thread.is_alive():
                    return False
                if until_failure and self._failures > failures:
                    return False
                self._flush_requested = True
                self._state.notify_all()
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._state.wait(0.05 if remaining is None else min(remaining, 0.05))
        return True

    def drain(self) -> None:
        """First step of closing: commit this thread's open batch and everything queued (up to 60 s, or until a
        commit attempt fails)."""
        batch = getattr(self._tls, "batch", None)
        if batch is not None:
            self._flush_batch(batch)
        if not self.flush(timeout=60, until_failure=True):
            log.warning("index: closing with full-text changes not committed (they are re-indexed at the next open)")

    def stop(self) -> None:
        """Last step of closing: refuse writes, end the committer thread and release the writer lock."""
        with self._state:
            self.closed = True
            self._state.notify_all()
        self._thread.join(timeout=60)
        try:
            self._writer.wait_merging_threads()
        except Exception:  # pragma: no cover - best effort
            log.exception("waiting for tantivy merges failed")
        del self._writer
