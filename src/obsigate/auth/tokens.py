"""Signed JWTs (HS256) and the secret files behind them.

One :class:`TokenService` issues and verifies one kind of token with one key. Access tokens use
``typ="access"`` (JWT header ``typ: at+jwt``, RFC 9068 §2.1) and ``aud="obsigate-api"``. Another
kind, such as the propose/apply confirmation token, gets its own instance with its own secret
file, audience and ``token_type``, so a token of one kind never verifies as the other
(RFC 8725 §3.11 explicit typing; PyJWT does not check ``typ`` by itself, see
``security.md`` §4.1).

Secrets live in files created ``0600`` on first use
(:func:`~obsigate.domain.storage.private_files.load_or_create_secret`, also importable from here). A service
reads its key once (:meth:`TokenService.load_key`, at start) and keeps it in memory; before each use it only
``lstat``s the file, and reads it again only when the file was replaced: :meth:`TokenService.rotate_key`
(``obsigate secret rotate``, possibly from another process) writes a new key atomically, and every token signed
with the old one stops verifying on the server's next request. A key file that can no longer be used (not hex,
too short, a symlink) fails closed: nothing verifies and nothing is issued until it is fixed or rotated.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jwt

from obsigate.domain.storage.private_files import (
    FileIdentity,
    file_identity,
    load_or_create_secret,
    load_or_create_secret_with_identity,
    replace_secret,
)
from obsigate.services.errors import BadRequest, Unauthenticated, Unavailable

if TYPE_CHECKING:
    from obsigate.auth.users import User

__all__ = ["TOKEN_VERSION_CLAIM", "TokenService", "load_or_create_secret"]

log = logging.getLogger(__name__)

ALGORITHM = "HS256"
#: Claims every token must carry; PyJWT only checks those listed in ``options["require"]``.
REQUIRED_CLAIMS = ("exp", "iat", "sub", "jti", "aud", "iss")
#: Claims :meth:`TokenService.issue` sets itself; ``extra_claims`` may not override them.
RESERVED_CLAIMS = frozenset({*REQUIRED_CLAIMS, "nbf", "typ", "uid", "tv"})
#: The user's token version (``User.token_version``) at issue time: a password change or a sign-out everywhere
#: bumps the stored version, and the authenticator refuses a token whose ``tv`` is older.
TOKEN_VERSION_CLAIM = "tv"
LEEWAY_S = 10
MIN_TTL_S = 60
MAX_TTL_S = 366 * 24 * 3600
#: Anything longer is not one of our tokens; refuse before parsing (cheap DoS guard).
MAX_TOKEN_CHARS = 8192
SECRET_BYTES = 64
#: RFC 7518 §3.2: an HS256 key must be at least as long as the hash output.
MIN_SECRET_BYTES = 32

_GENERIC = "invalid or expired token"


def _norm_media_type(value: object) -> str | None:
    # RFC 7515 §4.1.9: "application/" may be omitted and media types compare case-insensitively.
    if not isinstance(value, str):
        return None
    value = value.strip().lower()
    return value.removeprefix("application/")


class TokenService:
    """Issue and verify HS256 JWTs of one kind (``token_type``) with one secret file.

    Args:
        secret_path: file holding the HMAC key (64 random bytes, hex); created ``0600`` on first
            use, shared by every instance (and process) pointing at it.
        issuer: ``iss`` claim set and required (RFC 7519 §4.1.1).
        audience: ``aud`` claim set and required (RFC 7519 §4.1.3); use a distinct audience per
            token kind.
        default_ttl_s: lifetime in seconds when :meth:`issue` gets no ``ttl_s``.
        token_type: the ``typ`` claim. The JWT header ``typ`` is ``at+jwt`` for ``"access"``
            (RFC 9068) and ``<token_type>+jwt`` otherwise, unless ``header_typ`` is given.
        header_typ: override for the header ``typ``.
        min_ttl_s, max_ttl_s: accepted lifetime range for :meth:`issue` (seconds, inclusive).
        leeway_s: clock skew tolerated on ``exp``/``nbf``/``iat`` (RFC 7519 §4.1.4); 0 when the same
            process issues and verifies.
        secret_bytes: length of a newly created key (at least 32, RFC 7518 §3.2).
        required_claims: claims :meth:`verify` requires (PyJWT checks only those it is told to).
        clock: seconds since the epoch; stamps ``iat``/``nbf``/``exp``, and :meth:`verify` also refuses a
            token whose ``exp`` has passed by it (tests inject one).

    The key is loaded by :meth:`load_key` (the composition root calls it at start), else on first use, and
    kept in memory; each later use costs one ``lstat`` of the key file, and a replaced file
    (:meth:`rotate_key`, in this process or another) is read again and used from then on.
    """

    def __init__(
        self,
        secret_path: Path,
        *,
        issuer: str = "obsigate",
        audience: str = "obsigate-api",
        default_ttl_s: int = 3600,
        token_type: str = "access",
        header_typ: str | None = None,
        min_ttl_s: int = MIN_TTL_S,
        max_ttl_s: int = MAX_TTL_S,
        leeway_s: int = LEEWAY_S,
        secret_bytes: int = SECRET_BYTES,
        required_claims: tuple[str, ...] = REQUIRED_CLAIMS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not (0 < min_ttl_s <= max_ttl_s):
            raise ValueError("need 0 < min_ttl_s <= max_ttl_s")
        if not token_type or not issuer or not audience:
            raise ValueError("token_type, issuer and audience must be non-empty")
        self._secret_path = Path(secret_path)
        self.issuer = issuer
        self.audience = audience
        self.token_type = token_type
        self.header_typ = header_typ or ("at+jwt" if token_type == "access" else f"{token_type}+jwt")
        self.min_ttl_s = min_ttl_s
        self.max_ttl_s = max_ttl_s
        self.default_ttl_s = self._check_ttl(default_ttl_s)
        self.leeway_s = leeway_s
        self._secret_bytes = max(secret_bytes, MIN_SECRET_BYTES)
        self.required_claims = tuple(dict.fromkeys((*REQUIRED_CLAIMS, *required_claims)))
        self._clock = clock
        self._key: bytes | None = None
        self._key_identity: FileIdentity | None = None  # of the file self._key was read from
        self._broken: FileIdentity | None = None  # a key file found unusable (not read again until it changes)
        self._key_lock = threading.Lock()

    @property
    def secret_path(self) -> Path:
        """The key file."""
        return self._secret_path

    @property
    def key_bytes(self) -> bytes:
        """The raw HMAC key in use (see :meth:`load_key`). For tests, not for tools.

        Raises:
            ValueError, OSError: the key file cannot be used (see :meth:`load_key`).
        """
        return self._current_key()

    def load_key(self) -> None:
        """Read the key file now (creating it ``0600`` if missing) and keep the key in memory: the server calls it
        at start, so a broken key file stops the start rather than the first request.

        Raises:
            ValueError: the file is not a regular file, not hex, or shorter than 32 bytes.
            OSError: it cannot be created or read (a symlink: ``ELOOP``).
        """
        with self._key_lock:
            self._reload()

    def rotate_key(self) -> None:
        """Replace the key file with a new random key (atomic rename, ``0600``) and use it from now on. Every token
        signed with the old key stops verifying here at once, and in any other process that uses the same file
        (a running server) at its next request.

        Raises:
            OSError: the new key cannot be written (the old one then stays in place and in use).
        """
        with self._key_lock:
            replace_secret(self._secret_path, self._secret_bytes, min_bytes=MIN_SECRET_BYTES)
            self._reload()

    def _current_key(self) -> bytes:
        # One lstat per use; the file is read again only when it is another file than the one the key came from.
        identity = file_identity(self._secret_path)
        key = self._key
        if key is not None and identity == self._key_identity:
            return key
        with self._key_lock:
            if self._key is not None and file_identity(self._secret_path) == self._key_identity:
                return self._key
            if identity is not None and identity == self._broken:
                raise ValueError(f"the key file {self._secret_path} cannot be used")
            try:
                return self._reload()
            except (OSError, ValueError) as exc:
                self._broken = identity
                log.error("the key file %s cannot be used (%s); refusing every token until it is fixed or "
                          "rotated (obsigate secret rotate)", self._secret_path, exc)  # fmt: skip
                raise

    def _reload(self) -> bytes:
        """Read (or create) the key file into memory; the caller holds ``_key_lock``."""
        key, identity = load_or_create_secret_with_identity(
            self._secret_path, self._secret_bytes, min_bytes=MIN_SECRET_BYTES
        )
        if self._key is not None and key != self._key:
            log.warning(
                "the key in %s changed on disk; tokens signed with the previous key are refused from now on",
                self._secret_path,
            )
        self._key, self._key_identity, self._broken = key, identity, None
        return key

    def _signing_key(self) -> bytes:
        try:
            return self._current_key()
        except (OSError, ValueError):
            raise Unavailable(
                "the token signing key cannot be read; no token can be issued",
                hint="the server's operator can run: obsigate secret rotate",
            ) from None

    def _check_ttl(self, ttl_s: object) -> int:
        if isinstance(ttl_s, bool) or not isinstance(ttl_s, int):
            raise BadRequest("ttl_s must be an integer number of seconds")
        if not (self.min_ttl_s <= ttl_s <= self.max_ttl_s):
            raise BadRequest(
                f"ttl_s must be between {self.min_ttl_s} and {self.max_ttl_s} seconds",
                details={"min": self.min_ttl_s, "max": self.max_ttl_s},
            )
        return ttl_s

    def issue(
        self,
        user: User,
        *,
        ttl_s: int | None = None,
        extra_claims: Mapping[str, Any] | None = None,
    ) -> str:
        """Return a signed compact JWT for ``user``.

        Claims: ``iss``, ``aud``, ``sub`` = ``user.name``, ``uid`` = ``user.id`` (so a token
        outlives neither the deletion of its user nor a re-created namesake), ``jti`` (uuid4
        hex), ``typ`` = ``token_type``, ``iat`` = ``nbf`` = now and ``exp`` = now + ``ttl_s``
        (integer seconds, RFC 7519 §4.1), ``tv`` = ``user.token_version`` (:data:`TOKEN_VERSION_CLAIM`).
        ``extra_claims`` adds JSON-safe claims (e.g. the confirmation token's vault/path/hashes) but cannot
        override the ones above.

        Raises:
            BadRequest: ``ttl_s`` outside ``[min_ttl_s, max_ttl_s]``, or ``extra_claims`` names
                a reserved claim.
            Unavailable: the key file cannot be used (see :meth:`load_key`).
        """
        return self.mint(
            user.name, uid=user.id, ttl_s=ttl_s, extra_claims=extra_claims, token_version=user.token_version
        )[0]

    def mint(
        self,
        subject: str,
        *,
        uid: int | None = None,
        ttl_s: int | None = None,
        extra_claims: Mapping[str, Any] | None = None,
        token_version: int | None = None,
    ) -> tuple[str, dict[str, Any]]:
        """Sign a token for ``subject`` (the ``sub`` claim) and return it with its claims (as :meth:`issue`,
        without a user record: ``uid`` and ``tv`` only when given).

        Raises:
            BadRequest, Unavailable: as :meth:`issue`.
        """
        ttl = self.default_ttl_s if ttl_s is None else self._check_ttl(ttl_s)
        now = int(self._clock())
        claims: dict[str, Any] = {}
        if extra_claims:
            clash = RESERVED_CLAIMS.intersection(extra_claims)
            if clash:
                raise BadRequest(f"extra_claims may not set {sorted(clash)}")
            claims.update(extra_claims)
        claims.update(
            iss=self.issuer, aud=self.audience, sub=subject, jti=uuid.uuid4().hex, typ=self.token_type,
            iat=now, nbf=now, exp=now + ttl,
        )  # fmt: skip
        if uid is not None:
            claims["uid"] = uid
        if token_version is not None:
            claims[TOKEN_VERSION_CLAIM] = token_version
        return jwt.encode(claims, self._signing_key(), algorithm=ALGORITHM, headers={"typ": self.header_typ}), claims

    def verify(self, token: str) -> dict[str, Any]:
        """Verify ``token`` and return its claims.

        Checks, in order: size, signature with ``algorithms=["HS256"]`` only (so ``alg: none``
        and algorithm confusion fail, RFC 8725 §3.1), minimum key length, presence of
        ``required_claims``, ``exp``/``nbf``/``iat`` with ``leeway_s`` (and ``exp`` against the
        injected clock), ``aud`` and ``iss`` equality (RFC 7519 §4.1), then the header ``typ`` and
        the ``typ`` claim against this service's kind (RFC 8725 §3.11, RFC 9068 §4).

        Raises:
            Unauthenticated: on any failure. The message is generic; ``details["reason"]`` names
                the check that failed (e.g. ``expired``, ``invalid_audience``,
                ``missing_claim:exp``, ``wrong_type``; ``signing_key_unavailable`` when the key file cannot
                be used). The token never appears in the error, and the PyJWT exception is not chained.
        """
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_CHARS:
            raise _fail("malformed")
        try:
            key = self._current_key()
        except (OSError, ValueError):
            raise _fail("signing_key_unavailable") from None
        try:
            decoded = jwt.decode_complete(
                token,
                key,
                algorithms=[ALGORITHM],
                audience=self.audience,
                issuer=self.issuer,
                leeway=self.leeway_s,
                options={"require": list(self.required_claims), "enforce_minimum_key_length": True, "strict_aud": True},
            )
        except jwt.InvalidTokenError as exc:
            raise _fail(_jwt_reason(exc)) from None
        header, claims = decoded["header"], decoded["payload"]
        if not isinstance(claims["exp"], int) or claims["exp"] + self.leeway_s <= self._clock():
            raise _fail("expired")
        if _norm_media_type(header.get("typ")) != _norm_media_type(self.header_typ):
            raise _fail("wrong_type")
        if claims.get("typ") != self.token_type:
            raise _fail("wrong_type")
        if not isinstance(claims.get("sub"), str) or not claims["sub"]:
            raise _fail("malformed")
        return claims


def _fail(reason: str) -> Unauthenticated:
    return Unauthenticated(_GENERIC, details={"reason": reason})


#: ``details.reason`` of the PyJWT failures that have their own; the first ``isinstance`` match wins.
_JWT_REASONS: tuple[tuple[type[jwt.InvalidTokenError], str], ...] = (
    (jwt.ExpiredSignatureError, "expired"),
    (jwt.ImmatureSignatureError, "not_yet_valid"),
    (jwt.InvalidAudienceError, "invalid_audience"),
    (jwt.InvalidIssuerError, "invalid_issuer"),
    (jwt.InvalidSignatureError, "invalid_signature"),
    (jwt.InvalidAlgorithmError, "invalid_algorithm"),
)


def _jwt_reason(exc: jwt.InvalidTokenError) -> str:
    """The check a PyJWT failure stands for: ``missing_claim:<name>``, a :data:`_JWT_REASONS` entry, or
    ``malformed`` (``DecodeError`` and the remaining claim-format errors)."""
    if isinstance(exc, jwt.MissingRequiredClaimError):
        return f"missing_claim:{exc.claim}"
    return next((reason for kind, reason in _JWT_REASONS if isinstance(exc, kind)), "malformed")
