"""The agent loop of the in-app assistant, on the tool layer's one door (``tools.api.call_tool``/``settle``).

One run (AI architecture guide §3.3; feature #79 B2, B5, BUG-050):

1. ask the model, streaming its text (``delta`` events), with the tools :func:`~obsigate.tools.api.offered_tools`
   gives (the registry's in-app tools under their own names; a provider that rejects tools gets the same
   request without them, once, and a ``notice``);
2. no tool calls: the answer is final (``message``, ``done`` ``completed``);
3. otherwise run the turn's calls in order, each a ``tool`` event (``running`` → ``ok``/``error``/``deferred``/
   ``pending_confirmation``):

   * read tools run at once, consecutive ones in parallel;
   * a write tool is proposed through ``propose_<tool>`` — the same planner and single-use token as MCP — and
     waits; every write of the turn joins ONE confirmation (``confirmation`` event: each action's step label,
     paths and unified diff; never its token). Calls after the first write that are not writes, and writes on a
     path an earlier pending write touches, are not reached: they get ``deferred`` and are run after the
     confirmation (BUG-050), so the tool-calling protocol stays valid and nothing is read stale;
   * the run then pauses (``done`` ``awaiting_confirmation``), stored in SQLite for the confirmation TTL;

4. resume (``confirm_all``): true applies exactly the proposals shown (``settle`` accept: a file changed since
   gives that action ``conflict``, nothing overwritten) and arms confirmation for the rest of the run: later
   ``write`` tools that only add (create, append, a folder) or change a note the person approved or the run
   created are proposed and applied at once, while ``dangerous`` ones (rename, move, replace, delete) and
   writes that would replace content of a note the person was not shown (:mod:`obsigate.agent.approval`)
   still pause for a confirmation of their own, deferred ones included — an approval never lets a change the
   person did not see destroy anything; false declines them (tokens spent) and tells the model;
5. stops: after ``max_iterations`` model turns (``max_iterations``) or once ``max_tool_calls`` calls are spent
   (``quota_exceeded``), the model gets one last turn with ``tool_choice: none`` and must answer with what it
   has (calls it makes anyway are answered "not run"); ``cancelled`` when the person stops the run.

Every call's result enters the prompt stripped of credentials (``strip_secret_fields``) and cut to
``tool_result_chars`` with a notice the model can act on (an applied change's result is cut there only: the
tool layer hands it over uncut).

A proposal lives in the tool layer's confirmation store, once: a paused run keeps its id (:class:`Pending`),
never its token nor a copy of it; its paths are the ones stored with it (``Change.paths``).
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

import anyio

from obsigate.agent.actions_protocol import join_answers
from obsigate.agent.approval import created_paths, replaces_unseen
from obsigate.agent.arg_cap import DEFAULT_MAX_ARGS_BYTES, cap_arguments
from obsigate.agent.labels import state_label, step_state
from obsigate.agent.plan_watch import PLAN_TOOLS, PlanWatch
from obsigate.agent.prompts import chat_fallback
from obsigate.agent.providers.base import ChatRequest, Provider, ToolCall, ToolDef, ToolsRejected, Turn, Usage
from obsigate.agent.providers.schemas import model_schema
from obsigate.tools.api import (
    REGISTRY,
    Answer,
    Proposal,
    Risk,
    Scope,
    ServiceError,
    ToolContext,
    ToolResult,
    ToolSpec,
    call_tool,
    call_tool_output,
    fit_to_budget,
    offered_tools,
    proposal_of,
    settle,
    strip_secret_fields,
    text_line,
)

__all__ = [
    "AgentLimits", "Emit", "Pending", "Run", "RunLoop", "Step", "StepState", "ask_model", "repair_text", "tool_defs",
]  # fmt: skip

#: Part kinds whose bytes the conversation keeps (the web app shows them inline; a vision model sees images).
MEDIA_KINDS = frozenset({"image", "pdf"})

#: ``emit(event, data)``: one SSE event (``tool``, ``delta``, ``message``, ``confirmation``, ``notice``, ``done``).
Emit = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class AgentLimits:
    """``max_iterations``: model turns per run; ``max_tool_calls``: tool calls per run
    (``BOOKSLM_MAX_TOOL_CALLS``); ``tool_result_chars``: the budget of one tool result in the prompt;
    ``run_ttl_s``: how long a paused run waits (the confirmation TTL); ``max_args_bytes``: the largest
    arguments of one call (UTF-8 bytes of their JSON, :mod:`obsigate.agent.arg_cap`); ``context_share`` and
    ``context_window`` (0: the model's, from a table): a request over that share of the window must be
    accepted first (:mod:`obsigate.agent.context_budget`); ``context_windows``: configured windows by model name
    (they win over ``context_window``: :func:`obsigate.agent.capabilities.context_window`)."""

    max_iterations: int = 10
    max_tool_calls: int = 25
    tool_result_chars: int = 20_000
    run_ttl_s: float = 300.0
    max_args_bytes: int = DEFAULT_MAX_ARGS_BYTES
    context_share: float = 0.5
    context_window: int = 0
    context_windows: Mapping[str, int] = field(default_factory=dict)


class StepState(StrEnum):
    """Where one call of a model turn stands: ``new`` (not run yet), ``pending`` (proposed, awaiting the
    person), ``deferred`` (not reached: runs after the confirmation), ``done`` (answered: ``content`` set)."""

    NEW = "new"
    PENDING = "pending"
    DEFERRED = "deferred"
    DONE = "done"


@dataclass(slots=True)
class Step:
    """One call of the last model turn: the model's ``id``, ``name`` and ``arguments`` (``error``: why they
    could not be parsed), its step ``label``, its ``state`` and, once done, the ``content`` answering it."""

    id: str
    name: str
    arguments: dict[str, Any] | None
    error: str | None
    label: str
    state: StepState = StepState.NEW
    content: str | None = None
    #: the result's parts as the web app shows them (:meth:`RunLoop._media`) and its images as a model is sent
    #: them (references: the bytes are kept once in the conversation, ``keep_media``)
    parts: list[dict[str, Any]] = field(default_factory=list)
    images: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        """A step as :meth:`Run.to_json` stored it."""
        return cls(
            id=data["id"], name=data["name"], arguments=data.get("arguments"), error=data.get("error"),
            label=data.get("label") or data["name"], state=StepState(data.get("state") or "new"),
            content=data.get("content"), parts=list(data.get("parts") or ()), images=list(data.get("images") or ()),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class Pending:
    """A proposal of the paused turn awaiting the person: the call ``id`` it answers, its ``tool`` and ``label``,
    and ``proposal_id``, its id in the confirmation store (the only copy of the proposal)."""

    id: str
    tool: str
    label: str
    proposal_id: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Pending:
        """A pending item as :meth:`Run.to_json` stored it; one stored before proposals were kept by id (a
        server upgraded mid-run) held the whole ``propose_`` result: its id is read off its token (the
        confirmation store checks it is this user's when it is settled)."""
        pid = data.get("proposal_id")
        if not isinstance(pid, str):
            pid = _legacy_proposal_id((data.get("proposal") or {}).get("confirmation_token"))
        return cls(id=data["id"], tool=data["tool"], label=data.get("label") or data["tool"], proposal_id=pid)


def _legacy_proposal_id(token: object) -> str:
    """The ``jti`` claim of a confirmation token kept by a run stored before proposals were kept by id
    (unverified: the id is looked up, with the user, in the confirmation store); ``""`` if unreadable."""
    try:
        payload = str(token).split(".")[1]
        claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    except (IndexError, ValueError, binascii.Error):
        return ""
    jti = claims.get("jti") if isinstance(claims, dict) else None
    return jti if isinstance(jti, str) else ""


@dataclass(slots=True)
class Run:
    """One agent run's state; stored as JSON while paused (:meth:`to_json`). ``turn``: the calls of the last
    model turn (:class:`Step`); ``pending``: the proposals awaiting the person (:class:`Pending`: ids only);
    ``asked``: the paths those proposals touch; ``seen``: the paths of proposals the person approved and of
    what the run created (an armed run may replace content there without asking again)."""

    id: str
    user: str
    conversation_id: str
    provider: str
    model: str
    system: str
    vault: str | None
    language: str
    armed: bool = False
    tools_on: bool = True
    #: the run's proposals are an answer's obsigate-action blocks (``agent.action_runs``): settled, it ends
    text_actions: bool = False
    iterations: int = 0
    calls_used: int = 0
    usage: Usage = field(default_factory=Usage)
    turn: list[Step] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)
    #: the conversation may have a plan (agent/plan_watch.py): it is read before each model turn
    plan_active: bool = False
    #: an answer was already turned back once for a step left in progress
    plan_nudged: bool = False

    @classmethod
    def new(cls, **kw: Any) -> Run:
        return cls(id=uuid.uuid4().hex, **kw)

    def to_json(self) -> dict[str, Any]:
        """The run as JSON-safe data (a step's ``state`` as its string value)."""
        data = asdict(self)
        data["usage"] = self.usage.as_dict()
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Run:
        """A run as :meth:`to_json` stored it, or as an earlier version did (steps as dicts with string states,
        pending proposals held whole)."""
        return cls(**{
            **data,
            "usage": Usage(**data.get("usage", {})),
            "turn": [Step.from_json(e) for e in data.get("turn") or []],
            "pending": [Pending.from_json(p) for p in data.get("pending") or []],
        })  # fmt: skip


