"""What a tool call knows: who calls (:class:`ToolContext`) and the shared machinery (:class:`ToolRuntime`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from obsigate.auth.principal import Principal
from obsigate.services.workspace import Workspace
from obsigate.tools.audit import AuditLog
from obsigate.tools.ratelimit import ToolRateLimiter
from obsigate.tools.registry import REGISTRY, ToolRegistry

if TYPE_CHECKING:  # the confirmation flow needs ToolContext: a runtime import would be a cycle
    from obsigate.tools.confirmations import ConfirmationService

MODES = ("mcp", "in_app", "rest", "cli")


@dataclass(slots=True)
class ToolRuntime:
    """Built once per process by the composition root: the services' world, the audit log, the rate
    limiter (``None`` = unlimited), the registry the fronts read and the confirmation tokens of
    ``propose_``/``apply_`` (``None``: those tools answer ``unavailable``)."""

    workspace: Workspace
    audit: AuditLog | None = None
    limiter: ToolRateLimiter | None = None
    registry: ToolRegistry = field(default_factory=lambda: REGISTRY)
    confirmations: ConfirmationService | None = None


@dataclass(frozen=True, slots=True)
class ToolContext:
    """One call's caller (``principal``), the ``runtime``, the front (``mode``: one of ``MODES``) and whether
    a human already confirmed this call (``confirmed``).

    ``session_id``: the conversation the call belongs to — the MCP session (``Mcp-Session-Id``), the in-app
    agent's run — recorded in the audit trail and the key of per-conversation state (memory, plans);
    ``None`` for a stateless call (REST, MCP 2026-07-28 without a session).

    ``expected_reads``: set by ``apply_<tool>`` to the proposal's ``reads`` (``{vault-relative path: sha256 hex,
    "" = absent}``); a write tool passes it to its service, which raises ``Conflict`` and writes nothing if
    any of those files changed since the proposal. ``None`` (REST, a direct confirmed call): no such check.
    """

    principal: Principal
    runtime: ToolRuntime
    mode: str = "rest"
    confirmed: bool = False
    session_id: str | None = None
    expected_reads: dict[str, str] | None = None

    @property
    def workspace(self) -> Workspace:
        return self.runtime.workspace

    @property
    def allowed_vaults(self) -> frozenset[str] | None:
        """The caller's vault grants; ``None`` means every vault."""
        return self.principal.vaults
