"""The assistant's SQLite store: conversations (per user, messages kept verbatim for replay; their images'
bytes once per conversation, deleted with it) and agent runs paused for confirmation (so a restart does not lose a run awaiting the person's approval).

Each provider call of a conversation leaves one ``usage`` row (the provider's counts, the model, how many stored
messages the request carried and the offline estimate of its parts: the context gauge, :mod:`obsigate.agent.gauge`).
Tables added by a later version are created when an older file is opened (``CREATE TABLE IF NOT EXISTS``): an
existing file keeps its rows and gains the new tables.

File: ``<data_dir>/assistant.sqlite3`` (the composition root creates it 0600: conversations quote the vault).
A paused run keeps the ids of its proposals, never their tokens nor a copy of them: the confirmation store
holds each proposal once. Every query is filtered by user: a user never reads, resumes or deletes
another's conversation or run — for them it does not exist (``not_found``).

One connection for the process, behind a lock (operations are short); WAL with ``synchronous=NORMAL``: a
commit is durable across a crash or a kill of the process without an fsync per message (an fsync per append
cost a streamed answer ~35 ms before its first token: docs/benchmarks.md); only a power loss may drop the
last transactions, which costs a person at most a repeated question or confirmation, never a vault change
(those have their own journal).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from obsigate.tools.api import Conflict, NotFound

__all__ = ["TURN_HASHES_SQL", "AgentStore", "ConversationInfo", "PausedRun", "UsageRow"]

#: Every stored turn anchor, by ``last_seq`` (also read through a read-only connection: ``journal verify``).
TURN_HASHES_SQL = "SELECT conversation_id, turn_id, rows, last_seq, cumulative_hash FROM turn_hashes ORDER BY last_seq"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    title TEXT NOT NULL,
    mode TEXT NOT NULL,
    vault TEXT,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS conversations_user ON conversations(user, updated);
CREATE TABLE IF NOT EXISTS messages (
    conversation_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    message TEXT NOT NULL,
    PRIMARY KEY (conversation_id, seq)
);
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    state TEXT NOT NULL,
    expires REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_conversation ON runs(conversation_id, state);
CREATE TABLE IF NOT EXISTS run_changes (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    user TEXT NOT NULL,
    data TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS run_undos (
    run_id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    state TEXT NOT NULL,
    at REAL NOT NULL,
    report TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS turn_hashes (
    conversation_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    user TEXT NOT NULL,
    rows INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    cumulative_hash TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (conversation_id, turn_id)
);
CREATE TABLE IF NOT EXISTS usage (
    conversation_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL,
    cached_tokens INTEGER NOT NULL,
    messages INTEGER NOT NULL,
    estimate TEXT NOT NULL,
    PRIMARY KEY (conversation_id, seq)
);
CREATE TABLE IF NOT EXISTS images (
    conversation_id TEXT NOT NULL,
    id TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (conversation_id, id)
);
CREATE TABLE IF NOT EXISTS image_files (
    conversation_id TEXT NOT NULL,
    image_id TEXT NOT NULL,
    user TEXT NOT NULL,
    file_id TEXT NOT NULL,
    PRIMARY KEY (conversation_id, image_id, file_id)
);
CREATE INDEX IF NOT EXISTS image_files_file ON image_files(user, file_id);
"""

TITLE_CHARS = 80


@dataclass(frozen=True, slots=True)
class ConversationInfo:
    """A conversation's header: ``id``, ``title`` (its first message, cut), ``mode``, ``vault``, ``provider``,
    ``model``, ``created``/``updated`` (epoch s) and ``messages`` (how many)."""

    id: str
    title: str
    mode: str
    vault: str | None
    provider: str
    model: str
    created: float
    updated: float
    messages: int

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__slots__}


@dataclass(frozen=True, slots=True)
class PausedRun:
    """A run awaiting confirmation, as stored: ``id``, ``conversation_id``, ``expires`` (epoch s) and ``data``
    (the run's state as a JSON-safe dict, ``agent.loop.Run.to_json``: its proposals by id)."""

    id: str
    conversation_id: str
    expires: float
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class UsageRow:
    """One provider call of a conversation: ``provider``, ``model``, the provider's ``prompt_tokens``,
    ``completion_tokens`` and ``cached_tokens`` (0: not reported), ``messages`` (how many stored messages the
    request carried), ``estimate`` (the offline token count of each part of the request) and ``at`` (epoch s)."""

    provider: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int
    messages: int
    estimate: dict[str, int]
    at: float