def tool_defs(specs: list[ToolSpec]) -> list[ToolDef]:
    """The tools as every provider is offered them: name, description, and the input schema through
    :func:`~obsigate.agent.providers.schemas.model_schema` (no length, item-count or pattern bounds: a
    grammar-constrained local engine crashes on them; the tool layer still enforces them on every call)."""
    return [ToolDef(s.name, s.description, model_schema(s.input_schema)) for s in specs]


def _error_content(exc: ServiceError) -> str:
    return json.dumps({"error": exc.to_dict()}, ensure_ascii=False)


def _summary(result: dict[str, Any]) -> str:
    """A few words on a tool result for the steps list (never its content)."""
    if isinstance(result.get("content"), str):
        return f"{len(result['content'])} chars"
    for key in ("hits", "entries", "files", "backlinks", "nodes", "tags", "vaults", "versions"):
        value = result.get(key)
        if isinstance(value, list):
            return f"{len(value)} {key}" + (" (more)" if result.get("truncated") else "")
    if isinstance(result.get("summary"), str):
        return result["summary"][:200]
    return "ok"


_SURROGATE = re.compile("[\ud800-\udfff]")


def repair_text(text: str) -> str:
    """``text`` with UTF-16 surrogate pairs joined and lone surrogates replaced by U+FFFD: a provider's JSON may
    escape an emoji as ``\\ud83d\\ude00`` split across two stream chunks, and a lone surrogate cannot be
    encoded to UTF-8 (the SSE stream, SQLite)."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _repaired(value: Any) -> Any:
    if isinstance(value, str):
        return repair_text(value)
    if isinstance(value, dict):
        return {repair_text(k) if isinstance(k, str) else k: _repaired(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_repaired(v) for v in value]
    return value


async def ask_model(
    provider: Provider, request: ChatRequest, on_delta: Callable[[str], Awaitable[None]] | None
) -> Turn:
    """``provider.chat(request)`` with its text made safe: surrogates repaired (:func:`repair_text`; a high
    surrogate at the end of a streamed piece waits for the next piece), and tool-call ids made unique within
    the turn (a repeated id gets a ``-N`` suffix and the message is then rebuilt from its neutral fields, not
    replayed raw), so each call is answered, shown and applied as itself."""
    held = ""

    async def guarded(text: str) -> None:
        nonlocal held
        text, held = held + text, ""
        if text and "\ud800" <= text[-1] <= "\udbff":
            text, held = text[:-1], text[-1]
        text = repair_text(text)
        if text and on_delta is not None:
            await on_delta(text)

    request = replace(request, messages=join_answers(request.messages))  # notes on actions: alternating roles
    turn = await provider.chat(request, guarded if on_delta is not None else None)
    if held and on_delta is not None:
        await on_delta("\ufffd")
    turn.text, turn.message = repair_text(turn.text), _repaired(turn.message)
    seen: set[str] = set()
    renamed = False
    for n, call in enumerate(turn.tool_calls):
        call.name, call.arguments = repair_text(call.name), _repaired(call.arguments)
        if call.id in seen:
            call.id, renamed = f"{call.id}-{n}", True
        seen.add(call.id)
    if renamed:
        calls = [{"id": c.id, "name": c.name, "arguments": c.arguments or {}} for c in turn.tool_calls]
        turn.message = {**turn.message, "tool_calls": calls, "raw": None}
    return turn


class RunLoop:
    """Drives runs for one request: ``ctx`` (the caller, ``mode="in_app"``, ``session_id`` = the conversation, ``turn_id`` = the run),
    the ``provider``, the ``limits``, ``emit`` and ``record(messages)`` (appends to the conversation store)."""

    def __init__(
        self,
        ctx: ToolContext,
        provider: Provider,
        limits: AgentLimits,
        emit: Emit,
        record: Callable[[list[dict[str, Any]]], Awaitable[None]],
    ) -> None:
        self.ctx = ctx
        self.provider = provider
        self.limits = limits
        self.emit = emit
        self.record = record
        #: answer text streamed so far in the current model turn (kept if the person stops the run)
        self.partial: list[str] = []
        #: a call was refused because the run's tool-call quota is spent: the run stops after this turn
        self.quota_hit = False
        #: the proposals this loop made that await the person, by call id, for the confirmation event (in
        #: memory only: the run keeps their ids)
        self._shown: dict[str, Proposal] = {}
        #: calls of the current turn refused for their size (:mod:`obsigate.agent.arg_cap`), by id
        self._oversized: set[str] = set()
        #: called with each applied change's tool-layer result (the run's undo record; None: not kept)
        self.on_applied: Callable[[Run, dict[str, Any]], Awaitable[None]] | None = None
        #: the run's language, for the step labels (set by :meth:`run_calls` and :meth:`resolve`)
        self.language = "en"
        #: ``keep_media(id, mime type, bytes)``: keeps a result's image or PDF once in the run's conversation
        #: (``id``: its SHA-256), for the provider requests that replay it and the web app (None: not kept, the
        #: model reads the part's text line only)
        self.keep_media: Callable[[str, str, bytes], Awaitable[None]] | None = None
        #: the conversation's plan as this run sees it (agent/plan_watch.py; None: not watched)
        self.plan: PlanWatch | None = None
        #: called after each provider call with its request and turn (the context gauge; None: not kept)
        self.on_usage: Callable[[ChatRequest, Turn], Awaitable[None]] | None = None

    # --- the model ----------------------------------------------------------------------------------

    def _tools(self, run: Run) -> list[ToolDef] | None:
        if not run.tools_on:
            return None
        return tool_defs(offered_tools(self.ctx, run.vault))

    async def stream(self, request: ChatRequest) -> Turn:
        """The model's answer to ``request`` (:func:`ask_model`), its text sent as ``delta`` events as it streams
        and kept in :attr:`partial` (what was said, should the person stop the run); then :attr:`on_usage`."""
        self.partial = []

        async def on_delta(text: str) -> None:
            self.partial.append(text)
            await self.emit("delta", {"text": text})

        turn = await ask_model(self.provider, request, on_delta)
        if self.on_usage is not None:
            await self.on_usage(request, turn)
        return turn

    async def ask(self, run: Run, messages: list[dict[str, Any]], *, final: bool = False) -> Turn:
        """One model turn of ``run`` over ``messages`` (:meth:`stream`); a provider that rejects tools is asked
        again without them (once per run) after a ``notice``. ``final``: the run's limit is reached, the model
        must answer in text (``tool_choice: none``) with what it has."""
        request = ChatRequest(
            system=run.system if run.tools_on else chat_fallback(run.system), messages=list(messages),
            tools=self._tools(run), stream=True, tool_choice="none" if final else "auto",
        )  # fmt: skip
        try:
            turn = await self.stream(request)
        except ToolsRejected as exc:
            run.tools_on = False
            await self.emit("notice", {"code": "tools_unsupported", "message": self.tools_notice(run, exc.message)})
            # a plain chat from now on, with its prompt: the obsigate-action blocks instead of the tools
            turn = await self.stream(replace(request, tools=None, system=chat_fallback(run.system)))
        run.usage = run.usage + turn.usage
        # before the turn is recorded: a refused argument must not be replayed in every later turn
        self._oversized = set(cap_arguments(turn, self.limits.max_args_bytes))
        return turn

    @staticmethod
    def tools_notice(run: Run, reason: str | None = None) -> str:
        """The ``notice`` text when the model takes no tools (``reason``: the provider's own words)."""
        why = f" ({reason[:200]})" if reason else ""
        return (f"{run.provider} ({run.model}) does not accept tools here, so the assistant answers as a plain chat "
                f"that cannot read the vault and proposes new notes and folders for you to approve{why}")  # fmt: skip

    # --- a turn's calls -----------------------------------------------------------------------------

    def _spec_risk(self, run: Run, name: str) -> Risk | None:
        for spec in offered_tools(self.ctx, run.vault) if run.tools_on else ():
            if spec.name == name:
                return spec.risk
        return None

    async def _tool_event(
        self, entry: Step, status: str, summary: str | None = None, parts: list[dict[str, Any]] | None = None
    ) -> None:
        # the tool's risk as registered ("read"/"write"/"dangerous"; None for a name no tool has): the web app
        # decides from it whether the vault changed, instead of keeping its own list of write tools
        # `state` (labels.step_state) says where the call stands, and the label says it too: a rejected delete
        # is not "File deleted", an unknown tool is not any tool's label
        spec = REGISTRY.get(entry.name)
        risk = spec.risk.value if spec else None
        state = step_state(risk, status, entry.content)
        label = state_label(entry.name, entry.arguments, self.language, state)
        event: dict[str, Any] = {
            "id": entry.id, "name": entry.name, "label": label, "status": status, "summary": summary,
            "risk": risk, "state": state,
        }  # fmt: skip
        if parts:  # a result's images, PDFs and files, each with its URL (never its bytes)
            event["parts"] = parts
        await self.emit("tool", event)

    def _content(self, result: dict[str, Any], lines: list[str] | None = None) -> str:
        """A result as the model reads it: JSON, credentials stripped, cut to ``tool_result_chars``; ``lines``:
        the text line of each part of it (``parts``), which also stand for the media a model cannot see."""
        data = fit_to_budget(strip_secret_fields(result), self.limits.tool_result_chars)
        if lines:
            data = {**data, "parts": lines}
        return json.dumps(data, ensure_ascii=False)

    async def _media(self, run: Run, entry: Step, output: ToolResult) -> tuple[dict[str, Any], list[str]]:
        """``output``'s parts for the conversation: each image's and PDF's bytes kept once in it
        (:attr:`keep_media`), the step's ``images`` (references a vision model is sent: images, and PDFs where
        the provider reads them) and ``parts`` (what the
        web app shows, with a URL); returns the result as the model reads it and its parts' text lines. With
        media, the result's exact bytes (read_file_raw's base64 chunk) leave the JSON, and so do the parts that
        only carry them: the media travel as media, or their text line stands for them."""
        data = output.data
        parts = output.parts
        if any(p.kind in MEDIA_KINDS for p in parts):
            data = {k: ("" if k in output.exact else v) for k, v in data.items()}
            parts = [p for p in parts if p.kind in MEDIA_KINDS or not (p.carries and p.carries in output.exact)]
        for part in parts:
            shown = part.describe()
            if part.data is not None and part.kind in MEDIA_KINDS and self.keep_media is not None:
                await self.keep_media(part.sha256, part.mime_type, part.data)
                shown["url"] = f"/api/ai/conversations/{run.conversation_id}/images/{part.sha256}"
                if part.kind in MEDIA_KINDS:  # a PDF too: the providers that read PDFs get it (image_parts)
                    entry.images.append({"id": part.sha256, "mime_type": part.mime_type, "name": part.name,
                                         "bytes": part.size, "tool_call_id": entry.id})  # fmt: skip
            elif part.file_id is not None:
                shown["url"] = f"/api/files/{part.file_id}/content"
            entry.parts.append(shown)
        return data, [text_line(p) for p in parts]

    async def _finish_entry(self, entry: Step, content: str, status: str, summary: str | None) -> None:
        entry.state, entry.content = StepState.DONE, content
        await self._tool_event(entry, status, summary, entry.parts)

    async def _fail(self, entry: Step, exc: ServiceError) -> None:
        await self._finish_entry(entry, _error_content(exc), "error", exc.message[:300])

    def _spend(self, run: Run) -> bool:
        """Count one call against the run's quota; False when it is spent."""
        if run.calls_used >= self.limits.max_tool_calls:
            return False
        run.calls_used += 1
        return True

    async def _quota(self, entry: Step) -> None:
        self.quota_hit = True
        content = json.dumps({"error": {
            "code": "quota_exceeded",
            "message": f"not run: this run's {self.limits.max_tool_calls} tool calls are spent; answer with what you have",
        }})  # fmt: skip
        await self._finish_entry(entry, content, "error", "tool-call quota spent")

    async def _read(self, run: Run, entry: Step) -> None:
        await self._tool_event(entry, "running")
        try:
            output = await call_tool_output(self.ctx, entry.name, entry.arguments)
            result, lines = await self._media(run, entry, output) if output.parts else (output.data, [])
        except ServiceError as exc:
            await self._fail(entry, exc)
            if self.plan is not None:
                await self.plan.saw(entry.name, None, self.emit)
            return
        media = lines and result is not output.data  # the parts stand for the bytes: say which
        summary = "; ".join(lines)[:300] if media else _summary(result)
        await self._finish_entry(entry, self._content(result, lines), "ok", summary)
        if self.plan is not None and entry.name in PLAN_TOOLS:
            await self.plan.saw(entry.name, result, self.emit)

    async def _propose(self, run: Run, entry: Step) -> Proposal | None:
        """``propose_<tool>`` for ``entry``: the stored proposal (its id, paths and view), its token left behind."""
        try:
            result = await call_tool(self.ctx, f"propose_{entry.name}", entry.arguments)
            proposal = await proposal_of(self.ctx, result)
        except ServiceError as exc:
            await self._fail(entry, exc)
            return None
        if proposal is None:  # issued a moment ago: only a store that lost it gets here
            await self._fail(entry, ServiceError("the proposal could not be stored", code="internal_error"))
        return proposal

    async def _apply(self, run: Run, entry: Step, proposal_id: str) -> None:
        """Apply the proposal ``proposal_id`` (the person agreed) and finish ``entry`` with its result or error:
        the result uncut from the tool layer, cut once here (:meth:`_content`)."""
        try:
            settled = await settle(self.ctx, proposal_id, Answer.ACCEPT)
        except ServiceError as exc:
            await self._fail(entry, exc)
            return
        result = settled.get("result") or {}
        run.seen += [p for p in created_paths(result) if p not in run.seen]
        if self.on_applied is not None:
            await self.on_applied(run, result)
        content = self._content({"status": "applied", "summary": settled.get("summary"), "result": result})
        await self._finish_entry(entry, content, "ok", str(settled.get("summary") or "applied")[:300])

    async def run_calls(self, run: Run, calls: list[ToolCall]) -> None:
        """Run (or propose, or defer) ``calls`` of one model turn, in order; fills ``run.turn`` and
        ``run.pending``."""
        run.turn, run.pending = [], []
        self.language = run.language
        for call in calls:
            spec = REGISTRY.get(call.name)
            offered = spec is not None and Scope.IN_APP in spec.scopes  # else refused: shown by its name only
            run.turn.append(Step(
                id=call.id, name=call.name, arguments=call.arguments, error=call.error,
                label=state_label(call.name, call.arguments, run.language, "proposed" if offered else "unavailable"),
            ))  # fmt: skip
        await self._run_entries(run, run.turn)

    async def _run_entries(self, run: Run, entries: list[Step]) -> None:
        touched: set[str] = set()
        batch: list[Step] = []

        async def flush() -> None:
            if batch:
                async with anyio.create_task_group() as tg:
                    for item in batch:
                        tg.start_soon(self._read, run, item)
                batch.clear()

        for entry in entries:
            risk = self._spec_risk(run, entry.name)
            if entry.error is not None or risk is None:
                await flush()
                code = "invalid_argument" if risk is not None else "unknown_tool"
                if risk is not None and entry.id in self._oversized:  # arguments over the cap (agent/arg_cap.py)
                    code = "too_large"
                message = (
                    f"no tool named {entry.name!r} is offered; use one of the listed tools"
                    if risk is None
                    else entry.error or ""
                )
                await self._finish_entry(
                    entry, json.dumps({"error": {"code": code, "message": message}}), "error", message[:300]
                )
                continue
            if run.pending and (risk is Risk.READ or touched & self._paths_of(entry)):
                entry.state = StepState.DEFERRED  # not reached: runs after the confirmation (BUG-050)
                await self._tool_event(entry, "deferred", "runs after the confirmation")
                continue
            if not self._spend(run):
                await flush()
                await self._quota(entry)
                continue
            if risk is Risk.READ:
                batch.append(entry)
                continue
            await flush()
            await self._tool_event(entry, "running")
            proposal = await self._propose(run, entry)
            if proposal is None:
                continue
            spec = REGISTRY.get(entry.name)
            if run.armed and risk is not Risk.DANGEROUS and spec and not replaces_unseen(spec, proposal, run.seen):
                await self._apply(run, entry, proposal.id)  # approved once: later additive writes go ahead
                continue
            entry.state = StepState.PENDING
            run.asked += [p for p in proposal.paths if p not in run.asked]
            touched |= set(proposal.paths) | self._paths_of(entry)
            run.pending.append(Pending(entry.id, entry.name, entry.label, proposal.id))
            self._shown[entry.id] = proposal
            await self._tool_event(entry, "pending_confirmation", str(proposal.view.get("summary") or "")[:300])
        await flush()

    @staticmethod
    def _paths_of(entry: Step) -> set[str]:
        args = entry.arguments or {}
        return {v for k in ("path", "source_path") if isinstance(v := args.get(k), str)}

    # --- confirmation -------------------------------------------------------------------------------

    def actions(self, run: Run) -> list[dict[str, Any]]:
        """The confirmation event's actions: ``{id, tool, label, paths, diff, summary}`` per pending proposal
        proposed by this loop (paths as stored with the proposal; the token stays server-side)."""
        out = []
        for item in run.pending:
            proposal = self._shown.get(item.id)
            if proposal is None:
                continue
            diffs = proposal.view.get("diffs") or []
            diff = "\n".join(d["diff"] for d in diffs if isinstance(d, dict) and isinstance(d.get("diff"), str))
            out.append({"id": item.id, "tool": item.tool, "label": item.label, "paths": list(proposal.paths),
                        "diff": diff, "summary": proposal.view.get("summary")})  # fmt: skip
        return out

    async def resolve(self, run: Run, confirm_all: bool) -> None:
        """The person's answer to the paused turn: apply (``confirm_all``) or decline every pending proposal,
        then run the deferred calls (declined: they are not run) and arm the run on approval."""
        self.language = run.language
        by_id = {item.id: item.proposal_id for item in run.pending}
        if confirm_all:  # the person saw these notes' changes and approved them
            run.seen += [p for p in run.asked if p not in run.seen]
        run.asked = []
        for entry in run.turn:
            if entry.state is not StepState.PENDING:
                continue
            if confirm_all:
                await self._apply(run, entry, by_id[entry.id])
            else:
                await settle(self.ctx, by_id[entry.id], Answer.DECLINE)
                content = json.dumps(
                    {"status": "rejected", "message": "the person rejected this change; nothing was changed"}
                )
                await self._finish_entry(entry, content, "error", "rejected")
        run.pending = []
        deferred = [e for e in run.turn if e.state is StepState.DEFERRED]
        if confirm_all:
            run.armed = True
            for entry in deferred:
                entry.state = StepState.NEW
            await self._run_entries(run, deferred)
        else:
            for entry in deferred:
                content = json.dumps(
                    {"status": "not_run", "message": "not run: the person rejected this turn's changes"}
                )
                await self._finish_entry(entry, content, "error", "not run")

    async def close(self, run: Run, reason: str) -> list[dict[str, Any]]:
        """End a paused run that will not be resumed (superseded, deleted, expired): decline its proposals
        (tokens spent) and return the tool messages that answer its turn, so the conversation stays valid."""
        for item in run.pending:
            try:
                await settle(self.ctx, item.proposal_id, Answer.DECLINE)
            except ServiceError:
                pass  # an expired proposal is as good as declined
        for entry in run.turn:
            if entry.state is not StepState.DONE:
                entry.state = StepState.DONE
                entry.content = json.dumps({"status": "not_run", "message": f"not run: {reason}"})
        run.pending = []
        return self.tool_messages(run)

    @staticmethod
    def tool_messages(run: Run) -> list[dict[str, Any]]:
        """One ``tool`` message per call of the last turn, in the model's order (cancelled calls included); a
        result with parts also carries them: ``images`` (references, sent to a vision model after the turn's
        tool messages: ``providers/image_parts.py``) and ``parts`` (what the web app shows)."""
        out = []
        for e in run.turn:
            content = e.content if e.content is not None else json.dumps({"status": "not_run", "message": "cancelled"})
            message: dict[str, Any] = {"role": "tool", "tool_call_id": e.id, "name": e.name, "content": content}
            if e.images:
                message["images"] = list(e.images)
            if e.parts:
                message["parts"] = list(e.parts)
            out.append(message)
        return out
