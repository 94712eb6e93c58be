"""The SQLite side of the index: file states, tags, links, diagnostics and the full-text journal.

``db_path`` (normally ``<data_dir>/index.sqlite3``, WAL) holds ``files`` (path, size, mtime_ns, kind),
``tags`` (per note, nested parents expanded), ``links``, ``diagnostics``, ``ftq`` (full-text operations not
yet committed to tantivy) and ``meta`` (schema versions). It is a cache of the vault folders: a schema
change drops the tables, and notes whose full-text state is unknown get ``size = -1`` so ``file_states``
reports them as changed and the next incremental refresh re-indexes them.

All SQL text lives here. Reads run on one connection per thread; writes are *statements* (:data:`Stmt`)
that the committer runs in one transaction together with the journal rows of the same change.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from obsigate.domain.links.resolve import link_name

if TYPE_CHECKING:
    from obsigate.domain.markdown.link_syntax import Link

__all__ = [
    "SCHEMA_VERSION",
    "MetaStore",
    "Stmt",
    "clear_note_rows",
    "delete_file",
    "delete_vault",
    "put_diagnostic",
    "put_file",
    "put_links",
    "put_tags",
    "tag_key",
    "tag_rows",
]

log = logging.getLogger(__name__)

SCHEMA_VERSION = "5"  # SQLite tables (5: aliases)
Stmt = tuple[Any, Any, bool]  # (statement, params, executemany); a callable statement gets the connection

_DDL = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS files(
    vault TEXT NOT NULL, path TEXT NOT NULL,
    size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    kind INTEGER NOT NULL,              -- 1 searchable note, 0 other file (attachment, undecodable note)
    ntok INTEGER NOT NULL DEFAULT 0,    -- body word count (BM25 length estimate for the overlay)
    created_ns INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (vault, path)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS files_by_mtime ON files(vault, mtime_ns);
CREATE INDEX IF NOT EXISTS files_by_created ON files(vault, created_ns);
CREATE TABLE IF NOT EXISTS tags(
    vault TEXT NOT NULL, path TEXT NOT NULL, key TEXT NOT NULL, display TEXT NOT NULL, n INTEGER NOT NULL,
    PRIMARY KEY (vault, path, key)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS links(
    vault TEXT NOT NULL, path TEXT NOT NULL, seq INTEGER NOT NULL, target TEXT NOT NULL, subpath TEXT,
    display TEXT, kind TEXT, embed INTEGER NOT NULL, line INTEGER, key TEXT,
    name TEXT NOT NULL,                 -- lower-cased last segment of target: re-resolution lookup key
    context TEXT,                       -- the linking line (redacted, clipped)
    resolved TEXT,                      -- the file it resolves to now (NULL: unresolved), see linkgraph.py
    PRIMARY KEY (vault, path, seq)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS links_by_name ON links(vault, name);
CREATE INDEX IF NOT EXISTS links_by_resolved ON links(vault, resolved, path);
CREATE TABLE IF NOT EXISTS diagnostics(
    vault TEXT NOT NULL, path TEXT NOT NULL, code TEXT NOT NULL, message TEXT NOT NULL, at_ns INTEGER NOT NULL,
    PRIMARY KEY (vault, path, code)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS ftq(seq INTEGER PRIMARY KEY, vault TEXT NOT NULL, path TEXT);
CREATE TABLE IF NOT EXISTS aliases(     -- frontmatter `aliases` (redacted), for the quick switcher
    vault TEXT NOT NULL, path TEXT NOT NULL, seq INTEGER NOT NULL, alias TEXT NOT NULL,
    PRIMARY KEY (vault, path, seq)) WITHOUT ROWID;
"""


# ------------------------------------------------------------------------------------------- tags


def tag_key(tag: str) -> str:
    """Identity of a tag in ``tags.key`` and the full-text ``tags`` field: lower case, no ``#``, no empty parts."""
    return "/".join(p for p in tag.strip().lstrip("#").lower().split("/") if p)


def tag_rows(tags: Sequence[str]) -> tuple[list[tuple[str, str, int]], tuple[str, ...], list[str]]:
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


