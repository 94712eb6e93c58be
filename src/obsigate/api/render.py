"""How REST renders tool calls and errors: one JSON error shape ``{"code", "message", ["hint"], ["details"]}``
(``internal_error`` adds ``error_id``, the id of the server's log line with the traceback)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from obsigate.tools.api import ServiceError, ToolContext, call_tool, internal_error

#: Codes of the HTTP refusals Starlette raises itself (unknown route, wrong method...); any other status: http_error.
_STATUS_CODES = {
    400: "invalid_argument",  # a body FastAPI cannot read (JSON declared, bytes not UTF-8): the request's fault
    401: "unauthenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
}


async def run_tool(ctx: ToolContext, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Call a tool with the given arguments, leaving out those the client did not send (``None``)."""
    return await call_tool(ctx, name, {k: v for k, v in args.items() if v is not None})


def _error(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(status_code=status, content=body, headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    """Register the single translation of every failure to the JSON error shape. No traceback ever leaves:
    an exception no handler knows is answered by :class:`InternalErrors` (add it as the outermost middleware)."""

    @app.exception_handler(ServiceError)
    async def _service_error(_: Request, exc: ServiceError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.http_status == 401 else None
        if "retry_after" in exc.details:
            headers = {"Retry-After": str(exc.details["retry_after"])}
        return _error(exc.http_status, exc.to_dict(), headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            {"field": ".".join(str(p) for p in e.get("loc", ())), "problem": e.get("msg", "")} for e in exc.errors()
        ]
        summary = "; ".join(f"{p['field']}: {p['problem']}" for p in problems[:5])
        return _error(
            400, {"code": "invalid_argument", "message": f"invalid request: {summary}", "details": {"errors": problems}}
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else code
        return _error(exc.status_code, {"code": code, "message": message}, getattr(exc, "headers", None))


class InternalErrors:
    """ASGI middleware: an unexpected exception from anything inside it (a route's own code, a dependency, a
    middleware, the ``/mcp`` transport) is logged once by :func:`~obsigate.services.errors.internal_error`
    (one ERROR line with a fresh error id, then the traceback) and answered 500 ``internal_error`` with that
    ``error_id``. It is not raised further, so the server does not log a second, id-less traceback (what
    Starlette's ``ServerErrorMiddleware`` would make uvicorn do). Tool calls never get here: the door
    already turned their failures into ``ServiceError``s (same log line, same id in the answer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        # A whole 500 is held until the app returns: the MCP SDK's own Starlette app answers a failure with a
        # plain-text 500 and then raises it; that answer is replaced by ours, which names the error id.
        held: list[Message] = []

        async def tracked(message: Message) -> None:
            nonlocal started
            if not started and message["type"] == "http.response.start" and message["status"] == 500:
                held.append(message)
                return
            if held:
                held.append(message)
                if message["type"] == "http.response.body" and not message.get("more_body", False):
                    return  # whole: sent once the app returns, unless it raises
                await flush()  # a streamed 500: let it go
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        async def flush() -> None:
            nonlocal started
            started = started or bool(held)
            for message in held:
                await send(message)
            held.clear()

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:  # noqa: BLE001 — the HTTP front's one containment point
            error = internal_error(exc, f"{scope.get('method', '')} {scope.get('path', '')}", "http")
            if started:  # too late for an answer: the client sees a cut response, the log has the id
                return
            await _error(500, error.to_dict())(scope, receive, send)
            return
        await flush()