class AgentStore:
    """Conversations and paused runs in one SQLite file (``path``, created by the caller with mode 0600).
    ``clock``: seconds since the epoch (tests inject one)."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        self._path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self._path, timeout=10, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA secure_delete=ON")  # a deleted image's or message's bytes are zeroed, not left
        self._db.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """The store's connection, held alone for one operation (an open transaction is rolled back if the
        operation fails before its COMMIT)."""
        with self._lock:
            try:
                yield self._db
            finally:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")

    def close(self) -> None:
        """Close the connection (the app's shutdown)."""
        with self._lock:
            self._db.close()

    # --- conversations ----------------------------------------------------------------------------

    def create_conversation(
        self, user: str, *, title: str, mode: str, vault: str | None, provider: str, model: str
    ) -> str:
        """A new empty conversation of ``user``; returns its id (uuid4 hex)."""
        cid, now = uuid.uuid4().hex, self._clock()
        title = " ".join(title.split())[:TITLE_CHARS] or "…"
        with self._connect() as db:
            db.execute(
                "INSERT INTO conversations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (cid, user, title, mode, vault, provider, model, now, now),
            )
        return cid

    def _owned(self, db: sqlite3.Connection, user: str, cid: str) -> None:
        if db.execute("SELECT 1 FROM conversations WHERE id = ? AND user = ?", (cid, user)).fetchone() is None:
            raise NotFound("no such conversation", hint="GET /api/ai/conversations lists yours")

    def messages(self, user: str, cid: str) -> list[dict[str, Any]]:
        """The messages of ``user``'s conversation ``cid``, in order, exactly as appended.

        Raises:
            NotFound: no such conversation of this user.
        """
        with self._connect() as db:
            self._owned(db, user, cid)
            rows = db.execute("SELECT message FROM messages WHERE conversation_id = ? ORDER BY seq", (cid,)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def append(
        self, user: str, cid: str, *messages: dict[str, Any], provider: str | None = None, model: str | None = None
    ) -> None:
        """Append ``messages`` (JSON-safe dicts) to ``user``'s conversation ``cid`` in one transaction; note the
        ``provider``/``model`` now in use.

        Raises:
            NotFound: no such conversation of this user (it may have been deleted meanwhile).
        """
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                self._owned(db, user, cid)
                (last,) = db.execute(
                    "SELECT COALESCE(MAX(seq), -1) FROM messages WHERE conversation_id = ?", (cid,)
                ).fetchone()
                db.executemany(
                    "INSERT INTO messages VALUES (?, ?, ?)",
                    [(cid, last + 1 + i, json.dumps(m, ensure_ascii=False)) for i, m in enumerate(messages)],
                )
                db.execute(
                    "UPDATE conversations SET updated = ?, provider = COALESCE(?, provider), model = COALESCE(?, model) WHERE id = ?",
                    (self._clock(), provider, model, cid),
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

    def conversations(self, user: str, *, limit: int = 100, offset: int = 0) -> list[ConversationInfo]:
        """``user``'s conversations, most recently updated first."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT c.id, c.title, c.mode, c.vault, c.provider, c.model, c.created, c.updated, "
                "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) "
                "FROM conversations c WHERE c.user = ? ORDER BY c.updated DESC, c.id LIMIT ? OFFSET ?",
                (user, limit, offset),
            ).fetchall()
        return [ConversationInfo(*r) for r in rows]

    def conversation(self, user: str, cid: str) -> ConversationInfo:
        """The header of ``user``'s conversation ``cid``.

        Raises:
            NotFound: no such conversation of this user.
        """
        with self._connect() as db:
            row = db.execute(
                "SELECT c.id, c.title, c.mode, c.vault, c.provider, c.model, c.created, c.updated, "
                "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) "
                "FROM conversations c WHERE c.id = ? AND c.user = ?",
                (cid, user),
            ).fetchone()
        if row is None:
            raise NotFound("no such conversation", hint="GET /api/ai/conversations lists yours")
        return ConversationInfo(*row)

    def delete_conversation(self, user: str, cid: str) -> list[PausedRun]:
        """Delete ``user``'s conversation ``cid``, its messages and its runs; return the runs that were still
        paused (their proposals should be declined).

        Raises:
            NotFound: no such conversation of this user.
        """
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                self._owned(db, user, cid)
                paused = db.execute(
                    "SELECT id, conversation_id, expires, data FROM runs WHERE conversation_id = ? AND state = 'paused'",
                    (cid,),
                ).fetchall()
                db.execute("DELETE FROM messages WHERE conversation_id = ?", (cid,))
                db.execute("DELETE FROM runs WHERE conversation_id = ?", (cid,))
                db.execute("DELETE FROM images WHERE conversation_id = ?", (cid,))
                db.execute("DELETE FROM image_files WHERE conversation_id = ?", (cid,))
                db.execute("DELETE FROM usage WHERE conversation_id = ?", (cid,))
                db.execute("DELETE FROM conversations WHERE id = ?", (cid,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # its images' bytes leave the WAL file too
        return [PausedRun(r[0], r[1], r[2], json.loads(r[3])) for r in paused]

    # --- images (agent/images.py: messages keep references, the bytes are here once per conversation) -----

    def put_image(
        self, user: str, cid: str, image_id: str, mime_type: str, data: bytes, *, file_id: str | None = None
    ) -> None:
        """Keep an image of ``user``'s conversation ``cid`` under ``image_id`` (its SHA-256: stored once);
        ``file_id``: the file of ``user``'s space it came from, whose deletion removes it (:meth:`forget_file`).

        Raises:
            NotFound: no such conversation of this user.
        """
        with self._connect() as db:
            self._owned(db, user, cid)
            db.execute("INSERT OR IGNORE INTO images VALUES (?, ?, ?, ?)", (cid, image_id, mime_type, data))
            if file_id is not None:
                db.execute("INSERT OR IGNORE INTO image_files VALUES (?, ?, ?, ?)", (cid, image_id, user, file_id))

    def forget_missing(self, exists: Callable[[str, str], bool]) -> int:
        """:meth:`forget_file` for every file a conversation holds a copy of that ``exists(user, file_id)`` says
        is gone (deleted or expired while no hook was listening: the start-up sweep, a crash). Returns how many
        copies were dropped."""
        with self._connect() as db:
            refs = db.execute("SELECT DISTINCT user, file_id FROM image_files").fetchall()
        return sum(self.forget_file(user, file_id) for user, file_id in refs if not exists(user, file_id))

    def forget_file(self, user: str, file_id: str) -> int:
        """Drop every conversation copy of ``user``'s file ``file_id`` (it was deleted or expired from the file
        space: ``FileSpace.on_delete``), zeroed and checkpointed out of the WAL; the messages keep their
        reference, which a replay then sends as a note. Returns how many copies were dropped."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT conversation_id, image_id FROM image_files WHERE user = ? AND file_id = ?", (user, file_id)
            ).fetchall()
            if not rows:
                return 0
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany("DELETE FROM images WHERE conversation_id = ? AND id = ?", rows)
                db.execute("DELETE FROM image_files WHERE user = ? AND file_id = ?", (user, file_id))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return len(rows)

    def image(self, user: str, cid: str, image_id: str) -> tuple[str, bytes]:
        """``(mime type, bytes)`` of image ``image_id`` of ``user``'s conversation ``cid``.

        Raises:
            NotFound: no such conversation of this user, or no such image in it.
        """
        with self._connect() as db:
            self._owned(db, user, cid)
            row = db.execute(
                "SELECT mime_type, data FROM images WHERE conversation_id = ? AND id = ?", (cid, image_id)
            ).fetchone()
        if row is None:
            raise NotFound("no such image in this conversation")
        return row[0], bytes(row[1])

    # --- token usage per provider call (agent/gauge.py) ------------------------------------------------

    def add_usage(self, user: str, cid: str, row: UsageRow) -> None:
        """Keep one provider call's usage in ``user``'s conversation ``cid``.

        Raises:
            NotFound: no such conversation of this user (it may have been deleted meanwhile).
        """
        with self._connect() as db:
            self._owned(db, user, cid)
            db.execute(
                "INSERT INTO usage VALUES (?, (SELECT COALESCE(MAX(seq), -1) + 1 FROM usage WHERE conversation_id = ?), "
                "?, ?, ?, ?, ?, ?, ?, ?)",
                (cid, cid, row.at, row.provider, row.model, row.prompt_tokens, row.completion_tokens,
                 row.cached_tokens, row.messages, json.dumps(row.estimate)),
            )  # fmt: skip

    def usage(self, user: str, cid: str) -> list[UsageRow]:
        """Every provider call of ``user``'s conversation ``cid``, oldest first.

        Raises:
            NotFound: no such conversation of this user.
        """
        with self._connect() as db:
            self._owned(db, user, cid)
            rows = db.execute(
                "SELECT provider, model, prompt_tokens, completion_tokens, cached_tokens, messages, estimate, at "
                "FROM usage WHERE conversation_id = ? ORDER BY seq",
                (cid,),
            ).fetchall()
        return [UsageRow(r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), r[7]) for r in rows]

    # --- paused runs ------------------------------------------------------------------------------

    def pause(self, user: str, run_id: str, cid: str, data: dict[str, Any], ttl_s: float) -> float:
        """Store run ``run_id`` of ``user`` as paused for ``ttl_s`` seconds; return its expiry (epoch s)."""
        expires = self._clock() + ttl_s
        with self._connect() as db:
            db.execute(
                "INSERT OR REPLACE INTO runs VALUES (?, ?, ?, 'paused', ?, ?)",
                (run_id, user, cid, expires, json.dumps(data, ensure_ascii=False)),
            )
        return expires

    def claim(self, user: str, run_id: str) -> PausedRun:
        """Take ``user``'s paused run ``run_id`` for resuming: exactly one caller wins, even when two resumes
        race (the state changes in the same statement that checks it).

        Raises:
            NotFound: no such run of this user.
            Conflict: ``run_expired`` (waited past its TTL; its proposals stay unapplied) or ``run_not_paused``
                (already resumed or finished).
        """
        now = self._clock()
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT state, expires, conversation_id, data FROM runs WHERE id = ? AND user = ?", (run_id, user)
            ).fetchone()
            if row is None:
                db.execute("ROLLBACK")
                raise NotFound("no such agent run", hint="start a new request")
            state, expires, cid, data = row
            if state == "paused" and expires >= now:
                db.execute("UPDATE runs SET state = 'resumed' WHERE id = ?", (run_id,))
                db.execute("COMMIT")
                return PausedRun(run_id, cid, expires, json.loads(data))
            db.execute("ROLLBACK")
        if state == "paused":
            raise Conflict("the confirmation of this run has expired; nothing was applied", code="run_expired")
        raise Conflict("this run is not awaiting confirmation (already resumed or finished)", code="run_not_paused")

    def unclaim(self, run_id: str) -> None:
        """Give a claimed run back (its resume could not start): paused again until its own expiry."""
        with self._connect() as db:
            db.execute("UPDATE runs SET state = 'paused' WHERE id = ? AND state = 'resumed'", (run_id,))

    def open_runs(self, user: str, cid: str) -> list[PausedRun]:
        """``user``'s runs of conversation ``cid`` still marked paused (expired ones included), and mark them
        closed: a new message in a conversation supersedes a pending confirmation."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            rows = db.execute(
                "SELECT id, conversation_id, expires, data FROM runs WHERE user = ? AND conversation_id = ? AND state = 'paused'",
                (user, cid),
            ).fetchall()
            db.execute(
                "UPDATE runs SET state = 'closed' WHERE user = ? AND conversation_id = ? AND state = 'paused'",
                (user, cid),
            )
            db.execute("COMMIT")
        return [PausedRun(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def finish(self, run_id: str) -> None:
        """Mark a run finished and forget its state (its proposals are spent or declined)."""
        with self._connect() as db:
            db.execute("UPDATE runs SET state = 'finished', data = '{}' WHERE id = ?", (run_id,))

    def waiting(self, user: str, cid: str) -> PausedRun | None:
        """``user``'s run of conversation ``cid`` awaiting confirmation now (paused, unexpired; the latest if
        there were several), read only: showing the conversation again claims nothing."""
        with self._connect() as db:
            row = db.execute(
                "SELECT id, conversation_id, expires, data FROM runs WHERE user = ? AND conversation_id = ? "
                "AND state = 'paused' AND expires >= ? ORDER BY expires DESC LIMIT 1",
                (user, cid, self._clock()),
            ).fetchone()
        return None if row is None else PausedRun(row[0], row[1], row[2], json.loads(row[3]))

    def purge(self, older_than_s: float = 86_400.0) -> int:
        """Delete runs past expiry by more than ``older_than_s``; return how many."""
        with self._connect() as db:
            return db.execute("DELETE FROM runs WHERE expires < ?", (self._clock() - older_than_s,)).rowcount

    # --- what a run changed, for "Undo this run" (agent/undo.py) ------------------------------------

    # --- the tool journal's anchors (a turn's cumulative hash, kept with the conversation) ------------------

    def put_turn_hash(self, user: str, cid: str, turn: str, rows: int, last_seq: int, cumulative_hash: str) -> None:
        """Keep (or replace: a paused turn that went on) the ``cumulative_hash`` of ``cid``'s ``turn`` over its
        ``rows`` journal rows, the last at ``last_seq`` (``ToolJournal.turn_hash``). Kept when the conversation
        is deleted: the journal's rows outlive it, and so must what checks them (hashes only, no content)."""
        with self._connect() as db:
            db.execute(
                "INSERT OR REPLACE INTO turn_hashes VALUES (?, ?, ?, ?, ?, ?, ?)",
                (cid, turn, user, rows, last_seq, cumulative_hash, self._clock()),
            )

    def turn_hashes(self) -> list[tuple[str, str, int, int, str]]:
        """Every stored anchor as ``(conversation, turn, rows, last_seq, cumulative_hash)``, by ``last_seq``."""
        with self._connect() as db:
            rows = db.execute(TURN_HASHES_SQL).fetchall()
        return [(r[0], r[1], int(r[2]), int(r[3]), r[4]) for r in rows]

    def add_change(self, user: str, run_id: str, data: dict[str, Any]) -> None:
        """Keep one change applied by ``user``'s run ``run_id`` (``data``: JSON-safe, ``agent.undo.record``)."""
        with self._connect() as db:
            db.execute(
                "INSERT INTO run_changes VALUES (?, (SELECT COALESCE(MAX(seq), -1) + 1 FROM run_changes WHERE run_id = ?), ?, ?)",
                (run_id, run_id, user, json.dumps(data, ensure_ascii=False)),
            )

    def run_changes(self, user: str, run_id: str) -> list[dict[str, Any]]:
        """The changes ``user``'s run ``run_id`` applied, in order (``[]``: none, or not this user's run)."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT data FROM run_changes WHERE run_id = ? AND user = ? ORDER BY seq", (run_id, user)
            ).fetchall()
        return [json.loads(r[0]) for r in rows]

    def begin_undo(self, user: str, run_id: str) -> None:
        """Mark ``user``'s run ``run_id`` as being undone: exactly one of two racing undos wins.

        Raises:
            Conflict: ``run_undone``, the run was undone already (or is being undone).
        """
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT state, at FROM run_undos WHERE run_id = ?", (run_id,)).fetchone()
            if row is None:
                db.execute("INSERT INTO run_undos VALUES (?, ?, 'undoing', ?, '{}')", (run_id, user, self._clock()))
                db.execute("COMMIT")
                return
            db.execute("ROLLBACK")
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(row[1]))
        raise Conflict(
            f"this run was already undone ({when}); nothing was changed",
            code="run_undone",
            hint="the backups keep every version: list_backups and restore_backup bring back any of them",
        )

    def end_undo(self, run_id: str, report: dict[str, Any] | None) -> None:
        """Record the undo of ``run_id`` as done with its ``report``; ``None``: it changed nothing (a conflict),
        so it may be tried again."""
        with self._connect() as db:
            if report is None:
                db.execute("DELETE FROM run_undos WHERE run_id = ? AND state = 'undoing'", (run_id,))
            else:
                db.execute(
                    "UPDATE run_undos SET state = 'done', at = ?, report = ? WHERE run_id = ?",
                    (self._clock(), json.dumps(report, ensure_ascii=False), run_id),
                )
