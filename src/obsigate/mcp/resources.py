"""MCP resources: one ``vault://{name}`` resource per accessible vault, the file template
``vault://{name}/{+path}`` (RFC 6570 reserved expansion, so ``path`` keeps its ``/`` separators) and the caller's
own files, ``obsigate://files/{file_id}`` (the file space, ``services/user_files.py``).

This module parses URIs and renders results; the reads themselves are the tool layer's
(:mod:`obsigate.tools.kinds.resources`: the caller's grants, the one path guard, redaction, rate limit, audit).

Errors are JSON-RPC errors, as resources have no ``isError`` channel (MCP ``server/resources``
§Error Handling): *resource not found* is ``-32602`` in 2026-07-28 and ``-32002`` in the handshake era
(2025-11-25 and earlier); every other refusal (``vault_access_denied``, ``path_outside_vault``,
``invalid_argument``, ``too_large``...) is ``-32602`` with the ObsiGate code first in the message and in
``data.code``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from mcp import MCPError, UriTemplate
from mcp.server.context import ServerRequestContext
from mcp_types import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    BlobResourceContents,
    ListResourcesResult,
    ListResourceTemplatesResult,
    PaginatedRequestParams,
    ReadResourceRequestParams,
    ReadResourceResult,
    Resource,
    ResourceTemplate,
    TextResourceContents,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from obsigate.mcp.prompts import no_cursor
from obsigate.tools.api import (
    FILE_RESOURCE_TEMPLATE,
    FILE_TEMPLATE,
    VAULT_TEMPLATE,
    ServiceError,
    ToolContext,
    accessible_vaults,
    read_file_resource,
    read_resource,
)

__all__ = ["FILE_TEMPLATE", "RESOURCE_NOT_FOUND_LEGACY", "VAULT_TEMPLATE", "ResourceHandlers"]

#: Resource-not-found code of MCP ≤ 2025-11-25 (``server/resources`` §Error Handling); retired in 2026-07-28.
RESOURCE_NOT_FOUND_LEGACY = -32002

_VAULT_T = UriTemplate.parse(VAULT_TEMPLATE)
_FILE_T = UriTemplate.parse(FILE_TEMPLATE)
_USER_FILE_T = UriTemplate.parse(FILE_RESOURCE_TEMPLATE)

ContextOf = Callable[[ServerRequestContext[Any, Any]], ToolContext]


#: The one resource template: any file of a vault by path.
_FILE_TEMPLATE = ResourceTemplate(
    uri_template=FILE_TEMPLATE,
    name="vault-file",
    title="File in a vault",
    description=(
        "A file of a vault, by vault-relative path with '/' separators (e.g. vault://notes/Projects/Plan.md). "
        "Text is returned redacted; images and other binaries as base64 blobs."
    ),
)


#: A file of the caller's own file space (uploads, tool artifacts), by the file_id tools return.
_USER_FILE_TEMPLATE = ResourceTemplate(
    uri_template=FILE_RESOURCE_TEMPLATE,
    name="user-file",
    title="Your file",
    description="One of your files (uploads, tool artifacts) by file_id: text redacted, binaries as base64 blobs.",
)


def _vault_resource(name: str) -> Resource:
    """The ``vault://<name>`` resource (its note count and read-only flag, as JSON)."""
    return Resource(
        uri=f"vault://{quote(name, safe='')}",
        name=name,
        title=f"Vault {name}",
        description=f"Vault {name!r}: note count and read-only flag. Files: vault://{name}/<path>.",
        mime_type="application/json",
    )


