"""Vault resources in the tool layer: ``vault://{name}`` (one per accessible vault: its note count and
read-only flag) and the file template ``vault://{name}/{+path}`` (RFC 6570 reserved expansion, so ``path``
keeps its ``/``). The MCP front parses URIs and renders; reads go through the one door (rate limit, audit as
``resources/read`` with ``action: mcp_resource_read``), the caller's grants, the one path guard and
redaction (``services.files.read_raw_file``).
"""

from __future__ import annotations

from typing import Any

import anyio

from obsigate.services import files, vaults
from obsigate.services.errors import NotFound
from obsigate.services.redacted_paths import locate
from obsigate.tools.audit import summarize_args
from obsigate.tools.context import ToolContext
from obsigate.tools.door import door

__all__ = ["FILE_TEMPLATE", "VAULT_TEMPLATE", "accessible_vaults", "read_resource"]

VAULT_TEMPLATE = "vault://{name}"
FILE_TEMPLATE = "vault://{name}/{+path}"


def accessible_vaults(ctx: ToolContext) -> list[str]:
    """The names of the vaults the caller may use, in declaration order."""
    return list(ctx.workspace.accessible(ctx.allowed_vaults))


async def read_resource(ctx: ToolContext, uri: str, vault: str | None, path: str | None) -> dict[str, Any]:
    """Read resource ``uri``, already parsed into ``vault`` and ``path`` (``None``: the URI matched no
    template; ``path`` ``None``: the vault resource). The caller's grant on ``vault`` is checked once, here
    (``Workspace.get_vault``); the services get the resolved vault.

    Returns:
        The vault resource ``{"kind": "vault", "name", "notes", "read_only"}``, or the file ``{"kind":
        "file", "content", "encoding": "utf-8"|"base64", "mime_type", "truncated", "next_offset", ...}`` as
        ``services.files.read_raw_file`` gives it (text redacted).

    Raises:
        ServiceError: ``not_found`` (no such resource, vault, file), ``vault_access_denied``,
            ``path_outside_vault``, ``invalid_argument``, ``too_large``, ``rate_limited``.
    """
    args = {"uri": uri, "vault": vault} if vault is not None else {"uri": uri}
    async with door(ctx, "resources/read", args, action="mcp_resource_read", audit_args=summarize_args({"uri": uri})):
        if vault is None:
            raise NotFound(f"no resource {uri!r}", hint="use vault://<vault> or vault://<vault>/<path>")
        permitted = ctx.workspace.get_vault(vault, ctx.allowed_vaults)  # the one grant check: denied / not found
        if path is None:
            info = vaults.list_accessible_vaults(ctx.workspace, [permitted.name]).vaults[0]
            return {"kind": "vault", "name": info.name, "notes": info.notes, "read_only": info.read_only}
        data = await anyio.to_thread.run_sync(  # a path as shown: a name holding a secret redacted
            lambda: files.read_raw_file(ctx.workspace, permitted, locate(ctx.workspace, permitted, path))
        )
        return {"kind": "file", **data.model_dump()}
