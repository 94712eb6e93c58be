"""The assistant's provider settings over REST (issue 10 items 1 and 5, seeds §6 and §6bis).

* ``GET /api/ai/status`` (any signed-in user): providers, which are configured, the defaults; a key is never
  shown beyond its last 4 characters.
* ``GET /api/config/ai-models``: per provider, its default model and the known models with their capabilities.
* ``GET /api/ai/model-capabilities``: the 8-flag table (``?provider=&model=`` for one model).
* ``GET /api/config`` and ``POST /api/config`` (admins): the stored defaults, and changing them, the keys and
  the per-vault ``aiDestructiveTools`` switches; effective for the very next request (no restart). ``POST``
  passes the same cross-site checks as every REST write (``routes_write.check_same_site``).
* ``POST /api/ai/test`` (admins): one tiny call to a provider with its current settings (``agent.probe``).

The settings object is ``request.app.state.ai_settings`` (an ``obsigate.agent.settings.AISettings``, built by
the composition root); without one every route answers 503 ``unavailable``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from obsigate.agent.capabilities import FLAGS, capabilities, capability_table, known_models
from obsigate.agent.probe import probe
from obsigate.agent.providers.catalog import PROVIDERS, normalise_name
from obsigate.agent.settings import AISettings, known_provider, validate_model
from obsigate.api.deps import Ctx, CurrentPrincipal
from obsigate.api.routes_write import check_same_site
from obsigate.auth.principal import Principal
from obsigate.tools.api import BadRequest, Forbidden, Unavailable, vault_switches

router = APIRouter(tags=["ai"])

_Name = Annotated[str, Field(min_length=1, max_length=64)]
_Value = Annotated[str, Field(min_length=1, max_length=4096)]


class ConfigUpdate(BaseModel):
    """Body of ``POST /api/config``; every field optional, unknown fields refused.

    ``ai_default_provider``: a provider name, or ``null`` to fall back to ``AI_DEFAULT_PROVIDER``/``deepseek``.
    ``ai_default_models``, ``ai_base_urls``, ``api_keys``: ``{provider: value}`` merged into what is stored; a
    ``null`` value removes that provider's entry. ``ai_destructive_tools``: ``{vault: bool}`` (a declared
    vault) turns its dangerous tools on or off at once; ``null`` goes back to the vault's declaration.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    ai_default_provider: _Name | None = None
    ai_default_models: dict[_Name, _Value | None] | None = Field(default=None, max_length=len(PROVIDERS))
    ai_base_urls: dict[_Name, _Value | None] | None = Field(default=None, max_length=len(PROVIDERS))
    api_keys: dict[_Name, _Value | None] | None = Field(default=None, max_length=len(PROVIDERS))
    ai_destructive_tools: dict[_Name, bool | None] | None = Field(default=None, max_length=1000)


