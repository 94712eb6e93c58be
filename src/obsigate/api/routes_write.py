"""Write routes (issue 4): thin wrappers running the write tools as the caller's own confirmed action.

A REST write is a person acting (the web UI, a script with their key), so it runs the tool directly with
``confirmed=True``; agents go through MCP's propose/apply. Cross-site requests are refused: a browser page
on another site can send a "simple" POST to a loopback server without any preflight, so a write must carry
``Content-Type: application/json`` and, when the browser sends an ``Origin``, one of ours (HostGuard's list).
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Body, Depends, Query, Request

from obsigate.api.deps import get_tool_context
from obsigate.api.hosts import host_allowed
from obsigate.api.render import run_tool
from obsigate.tools.api import BadRequest, Forbidden
from obsigate.tools.context import ToolContext

router = APIRouter(prefix="/api", tags=["write"])


async def confirmed_context(request: Request, ctx: Annotated[ToolContext, Depends(get_tool_context)]) -> ToolContext:
    """The caller's context for a write, after the cross-site checks (see the module docstring).

    Raises:
        Forbidden (``forbidden_origin``): an ``Origin`` that is not this server.
        BadRequest (``unsupported_media_type``): a body that is not declared as JSON.
    """
    origin = request.headers.get("origin")
    if origin is not None and not host_allowed(urlsplit(origin).netloc, request.app.state.allowed_hosts):
        raise Forbidden(f"cross-site write refused (Origin {origin!r})", code="forbidden_origin")
    if request.method in ("POST", "PATCH") and not request.headers.get("content-type", "").startswith("application/json"):
        raise BadRequest("send the body as JSON (Content-Type: application/json)", code="unsupported_media_type")
    return dataclasses.replace(ctx, confirmed=True)


Write = Annotated[ToolContext, Depends(confirmed_context)]
JsonBody = Annotated[dict[str, Any], Body(description="The tool's arguments (see /docs and docs/mcp.md)")]


@router.post("/file/{vault}", summary="Create a file (never overwrites)")
async def create_file(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "create_file", {**body, "vault": vault})


@router.patch("/file/{vault}", summary="Edit a file: whole content, find/replace, or a heading's section")
async def edit_file(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "edit_file", {**body, "vault": vault})


@router.delete("/file/{vault}", summary="Delete a file (kept in the backups)")
async def delete_file(ctx: Write, vault: str, path: str = Query(..., description="Vault-relative path")) -> dict[str, Any]:
    return await run_tool(ctx, "delete_file", {"vault": vault, "path": path})


@router.post("/file/{vault}/save", summary="Save an editor's content, refused if the file changed since it was read")
async def save_file(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    """Body ``{"path", "content", "version"}``: ``version`` is the ``sha256`` read_file returned; a file
    changed since → 409 ``conflict`` and nothing written."""
    version = body.pop("version", None)
    if not isinstance(version, str):
        raise BadRequest("version (the sha256 the editor read) is required")
    path = body.get("path")
    return await run_tool(dataclasses.replace(ctx, expected_reads={path: version}), "edit_file", {**body, "vault": vault})


@router.post("/file/{vault}/append", summary="Append text to a file (created if missing)")
async def append_file(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "append_to_file", {**body, "vault": vault})


@router.post("/file/{vault}/rename", summary="Rename a file; links to it are rewritten")
async def rename_file(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "rename_file", {**body, "vault": vault})


@router.post("/file/{vault}/restore", summary="Restore a backup version of a file")
async def restore_file(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "restore_backup", {**body, "vault": vault})


@router.post("/directory/{vault}", summary="Create a folder")
async def create_directory(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "create_directory", {**body, "vault": vault})


@router.patch("/directory/{vault}", summary="Rename a folder; links into it are rewritten")
async def rename_directory(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "rename_directory", {**body, "vault": vault})


@router.delete("/directory/{vault}", summary="Delete a folder (every file kept in the backups)")
async def delete_directory(
    ctx: Write, vault: str, path: str = Query(...), recursive: bool = Query(False)
) -> dict[str, Any]:
    return await run_tool(ctx, "delete_directory", {"vault": vault, "path": path, "recursive": recursive})


@router.post("/move/{vault}", summary="Move a file or folder into another folder; links are rewritten")
async def move_path(ctx: Write, vault: str, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "move_path", {**body, "vault": vault})


@router.post("/search/replace", summary="Replace text across notes (dry_run to preview)")
async def replace_in_files(ctx: Write, body: JsonBody) -> dict[str, Any]:
    return await run_tool(ctx, "replace_in_files", body)
