"""Users and API keys over REST, for admins (issue 11 item 8: the settings page's "Users & API keys").

Thin routes over the user store (``auth.users.UserStore``, the same one ``obsigate user`` and ``obsigate key``
use); a change applies to the very next request (the authenticator re-reads the user every time).

* ``GET /api/admin/users``: every user with their vault grants and API keys (never a secret), and the
  declared vaults a grant can name.
* ``POST /api/admin/users``, ``PATCH /api/admin/users/{name}``, ``DELETE /api/admin/users/{name}``: create
  (password, admin flag, vaults), change (admin flag, vaults, password), delete (their keys go with them).
* ``GET|POST /api/admin/users/{name}/keys``, ``DELETE /api/admin/users/{name}/keys/{key_id}``: list, create
  (the key is in that one answer and never again), revoke.
* ``POST /api/admin/users/{name}/signout-all``: sign the user out everywhere (their JWTs and web sessions end;
  with ``{"api_keys": true}`` their API keys are revoked too). A password set with ``PATCH`` does the same
  for sessions (API keys are kept).

Every route needs an admin (403 ``forbidden``); with authentication off the local owner is one (``ANONYMOUS``).
Writes pass the cross-site checks (``deps.check_same_site``). An admin cannot delete their own account or
remove their own admin flag from here (409 ``self_lockout``): a slip of the mouse must not lock the server's
only admin out; another admin, or ``obsigate user`` on the server, can.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from obsigate.api.deps import Ctx, CurrentPrincipal, check_same_site
from obsigate.auth.principal import Principal
from obsigate.auth.users import User, UserStore
from obsigate.tools.api import BadRequest, Conflict, Forbidden, NotFound, vault_switches

router = APIRouter(prefix="/api/admin", tags=["admin"])

_UserName = Annotated[str, Path(min_length=1, max_length=64, description="A user name.")]
_KeyId = Annotated[str, Path(min_length=1, max_length=64, description="An API key's id (ak_...).")]
_Vault = Annotated[str, Field(min_length=1, max_length=64)]
_Vaults = Annotated[list[_Vault], Field(max_length=1000, description='Vault names, or ["*"] for every vault.')]
Writes = [Depends(check_same_site)]


def _admin(principal: CurrentPrincipal) -> Principal:
    if not principal.is_admin:
        raise Forbidden("only an admin may manage users and API keys", code="forbidden")
    return principal


Admin = Annotated[Principal, Depends(_admin)]


class NewUser(BaseModel):
    """Body of ``POST /api/admin/users``. ``password``: 8-1024 characters, or ``null`` for an account that only
    signs in with API keys; ``vaults``: the grants (``["*"]`` = every vault, ``[]`` = none yet)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[str, Field(min_length=1, max_length=64)]
    password: Annotated[str, Field(max_length=1024)] | None = None
    admin: bool = False
    vaults: _Vaults = Field(default_factory=list)


class UserChange(BaseModel):
    """Body of ``PATCH /api/admin/users/{name}``; every field optional. ``vaults`` replaces the grants."""

    model_config = ConfigDict(extra="forbid", strict=True)

    admin: bool | None = None
    vaults: _Vaults | None = None
    password: Annotated[str, Field(max_length=1024)] | None = None


class SignOut(BaseModel):
    """Body of ``POST /api/admin/users/{name}/signout-all``: ``api_keys`` also revokes every API key of the user."""

    model_config = ConfigDict(extra="forbid", strict=True)

    api_keys: bool = False


