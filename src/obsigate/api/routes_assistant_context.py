"""``POST /api/ai/bookslm/context``: what the in-app assistant would send a model as context (files, sizes,
cuts, skipped files, the tree), without calling one. The tool layer does the work
(:func:`obsigate.tools.api.collect_context`, the web-only tool ``bookslm_context``); this route only reads the body and renders."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from fastapi import APIRouter, Body

from obsigate.api.deps import Ctx
from obsigate.tools.api import BadRequest, collect_context

router = APIRouter(prefix="/api", tags=["assistant"])

_FIELDS = ("mode", "vault", "directory", "files", "extra_files", "extra_directories")

_BODY = Body(
    description="{mode: directory|files|general, vault?, directory?, files?, extra_files?, extra_directories?, "
    "include_content?: bool (default false)}",
    examples=[{"mode": "directory", "vault": "notes", "directory": "Projects", "extra_files": ["Home.md"]}],
)


@router.post("/ai/bookslm/context", summary="The assistant's context for a mode, without calling a model")
async def bookslm_context(ctx: Ctx, body: Annotated[dict[str, Any], _BODY]) -> dict[str, Any]:
    """The collected context: ``{"mode", "vault", "directory", "tree", "vaults", "files": [{"path", "chars",
    "full_chars", "truncated"}], "skipped": [{"path", "reason"}], "skipped_more", "total_chars", "truncated",
    "limits"}``; each file also has its (redacted) ``content`` with ``"include_content": true``. Errors: 400
    ``invalid_argument``/``path_outside_vault``, 403 ``vault_access_denied``, 404 ``not_found``, 429."""
    unknown = sorted(set(body) - {*_FIELDS, "include_content"})
    if unknown:
        fields = ", ".join((*_FIELDS, "include_content"))
        raise BadRequest(f"unknown field(s): {', '.join(unknown)}", hint=f"fields: {fields}")
    include = body.get("include_content", False)
    if not isinstance(include, bool):
        raise BadRequest("include_content must be true or false")
    # audited as the assistant's own front: this is what it would send
    in_app = dataclasses.replace(ctx, mode="in_app")
    return await collect_context(in_app, include_content=include, **{k: body.get(k) for k in _FIELDS})
