"""The fronts' entry points to their own operations (:mod:`obsigate.tools.catalog.fronts`, tools offered to no
model), each one ``call_tool(..., front_call=True)``: the assistant's context and a file's bytes for a download;
and the declared vaults' switches for the admins' settings page; the caller's own file space
(:mod:`obsigate.tools.catalog.user_files`: upload, list, metadata, bytes, delete, and MCP's
``obsigate://files/{file_id}`` resource through ``call_operation``).
"""

from __future__ import annotations

import base64
from typing import Any

import anyio

from obsigate.services import plans
from obsigate.tools.catalog.user_files import FILE_RESOURCE_TEMPLATE
from obsigate.tools.context import ToolContext, ToolRuntime
from obsigate.tools.dispatch import call_operation, call_tool
from obsigate.tools.kinds import Kind

__all__ = [
    "FILE_RESOURCE_TEMPLATE", "collect_context", "delete_conversation_plan", "delete_user_file", "download_file", "download_user_file",
    "list_user_files", "read_file_resource", "upload_user_file", "user_file_info", "vault_switches",
]  # fmt: skip


async def collect_context(
    ctx: ToolContext,
    *,
    mode: Any,
    vault: Any = None,
    directory: Any = None,
    files: Any = None,
    extra_files: Any = None,
    extra_directories: Any = None,
    include_content: bool = True,
) -> dict[str, Any]:
    """Collect the assistant's context for ``ctx``'s caller (arguments as :class:`ContextArgs`; ``None``:
    not given): the tool ``bookslm_context``, audited as ``ai_context``.

    Returns:
        ``services.assistant_context.AssistantContext.to_dict``: ``{"mode", "vault", "directory", "tree",
        "vaults", "files": [{"path", "chars", "full_chars", "truncated", "content"?}], "skipped": [{"path",
        "reason"}], "skipped_more", "total_chars", "truncated", "limits"}``, redacted; ``content`` only with
        ``include_content``. ``vaults``: the vaults the caller may use in ``general`` mode without a vault,
        else the named one.

    Raises:
        ServiceError: ``invalid_argument`` (bad arguments, a bad path), ``vault_access_denied``,
            ``not_found`` (the vault, ``directory``), ``path_outside_vault`` (a path leaving the vault or naming
            a hidden entry), ``rate_limited``; anything unexpected as ``internal_error``.
    """
    given = {
        "mode": mode, "vault": vault, "directory": directory, "files": files,
        "extra_files": extra_files, "extra_directories": extra_directories,
    }  # fmt: skip
    args = {k: v for k, v in given.items() if v is not None}
    data = (await call_tool(ctx, "bookslm_context", args, front_call=True))["context"]
    if not include_content:
        data["files"] = [{k: v for k, v in f.items() if k != "content"} for f in data["files"]]
    return data


async def download_file(ctx: ToolContext, vault: str, path: str) -> tuple[bytes, str]:
    """The bytes of ``path`` in ``vault`` as stored (a note redacted) and its MIME type: the tool
    ``download_file`` (audited as such; the caller's grant on ``vault`` checked once, by ``permit``).

    Raises:
        ServiceError: ``vault_access_denied``, ``not_found``, ``path_outside_vault``, ``is_a_directory``,
            ``too_large``, ``rate_limited``.
    """
    out = await call_tool(ctx, "download_file", {"vault": vault, "path": path}, front_call=True)
    return base64.b64decode(out["content"]), out["mime_type"]


async def vault_switches(ctx: ToolContext) -> list[dict[str, Any]]:
    """Every declared vault, whatever the caller's grants (an admin manages them all), in declaration order:
    ``[{"name", "read_only", "destructive_tools"}]``; ``destructive_tools`` is the live ``aiDestructiveTools``
    switch that every dangerous tool call checks: the tool ``vault_switches``. Reads no vault content.

    Raises:
        ServiceError: ``forbidden`` (the caller is not an admin), ``rate_limited``.
    """
    # no rate limit: the admins' pages read it on every load, and an agent's exhausted budget must never lock
    # an admin out of revoking a grant
    return (await call_tool(ctx, "vault_switches", {}, front_call=True, limiter=None))["vaults"]