class NewKey(BaseModel):
    """Body of ``POST /api/admin/users/{name}/keys``: a label (what the key is for) and a lifetime in days
    (``null``: no expiry)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    label: Annotated[str, Field(max_length=100)] = ""
    expires_days: Annotated[int, Field(ge=1, le=3650)] | None = None


def _users(request: Request) -> UserStore:
    store: UserStore = request.app.state.auth.users
    return store


def _grants(ctx: Ctx, vaults: list[str]) -> list[str] | None:
    """``vaults`` checked against the declared vaults; ``None`` for every vault (``"*"``).

    Raises:
        BadRequest (``invalid_argument``): a vault this server does not declare (a typo would grant nothing).
    """
    if "*" in vaults:
        return None
    declared = {v["name"] for v in vault_switches(ctx)}
    unknown = sorted(set(vaults) - declared)
    if unknown:
        raise BadRequest(
            f"no vault named {unknown[0]!r} on this server",
            details={"field": "vaults"},
            hint="GET /api/admin/users lists them",
        )
    return sorted(set(vaults))


def _same(principal: Principal, name: str) -> bool:
    return principal.name.lower() == name.lower()  # user names compare case-insensitively (users.py)


def _user_json(store: UserStore, user: User) -> dict[str, Any]:
    return {
        "name": user.name, "admin": user.is_admin, "vaults": None if user.vaults is None else sorted(user.vaults),
        "created_at": user.created_at, "keys": store.list_api_keys(user.name),
    }  # fmt: skip


def _require(store: UserStore, name: str) -> User:
    user = store.get_user(name)
    if user is None:
        raise NotFound(f"no user named {name!r}", hint="GET /api/admin/users lists them")
    return user


@router.get("/users", summary="Every user with their vault grants and API keys (admin)")
async def list_users(request: Request, principal: Admin, ctx: Ctx) -> dict[str, Any]:
    """``{users: [{name, admin, vaults (null = every vault), created_at, keys: [{key_id, label, created_at,
    expires_at, last_used_at, revoked_at}]}], vaults: [declared names], me: the caller's name}``; no secret."""
    store = _users(request)

    def read() -> list[dict[str, Any]]:
        return [_user_json(store, u) for u in store.list_users()]

    return {
        "users": await run_in_threadpool(read),
        "vaults": [v["name"] for v in vault_switches(ctx)],
        "me": principal.name,
    }


@router.post("/users", status_code=201, summary="Create a user (admin)", dependencies=Writes)
async def create_user(request: Request, _: Admin, ctx: Ctx, body: NewUser) -> dict[str, Any]:
    """The new user, as in :func:`list_users`.

    Raises:
        BadRequest (``invalid_argument``): a bad or reserved name, a password outside 8-1024 characters, an
            undeclared vault.
        Conflict (``exists``): the name is taken (case-insensitively).
    """
    store = _users(request)
    grants = _grants(ctx, body.vaults)

    def create() -> dict[str, Any]:
        return _user_json(store, store.add_user(body.name, body.password, admin=body.admin, vaults=grants))

    return await run_in_threadpool(create)


@router.patch(
    "/users/{name}", summary="Change a user's admin flag, vault grants or password (admin)", dependencies=Writes
)
async def change_user(
    request: Request, principal: Admin, ctx: Ctx, name: _UserName, body: UserChange
) -> dict[str, Any]:
    """The user after the change. Vault grants and the admin flag apply to their very next request. A new
    ``password`` also signs the user out everywhere: every JWT and web session issued to them before is refused
    from their next request (yours too, if you change your own: sign in again); their API keys are kept.

    Raises:
        NotFound (``not_found``): no such user.
        BadRequest (``invalid_argument``): an undeclared vault, a password outside 8-1024 characters.
        Conflict (``self_lockout``): taking away your own admin flag.
    """
    store = _users(request)
    if body.admin is False and _same(principal, name):
        raise Conflict("you cannot take away your own admin rights", code="self_lockout",
                       hint="another admin can, or obsigate user on the server")  # fmt: skip
    grants = _grants(ctx, body.vaults) if body.vaults is not None else None

    def change() -> dict[str, Any]:
        user = _require(store, name)
        if body.password is not None:
            store.set_password(user.name, body.password)
        if body.vaults is not None:
            store.set_vaults(user.name, grants)
        if body.admin is not None:
            store.set_admin(user.name, body.admin)
        return _user_json(store, _require(store, user.name))

    return await run_in_threadpool(change)


@router.delete(
    "/users/{name}", status_code=204, summary="Delete a user and their API keys (admin)", dependencies=Writes
)
async def delete_user(request: Request, principal: Admin, name: _UserName) -> Response:
    """Their sessions and keys stop working at once.

    Raises:
        NotFound (``not_found``): no such user.
        Conflict (``self_lockout``): your own account.
    """
    if _same(principal, name):
        raise Conflict("you cannot delete your own account", code="self_lockout",
                       hint="another admin can, or obsigate user delete on the server")  # fmt: skip
    store = _users(request)
    await run_in_threadpool(lambda: store.delete_user(_require(store, name).name))
    return Response(status_code=204)


@router.post("/users/{name}/signout-all", summary="Sign a user out everywhere (admin)", dependencies=Writes)
async def sign_out_user(request: Request, _: Admin, name: _UserName, body: SignOut | None = None) -> dict[str, Any]:
    """Every JWT and web session issued to the user so far is refused from their next request, on every front;
    with ``{"api_keys": true}`` every API key of theirs is revoked too (else the keys keep working). The user, as
    in :func:`list_users`. A new sign-in works at once.

    Raises:
        NotFound (``not_found``): no such user.
    """
    store = _users(request)

    def sign_out() -> dict[str, Any]:
        user = store.sign_out_everywhere(_require(store, name).name)
        if body is not None and body.api_keys:
            store.revoke_api_keys(user.name)
        return _user_json(store, user)

    return await run_in_threadpool(sign_out)


@router.get("/users/{name}/keys", summary="A user's API keys, without secrets (admin)")
async def list_keys(request: Request, _: Admin, name: _UserName) -> dict[str, Any]:
    """``{keys: [{key_id, user, label, created_at, expires_at, last_used_at, revoked_at}]}``, oldest first.

    Raises:
        NotFound (``not_found``): no such user.
    """
    store = _users(request)
    return {"keys": await run_in_threadpool(lambda: store.list_api_keys(_require(store, name).name))}


@router.post(
    "/users/{name}/keys",
    status_code=201,
    summary="Create an API key; the key is shown in this answer only (admin)",
    dependencies=Writes,
)
async def create_key(request: Request, _: Admin, name: _UserName, body: NewKey) -> dict[str, Any]:
    """``{key, key_id, user, label, created_at, expires_at, last_used_at, revoked_at}``: ``key`` (``og_...``) is
    never shown again (the server keeps only a keyed hash of it).

    Raises:
        NotFound (``not_found``): no such user.
        BadRequest (``invalid_argument``): a label with control characters.
    """
    store = _users(request)
    expires = datetime.now(UTC) + timedelta(days=body.expires_days) if body.expires_days else None

    def create() -> dict[str, Any]:
        key_id, key = store.create_api_key(_require(store, name).name, label=body.label, expires_at=expires)
        return {"key": key, **(store.get_api_key(key_id) or {"key_id": key_id})}

    return await run_in_threadpool(create)


@router.delete(
    "/users/{name}/keys/{key_id}", status_code=204, summary="Revoke an API key at once (admin)", dependencies=Writes
)
async def revoke_key(request: Request, _: Admin, name: _UserName, key_id: _KeyId) -> Response:
    """Idempotent: revoking a revoked key changes nothing.

    Raises:
        NotFound (``not_found``): no such key for that user.
    """
    store = _users(request)

    def revoke() -> None:
        info = store.get_api_key(key_id)
        if info is None or info["user"].lower() != name.lower():
            raise NotFound(f"user {name!r} has no API key {key_id!r}")
        store.revoke_api_key(key_id)

    await run_in_threadpool(revoke)
    return Response(status_code=204)