class ProviderTest(BaseModel):
    """Body of ``POST /api/ai/test``: the provider to call, and a model instead of its default (optional)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    provider: _Name
    model: Annotated[str, Field(min_length=1, max_length=256)] | None = None


def _ai(request: Request) -> AISettings:
    settings = getattr(request.app.state, "ai_settings", None)
    if settings is None:
        raise Unavailable("the assistant's settings are not available on this server")
    return settings


def _admin(principal: CurrentPrincipal) -> Principal:
    if not principal.is_admin:
        raise Forbidden("only an admin may see or change the server's configuration", code="forbidden")
    return principal


Admin = Annotated[Principal, Depends(_admin)]


@router.get("/api/ai/status", summary="AI providers: which are configured, the defaults (keys masked)")
async def ai_status(request: Request, _: CurrentPrincipal) -> dict[str, Any]:
    """See ``AISettings.status``: ``{default_provider, default_provider_source, default_configured,
    providers: [{name, configured, problem, key: "…abcd"|"set"|null, key_source, base_url, default_model,
    model_source, ...}]}``."""
    return await run_in_threadpool(_ai(request).status)


@router.get("/api/config/ai-models", summary="Per provider: the default model and the known models with capabilities")
async def ai_models(request: Request, _: CurrentPrincipal) -> dict[str, Any]:
    """``{default_provider, flags, providers: [{name, label, dialect, configured, default_model, models:
    [{name, capabilities: {flag: bool}}]}]}``; the default model comes first in ``models`` even when the
    table does not list it."""
    status = await run_in_threadpool(_ai(request).status)
    providers = []
    for entry in status["providers"]:
        names = known_models(entry["name"])
        default = entry["default_model"]
        if default and default in names:
            names.remove(default)
        ordered = ([default] if default else []) + names
        providers.append({
            "name": entry["name"], "label": entry["label"], "dialect": entry["dialect"],
            "configured": entry["configured"], "default_model": default,
            "models": [{"name": m, "capabilities": capabilities(entry["name"], m)} for m in ordered],
        })  # fmt: skip
    return {"default_provider": status["default_provider"], "flags": list(FLAGS), "providers": providers}


@router.get("/api/ai/model-capabilities", summary="The 8-flag capability table, or one model's flags")
async def model_capabilities(
    _: CurrentPrincipal,
    provider: Annotated[str | None, Query(max_length=64, description="A provider name; alone: its table.")] = None,
    model: Annotated[str | None, Query(max_length=256, description="A model name (needs provider).")] = None,
) -> dict[str, Any]:
    """No parameter: ``{flags, providers: {provider: {model: {flag: bool}}}}``. ``provider``: that provider's
    ``{flags, provider, models: {model: {flag: bool}}}``. ``provider`` and ``model``: ``{flags, provider,
    model, capabilities}`` (an unlisted model gets its family's flags, or chat only).

    Raises:
        BadRequest (``invalid_argument``): an unknown provider, ``model`` without ``provider``, a bad model name.
    """
    flags = list(FLAGS)
    if provider is None:
        if model is not None:
            raise BadRequest("give provider with model", details={"field": "provider"})
        return {"flags": flags, "providers": capability_table()}
    name = normalise_name(provider)
    if name not in PROVIDERS:
        raise BadRequest(
            f"unknown AI provider {provider!r}; known providers: {', '.join(PROVIDERS)}", details={"field": "provider"}
        )
    if model is None:
        return {"flags": flags, "provider": name, "models": capability_table()[name]}
    model = validate_model(model)
    return {"flags": flags, "provider": name, "model": model, "capabilities": capabilities(name, model)}


@router.get("/api/config", summary="The stored AI defaults, the providers' status and the vaults' switches (admin)")
async def get_config(request: Request, _: Admin, ctx: Ctx) -> dict[str, Any]:
    """``{ai_default_provider, ai_default_models, ai_base_urls, ai_destructive_tools, status, vaults}``: what
    ``config.json`` stores (no key), :func:`ai_status`'s answer, and every declared vault as ``{name,
    read_only, destructive_tools}`` (the switch in effect now)."""
    settings = _ai(request)
    stored = await run_in_threadpool(settings.stored_config)
    return {**stored, "status": await run_in_threadpool(settings.status), "vaults": vault_switches(ctx)}


@router.post(
    "/api/config",
    summary="Change the AI defaults and keys at once, no restart (admin)",
    dependencies=[Depends(check_same_site)],
)
async def post_config(request: Request, _: Admin, ctx: Ctx, body: ConfigUpdate) -> dict[str, Any]:
    """Validates everything, then writes ``config.json`` (its other keys kept) and ``api_keys.json`` (0600)
    atomically; answers the new status (keys masked).

    Raises:
        BadRequest (``invalid_argument``): an unknown field, provider or vault, a bad model, URL or key (the key
            is never echoed).
        Forbidden (``forbidden``, ``forbidden_origin``): not an admin; a cross-site request.
        Unavailable (``unavailable``): a settings file exists but cannot be read.
    """
    settings = _ai(request)
    given = body.model_fields_set
    changes: dict[str, Any] = {}
    if "ai_default_provider" in given:
        changes["ai_default_provider"] = body.ai_default_provider
    for field, target in (
        ("ai_default_models", "ai_default_models"),
        ("ai_base_urls", "ai_base_urls"),
        ("api_keys", "keys"),
    ):
        value = getattr(body, field)
        if value is not None:
            changes[target] = value
    if body.ai_destructive_tools is not None:
        declared = {v["name"] for v in vault_switches(ctx)}
        unknown = sorted(set(body.ai_destructive_tools) - declared)
        if unknown:
            raise BadRequest(
                f"ai_destructive_tools: no vault named {unknown[0]!r} on this server",
                details={"field": "ai_destructive_tools"},
            )
        changes["ai_destructive_tools"] = body.ai_destructive_tools
    return await run_in_threadpool(lambda: settings.update(**changes))


@router.post(
    "/api/ai/test",
    summary="One tiny call to a provider with its current settings (admin)",
    dependencies=[Depends(check_same_site)],
)
async def test_provider(request: Request, _: Admin, body: ProviderTest) -> dict[str, Any]:
    """Sends one short message (answer capped at a few tokens, no retry, 20 s at most) to ``provider`` with its
    stored key, base URL and default model (or ``model``). Answers 200 either way: ``{ok: true, provider,
    model, latency_ms, reply}`` or ``{ok: false, provider, model, latency_ms, code, message}`` with the
    provider's stable code (``provider_auth_failed``, ``provider_unavailable``, ``model_not_found``,
    ``provider_not_configured``...).

    Raises:
        BadRequest (``invalid_argument``): an unknown provider or a malformed model.
        Forbidden (``forbidden``, ``forbidden_origin``): not an admin; a cross-site request.
    """
    settings = _ai(request)
    name = known_provider(body.provider)
    model = validate_model(body.model) if body.model is not None else None
    return await probe(settings, name, model)