# ------------------------------------------------------------------------------------- statements


def clear_note_rows(vault: str, path: str) -> list[Stmt]:
    """Forget a file's tags, links, aliases and diagnostics (before re-indexing or deleting it)."""
    return [
        (f"DELETE FROM {table} WHERE vault = ? AND path = ?", (vault, path), False)
        for table in ("tags", "links", "diagnostics", "aliases")
    ]


def put_file(
    vault: str, path: str, size: int, mtime_ns: int, *, note: bool, ntok: int = 0, created_ns: int = 0
) -> Stmt:
    sql = (
        "INSERT OR REPLACE INTO files(vault, path, size, mtime_ns, kind, ntok, created_ns) VALUES (?, ?, ?, ?, ?, ?, ?)"
    )
    return sql, (vault, path, size, mtime_ns, 1 if note else 0, ntok, created_ns or mtime_ns), False


def put_tags(vault: str, path: str, rows: list[tuple[str, str, int]]) -> Stmt:
    return "INSERT INTO tags VALUES (?, ?, ?, ?, ?)", [(vault, path, k, d, n) for k, d, n in rows], True


def put_links(
    vault: str, path: str, links: Sequence[Link], contexts: Sequence[str | None], resolved: Sequence[str | None]
) -> Stmt:
    """Rows of a note's links; ``contexts[i]`` is the (clipped) line of ``links[i]``, ``resolved[i]`` its file."""
    rows = [
        (
            vault,
            path,
            i,
            lk.target,
            lk.subpath,
            lk.display,
            lk.kind,
            lk.embed,
            lk.line,
            lk.key,
            link_name(lk.target),
            ctx,
            dest,
        )
        for i, (lk, ctx, dest) in enumerate(zip(links, contexts, resolved, strict=True))
    ]
    return "INSERT INTO links VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows, True


def put_aliases(vault: str, path: str, aliases: Sequence[str]) -> Stmt:
    """Rows of a note's aliases (frontmatter ``aliases``, in their order, duplicates kept out)."""
    rows = [(vault, path, i, a) for i, a in enumerate(dict.fromkeys(aliases))]
    return "INSERT INTO aliases VALUES (?, ?, ?, ?)", rows, True


def delete_file(vault: str, path: str) -> Stmt:
    return "DELETE FROM files WHERE vault = ? AND path = ?", (vault, path), False


def delete_vault(vault: str) -> list[Stmt]:
    tables = ("files", "tags", "links", "diagnostics", "aliases")
    return [(f"DELETE FROM {table} WHERE vault = ?", (vault,), False) for table in tables]


def put_diagnostic(vault: str, path: str, code: str, message: str, at_ns: int) -> Stmt:
    return "INSERT OR REPLACE INTO diagnostics VALUES (?, ?, ?, ?, ?)", (vault, path, code, message, at_ns), False


# ------------------------------------------------------------------------------------------ store


