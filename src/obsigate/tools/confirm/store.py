"""The confirmation tokens and the proposals they stand for (issue 4 item 4; ``security.md`` §4.2, §2.3).

:class:`ConfirmationService` issues and redeems them; the flow over it (``propose``/``apply``/``settle``) is
:mod:`obsigate.tools.confirm.flow`.

The token is a compact JWS (RFC 7515/7519), HS256 over a key of its own (32 random bytes, hex, in
``<data_dir>/confirm.key``, mode 0600; never the access-token secret, so an access token can never pass as a
confirmation and the reverse, ``security.md`` §4.1). Header ``typ`` and claim ``typ`` are
``mcp_confirmation`` (RFC 8725 §3.11 explicit typing; PyJWT checks neither, so :meth:`redeem` does). Claims:
``iss``, ``aud`` (``obsigate-confirm``), ``sub`` (user name), ``jti`` (uuid4 hex), ``iat``, ``exp``
(``iat`` + TTL), ``tool``, ``vault``, ``args_sha256`` and ``reads_sha256`` (HMAC-SHA256 under the token key of
the canonical JSON of the validated arguments and of ``{path: the file's version as the plan read it, "" =
absent}``: the token's holder can decode it, and a plain hash of arguments holding a real path, or of reads,
could be checked against guesses of a secret in a file name; :meth:`ConfirmationService.digest`).

Server side, ``<data_dir>/confirmations.sqlite3`` (0600) keeps, per ``jti``, the proposal (``proposals``: user,
tool, vault, arguments, reads, paths, the proposal as shown without its token, exp; deleted when redeemed) and
the spent tokens (``used``: jti primary key). It is the one copy of a pending proposal: everything else (the
in-app agent's paused run, an inline settle) refers to it by its ``jti``, the proposal id. Redeeming inserts the ``jti`` into ``used`` in the same transaction that takes the proposal out, so a
token works once even across concurrent calls and restarts (the table is on disk). Expired rows are purged.

A token is a credential: it is never logged (the audit log keeps only the ``jti``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from obsigate.auth.tokens import TokenService
from obsigate.domain.storage.private_files import ensure_private_file
from obsigate.services.errors import BadRequest, Conflict, Forbidden, ServiceError, Unauthenticated

__all__ = [
    "AUDIENCE",
    "CONFIRM_DB_FILE",
    "CONFIRM_KEY_FILE",
    "TOKEN_TYPE",
    "ConfirmationService",
    "Issued",
    "Proposal",
    "Redeemed",
    "canonical_json",
    "invalid_confirmation",
    "sha256_json",
]

CONFIRM_KEY_FILE = "confirm.key"
CONFIRM_DB_FILE = "confirmations.sqlite3"
TOKEN_TYPE = "mcp_confirmation"
AUDIENCE = "obsigate-confirm"
ISSUER = "obsigate"
KEY_BYTES = 32
#: Every claim a confirmation token must carry (PyJWT only checks those listed in ``options["require"]``).
REQUIRED_CLAIMS = ("iss", "aud", "sub", "jti", "iat", "exp", "typ", "tool", "vault", "args_sha256", "reads_sha256")
#: Spent ``jti`` rows are kept this long after their token's expiry before being purged.
USED_GRACE_S = 60

_DB_LOCKS: dict[Path, threading.RLock] = {}
_DB_LOCKS_GUARD = threading.Lock()


def _db_lock(path: Path) -> threading.RLock:
    """The lock this process holds while a connection to the store at ``path`` is open.

    SQLite's busy wait polls with growing sleeps and no queue: with dozens of proposals in flight (50 MCP
    sessions, issue 20) a waiter could miss every turn for the whole busy timeout and fail with "database is
    locked". Threads of one process queue on this lock instead; only another process on the same data dir still
    meets SQLite's busy timeout."""
    key = path.resolve()
    with _DB_LOCKS_GUARD:
        return _DB_LOCKS.setdefault(key, threading.RLock())


