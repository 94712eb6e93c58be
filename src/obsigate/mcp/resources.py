"""MCP resources: one ``vault://{name}`` resource per accessible vault and the file template
``vault://{name}/{+path}`` (RFC 6570 reserved expansion, so ``path`` keeps its ``/`` separators).

Reads go through the services with the caller's grants (``Workspace.get_vault``), the one path guard
(``services.paths.resolve_safe_path``: traversal, absolute paths, hidden entries and NUL are refused) and
redaction (``services.files.read_raw_file``). Every read is recorded in the audit log.

Errors are JSON-RPC errors, as resources have no ``isError`` channel (MCP ``server/resources``
§Error Handling): *resource not found* is ``-32602`` in 2026-07-28 and ``-32002`` in the handshake era
(2025-11-25 and earlier); every other refusal (``vault_access_denied``, ``path_outside_vault``,
``invalid_argument``, ``too_large``...) is ``-32602`` with the ObsiGate code first in the message and in
``data.code``.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import anyio
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

from obsigate.auth.principal import Principal
from obsigate.services import files, vaults
from obsigate.services.errors import NotFound, ServiceError
from obsigate.tools.audit import AuditEvent, summarize_args
from obsigate.tools.context import ToolRuntime

__all__ = ["FILE_TEMPLATE", "VAULT_TEMPLATE", "RESOURCE_NOT_FOUND_LEGACY", "ResourceHandlers"]

log = logging.getLogger(__name__)

VAULT_TEMPLATE = "vault://{name}"
FILE_TEMPLATE = "vault://{name}/{+path}"
#: Resource-not-found code of MCP ≤ 2025-11-25 (``server/resources`` §Error Handling); retired in 2026-07-28.
RESOURCE_NOT_FOUND_LEGACY = -32002

_VAULT_T = UriTemplate.parse(VAULT_TEMPLATE)
_FILE_T = UriTemplate.parse(FILE_TEMPLATE)

PrincipalOf = Callable[[ServerRequestContext[Any, Any]], Principal]


def _no_cursor(params: PaginatedRequestParams | None) -> None:
    # Lists are never paged, so no cursor was ever issued: any cursor is invalid (MCP utilities/pagination).
    if params is not None and params.cursor is not None:
        raise MCPError(INVALID_PARAMS, "invalid_argument: unknown cursor (these lists are not paged)")


class ResourceHandlers:
    """The ``resources/*`` handlers for one runtime. ``principal_of(ctx)`` names the caller of a request."""

    def __init__(self, runtime: ToolRuntime, principal_of: PrincipalOf) -> None:
        self.runtime = runtime
        self.principal_of = principal_of

    async def list_resources(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        """``resources/list``: one ``vault://<name>`` per vault the caller may use, in declaration order."""
        _no_cursor(params)
        principal = self.principal_of(ctx)
        return ListResourcesResult(
            resources=[
                Resource(
                    uri=f"vault://{quote(name, safe='')}",
                    name=name,
                    title=f"Vault {name}",
                    description=f"Vault {name!r}: note count and read-only flag. Files: vault://{name}/<path>.",
                    mime_type="application/json",
                )
                for name in self.runtime.workspace.accessible(principal.vaults)
            ]
        )

    async def list_templates(
        self, ctx: ServerRequestContext[Any, Any], params: PaginatedRequestParams | None
    ) -> ListResourceTemplatesResult:
        """``resources/templates/list``: the file template ``vault://{name}/{+path}``."""
        _no_cursor(params)
        return ListResourceTemplatesResult(
            resource_templates=[
                ResourceTemplate(
                    uri_template=FILE_TEMPLATE,
                    name="vault-file",
                    title="File in a vault",
                    description=(
                        "A file of a vault, by vault-relative path with '/' separators "
                        "(e.g. vault://notes/Projects/Plan.md). Text is returned redacted; images and other "
                        "binaries as base64 blobs."
                    ),
                )
            ]
        )

    async def read_resource(
        self, ctx: ServerRequestContext[Any, Any], params: ReadResourceRequestParams
    ) -> ReadResourceResult:
        """``resources/read`` of ``vault://<name>`` (JSON) or ``vault://<name>/<path>`` (the file).

        Raises:
            MCPError: see the module docstring for codes.
        """
        uri = str(params.uri)
        principal = self.principal_of(ctx)
        started = time.perf_counter()
        result_code = "ok"
        vault_name: str | None = None
        try:
            if file_vars := _FILE_T.match(uri):
                vault_name = str(file_vars["name"])
                return await self._read_file(uri, vault_name, str(file_vars["path"]), principal)
            if vault_vars := _VAULT_T.match(uri):
                vault_name = str(vault_vars["name"])
                return self._read_vault(uri, vault_name, principal)
            raise NotFound(f"no resource {uri!r}", hint="use vault://<vault> or vault://<vault>/<path>")
        except ServiceError as exc:
            result_code = exc.code
            raise _protocol_error(exc, uri, ctx.protocol_version) from None
        except Exception:
            result_code = "internal_error"
            log.exception("resources/read failed unexpectedly")
            raise MCPError(INTERNAL_ERROR, "internal_error: reading the resource failed unexpectedly") from None
        finally:
            self._audit(principal, uri, vault_name, result_code, started)

    def _read_vault(self, uri: str, name: str, principal: Principal) -> ReadResourceResult:
        vault = self.runtime.workspace.get_vault(name, principal.vaults)  # denied / not found
        info = next(v for v in vaults.list_accessible_vaults(self.runtime.workspace, [vault.name]))
        body = {"name": info["name"], "notes": info["notes"], "read_only": info["read_only"]}
        return ReadResourceResult(
            contents=[TextResourceContents(uri=uri, mime_type="application/json", text=json.dumps(body))]
        )

    async def _read_file(self, uri: str, name: str, path: str, principal: Principal) -> ReadResourceResult:
        data = await anyio.to_thread.run_sync(
            lambda: files.read_raw_file(self.runtime.workspace, name, path, principal.vaults)
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
                uri=uri, mime_type=data["mime_type"], blob=data["content"]
            )
        else:
            contents = TextResourceContents(uri=uri, mime_type=data["mime_type"], text=data["content"], meta=meta)
        return ReadResourceResult(contents=[contents])

    def _audit(self, principal: Principal, uri: str, vault: str | None, result: str, started: float) -> None:
        if self.runtime.audit is None:
            return
        self.runtime.audit.record(
            AuditEvent(
                user=principal.name,
                auth_kind=principal.auth_kind,
                mode="mcp",
                tool="resources/read",
                vault=vault,
                args=summarize_args({"uri": uri}),
                result=result,
                duration_ms=round((time.perf_counter() - started) * 1000, 2),
                action="mcp_resource_read",
            )
        )


def _protocol_error(exc: ServiceError, uri: str, protocol_version: str) -> MCPError:
    """The JSON-RPC error for a refused read (codes per era, see the module docstring)."""
    data: dict[str, Any] = {"uri": uri, "code": exc.code}
    if exc.hint:
        data["hint"] = exc.hint
    if isinstance(exc, NotFound):
        code = INVALID_PARAMS if protocol_version in MODERN_PROTOCOL_VERSIONS else RESOURCE_NOT_FOUND_LEGACY
        return MCPError(code, f"Resource not found: {exc.code}: {exc.message}", data)
    return MCPError(INVALID_PARAMS, f"{exc.code}: {exc.message}", data)
