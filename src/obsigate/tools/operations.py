"""The fronts' entry points to their own operations (:mod:`obsigate.tools.catalog.fronts`, tools offered to no
model), each one ``call_tool(..., front_call=True)``: the assistant's context and a file's bytes for a download;
and the declared vaults' switches for the admins' settings page.
"""

from __future__ import annotations

import base64
from typing import Any

from obsigate.tools.context import ToolContext
from obsigate.tools.dispatch import call_tool

__all__ = ["collect_context", "download_file", "vault_switches"]


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
