"""The tool journal: one chained row per tool call, from every front, in ``<data_dir>/journal.sqlite3``.

Design (``shared/reference/arsenal.md`` §c, issue 21 item 3):

- One table ``tool_journal`` in SQLite WAL, file mode 0600. ``seq`` is global and gap-free: it is read and the
  row inserted inside one ``BEGIN IMMEDIATE`` transaction (``isolation_level=None``), so threads and processes
  appending at once never fork the chain.
- ``row_hash = sha256(prev_hash || canonical_json(row))`` where ``canonical_json`` is orjson with
  ``OPT_SORT_KEYS`` over every stored column but the two hashes (as stored: lists are their JSON text). The
  first row's ``prev_hash`` is :data:`GENESIS`.
- Digests of arguments and results are HMAC-SHA256 under a salt kept in the data dir (``journal.salt``), so
  the digest of a short secret cannot be brute-forced by whoever reads the journal. Contents (the raw
  arguments, a result up to :data:`MAX_KEPT_RESULT_BYTES`) are kept only when the admin enables it; a larger
  result is kept by digest (and ``result_file_id`` when the file space stored it), never dropped.
- Rows have a ``kind``: ``call`` (one per call, its outcome), ``intent`` (written before a mutation runs: the
  proof the journal is writable, see ``tools/door.py``) and ``event`` (a start-up change recovery).
- Every ``checkpoint_every`` rows, at :meth:`ToolJournal.close` and on the server's timer, a checkpoint row
  signs ``(seq, row_hash, ts, key_id, every, prev)`` with Ed25519 (``prev``: the checkpoint before it, so none
  can be removed from between two others unseen) (key ``journal_signing.key`` 0600, public key exported to
  ``journal_signing.pub``); the newest checkpoint is also written to ``journal.head`` (outside the table), so a
  cut-off tail and a chain rebuilt without the key are found.
- A turn's ``cumulative_hash`` (:meth:`ToolJournal.turn_hash`): ``h0 = sha256("turn\\0" conversation "\\0"
  turn)``, ``h_i = sha256(h_{i-1} || row_hash_i)`` over the turn's rows in ``seq`` order. The assistant stores it
  with the conversation when a turn ends; :meth:`ToolJournal.verify` takes those as anchors.

What is not covered: rows appended after the newest checkpoint and belonging to no anchored turn can be cut
off unseen (the chain itself cannot tell a short journal from a cut one). A clean shutdown signs them, and the
server signs an unsigned tail every ``journal_checkpoint_seconds`` (:meth:`ToolJournal.sign_tail`), so after a
kill that window is at most that long.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from obsigate.domain.storage.atomic import atomic_write
from obsigate.domain.storage.private_files import ensure_private_file, load_or_create_secret, make_private_dir
from obsigate.domain.storage.read_only import connect_read_only, read_small

__all__ = [
    "GENESIS",
    "JOURNAL_FILE",
    "MAX_KEPT_RESULT_BYTES",
    "AppendedRow",
    "Finding",
    "JournalEntry",
    "ToolJournal",
    "TurnHash",
    "VerifyReport",
    "canonical_json",
    "load_public_key",
    "new_call_id",
]

JOURNAL_FILE = "journal.sqlite3"
SALT_FILE = "journal.salt"
KEY_FILE = "journal_signing.key"
PUBLIC_KEY_FILE = "journal_signing.pub"
HEAD_FILE = "journal.head"
#: ``prev_hash`` of the first row.
GENESIS = hashlib.sha256(b"obsigate tool_journal v1").hexdigest()
#: Largest result whose content is kept (when the admin enables contents); larger ones: digest (and file id) only.
MAX_KEPT_RESULT_BYTES = 64 * 1024
#: The most bytes read from ``journal_signing.pub``, ``--public-key`` or ``journal.head`` (a key is 65 bytes, a head
#: about 300): whatever is there is never read whole.
MAX_SMALL_FILE = 4096
#: Argument keys whose value is a credential: never kept, even with contents enabled.
_SECRET_ARGS = frozenset({"confirmation_token", "password", "token", "api_key"})

log = logging.getLogger("obsigate.journal")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tool_journal (
    seq INTEGER PRIMARY KEY,
    ts TEXT NOT NULL,
    kind TEXT NOT NULL,
    call_id TEXT NOT NULL,
    parent_call_id TEXT,
    user TEXT NOT NULL,
    auth_kind TEXT NOT NULL,
    front TEXT NOT NULL,
    conversation TEXT,
    turn TEXT,
    tool TEXT NOT NULL,
    action TEXT NOT NULL,
    vault TEXT,
    paths TEXT,
    proposal TEXT,
    backups TEXT,
    error_id TEXT,
    args TEXT NOT NULL,
    args_digest TEXT,
    args_content TEXT,
    outcome TEXT NOT NULL,
    duration_ms REAL NOT NULL,
    result_digest TEXT,
    result_size INTEGER,
    result_content TEXT,
    result_file_id TEXT,
    prev_hash TEXT NOT NULL,
    row_hash TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tool_journal_turn ON tool_journal(conversation, turn, seq);
CREATE INDEX IF NOT EXISTS tool_journal_user ON tool_journal(user, seq);
CREATE INDEX IF NOT EXISTS tool_journal_tool ON tool_journal(tool, seq);
CREATE TABLE IF NOT EXISTS checkpoints (
    seq INTEGER PRIMARY KEY,
    row_hash TEXT NOT NULL,
    ts TEXT NOT NULL,
    key_id TEXT NOT NULL,
    every INTEGER NOT NULL,
    prev INTEGER NOT NULL,
    signature TEXT NOT NULL
);
"""