_SCHEMA = """
CREATE TABLE IF NOT EXISTS proposals (
    jti TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    tool TEXT NOT NULL,
    vault TEXT NOT NULL,
    args_json TEXT NOT NULL,
    reads_json TEXT NOT NULL,
    paths_json TEXT NOT NULL,
    exp INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS used (jti TEXT PRIMARY KEY, used_at INTEGER NOT NULL, exp INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS proposals_exp ON proposals(exp);
CREATE INDEX IF NOT EXISTS used_exp ON used(exp);
"""
#: Added after the first release: a store made before it gets the column (empty views) when opened.
_VIEW_COLUMN = "ALTER TABLE proposals ADD COLUMN view_json TEXT NOT NULL DEFAULT '{}'"


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no whitespace, non-ASCII escaped: the same text for the same value, always (the
    input of ``args_sha256``/``reads_sha256``; values are JSON-mode model dumps, so no floats of note)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sha256_json(value: Any) -> str:
    """Hex SHA-256 of :func:`canonical_json` of ``value`` (unkeyed: never for a token's claims, see
    :meth:`ConfirmationService.digest`)."""
    return hashlib.sha256(canonical_json(value).encode("ascii")).hexdigest()


def invalid_confirmation(reason: str, tool: str | None = None) -> ServiceError:
    """The ``invalid_confirmation`` error (400) with ``details.reason``; its hint names ``propose_<tool>``."""
    hint = f"call propose_{tool} again for a fresh token" if tool else "call the propose_ tool again for a fresh token"
    return BadRequest(
        code="invalid_confirmation",
        message="the confirmation token is invalid or expired",
        hint=hint,
        details={"reason": reason},
    )


