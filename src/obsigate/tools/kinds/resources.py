"""Vault resources, one :func:`~obsigate.tools.kinds.operation` per template: ``vault://{name}`` (one per
accessible vault: its note count and read-only flag) and the file template ``vault://{name}/{+path}`` (RFC 6570
reserved expansion, so ``path`` keeps its ``/``). The MCP front parses URIs and renders; reads run like a tool
(:func:`~obsigate.tools.dispatch.call_operation`: the door — rate limit, audit as ``resources/read`` with
``action: mcp_resource_read`` — the caller's grant, checked once by ``pipeline.permit``, the one path guard and
redaction, ``services.files.read_raw_file``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from obsigate.services import files, vaults
from obsigate.services.redacted_paths import locate
from obsigate.tools.context import ToolContext
from obsigate.tools.dispatch import call_operation
from obsigate.tools.kinds import Kind, operation

__all__ = ["FILE_TEMPLATE", "VAULT_TEMPLATE", "accessible_vaults", "read_resource"]

VAULT_TEMPLATE = "vault://{name}"
FILE_TEMPLATE = "vault://{name}/{+path}"


class VaultResourceArgs(BaseModel):
    """A vault resource: its ``uri`` and the ``vault`` it names."""

    model_config = ConfigDict(extra="forbid", strict=True)

    uri: str
    vault: str = Field(min_length=1, max_length=64)


class FileResourceArgs(VaultResourceArgs):
    """A file resource: also the ``path`` in the vault, as a reader was shown it."""

    path: str = Field(max_length=1024)


@operation(Kind.RESOURCE, VAULT_TEMPLATE, title="Vault")
def vault_resource(ctx: ToolContext, args: VaultResourceArgs) -> dict[str, Any]:
    """A vault: ``{"kind": "vault", "name", "notes", "read_only"}``."""
    info = vaults.list_accessible_vaults(ctx.workspace, [ctx.permitted_vault.name]).vaults[0]
    return {"kind": "vault", "name": info.name, "notes": info.notes, "read_only": info.read_only}


@operation(Kind.RESOURCE, FILE_TEMPLATE, title="File")
def file_resource(ctx: ToolContext, args: FileResourceArgs) -> dict[str, Any]:
    """A file: ``{"kind": "file", "content", "encoding": "utf-8"|"base64", "mime_type", "truncated",
    "next_offset", ...}`` as ``services.files.read_raw_file`` gives it (text redacted)."""
    vault = ctx.permitted_vault  # a path as shown: a name holding a secret redacted
    data = files.read_raw_file(ctx.workspace, vault, str(locate(ctx.workspace, vault, args.path)))
    return {"kind": "file", **data.model_dump()}


def accessible_vaults(ctx: ToolContext) -> list[str]:
    """The names of the vaults the caller may use, in declaration order."""
    return list(ctx.workspace.accessible(ctx.allowed_vaults))


async def read_resource(ctx: ToolContext, uri: str, vault: str | None, path: str | None) -> dict[str, Any]:
    """Read resource ``uri``, already parsed into ``vault`` and ``path`` (``vault`` ``None``: the URI matched no
    template; ``path`` ``None``: the vault resource).

    Returns:
        :func:`vault_resource`'s or :func:`file_resource`'s answer.

    Raises:
        ServiceError: ``not_found`` (no such resource, vault, file), ``vault_access_denied``,
            ``path_outside_vault``, ``invalid_argument``, ``too_large``, ``rate_limited``.
    """
    if vault is None:  # refused inside the door, so audited and rate-limited like any read
        return await call_operation(ctx, Kind.RESOURCE, "", {"uri": uri})
    if path is None:
        return await call_operation(ctx, Kind.RESOURCE, VAULT_TEMPLATE, {"uri": uri, "vault": vault})
    return await call_operation(ctx, Kind.RESOURCE, FILE_TEMPLATE, {"uri": uri, "vault": vault, "path": path})