async def upload_user_file(ctx: ToolContext, name: str, data: bytes, conversation: str | None = None) -> dict[str, Any]:
    """Store ``data`` as a new file of the caller's space, named ``name`` (display only), in ``conversation``
    (then it expires with the conversation's files; ``None``: kept until deleted): the tool ``upload_user_file``,
    run as the person's own action (``ctx`` must be ``confirmed``).

    Returns:
        The file's record (``FileRecord.to_dict``: ``file_id``, ``name``, ``mime_type`` sniffed from the bytes,
        ``size``, ``sha256``, ``created_at``, ``expires_at``, ``uri``...).

    Raises:
        ServiceError: ``file_too_large`` (413), ``quota_exceeded`` (507), ``invalid_argument``, ``unavailable``
            (no file space), ``rate_limited``, ``confirmation_required`` (an unconfirmed context).
    """
    args: dict[str, Any] = {"name": name, "content": base64.b64encode(data).decode("ascii")}
    if conversation is not None:
        args["conversation"] = conversation
    return (await call_tool(ctx, "upload_user_file", args, front_call=True))["file"]


async def list_user_files(ctx: ToolContext, *, limit: int = 50, offset: int = 0) -> dict[str, Any]:
    """The caller's files, newest first: the tool ``list_user_files`` (``{"files", "total", "offset",
    "next_offset", "used_bytes", "quota_bytes"}``).

    Raises:
        ServiceError: ``invalid_argument``, ``unavailable``, ``rate_limited``.
    """
    return await call_tool(ctx, "list_user_files", {"limit": limit, "offset": offset}, front_call=True)


async def user_file_info(ctx: ToolContext, file_id: str) -> dict[str, Any]:
    """One of the caller's files: its record (the tool ``user_file_info``).

    Raises:
        ServiceError: ``not_found`` (no such id for this caller, another user's included), ``rate_limited``.
    """
    return (await call_tool(ctx, "user_file_info", {"file_id": file_id}, front_call=True))["file"]


async def download_user_file(ctx: ToolContext, file_id: str) -> tuple[dict[str, Any], bytes]:
    """One of the caller's files, its record and its bytes (the tool ``download_user_file``; a use: its expiry
    moves on).

    Raises:
        ServiceError: ``not_found``, ``rate_limited``.
    """
    out = await call_tool(ctx, "download_user_file", {"file_id": file_id}, front_call=True)
    return out["file"], base64.b64decode(out["content"])


async def delete_user_file(ctx: ToolContext, file_id: str) -> dict[str, Any]:
    """Delete one of the caller's files (bytes, record, caches): the tool ``delete_user_file``, the person's own
    action (``ctx`` must be ``confirmed``). Returns the record it had.

    Raises:
        ServiceError: ``not_found``, ``rate_limited``, ``confirmation_required``.
    """
    return (await call_tool(ctx, "delete_user_file", {"file_id": file_id}, front_call=True))["file"]


async def read_file_resource(ctx: ToolContext, uri: str, file_id: str) -> dict[str, Any]:
    """MCP ``resources/read`` of ``obsigate://files/<file_id>``, through the door like every resource read.

    Returns:
        ``{"kind": "user_file", "mime_type", "name", "size", "encoding": "utf-8"|"base64", "content"}``.

    Raises:
        ServiceError: ``not_found`` (another user's id included), ``invalid_argument``, ``rate_limited``.
    """
    return await call_operation(ctx, Kind.RESOURCE, FILE_RESOURCE_TEMPLATE, {"uri": uri, "file_id": file_id})


async def delete_conversation_plan(ctx: ToolContext, conversation: str) -> bool:
    """Delete the plan of ``ctx``'s caller's ``conversation`` once the conversation itself is deleted (the
    assistant's bookkeeping of the caller's own space, like deleting the conversation's messages: no tool call).
    ``True`` if there was one; ``False`` also when the server keeps no plans (no data dir)."""
    if ctx.runtime.data_dir is None:
        return False
    return await anyio.to_thread.run_sync(plans.delete_plan, ctx.runtime.data_dir, ctx.principal.name, conversation)


def expire_session_leftovers(runtime: ToolRuntime) -> int:
    """Delete what ended sessions left behind: the file space's expired files and the plans of MCP sessions idle
    for the file space's TTL (``OBSIGATE_FILES_TTL``; 24 h without a file space). Blocking: run it in a worker
    thread. Returns how many files and plans went."""
    gone = runtime.files.expire() if runtime.files is not None else 0
    ttl = runtime.files.ttl_s if runtime.files is not None else plans.SESSION_TTL_S
    return gone + plans.sweep_session_plans(runtime.data_dir, ttl)