@dataclass(frozen=True, slots=True)
class Issued:
    """A new confirmation: the ``token`` (secret), its ``jti``, ``expires_at`` (epoch s) and ``expires_in`` (s)."""

    token: str
    jti: str
    expires_at: int
    expires_in: int
    view: dict[str, Any] = field(default_factory=dict)

    @property
    def expires_at_iso(self) -> str:
        """``expires_at`` as ISO 8601 UTC (``2026-11-30T08:15:00+00:00``)."""
        return datetime.fromtimestamp(self.expires_at, tz=UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Redeemed:
    """A spent confirmation: what to run (``tool`` with ``args`` on ``vault``) and the ``reads`` it must match."""

    jti: str
    tool: str
    vault: str
    args: dict[str, Any]
    reads: dict[str, str]
    paths: list[str]


@dataclass(frozen=True, slots=True)
class Proposal:
    """A pending proposal, read by its ``id`` (the token's ``jti``) without spending it: the ``tool`` it runs on
    ``vault``, the ``paths`` it touches (worked out once, by the planner's ``Change.paths``) and ``view``, the
    ``propose_`` result as it was shown, without its token."""

    id: str
    tool: str
    vault: str
    paths: list[str]
    view: dict[str, Any]


class ConfirmationService:
    """Issues and redeems single-use confirmation tokens, with the proposals they stand for.

    Args:
        key_path: the HMAC key file (created with 32 random bytes, hex, mode 0600, on first use). Tokens are
            signed and verified by an :class:`~obsigate.auth.tokens.TokenService` of their own kind over it.
        db_path: the SQLite store (created 0600).
        ttl_s: token lifetime in seconds (``OBSIGATE_MCP_CONFIRMATION_TTL``, default 300).
        clock: seconds since the epoch (``time.time``); tests inject one. It stamps ``iat``/``exp`` and the
            rows, and :meth:`redeem` refuses a token whose ``exp`` has passed by it, besides PyJWT's own check
            against the wall clock (no leeway: the same process issues and verifies).
        busy_timeout_s: how long an operation waits for another process's lock on the store before failing
            with ``sqlite3.OperationalError`` (threads of this process take turns instead: :func:`_db_lock`).

    Thread-safe: every operation opens its own SQLite connection, one at a time per process.
    """

    def __init__(
        self,
        key_path: Path,
        db_path: Path,
        *,
        ttl_s: int = 300,
        clock: Callable[[], float] = time.time,
        busy_timeout_s: float = 10.0,
    ) -> None:
        if ttl_s < 1:
            raise ValueError("ttl_s must be at least 1 second")
        self.ttl_s = int(ttl_s)
        self._clock = clock
        self._busy_timeout_s = busy_timeout_s
        self._tokens = TokenService(
            Path(key_path), issuer=ISSUER, audience=AUDIENCE, token_type=TOKEN_TYPE, header_typ=TOKEN_TYPE,
            default_ttl_s=self.ttl_s, min_ttl_s=1, max_ttl_s=max(self.ttl_s, 1), leeway_s=0, secret_bytes=KEY_BYTES,
            required_claims=REQUIRED_CLAIMS, clock=clock,
        )  # fmt: skip
        self._tokens.key_bytes  # noqa: B018 — create the key now, not on the first proposal
        self._db_path = Path(db_path)
        ensure_private_file(self._db_path)
        self._lock = _db_lock(self._db_path)
        with self._connect() as db:
            db.executescript(_SCHEMA)
            if "view_json" not in {row[1] for row in db.execute("PRAGMA table_info(proposals)")}:
                db.execute(_VIEW_COLUMN)

    @classmethod
    def in_data_dir(
        cls, data_dir: Path, *, ttl_s: int = 300, clock: Callable[[], float] = time.time
    ) -> ConfirmationService:
        """The service over ``<data_dir>/confirm.key`` and ``<data_dir>/confirmations.sqlite3``."""
        return cls(data_dir / CONFIRM_KEY_FILE, data_dir / CONFIRM_DB_FILE, ttl_s=ttl_s, clock=clock)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """A fresh autocommit connection, closed on exit (an open transaction is then rolled back), used while
        holding this process's turn on the store (:func:`_db_lock`)."""
        with self._lock:
            db = sqlite3.connect(self._db_path, timeout=self._busy_timeout_s, isolation_level=None)
            try:
                db.execute("PRAGMA synchronous=FULL")
                yield db
            finally:
                db.close()

    def _now(self) -> int:
        return int(self._clock())

    def digest(self, value: Any) -> str:
        """The keyed hash a token's ``args_sha256``/``reads_sha256`` claim holds for ``value``: HMAC-SHA256
        under the token key of :func:`canonical_json` of ``value``, hex."""
        return self._digest(canonical_json(value))

    def _digest(self, text: str) -> str:
        return hmac.new(self._tokens.key_bytes, text.encode("ascii"), hashlib.sha256).hexdigest()

    # --- issue ----------------------------------------------------------------------------------------

    def issue(
        self,
        *,
        user: str,
        tool: str,
        vault: str | None,
        args: Mapping[str, Any],
        reads: Mapping[str, str],
        paths: list[str] | None = None,
        view: Callable[[Issued], dict[str, Any]] | None = None,
    ) -> Issued:
        """Store a proposal and return its signed token.

        Args:
            user: the caller's name (the ``sub`` claim; only that user may redeem it).
            tool: the declared tool to run on apply (not ``propose_...``).
            vault: the vault it changes (``""``/``None`` if none).
            args: the tool's validated arguments as JSON (``model_dump(mode="json", by_alias=True)``).
            reads: ``{vault-relative path: the version of the bytes read, "" = absent}`` from the plan.
            paths: the paths the proposal touches, for the audit record of the application.
            view: makes the proposal as shown (JSON-safe, never the token) from the :class:`Issued` token, before
                it is stored with the proposal for whoever settles it by id; returned as ``Issued.view``.

        Also purges expired proposals and spent tokens.
        """
        args_json, reads_json = canonical_json(dict(args)), canonical_json(dict(reads))
        token, claims = self._tokens.mint(
            user,
            extra_claims={
                "tool": tool,
                "vault": vault or "",
                "args_sha256": self._digest(args_json),
                "reads_sha256": self._digest(reads_json),
            },
        )
        now, exp, jti = claims["iat"], claims["exp"], claims["jti"]
        issued = Issued(token=token, jti=jti, expires_at=exp, expires_in=self.ttl_s)
        if view is not None:
            issued = replace(issued, view=view(issued))
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM proposals WHERE exp < ?", (now,))
            db.execute("DELETE FROM used WHERE exp < ?", (now - USED_GRACE_S,))
            db.execute(
                "INSERT INTO proposals(jti, user, tool, vault, args_json, reads_json, paths_json, exp, view_json) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    jti,
                    user,
                    tool,
                    vault or "",
                    args_json,
                    reads_json,
                    json.dumps(paths or []),
                    exp,
                    json.dumps(issued.view, ensure_ascii=False),
                ),
            )
            db.execute("COMMIT")
        return issued

    # --- redeem ---------------------------------------------------------------------------------------

    def decode(self, token: object, *, tool: str | None = None) -> dict[str, Any]:
        """Verify ``token`` strictly and return its claims (nothing is spent).

        Checks (:meth:`TokenService.verify <obsigate.auth.tokens.TokenService.verify>`): size; signature with
        ``algorithms=["HS256"]`` only (``alg: none`` and algorithm confusion fail, RFC 8725 §3.1) and a key of at
        least 32 bytes; every claim of :data:`REQUIRED_CLAIMS` present; ``exp`` and ``iat`` with no leeway,
        ``exp`` also against the injected clock; ``aud`` and ``iss`` equal; header ``typ`` and claim ``typ``
        equal to ``mcp_confirmation``. Then here: the claims' types, and ``tool``, when given, equal to the
        claim.

        Raises:
            ServiceError: ``invalid_confirmation`` with ``details.reason`` (``malformed``, ``expired``,
                ``invalid_signature``, ``wrong_type``, ``wrong_tool``, ``missing_claim:NAME``...). The token never
                appears in the error.
        """
        if not isinstance(token, str):
            raise invalid_confirmation("malformed", tool)
        try:
            claims = self._tokens.verify(token)
        except Unauthenticated as exc:
            reason = exc.details.get("reason", "malformed")
            # another issuer or audience is another kind of token
            raise invalid_confirmation(
                "wrong_type" if reason in ("invalid_audience", "invalid_issuer") else reason, tool
            ) from None
        for name in ("sub", "jti", "tool", "args_sha256", "reads_sha256"):
            if not isinstance(claims.get(name), str) or not claims[name]:
                raise invalid_confirmation("malformed", tool)
        if not isinstance(claims.get("vault"), str):
            raise invalid_confirmation("malformed", tool)
        if tool is not None and claims["tool"] != tool:
            raise invalid_confirmation("wrong_tool", tool)
        return claims

    def redeem(self, token: object, *, user: str, tool: str) -> Redeemed:
        """Spend ``token`` for ``user`` on ``tool`` and return the proposal it stands for.

        Order (``security.md`` §4.2): :meth:`decode`; the ``sub`` claim must be ``user``; then, in one SQLite
        transaction, insert the ``jti`` into ``used`` (a primary-key clash = replay) and take the proposal out of
        ``proposals``; finally the stored arguments and reads must hash to the token's ``args_sha256`` and
        ``reads_sha256``. A token is spent by its first redemption whatever happens next (a ``conflict`` needs a
        new proposal anyway); refusals before the insert leave it unspent.

        Raises:
            ServiceError: ``invalid_confirmation`` (see :meth:`decode`; also ``unknown_proposal``,
                ``args_mismatch``), ``forbidden`` (403: the token was issued to another user),
                ``token_reused`` (409: already redeemed, before or after a restart).
        """
        claims = self.decode(token, tool=tool)
        if claims["sub"] != user:
            raise Forbidden(
                message="this confirmation token was issued to another user",
                hint=f"call propose_{tool} yourself",
            )
        jti = claims["jti"]
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute("INSERT INTO used(jti, used_at, exp) VALUES (?, ?, ?)", (jti, self._now(), claims["exp"]))
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK")
                raise Conflict(
                    code="token_reused",
                    message="this confirmation token was already used",
                    hint=f"each token works once: call propose_{tool} again",
                ) from None
            row = db.execute(
                "SELECT user, tool, vault, args_json, reads_json, paths_json FROM proposals WHERE jti = ?", (jti,)
            ).fetchone()
            db.execute("DELETE FROM proposals WHERE jti = ?", (jti,))
            db.execute("COMMIT")
        if row is None:
            raise invalid_confirmation("unknown_proposal", tool)
        row_user, row_tool, vault, args_json, reads_json, paths_json = row
        if (
            row_user != user
            or row_tool != tool
            or vault != claims["vault"]
            or not hmac.compare_digest(self._digest(args_json), str(claims["args_sha256"]))
            or not hmac.compare_digest(self._digest(reads_json), str(claims["reads_sha256"]))
        ):
            raise invalid_confirmation("args_mismatch", tool)
        return Redeemed(
            jti=jti,
            tool=tool,
            vault=vault,
            args=json.loads(args_json),
            reads=json.loads(reads_json),
            paths=json.loads(paths_json),
        )

    def proposal_id(self, token: object) -> str | None:
        """The id (``jti``) of the proposal ``token`` stands for, verified as :meth:`decode` does (nothing is
        spent); ``None`` for anything that is not a valid token."""
        try:
            return str(self.decode(token)["jti"])
        except ServiceError:
            return None

    def proposal(self, proposal_id: str, *, user: str) -> Proposal | None:
        """``user``'s pending proposal ``proposal_id`` (unexpired, unspent), or ``None``."""
        with self._connect() as db:
            row = db.execute(
                "SELECT tool, vault, paths_json, view_json FROM proposals WHERE jti = ? AND user = ? AND exp >= ?",
                (proposal_id, user, self._now()),
            ).fetchone()
        if row is None:
            return None
        tool, vault, paths_json, view_json = row
        return Proposal(proposal_id, tool, vault, json.loads(paths_json), json.loads(view_json))

    def redeem_id(self, proposal_id: str, *, user: str, tool: str) -> Redeemed:
        """Spend ``user``'s proposal ``proposal_id`` for ``tool`` as :meth:`redeem` spends a token, for a caller
        that holds the id server-side (the in-app agent's paused run: the person approved it in the web app).
        The id is no credential: the row must be ``user``'s, for ``tool``, and unexpired.

        Raises:
            ServiceError: ``invalid_confirmation`` (``unknown_proposal``: none such of this user and tool, or
                expired), ``token_reused`` (409: already spent).
        """
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT vault, args_json, reads_json, paths_json, exp FROM proposals "
                "WHERE jti = ? AND user = ? AND tool = ?",
                (proposal_id, user, tool),
            ).fetchone()
            spent = db.execute("SELECT 1 FROM used WHERE jti = ?", (proposal_id,)).fetchone()
            if spent is not None:
                db.execute("ROLLBACK")
                raise Conflict(
                    code="token_reused",
                    message="this confirmation token was already used",
                    hint=f"each token works once: call propose_{tool} again",
                )
            if row is None or row[4] < self._now():
                db.execute("ROLLBACK")
                raise invalid_confirmation("unknown_proposal" if row is None else "expired", tool)
            vault, args_json, reads_json, paths_json, exp = row
            db.execute("INSERT INTO used(jti, used_at, exp) VALUES (?, ?, ?)", (proposal_id, self._now(), exp))
            db.execute("DELETE FROM proposals WHERE jti = ?", (proposal_id,))
            db.execute("COMMIT")
        return Redeemed(proposal_id, tool, vault, json.loads(args_json), json.loads(reads_json), json.loads(paths_json))

    def revoke_id(self, proposal_id: str, *, user: str) -> str | None:
        """Spend ``user``'s pending proposal ``proposal_id`` unapplied (declined); return the id, or ``None``
        when there was none such to spend."""
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute("SELECT exp FROM proposals WHERE jti = ? AND user = ?", (proposal_id, user)).fetchone()
            if row is None:
                db.execute("ROLLBACK")
                return None
            db.execute(
                "INSERT OR IGNORE INTO used(jti, used_at, exp) VALUES (?, ?, ?)", (proposal_id, self._now(), row[0])
            )
            db.execute("DELETE FROM proposals WHERE jti = ?", (proposal_id,))
            db.execute("COMMIT")
        return proposal_id

    def revoke(self, token: object, *, user: str) -> str | None:
        """Spend ``token`` without applying it (the user declined it inline); return its ``jti``, or ``None`` if
        it was not a valid unspent token of ``user`` (nothing to revoke)."""
        try:
            claims = self.decode(token)
        except ServiceError:
            return None
        if claims["sub"] != user:
            return None
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT OR IGNORE INTO used(jti, used_at, exp) VALUES (?, ?, ?)",
                (claims["jti"], self._now(), claims["exp"]),
            )
            db.execute("DELETE FROM proposals WHERE jti = ?", (claims["jti"],))
            db.execute("COMMIT")
        return claims["jti"]

    def purge(self) -> int:
        """Delete expired proposals and spent tokens past expiry (+60 s); return how many rows went."""
        now = self._now()
        with self._connect() as db:
            db.execute("BEGIN IMMEDIATE")
            n = db.execute("DELETE FROM proposals WHERE exp < ?", (now,)).rowcount
            n += db.execute("DELETE FROM used WHERE exp < ?", (now - USED_GRACE_S,)).rowcount
            db.execute("COMMIT")
        return n
