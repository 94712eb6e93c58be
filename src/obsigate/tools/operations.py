"""Front operations that are not model tools: a file's bytes for an HTTP download (through the one door: rate
limit, error mapping, audit), and the declared vaults' switches for the admins' settings page."""

from __future__ import annotations

from typing import Any

import anyio

from obsigate.services.errors import Forbidden
from obsigate.services.files import read_file_bytes
from obsigate.services.redacted_paths import locate
from obsigate.tools.context import ToolContext
from obsigate.tools.door import door

__all__ = ["download_file", "vault_switches"]


async def download_file(ctx: ToolContext, vault: str, path: str) -> tuple[bytes, str]:
    """The bytes of ``path`` in ``vault`` as stored (a note redacted) and its MIME type; audited as
    ``download_file``. The caller's grant on ``vault`` is checked once, here (``Workspace.get_vault``), before
    the path; the service reads the resolved vault.

    Raises:
        ServiceError: ``vault_access_denied``, ``not_found``, ``path_outside_vault``, ``is_a_directory``,
            ``too_large``, ``rate_limited``.
    """
    args = {"vault": vault, "path": path}
    async with door(ctx, "download_file", args):
        permitted = ctx.workspace.get_vault(vault, ctx.allowed_vaults)
        _, data, mime = await anyio.to_thread.run_sync(
            lambda: read_file_bytes(ctx.workspace, permitted, locate(ctx.workspace, permitted, path))
        )  # a path as a reader was shown it: a name holding a secret redacted (services.redacted_paths)
    return data, mime


def vault_switches(ctx: ToolContext) -> list[dict[str, Any]]:
    """Every declared vault, whatever the caller's grants (an admin manages them all), in declaration order:
    ``[{"name", "read_only", "destructive_tools"}]``; ``destructive_tools`` is the live ``aiDestructiveTools``
    switch that every dangerous tool call checks. Reads no vault content.

    Raises:
        Forbidden (``forbidden``): the caller is not an admin.
    """
    if not ctx.principal.is_admin:
        raise Forbidden("only an admin may see the vaults' settings", code="forbidden")
    ws = ctx.workspace
    return [
        {"name": n, "read_only": v.read_only, "destructive_tools": ws.destructive.get(n, True)}
        for n, v in ws.vaults.items()
    ]
