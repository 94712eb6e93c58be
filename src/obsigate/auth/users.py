"""User store: accounts, argon2 passwords, per-vault grants and API keys, in one SQLite file.

Rules (``security.md`` §4.3–4.4):

* Passwords are hashed with argon2id through pwdlib (``PasswordHash.recommended()``) and
  re-hashed on login when the parameters change (``verify_and_update``). At most two
  verifications run at once, because each costs ~64 MiB and ~270 ms. Unknown users are checked
  against a dummy hash so that timing does not reveal which accounts exist.
* API keys are ``og_`` + base62 of 32 random bytes + a 6-char base62 CRC32 checksum (GitHub's
  2021 token format: a prefix and checksum that secret scanners can recognise offline). The
  store keeps ``HMAC-SHA256(pepper, key)``, never the key; a fast keyed hash is right because
  the key carries 256 bits of entropy. The pepper is a separate ``0600`` file, not in the DB.
* Each user has a ``token_version``, carried by every JWT issued for them (``tv``). Changing the password
  (:meth:`UserStore.set_password`) or signing out everywhere (:meth:`UserStore.sign_out_everywhere`) bumps it,
  so every JWT and web session issued before is refused at the next request, with no extra read: the
  authenticator reads the user's row anyway. API keys are separate credentials and survive both; revoke them
  one by one (:meth:`UserStore.revoke_api_key`) or all at once (:meth:`UserStore.revoke_api_keys`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
import sqlite3
import threading
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pwdlib import PasswordHash
from pwdlib.exceptions import UnknownHashError
from pwdlib.hashers import HasherProtocol

from obsigate.domain.storage.private_files import ensure_private_file, load_or_create_secret
from obsigate.services.errors import BadRequest, Conflict, NotFound, Unauthenticated, Unavailable

__all__ = ["API_KEY_PREFIX", "User", "UserStore", "api_key_id", "api_key_well_formed"]

log = logging.getLogger(__name__)

NAME_RE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
RESERVED_NAMES = frozenset({"anonymous"})
MIN_PASSWORD_CHARS = 8
#: argon2 pre-hashes any length, but a megabyte password is still wasted CPU.
MAX_PASSWORD_CHARS = 1024
MAX_LABEL_CHARS = 100
LAST_USED_GRANULARITY = timedelta(seconds=60)

API_KEY_PREFIX = "og_"
_B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BODY_CHARS = 43  # ceil(256 / log2(62))
_CHECK_CHARS = 6  # ceil(32 / log2(62))
API_KEY_CHARS = len(API_KEY_PREFIX) + _BODY_CHARS + _CHECK_CHARS
_KEY_RE = re.compile(rf"{API_KEY_PREFIX}[0-9A-Za-z]{{{_BODY_CHARS + _CHECK_CHARS}}}")

_BAD_LOGIN = "invalid username or password"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,   -- never reused: tokens carry it
    name          TEXT NOT NULL UNIQUE COLLATE NOCASE,
    password_hash TEXT,                                -- NULL: no password login
    is_admin      INTEGER NOT NULL DEFAULT 0,
    vaults        TEXT NOT NULL,                       -- '*' or a JSON array of vault names
    created_at    TEXT NOT NULL,
    token_version INTEGER NOT NULL DEFAULT 0           -- JWTs carry it; bumped to revoke them all
);
CREATE TABLE IF NOT EXISTS api_keys (
    key_id        TEXT PRIMARY KEY,
    user_id       INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    key_hash      BLOB NOT NULL,                       -- HMAC-SHA256(pepper, key)
    label         TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    expires_at    TEXT,
    last_used_at  TEXT,
    revoked_at    TEXT
);
CREATE INDEX IF NOT EXISTS api_keys_user ON api_keys(user_id);
"""
#: ``PRAGMA user_version`` of the schema above; version 1 lacked ``users.token_version`` (added on open).
SCHEMA_VERSION = 2