#: The hashed columns, in table order (everything but ``prev_hash`` and ``row_hash``).
HASHED = (
    "seq", "ts", "kind", "call_id", "parent_call_id", "user", "auth_kind", "front", "conversation", "turn", "tool",
    "action", "vault", "paths", "proposal", "backups", "error_id", "args", "args_digest", "args_content", "outcome",
    "duration_ms", "result_digest", "result_size", "result_content", "result_file_id",
)  # fmt: skip
_COLUMNS = (*HASHED, "prev_hash", "row_hash")
_CHECKPOINT_COLUMNS = ("seq", "row_hash", "ts", "key_id", "every", "prev", "signature")
#: What a checkpoint's signature covers: all of it but the signature (``ts`` too: a checkpoint's time cannot be
#: moved; ``prev``, the checkpoint before it: none can be removed from between two others unseen).
_SIGNED_FIELDS = _CHECKPOINT_COLUMNS[:-1]


def _default(value: Any) -> Any:
    """What canonical JSON makes of a value JSON has no form for: bytes become their sha256 (a result's bytes are
    digested, not copied), a Pydantic model its JSON dump, anything else its ``str``."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return "sha256:" + hashlib.sha256(value).hexdigest()
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    return str(value)


def canonical_json(value: Any) -> bytes:
    """``value`` as canonical JSON bytes: keys sorted (orjson ``OPT_SORT_KEYS``), orjson's stable float format;
    what orjson cannot encode (a lone surrogate, a non-string key) falls back to ``json`` with ASCII escapes."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=_default)
    except TypeError:
        return json.dumps(value, sort_keys=True, ensure_ascii=True, default=_default, separators=(",", ":")).encode()


def new_call_id() -> str:
    """A fresh call id: 32 hex digits (uuid4), unguessable."""
    return uuid.uuid4().hex


def _clean(text: str | None) -> str | None:
    """``text`` storable as UTF-8 (a lone surrogate becomes its ``\\udxxx`` escape)."""
    if text is None:
        return None
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _json_text(value: Any) -> str | None:
    return None if value is None else _clean(json.dumps(value, ensure_ascii=False, default=str))


def row_hash(prev_hash: str, row: dict[str, Any]) -> str:
    """``sha256(prev_hash || canonical_json(the HASHED columns of row))``, hex."""
    body = canonical_json({k: row.get(k) for k in HASHED})
    return hashlib.sha256(prev_hash.encode("ascii") + body).hexdigest()


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def key_id_of(key: Ed25519PublicKey) -> str:
    """The short id a checkpoint names its key by: the first 16 hex digits of sha256(raw public key)."""
    return hashlib.sha256(key.public_bytes_raw()).hexdigest()[:16]


def load_head(path: Path) -> dict[str, Any]:
    """A copy of ``journal.head`` kept elsewhere (a signed checkpoint as JSON), read bounded like
    :func:`load_public_key`: the witness that finds a journal rolled back with its head to an earlier state.

    Raises:
        FileNotFoundError: nothing at ``path``. OSError: it cannot be read.
        ValueError: not a regular file, larger than 4 KiB, or not a JSON object with a whole ``seq``.
    """
    raw = read_small(path, MAX_SMALL_FILE)  # its own errors: not a regular file, too large
    try:
        head = json.loads(raw)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError included
        raise ValueError(f"{path} does not hold a journal head (JSON)") from None
    seq = head.get("seq") if isinstance(head, dict) else None
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**63:
        raise ValueError(f"{path} does not hold a journal head (a JSON object with its seq)")
    return head


def load_public_key(path: Path) -> Ed25519PublicKey:
    """The Ed25519 public key in ``path``: 64 hex digits (blank space around them allowed), as
    ``journal_signing.pub`` holds it. Read bounded (:func:`~obsigate.domain.storage.read_only.read_small`, at
    most :data:`MAX_SMALL_FILE` bytes): a device, FIFO or folder there is refused without being read.

    Raises:
        FileNotFoundError: nothing at ``path``. OSError: it cannot be read.
        ValueError: not a regular file, larger than 4 KiB, or not a 32-byte hex key.
    """
    raw = read_small(path, MAX_SMALL_FILE)
    try:
        return Ed25519PublicKey.from_public_bytes(bytes.fromhex(raw.decode("ascii").strip()))
    except ValueError:  # UnicodeDecodeError included
        raise ValueError(f"{path} does not hold an Ed25519 public key (64 hex digits)") from None


