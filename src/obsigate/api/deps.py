"""Request-scoped dependencies: the caller's principal and a ready :class:`ToolContext`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.concurrency import run_in_threadpool

from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.tools.api import Unauthenticated
from obsigate.tools.context import ToolContext


async def get_principal(request: Request) -> Principal:
    """The caller: anonymous when auth is disabled, else from ``Authorization: Bearer <JWT or API key>``.

    Raises:
        Unauthenticated: no or bad credentials (rendered as 401 with ``WWW-Authenticate: Bearer``).
    """
    state = request.app.state
    if not state.settings.auth_enabled:
        return ANONYMOUS
    header = request.headers.get("authorization", "")
    scheme, _, credentials = header.partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        raise Unauthenticated("authentication required: send 'Authorization: Bearer <token>'", hint="POST /api/auth/login")
    return await run_in_threadpool(state.auth.authenticator.authenticate, credentials.strip())


async def get_tool_context(request: Request, principal: Annotated[Principal, Depends(get_principal)]) -> ToolContext:
    """A REST-mode :class:`ToolContext` for the caller."""
    return ToolContext(principal=principal, runtime=request.app.state.runtime, mode="rest")


Ctx = Annotated[ToolContext, Depends(get_tool_context)]
CurrentPrincipal = Annotated[Principal, Depends(get_principal)]
