"""``POST /api/ai/bookslm/context``: what the in-app assistant would send a model as context (files, sizes,
cuts, skipped files, the tree), without calling one. The tool layer does the work
(:func:`obsigate.tools.api.collect_context`, the web-only tool ``bookslm_context``); this route only reads the body and renders."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request

from obsigate.agent.prompts import system_prompt
from obsigate.api.deps import Ctx
from obsigate.tools.api import BadRequest, ServiceError, collect_context

router = APIRouter(prefix="/api", tags=["assistant"])

_FIELDS = ("mode", "vault", "directory", "files", "extra_files", "extra_directories")
#: The fields of the size estimate: which provider and model, and whether for an agent run (tool schemas).
_ESTIMATE = ("provider", "model", "agent")

_BODY = Body(
    description="{mode: directory|files|general, vault?, directory?, files?, extra_files?, extra_directories?, "
    "include_content?: bool (default false), provider?, model?, agent?: bool (default true)}",
    examples=[{"mode": "directory", "vault": "notes", "directory": "Projects", "extra_files": ["Home.md"]}],
)


@router.post("/ai/bookslm/context", summary="The assistant's context for a mode, without calling a model")
async def bookslm_context(request: Request, ctx: Ctx, body: Annotated[dict[str, Any], _BODY]) -> dict[str, Any]:
    """The collected context: ``{"mode", "vault", "directory", "tree", "vaults", "files": [{"path", "chars",
    "full_chars", "truncated"}], "skipped": [{"path", "reason"}], "skipped_more", "total_chars", "truncated",
    "limits"}``; each file also has its (redacted) ``content`` with ``"include_content": true``. Errors: 400
    ``invalid_argument``/``path_outside_vault``, 403 ``vault_access_denied``, 404 ``not_found``, 429.

    ``estimate``: the size of a request sent with this context to ``provider``/``model`` (default: the
    configured ones) — ``{estimated_tokens, context_window, share, limit_tokens, over}``
    (:mod:`obsigate.agent.context_budget`; the conversation so far is not counted) — or ``null`` when no
    provider is configured."""
    unknown = sorted(set(body) - {*_FIELDS, *_ESTIMATE, "include_content"})
    if unknown:
        fields = ", ".join((*_FIELDS, *_ESTIMATE, "include_content"))
        raise BadRequest(f"unknown field(s): {', '.join(unknown)}", hint=f"fields: {fields}")
    include = body.get("include_content", False)
    if not isinstance(include, bool):
        raise BadRequest("include_content must be true or false")
    agent, config = _model_of(request, body)  # checked before anything is collected
    # audited as the assistant's own front: this is what it would send
    in_app = dataclasses.replace(ctx, mode="in_app")
    data = await collect_context(in_app, include_content=True, **{k: body.get(k) for k in _FIELDS})
    data["estimate"] = None
    if config is not None:
        prompt = system_prompt(data["mode"], data, agent=agent)
        data["estimate"] = request.app.state.assistant.estimate(
            in_app, config, data.get("vault"), agent, prompt
        ).as_dict()
    if not include:
        data["files"] = [{k: v for k, v in f.items() if k != "content"} for f in data["files"]]
    return data


def _model_of(request: Request, body: dict[str, Any]) -> tuple[bool, Any]:
    """The body's ``agent`` flag and the provider configuration its ``provider``/``model`` name (``None``: no
    assistant, or no provider configured: nothing to measure against).

    Raises:
        BadRequest: ``invalid_argument`` for a wrong type, an unknown provider or a bad model name.
    """
    agent = body.get("agent", True)
    names = [body.get(k) for k in ("provider", "model")]
    if not isinstance(agent, bool) or not all(v is None or (isinstance(v, str) and 0 < len(v) <= 200) for v in names):
        raise BadRequest("agent must be true or false; provider and model strings (at most 200 characters)")
    assistant = getattr(request.app.state, "assistant", None)
    if assistant is None:
        return agent, None
    try:
        return agent, assistant.providers.resolve(*names)
    except ServiceError as exc:
        if exc.code != "provider_not_configured":
            raise
        return agent, None
