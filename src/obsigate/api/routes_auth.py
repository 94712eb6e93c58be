"""Authentication routes: password login for a JWT, and who-am-I."""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi import APIRouter, Request
from limits import RateLimitItemPerMinute
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from obsigate.api.deps import CurrentPrincipal
from obsigate.tools.api import BadRequest, RateLimited

router = APIRouter(prefix="/api/auth", tags=["auth"])

# Checked before the (slow, memory-hungry) argon2 verify — security.md §4.5.
PER_ACCOUNT = RateLimitItemPerMinute(5)
PER_IP = RateLimitItemPerMinute(20)


class LoginRequest(BaseModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=1024)


class LoginResponse(BaseModel):
    access_token: str
    token_type: str = "bearer"
    expires_in: int = Field(description="Seconds until the token expires.")


@router.post("/login", response_model=LoginResponse, summary="Exchange a user name and password for a JWT")
async def login(request: Request, body: LoginRequest) -> LoginResponse:
    state = request.app.state
    if not state.settings.auth_enabled:
        raise BadRequest("authentication is disabled on this server; no token is needed", code="auth_disabled")
    account = hashlib.sha256(body.username.lower().encode()).hexdigest()[:16]
    ip = request.client.host if request.client else "unknown"
    limiter = state.login_limiter
    # Per account *and* address: a stranger's failures cannot lock the owner out from their own machine.
    if not (limiter.hit(PER_IP, "login-ip", ip) and limiter.hit(PER_ACCOUNT, "login-acct", account, ip)):
        raise RateLimited("too many login attempts; wait a minute", details={"retry_after": 60})
    user = await run_in_threadpool(state.auth.users.verify_password, body.username, body.password)
    ttl = state.settings.token_ttl
    return LoginResponse(access_token=state.auth.tokens.issue(user, ttl_s=ttl), expires_in=ttl)


@router.get("/me", summary="The authenticated caller")
async def me(principal: CurrentPrincipal) -> dict[str, Any]:
    return {
        "name": principal.name,
        "is_admin": principal.is_admin,
        "vaults": None if principal.vaults is None else sorted(principal.vaults),
        "auth_kind": principal.auth_kind,
    }
