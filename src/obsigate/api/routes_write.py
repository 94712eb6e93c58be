"""Write routes (issue 4): the write tools run as the caller's own confirmed action.

A REST write is a person acting (the web UI, a script with their key), so it runs the tool directly with
``confirmed=True``; agents go through MCP's propose/apply. Cross-site requests are refused: a browser page
on another site can send a "simple" POST to a loopback server without any preflight, so a write must carry
``Content-Type: application/json`` and, when the browser sends an ``Origin``, this server's own: scheme, host
and port of ``base_url``, of the request's ``Host`` (the address the browser used), or one listed in
``allowed_origins`` (``OBSIGATE_ALLOWED_ORIGINS``). Another port on loopback is another program, so
``http://localhost:3000`` cannot write to a server on ``:8000`` unless it is listed. The check itself,
:func:`~obsigate.api.deps.check_same_site`, lives in ``deps.py``: a write authenticated by the web app's
session cookie passes it in ``get_principal`` whatever the route (DELETE routes, the assistant's).

The plain write routes are rows of the table in ``routes.py`` (``write=True`` gives them
:func:`confirmed_context`); only the editor's save, with its version check, is written here.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Request

from obsigate.api.deps import check_same_site, get_tool_context
from obsigate.api.render import run_tool
from obsigate.tools.api import BadRequest, ToolContext

router = APIRouter(prefix="/api", tags=["write"])

__all__ = ["Write", "check_same_site", "confirmed_context", "router"]


async def confirmed_context(request: Request, ctx: Annotated[ToolContext, Depends(get_tool_context)]) -> ToolContext:
    """The caller's context for a write, after the cross-site checks (:func:`check_same_site`).

    Raises:
        Forbidden (``forbidden_origin``): an ``Origin`` that is not this server.
        BadRequest (``unsupported_media_type``): a body that is not declared as JSON.
    """
    check_same_site(request)
    return dataclasses.replace(ctx, confirmed=True)


Write = Annotated[ToolContext, Depends(confirmed_context)]
ARGS = "The tool's arguments (see /docs and docs/mcp.md)"  # a write's JSON body, as /docs describes it
JsonBody = Annotated[dict[str, Any], Body(description=ARGS)]


@router.post("/file/{vault}/save", summary="Save an editor's content, refused if the file changed since it was read")
async def save_file(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    """Body ``{"path", "content", "version"}``: ``version`` is the ``version`` read_file (or ``/source``)
    returned; a file changed since (a secret's value included) → 409 ``conflict`` and nothing written."""
    version = body.pop("version", None)
    if not isinstance(version, str):
        raise BadRequest("version (the version the editor read) is required")
    path = body.get("path")
    if not isinstance(path, str):
        raise BadRequest("path (the vault-relative path of the note) is required")
    return await run_tool(
        dataclasses.replace(ctx, expected_reads={path: version}), "edit_file", {**body, "vault": vault}
    )