@dataclass(slots=True)
class JournalEntry:
    """One row to append, before ``seq``/``ts``/hashes are given to it.

    ``kind``: ``call``, ``intent`` or ``event``; ``front``: the caller's mode (``in_app``, ``mcp``, ``rest``,
    ``web``, ``cli``, ``startup``); ``conversation``/``turn``: the context's ``session_id``/``turn_id``;
    ``args``: the summarised arguments (``tools/audit.summarize_args``); ``raw_args``: the arguments themselves
    (digested; kept only with contents enabled); ``result``: the call's result (its canonical bytes are
    digested and, up to 64 KB with contents enabled, kept); ``outcome``: ``ok``, ``started`` or an error code.
    """

    user: str
    auth_kind: str
    front: str
    tool: str
    action: str
    outcome: str
    kind: str = "call"
    call_id: str = field(default_factory=new_call_id)
    parent_call_id: str | None = None
    conversation: str | None = None
    turn: str | None = None
    vault: str | None = None
    paths: list[str] | None = None
    proposal: str | None = None
    backups: list[str] | None = None
    error_id: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    raw_args: Any = None
    result: Any = None
    result_file_id: str | None = None
    duration_ms: float = 0.0


@dataclass(frozen=True, slots=True)
class AppendedRow:
    """Where a row landed: its ``seq`` and ``row_hash``."""

    seq: int
    row_hash: str


@dataclass(frozen=True, slots=True)
class TurnHash:
    """A turn's anchor: its ``rows`` (count), the ``last_seq`` of them and the ``cumulative_hash`` (hex)."""

    conversation: str
    turn: str
    rows: int
    last_seq: int
    cumulative_hash: str


@dataclass(frozen=True, slots=True)
class Finding:
    """One thing :meth:`ToolJournal.verify` found wrong: ``kind`` (``edited``, ``deleted``, ``inserted``,
    ``reordered``, ``truncated``, ``rebuilt``, ``bad_signature``, ``missing_checkpoint``, ``head_missing``,
    ``anchor_mismatch``, ``key_missing``), the first bad ``seq`` (0: none, a missing key) and a sentence."""

    kind: str
    seq: int
    message: str


@dataclass(frozen=True, slots=True)
class VerifyReport:
    """What :meth:`ToolJournal.verify` found: ``rows`` checked, ``last_seq``, the newest ``signed_seq``
    (checkpoint), ``unsigned`` rows after it (not a failure: signed at the next checkpoint or clean shutdown),
    ``findings`` (the first is the first bad row) and the time it took (``seconds``)."""

    rows: int
    last_seq: int
    signed_seq: int
    unsigned: int
    findings: list[Finding]
    seconds: float

    @property
    def ok(self) -> bool:
        return not self.findings

    @property
    def first(self) -> Finding | None:
        return self.findings[0] if self.findings else None  # the chain's own finding first: the most precise

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "ok": self.ok}


_NO_KEY = "the signatures of the checkpoints and of journal.head cannot be checked without the public key"


def _bad_signature(key: Ed25519PublicKey, signed: dict[str, Any]) -> str:
    """Why a checkpoint or head ``signed`` fails: its signature and the key, and the key it names if another."""
    ours, named = key_id_of(key), signed.get("key_id")
    other = f" (it names key {named})" if isinstance(named, str) and named != ours else ""
    return f"signature does not verify with key {ours}{other}"


def turn_chain(conversation: str, turn: str, row_hashes: Iterable[str]) -> str:
    """The cumulative hash of a turn whose rows have ``row_hashes`` (in ``seq`` order); see the module docstring."""
    h = hashlib.sha256(f"turn\0{conversation}\0{turn}".encode("utf-8", "backslashreplace")).hexdigest()
    for rh in row_hashes:
        h = hashlib.sha256((h + rh).encode("ascii")).hexdigest()
    return h


