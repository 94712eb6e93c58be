"""Each user's file space (issue 21 item 2; the ECHO seed's "Espace Personnel"): artifacts tools make and files
a person uploads, each named by a ``file_id``, so a later turn or tool names the file and never sends its bytes again.

Where things live:

* the bytes: ``<data-dir>/users/<user>/files/<file_id>`` (``domain/storage/user_space.user_dir``: folders
  ``0700``, no symlink followed), written crash-safe and ``0600`` (``atomic_write_at`` on the folder's
  descriptor, ``exclusive``: a name is never reused), read with ``O_NOFOLLOW``;
* the metadata: ``<data-dir>/files.sqlite3`` (WAL, ``secure_delete=ON`` so a deleted row's bytes are zeroed, not
  left in a free page), one row per file (:class:`FileRecord`).

``file_id`` is the seed's ``U_{uid}_C_{cid}_T_{timestamp}`` (user, conversation or ``none``, Unix time in
microseconds) plus ``_`` and 22 characters of ``secrets.token_urlsafe`` (128 random bits): unique per user,
conversation and instant, and never guessable. An id received from outside must match :data:`FILE_ID_RE`
(so ``/``, ``..`` or NUL can never reach a path) and belong to the caller: any other id, another user's
included, is ``not_found`` (never ``forbidden``: a file's existence is not revealed).

The MIME type is sniffed from the bytes (``filetype``'s magic numbers), never taken from the caller: bytes
it does not know are ``text/plain`` when they are UTF-8 text without NUL (``text/markdown``, ``text/csv`` or
``application/json`` when the name says so), else ``application/octet-stream``. So an HTML or SVG upload is
stored as ``text/plain``, and nothing the space serves can run as a page of this origin.

Limits (``config.py``): one file at most ``max_bytes`` (``OBSIGATE_FILES_MAX_BYTES``, ``file_too_large``,
413), a user's files at most ``quota_bytes`` in all (``OBSIGATE_FILES_QUOTA_BYTES``, ``quota_exceeded``, 507
as RFC 4331 §6 answers a quota: nothing is stored). Lifetime: a file made in a conversation (every tool
artifact, and an upload attached to a conversation) expires ``ttl_s`` after its last use
(``OBSIGATE_FILES_TTL``, default 24 h; reading it is a use); a person's own upload outside a conversation is
kept until they delete it. :meth:`FileSpace.expire` deletes what expired (the server runs it at start and
every few minutes); :meth:`FileSpace.delete` removes the bytes, the row (zeroed), checkpoints the WAL and calls
every registered cache hook (:meth:`FileSpace.on_delete`).
"""

from __future__ import annotations

import builtins
import hashlib
import logging
import os
import re
import secrets
import sqlite3
import stat
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from obsigate.domain.media_type import sniffed_type
from obsigate.domain.storage.atomic import atomic_write_at, is_atomic_temp, remove_stale_temps
from obsigate.domain.storage.private_files import ensure_private_file
from obsigate.domain.storage.user_space import USERS_DIR, UnsafeUserName, user_dir
from obsigate.services.errors import BadRequest, NotFound, PayloadTooLarge, ServiceError

log = logging.getLogger("obsigate.files")

__all__ = [
    "CONVERSATION_ID_RE", "DEFAULT_MAX_BYTES", "DEFAULT_QUOTA_BYTES", "DEFAULT_TTL_S", "FILES_DB", "FILE_ID_RE",
    "FILE_URI_PREFIX", "FileRecord", "FileSpace", "Origin", "file_uri", "is_conversation_id", "is_file_id",
    "sniff_mime",
]  # fmt: skip

FILES_DB = "files.sqlite3"
FILES_DIR = "files"
DEFAULT_MAX_BYTES = 32 * 1024 * 1024
DEFAULT_QUOTA_BYTES = 512 * 1024 * 1024
DEFAULT_TTL_S = 24 * 3600
#: The URI of a file of the space: MCP ``resources/read`` and the ``resource_link`` blocks of tool results.
FILE_URI_PREFIX = "obsigate://files/"
#: A well-formed id: ``U_<user>_C_<conversation|none>_T_<µs since the epoch>_<22 random url-safe characters>``.
FILE_ID_RE = re.compile(r"U_[A-Za-z0-9_.-]{1,64}_C_[A-Za-z0-9-]{1,40}_T_[0-9]{10,17}_[A-Za-z0-9_-]{22}")
#: A conversation id a person may name (REST ``POST /api/files``): a plain token. The assistant's ids (uuid4 hex),
#: MCP session ids (uuid4 hex) and stdio sessions (``stdio-<12 hex>``) all are.
CONVERSATION_ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: Text types a name may choose for bytes that are UTF-8 text; any other text is ``text/plain``.
_TEXT_BY_SUFFIX = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".csv": "text/csv",
    ".json": "application/json",
}
_CID_UNSAFE = re.compile(r"[^A-Za-z0-9-]+")
_NAME_MAX = 255
_OPEN_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_ORPHAN_AGE_S = 3600.0  # a blob without a row younger than this may be a put in flight in another process

