"""Builds the FastAPI application from live parts: REST routes, the MCP endpoint at ``/mcp``, the web app.

The composition root (:func:`obsigate.bootstrap.create_app`) turns settings into those parts and calls
:func:`build_app`. The lifespan starts the background indexer (the server answers at once; search says when
the index is still incomplete) and the MCP session manager, and stops both on shutdown.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import importlib.util
import logging
import re
import secrets
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any, Protocol

import anyio
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware

from obsigate import __version__
from obsigate.agent.assistant import Assistant
from obsigate.agent.settings import AISettings
from obsigate.api import (
    routes,
    routes_admin,
    routes_ai,
    routes_ai_actions,
    routes_ai_config,
    routes_ai_images,
    routes_ai_plan,
    routes_ai_skills,
    routes_assistant_context,
    routes_auth,
    routes_bases,
    routes_files,
    routes_graph,
    routes_user_files,
    routes_write,
)
from obsigate.api.body_limit import BodyLimit
from obsigate.api.client_address import parse_networks
from obsigate.api.hosts import HostGuard
from obsigate.api.openapi_doc import document_api
from obsigate.api.openapi_mcp import document_mcp
from obsigate.api.render import InternalErrors, install_error_handlers
from obsigate.api.routes_user_files import UPLOAD_OVERHEAD
from obsigate.auth.principal import BearerAuthenticator
from obsigate.auth.throttle import LoginThrottle
from obsigate.auth.tokens import TokenService
from obsigate.auth.users import UserStore
from obsigate.mcp.auth import transport_security
from obsigate.mcp.mount import mount_mcp
from obsigate.tools import api as tools_api  # noqa: F401 — registers the tool catalog
from obsigate.tools.api import ToolRuntime, expire_session_leftovers

#: How often the server deletes what ended sessions left (expired files, idle MCP session plans).
FILES_SWEEP_S = 600.0

log = logging.getLogger("obsigate.housekeeping")


async def _every(every_s: float, job: Callable[[], object], what: str) -> None:
    """Run ``job`` in a worker thread every ``every_s`` seconds until cancelled; a failure is logged (``what``
    failed) and the next round runs."""
    while True:
        await anyio.sleep(every_s)
        try:
            await anyio.to_thread.run_sync(job)
        except Exception:
            log.exception("%s failed", what)


async def expire_files_forever(runtime: ToolRuntime, every_s: float = FILES_SWEEP_S) -> None:
    """Delete the file space's expired files and idle MCP sessions' plans (``expire_session_leftovers``) every
    ``every_s`` seconds, off the event loop, until cancelled (a failed sweep is logged and the next one runs)."""
    if runtime.data_dir is not None:
        await _every(every_s, lambda: expire_session_leftovers(runtime), "expiring sessions' files and plans")


async def sign_journal_forever(runtime: ToolRuntime, every_s: float) -> None:
    """Sign the tool journal's unsigned tail (``ToolJournal.sign_tail``) every ``every_s`` seconds, off the event
    loop, until cancelled (a failure is logged and the next round runs)."""
    if runtime.journal is not None:
        await _every(every_s, runtime.journal.sign_tail, "signing the tool journal's tail")


class AppSettings(Protocol):
    """The settings the web app reads (``obsigate.config.Settings`` has them)."""

    auth_enabled: bool
    token_ttl: int
    allowed_hosts: list[str]
    allowed_origins: list[str]
    trusted_proxies: list[str]
    max_body_bytes: int
    mcp_max_body_bytes: int
    journal_checkpoint_seconds: float

    @property
    def base_url(self) -> str: ...  # read-only: a property of Settings


class AuthParts(Protocol):
    """The auth objects the app uses (``obsigate.bootstrap.AuthParts``)."""

    users: UserStore
    tokens: TokenService
    authenticator: BearerAuthenticator


def build_app(
    settings: AppSettings,
    runtime: ToolRuntime,
    auth: AuthParts,
    ai_settings: AISettings | None = None,
    assistant: Assistant | None = None,
    on_close: Callable[[], None] | None = None,
) -> FastAPI:
    """Return a ready-to-serve app over ``runtime`` (the tool layer) and ``auth`` (users, tokens, the bearer
    authenticator); it owns them from now on and closes the index and the user store on shutdown.
    ``ai_settings``: the assistant's provider settings (``/api/ai/status``, ``/api/config``); without them
    those routes answer 503 ``unavailable``; so do the assistant's without ``assistant`` (closed on shutdown).
    ``on_close``: called last on a clean shutdown (the composition root's own cleanup: the data dir's owner file)."""
    holder: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        indexer = runtime.workspace.indexer
        if indexer is not None:
            await indexer.start()
        sweeper = asyncio.create_task(expire_files_forever(runtime))
        signer = asyncio.create_task(sign_journal_forever(runtime, settings.journal_checkpoint_seconds))
        try:
            async with holder["mcp"].run():
                yield
        finally:
            sweeper.cancel()
            signer.cancel()
            if indexer is not None:
                await indexer.stop()
            if runtime.files is not None:
                runtime.files.close()
            if assistant is not None:
                await assistant.aclose()
            runtime.workspace.index.close()
            if runtime.journal is not None:  # signs the journal's tail (a checkpoint) and closes it
                runtime.journal.close()
            auth.users.close()
            if on_close is not None:
                on_close()

    app = FastAPI(
        title="ObsiGate",
        version=__version__,
        description="Gateway between Obsidian-style markdown vaults and AI agents. MCP (Streamable HTTP) at /mcp.",
        lifespan=lifespan,
        docs_url=None,  # served below from packaged assets: no CDN, so /docs works offline
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.runtime = runtime
    app.state.auth = auth
    app.state.ai_settings = ai_settings
    app.state.assistant = assistant
    app.state.login_throttle = LoginThrottle()  # per name+address, name, address: auth/throttle.py
    app.state.trusted_proxies = parse_networks(settings.trusted_proxies)  # whose X-Forwarded-For counts
    install_error_handlers(app)
    security = transport_security(settings.base_url, settings.allowed_hosts, settings.allowed_origins)
    uploads = {"/api/files": getattr(settings, "files_max_bytes", settings.max_body_bytes) + UPLOAD_OVERHEAD}
    app.add_middleware(
        BodyLimit, max_bytes=settings.max_body_bytes, mcp_max_bytes=settings.mcp_max_body_bytes, upload_paths=uploads
    )
    app.add_middleware(HostGuard, allowed_hosts=security.allowed_hosts)
    app.add_middleware(InternalErrors)  # last added = outermost: it answers a failure of any part inside
    app.state.allowed_hosts = security.allowed_hosts  # write routes check a browser's Origin against it

    @app.get("/api/health", tags=["health"], summary="Liveness and index state (no auth)")
    async def health() -> dict[str, Any]:
        indexer = runtime.workspace.indexer
        # status() counts the index's rows (SQLite, ≈ 25 ms at 100k notes): off the event loop, so a health
        # probe never holds up MCP and REST requests (issue 20)
        index = await anyio.to_thread.run_sync(indexer.status) if indexer is not None else {"state": "ready"}
        return {"status": "ok", "version": __version__, "auth": settings.auth_enabled, "index": index}

    _serve_web_app(app)
    _serve_api_docs(app)
    for module in (
        routes_auth,
        routes,
        routes_files,
        routes_user_files,
        routes_graph,
        routes_bases,
        routes_write,
        routes_ai_config,
        routes_admin,
        routes_assistant_context,
        routes_ai_skills,  # before any /api/ai/{name} route: "skills" is not a name
        routes_ai,
        routes_ai_plan,  # the conversations' plans (issue 21)
        routes_ai_images,
        routes_ai_actions,  # POST /api/ai/{action}: only the 16 action ids match it
    ):  # routes: every plain tool route, one table
        app.include_router(module.router)
    # Adds exact routes for /mcp (and its RFC 9728 metadata); unknown paths keep our JSON 404.
    holder["mcp"] = mount_mcp(
        app,
        runtime,
        authenticator=auth.authenticator if settings.auth_enabled else None,
        base_url=settings.base_url,
        allowed_hosts=settings.allowed_hosts,
        allowed_origins=settings.allowed_origins,
        max_body_bytes=settings.mcp_max_body_bytes,
    )
    document_mcp(app, auth=settings.auth_enabled)  # /mcp in /openapi.json, under the mcp tag
    limits = runtime.workspace.limits  # the error shape, bearer security, tool bodies and answer caps
    document_api(
        app, auth=settings.auth_enabled, budget_chars=limits.budget_chars, max_read_bytes=limits.max_read_bytes
    )
    return app


#: The web app's Content-Security-Policy: nothing inline, nothing remote (issue 11 item 1; a script injected
#: through a note cannot run, and could reach no other origin if it did). ``blob:``/``data:`` images: previews.
#: ``{nonce}``: a fresh value per page load that only ``<style>`` elements of the app's own modules carry
#: (CodeMirror injects its styles that way: ``EditorView.cspNonce``); scripts stay ``'self'`` only.
WEB_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'nonce-{nonce}'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
#: Where ``index.html`` names the nonce for the app's scripts (``<meta name="csp-nonce" content="...">``).
NONCE_SLOT = "__CSP_NONCE__"
#: Headers of the page itself (``/``, ``/v/...``), besides its CSP.
PAGE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-cache",  # always revalidated: a new release's page names its new scripts
}
#: ``/static/chunks/*`` are esbuild's content-hashed chunks (a new build, a new name): cached for good.
#: Anything else under ``/static`` keeps its name across releases, so it is revalidated (ETag) every time.
IMMUTABLE = "public, max-age=31536000, immutable"


class WebStatic(StaticFiles):
    """``/static``: StaticFiles with ``Cache-Control`` (see :data:`IMMUTABLE`) and ``nosniff`` on every file."""

    def file_response(self, full_path: Any, stat_result: Any, scope: Any, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        rel = scope["path"].removeprefix(scope.get("root_path", "")).lstrip("/")
        response.headers["Cache-Control"] = IMMUTABLE if rel.startswith("chunks/") else "no-cache"
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response


def _serve_web_app(app: FastAPI) -> None:
    """The web app: ``/`` and every ``/v/...`` path (the app's own routes: a reload or a shared link lands
    on the same page, which reads the path) answer ``web/index.html`` with :data:`PAGE_HEADERS`; ``/static/*``
    serves ``web/static/`` (the built front end, ``frontend/README.md``)."""
    web = files("obsigate.web")
    page = web.joinpath("index.html").read_text(encoding="utf-8")  # read once, not per request

    async def index() -> HTMLResponse:
        nonce = secrets.token_urlsafe(18)  # per response: an injected <style> cannot guess it
        headers = {**PAGE_HEADERS, "Content-Security-Policy": WEB_CSP.format(nonce=nonce)}
        return HTMLResponse(page.replace(NONCE_SLOT, nonce), headers=headers)

    app.add_api_route("/", index, include_in_schema=False, response_class=HTMLResponse)
    app.add_api_route("/v/{app_path:path}", index, include_in_schema=False, response_class=HTMLResponse)
    static = Path(str(web.joinpath("static")))
    # gzip (Vary: Accept-Encoding): the first load's 283 KB of JS travel as ~105 KB
    app.mount("/static", GZipMiddleware(WebStatic(directory=static, check_dir=False), minimum_size=1024), name="static")


#: Where the API docs' own assets are served; the files come from the ``fastapi-offline`` package.
DOCS_ASSETS = "/docs-assets"


def _docs_assets_dir() -> str:
    """The folder of Swagger UI and ReDoc files shipped by ``fastapi-offline`` (found without importing it)."""
    spec = importlib.util.find_spec("fastapi_offline")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the fastapi-offline package is missing: reinstall obsigate")
    return str(Path(next(iter(spec.submodule_search_locations))) / "static")


def _serve_api_docs(app: FastAPI) -> None:
    """``/docs`` (Swagger UI) and ``/redoc`` with every script, style sheet and icon served by this server,
    FastAPI's documented way (its own CDN-backed pages are turned off in :func:`build_app`)."""
    app.mount(DOCS_ASSETS, StaticFiles(directory=_docs_assets_dir()), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    swagger = get_swagger_ui_html(
        openapi_url=openapi_url, title=f"{app.title} - API docs", swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css", swagger_favicon_url=f"{DOCS_ASSETS}/favicon.png",
    )  # fmt: skip
    reference = get_redoc_html(
        openapi_url=openapi_url, title=f"{app.title} - API reference", redoc_js_url=f"{DOCS_ASSETS}/redoc.standalone.js",
        redoc_favicon_url=f"{DOCS_ASSETS}/favicon.png", with_google_fonts=False,
    )  # fmt: skip
    # built once; each request gets its own response over the same bytes, under a CSP that allows the page's
    # own inline start-up script by its hash and nothing from elsewhere
    for route, page in (("/docs", swagger), ("/redoc", reference)):
        headers = {**PAGE_HEADERS, "Content-Security-Policy": docs_csp(bytes(page.body))}
        app.add_api_route(route, lambda body=bytes(page.body), h=headers: HTMLResponse(body, headers=h),
                          include_in_schema=False, response_class=HTMLResponse)  # fmt: skip


def docs_csp(html: bytes) -> str:
    """The Content-Security-Policy of an API docs page: scripts from this server plus the page's inline
    scripts, each allowed by its SHA-256 (CSP Level 3 hash sources); ReDoc's CSS-in-JS needs inline styles."""
    hashes = " ".join(
        f"'sha256-{base64.b64encode(hashlib.sha256(m.group(1)).digest()).decode()}'"
        for m in re.finditer(rb"<script>(.*?)</script>", html, re.S)
    )
    return (
        f"default-src 'self'; script-src 'self' {hashes}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
        "worker-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    )
