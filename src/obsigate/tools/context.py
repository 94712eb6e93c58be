"""What a tool call knows: who calls (:class:`ToolContext`) and the shared machinery (:class:`ToolRuntime`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from obsigate.auth.principal import Principal
from obsigate.domain.storage.tool_journal import ToolJournal
from obsigate.domain.vault import Vault
from obsigate.services.net.web import WebAccess
from obsigate.services.user_files import FileSpace
from obsigate.services.workspace import Workspace
from obsigate.tools.confirm.store import ConfirmationService
from obsigate.tools.ratelimit import ToolRateLimiter
from obsigate.tools.registry import REGISTRY, ToolRegistry

#: The fronts. ``web`` is the web app (a request authenticated by its session cookie): REST's rules (every
#: tool visible, writes are the person's own confirmed action) with its own rate budget (``web_limiter``).
MODES = ("mcp", "in_app", "rest", "web", "cli")


class ContextGauge(Protocol):
    """The in-app assistant's context gauge as ``get_context_usage`` reads it (``agent/gauge.py`` implements it;
    the composition root sets it on :attr:`ToolRuntime.context_gauge`). Both methods read SQLite and tokenize:
    call them from a worker thread."""

    def conversation_of(self, user: str, session: str | None) -> str | None:
        """The conversation of ``user``'s run or conversation ``session``; ``None`` when it is neither."""
        ...

    def report(self, user: str, cid: str) -> dict[str, Any]:
        """The gauge of ``user``'s conversation ``cid``. Raises ``NotFound`` when it is not one of ``user``'s."""
        ...


@dataclass(slots=True)
class ToolRuntime:
    """Built once per process by the composition root: the services' world, the tool journal (``journal``:
    one chained row per call, ``None`` in a runtime with no data dir), the rate
    limiters (``None`` = unlimited) — ``limiter`` for agents and scripts, ``web_limiter`` for the web app's
    people (``mode="web"``, a higher budget: search-as-you-type must not hit an agent's limit),
    ``agent_limiter`` for the in-app assistant's own calls (``mode="in_app"``; ``None``: they share ``limiter``)
    — the registry
    the fronts read and the confirmation tokens of ``propose_``/``apply_`` (``None``: those tools answer
    ``unavailable``); ``web``: the outbound settings of the web tools (the guard's allow list, the search
    engine); ``data_dir``: the server's data dir (the users' own spaces live under it,
    ``domain/storage/user_space.py``), ``None`` in a runtime with no data dir; ``files``: the users' file space
    (``services/user_files.py``), ``None``: the file space tools are not offered and its operations answer
    ``unavailable``; ``context_gauge``: the assistant's
    context gauge (``None``: no assistant, ``get_context_usage`` has no conversation to report on)."""

    workspace: Workspace
    journal: ToolJournal | None = None
    limiter: ToolRateLimiter | None = None
    web_limiter: ToolRateLimiter | None = None
    agent_limiter: ToolRateLimiter | None = None
    registry: ToolRegistry = field(default_factory=lambda: REGISTRY)
    confirmations: ConfirmationService | None = None
    web: WebAccess = field(default_factory=WebAccess)
    data_dir: Path | None = None
    files: FileSpace | None = None
    context_gauge: ContextGauge | None = None


@dataclass(frozen=True, slots=True)
class ToolContext:
    """One call's caller (``principal``), the ``runtime``, the front (``mode``: one of ``MODES``) and whether
    a human already confirmed this call (``confirmed``).

    ``session_id``: the conversation the call belongs to — the MCP session (``Mcp-Session-Id``), the in-app
    agent's conversation — recorded in the tool journal and the key of per-conversation state (memory, plans);
    ``None`` for a stateless call (REST, MCP 2026-07-28 without a session).

    ``expected_reads``: set by ``apply_<tool>`` to the proposal's ``reads`` (``{vault-relative path: sha256 hex,
    "" = absent}``); a write tool passes it to its service, which raises ``Conflict`` and writes nothing if
    any of those files changed since the proposal. ``None`` (REST, a direct confirmed call): no such check.

    ``vault`` and ``scope``: what :func:`~obsigate.tools.pipeline.permit` resolved, the one check of the
    caller's vault grants in a call; ``call_tool`` (and ``apply_``, with the vault of the redeemed token) sets
    them with ``dataclasses.replace`` before the tool runs, and tools use them instead of checking grants again.
    ``vault`` is the permitted :class:`~obsigate.domain.vault.Vault` when the arguments name one, else
    ``None``; ``scope`` is the names of the vaults the call may see: ``(vault.name,)`` when one is named, else
    every vault the caller may use, in declaration order. Before ``permit`` runs both are empty (``None``,
    ``()``): a call that was never permitted sees no vault.

    ``turn_id``: the turn of the conversation the call belongs to (the in-app assistant's run step, an MCP
    request); with ``session_id`` it names where an artifact was made and which turn's journal chain a call joins.

    ``parent_call_id``: the journal ``call_id`` of the call this one is made inside (a sub-agent's, a tool that
    calls tools), ``None`` for a call a front made.
    """

    principal: Principal
    runtime: ToolRuntime
    mode: str = "rest"
    confirmed: bool = False
    session_id: str | None = None
    expected_reads: dict[str, str] | None = None
    vault: Vault | None = None
    scope: tuple[str, ...] = ()
    turn_id: str | None = None
    parent_call_id: str | None = None

    @property
    def workspace(self) -> Workspace:
        return self.runtime.workspace

    @property
    def allowed_vaults(self) -> frozenset[str] | None:
        """The caller's vault grants; ``None`` means every vault. Only the tool layer's permission checks read
        them (``pipeline.permit``, the entry points' own checks, ``visible_tools``): services never see grants."""
        return self.principal.vaults

    @property
    def permitted_vault(self) -> Vault:
        """:attr:`vault`, for a tool whose arguments name a vault (so ``permit`` resolved it).

        Raises:
            RuntimeError: the call was not permitted (a tool run outside ``call_tool``): a bug, reported as
                ``internal_error`` by the door, never a way around the grant check.
        """
        if self.vault is None:
            raise RuntimeError("the tool ran without a permitted vault (pipeline.permit did not run)")
        return self.vault