class ResourceHandlers:
    """The ``resources/*`` handlers for one server. ``context_of(ctx)`` gives the caller's tool context."""

    def __init__(self, context_of: ContextOf) -> None:
        self.context_of = context_of

    async def list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        """``resources/list``: one ``vault://<name>`` per vault the caller may use, in declaration order."""
        no_cursor(params, "resource list")
        return ListResourcesResult(resources=[_vault_resource(n) for n in accessible_vaults(self.context_of(ctx))])

    async def list_templates(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourceTemplatesResult:
        """``resources/templates/list``: the file template ``vault://{name}/{+path}`` and the file space's
        ``obsigate://files/{file_id}``."""
        no_cursor(params, "template list")
        return ListResourceTemplatesResult(resource_templates=[_FILE_TEMPLATE, _USER_FILE_TEMPLATE])

    async def read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: ReadResourceRequestParams
    ) -> ReadResourceResult:
        """``resources/read`` of ``vault://<name>`` (JSON) or ``vault://<name>/<path>`` (the file).

        Raises:
            MCPError: see the module docstring for codes.
        """
        uri = str(params.uri)
        vault: str | None = None
        path: str | None = None
        user_file = _USER_FILE_T.match(uri)
        if user_file is not None:
            return await self._read_user_file(ctx, uri, str(user_file["file_id"]))
        if file_vars := _FILE_T.match(uri):
            vault, path = str(file_vars["name"]), str(file_vars["path"])
        elif vault_vars := _VAULT_T.match(uri):
            vault = str(vault_vars["name"])
        try:
            data = await read_resource(self.context_of(ctx), uri, vault, path)
        except ServiceError as exc:
            raise _read_error(exc, uri, ctx.protocol_version) from None
        if data["kind"] == "vault":
            body = {k: data[k] for k in ("name", "notes", "read_only")}
            return ReadResourceResult(
                contents=[TextResourceContents(uri=uri, mime_type="application/json", text=json.dumps(body))]
            )
        meta = None
        if data.get("truncated"):
            meta = {
                "obsigate/truncated": True,
                "obsigate/next_offset": data.get("next_offset"),
                "obsigate/hint": "the file is longer than one read; call read_file_raw with offset=next_offset",
            }
        if data["encoding"] == "base64":
            contents: TextResourceContents | BlobResourceContents = BlobResourceContents(
                uri=uri, mime_type=data["mime_type"], blob=data["content"], meta=meta
            )
        else:
            contents = TextResourceContents(uri=uri, mime_type=data["mime_type"], text=data["content"], meta=meta)
        return ReadResourceResult(contents=[contents])

    async def _read_user_file(self, ctx: ServerRequestContext[Any, Any], uri: str, file_id: str) -> ReadResourceResult:
        """``resources/read`` of ``obsigate://files/<file_id>``: one of the caller's files (another user's is
        *resource not found*, like an id that never existed).

        Raises:
            MCPError: see the module docstring for codes.
        """
        try:
            data = await read_file_resource(self.context_of(ctx), uri, file_id)
        except ServiceError as exc:
            raise _read_error(exc, uri, ctx.protocol_version) from None
        if data["encoding"] == "base64":
            return ReadResourceResult(
                contents=[BlobResourceContents(uri=uri, mime_type=data["mime_type"], blob=data["content"])]
            )
        return ReadResourceResult(
            contents=[TextResourceContents(uri=uri, mime_type=data["mime_type"], text=data["content"])]
        )


def _read_error(exc: ServiceError, uri: str, protocol_version: str) -> MCPError:
    """The JSON-RPC error of a refused ``resources/read`` (an ``internal_error`` with its error id)."""
    if exc.code == "internal_error":  # the door logged it under exc.error_id
        return MCPError(
            INTERNAL_ERROR, f"internal_error: reading the resource failed unexpectedly (error id {exc.error_id})",
            {"code": exc.code, "error_id": exc.error_id},
        )  # fmt: skip
    return _protocol_error(exc, uri, protocol_version)


def _protocol_error(exc: ServiceError, uri: str, protocol_version: str) -> MCPError:
    """The JSON-RPC error for a refused read (codes per era, see the module docstring)."""
    data: dict[str, Any] = {"uri": uri, "code": exc.code, **exc.details}
    if exc.hint:
        data["hint"] = exc.hint
    if exc.code == "not_found":
        code = INVALID_PARAMS if protocol_version in MODERN_PROTOCOL_VERSIONS else RESOURCE_NOT_FOUND_LEGACY
        return MCPError(code, f"Resource not found: {exc.code}: {exc.message}", data)
    return MCPError(INVALID_PARAMS, f"{exc.code}: {exc.message}", data)
