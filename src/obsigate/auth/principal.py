"""The authenticated identity of a request, and bearer authentication.

A :class:`Principal` is what the fronts hand to the tool layer: who is calling, which vaults
they may touch and which credential they used. :class:`BearerAuthenticator` turns an
``Authorization: Bearer`` value (a JWT access token or an ``og_`` API key) into one, re-reading
the user on every call so that deletion and grant changes apply to the very next request
(``security.md`` §1.2, obsidian-tc CVE-2026-77366: vault authz from the server-side map).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

from obsigate.auth.tokens import TOKEN_VERSION_CLAIM, TokenService
from obsigate.auth.users import API_KEY_PREFIX, User, UserStore, api_key_id
from obsigate.services.errors import Unauthenticated

__all__ = ["ANONYMOUS", "BearerAuthenticator", "Principal"]


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling.

    Attributes:
        name: user name, ``"anonymous"`` when auth is disabled.
        is_admin: may manage users; does not by itself grant vaults.
        vaults: vault names granted, or ``None`` for every vault (``"*"``).
        auth_kind: ``"jwt"``, ``"api_key"`` or ``"anonymous"``.
        token_id: the JWT's ``jti`` or the API key's id, for rate limits and audit. Never the
            secret itself.
    """

    name: str
    is_admin: bool
    vaults: frozenset[str] | None
    auth_kind: str
    token_id: str | None = None

    @classmethod
    def from_user(cls, user: User, auth_kind: str, token_id: str | None = None) -> Principal:
        """Build a principal from a freshly read :class:`User`."""
        return cls(user.name, user.is_admin, user.vaults, auth_kind, token_id)

    def can_access(self, vault: str) -> bool:
        """True if ``vault`` is granted (always true for ``vaults=None``)."""
        return self.vaults is None or vault in self.vaults

    def allowed_vaults(self, declared: Iterable[str]) -> list[str]:
        """The declared vaults this principal may access, in declared order, without duplicates."""
        seen: set[str] = set()
        out = []
        for v in declared:
            if v not in seen and self.can_access(v):
                seen.add(v)
                out.append(v)
        return out


#: The identity used when authentication is disabled: admin, every vault.
ANONYMOUS = Principal(name="anonymous", is_admin=True, vaults=None, auth_kind="anonymous")

_BAD = "invalid or expired credentials"


class BearerAuthenticator:
    """Authenticate bearer credentials against the user store and the access-token service."""

    def __init__(self, users: UserStore, tokens: TokenService) -> None:
        self._users = users
        self._tokens = tokens
        self._revoked: dict[str, int] = {}  # jti -> exp of signed-out access tokens (this process)
        self._lock = threading.Lock()

    def revoke(self, jti: str, exp: int) -> None:
        """Refuse the access token ``jti`` (expiring at ``exp``, epoch s) from now on, on every front (REST,
        the web app's cookie, MCP): the web app's sign-out. In memory: a restart forgets it, and the token
        expires at ``exp`` anyway. Expired entries are dropped as new ones come, so the map stays small."""
        now = int(time.time())
        with self._lock:
            for old in [k for k, v in self._revoked.items() if v < now]:
                del self._revoked[old]
            self._revoked[jti] = exp

    def authenticate(self, bearer: str) -> Principal:
        """Return the principal for ``bearer``: a JWT access token or an ``og_`` API key.

        A leading ``"Bearer "`` (any case) is tolerated, so the raw header value works too.
        The user is re-read on every call: a deleted user, a user re-created under the same
        name (the JWT's ``uid`` no longer matches) or changed grants take effect at once, and so does a
        password change or a sign-out everywhere (the JWT's ``tv`` is older than the user's
        ``token_version``: reason ``revoked``). That row is the only read per call; a JWT without ``tv``
        (issued before token versions existed) counts as version 0.

        Raises:
            Unauthenticated: missing, malformed, expired, revoked or unknown credentials. The
                message never contains the credential; ``details["reason"]`` says why.
        """
        token = bearer.strip() if isinstance(bearer, str) else ""
        if token[:7].lower() == "bearer ":
            token = token[7:].strip()
        if not token:
            raise Unauthenticated("missing bearer token", details={"reason": "missing"})

        if token.startswith(API_KEY_PREFIX):
            user = self._users.verify_api_key(token)
            if user is None:
                raise Unauthenticated(_BAD, details={"reason": "invalid_api_key"})
            return Principal.from_user(user, "api_key", api_key_id(token))

        claims = self._tokens.verify(token)  # raises Unauthenticated with a reason
        if claims["jti"] in self._revoked:
            raise Unauthenticated("this session was signed out", details={"reason": "revoked"})
        user = self._users.get_user(claims["sub"])
        if user is None or user.name != claims["sub"] or claims.get("uid") != user.id:
            raise Unauthenticated(_BAD, details={"reason": "unknown_user"})
        version = claims.get(TOKEN_VERSION_CLAIM, 0)
        if type(version) is not int or version != user.token_version:
            raise Unauthenticated(
                "this session was signed out (password changed or signed out everywhere); sign in again",
                details={"reason": "revoked"},
            )
        return Principal.from_user(user, "jwt", claims["jti"])
