"""Persistent search and tag index: SQLite for metadata, tantivy for full text (decision: docs/decisions.md).

Storage (both under the caller's data dir; ``db_path`` is normally ``<data_dir>/index.sqlite3``):

* ``db_path`` — SQLite (WAL): ``files`` (path, size, mtime_ns, kind), ``tags`` (per note, nested parents
  expanded), ``links``, ``diagnostics``, ``ftq`` (full-text operations not yet committed to tantivy) and
  ``meta`` (schema versions).
* ``db_path.with_suffix(".tantivy")`` — the tantivy index: per note ``title`` (file stem), ``aliases``,
  ``headings``, ``props`` (frontmatter keys and values as text), ``body`` (stored, compressed: the only copy
  of note text, used for snippets) and raw ``key``/``vault``/``tags`` fields for filtering and deletes.

Both are caches of the vault folders: a schema change, a missing or corrupt tantivy folder, or an interrupted
commit is repaired on open by wiping or marking rows stale (``file_states`` then reports them as changed, so
the next incremental refresh re-indexes them).

Writes and visibility. Tantivy has one writer per index and a commit (segment write + fsync + reader reload)
costs 25-300 ms, so writes never wait for it: each write commits its SQLite transaction, queues the full-text
operation for a single background *committer* thread, and records the note in an in-memory **overlay**
(analyzed with the same tantivy analyzer). Searches exclude the committed versions of overlaid notes and
match/score the overlay notes in Python, so a write is visible to the next search at once; the committer
batches queued operations into one commit about every ``commit_interval`` seconds and then drops the overlay
entries it covered. Bulk writes made inside :meth:`VaultIndex.batch` skip the overlay and are grouped into
few SQLite transactions (the initial build). Only one process may open an index at a time (tantivy's writer
lock): a second one gets :class:`IndexBusyError`.

Query semantics (user text is terms, never syntax): the text is NFC-normalised and split on whitespace; each
piece is run through the index analyzer (tantivy ``simple`` tokenizer → remove tokens over 64 bytes →
lowercase → ASCII folding, so ``procédure`` = ``procedure`` = ``PROCEDURE``). A piece that yields one word is
a term, several words (``don't``, ``a-b``) a phrase, none (``*``, ``(``, ``"``) is dropped; all pieces must
match (AND). Each word of three characters or more also matches up to :data:`PREFIX_TERMS` longer words that
start with it (the most frequent ones in the index, scored at half weight), so ``kube`` finds ``kubernetes``;
a word that is itself frequent (over :data:`PREFIX_SKIP_DF` notes and 2 % of them, e.g. ``the``) is not
expanded.
Ranking is BM25 over the fields, with boosts title 4, aliases 3, headings 2, props 1, body 1.
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import math
import re
import shutil
import sqlite3
import threading
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tantivy

if TYPE_CHECKING:
    from obsigate.domain.markdown import ParsedNote

__all__ = ["IndexBusyError", "SearchHit", "SearchPage", "TagCount", "VaultIndex"]

log = logging.getLogger(__name__)

SCHEMA_VERSION = "2"  # SQLite tables
FT_SCHEMA_VERSION = "1"  # tantivy fields / analyzer
FIELD_BOOSTS: dict[str, float] = {"title": 4.0, "aliases": 3.0, "headings": 2.0, "props": 1.0, "body": 1.0}
PREFIX_TERMS = 8  # longer words a query word may also match (by document frequency)
PREFIX_MIN_CHARS = 3
PREFIX_WEIGHT = 0.5
PREFIX_SKIP_DF = 1000  # no expansion for a word already in more than this many notes (and > 2 % of them)
SNIPPET_CHARS = 200  # ≈ 30 words
SNIPPET_WINDOW = 800  # characters of the body tried first for the snippet
MAX_QUERY_PIECES = 16
BULK_COMMIT_INTERVAL = 5.0  # seconds between commits while batch() writes stream in
OVERLAY_COMMIT_AT = 64  # overlay size that triggers an immediate commit
OVERLAY_MAX_DOCS = 256  # beyond this, a write becomes visible at the next commit instead of at once
_GAP = "\x00"  # separates values of a multi-valued field in overlay token lists (no phrase across values)
_AVG_LEN = {"title": 3.0, "aliases": 3.0, "headings": 12.0, "props": 10.0}  # overlay BM25 estimates


class IndexBusyError(RuntimeError):
    """Another process (or another open :class:`VaultIndex`) holds the full-text index writer lock."""


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


# ------------------------------------------------------------------------------------------- helpers


def _analyzer() -> tantivy.TextAnalyzer:
    return (
        tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
        .filter(tantivy.Filter.remove_long(64))
        .filter(tantivy.Filter.lowercase())
        .filter(tantivy.Filter.ascii_fold())
        .build()
    )


def _schema() -> tantivy.Schema:
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("key", stored=True, tokenizer_name="raw")
    sb.add_text_field("vault", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("tags", tokenizer_name="raw", index_option="basic")
    sb.add_text_field("tagd", stored=True, tokenizer_name="raw", index_option="basic")
    for name in FIELD_BOOSTS:
        sb.add_text_field(name, stored=(name == "body"), tokenizer_name="fold")
    return sb.build()


def _key(vault: str, path: str) -> str:
    return f"{vault}:{path}"  # vault names never contain ':'


def _title(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name[:-3] if name.lower().endswith(".md") else name


def _tag_key(tag: str) -> str:
    return "/".join(p for p in tag.strip().lstrip("#").lower().split("/") if p)


def _tag_rows(tags: Sequence[str]) -> tuple[list[tuple[str, str, int]], tuple[str, ...], list[str]]:
    """From tag occurrences → (rows (key, display, n) incl. parents, distinct display tags, keys incl. parents).

    ``key`` is the lower-cased tag; ``display`` its most frequent spelling in the note (ties: first seen).
    """
    per_key: dict[str, dict[str, int]] = {}
    own: dict[str, dict[str, int]] = {}
    for raw, n in Counter(tags).items():  # distinct spellings, first-seen order
        t = raw.strip().lstrip("#").strip("/")
        if "//" in t:
            t = "/".join(p for p in t.split("/") if p)
        if not t:
            continue
        low = t.lower()
        d = own.setdefault(low, {})
        d[t] = d.get(t, 0) + n
        i = t.find("/")
        while True:
            part = t if i < 0 else t[:i]
            d = per_key.setdefault(part.lower(), {})
            d[part] = d.get(part, 0) + n
            if i < 0:
                break
            i = t.find("/", i + 1)
    rows = []
    for k, d in per_key.items():
        if len(d) == 1:
            [(disp, n)] = d.items()
            rows.append((k, disp, n))
        else:
            rows.append((k, max(d, key=d.__getitem__), sum(d.values())))
    distinct = tuple(next(iter(d)) if len(d) == 1 else max(d, key=d.__getitem__) for d in own.values())
    return rows, distinct, list(per_key)


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


def _nfc(s: str) -> str:
    return s if s.isascii() else unicodedata.normalize("NFC", s)


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


def _bm25(tf: float, df: int, n_docs: int, dl: float, avgdl: float) -> float:
    idf = math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))
    return idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * dl / max(avgdl, 1.0)))


def _count_phrase(tokens: list[str], words: tuple[str, ...]) -> int:
    n, k, first = 0, len(words), words[0]
    for i, t in enumerate(tokens):
        if t == first and tuple(tokens[i : i + k]) == words:
            n += 1
    return n


@dataclass(slots=True)
class _Doc:
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

    def to_tantivy(self, schema: tantivy.Schema) -> tantivy.Document:
        fields: dict[str, Any] = {"key": _key(self.vault, self.path), "vault": self.vault}
        if self.tag_keys:
            fields["tags"] = self.tag_keys
            fields["tagd"] = list(self.tags)
        for name in FIELD_BOOSTS:
            if self.values[name]:
                fields[name] = self.values[name]
        return tantivy.Document.from_dict(fields, schema)


@dataclass(slots=True)
class _Op:
    gen: int
    kind: str  # "upsert" | "delete" | "delete_vault"
    vault: str
    path: str | None = None
    doc: _Doc | None = None


@dataclass(slots=True)
class _Change:
    """One logical write: SQL statements, then (after the SQLite commit) full-text ops and overlay updates."""

    sql: list[tuple[str, Any, bool]] = field(default_factory=list)  # (statement, params, many)
    ops: list[_Op] = field(default_factory=list)
    overlay: list[tuple[str, str, _Doc | None, bool]] = field(default_factory=list)  # (vault, path, doc, tombstone)

    def exec(self, sql: str, params: Any = (), many: bool = False) -> None:
        self.sql.append((sql, params, many))


@dataclass(slots=True)
class _Batch:
    changes: list[_Change] = field(default_factory=list)
    started: float = 0.0


@dataclass(slots=True)
class _Pending:
    gen: int
    doc: _Doc | None  # None = tombstone (deleted, or committed version hidden)


_DDL = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files(
    vault TEXT NOT NULL, path TEXT NOT NULL,
    size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    kind INTEGER NOT NULL,              -- 1 searchable note, 0 other file (attachment, undecodable note)
    ntok INTEGER NOT NULL DEFAULT 0,    -- body word count (BM25 length estimate for the overlay)
    PRIMARY KEY (vault, path)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tags(
    vault TEXT NOT NULL, path TEXT NOT NULL, key TEXT NOT NULL, display TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (vault, path, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS links(
    vault TEXT NOT NULL, path TEXT NOT NULL, seq INTEGER NOT NULL, target TEXT NOT NULL, subpath TEXT,
    display TEXT, kind TEXT, embed INTEGER NOT NULL, line INTEGER, key TEXT,
    PRIMARY KEY (vault, path, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS diagnostics(
    vault TEXT NOT NULL, path TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL, at_ns INTEGER NOT NULL,
    PRIMARY KEY (vault, path, code)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ftq(seq INTEGER PRIMARY KEY, vault TEXT NOT NULL, path TEXT);
"""


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
        self._db_path = Path(db_path)
        self._db_path.parent.mkdir(parents=True, exist_ok=True)
        self._ft_path = self._db_path.with_suffix(".tantivy")
        self._commit_interval = commit_interval
        self._writer_threads = max(0, writer_threads)
        self._closed = False
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        self._tls = threading.local()
        self._wlock = threading.RLock()  # SQLite writes, generation counter, op queue order
        self._state = threading.Condition(threading.Lock())  # overlay, op queue, searcher, committer signals
        self._wconn = self._connect()
        self._wconn.execute("PRAGMA cache_size=-16000")  # 16 MB for the writer; readers keep the 2 MB default
        self._wrlock = threading.Lock()  # the tantivy writer (one user at a time: it is not re-entrant)
        self._gen = 0  # last generation handed out (one per full-text operation), under _wlock
        self._applied_gen = 0  # last generation fed to the writer, under _wrlock
        self._committed_gen = 0  # last generation visible in the searcher
        self._ops: list[_Op] = []  # interactive operations waiting for the committer, in generation order
        self._dirty_at: float | None = None  # when the first uncommitted change appeared
        self._bulk_dirty = False
        self._flush_requested = False
        self._pending: dict[tuple[str, str], _Pending] = {}
        self._dead_vaults: dict[str, int] = {}  # vault → gen of a delete_vault not yet committed
        self._commit_error: BaseException | None = None
        self._avg_body = 300.0
        self._an = _analyzer()
        self._schema = _schema()
        try:
            self._init_sql()
            self._open_ft(writer_heap_mb)
            self._recover()
            self._refresh_avg()
        except BaseException:
            for conn in self._conns:
                conn.close()
            raise
        self._committer = threading.Thread(target=self._commit_loop, name="obsigate-index-commit", daemon=True)
        self._committer.start()

    # --------------------------------------------------------------------------------------- opening

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self._db_path, isolation_level=None, check_same_thread=False, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=OFF")
        with self._conns_lock:
            self._conns.append(conn)
        return conn

    def _rconn(self) -> sqlite3.Connection:
        if self._closed:
            raise RuntimeError("index is closed")
        conn = getattr(self._tls, "conn", None)
        if conn is None:
            conn = self._tls.conn = self._connect()
        return conn

    def _meta(self, key: str) -> str | None:
        row = self._wconn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def _init_sql(self) -> None:
        c = self._wconn
        has_meta = c.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
        if has_meta and self._meta("schema") != SCHEMA_VERSION:
            log.warning("index schema changed; dropping %s tables (they are rebuilt from the vaults)", self._db_path)
            for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                c.execute(f'DROP TABLE IF EXISTS "{name}"')
        c.executescript(_DDL)
        c.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))

    def _open_ft(self, heap_mb: int) -> None:
        path = self._ft_path
        fresh = self._meta("ft_schema") != FT_SCHEMA_VERSION or not path.is_dir() or not tantivy.Index.exists(str(path))
        index = None
        if not fresh:
            try:
                index = tantivy.Index(self._schema, path=str(path), reuse=True)
            except Exception as exc:  # corrupt or incompatible: rebuilt from the vaults
                log.warning("full-text index at %s unreadable (%s); recreating it", path, exc)
                fresh = True
        if fresh:
            shutil.rmtree(path, ignore_errors=True)
            path.mkdir(parents=True)
            index = tantivy.Index(self._schema, path=str(path), reuse=False)
            with self._wlock:
                self._wconn.execute("BEGIN")
                self._wconn.execute("UPDATE files SET size = -1 WHERE kind = 1")  # re-index every note
                self._wconn.execute("DELETE FROM ftq")
                self._wconn.execute("INSERT OR REPLACE INTO meta VALUES ('ft_schema', ?)", (FT_SCHEMA_VERSION,))
                self._wconn.execute("COMMIT")
        assert index is not None
        index.register_tokenizer("fold", self._an)
        index.config_reader("Manual", 0)
        try:
            self._writer = index.writer(max(heap_mb, 16) * 1_000_000, self._writer_threads)
        except ValueError as exc:
            if "Lock" in str(exc):
                raise IndexBusyError(
                    f"the search index {path} is in use by another process; stop it first"
                ) from exc
            raise
        self._index = index
        self._searcher = index.searcher()

    def _recover(self) -> None:
        """Undo full-text operations whose commit may not have happened (crash): re-index those notes."""
        rows = self._wconn.execute("SELECT vault, path FROM ftq").fetchall()
        if not rows:
            return
        log.info("index: recovering %d uncommitted full-text operations", len(rows))
        with self._wlock:
            self._wconn.execute("BEGIN")
            for vault, path in rows:
                if path is None:
                    self._writer.delete_documents_by_term("vault", vault)
                else:
                    self._writer.delete_documents_by_term("key", _key(vault, path))
                    self._wconn.execute(
                        "UPDATE files SET size = -1 WHERE vault = ? AND path = ? AND kind = 1", (vault, path)
                    )
            self._writer.commit()
            self._index.reload()
            self._searcher = self._index.searcher()
            self._wconn.execute("DELETE FROM ftq")
            self._wconn.execute("COMMIT")

    def _refresh_avg(self) -> None:
        row = self._wconn.execute("SELECT avg(ntok) FROM files WHERE kind = 1").fetchone()
        if row and row[0]:
            self._avg_body = float(row[0])

    # ---------------------------------------------------------------------------------------- writes

    def _apply(self, change: _Change) -> None:
        """Run ``change`` now (own transaction) or buffer it in the calling thread's batch."""
        if self._closed:
            raise RuntimeError("index is closed")
        batch: _Batch | None = getattr(self._tls, "batch", None)
        if batch is not None:
            if not batch.changes:
                batch.started = time.monotonic()
            batch.changes.append(change)
            if len(batch.changes) >= 512 or time.monotonic() - batch.started > 0.5:
                self._flush_batch(batch)
            return
        self._commit_changes([change], overlay=True)

    def _commit_changes(self, changes: list[_Change], *, overlay: bool) -> None:
        c = self._wconn
        with self._wlock:
            c.execute("BEGIN")
            try:
                for ch in changes:
                    for op in ch.ops:
                        self._gen += 1
                        op.gen = self._gen
                        c.execute("INSERT INTO ftq(seq, vault, path) VALUES (?, ?, ?)", (op.gen, op.vault, op.path))
                    for sql, params, many in ch.sql:
                        (c.executemany if many else c.execute)(sql, params)
                c.execute("COMMIT")
            except BaseException:
                c.execute("ROLLBACK")
                raise
            ops = [op for ch in changes for op in ch.ops]
            with self._state:
                if overlay:
                    self._ops.extend(ops)
                    if ops and self._dirty_at is None:
                        self._dirty_at = time.monotonic()
                    if len(self._pending) >= OVERLAY_COMMIT_AT:
                        self._flush_requested = True  # keep the overlay small: commit now
                for ch in changes:
                    gen = ch.ops[-1].gen if ch.ops else self._gen
                    for vault, path, doc, tomb in ch.overlay:
                        k = (vault, path)
                        if tomb:
                            if doc is None and len(self._pending) < OVERLAY_MAX_DOCS * 40:
                                self._pending[k] = _Pending(gen, None)
                            else:
                                self._pending.pop(k, None)
                        elif overlay and doc is not None and len(self._pending) < OVERLAY_MAX_DOCS:
                            self._pending[k] = _Pending(gen, doc)
                        else:
                            self._pending.pop(k, None)
                    for op in ch.ops:
                        if op.kind == "delete_vault":
                            self._dead_vaults[op.vault] = op.gen
                            for k in [k for k in self._pending if k[0] == op.vault]:
                                del self._pending[k]
                self._state.notify_all()
            if not overlay and ops:
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
                if len(self._ops) < 20_000 or self._closed:
                    break
                self._flush_requested = True
                self._state.notify_all()
                self._state.wait(0.5)

    def _feed_locked(self, ops: list[_Op]) -> None:
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
                    w.delete_documents_by_term("key", _key(op.vault, op.path))
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
            self._commit_changes(changes, overlay=False)

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Group the calling thread's writes for bulk indexing.

        Inside the block, writes from this thread are buffered and committed to SQLite every 512 changes or
        0.5 s (and at exit), and their full-text changes become searchable at the next full-text commit
        (≈ ``commit_interval``) instead of at once. Reads in the block may not see buffered writes. Other
        threads are unaffected. Nested blocks join the outer one.
        """
        if getattr(self._tls, "batch", None) is not None:
            yield
            return
        batch = self._tls.batch = _Batch()
        try:
            yield
        finally:
            self._tls.batch = None
            self._flush_batch(batch)

    def upsert_note(
        self, vault: str, path: str, text: str, parsed: ParsedNote, *, size: int, mtime_ns: int
    ) -> None:
        """Index (or re-index) a note: file state, tags, links, full text; clears its diagnostics.

        Args:
            vault, path: vault name and vault-relative NFC path of a ``.md`` file.
            text: the decoded note (unused beyond ``parsed``; kept for callers' symmetry).
            parsed: ``obsigate.domain.markdown.parse_note(text)``; uses ``body``, ``frontmatter``, ``tags``,
                ``aliases``, ``headings`` and ``links``.
            size, mtime_ns: the file's stat values, returned later by :meth:`file_states`.
        """
        del text
        body = _nfc(parsed.body)
        rows, distinct, keys = _tag_rows(parsed.tags)
        doc = _Doc(
            vault=vault,
            path=path,
            values={
                "title": [_nfc(_title(path))],
                "aliases": [_nfc(str(a)) for a in parsed.aliases],
                "headings": [_nfc(h.text) for h in parsed.headings],
                "props": [_nfc(_props_text(parsed.frontmatter))],
                "body": [body],
            },
            tag_keys=keys,
            tags=distinct,
        )
        batch = getattr(self._tls, "batch", None)
        if batch is None:
            doc.analyze(self._an)
            ntok = len(doc.tokens["body"])
        else:
            ntok = len(body) // 6  # bulk: skip Python-side analysis, estimate words from characters
            doc.tdoc = doc.to_tantivy(self._schema)
        ch = _Change()
        self._clear_rows(ch, vault, path)
        ch.exec(
            "INSERT OR REPLACE INTO files(vault, path, size, mtime_ns, kind, ntok) VALUES (?, ?, ?, ?, 1, ?)",
            (vault, path, size, mtime_ns, ntok),
        )
        if rows:
            ch.exec("INSERT INTO tags VALUES (?, ?, ?, ?, ?)", [(vault, path, k, d, n) for k, d, n in rows], True)
        links = [
            (vault, path, i, lk.target, lk.subpath, lk.display, lk.kind, lk.embed, lk.line, lk.key)
            for i, lk in enumerate(parsed.links)
        ]
        if links:
            ch.exec("INSERT INTO links VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", links, True)
        ch.ops.append(_Op(0, "upsert", vault, path, doc))
        ch.overlay.append((vault, path, doc, False))
        self._apply(ch)

    def upsert_file(self, vault: str, path: str, *, size: int, mtime_ns: int) -> None:
        """Record a non-searchable file (attachment, or a note that could not be decoded).

        Removes any previous note data for the path (text, tags, links, diagnostics).
        """
        ch = _Change()
        was_note = self._is_note_row(vault, path)
        self._clear_rows(ch, vault, path)
        ch.exec(
            "INSERT OR REPLACE INTO files(vault, path, size, mtime_ns, kind, ntok) VALUES (?, ?, ?, ?, 0, 0)",
            (vault, path, size, mtime_ns),
        )
        if was_note or (vault, path) in self._pending:
            ch.ops.append(_Op(0, "delete", vault, path))
            ch.overlay.append((vault, path, None, True))
        self._apply(ch)

    def _is_note_row(self, vault: str, path: str) -> bool:
        row = self._rconn().execute("SELECT kind FROM files WHERE vault = ? AND path = ?", (vault, path)).fetchone()
        return bool(row and row[0] == 1)

    @staticmethod
    def _clear_rows(ch: _Change, vault: str, path: str) -> None:
        for table in ("tags", "links", "diagnostics"):
            ch.exec(f"DELETE FROM {table} WHERE vault = ? AND path = ?", (vault, path))

    def delete(self, vault: str, path: str) -> None:
        """Forget one file (note or not) and its tags, links, text and diagnostics. Unknown paths are a no-op."""
        ch = _Change()
        self._clear_rows(ch, vault, path)
        ch.exec("DELETE FROM files WHERE vault = ? AND path = ?", (vault, path))
        ch.ops.append(_Op(0, "delete", vault, path))
        ch.overlay.append((vault, path, None, True))
        self._apply(ch)

    def delete_vault(self, vault: str) -> None:
        """Forget every file of ``vault`` (e.g. a vault removed from the configuration)."""
        ch = _Change()
        for table in ("files", "tags", "links", "diagnostics"):
            ch.exec(f"DELETE FROM {table} WHERE vault = ?", (vault,))
        ch.ops.append(_Op(0, "delete_vault", vault))
        self._apply(ch)

    def record_diagnostic(self, vault: str, path: str, code: str, message: str) -> None:
        """Attach a problem to a file (``invalid_utf8``, ``invalid_frontmatter``...). One row per code.

        Diagnostics are cleared when the file is re-indexed (upsert) or deleted.
        """
        ch = _Change()
        ch.exec(
            "INSERT OR REPLACE INTO diagnostics VALUES (?, ?, ?, ?, ?)", (vault, path, code, message, time.time_ns())
        )
        self._apply(ch)

    # ------------------------------------------------------------------------------------ committer

    def _commit_loop(self) -> None:
        conn = self._connect()  # the committer's own connection (bookkeeping after each commit)
        while True:
            with self._state:
                while self._dirty_at is None and not self._closed:
                    self._state.wait()
                if self._dirty_at is None and self._closed:
                    return
                interval = self._commit_interval
                if self._bulk_dirty:
                    interval = max(interval, BULK_COMMIT_INTERVAL)
                deadline = self._dirty_at + interval
                while (
                    not self._closed
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
                    self._commit_error = exc
                    closed = self._closed
                if closed:
                    log.error("index closing with uncommitted full-text changes (they are re-indexed on next open)")
                    return
                time.sleep(1.0)
                continue
            try:
                with self._wlock:
                    conn.execute("DELETE FROM ftq WHERE seq <= ?", (top,))
                row = conn.execute("SELECT avg(ntok) FROM files WHERE kind = 1").fetchone()
                if row and row[0]:
                    self._avg_body = float(row[0])
            except sqlite3.Error:
                log.exception("index bookkeeping after a full-text commit failed")
            with self._state:
                self._searcher = searcher
                self._committed_gen = top
                self._commit_error = None
                for k in [k for k, p in self._pending.items() if p.gen <= top]:
                    del self._pending[k]
                for v in [v for v, g in self._dead_vaults.items() if g <= top]:
                    del self._dead_vaults[v]
                if self._ops or self._applied_gen > top:
                    self._dirty_at = time.monotonic()
                else:
                    self._dirty_at = None
                    self._bulk_dirty = False
                self._state.notify_all()

    def flush(self, timeout: float | None = 30.0) -> bool:
        """Commit queued full-text changes now and wait for it. Returns False on timeout or closed index."""
        with self._wlock:
            target = self._gen
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._state:
            while self._committed_gen < target:
                if self._closed and not self._committer.is_alive():
                    return False
                self._flush_requested = True
                self._state.notify_all()
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._state.wait(0.05 if remaining is None else min(remaining, 0.05))
        return True

    def close(self) -> None:
        """Commit pending full-text changes, stop the committer, release the writer lock, close SQLite.

        Idempotent. Any later call other than ``close`` raises ``RuntimeError``.
        """
        if self._closed:
            return
        batch = getattr(self._tls, "batch", None)
        if batch is not None:
            self._flush_batch(batch)
        self.flush(timeout=60)
        with self._state:
            self._closed = True
            self._state.notify_all()
        self._committer.join(timeout=60)
        try:
            self._writer.wait_merging_threads()
        except Exception:  # pragma: no cover - best effort
            log.exception("waiting for tantivy merges failed")
        del self._writer
        with self._conns_lock:
            for conn in self._conns:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            self._conns.clear()

    # ----------------------------------------------------------------------------------------- reads

    @property
    def commit_error(self) -> str | None:
        """The last full-text commit failure (cleared by the next successful commit), or ``None``.

        While it is set, new writes stay searchable through the overlay (up to its cap) and are retried.
        """
        err = self._commit_error
        return None if err is None else f"{type(err).__name__}: {err}"

    def file_states(self, vault: str, *, under: str | None = None) -> dict[str, tuple[int, int]]:
        """``{path: (size, mtime_ns)}`` of every indexed file of ``vault`` (or only below folder ``under``).

        A note whose full-text state is unknown (after a crash or an index format change) reports size ``-1``,
        so an incremental refresh re-indexes it.
        """
        sql, args = "SELECT path, size, mtime_ns FROM files WHERE vault = ?", [vault]
        if under:
            prefix = under.strip("/")
            sql += " AND path >= ? AND path < ?"
            args += [prefix + "/", prefix + "0"]  # '0' sorts right after '/'
        return {p: (s, m) for p, s, m in self._rconn().execute(sql, args)}

    def note_count(self, vault: str | None = None) -> int:
        """Number of searchable notes, in one vault or all."""
        sql = "SELECT count(*) FROM files WHERE kind = 1" + (" AND vault = ?" if vault is not None else "")
        return self._rconn().execute(sql, (vault,) if vault is not None else ()).fetchone()[0]

    def file_count(self, vault: str | None = None) -> int:
        """Number of indexed files (notes, attachments, undecodable notes), in one vault or all."""
        sql = "SELECT count(*) FROM files" + (" WHERE vault = ?" if vault is not None else "")
        return self._rconn().execute(sql, (vault,) if vault is not None else ()).fetchone()[0]

    def vault_names(self) -> list[str]:
        """Names of the vaults that have at least one indexed file, sorted."""
        return [r[0] for r in self._rconn().execute("SELECT DISTINCT vault FROM files ORDER BY vault")]

    def diagnostics(self, vault: str | None = None, limit: int = 100) -> list[dict]:
        """Recorded problems, ordered by vault, path, code: ``[{"vault", "path", "code", "message", "at_ns"}]``."""
        sql = "SELECT vault, path, code, message, at_ns FROM diagnostics"
        args: tuple = ()
        if vault is not None:
            sql += " WHERE vault = ?"
            args = (vault,)
        sql += " ORDER BY vault, path, code LIMIT ?"
        rows = self._rconn().execute(sql, (*args, max(0, limit))).fetchall()
        return [dict(zip(("vault", "path", "code", "message", "at_ns"), r, strict=True)) for r in rows]

    def diagnostic_count(self, vault: str | None = None) -> int:
        """Number of recorded diagnostics, in one vault or all."""
        sql = "SELECT count(*) FROM diagnostics" + (" WHERE vault = ?" if vault is not None else "")
        return self._rconn().execute(sql, (vault,) if vault is not None else ()).fetchone()[0]

    def list_tags(self, *, vaults: Sequence[str]) -> list[TagCount]:
        """Distinct tags of the notes in ``vaults`` with note counts, by count descending then tag.

        Tags are case-insensitive (``#Work`` = ``#work``); the display casing is the spelling used most often
        (ties: the one sorting first). ``a/b`` also counts toward ``a`` (once per note).
        """
        vs = list(dict.fromkeys(vaults))
        if not vs:
            return []
        marks = ",".join("?" * len(vs))
        conn = self._rconn()
        counts = dict(
            conn.execute(f"SELECT key, count(*) FROM tags WHERE vault IN ({marks}) GROUP BY key", vs).fetchall()
        )
        best: dict[str, tuple[int, str]] = {}
        for key, disp, n in conn.execute(
            f"SELECT key, display, sum(n) FROM tags WHERE vault IN ({marks}) GROUP BY key, display", vs
        ):
            cur = best.get(key)
            if cur is None or n > cur[0] or (n == cur[0] and disp < cur[1]):
                best[key] = (n, disp)
        out = [TagCount(best[k][1], c) for k, c in counts.items()]
        out.sort(key=lambda t: (-t.count, t.tag.lower(), t.tag))
        return out

    def outgoing_links(self, vault: str, path: str) -> list[dict]:
        """Links recorded for a note, in document order: ``[{"target", "subpath", "display", "kind", "embed",
        "line", "key"}]`` (unresolved: resolution is the caller's job)."""
        rows = self._rconn().execute(
            "SELECT target, subpath, display, kind, embed, line, key FROM links WHERE vault = ? AND path = ? "
            "ORDER BY seq",
            (vault, path),
        )
        names = ("target", "subpath", "display", "kind", "embed", "line", "key")
        return [dict(zip(names, r, strict=True)) | {"embed": bool(r[4])} for r in rows]

    # ---------------------------------------------------------------------------------------- search

    def _pieces(self, query: str) -> list[tuple[str, ...]] | None:
        """User text → analyzed pieces (each a word tuple); None if some piece can never match."""
        pieces: list[tuple[str, ...]] = []
        for raw in _nfc(query[:2000]).split():
            words = tuple(self._an.analyze(raw))
            if words:
                if words not in pieces:
                    pieces.append(words)
            elif any(ch.isalnum() for ch in raw):
                return None  # e.g. a word longer than the analyzer keeps: nothing indexed can match it
        return pieces[:MAX_QUERY_PIECES]

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
        if self._closed:
            raise RuntimeError("index is closed")
        vs = list(dict.fromkeys(vaults))
        pieces = self._pieces(query) if isinstance(query, str) else None
        if not vs or not pieces:
            return SearchPage([], 0)
        tag_key = _tag_key(tag) if tag else ""
        with self._state:
            searcher = self._searcher
            pending = [(k, p) for k, p in self._pending.items() if k[0] in vs]
            dead = [v for v in self._dead_vaults if v in vs]
        n_docs = max(searcher.num_docs, 1)
        expansions = [self._expand(searcher, p) for p in pieces]
        user_q = self._user_query(pieces, expansions)
        Q, O = tantivy.Query, tantivy.Occur
        clauses = [
            (O.Must, user_q),
            (O.Must, Q.const_score_query(Q.term_set_query(self._schema, "vault", vs), 0.0)),
        ]
        if tag_key:
            clauses.append((O.Must, Q.const_score_query(Q.term_query(self._schema, "tags", tag_key), 0.0)))
        if pending:
            keys = [_key(v, p) for (v, p), _ in pending]
            clauses.append((O.MustNot, Q.term_set_query(self._schema, "key", keys)))
        if dead:
            clauses.append((O.MustNot, Q.term_set_query(self._schema, "vault", dead)))
        want = offset + limit
        res = searcher.search(Q.boolean_query(clauses), max(want, 1), count=True)
        scored: list[tuple[float, int, Any]] = [(s, 0, addr) for s, addr in res.hits]
        extra = 0
        if pending:
            df_cache: dict[tuple[str, str], int] = {}
            for _k, p in pending:
                d = p.doc
                if d is None or (tag_key and tag_key not in d.tag_keys):
                    continue
                s = self._overlay_score(d, pieces, expansions, searcher, n_docs, df_cache)
                if s is not None:
                    extra += 1
                    scored.append((s, 1, d))
        scored.sort(key=lambda t: -t[0])  # stable: tantivy's order kept among equal scores
        page = scored[offset:want]
        hits: list[SearchHit] = []
        gen = None
        for score, from_overlay, obj in page:
            if from_overlay:
                hits.append(self._overlay_hit(obj, score, pieces, expansions))
                continue
            if gen is None:
                gen = tantivy.SnippetGenerator.create(searcher, user_q, self._schema, "body")
                gen.set_max_num_chars(SNIPPET_CHARS)
            doc = searcher.doc(obj)
            vault, _, path = doc.get_first("key").partition(":")
            body = doc.get_first("body") or ""
            snippet = self._snippet(gen, doc, body)
            hits.append(SearchHit(vault, path, _title(path), float(score), snippet, tuple(doc.get_all("tagd"))))
        return SearchPage(hits, res.count + extra)

    @staticmethod
    def _snippet(gen: tantivy.SnippetGenerator, doc: tantivy.Document, body: str) -> str:
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

    def _expand(self, searcher: tantivy.Searcher, piece: tuple[str, ...]) -> list[str]:
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

    def _user_query(self, pieces: list[tuple[str, ...]], expansions: list[list[str]]) -> tantivy.Query:
        Q, O, sch = tantivy.Query, tantivy.Occur, self._schema
        musts = []
        for words, exps in zip(pieces, expansions, strict=True):
            should = []
            for fname, boost in FIELD_BOOSTS.items():
                if len(words) == 1:
                    q = Q.term_query(sch, fname, words[0])
                else:
                    q = Q.phrase_query(sch, fname, list(words))
                should.append((O.Should, Q.boost_query(q, boost)))
                if fname in ("title", "body"):
                    for e in exps:
                        should.append((O.Should, Q.boost_query(Q.term_query(sch, fname, e), boost * PREFIX_WEIGHT)))
            musts.append((O.Must, Q.boolean_query(should)))
        return Q.boolean_query(musts)

    def _overlay_score(
        self,
        d: _Doc,
        pieces: list[tuple[str, ...]],
        expansions: list[list[str]],
        searcher: tantivy.Searcher,
        n_docs: int,
        df_cache: dict[tuple[str, str], int],
    ) -> float | None:
        """BM25-like score of an overlay note, or None if some piece does not match (mirrors _user_query).

        Statistics: document frequencies and counts from the committed index (+1 for this note); average
        lengths estimated (body: mean word count of indexed notes). Matching is exact; scores are close to,
        not equal to, tantivy's (the note is in the overlay for about ``commit_interval`` seconds).
        """
        # cheap rejection first: every piece must occur somewhere
        for words, exps in zip(pieces, expansions, strict=True):
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
                avg = self._avg_body if fname == "body" else _AVG_LEN[fname]
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

    def _overlay_hit(
        self, d: _Doc, score: float, pieces: list[tuple[str, ...]], expansions: list[list[str]]
    ) -> SearchHit:
        body = d.values["body"][0]
        singles = {w[0] for w in pieces if len(w) == 1}
        prefixes = tuple(w[0] for w in pieces if len(w) == 1 and len(w[0]) >= PREFIX_MIN_CHARS)
        phrase_words = {w for p in pieces if len(p) > 1 for w in p}

        def find(text: str) -> list[tuple[int, int]]:
            return [
                (t.char_offset_from, t.char_offset_to)
                for t in self._an.pre_tokenize(text).tokens
                if t.text in singles or t.text in phrase_words or (prefixes and t.text.startswith(prefixes))
            ]

        marks = find(body[:SNIPPET_WINDOW]) if len(body) > SNIPPET_WINDOW else []
        if not marks or marks[0][0] > SNIPPET_WINDOW - SNIPPET_CHARS:
            marks = find(body)
        if not marks:
            return SearchHit(d.vault, d.path, _title(d.path), score, _lead(body), d.tags)
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
        snippet = ("…" if lo > 0 else "") + snippet + ("…" if hi < len(body) else "")
        return SearchHit(d.vault, d.path, _title(d.path), score, snippet, d.tags)
