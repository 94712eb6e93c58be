"""MCP authentication and transport security: the SDK's ``TokenVerifier`` over ObsiGate's bearer check.

The MCP endpoint is an OAuth 2.1 *resource server* (MCP 2025-11-25 and 2026-07-28
``basic/authorization``): the SDK's ``BearerAuthBackend`` calls :class:`ObsiGateTokenVerifier` on every
HTTP request, answers 401 + ``WWW-Authenticate: Bearer ..., resource_metadata="..."`` when it returns
``None``, and serves the RFC 9728 metadata. The verifier accepts exactly what the REST API accepts (an
ObsiGate access JWT, audience ``obsigate-api``, or an ``og_`` API key) and carries the resulting
:class:`~obsigate.auth.principal.Principal` in ``AccessToken.claims`` so MCP handlers can rebuild it
(:func:`principal_from_access_token`) without authenticating twice.

Tokens are never logged: only the failure reason (``expired``, ``invalid_signature``...) is.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

import anyio
import jwt
from mcp.server.auth.provider import AccessToken, TokenVerifier
from mcp.server.transport_security import TransportSecuritySettings

from obsigate.auth.principal import BearerAuthenticator, Principal
from obsigate.tools.api import Unauthenticated

__all__ = [
    "MCP_SCOPE",
    "PRINCIPAL_CLAIM",
    "ObsiGateTokenVerifier",
    "principal_from_access_token",
    "transport_security",
]

log = logging.getLogger(__name__)

#: The one scope every ObsiGate credential carries on MCP; per-vault grants live in the principal.
MCP_SCOPE = "vault"
#: ``AccessToken.claims`` key holding the serialised principal (see :func:`principal_from_access_token`).
PRINCIPAL_CLAIM = "obsigate/principal"
#: ``iss`` reported to the SDK: with ``client_id`` and ``subject`` it identifies a legacy session's owner.
ISSUER = "obsigate"

_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


class ObsiGateTokenVerifier(TokenVerifier):
    """SDK ``TokenVerifier`` backed by :class:`~obsigate.auth.principal.BearerAuthenticator`.

    Args:
        authenticator: the same authenticator the REST API uses (JWT access tokens and ``og_`` API keys;
            the user is re-read on every call, so revocations and grant changes apply to the next request).
        resource: the canonical MCP URL (``f"{base_url}/mcp"``), reported as ``AccessToken.resource``.

    The audience check is the authenticator's (``aud == "obsigate-api"``, the audience of every ObsiGate
    access token, REST and MCP alike), so the mount sets ``AuthSettings.validate_token_resource=False``
    as the SDK documents for verifiers that check the audience themselves.
    """

    def __init__(self, authenticator: BearerAuthenticator, *, resource: str) -> None:
        self._authenticator = authenticator
        self._resource = resource

    async def verify_token(self, token: str) -> AccessToken | None:
        """Return the ``AccessToken`` for a valid bearer credential, or ``None`` (→ HTTP 401).

        ``client_id`` and ``subject`` are the user name, ``scopes`` is ``["vault"]``, ``expires_at`` the
        JWT's ``exp`` (``None`` for API keys, whose expiry and revocation the authenticator checks on every
        request), ``claims`` ``{"iss": "obsigate", "obsigate/principal": {...}}``.
        """
        try:
            # The user store is SQLite behind a lock: keep it off the event loop.
            principal = await anyio.to_thread.run_sync(self._authenticator.authenticate, token)
        except Unauthenticated as exc:
            log.info("MCP bearer credential rejected (%s)", exc.details.get("reason", "unknown"))
            return None
        return AccessToken(
            token=token,
            client_id=principal.name,
            scopes=[MCP_SCOPE],
            expires_at=_jwt_expiry(token) if principal.auth_kind == "jwt" else None,
            resource=self._resource,
            subject=principal.name,
            claims={"iss": ISSUER, PRINCIPAL_CLAIM: _dump_principal(principal)},
        )


def _jwt_expiry(token: str) -> int | None:
    # Only called after the authenticator verified signature and claims; this just reads ``exp``.
    try:
        exp = jwt.decode(token, options={"verify_signature": False}).get("exp")
    except jwt.InvalidTokenError:
        return None
    return exp if isinstance(exp, int) else None


def _dump_principal(p: Principal) -> dict[str, Any]:
    return {
        "name": p.name,
        "is_admin": p.is_admin,
        "vaults": None if p.vaults is None else sorted(p.vaults),
        "auth_kind": p.auth_kind,
        "token_id": p.token_id,
    }


def principal_from_access_token(token: AccessToken | None) -> Principal | None:
    """Rebuild the :class:`Principal` an :class:`ObsiGateTokenVerifier` stored in ``token.claims``.

    Returns ``None`` when ``token`` is ``None`` or was not produced by this verifier (fail closed: the
    caller treats that as unauthenticated).
    """
    data = (token.claims or {}).get(PRINCIPAL_CLAIM) if token is not None else None
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        return None
    vaults = data.get("vaults")
    return Principal(
        name=data["name"],
        is_admin=bool(data.get("is_admin")),
        vaults=None if vaults is None else frozenset(vaults),
        auth_kind=str(data.get("auth_kind") or "jwt"),
        token_id=data.get("token_id"),
    )


def transport_security(
    base_url: str, allowed_hosts: list[str] | None = None, allowed_origins: list[str] | None = None
) -> TransportSecuritySettings:
    """DNS-rebinding protection for ``/mcp`` (MCP 2025-11-25 transports §Security Warning: servers MUST
    validate ``Origin``; a present but invalid ``Origin`` gets 403). Always enabled.

    Allowed ``Host`` values: the loopback names on any port (``127.0.0.1``, ``localhost``, ``[::1]``,
    with or without ``:port``), ``base_url``'s host on any port, and ``allowed_hosts`` verbatim (an entry
    may end in ``:*`` for any port). Allowed ``Origin`` values: ``http``/``https`` loopback origins on any
    port, ``base_url``'s origin, and ``allowed_origins`` verbatim. A request without ``Origin`` (every
    non-browser client) passes the Origin check; a wrong ``Host`` gets 421, a wrong ``Origin`` 403.

    Raises:
        ValueError: ``base_url`` is not an absolute ``http(s)`` URL.
    """
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url must be an absolute http(s) URL, got {base_url!r}")
    hosts: list[str] = []
    origins: list[str] = []
    for name in _LOOPBACK_HOSTS:
        hosts += [name, f"{name}:*"]
        origins += [f"{scheme}://{name}{port}" for scheme in ("http", "https") for port in ("", ":*")]
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    hosts += [host, f"{host}:*"]
    default_port = {"http": 80, "https": 443}[parts.scheme]
    origins.append(f"{parts.scheme}://{host}")
    if parts.port is not None and parts.port != default_port:
        origins[-1] += f":{parts.port}"
    hosts += list(allowed_hosts or [])
    origins += [o.rstrip("/") for o in allowed_origins or []]
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=list(dict.fromkeys(hosts)),
        allowed_origins=list(dict.fromkeys(origins)),
    )