@dataclass(frozen=True, slots=True)
class User:
    """A stored account. ``vaults`` is ``None`` for every vault (``"*"``); ``created_at`` is
    ISO-8601 UTC (``2026-11-30T10:00:00Z``). ``is_admin`` grants user management, not vaults.
    ``token_version``: JWTs issued for the user carry it; one carrying an older version is refused."""

    id: int
    name: str
    is_admin: bool
    vaults: frozenset[str] | None
    created_at: str
    token_version: int = 0


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(dt: datetime) -> str:
    return dt.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _b62(n: int, width: int) -> str:
    out = []
    while n:
        n, r = divmod(n, 62)
        out.append(_B62[r])
    return "".join(reversed(out)).rjust(width, "0")


def _checksum(body: str) -> str:
    return _b62(zlib.crc32(body.encode("ascii")), _CHECK_CHARS)


def api_key_well_formed(key: object) -> bool:
    """True if ``key`` has the ``og_`` shape and a valid CRC32 checksum (no DB access)."""
    if not isinstance(key, str) or len(key) != API_KEY_CHARS or not _KEY_RE.fullmatch(key):
        return False
    body, check = key[len(API_KEY_PREFIX) : -_CHECK_CHARS], key[-_CHECK_CHARS:]
    return hmac.compare_digest(_checksum(body), check)


def api_key_id(key: str) -> str:
    """The public id of an API key: ``ak_`` + 16 hex chars of SHA-256(key).

    Derived rather than cut from the key, so ids in logs, audit and rate-limit keys disclose no
    character of the secret.
    """
    return "ak_" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


def _check_name(name: object, what: str = "user name") -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name) or set(name) == {"."}:
        raise BadRequest(f"invalid {what}: use 1-64 of A-Z a-z 0-9 _ . - (not only dots)")
    return name


def _check_password(password: object) -> str:
    if not isinstance(password, str) or not (MIN_PASSWORD_CHARS <= len(password) <= MAX_PASSWORD_CHARS):
        raise BadRequest(f"password must be {MIN_PASSWORD_CHARS}-{MAX_PASSWORD_CHARS} characters")
    return password


def _normalize_vaults(vaults: Iterable[str] | str | None) -> frozenset[str] | None:
    if vaults is None:
        return None
    if isinstance(vaults, str):  # a lone name, not its characters
        vaults = [vaults]
    names = [v if v == "*" else _check_name(v, "vault name") for v in vaults]
    return None if "*" in names else frozenset(names)


def _named(vaults: Iterable[str] | str) -> list[str]:
    """The vault names of a grant or revoke, at least one (an empty list would silently do nothing)."""
    names = [vaults] if isinstance(vaults, str) else list(vaults)
    if not names:
        raise BadRequest("name at least one vault, or '*' for all")
    return names


def _dump_vaults(vaults: frozenset[str] | None) -> str:
    return "*" if vaults is None else json.dumps(sorted(vaults))


def _row_to_user(row: sqlite3.Row) -> User:
    raw = row["vaults"]
    return User(
        id=row["id"],
        name=row["name"],
        is_admin=bool(row["is_admin"]),
        vaults=None if raw == "*" else frozenset(json.loads(raw)),
        created_at=row["created_at"],
        token_version=row["token_version"],
    )


