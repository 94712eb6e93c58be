"""How REST renders tool calls and errors: one JSON error shape ``{"code", "message", ["hint"], ["details"]}``."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from obsigate.tools.api import ServiceError
from obsigate.tools.context import ToolContext
from obsigate.tools.dispatch import call_tool

#: Codes of the HTTP refusals Starlette raises itself (unknown route, wrong method...); any other status: http_error.
_STATUS_CODES = {401: "unauthenticated", 403: "forbidden", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


async def run_tool(ctx: ToolContext, name: str, args: dict[str, Any]) -> dict[str, Any]:
    """Call a tool with the given arguments, leaving out those the client did not send (``None``)."""
    return await call_tool(ctx, name, {k: v for k, v in args.items() if v is not None})


def _error(status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(status_code=status, content=body, headers=headers)


def install_error_handlers(app: FastAPI) -> None:
    """Register the single translation of every failure to the JSON error shape. No traceback ever leaves."""

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
        return _error(400, {"code": "invalid_argument", "message": f"invalid request: {summary}", "details": {"errors": problems}})

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else code
        return _error(exc.status_code, {"code": code, "message": message}, getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        return _error(500, {"code": "internal_error", "message": "unexpected server error"})