Origin = Literal["upload", "tool"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
    file_id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    name TEXT NOT NULL,
    mime_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    created_at REAL NOT NULL,
    last_used_at REAL NOT NULL,
    expires_at REAL,
    created_by_tool TEXT,
    conversation TEXT,
    turn TEXT,
    journal_seq INTEGER,
    origin TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS files_user ON files(user, created_at);
CREATE INDEX IF NOT EXISTS files_expiry ON files(expires_at) WHERE expires_at IS NOT NULL;
"""


def _iso(ts: float | None) -> str | None:
    return None if ts is None else datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One file of a user's space. Times are Unix seconds (UTC); ``expires_at`` ``None``: kept until deleted.
    ``created_by_tool``: the tool that made it (``None`` for an upload); ``conversation``/``turn``: where it was
    made; ``journal_seq``: its tool call's row in the tool journal, once that is known."""

    file_id: str
    user: str
    name: str
    mime_type: str
    size: int
    sha256: str
    created_at: float
    last_used_at: float
    expires_at: float | None
    created_by_tool: str | None
    conversation: str | None
    turn: str | None
    journal_seq: int | None
    origin: str

    @property
    def uri(self) -> str:
        """``obsigate://files/<file_id>``."""
        return file_uri(self.file_id)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: every field but ``user`` (the caller is the owner), times as ISO 8601 UTC, plus ``uri``."""
        out = asdict(self)
        del out["user"]
        for key in ("created_at", "last_used_at", "expires_at"):
            out[key] = _iso(out[key])
        out["uri"] = self.uri
        return out


def file_uri(file_id: str) -> str:
    """The ``obsigate://files/<file_id>`` URI of a file."""
    return f"{FILE_URI_PREFIX}{file_id}"


def is_file_id(value: object) -> bool:
    """Whether ``value`` is a well-formed file id (:data:`FILE_ID_RE`); says nothing of whether it exists."""
    return isinstance(value, str) and len(value) <= 200 and FILE_ID_RE.fullmatch(value) is not None


def sniff_mime(data: bytes, name: str = "") -> str:
    """The MIME type of ``data`` from its bytes (see the module docstring); ``name`` only picks a text subtype."""
    kind = sniffed_type(data)
    if kind is not None:
        return kind
    if b"\x00" not in data:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return "application/octet-stream"
        return _TEXT_BY_SUFFIX.get(Path(name).suffix.lower(), "text/plain")
    return "application/octet-stream"


def is_conversation_id(value: object) -> bool:
    """Whether ``value`` is a plain conversation token (:data:`CONVERSATION_ID_RE`)."""
    return isinstance(value, str) and CONVERSATION_ID_RE.fullmatch(value) is not None


def clean_name(name: str | None) -> str:
    """A display name: the last segment of ``name``, control and format characters dropped, NFC, at most 255
    characters (a longer one keeps its extension); ``"file"`` when nothing is left. It is metadata only, never
    part of a path."""
    text = unicodedata.normalize("NFC", (name or "").replace("\\", "/").rsplit("/", 1)[-1])
    text = "".join(c for c in text if unicodedata.category(c)[0] != "C").strip()
    if len(text) > _NAME_MAX:
        stem, dot, ext = text.rpartition(".")
        keep = f".{ext}" if dot and stem and 0 < len(ext) <= 16 else ""
        text = text[: _NAME_MAX - len(keep)] + keep
    return text or "file"


def _cid(conversation: str | None) -> str:
    """The ``C_`` part of a file id: ``none``, the token itself (``_`` made ``-``, at most 40 characters), or
    for any other id (a client's odd ``Mcp-Session-Id``) ``h-`` and 32 hex digits of its SHA-256: never refused."""
    if not conversation:
        return "none"
    if not is_conversation_id(conversation):
        return "h-" + hashlib.sha256(conversation.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return _CID_UNSAFE.sub("-", conversation).strip("-")[:40] or "none"


def _uid(user: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "-", user)[:64] or "-"


class FileSpace:
    """Every user's file space over one data dir: :meth:`put`, :meth:`get`, :meth:`read`, :meth:`list`,
    :meth:`delete`, :meth:`touch`, :meth:`expire`. Safe to call from several threads (one SQLite connection
    behind a lock; transactions ``BEGIN IMMEDIATE``, so other processes on the same file wait their turn).

    Args:
        data_dir: the server's data dir (resolved); ``files.sqlite3`` and ``users/`` live there.
        max_bytes: the largest file; quota_bytes: a user's files in all; ttl_s: a session file's life after its
            last use.
        clock: Unix seconds now (tests inject time).

    Raises:
        OSError, sqlite3.Error: the database cannot be opened (a symlink at its path: ``ELOOP``).
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        max_bytes: int = DEFAULT_MAX_BYTES,
        quota_bytes: int = DEFAULT_QUOTA_BYTES,
        ttl_s: float = DEFAULT_TTL_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.data_dir = Path(data_dir)
        self.max_bytes = max_bytes
        self.quota_bytes = quota_bytes
        self.ttl_s = ttl_s
        self.clock = clock
        self.path = self.data_dir / FILES_DB
        self._lock = threading.RLock()
        self._hooks: list[Callable[[str, str], object]] = []
        ensure_private_file(self.path)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=10)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA secure_delete=ON")  # a deleted row's bytes are zeroed, not left in a free page
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    # -- writing -----------------------------------------------------------------------------------------------

    def put(
        self,
        user: str,
        data: bytes,
        *,
        name: str | None,
        mime_type: str | None = None,
        conversation: str | None = None,
        turn: str | None = None,
        tool: str | None = None,
        origin: Origin = "tool",
    ) -> FileRecord:
        """Store ``data`` as a new file of ``user`` and return its record.

        Args:
            name: the display name (cleaned: :func:`clean_name`).
            mime_type: the type the caller declares: ignored (the bytes decide, :func:`sniff_mime`); kept in the
                signature so callers can pass what they were told without trusting it.
            conversation, turn: where it was made (a file with a conversation, and every tool artifact, expires
                ``ttl_s`` after its last use; an upload without one is kept until deleted).
            tool: the tool that made it; origin: ``"upload"`` (a person's) or ``"tool"``.

        Raises:
            PayloadTooLarge: ``file_too_large`` (over ``max_bytes``), ``quota_exceeded`` (the user's files would
                pass ``quota_bytes``); nothing is stored.
            BadRequest: ``origin`` is neither, or the user name cannot name a folder.
            OSError: the disk refused the write (nothing is left behind).
        """
        del mime_type  # never trusted: see sniff_mime
        if origin not in ("upload", "tool"):
            raise BadRequest(f"origin must be 'upload' or 'tool', not {origin!r}")
        size = len(data)
        if size > self.max_bytes:
            raise PayloadTooLarge(
                f"the file is {size} bytes; the most a file may hold is {self.max_bytes}",
                code="file_too_large", details={"size": size, "max_bytes": self.max_bytes},
            )  # fmt: skip
        self._check_quota(user, size)
        now = self.clock()
        shown = clean_name(name)
        record = FileRecord(
            file_id=f"U_{_uid(user)}_C_{_cid(conversation)}_T_{int(now * 1_000_000)}_{secrets.token_urlsafe(16)}",
            user=user, name=shown, mime_type=sniff_mime(data, shown), size=size,
            sha256=hashlib.sha256(data).hexdigest(), created_at=now, last_used_at=now,
            expires_at=now + self.ttl_s if (conversation or origin == "tool") else None, created_by_tool=tool,
            conversation=conversation, turn=turn, journal_seq=None, origin=origin,
        )  # fmt: skip
        with self._folder(user) as dir_fd:
            atomic_write_at(dir_fd, record.file_id, data, exclusive=True, mode=0o600)
            try:
                with self._write():
                    self._check_quota(user, size)  # again, inside the transaction: two puts cannot both pass
                    self._db.execute(
                        "INSERT INTO files VALUES (:file_id, :user, :name, :mime_type, :size, :sha256, :created_at, "
                        ":last_used_at, :expires_at, :created_by_tool, :conversation, :turn, :journal_seq, :origin)",
                        asdict(record),
                    )
            except BaseException:
                _unlink(dir_fd, record.file_id)
                raise
        return record

    def _check_quota(self, user: str, size: int) -> None:
        used = self.used_bytes(user)
        if used + size > self.quota_bytes:
            raise PayloadTooLarge(
                f"your files hold {used} bytes; {size} more would pass your quota of {self.quota_bytes}",
                code="quota_exceeded", hint="delete files you no longer need",
                details={"used_bytes": used, "size": size, "quota_bytes": self.quota_bytes},
            )  # fmt: skip

    def set_journal_seq(self, user: str, file_id: str, seq: int) -> None:
        """Record the tool journal's row of the call that made the file (the journal calls it once it knows)."""
        with self._write():
            self._db.execute("UPDATE files SET journal_seq=? WHERE file_id=? AND user=?", (seq, file_id, user))

    # -- reading -----------------------------------------------------------------------------------------------

    def exists(self, user: str, file_id: str) -> bool:
        """Whether ``user`` has the (unexpired) file ``file_id``; never raises for a bad id."""
        try:
            self.get(user, file_id)
        except NotFound:
            return False
        return True

    def get(self, user: str, file_id: str, *, touch: bool = False) -> FileRecord:
        """The record of ``user``'s file ``file_id``; ``touch``: count this as a use (:meth:`touch`).

        Raises:
            NotFound: a malformed id, another user's, an expired or deleted one (all alike).
        """
        if not is_file_id(file_id):
            raise _missing(file_id)
        with self._lock:
            row = self._db.execute("SELECT * FROM files WHERE file_id=? AND user=?", (file_id, user)).fetchone()
        if row is None or (row["expires_at"] is not None and row["expires_at"] <= self.clock()):
            raise _missing(file_id)
        record = FileRecord(**dict(row))
        return self.touch(user, file_id) if touch else record

    def read(self, user: str, file_id: str) -> tuple[FileRecord, bytes]:
        """``user``'s file ``file_id`` and its bytes (a use: its expiry moves on).

        Raises:
            NotFound: as :meth:`get`, or its bytes are gone (or were replaced by something not a regular file).
        """
        record = self.get(user, file_id, touch=True)
        try:
            with self._folder(user) as dir_fd:  # the whole path checked: no symlink anywhere below the data dir
                fd = os.open(file_id, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, dir_fd=dir_fd)
                try:
                    if not stat.S_ISREG(os.fstat(fd).st_mode):
                        raise _missing(file_id)
                    with os.fdopen(fd, "rb", closefd=False) as f:
                        data = f.read(self.max_bytes + 1)
                finally:
                    os.close(fd)
        except OSError:
            raise _missing(file_id) from None
        return record, data

    def list(
        self, user: str, *, conversation: str | None = None, limit: int = 100, offset: int = 0
    ) -> tuple[builtins.list[FileRecord], int]:
        """``(records, total)``: ``user``'s live files, newest first (``conversation``: only that one's)."""
        where, params = "user=? AND (expires_at IS NULL OR expires_at > ?)", [user, self.clock()]
        if conversation is not None:
            where += " AND conversation=?"
            params.append(conversation)
        with self._lock:
            total = self._db.execute(f"SELECT count(*) FROM files WHERE {where}", params).fetchone()[0]
            rows = self._db.execute(
                f"SELECT * FROM files WHERE {where} ORDER BY created_at DESC, file_id LIMIT ? OFFSET ?",
                [*params, limit, offset],
            ).fetchall()
        return [FileRecord(**dict(r)) for r in rows], total

    def used_bytes(self, user: str) -> int:
        """The bytes ``user``'s files hold (what the quota counts; expired files not yet swept included)."""
        with self._lock:
            return int(self._db.execute("SELECT coalesce(sum(size), 0) FROM files WHERE user=?", (user,)).fetchone()[0])

    def touch(self, user: str, file_id: str) -> FileRecord:
        """Count a use of the file now: ``last_used_at`` = now and, for a file that expires, ``expires_at`` =
        now + ``ttl_s``. Returns the updated record.

        Raises:
            NotFound: as :meth:`get`.
        """
        record = self.get(user, file_id)
        now = self.clock()
        expires = None if record.expires_at is None else now + self.ttl_s
        with self._write():
            self._db.execute(
                "UPDATE files SET last_used_at=?, expires_at=? WHERE file_id=? AND user=?",
                (now, expires, file_id, user),
            )
        return FileRecord(**{**asdict(record), "last_used_at": now, "expires_at": expires})

    # -- removing ----------------------------------------------------------------------------------------------

    def on_delete(self, hook: Callable[[str, str], object]) -> None:
        """Call ``hook(user, file_id)`` after each file is deleted or expires: a cache of derived data (a
        downscaled image, a text extract) drops its copy there."""
        self._hooks.append(hook)

    def delete(self, user: str, file_id: str) -> FileRecord:
        """Delete ``user``'s file: its bytes, its row (zeroed, the WAL checkpointed) and every cache's copy.
        Returns the record it had.

        Raises:
            NotFound: as :meth:`get` (an expired file counts as gone).
        """
        record = self.get(user, file_id)
        self._remove([(user, file_id)])
        return record

    def expire(self, now: float | None = None) -> int:
        """Delete every file whose ``expires_at`` has passed (``now``: default the clock). Returns how many."""
        when = self.clock() if now is None else now
        with self._lock:
            rows = self._db.execute(
                "SELECT user, file_id FROM files WHERE expires_at IS NOT NULL AND expires_at <= ?", (when,)
            ).fetchall()
        self._remove([(r["user"], r["file_id"]) for r in rows])
        return len(rows)

    def sweep(self) -> int:
        """At start: expire what expired, then delete the leftovers of puts a killed process left half done (bytes
        without a row, older than an hour; temp files). Returns how many files were removed."""
        removed = self.expire()
        users = self.data_dir / USERS_DIR
        try:
            names = [e.name for e in os.scandir(users) if e.is_dir(follow_symlinks=False)]
        except OSError:
            return removed
        cutoff = self.clock() - _ORPHAN_AGE_S
        for name in names:
            try:
                with self._folder(name, create=False) as dir_fd:
                    remove_stale_temps(dir_fd)
                    for entry in os.scandir(dir_fd):
                        if is_atomic_temp(entry.name) or not is_file_id(entry.name):
                            continue
                        if entry.stat(follow_symlinks=False).st_mtime >= cutoff:
                            continue
                        with self._lock:
                            known = self._db.execute("SELECT 1 FROM files WHERE file_id=?", (entry.name,)).fetchone()
                        if known is None:
                            _unlink(dir_fd, entry.name)
                            removed += 1
            except (OSError, UnsafeUserName):
                continue
        return removed

    def _remove(self, pairs: builtins.list[tuple[str, str]]) -> None:
        if not pairs:
            return
        with self._write():
            self._db.executemany("DELETE FROM files WHERE file_id=? AND user=?", [(f, u) for u, f in pairs])
        for user, file_id in pairs:
            try:
                with self._folder(user, create=False) as dir_fd:
                    _unlink(dir_fd, file_id)
            except (OSError, UnsafeUserName):
                pass
            for hook in self._hooks:
                try:
                    hook(user, file_id)
                except (sqlite3.Error, OSError):  # one cache failing keeps neither the others nor the delete back
                    log.exception("a cache could not drop its copy of a deleted file")
        self.checkpoint()

    def checkpoint(self) -> None:
        """Copy the WAL into the database and truncate it: a deleted row's old bytes leave the WAL file too."""
        with self._lock:
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def close(self) -> None:
        """Close the database (idempotent)."""
        with self._lock:
            self._db.close()

    # -- helpers -----------------------------------------------------------------------------------------------

    @contextmanager
    def _write(self) -> Iterator[None]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    @contextmanager
    def _folder(self, user: str, *, create: bool = True) -> Iterator[int]:
        """An open descriptor of ``user``'s ``files/`` folder (created ``0700`` when ``create``; never through a
        symlink).

        Raises:
            BadRequest: ``user`` cannot name a folder.
            OSError: the folder is missing (without ``create``) or is not a folder.
        """
        try:
            path = user_dir(self.data_dir, user, FILES_DIR, create=create)
        except UnsafeUserName:
            raise BadRequest("this user has no file space") from None
        fd = os.open(path, _OPEN_DIR)
        try:
            yield fd
        finally:
            os.close(fd)


def _unlink(dir_fd: int, name: str) -> None:
    try:
        os.unlink(name, dir_fd=dir_fd)
    except FileNotFoundError:
        pass


def _missing(file_id: object) -> ServiceError:
    shown = file_id if isinstance(file_id, str) and len(file_id) <= 200 else "(that id)"
    return NotFound(f"no file {shown!r} in your file space", hint="list_user_files shows your files")