class UserStore:
    """Accounts and API keys in ``db_path`` (SQLite, mode 0600; journal files inherit it).

    Thread-safe: one connection guarded by a lock, with slow argon2 work done outside it, so
    the store can be used from FastAPI's threadpool. Other processes (the CLI) may open the
    same file; a statement waits ``busy_timeout_s`` for another writer's lock.

    Args:
        db_path: the SQLite file, usually ``<data_dir>/users.sqlite3``.
        pepper_path: the API-key pepper (32 random bytes, hex, 0600), created on first use;
            defaults to ``db_path.parent / "api_key_pepper"``.
        password_hasher: a pwdlib ``PasswordHash`` (or a single hasher); defaults to
            ``PasswordHash.recommended()`` (argon2id, 64 MiB, t=3). Tests pass a cheap one.
        max_concurrent_hashes: argon2 operations allowed at once (memory/CPU cap).
        hash_wait_s: how long a caller waits for a hashing slot before ``Unavailable``.
        busy_timeout_s: how long a statement waits for another process's write lock.
    """

    def __init__(
        self,
        db_path: Path,
        *,
        pepper_path: Path | None = None,
        password_hasher: PasswordHash | HasherProtocol | None = None,
        max_concurrent_hashes: int = 2,
        hash_wait_s: float = 10.0,
        busy_timeout_s: float = 5.0,
    ) -> None:
        self.db_path = Path(db_path)
        self.pepper_path = Path(pepper_path) if pepper_path else self.db_path.parent / "api_key_pepper"
        if password_hasher is None:
            password_hasher = PasswordHash.recommended()
        elif not isinstance(password_hasher, PasswordHash):
            password_hasher = PasswordHash((password_hasher,))
        self._hasher: PasswordHash = password_hasher
        self._hash_slots = threading.BoundedSemaphore(max_concurrent_hashes)
        self._hash_wait_s = hash_wait_s
        self._dummy_hash: str | None = None
        self._pepper: bytes | None = None
        self._lock = threading.RLock()
        ensure_private_file(self.db_path)  # 0600 before SQLite creates it with the umask's mode
        self._db = sqlite3.connect(self.db_path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.execute("PRAGMA secure_delete = ON")  # overwrite deleted hashes on disk
        self._db.executescript(_SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Bring a database made by an older version up to :data:`SCHEMA_VERSION` (another process may be doing
        the same: a column it added first is not added twice)."""
        if self._db.execute("PRAGMA user_version").fetchone()[0] >= SCHEMA_VERSION:
            return
        columns = {row["name"] for row in self._db.execute("PRAGMA table_info(users)")}
        if "token_version" not in columns:
            try:
                self._db.execute("ALTER TABLE users ADD COLUMN token_version INTEGER NOT NULL DEFAULT 0")
            except sqlite3.OperationalError as exc:
                if "duplicate column" not in str(exc).lower():
                    raise
        self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def load_pepper(self) -> None:
        """Read the API-key pepper now (creating it ``0600`` if missing) and keep it in memory; the server calls it
        at start, so it is never read while serving.

        Raises:
            ValueError, OSError: as :func:`~obsigate.domain.storage.private_files.load_or_create_secret`.
        """
        self._pepper_bytes  # noqa: B018 — loads and caches

    def close(self) -> None:
        """Close the database connection."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> UserStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- helpers -------------------------------------------------------------------------------

    def _exec(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Cursor:
        """Run a write; the returned cursor is only good for ``rowcount``/``lastrowid``."""
        with self._lock:
            return self._db.execute(sql, params)

    def _best_effort(self, sql: str, params: tuple[Any, ...]) -> None:
        # Bookkeeping writes (rehash, last_used_at) must not fail a login while another
        # process (the CLI) holds the write lock past the busy timeout.
        try:
            self._exec(sql, params)
        except sqlite3.OperationalError:
            log.warning("skipped a bookkeeping write to %s (database busy)", self.db_path)

    def _all(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        with self._lock:  # fetch under the lock too: cursors share the connection
            return self._db.execute(sql, params).fetchall()

    def _one(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        rows = self._all(sql, params)
        return rows[0] if rows else None

    def _row(self, name: str) -> sqlite3.Row | None:
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            return None
        return self._one("SELECT * FROM users WHERE name = ?", (name,))

    def _require(self, name: str) -> sqlite3.Row:
        row = self._row(name)
        if row is None:
            raise NotFound(f"no user named {name!r}", hint="list users to see the valid names")
        return row

    def _hash_slot(self) -> threading.BoundedSemaphore:
        if not self._hash_slots.acquire(timeout=self._hash_wait_s):
            raise Unavailable("too many password checks in progress; retry shortly")
        return self._hash_slots

    def _hash_password(self, password: str) -> str:
        slot = self._hash_slot()
        try:
            return self._hasher.hash(password)
        finally:
            slot.release()

    @property
    def _pepper_bytes(self) -> bytes:
        if self._pepper is None:
            self._pepper = load_or_create_secret(self.pepper_path, 32)
        return self._pepper

    def _mac(self, key: str) -> bytes:
        return hmac.new(self._pepper_bytes, key.encode("ascii"), hashlib.sha256).digest()

    # -- users ---------------------------------------------------------------------------------

    def add_user(
        self,
        name: str,
        password: str | None,
        *,
        admin: bool = False,
        vaults: Iterable[str] | None = (),
    ) -> User:
        """Create a user and return it.

        ``vaults``: ``None`` or any ``"*"`` entry grants every vault; the default ``()`` grants
        none. Vault names are validated like user names but need not be declared yet.
        ``password=None`` creates an account that can only use tokens and API keys.

        Raises:
            BadRequest: bad user or vault name, reserved name, password outside 8-1024 chars.
            Conflict: ``code="exists"``, the name is taken (compared case-insensitively).
        """
        _check_name(name)
        if name.lower() in RESERVED_NAMES:
            raise BadRequest(f"the user name {name!r} is reserved")
        grants = _normalize_vaults(vaults)
        pw_hash = None if password is None else self._hash_password(_check_password(password))
        try:
            cur = self._exec(
                "INSERT INTO users (name, password_hash, is_admin, vaults, created_at) VALUES (?, ?, ?, ?, ?)",
                (name, pw_hash, int(bool(admin)), _dump_vaults(grants), _iso(_now())),
            )
        except sqlite3.IntegrityError:
            raise Conflict(f"a user named {name!r} already exists", code="exists") from None
        row = self._one("SELECT * FROM users WHERE id = ?", (cur.lastrowid,))
        assert row is not None  # just inserted
        return _row_to_user(row)

    def get_user(self, name: str) -> User | None:
        """Return the user called ``name`` (case-insensitive), or ``None``."""
        row = self._row(name)
        return None if row is None else _row_to_user(row)

    def list_users(self) -> list[User]:
        """Every user, sorted by name."""
        rows = self._all("SELECT * FROM users ORDER BY name")
        return [_row_to_user(r) for r in rows]

    def set_password(self, name: str, password: str | None) -> None:
        """Replace the password (``None`` disables password login) and sign the user out everywhere: the token
        version goes up, so every JWT and web session issued before is refused from the next request, on a
        running server too. API keys are kept.

        Raises: BadRequest (password length), NotFound (no such user).
        """
        pw_hash = None if password is None else self._hash_password(_check_password(password))
        sql = "UPDATE users SET password_hash = ?, token_version = token_version + 1 WHERE name = ?"
        if self._exec(sql, (pw_hash, name)).rowcount == 0:
            self._require(name)

    def sign_out_everywhere(self, name: str) -> User:
        """Refuse every JWT and web session issued to the user so far (their token version goes up), from the
        next request, on a running server too; return the user. Password, grants and API keys are kept, and a
        new sign-in works at once.

        Raises: NotFound (no such user).
        """
        self._exec("UPDATE users SET token_version = token_version + 1 WHERE name = ?", (name,))
        return _row_to_user(self._require(name))

    def set_vaults(self, name: str, vaults: Iterable[str] | None) -> User:
        """Replace the vault grants (same rules as :meth:`add_user`); effective on the next request.

        Raises: BadRequest (bad vault name), NotFound (no such user).
        """
        grants = _normalize_vaults(vaults)
        self._exec("UPDATE users SET vaults = ? WHERE name = ?", (_dump_vaults(grants), name))
        return _row_to_user(self._require(name))

    def grant_vaults(self, name: str, vaults: Iterable[str]) -> User:
        """Add vault grants to the user's current ones and return the user; ``"*"`` grants every vault.
        Granting what the user already has changes nothing. API keys and passwords are kept.

        Raises: BadRequest (no vault named, bad vault name), NotFound (no such user).
        """
        added = _normalize_vaults(_named(vaults))
        return self._update_vaults(name, lambda current: None if added is None or current is None else current | added)

    def revoke_vaults(self, name: str, vaults: Iterable[str]) -> User:
        """Remove vault grants and return the user; ``"*"`` removes every grant. API keys and passwords are kept.

        Raises:
            BadRequest: no vault named, bad vault name, a vault the user holds no grant on, or a single
                vault taken from a user who has every vault (``"*"``: revoke ``"*"``, then grant the ones
                to keep).
            NotFound: no such user.
        """
        removed = _normalize_vaults(_named(vaults))

        def revoke(current: frozenset[str] | None) -> frozenset[str] | None:
            if removed is None:
                return frozenset()
            if current is None:
                raise BadRequest(
                    f"user {name!r} has every vault ('*'), so one vault cannot be taken away",
                    hint="revoke '*', then grant the vaults to keep",
                )
            missing = sorted(removed - current)
            if missing:
                raise BadRequest(
                    f"user {name!r} has no grant on {', '.join(missing)}", hint="list users to see the grants"
                )
            return current - removed

        return self._update_vaults(name, revoke)

    def _update_vaults(self, name: str, change: Callable[[frozenset[str] | None], frozenset[str] | None]) -> User:
        """Read, change and write one user's grants in one write transaction (no lost update with another
        process such as a running server)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                user = _row_to_user(self._require(name))
                grants = change(user.vaults)
                self._db.execute("UPDATE users SET vaults = ? WHERE id = ?", (_dump_vaults(grants), user.id))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return _row_to_user(self._require(name))

    def set_admin(self, name: str, admin: bool) -> User:
        """Grant or remove the admin flag. Raises NotFound."""
        self._exec("UPDATE users SET is_admin = ? WHERE name = ?", (int(bool(admin)), name))
        return _row_to_user(self._require(name))

    def delete_user(self, name: str) -> None:
        """Delete the user and their API keys; their JWTs stop verifying at once.

        Raises: NotFound.
        """
        if self._exec("DELETE FROM users WHERE name = ?", (name,)).rowcount == 0:
            raise NotFound(f"no user named {name!r}")

    def verify_password(self, name: str, password: str) -> User:
        """Check a login and return the user.

        Unknown user, password-less account and wrong password all do one argon2 verification
        and raise the same error. A hash made with outdated parameters is replaced.

        Raises:
            Unauthenticated: ``"invalid username or password"``.
            Unavailable: no hashing slot freed up within ``hash_wait_s``.
        """
        if not isinstance(password, str) or len(password) > MAX_PASSWORD_CHARS:
            raise Unauthenticated(_BAD_LOGIN)  # independent of the account: leaks nothing
        row = self._row(name)
        stored = row["password_hash"] if row is not None else None
        ok, new_hash = False, None
        slot = self._hash_slot()
        try:
            dummy = self._get_dummy_hash()  # made on the first login of any kind: no oracle
            if stored is None:
                self._hasher.verify(password, dummy)
            else:
                try:
                    ok, new_hash = self._hasher.verify_and_update(password, stored)
                except UnknownHashError:
                    ok = False
        finally:
            slot.release()
        if not ok or row is None:
            raise Unauthenticated(_BAD_LOGIN)
        if new_hash is not None:  # don't clobber a concurrent set_password
            self._best_effort(
                "UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?",
                (new_hash, row["id"], stored),
            )
        return _row_to_user(row)

    def _get_dummy_hash(self) -> str:
        # Called with a hash slot held; made with the current hasher so its cost matches.
        if self._dummy_hash is None:
            self._dummy_hash = self._hasher.hash(secrets.token_urlsafe(18))
        return self._dummy_hash

    # -- API keys ------------------------------------------------------------------------------

    def create_api_key(self, name: str, *, label: str = "", expires_at: datetime | None = None) -> tuple[str, str]:
        """Create an API key for user ``name``; return ``(key_id, key)``. Show ``key`` once.

        ``expires_at`` must be timezone-aware and in the future (stored to the second, rounded
        down); ``None`` never expires. ``label`` is free text up to 100 chars (no controls).

        Raises: NotFound (no such user), BadRequest (label, expires_at).
        """
        if (
            not isinstance(label, str)
            or len(label) > MAX_LABEL_CHARS
            or any(unicodedata.category(c) == "Cc" for c in label)
        ):
            raise BadRequest(f"label must be text of at most {MAX_LABEL_CHARS} characters")
        expires = None
        if expires_at is not None:
            if not isinstance(expires_at, datetime) or expires_at.tzinfo is None:
                raise BadRequest("expires_at must be a timezone-aware datetime")
            if expires_at <= _now():
                raise BadRequest("expires_at must be in the future")
            expires = _iso(expires_at)
        user_id = self._require(name)["id"]
        while True:
            body = _b62(int.from_bytes(secrets.token_bytes(32), "big"), _BODY_CHARS)
            key = API_KEY_PREFIX + body + _checksum(body)
            key_id = api_key_id(key)
            try:
                self._exec(
                    "INSERT INTO api_keys (key_id, user_id, key_hash, label, created_at, expires_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (key_id, user_id, self._mac(key), label, _iso(_now()), expires),
                )
            except sqlite3.IntegrityError:  # 64-bit id collision: astronomically rare
                continue
            return key_id, key

    def verify_api_key(self, key: str) -> User | None:
        """Return the key's user, or ``None`` if the key is malformed, fails its checksum, is
        unknown, does not match (constant-time HMAC compare), is revoked or has expired.

        Records ``last_used_at`` (at most once a minute per key, to spare the DB writes).
        """
        if not api_key_well_formed(key):
            return None
        key_id = api_key_id(key)
        row = self._one(
            "SELECT k.*, u.name AS u_name FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_id = ?",
            (key_id,),
        )
        if row is None or not hmac.compare_digest(bytes(row["key_hash"]), self._mac(key)):
            return None
        now = _now()
        if row["revoked_at"] is not None:
            return None
        if row["expires_at"] is not None and datetime.fromisoformat(row["expires_at"]) <= now:
            return None
        last = row["last_used_at"]
        if last is None or now - datetime.fromisoformat(last) >= LAST_USED_GRANULARITY:
            self._best_effort("UPDATE api_keys SET last_used_at = ? WHERE key_id = ?", (_iso(now), key_id))
        return self.get_user(row["u_name"])

    def list_api_keys(self, name: str) -> list[dict[str, Any]]:
        """The user's keys, oldest first, as ``{"key_id", "user", "label", "created_at",
        "expires_at", "last_used_at", "revoked_at"}`` (ISO-8601 UTC strings or ``None``).
        No secret or hash is returned.

        Raises: NotFound.
        """
        row = self._require(name)
        rows = self._all("SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at, rowid", (row["id"],))
        return [self._key_info(r, row["name"]) for r in rows]

    def get_api_key(self, key_id: str) -> dict[str, Any] | None:
        """One key's metadata (shape of :meth:`list_api_keys`), e.g. to check who owns it."""
        row = self._one(
            "SELECT k.*, u.name AS u_name FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_id = ?",
            (key_id,),
        )
        return None if row is None else self._key_info(row, row["u_name"])

    @staticmethod
    def _key_info(row: sqlite3.Row, user: str) -> dict[str, Any]:
        cols = ("key_id", "label", "created_at", "expires_at", "last_used_at", "revoked_at")
        return {"user": user, **{c: row[c] for c in cols}}

    def revoke_api_key(self, key_id: str) -> None:
        """Revoke a key at once (idempotent; the first revocation time is kept).

        The caller checks ownership (see :meth:`get_api_key`). Raises: NotFound.
        """
        cur = self._exec(
            "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ?", (_iso(_now()), key_id)
        )
        if cur.rowcount == 0:
            raise NotFound(f"no API key with id {key_id!r}")

    def revoke_api_keys(self, name: str) -> int:
        """Revoke every API key of user ``name`` still in force, at once; return how many were (revoked keys keep
        their first revocation time).

        Raises: NotFound (no such user).
        """
        user_id = self._require(name)["id"]
        cur = self._exec(
            "UPDATE api_keys SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", (_iso(_now()), user_id)
        )
        return cur.rowcount
