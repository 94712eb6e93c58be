"""Front operations that are not model tools but still go through the one door (rate limit, error mapping,
audit): a file's bytes for an HTTP download."""

from __future__ import annotations

import anyio

from obsigate.services.files import read_file_bytes
from obsigate.tools.context import ToolContext
from obsigate.tools.door import door

__all__ = ["download_file"]


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
        _, data, mime = await anyio.to_thread.run_sync(lambda: read_file_bytes(ctx.workspace, permitted, path))
    return data, mime
