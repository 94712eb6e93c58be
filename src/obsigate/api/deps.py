"""Request-scoped dependencies: the caller's principal, a ready :class:`ToolContext`, the cross-site checks.

Two credentials reach the REST API (``docs/architecture.md``, issue 11):

* ``Authorization: Bearer <JWT or og_ API key>`` — scripts, agents, the CLI. It always wins when present.
* the ``obsigate_session`` cookie (``POST /api/auth/session``) — the web app only. It holds an access JWT
  (never an API key), is ``HttpOnly`` (a script injected through a note cannot read it) and
  ``SameSite=Strict`` (RFC 6265bis §5.6.7.1 / §8.8: a browser never attaches it to a request started by
  another site). A cookie is still *ambient* — the browser adds it by itself — so every cookie-authenticated
  write also passes :func:`check_same_site` here, once, whatever the route (OWASP CSRF Prevention Cheat
  Sheet: SameSite as defence in depth plus a standard-header Origin check). A cookie request's tools run in
  ``mode="web"``: the person's own budget (``web_rate_limit``), REST's visibility and confirmation rules.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool

from obsigate.api.hosts import origin_allowed, own_origins
from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.auth.users import API_KEY_PREFIX
from obsigate.tools.api import BadRequest, Forbidden, ToolContext, Unauthenticated

#: The web app's session cookie (``api/routes_session.py`` sets and clears it).
SESSION_COOKIE = "obsigate_session"
#: The claim that marks a JWT issued by ``POST /api/auth/session``: only such a token is accepted as the cookie,
#: so a script's token (``obsigate token create``, ``/api/auth/login``) cannot borrow the web app's budget.
SESSION_CLAIM = "web_session"
#: Methods that change something: the cross-site checks apply to them (RFC 9110 §9.2.1 "safe" methods are not).
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: The header the web app's file uploads carry (a multipart body passes the cross-site checks with it).
UPLOAD_HEADER = "x-obsigate-upload"
#: ``Sec-Fetch-Site`` values a browser sends for a request started by this server's own page (or typed in).
_OWN_FETCH_SITES = frozenset({"same-origin", "none"})


def check_same_site(request: Request) -> None:
    """The cross-site checks of every browser-reachable write (``routes_write.py``'s module docstring); also a
    FastAPI dependency. ``Origin``, when sent, must be this server's (``hosts.own_origins``); a POST, PUT or
    PATCH body must be declared as JSON, which a cross-site "simple" request (no CORS preflight) cannot do, or be
    a multipart upload with an ``Authorization`` or :data:`UPLOAD_HEADER` header (neither can such a request send).

    Raises:
        Forbidden (``forbidden_origin``): an ``Origin`` that is not this server.
        BadRequest (``unsupported_media_type``): a POST, PUT or PATCH body that is not declared as JSON.
    """
    origin = request.headers.get("origin")
    if origin is not None:
        settings = request.app.state.settings
        own = own_origins(
            settings.base_url, request.url.scheme, request.headers.get("host", ""), settings.allowed_origins
        )
        if not origin_allowed(origin, own):
            raise Forbidden(
                f"cross-site write refused (Origin {origin!r} is not this server)",
                code="forbidden_origin",
                hint="write from this server's own page, or list the origin in OBSIGATE_ALLOWED_ORIGINS",
            )
    content_type = request.headers.get("content-type", "")
    if request.method in ("POST", "PUT", "PATCH") and not content_type.startswith("application/json"):
        # a file upload (POST /api/files) is multipart, which a cross-site form can send: it must also carry a
        # header such a page cannot set without a CORS preflight (never granted here)
        upload = request.headers.get(UPLOAD_HEADER) or request.headers.get("authorization")
        if not (content_type.startswith("multipart/form-data") and upload):
            raise BadRequest(
                "send the body as JSON (Content-Type: application/json), or a file upload as multipart/form-data "
                f"with an Authorization or {UPLOAD_HEADER} header",
                code="unsupported_media_type",
            )


def check_browser_write(request: Request) -> None:
    """:func:`check_same_site` for a cookie-authenticated write (and the session routes), plus the Fetch
    Metadata check: a browser that says the request came from another site (``Sec-Fetch-Site: cross-site`` or
    ``same-site``) without an ``Origin`` is refused (OWASP CSRF Prevention Cheat Sheet, "Fetch Metadata
    headers"); with an ``Origin``, :func:`check_same_site` already decided (``allowed_origins`` included).

    Raises:
        Forbidden (``forbidden_origin``), BadRequest (``unsupported_media_type``): as :func:`check_same_site`.
    """
    check_same_site(request)
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in _OWN_FETCH_SITES and request.headers.get("origin") is None:
        raise Forbidden(
            f"cross-site write refused (Sec-Fetch-Site: {site})", code="forbidden_origin",
            hint="write from this server's own page",
        )  # fmt: skip


#: Declares the bearer credential to OpenAPI: every operation that needs the caller names the ``bearer`` scheme
#: (``api/openapi_doc.py`` drops it when auth is off). It refuses nothing itself: :func:`get_principal` reads
#: the header (and the cookie) and decides.
BEARER = HTTPBearer(
    scheme_name="bearer",
    description="A JWT (`POST /api/auth/login`, `obsigate token create`) or an `og_` API key.",
    auto_error=False,
)


def _is_web(request: Request) -> bool:
    """Whether this request is the web app's (set by :func:`get_principal`)."""
    return bool(getattr(request.state, "web", False))


async def get_principal(
    request: Request, _declared: Annotated[HTTPAuthorizationCredentials | None, Depends(BEARER)]
) -> Principal:
    """The caller: anonymous when auth is disabled, else from ``Authorization: Bearer <JWT or API key>`` or,
    with no ``Authorization`` header, from the ``obsigate_session`` cookie (an access JWT; the request is then
    the web app's, ``request.state.web = True``, and a write must pass the cross-site checks).

    With auth disabled there is no cookie; a request the browser marks ``Sec-Fetch-Site: same-origin`` (a
    forbidden header name: page scripts cannot set it) counts as the web app's for its budget. A non-browser
    client could send it too, but with auth off it can already do anything the web app can.

    Raises:
        Unauthenticated: no or bad credentials (rendered as 401 with ``WWW-Authenticate: Bearer``); an
            expired or forged cookie too (the web app then shows its sign-in page).
        Forbidden (``forbidden_origin``), BadRequest (``unsupported_media_type``): a cookie-authenticated
            write that fails the cross-site checks.
    """
    state = request.app.state
    header = request.headers.get("authorization")
    if not state.settings.auth_enabled:
        request.state.web = header is None and request.headers.get("sec-fetch-site") == "same-origin"
        return ANONYMOUS
    if header is None:
        cookie = request.cookies.get(SESSION_COOKIE, "").strip()
        if cookie:
            if cookie.startswith(API_KEY_PREFIX) or not _is_session_token(state, cookie):  # session JWTs only
                raise Unauthenticated(
                    "invalid session; sign in again",
                    details={"reason": "invalid_session"},
                    hint="POST /api/auth/session",
                )
            if request.method in WRITE_METHODS:
                check_browser_write(request)  # before the credential: a forged request learns nothing
            principal = await run_in_threadpool(state.auth.authenticator.authenticate, cookie)
            request.state.web = True
            return principal
    scheme, _, credentials = (header or "").partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        raise Unauthenticated(
            "authentication required: send 'Authorization: Bearer <token>'", hint="POST /api/auth/login"
        )
    return await run_in_threadpool(state.auth.authenticator.authenticate, credentials.strip())


def _is_session_token(state: Any, token: str) -> bool:
    """False when ``token`` is a valid JWT without :data:`SESSION_CLAIM` (a script's token offered as the cookie);
    True otherwise, a token that does not verify included: the authenticator then refuses it with its own
    reason (``expired``...)."""
    try:
        return state.auth.tokens.verify(token).get(SESSION_CLAIM) is True
    except Unauthenticated:
        return True


async def get_tool_context(request: Request, principal: Annotated[Principal, Depends(get_principal)]) -> ToolContext:
    """The caller's :class:`ToolContext`: ``mode="web"`` for the web app's requests (see the module
    docstring), ``"rest"`` otherwise."""
    mode = "web" if _is_web(request) else "rest"
    return ToolContext(principal=principal, runtime=request.app.state.runtime, mode=mode)


Ctx = Annotated[ToolContext, Depends(get_tool_context)]
CurrentPrincipal = Annotated[Principal, Depends(get_principal)]