class MetaStore:
    """Connections to the SQLite file: one writer connection, one reader per thread, closed together.

    Args:
        db_path: the SQLite file (created with its folder if missing).

    Raises:
        sqlite3.Error / OSError: the file cannot be created or opened.
    """

    def __init__(self, db_path: Path) -> None:
        self.db_path = Path(db_path)
        self.db_path.parent.mkdir(parents=True, exist_ok=True)
        self.closed = False
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        self._tls = threading.local()
        self.wconn = self.connect()
        self.wconn.execute("PRAGMA cache_size=-16000")  # 16 MB for the writer; readers keep the 2 MB default
        try:
            self._init_schema()
        except BaseException:
            self.close()
            raise

    def connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.db_path, isolation_level=None, check_same_thread=False, timeout=30)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=OFF")
        with self._conns_lock:
            self._conns.append(conn)
        return conn

    def rconn(self) -> sqlite3.Connection:
        """The calling thread's read connection."""
        if self.closed:
            raise RuntimeError("index is closed")
        conn = getattr(self._tls, "conn", None)
        if conn is None:
            conn = self._tls.conn = self.connect()
        return conn

    def close(self) -> None:
        self.closed = True
        with self._conns_lock:
            for conn in self._conns:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
            self._conns.clear()

    def meta(self, key: str) -> str | None:
        row = self.wconn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def _init_schema(self) -> None:
        c = self.wconn
        has_meta = c.execute("SELECT 1 FROM sqlite_master WHERE name = 'meta'").fetchone()
        if has_meta and self.meta("schema") != SCHEMA_VERSION:
            log.warning("index schema changed; dropping %s tables (they are rebuilt from the vaults)", self.db_path)
            for (name,) in c.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                c.execute(f'DROP TABLE IF EXISTS "{name}"')
        c.executescript(_DDL)
        c.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))

    # ------------------------------------------------------------------- writes (caller holds the write lock)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction on the writer connection: committed when the block ends, rolled back when it
        raises (the block's error is what propagates, never a failed ``ROLLBACK``'s)."""
        c = self.wconn
        c.execute("BEGIN")
        try:
            yield c
            c.execute("COMMIT")
        except BaseException:
            # a full disk at COMMIT may have rolled the transaction back already: a second ROLLBACK would raise
            # "no transaction is active" over the real error
            if c.in_transaction:
                try:
                    c.execute("ROLLBACK")
                except sqlite3.Error:
                    log.exception("index: rolling back a failed transaction failed")
            raise

    @staticmethod
    def run(c: sqlite3.Connection, stmts: Sequence[Stmt]) -> None:
        """Run statements in order; a callable in place of the SQL text is called with the connection."""
        for sql, params, many in stmts:
            if callable(sql):
                sql(c)
            else:
                (c.executemany if many else c.execute)(sql, params)

    @staticmethod
    def journal(c: sqlite3.Connection, gen: int, vault: str, path: str | None) -> None:
        """Record a full-text operation until tantivy has committed it (``path`` None: a whole vault)."""
        c.execute("INSERT INTO ftq(seq, vault, path) VALUES (?, ?, ?)", (gen, vault, path))

    @staticmethod
    def trim_journal(c: sqlite3.Connection, top: int) -> None:
        c.execute("DELETE FROM ftq WHERE seq <= ?", (top,))

    @staticmethod
    def clear_journal(c: sqlite3.Connection) -> None:
        c.execute("DELETE FROM ftq")

    def journal_rows(self) -> list[tuple[str, str | None]]:
        return self.wconn.execute("SELECT vault, path FROM ftq").fetchall()

    @staticmethod
    def mark_stale(c: sqlite3.Connection, vault: str, path: str) -> None:
        c.execute("UPDATE files SET size = -1 WHERE vault = ? AND path = ? AND kind = 1", (vault, path))

    def reset_full_text(self, ft_version: str) -> None:
        """The full-text index was recreated empty: every note is stale, the journal is moot."""
        with self.transaction() as c:
            c.execute("UPDATE files SET size = -1 WHERE kind = 1")  # re-index every note
            MetaStore.clear_journal(c)
            c.execute("INSERT OR REPLACE INTO meta VALUES ('ft_schema', ?)", (ft_version,))

    @staticmethod
    def avg_body(c: sqlite3.Connection) -> float | None:
        """Mean body word count of the indexed notes (None when there are none)."""
        row = c.execute("SELECT avg(ntok) FROM files WHERE kind = 1").fetchone()
        return float(row[0]) if row and row[0] else None

    # ------------------------------------------------------------------------------------- reads

    def is_note(self, vault: str, path: str) -> bool:
        row = self.rconn().execute("SELECT kind FROM files WHERE vault = ? AND path = ?", (vault, path)).fetchone()
        return bool(row and row[0] == 1)

    def file_states(self, vault: str, under: str | None) -> dict[str, tuple[int, int]]:
        sql, args = "SELECT path, size, mtime_ns FROM files WHERE vault = ?", [vault]
        if under:
            prefix = under.strip("/")
            sql += " AND path >= ? AND path < ?"
            args += [prefix + "/", prefix + "0"]  # '0' sorts right after '/'
        return {p: (s, m) for p, s, m in self.rconn().execute(sql, args)}

    def aliases(self, vault: str) -> dict[str, list[str]]:
        """``{path: [alias, …]}`` of the notes of ``vault`` that have aliases (see ``VaultIndex.aliases``)."""
        out: dict[str, list[str]] = {}
        for path, alias in self.rconn().execute(
            "SELECT path, alias FROM aliases WHERE vault = ? ORDER BY path, seq", (vault,)
        ):
            out.setdefault(path, []).append(alias)
        return out

    def count(self, table: str, vault: str | None, *, notes_only: bool = False) -> int:
        where = ["kind = 1"] if notes_only else []
        if vault is not None:
            where.append("vault = ?")
        sql = f"SELECT count(*) FROM {table}" + (" WHERE " + " AND ".join(where) if where else "")
        return self.rconn().execute(sql, (vault,) if vault is not None else ()).fetchone()[0]

    def vault_names(self) -> list[str]:
        return [r[0] for r in self.rconn().execute("SELECT DISTINCT vault FROM files ORDER BY vault")]

    def diagnostics(self, vault: str | None, limit: int) -> list[dict]:
        sql = "SELECT vault, path, code, message, at_ns FROM diagnostics"
        args: tuple = ()
        if vault is not None:
            sql += " WHERE vault = ?"
            args = (vault,)
        sql += " ORDER BY vault, path, code LIMIT ?"
        rows = self.rconn().execute(sql, (*args, max(0, limit))).fetchall()
        return [dict(zip(("vault", "path", "code", "message", "at_ns"), r, strict=True)) for r in rows]

    def tag_counts(self, vaults: list[str]) -> list[tuple[str, int]]:
        """``(display, notes)`` per tag key, by count descending then tag (see ``VaultIndex.list_tags``)."""
        marks = ",".join("?" * len(vaults))
        conn = self.rconn()
        counts = dict(
            conn.execute(f"SELECT key, count(*) FROM tags WHERE vault IN ({marks}) GROUP BY key", vaults).fetchall()
        )
        best: dict[str, tuple[int, str]] = {}
        for key, disp, n in conn.execute(
            f"SELECT key, display, sum(n) FROM tags WHERE vault IN ({marks}) GROUP BY key, display", vaults
        ):
            cur = best.get(key)
            if cur is None or n > cur[0] or (n == cur[0] and disp < cur[1]):
                best[key] = (n, disp)
        out = [(best[k][1], c) for k, c in counts.items()]
        out.sort(key=lambda t: (-t[1], t[0].lower(), t[0]))
        return out

    def file_records(self, vault: str, under: str | None) -> list[tuple]:
        """``(path, size, mtime_ns, created_ns, is_note)`` of the files of ``vault`` (below ``under``), by path."""
        sql, args = "SELECT path, size, mtime_ns, created_ns, kind = 1 FROM files WHERE vault = ?", [vault]
        if under and under.strip("/"):
            prefix = under.strip("/")
            sql += " AND path >= ? AND path < ?"
            args += [prefix + "/", prefix + "0"]
        return [(p, s, m, c, bool(k)) for p, s, m, c, k in self.rconn().execute(sql + " ORDER BY path", args)]

    def recent(self, vaults: list[str], column: str, limit: int, offset: int) -> tuple[list[tuple], int]:
        """A page of ``(vault, path, size, mtime_ns, created_ns, is_note)`` newest first by ``column``, and the total."""
        assert column in ("mtime_ns", "created_ns")
        marks = ",".join("?" * len(vaults))
        conn = self.rconn()
        total = conn.execute(f"SELECT count(*) FROM files WHERE vault IN ({marks})", vaults).fetchone()[0]
        rows = conn.execute(
            f"SELECT vault, path, size, mtime_ns, created_ns, kind = 1 FROM files WHERE vault IN ({marks}) "
            f"ORDER BY {column} DESC, vault, path LIMIT ? OFFSET ?",
            (*vaults, limit, offset),
        ).fetchall()
        return [(v, p, s, m, c, bool(k)) for v, p, s, m, c, k in rows], total

    def notes_with_tag(self, vault: str, key: str) -> set[str]:
        rows = self.rconn().execute("SELECT path FROM tags WHERE vault = ? AND key = ?", (vault, key))
        return {r[0] for r in rows}
