"""The one door: what every call into the vaults goes through, whatever the front.

:func:`door` wraps one call — a tool call, a proposal's decline, a resource read, a prompt, a completion —
and does, exactly once: the Unicode check of the arguments, the rate limit (per user: a new token is not a
new budget), the mapping of failures to a :class:`~obsigate.services.errors.ServiceError` (an unexpected
exception becomes ``internal_error``, never a traceback to the caller: the traceback goes to the server's log
under an error id that the caller and the audit record get too; an error's message, hint and details are
redacted, as a result is: a path or a line it quotes may hold a secret) and one journal row
(:mod:`obsigate.domain.storage.tool_journal`, kind ``call``), however the call ends. A mutation also gets an
``intent`` row before it changes anything (:func:`before_change`): if that row cannot be written the change is
refused (``journal_unavailable``, or ``storage_full``) and nothing is written; a read whose row cannot be written
is logged on the server and answered all the same. Vault permission, validation, confirmation, redaction and the size budget are done by the entry points
inside it (:mod:`obsigate.tools.dispatch`, :mod:`obsigate.tools.confirm.flow`, ...).
"""

from __future__ import annotations

import inspect
import logging
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio

from obsigate.domain.redaction import redact_payload, redact_text
from obsigate.domain.storage import vault_fs
from obsigate.domain.storage.tool_journal import JournalEntry, new_call_id
from obsigate.domain.text import has_lone_surrogate
from obsigate.services.errors import (
    BadRequest,
    NotFound,
    PathOutsideVault,
    ServiceError,
    Unavailable,
    internal_error,
    is_storage_full,
    storage_full,
)
from obsigate.tools.audit import summarize_args
from obsigate.tools.context import ToolContext
from obsigate.tools.ratelimit import ToolRateLimiter

__all__ = ["DEFAULT_LIMITER", "Call", "before_change", "door", "invoke"]

log = logging.getLogger("obsigate.journal")

#: ``door(limiter=...)``'s default: the limiter of the call's front (``_limiter_for``).
DEFAULT_LIMITER: Any = object()


@dataclass(slots=True)
class Call:
    """What a call learns for its journal row while it runs: the vault (an ``apply_`` learns it from its
    token), the summarised arguments, the ``action``, the paths, proposal id and backup ids, the error id of an
    unexpected failure, its ``result`` (digested) and the ``result_file_id`` the file space stored it under
    (the first of ``file_ids``, every file the call left in the caller's space: each gets the row's ``seq``).
    ``call_id`` names the call (its rows, and ``parent_call_id`` of calls made inside it); ``raw_args``: the
    arguments as sent (digested; kept only with journal contents enabled)."""

    vault: str | None
    args: dict[str, Any]
    action: str = "ai_tool_call"
    paths: list[str] | None = None
    proposal: str | None = None
    backups: list[str] | None = None
    error_id: str | None = None
    tool: str = ""
    call_id: str = field(default_factory=new_call_id)
    raw_args: Any = None
    result: Any = None
    result_file_id: str | None = None
    file_ids: list[str] = field(default_factory=list)


@asynccontextmanager
async def door(
    ctx: ToolContext,
    name: str,
    args: Any,
    *,
    action: str = "ai_tool_call",
    audit_args: dict[str, Any] | None = None,
    limiter: Any = DEFAULT_LIMITER,
    before: Callable[[Call], None] | None = None,
) -> AsyncIterator[Call]:
    """Run one call of ``name`` with ``args`` (the raw arguments) for ``ctx`` (see the module docstring).

    Args:
        action: the audit record's action (``ai_tool_call``, ``mcp_resource_read``...); the block may change
            it on the yielded :class:`Call`.
        audit_args: what the journal row keeps of the arguments, when not ``summarize_args(args)``.
        limiter: the rate limiter to hit; default ``ctx.runtime.web_limiter`` for the web app's calls
            (``mode="web"``), ``ctx.runtime.agent_limiter`` for the in-app assistant's (``mode="in_app"``, when
            set), else ``ctx.runtime.limiter``; ``None``: no limit.
        before: a check run first, before the argument checks and the rate limit (``call_tool`` looks the
            tool up there, so an unknown name is refused as such and costs no budget).

    Raises:
        ServiceError: every failure (``invalid_argument`` for non-object or non-Unicode arguments,
            ``rate_limited``, the block's own errors, ``storage_full`` for a full disk no service translated,
            ``internal_error`` for anything unexpected: logged
            with its traceback under a fresh ``error_id``, which the error and the journal row carry).
    """
    started = time.perf_counter()
    vault = args.get("vault") if isinstance(args, dict) and isinstance(args.get("vault"), str) else None
    summary = audit_args if audit_args is not None else summarize_args(args) if isinstance(args, dict) else {}
    call = Call(vault=vault, args=summary, action=action, tool=name, raw_args=args)
    result_code = "ok"
    try:
        if before is not None:
            before(call)
        if not isinstance(args, dict):
            raise BadRequest("arguments must be a JSON object")
        if has_lone_surrogate(args):
            raise BadRequest("arguments must be valid Unicode text (a lone surrogate was sent)")
        chosen = _limiter_for(ctx) if limiter is DEFAULT_LIMITER else limiter
        if isinstance(chosen, ToolRateLimiter):
            chosen.hit(ctx.principal.name, name)
        yield call
    except ServiceError as exc:
        result_code = exc.code
        _redact_error(exc)
        raise
    except (FileNotFoundError, NotADirectoryError) as exc:  # a file or folder changed under a call: not a 500
        result_code = "not_found"
        gone = NotFound(f"{exc.filename!r} changed or vanished while it was being read; try again")
        _redact_error(gone)
        raise gone from None
    except vault_fs.OutsideVault as exc:  # a symlink met by a path no service translated: still a refusal
        result_code = "path_outside_vault"
        refusal = PathOutsideVault(
            f"{exc.filename!r} goes through a symlink; symlinks inside a vault are never followed"
        )
        _redact_error(refusal)
        raise refusal from None
    except Exception as exc:
        if is_storage_full(exc):  # a full disk met where no service translated it (the journal, the index)
            result_code = "storage_full"
            full = storage_full(f"{name} could not finish: the server's disk is full ({exc})")
            _redact_error(full)
            raise full from None
        result_code = "internal_error"
        error = internal_error(exc, name, f"{ctx.mode} call by {ctx.principal.name}")
        call.error_id = error.error_id
        raise error from exc
    finally:
        if ctx.runtime.journal is not None:
            entry = _entry(ctx, call, "call", result_code, time.perf_counter() - started)
            with anyio.CancelScope(shield=True):  # a client gone mid-call still gets its row
                try:
                    row = await anyio.to_thread.run_sync(ctx.runtime.journal.append, entry)
                    if call.file_ids and ctx.runtime.files is not None:
                        await anyio.to_thread.run_sync(_link_files, ctx, call.file_ids, row.seq)
                except (sqlite3.Error, OSError) as exc:  # a read goes on; a change already had its intent row
                    log.error("journal row of %s (%s, call %s) not written: %s", name, ctx.mode, call.call_id, exc)
                except Exception:  # a result no row can be made of must not replace the answer (logged)
                    log.exception("journal row of %s (%s, call %s) not written", name, ctx.mode, call.call_id)


