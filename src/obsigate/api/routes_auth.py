"""Authentication routes: password login for a JWT, the web app's cookie session, and who-am-I.

``POST /api/auth/login`` answers the JWT in the body (scripts, the CLI). ``POST /api/auth/session`` checks
the same password (same rate limits, same error codes) and puts the JWT in the ``obsigate_session`` cookie
instead — ``HttpOnly`` (no page script, so no script injected through a note, can read it), ``SameSite=Strict``
(RFC 6265bis §5.6.7.1: never sent on a request another site starts), ``Path=/``, ``Max-Age`` = ``token_ttl``
and ``Secure`` when the public URL is https. ``DELETE /api/auth/session`` clears it and revokes that token in
this process. Both session routes refuse another site's page (``deps.check_browser_write``: login CSRF, OWASP).
How a cookie request is authenticated and guarded against CSRF: ``api/deps.py``.

``POST /api/auth/signout-all`` signs the caller out everywhere: every JWT and web session issued to them so far is
refused from the next request (the user's token version, ``auth/users.py``), API keys excepted. Both password
routes pass the sign-in throttle first (``auth/throttle.py``; the client address: ``api/client_address.py``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from obsigate.api.client_address import client_address
from obsigate.api.deps import SESSION_CLAIM, SESSION_COOKIE, CurrentPrincipal, check_browser_write
from obsigate.auth.principal import Principal
from obsigate.auth.users import User
from obsigate.tools.api import BadRequest, Unauthenticated

router = APIRouter(prefix="/api/auth", tags=["auth"])


class LoginRequest(BaseModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class LoginResponse(BaseModel):
    access_token: str
    token_type: str = "bearer"
    expires_in: int = Field(description="Seconds until the token expires.")


async def _check_password(request: Request, body: LoginRequest) -> User:
    """The user ``body`` names, once its password is checked (both login routes).

    Raises:
        BadRequest (``auth_disabled``): authentication is off on this server.
        RateLimited (``rate_limited``, 429 with ``Retry-After``): the sign-in throttle held the attempt
            (``auth/throttle.py``: per user name and client address, per name, per address).
        Unauthenticated: unknown user or wrong password (one message for both).
    """
    state = request.app.state
    if not state.settings.auth_enabled:
        raise BadRequest("authentication is disabled on this server; no token is needed", code="auth_disabled")
    address = client_address(request)
    state.login_throttle.admit(body.username, address)  # counted before the slow argon2 check — security.md §4.5
    user: User = await run_in_threadpool(state.auth.users.verify_password, body.username, body.password)
    state.login_throttle.succeeded(body.username, address)
    return user


@router.post("/login", response_model=LoginResponse, summary="Exchange a user name and password for a JWT")
async def login(request: Request, body: LoginRequest) -> LoginResponse:
    user = await _check_password(request, body)
    ttl = request.app.state.settings.token_ttl
    return LoginResponse(access_token=request.app.state.auth.tokens.issue(user, ttl_s=ttl), expires_in=ttl)


def _me(principal: Principal) -> dict[str, Any]:
    return {
        "name": principal.name,
        "is_admin": principal.is_admin,
        "vaults": None if principal.vaults is None else sorted(principal.vaults),
    }


def _cookie_flags(request: Request) -> dict[str, Any]:
    # Secure only over https: a plain-http loopback server must still be usable (browsers drop Secure cookies
    # set over http, except on localhost). Same flags to set and to clear: a browser matches on name+path.
    return {
        "path": "/",
        "httponly": True,
        "samesite": "strict",
        "secure": request.app.state.settings.base_url.startswith("https://"),
    }


@router.post(
    "/session", summary="Sign the web app in: the JWT in an HttpOnly, SameSite=Strict cookie",
    dependencies=[Depends(check_browser_write)],  # login CSRF (OWASP): another site cannot sign you in as itself
    responses={401: {"description": "unknown user or wrong password"}, 429: {"description": "too many attempts"}},
)  # fmt: skip
async def create_session(request: Request, body: LoginRequest, response: Response) -> dict[str, Any]:
    """Body ``{"username", "password"}`` → ``{"user": {"name", "is_admin", "vaults"}}`` (``vaults``: names,
    ``null`` = every vault) and ``Set-Cookie: obsigate_session=<JWT>; HttpOnly; SameSite=Strict; Path=/;
    Max-Age=<token_ttl>[; Secure]``. Errors as ``POST /api/auth/login`` (400 ``auth_disabled`` when auth is
    off: the web app then needs no sign-in); 403 ``forbidden_origin`` from another site's page."""
    user = await _check_password(request, body)
    state = request.app.state
    ttl = state.settings.token_ttl
    token = state.auth.tokens.issue(user, ttl_s=ttl, extra_claims={SESSION_CLAIM: True})
    response.set_cookie(SESSION_COOKIE, token, max_age=ttl, **_cookie_flags(request))
    return {"user": _me(Principal.from_user(user, "jwt"))}


@router.delete(
    "/session", status_code=204, summary="Sign the web app out: clear the session cookie",
    dependencies=[Depends(check_browser_write)],
)  # fmt: skip
async def delete_session(request: Request) -> Response:
    """Clears the cookie (``Max-Age=0``) and revokes its token in this process, on every front
    (``BearerAuthenticator.revoke``: a copy taken earlier stops working too, until a restart; it expires at
    ``token_ttl`` anyway). 204 even without a session."""
    token = request.cookies.get(SESSION_COOKIE, "").strip()
    if token:
        try:
            claims = request.app.state.auth.tokens.verify(token)
        except Unauthenticated:
            pass  # expired or forged: nothing to revoke
        else:
            request.app.state.auth.authenticator.revoke(claims["jti"], claims["exp"])
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, **_cookie_flags(request))
    return response


@router.post(
    "/signout-all", status_code=204, summary="Sign out everywhere: every JWT and web session of the caller ends",
    responses={400: {"description": "auth_disabled"}, 401: {"description": "unauthenticated"}},
)  # fmt: skip
async def sign_out_everywhere(request: Request, principal: CurrentPrincipal) -> Response:
    """Every JWT and web session issued to the caller so far, this one included, is refused from the next request
    on every front (REST, the web app, MCP), also in another browser or on another machine; 204, and the session
    cookie is cleared. A new sign-in works at once. The caller's API keys (``og_...``) keep working: an admin
    revokes them (``DELETE /api/admin/users/{name}/keys/{key_id}``, or ``obsigate user signout-all NAME
    --api-keys``). A cookie-authenticated call passes the cross-site checks (send it as JSON from this server's
    page). 400 ``auth_disabled`` when authentication is off."""
    state = request.app.state
    if not state.settings.auth_enabled:
        raise BadRequest("authentication is disabled on this server; there is no session to end", code="auth_disabled")
    await run_in_threadpool(state.auth.users.sign_out_everywhere, principal.name)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, **_cookie_flags(request))
    return response


@router.get("/me", summary="The authenticated caller")
async def me(principal: CurrentPrincipal) -> dict[str, Any]:
    """``{"name", "is_admin", "vaults", "auth_kind"}``; the web app calls it at start to learn whether its
    cookie is still good (401: show the sign-in page)."""
    return {**_me(principal), "auth_kind": principal.auth_kind}