class ToolJournal:
    """The journal of one data dir (see the module docstring). Safe to use from many threads (one SQLite
    connection per thread) and many processes (``BEGIN IMMEDIATE``).

    The constructor opens it for the server: it creates what is missing (database, salt, key pair, head) and
    tightens file modes. A command that only reads uses :meth:`open_reader` instead, which changes nothing.

    Args:
        data_dir: the server's data dir (``journal.sqlite3``, ``journal.salt``, the signing key, ``journal.head``).
        checkpoint_every: sign a checkpoint every this many rows (``seq`` a multiple of it).
        keep_content: keep raw arguments and results up to 64 KB (default off: digests only).
        busy_timeout_s: how long an append waits for another writer (thread or process) before it fails.

    Raises:
        OSError, sqlite3.Error: the database or a key file cannot be created or opened.
        ValueError: a key or salt file that is not what it should be (not hex, too short, a symlink).
    """

    _salt: bytes | None  # None for a reader (open_reader): it digests and signs nothing
    _key: Ed25519PrivateKey | None

    def __init__(
        self, data_dir: Path, *, checkpoint_every: int = 1000, keep_content: bool = False, busy_timeout_s: float = 5.0
    ) -> None:
        self._setup(data_dir, checkpoint_every, keep_content, busy_timeout_s, read_only=False)
        make_private_dir(self.data_dir)
        self._salt = load_or_create_secret(self.data_dir / SALT_FILE, 32)
        self._key = Ed25519PrivateKey.from_private_bytes(load_or_create_secret(self.data_dir / KEY_FILE, 32)[:32])
        public = self._key.public_key()
        self.key_id = key_id_of(public)
        try:
            exported: Ed25519PublicKey | None = load_public_key(self.data_dir / PUBLIC_KEY_FILE)
        except (OSError, ValueError):
            exported = None  # missing or unusable: written again below
        if exported is None or exported.public_bytes_raw() != public.public_bytes_raw():
            atomic_write(self.data_dir / PUBLIC_KEY_FILE, (public.public_bytes_raw().hex() + "\n").encode(), mode=0o644)
        ensure_private_file(self.path)
        conn = self._conn()
        conn.executescript(_SCHEMA)
        if self.read_head() is None and conn.execute("SELECT 1 FROM tool_journal LIMIT 1").fetchone() is None:
            # a new journal's head names the genesis: from now on a missing head is always a finding
            atomic_write(self.data_dir / HEAD_FILE, canonical_json(self._signed(0, GENESIS, 0)) + b"\n", mode=0o600)

    def _setup(
        self, data_dir: Path, checkpoint_every: int, keep_content: bool, busy_timeout_s: float, *, read_only: bool
    ) -> None:
        """The state a writer and a reader share; a reader's salt and signing key stay ``None``."""
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / JOURNAL_FILE
        self.checkpoint_every = max(1, checkpoint_every)
        self.keep_content = keep_content
        self.busy_timeout_s = busy_timeout_s
        self.read_only = read_only
        self._salt = None
        self._key = None
        self.key_id = ""
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._head_lock = threading.Lock()
        self._head_seq = 0
        self._closed = False

    @classmethod
    def open_reader(cls, data_dir: Path, *, checkpoint_every: int = 1000, busy_timeout_s: float = 5.0) -> ToolJournal:
        """The journal of ``data_dir`` opened for reading only (``obsigate journal verify``, ``tail``, ``search``,
        ``export``): the database read-only (:func:`~obsigate.domain.storage.read_only.connect_read_only`), no salt,
        key, public key or head created or rewritten, no mode changed, nothing signed at :meth:`close`. Without the
        salt and the signing key it cannot :meth:`append`, :meth:`checkpoint` or :meth:`digest`
        (``PermissionError``); :meth:`verify` checks the signatures with ``journal_signing.pub`` or a key given.

        Args:
            data_dir: the data dir holding ``journal.sqlite3``.
            checkpoint_every: the interval :meth:`verify` expects before the journal's first checkpoint names its own.
            busy_timeout_s: how long a read waits for a writer's lock.

        Raises:
            FileNotFoundError: ``data_dir`` holds no ``journal.sqlite3`` (nothing is created).
            sqlite3.Error: it cannot be opened (unreadable).
            ValueError: it is not a tool journal: empty, not SQLite, or without the journal's tables and columns.
        """
        journal = cls.__new__(cls)
        journal._setup(data_dir, checkpoint_every, False, busy_timeout_s, read_only=True)
        if not journal.path.is_file():
            raise FileNotFoundError(f"{journal.path} is not there")
        conn = journal._conn()
        try:  # every column the readers use: an empty file, another database or an older layout is refused here
            conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM tool_journal LIMIT 0")
            conn.execute(f"SELECT {', '.join(_CHECKPOINT_COLUMNS)} FROM checkpoints LIMIT 0")
        except sqlite3.DatabaseError as exc:
            journal.close()
            raise ValueError(f"{journal.path} is not a tool journal ({exc})") from None
        return journal

    def _writer(self) -> tuple[Ed25519PrivateKey, bytes]:
        """The signing key and the salt, which only the server's journal holds.

        Raises:
            PermissionError: a reader's journal (:meth:`open_reader`).
        """
        if self._key is None or self._salt is None:
            raise PermissionError(f"the tool journal in {self.data_dir} is open for reading only")
        return self._key, self._salt

    # -- connections -------------------------------------------------------------------------------------------

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            if self.read_only:
                conn = connect_read_only(self.path, timeout=self.busy_timeout_s)
            else:
                conn = sqlite3.connect(
                    self.path, isolation_level=None, check_same_thread=False, timeout=self.busy_timeout_s
                )
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit is durable at the next checkpoint
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def set_busy_timeout(self, seconds: float) -> None:
        """Wait at most ``seconds`` for another writer from now on (every connection, open or to come)."""
        self.busy_timeout_s = seconds
        with self._lock:
            for conn in self._all:
                conn.execute(f"PRAGMA busy_timeout={int(seconds * 1000)}")

    # -- digests -----------------------------------------------------------------------------------------------

    def digest(self, data: bytes) -> str:
        """``hmac-sha256:<hex>`` of ``data`` under the journal's salt.

        Raises:
            PermissionError: a reader's journal (it does not read the salt).
        """
        return "hmac-sha256:" + hmac.new(self._writer()[1], data, hashlib.sha256).hexdigest()

    # -- append ------------------------------------------------------------------------------------------------

    def _row(self, entry: JournalEntry) -> dict[str, Any]:
        """The stored columns of ``entry`` but ``seq``, ``ts`` and the hashes (the expensive part: digests of the
        arguments and result bytes, done outside the write transaction)."""
        raw = entry.raw_args
        raw_bytes = canonical_json(raw) if raw is not None else None
        result_bytes = canonical_json(entry.result) if entry.result is not None else None
        keep = self.keep_content
        kept_args = None
        if keep and isinstance(raw, dict):
            kept_args = _clean(canonical_json({k: v for k, v in raw.items() if k not in _SECRET_ARGS}).decode())
        kept_result = None
        if keep and result_bytes is not None and len(result_bytes) <= MAX_KEPT_RESULT_BYTES:
            kept_result = _clean(result_bytes.decode("utf-8", "backslashreplace"))
        return {
            "kind": entry.kind,
            "call_id": entry.call_id,
            "parent_call_id": entry.parent_call_id,
            "user": _clean(entry.user),
            "auth_kind": entry.auth_kind,
            "front": entry.front,
            "conversation": _clean(entry.conversation),
            "turn": _clean(entry.turn),
            "tool": _clean(entry.tool),
            "action": entry.action,
            "vault": _clean(entry.vault),
            "paths": _json_text(entry.paths),
            "proposal": entry.proposal,
            "backups": _json_text(entry.backups),
            "error_id": entry.error_id,
            "args": _json_text(entry.args) or "{}",
            "args_digest": self.digest(raw_bytes) if raw_bytes is not None else None,
            "args_content": kept_args,
            "outcome": entry.outcome,
            "duration_ms": float(entry.duration_ms),
            "result_digest": self.digest(result_bytes) if result_bytes is not None else None,
            "result_size": len(result_bytes) if result_bytes is not None else None,
            "result_content": kept_result,
            "result_file_id": entry.result_file_id,
        }

    def append(self, entry: JournalEntry) -> AppendedRow:
        """Append ``entry`` as the next row of the chain (and a signed checkpoint when its ``seq`` is a multiple
        of ``checkpoint_every``), committed before returning.

        Raises:
            sqlite3.Error, OSError: the row could not be written (read-only file, full disk, a reader's journal:
                ``PermissionError``): nothing was.
        """
        self._writer()
        row = self._row(entry)
        conn = self._conn()
        checkpoint = None
        conn.execute("BEGIN IMMEDIATE")
        try:
            last = conn.execute("SELECT seq, row_hash FROM tool_journal ORDER BY seq DESC LIMIT 1").fetchone()
            seq, prev = (last[0] + 1, last[1]) if last else (1, GENESIS)
            row["seq"], row["ts"] = seq, _now()
            row["prev_hash"] = prev
            row["row_hash"] = row_hash(prev, row)
            conn.execute(
                f"INSERT INTO tool_journal ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})",
                [row[c] for c in _COLUMNS],
            )
            if seq % self.checkpoint_every == 0:
                checkpoint = self._insert_checkpoint(conn, seq, row["row_hash"])
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if checkpoint is not None:
            self._write_head(checkpoint)
        return AppendedRow(seq, row["row_hash"])

    def _signed(self, seq: int, rh: str, prev: int) -> dict[str, Any]:
        """A checkpoint of row ``seq`` (hash ``rh``) following the checkpoint at ``prev`` (0: none), signed over
        every field (:data:`_SIGNED_FIELDS`); ``every`` is the interval in force, so verify knows where the next
        one is due even after the setting changed."""
        cp: dict[str, Any] = {
            "seq": seq, "row_hash": rh, "ts": _now(), "key_id": self.key_id, "every": self.checkpoint_every,
            "prev": prev,
        }  # fmt: skip
        cp["signature"] = self._writer()[0].sign(canonical_json(cp)).hex()
        return cp

    def _insert_checkpoint(self, conn: sqlite3.Connection, seq: int, rh: str) -> dict[str, Any]:
        """Sign row ``seq`` in ``conn``'s transaction (replacing a checkpoint of another interval or key there)."""
        prev = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM checkpoints WHERE seq < ?", (seq,)).fetchone()[0]
        cp = self._signed(seq, rh, prev)
        conn.execute(
            f"INSERT OR REPLACE INTO checkpoints ({', '.join(_CHECKPOINT_COLUMNS)}) "
            f"VALUES ({', '.join('?' * len(_CHECKPOINT_COLUMNS))})",
            [cp[c] for c in _CHECKPOINT_COLUMNS],
        )
        return cp

    def _write_head(self, checkpoint: dict[str, Any]) -> None:
        """Write ``journal.head`` (the newest checkpoint, outside the table) unless a newer one was written."""
        with self._head_lock:
            if checkpoint["seq"] <= self._head_seq:
                return
            try:
                atomic_write(self.data_dir / HEAD_FILE, canonical_json(checkpoint) + b"\n", mode=0o600)
                self._head_seq = checkpoint["seq"]
            except OSError as exc:  # the signed checkpoint row is in the table; the head is the extra copy
                log.warning("journal head not written: %s", exc)

    def checkpoint(self) -> dict[str, Any] | None:
        """Sign the newest row now (again if a checkpoint of another interval covers it) and update
        ``journal.head``; ``None``: empty journal. Called at start (the interval in force from then on) and at a
        clean shutdown.

        Raises:
            sqlite3.Error, OSError: the checkpoint could not be written (a reader's journal: ``PermissionError``).
        """
        self._writer()
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            last = conn.execute("SELECT seq, row_hash FROM tool_journal ORDER BY seq DESC LIMIT 1").fetchone()
            if last is None:
                conn.execute("ROLLBACK")
                return None
            names = _CHECKPOINT_COLUMNS
            found = conn.execute(f"SELECT {', '.join(names)} FROM checkpoints WHERE seq = ?", (last[0],)).fetchone()
            cp = dict(zip(names, found, strict=True)) if found else None
            if cp is None or cp["every"] != self.checkpoint_every or cp["key_id"] != self.key_id:
                cp = self._insert_checkpoint(conn, last[0], last[1])
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self._write_head(cp)
        return cp

    def sign_tail(self) -> dict[str, Any] | None:
        """Sign the newest row when no checkpoint this process wrote covers it yet (:meth:`checkpoint`); ``None``
        when there was nothing to sign. The server calls it on a timer, so an unsigned tail lasts seconds, not
        until the next ``checkpoint_every`` rows.

        Raises:
            sqlite3.Error, OSError: as :meth:`checkpoint`.
        """
        last = self._conn().execute("SELECT MAX(seq) FROM tool_journal").fetchone()[0]
        if last is None or last <= self._head_seq:
            return None
        return self.checkpoint()

    def close(self, *, sign: bool = True) -> None:
        """Sign the tail (:meth:`checkpoint`, its failure logged; not with ``sign=False``, nor for a reader's
        journal) and close every connection."""
        if self._closed:
            return
        self._closed = True
        try:
            if sign and not self.read_only:
                self.checkpoint()
        except (sqlite3.Error, OSError) as exc:
            log.warning("journal: no checkpoint at shutdown: %s", exc)
        with self._lock:
            for conn in self._all:
                try:
                    conn.close()
                except sqlite3.Error:
                    pass
            self._all.clear()
        self._local = threading.local()

    # -- reading -----------------------------------------------------------------------------------------------

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[dict[str, Any]]:
        cur = self._conn().execute(sql, tuple(params))
        names = [d[0] for d in cur.description]
        return [dict(zip(names, r, strict=True)) for r in cur.fetchall()]

    @staticmethod
    def record(row: dict[str, Any]) -> dict[str, Any]:
        """A stored row as a reader wants it: lists decoded, plus the audit log's old names (``mode`` = front,
        ``result`` = outcome, ``session`` = conversation) so its readers keep working."""
        out = dict(row)
        for key in ("paths", "backups", "args"):
            if isinstance(out.get(key), str):
                out[key] = json.loads(out[key])
        out["mode"], out["result"], out["session"] = out["front"], out["outcome"], out["conversation"]
        return out

    def tail(self, n: int = 50, *, kind: str | None = "call") -> list[dict[str, Any]]:
        """The last ``n`` rows of ``kind`` (``None``: every kind), oldest first, as :meth:`record`."""
        where = "WHERE kind = ?" if kind else ""
        params: list[Any] = [kind] if kind else []
        rows = self._rows(f"SELECT * FROM tool_journal {where} ORDER BY seq DESC LIMIT ?", [*params, n])
        return [self.record(r) for r in reversed(rows)]

    def search(
        self,
        *,
        user: str | None = None,
        tool: str | None = None,
        since: str | None = None,
        outcome: str | None = None,
        conversation: str | None = None,
        kind: str | None = "call",
        limit: int = 100,
    ) -> list[dict[str, Any]]:
        """Rows matching every given filter (``since``: an ISO 8601 UTC time, rows at or after it), newest
        ``limit`` of them, oldest first."""
        clauses, params = [], []
        for col, value in (("user", user), ("tool", tool), ("outcome", outcome), ("conversation", conversation)):
            if value is not None:
                clauses.append(f"{col} = ?")
                params.append(value)
        if kind:
            clauses.append("kind = ?")
            params.append(kind)
        if since:
            clauses.append("ts >= ?")
            params.append(since)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        rows = self._rows(f"SELECT * FROM tool_journal {where} ORDER BY seq DESC LIMIT ?", [*params, limit])
        return [self.record(r) for r in reversed(rows)]

    def count(self, kind: str | None = "call") -> int:
        """How many rows (of ``kind``; ``None``: all) the journal holds."""
        sql = "SELECT COUNT(*) FROM tool_journal" + (" WHERE kind = ?" if kind else "")
        return int(self._conn().execute(sql, (kind,) if kind else ()).fetchone()[0])

    def iter_rows(self, batch: int = 5000) -> Iterator[dict[str, Any]]:
        """Every row in ``seq`` order, read in batches."""
        last = -1
        while True:
            rows = self._rows("SELECT * FROM tool_journal WHERE seq > ? ORDER BY seq LIMIT ?", (last, batch))
            if not rows:
                return
            yield from rows
            last = rows[-1]["seq"]

    def turn_hash(self, conversation: str, turn: str) -> TurnHash | None:
        """The anchor of ``conversation``'s ``turn`` (``None``: it made no call)."""
        rows = (
            self._conn()
            .execute(
                "SELECT seq, row_hash FROM tool_journal WHERE conversation = ? AND turn = ? ORDER BY seq",
                (conversation, turn),
            )
            .fetchall()
        )
        if not rows:
            return None
        return TurnHash(
            conversation, turn, len(rows), rows[-1][0], turn_chain(conversation, turn, [r[1] for r in rows])
        )

    # -- verify ------------------------------------------------------------------------------------------------

    def public_key(self) -> Ed25519PublicKey:
        """The key that checks this journal's signatures: the signing key's own for the server's journal, the data
        dir's ``journal_signing.pub`` (:func:`load_public_key`, read bounded) for a reader's.

        Raises:
            FileNotFoundError: a reader's data dir holds no ``journal_signing.pub``.
            OSError, ValueError: it cannot be read or holds no key.
        """
        if self._key is not None:
            return self._key.public_key()
        return load_public_key(self.data_dir / PUBLIC_KEY_FILE)

    def read_head(self) -> dict[str, Any] | None:
        """``journal.head`` as written (``None``: absent, unreadable, larger than 4 KiB or not a JSON object)."""
        try:
            data = json.loads(read_small(self.data_dir / HEAD_FILE, MAX_SMALL_FILE))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def verify(
        self,
        anchors: Iterable[TurnHash] = (),
        *,
        public_key: Ed25519PublicKey | None = None,
        kept_heads: Iterable[dict[str, Any]] = (),
    ) -> VerifyReport:
        """Check the whole journal: the chain row by row, every checkpoint's signature (with ``public_key``, by
        default :meth:`public_key`) and that a checkpoint exists at every multiple of ``checkpoint_every``, the
        head file, each anchor (a turn's stored ``cumulative_hash``) and each of ``kept_heads`` (copies of
        ``journal.head`` kept elsewhere, :func:`load_head`: rows cut with their checkpoints and the head rolled
        back to an earlier signed one are found only against such a copy). Reads only.

        The first bad row is named by the first finding (``report.first``): a row whose fields no longer give
        its hash (``edited``), a row whose ``prev_hash`` names no row (``deleted``: the row before it is gone),
        names an earlier row (``inserted``: the rows in between were added) or a later one (``reordered``),
        a gap in ``seq`` (``deleted``), rows missing at the end (``truncated``: the head, a checkpoint or an
        anchor names a ``seq`` past the last row), a consistent chain that no longer matches a validly signed
        checkpoint or head, or lacks a checkpoint that was due (``rebuilt``: rehashed without the key; the first
        bad row is after the previous good checkpoint).

        Findings that blame no row come after those: a checkpoint or head whose signature does not verify with
        the key (``bad_signature``, its ``seq``: the signature, the checkpoint's columns or the key were changed,
        which a signature cannot tell apart) and a reader's missing or unusable ``journal_signing.pub``
        (``key_missing``, seq 0: the chain and anchors are checked, the signatures are not).

        Raises:
            sqlite3.Error: the database cannot be read.
        """
        started = time.perf_counter()
        findings: list[Finding] = []
        key = public_key
        if key is None:
            try:
                key = self.public_key()
            except FileNotFoundError:
                findings.append(
                    Finding("key_missing", 0, f"{PUBLIC_KEY_FILE} is missing from {self.data_dir}: " + _NO_KEY)
                )
            except (OSError, ValueError) as exc:
                findings.append(Finding("key_missing", 0, f"{PUBLIC_KEY_FILE} cannot be used ({exc}): " + _NO_KEY))
        hashes: dict[int, str] = {}
        prev, expected, rows, last_seq = GENESIS, 1, 0, 0
        chain_broken = False
        for row in self.iter_rows():
            rows += 1
            seq = row["seq"]
            last_seq = seq
            hashes[seq] = row["row_hash"]
            if not chain_broken:
                if seq != expected:
                    findings.append(Finding("deleted", expected, f"seq {expected} is missing (next row is {seq})"))
                    chain_broken = True
                elif row["prev_hash"] != prev:
                    findings.append(self._link_finding(row, seq))
                    chain_broken = True
                elif row_hash(row["prev_hash"], row) != row["row_hash"]:
                    findings.append(Finding("edited", seq, f"row {seq} was changed after it was written"))
                    chain_broken = True
            prev, expected = row["row_hash"], seq + 1
        signed = 0 if key is None else self._check_checkpoints(key, hashes, last_seq, findings)
        head = self.read_head()
        if key is None:
            pass  # without the public key the head proves nothing: key_missing says so
        elif head is None:
            if last_seq:  # every journal is born with a head (the genesis): removing it hides a cut tail
                findings.append(Finding("head_missing", signed + 1, f"{HEAD_FILE} is missing or unreadable"))
        elif found := self._head_findings(key, head, HEAD_FILE, hashes, last_seq, signed):
            findings.extend(found)
        elif head["seq"] and not self._rows("SELECT seq FROM checkpoints WHERE seq = ?", [head["seq"]]):
            findings.append(
                Finding("deleted", head["seq"], f"the checkpoint at {head['seq']} that {HEAD_FILE} names is gone")
            )
        for kept in kept_heads:
            if key is not None:
                findings.extend(self._head_findings(key, kept, "the kept head", hashes, last_seq, signed))
        for anchor in anchors:
            if anchor.last_seq > last_seq:
                findings.append(
                    Finding(
                        "truncated", last_seq + 1, f"turn {anchor.turn} ended at seq {anchor.last_seq}, past the end"
                    )
                )
                continue
            got = self.turn_hash(anchor.conversation, anchor.turn)
            if got is None or got.cumulative_hash != anchor.cumulative_hash:
                findings.append(
                    Finding(
                        "anchor_mismatch",
                        self._first_seq_of(anchor) or anchor.last_seq,
                        f"turn {anchor.turn} of {anchor.conversation} no longer matches its stored cumulative hash",
                    )
                )
        # the findings that name rows first: a bad signature alone cannot tell whether the rows were changed
        findings.sort(key=lambda f: f.kind in ("bad_signature", "key_missing"))
        unsigned = max(0, last_seq - signed)
        return VerifyReport(rows, last_seq, signed, unsigned, findings, round(time.perf_counter() - started, 3))

    def _head_findings(
        self, key: Ed25519PublicKey, head: dict[str, Any], name: str, hashes: dict[int, str], last_seq: int, signed: int
    ) -> list[Finding]:
        """What is wrong with the signed checkpoint ``head`` (``name`` says which copy) against the rows: its
        signature, a genesis that is none, rows cut after it (``truncated``) or rehashed (``rebuilt``)."""
        seq = head.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or not self._signature_ok(key, head):
            at = seq if isinstance(seq, int) and not isinstance(seq, bool) else 0
            return [Finding("bad_signature", at, f"{name} (seq {at}): " + _bad_signature(key, head))]
        if seq == 0:
            return [] if head.get("row_hash") == GENESIS else [Finding("bad_signature", 0, f"{name} names no genesis")]
        if seq > last_seq:
            return [Finding("truncated", last_seq + 1, f"rows after {last_seq} are missing ({name} signed {seq})")]
        if hashes.get(seq) != head["row_hash"]:
            return [self._rebuilt(seq, signed if signed < seq else 0)]
        return []

    def _first_seq_of(self, anchor: TurnHash) -> int | None:
        got = (
            self._conn()
            .execute(
                "SELECT MIN(seq) FROM tool_journal WHERE conversation = ? AND turn = ?",
                (anchor.conversation, anchor.turn),
            )
            .fetchone()
        )
        return got[0] if got else None

    def _link_finding(self, row: dict[str, Any], seq: int) -> Finding:
        """Why ``row`` (at ``seq``) does not follow the row before it: its ``prev_hash`` names no row (one was
        deleted), an earlier row (the rows in between were inserted) or a later one (rows were reordered)."""
        found = self._conn().execute("SELECT seq FROM tool_journal WHERE row_hash = ?", (row["prev_hash"],)).fetchone()
        target = found[0] if found else None
        if target is not None and target < seq - 1:
            first = target + 1
            return Finding("inserted", first, f"rows {first}..{seq - 1} were inserted (row {seq} follows {target})")
        if target is not None and target > seq:
            return Finding("reordered", seq, f"row {seq} follows row {target}: rows were moved")
        return Finding("deleted", seq, f"row {seq} does not follow row {seq - 1}: a row before it was removed")

    def _signature_ok(self, key: Ed25519PublicKey, cp: dict[str, Any]) -> bool:
        try:
            body = canonical_json({f: cp[f] for f in _SIGNED_FIELDS})
            key.verify(bytes.fromhex(cp["signature"]), body)
        except (InvalidSignature, KeyError, ValueError, TypeError):
            return False
        return True

    def _check_checkpoints(
        self, key: Ed25519PublicKey, hashes: dict[int, str], last_seq: int, findings: list[Finding]
    ) -> int:
        """Check every checkpoint row; return the newest good one's ``seq`` (0: none). A checkpoint is due at each
        multiple of the interval the previous checkpoint was signed with (the first one's own before it; the configured
        one when there is none)."""
        good = 0
        every = self.checkpoint_every
        due = every
        before = 0  # the seq of the checkpoint row before this one (0: none)
        for cp in self._rows("SELECT * FROM checkpoints ORDER BY seq"):
            seq = cp["seq"]
            signed = self._signature_ok(key, cp)
            if not good and not before and signed:  # the first one was due at its own interval
                due = max(1, int(cp["every"]))
            named = int(cp["prev"]) if signed else before  # the checkpoint it follows, as it was signed
            if due < seq and due <= last_seq and not named > before:  # a due one is missing, and no deletion says why
                findings.append(self._rebuilt(due, good, f"the checkpoint due at {due} is missing"))
                return good
            if not signed:  # the rows may be intact: it is the checkpoint that fails
                findings.append(Finding("bad_signature", seq, f"checkpoint at seq {seq}: " + _bad_signature(key, cp)))
                return good
            if named > before:  # checkpoints were removed from between two: the rows they signed are still vouched for
                first = due if before < due < seq else named
                why = f"the checkpoint at {first} is gone: {seq} was signed after {named}, the table goes from {before}"
                findings.append(Finding("deleted", first, why))
            elif named < before:  # a checkpoint row that was not there when this one was signed
                findings.append(Finding("inserted", before, f"checkpoint {before} was not there when {seq} was signed"))
                return good
            before = seq
            if seq > last_seq:
                findings.append(
                    Finding("truncated", last_seq + 1, f"rows after {last_seq} are missing (signed checkpoint: {seq})")
                )
                return good
            if hashes.get(seq) != cp["row_hash"]:
                findings.append(self._rebuilt(seq, good))
                return good
            good = seq
            every = max(1, int(cp["every"]))
            due = (seq // every + 1) * every
        if due <= last_seq:
            findings.append(self._rebuilt(due, good, f"the checkpoint due at {due} is missing"))
        return good

    @staticmethod
    def _rebuilt(seq: int, good: int, why: str | None = None) -> Finding:
        """A chain rehashed after the good checkpoint at ``good`` (0: none) up to ``seq``, ``why`` said first."""
        return Finding(
            "rebuilt",
            good + 1,
            (why or f"row {seq} differs from its signed checkpoint")
            + f": rows {good + 1}..{seq} were changed and the chain rehashed",
        )