def _link_files(ctx: ToolContext, file_ids: list[str], seq: int) -> None:
    """Give each file the call left in the caller's space the ``seq`` of the call's journal row."""
    assert ctx.runtime.files is not None
    for file_id in file_ids:
        ctx.runtime.files.set_journal_seq(ctx.principal.name, file_id, seq)


def _entry(ctx: ToolContext, call: Call, kind: str, outcome: str, seconds: float) -> JournalEntry:
    """The journal row of ``call`` (``kind`` ``call`` or ``intent``) made by ``ctx``'s caller."""
    return JournalEntry(
        kind=kind,
        call_id=call.call_id,
        parent_call_id=ctx.parent_call_id,
        user=ctx.principal.name,
        auth_kind=ctx.principal.auth_kind,
        front=ctx.mode,
        conversation=ctx.session_id,
        turn=ctx.turn_id,
        tool=call.tool,
        action=call.action,
        vault=call.vault,
        paths=call.paths,
        proposal=call.proposal,
        backups=call.backups,
        error_id=call.error_id,
        args=call.args,
        raw_args=call.raw_args,
        result=call.result if kind == "call" else None,
        result_file_id=call.result_file_id,
        outcome=outcome,
        duration_ms=round(seconds * 1000, 2),
    )


async def before_change(ctx: ToolContext, call: Call) -> None:
    """Write ``call``'s ``intent`` row (outcome ``started``) before it changes anything: the proof the journal
    can record the change. Called by the entry points right before a write tool runs (a confirmed call, an
    ``apply_``). With no journal (a runtime without a data dir) there is nothing to prove.

    Raises:
        ServiceError: ``storage_full`` (the disk is full) or ``journal_unavailable`` (any other failure to
            write the row); the caller must then not make the change.
    """
    journal = ctx.runtime.journal
    if journal is None:
        return
    entry = _entry(ctx, call, "intent", "started", 0.0)
    try:
        await anyio.to_thread.run_sync(journal.append, entry)
    except Exception as exc:  # noqa: BLE001 - whatever keeps the row out, the change is not made
        log.error("journal refused the intent of %s (call %s): %s", call.tool, call.call_id, exc)
        if is_storage_full(exc):
            raise storage_full(
                f"{call.tool} was not applied: the journal's disk is full; nothing was changed"
            ) from None
        raise Unavailable(
            f"{call.tool} was not applied: the tool journal cannot record it ({exc}); nothing was changed",
            code="journal_unavailable",
            hint="tell the server's admin: the data dir's journal.sqlite3 must be writable",
        ) from None


def _redact_error(exc: ServiceError) -> None:
    """Redact what ``exc`` tells its caller (message, hint, details) in place, as ``pipeline.finish`` does a result:
    an error can name a file the caller did not name (``replace_in_files``' ``details.path``, a ``conflict``'s
    ``changed``) or quote a line."""
    exc.message = redact_text(exc.message)
    exc.args = (exc.message,)
    if exc.hint:
        exc.hint = redact_text(exc.hint)
    exc.details = redact_payload(exc.details)


def _limiter_for(ctx: ToolContext) -> ToolRateLimiter | None:
    """The budget of ``ctx``'s front: people in the web app get their own (issue 11), the in-app assistant its own
    (issue 18: a run makes up to 25 calls, and three runs in a row must not spend, nor be refused by, the budget of
    the person's scripts and MCP clients), everyone else the agents'."""
    if ctx.mode == "web":
        return ctx.runtime.web_limiter
    if ctx.mode == "in_app" and ctx.runtime.agent_limiter is not None:
        return ctx.runtime.agent_limiter
    return ctx.runtime.limiter


async def invoke(func: Callable[..., Any], *args: Any) -> Any:
    """Await ``func(*args)``: a coroutine function directly, a sync one in a worker thread (it may block on
    disk or SQLite)."""
    if inspect.iscoroutinefunction(func):
        return await func(*args)
    return await anyio.to_thread.run_sync(func, *args)
