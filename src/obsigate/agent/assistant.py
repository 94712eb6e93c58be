"""The in-app assistant's front door: chat (streamed answers), agent runs (tools, batched confirmations),
resume, and the person's conversations. The REST routes (``api/routes_ai.py``) only parse, authenticate and
turn :data:`~obsigate.agent.loop.Emit` calls into SSE events.

Events (``llm.md``-independent; docs/assistant.md has an example session): ``conversation``
``{conversation_id}`` first (a new message's request: the client knows its conversation even when it stops
before ``done``), ``delta`` ``{text}``, ``tool``
``{id, name, label, status, summary}``, ``message`` ``{content}``, ``confirmation`` ``{run_id, actions}``,
``notice`` ``{code, message}``, ``done`` ``{stopped, usage, conversation_id, run_id?}``, ``error`` ``{code,
message}``. After ``error`` or ``done`` nothing follows.

Stop: when the client hangs up, the route cancels the task running here; the conversation keeps what was
said (the text streamed so far) and ends with "Stopped." / "Exécution arrêtée." (:data:`labels.STOPPED`).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import anyio

from obsigate.agent import context_budget, undo
from obsigate.agent import images as img
from obsigate.agent.action_runs import ActionLoop, offer_actions, settled_note
from obsigate.agent.actions_protocol import note_message
from obsigate.agent.gauge import ContextGauge
from obsigate.agent.history import conversation_steps, waiting_view
from obsigate.agent.labels import STOPPED
from obsigate.agent.loop import AgentLimits, Emit, Run, RunLoop, tool_defs
from obsigate.agent.plan_watch import PlanWatch, turn_back, with_plan
from obsigate.agent.providers.base import ChatRequest, Provider, ProviderConfig, Turn
from obsigate.agent.store import AgentStore
from obsigate.agent.user_skills import SkillBook
from obsigate.auth.principal import Principal
from obsigate.tools.api import (
    Conflict,
    NotFound,
    ServiceError,
    ToolContext,
    ToolRuntime,
    delete_conversation_plan,
    offered_tools,
)

__all__ = ["Ask", "Assistant", "Prepared", "PromptBuilder", "ProviderResolver"]

log = logging.getLogger("obsigate.assistant")


@dataclass(frozen=True, slots=True)
class Ask:
    """A chat or agent request, validated by the route: the person's ``message``, the context ``mode``
    (``directory``/``files``/``general``) with ``vault``, ``directory``, ``files``, ``extra_files``,
    ``extra_directories``; ``provider``/``model`` overrides; a ``skill``; the ``conversation_id`` to continue;
    ``language`` (``fr``/``en``); ``accept_large_context``: send even over the context share
    (:mod:`obsigate.agent.context_budget`); ``images``: pasted or vault images (``agent/images.py``)."""

    message: str
    mode: str = "general"
    vault: str | None = None
    directory: str | None = None
    files: tuple[str, ...] = ()
    extra_files: tuple[str, ...] = ()
    extra_directories: tuple[str, ...] = ()
    provider: str | None = None
    model: str | None = None
    skill: str | None = None
    conversation_id: str | None = None
    language: str = "en"
    accept_large_context: bool = False
    images: tuple[img.ImageInput, ...] = ()


@dataclass(frozen=True, slots=True)
class Prepared:
    """A request ready to stream (:meth:`Assistant.prepare`): who asks, what, the provider configuration, the
    system prompt, the conversation id and its messages so far; the request's checked ``images``."""

    principal: Principal
    ask: Ask
    config: ProviderConfig
    system: str
    conversation_id: str
    history: list[dict[str, Any]]
    images: tuple[img.Image, ...] = ()


class ProviderResolver(Protocol):
    """Turns a request's provider/model overrides into a :class:`ProviderConfig` (``agent.settings.AISettings``)."""

    def resolve(self, provider: str | None = None, model: str | None = None) -> ProviderConfig: ...


#: How long a server and model that rejected tools are sent plain chat without trying tools again (seconds).
TOOL_LESS_TTL_S = 3600.0

#: ``build(ctx, ask, agent) -> system prompt``: collects the request's context (one door call) and writes the
#: system prompt of its mode (``agent.context.build_system_prompt``).
PromptBuilder = Callable[[ToolContext, Ask, bool], Awaitable[str]]


class Assistant:
    """Runs chats and agent runs for authenticated people.

    Args:
        runtime: the tool layer's runtime (every vault access goes through ``tools.api``).
        providers: resolves provider/model (raises ``ProviderError``/``BadRequest`` for bad ones).
        store: conversations and paused runs.
        prompt: the system-prompt builder.
        provider_factory: ``ProviderConfig`` → a provider client; clients are kept per configuration (their
            connection pools and per-server quirks survive between requests) and closed by :meth:`aclose`.
        limits: the agent's limits.
        skills: each person's own skills (``/api/ai/skills``); the prompt builder resolves a request's skill.
    """

    def __init__(
        self,
        runtime: ToolRuntime,
        providers: ProviderResolver,
        store: AgentStore,
        prompt: PromptBuilder,
        provider_factory: Callable[[ProviderConfig], Provider],
        limits: AgentLimits = AgentLimits(),
        skills: SkillBook | None = None,
    ) -> None:
        self.runtime = runtime
        self.providers = providers
        self.store = store
        self.prompt = prompt
        self.limits = limits
        self.skills = skills
        self._factory = provider_factory
        self._clients: dict[ProviderConfig, Provider] = {}
        #: (provider, base URL, model) → when it rejected tools: runs in the next :data:`TOOL_LESS_TTL_S` go
        #: straight to plain chat (``llm.md`` §1.7: remember "tools unsupported" per install, base URL and
        #: model); then tools are tried again (a server restarted with ``--jinja``, a model swapped in)
        self._tool_less: dict[tuple[str, str, str], float] = {}
        #: conversations a request is answering now: a second one at the same time would interleave its
        #: messages with the first's (the history replayed to the provider must stay in order)
        self._busy: set[str] = set()
        #: every provider call's usage per conversation and model, and the context gauge over it
        self.gauge = ContextGauge(store, windows=limits.context_windows, window=limits.context_window)

    def client(self, config: ProviderConfig) -> Provider:
        """The pooled provider client of ``config`` (one per configuration, closed by :meth:`aclose`); the
        editor's text actions share it."""
        client = self._clients.get(config)
        if client is None:
            client = self._clients[config] = self._factory(config)
        return client

    async def aclose(self) -> None:
        """Close every provider client and the store."""
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            await client.aclose()
        self.store.close()

    def _rejects_tools(self, config: ProviderConfig) -> bool:
        """Whether ``config``'s server and model rejected tools less than :data:`TOOL_LESS_TTL_S` ago."""
        key = (config.name, config.base_url, config.model)
        since = self._tool_less.get(key)
        if since is not None and time.monotonic() - since >= TOOL_LESS_TTL_S:
            del self._tool_less[key]
            since = None
        return since is not None

    def _check_free(self, cid: str) -> None:
        if cid in self._busy:
            raise Conflict(
                "this conversation is answering another request",
                hint="wait for it to finish, or stop it, then send again",
            )

    @contextmanager
    def _answering(self, cid: str) -> Iterator[None]:
        """Hold conversation ``cid`` for one request (see ``_busy``).

        Raises:
            Conflict: ``conflict``, another request holds it.
        """
        self._check_free(cid)
        self._busy.add(cid)
        try:
            yield
        finally:
            self._busy.discard(cid)

    def _ctx(self, principal: Principal, session: str | None, turn: str | None = None) -> ToolContext:
        return ToolContext(principal=principal, runtime=self.runtime, mode="in_app", session_id=session, turn_id=turn)

    def _run_ctx(self, principal: Principal, run: Run) -> ToolContext:
        """The context of ``run``'s calls: the conversation is the session, the run (one answer to one message,
        across a pause) is the turn; the tool journal chains the turn's rows under these two ids."""
        return self._ctx(principal, run.conversation_id, run.id)

    async def _anchor(self, principal: Principal, run: Run) -> None:
        """Store the turn's cumulative hash (its journal rows so far) with the conversation: what
        ``obsigate journal verify`` checks the journal against. A failure is logged: the answer stands."""
        journal = self.runtime.journal
        if journal is None:
            return
        try:
            got = await anyio.to_thread.run_sync(journal.turn_hash, run.conversation_id, run.id)
            if got is not None:
                await anyio.to_thread.run_sync(
                    lambda: self.store.put_turn_hash(
                        principal.name, run.conversation_id, run.id, got.rows, got.last_seq, got.cumulative_hash
                    )
                )
        except (sqlite3.Error, OSError) as exc:
            log.warning("turn hash of run %s not stored: %s", run.id, exc)

    # --- conversations ------------------------------------------------------------------------------

    def _open(self, principal: Principal, ask: Ask, config: ProviderConfig) -> tuple[str, list[dict[str, Any]]]:
        if ask.conversation_id:
            return ask.conversation_id, self.store.messages(principal.name, ask.conversation_id)
        cid = self.store.create_conversation(
            principal.name, title=ask.message, mode=ask.mode, vault=ask.vault, provider=config.name, model=config.model
        )
        return cid, []

    async def _close_runs(self, principal: Principal, runs: list[Any], reason: str, cid: str | None) -> None:
        """Decline the proposals of paused runs that will not be resumed; with ``cid``, answer their calls in
        the conversation so it stays a valid tool-calling history."""
        for paused in runs:
            run = Run.from_json(paused.data)
            loop = RunLoop(self._run_ctx(principal, run), _Closed(), self.limits, _discard, self._noop)
            messages = await loop.close(run, reason)
            if run.text_actions:  # an answer's blocks: no tool call to answer, a note says what became of them
                messages = [settled_note(run)]
            if cid is not None:
                self.store.append(principal.name, cid, *messages)
            self.store.finish(run.id)

    async def _stopped(
        self, principal: Principal, cid: str, language: str, loop: RunLoop | None, run: Run | None
    ) -> None:
        """Record a stop: answer the interrupted turn's calls, keep the streamed text, end with the marker. A run
        already paused (its card sent, the request cut before ``done``: a reload, a lost connection) is not
        stopped: it waits for the person's answer, and the reopened conversation shows its card again."""
        with anyio.CancelScope(shield=True):
            if run is not None:
                await self._anchor(principal, run)
                paused = self.store.waiting(principal.name, cid)
                if paused is not None and paused.id == run.id:
                    return
            tail: list[dict[str, Any]] = []
            if run is not None and run.turn and not run.text_actions:  # cleared once its results are stored
                tail += RunLoop.tool_messages(run)
            said = "".join(loop.partial) if loop is not None else ""
            marker = STOPPED.get(language, STOPPED["en"])
            tail.append({"role": "assistant", "content": f"{said}\n\n{marker}" if said else marker, "tool_calls": [],
                         "raw": None, "provider": None, "model": None})  # fmt: skip
            try:
                self.store.append(principal.name, cid, *tail)
                if run is not None:
                    self.store.finish(run.id)
            except ServiceError:
                pass  # the conversation was deleted meanwhile

    # --- chat and agent -----------------------------------------------------------------------------

    async def prepare(self, principal: Principal, ask: Ask, *, agent: bool) -> Prepared:
        """Everything a request needs before it streams: the provider, the system prompt (the context, one
        door call), the conversation. Errors here are the request's own (the route answers them as 4xx).

        Raises:
            ServiceError: ``provider_not_configured``, ``invalid_argument`` (a bad model name, an unknown skill, a
                bad image), ``too_large`` (an image), ``vision_unsupported`` (images for a model without vision),
                ``not_found`` (a conversation that is not the caller's), the context's errors
                (``vault_access_denied``, ``path_outside_vault``...).
        """
        config = self.providers.resolve(ask.provider, ask.model)
        if ask.conversation_id:
            self._check_free(ask.conversation_id)
        images = await img.prepare_images(self._ctx(principal, None), ask.images, ask.vault, config.name, config.model)
        system = await self.prompt(self._ctx(principal, None), ask, agent)
        history = self.store.messages(principal.name, ask.conversation_id) if ask.conversation_id else []
        size = self.estimate(self._ctx(principal, None), config, ask.vault, agent, system, history, ask.message)
        size.check(ask.accept_large_context)  # before a conversation is made: a refused request leaves none
        cid, history = self._open(principal, ask, config)
        for image in images:
            self.store.put_image(principal.name, cid, image.id, image.mime_type, image.data, file_id=image.file_id)
        if ask.conversation_id:  # a new message supersedes a confirmation still waiting in this conversation
            waiting = self.store.open_runs(principal.name, cid)
            if waiting:
                await self._close_runs(principal, waiting, "the person sent a new message instead of confirming", cid)
                history = self.store.messages(principal.name, cid)
        return Prepared(principal, ask, config, system, cid, history, images=tuple(images))

    def estimate(
        self, ctx: ToolContext, config: ProviderConfig, vault: str | None, agent: bool, *parts: Any
    ) -> context_budget.ContextEstimate:
        """The size of a request to ``config``'s model made of ``parts`` (the system prompt, the history — its
        ``raw`` copies left out —, the message) and, for an ``agent`` run, the tool schemas it is offered."""
        parts = tuple(
            [{k: v for k, v in m.items() if k != "raw"} for m in p] if isinstance(p, list) else p for p in parts
        )
        tools = [dataclasses.asdict(t) for t in tool_defs(offered_tools(ctx, vault))] if agent else []
        return context_budget.estimate(
            *parts,
            tools,
            model=config.model,
            share=self.limits.context_share,
            window=self.limits.context_window,
            windows=self.limits.context_windows,
        )

    async def chat(self, prepared: Prepared, emit: Emit) -> None:
        """A plain chat turn: the answer streamed as ``delta`` events, then ``done``.

        Raises:
            ServiceError: a provider failure (the route sends it as an ``error`` event); ``conflict`` when another
                request is answering in the same conversation.
        """
        with self._answering(prepared.conversation_id):
            await self._chat(prepared, emit)

    async def _chat(self, prepared: Prepared, emit: Emit) -> None:
        principal, ask, config, cid = prepared.principal, prepared.ask, prepared.config, prepared.conversation_id
        user_msg = img.user_message(ask.message, prepared.images)
        self.store.append(principal.name, cid, user_msg)
        await emit("conversation", {"conversation_id": cid})
        loop = RunLoop(self._ctx(principal, None), self.client(config), self.limits, emit, self._noop)
        loop.on_usage = self._measure(principal, cid, config, emit, None)
        try:
            messages = await self._with_images(principal, cid, config, [*prepared.history, user_msg], emit)
            turn = await loop.stream(ChatRequest(system=prepared.system, messages=messages, tools=None))
        except anyio.get_cancelled_exc_class():
            await self._stopped(principal, cid, ask.language, loop, None)
            raise
        message = turn.message
        if turn.tool_calls:  # no tools were offered: calls would stay unanswered and break the next turn
            message = {**message, "tool_calls": [], "raw": None, "content": message.get("content") or ""}
        self.store.append(principal.name, cid, message, provider=config.name, model=config.model)
        run = Run.new(
            user=principal.name, conversation_id=cid, provider=config.name, model=config.model,
            system=prepared.system, vault=ask.vault, language=ask.language, tools_on=False, usage=turn.usage,
        )  # fmt: skip
        if await self._offer_actions(principal, run, config, emit, turn.text):
            return
        await emit("done", {"conversation_id": cid, "usage": turn.usage.as_dict(), "stopped": "completed"})

    async def _offer_actions(
        self, principal: Principal, run: Run, config: ProviderConfig, emit: Emit, text: str
    ) -> bool:
        """The ``obsigate-action`` blocks of a tool-less answer ``text`` proposed as one confirmation
        (:mod:`obsigate.agent.action_runs`); unusable blocks are noted in the conversation. True: ``run`` paused."""
        loop = ActionLoop(self._run_ctx(principal, run), self.client(config), self.limits, emit, self._noop)
        lines = await offer_actions(loop, run, text)
        if lines:
            self.store.append(principal.name, run.conversation_id, note_message(lines))
        if not run.pending:
            return False
        await self._pause(loop, principal, run)
        return True

    async def _with_images(
        self,
        principal: Principal,
        cid: str,
        config: ProviderConfig,
        messages: list[dict[str, Any]],
        emit: Emit | None = None,
    ) -> list[dict[str, Any]]:
        """``messages`` with the conversation's most recent images as bytes for ``config``'s model (agent/images.py);
        read and encoded in a worker thread (8 MiB of images: ~0.3 s on a busy 2-core machine). With ``emit``, a
        ``notice`` names the new message's images the request's caps left out (``images.unsent_notice``)."""
        if not any(m.get("images") for m in messages):
            return messages
        out = await anyio.to_thread.run_sync(
            img.provider_messages, self.store, principal.name, cid, config.name, config.model, messages
        )
        if emit is not None and (notice := img.unsent_notice(out)) is not None:
            await emit("notice", notice)
        return out

    @staticmethod
    async def _noop(messages: list[dict[str, Any]]) -> None:
        return None

    async def agent(self, prepared: Prepared, emit: Emit) -> None:
        """Run the agent (see :mod:`obsigate.agent.loop`) on a prepared request (``conflict`` when another request
        is answering in the same conversation)."""
        with self._answering(prepared.conversation_id):
            await self._agent(prepared, emit)

    async def _agent(self, prepared: Prepared, emit: Emit) -> None:
        principal, ask, config, cid = prepared.principal, prepared.ask, prepared.config, prepared.conversation_id
        run = Run.new(
            user=principal.name, conversation_id=cid, provider=config.name, model=config.model,
            system=prepared.system, vault=ask.vault, language=ask.language,
            plan_active=bool(prepared.history),  # a new conversation has no plan yet: nothing to read
        )  # fmt: skip
        loop = self._loop(principal, run, config, emit)
        user_msg = img.user_message(ask.message, prepared.images)
        self.store.append(principal.name, cid, user_msg)
        await emit("conversation", {"conversation_id": cid})
        if self._rejects_tools(config):
            run.tools_on = False
            await emit("notice", {"code": "tools_unsupported", "message": loop.tools_notice(run)})
        await self._drive(
            loop, principal, run, await self._with_images(principal, cid, config, [*prepared.history, user_msg], emit)
        )

    def claim(self, principal: Principal, run_id: str) -> Run:
        """Take ``principal``'s paused run ``run_id`` for resuming (exactly one of two racing resumes wins).

        Raises:
            NotFound: no such run of this person. Conflict: ``run_expired``, ``run_not_paused``; ``conflict`` while
                another request answers in its conversation (the run stays paused).
        """
        paused = self.store.claim(principal.name, run_id)
        if paused.conversation_id in self._busy:
            self.store.unclaim(run_id)
            self._check_free(paused.conversation_id)
        return Run.from_json(paused.data)

    async def resume(self, principal: Principal, run: Run, confirm_all: bool, emit: Emit) -> None:
        """Finish a claimed run's paused turn with the person's answer and stream the rest of the run."""
        with self._answering(run.conversation_id):
            await self._resume(principal, run, confirm_all, emit)

    async def _resume(self, principal: Principal, run: Run, confirm_all: bool, emit: Emit) -> None:
        config = self.providers.resolve(run.provider, run.model)
        loop = self._loop(principal, run, config, emit)
        try:
            await loop.resolve(run, confirm_all)
            if run.text_actions:  # an answer's blocks, settled: the model is not asked again
                self.store.append(principal.name, run.conversation_id, settled_note(run))
                self.store.finish(run.id)
                await self._done(loop, run, "completed")
                return
            if run.pending:  # a deferred dangerous call: it asks for its own confirmation
                await self._pause(loop, principal, run)
                return
            self.store.append(principal.name, run.conversation_id, *RunLoop.tool_messages(run))
            run.turn = []
        except anyio.get_cancelled_exc_class():
            await self._stopped(principal, run.conversation_id, run.language, loop, run)
            raise
        history = self.store.messages(principal.name, run.conversation_id)
        history = await self._with_images(principal, run.conversation_id, config, history)
        await self._drive(loop, principal, run, history)

    def _loop(self, principal: Principal, run: Run, config: ProviderConfig, emit: Emit) -> RunLoop:
        async def record(messages: list[dict[str, Any]]) -> None:
            self.store.append(principal.name, run.conversation_id, *messages, provider=config.name, model=config.model)

        async def keep_media(media_id: str, mime_type: str, data: bytes) -> None:
            await anyio.to_thread.run_sync(self.store.put_image, principal.name, run.conversation_id, media_id,
                                           mime_type, data)  # fmt: skip

        loop = RunLoop(self._run_ctx(principal, run), self.client(config), self.limits, emit, record)
        loop.on_applied = self._keep_change(loop.ctx, principal)  # "Undo this run" (agent/undo.py)
        loop.keep_media = keep_media  # a result's images and PDFs, once per conversation (agent/images.py)
        loop.plan = PlanWatch(loop.ctx, active=run.plan_active)  # a resumed turn's deferred plan calls count too
        loop.on_usage = self._measure(principal, run.conversation_id, config, emit, run.id)
        return loop

    def _measure(
        self, principal: Principal, cid: str, config: ProviderConfig, emit: Emit, session: str | None
    ) -> Callable[[ChatRequest, Turn], Awaitable[None]]:
        """The loop's ``on_usage``: keep the call's usage (:meth:`ContextGauge.record`), then send the gauge as a
        ``context`` event. Tokenizing runs in a worker thread; a failure is logged and the run goes on (the gauge
        is a read: it never stops an answer)."""

        async def measure(request: ChatRequest, turn: Turn) -> None:
            def work() -> dict[str, Any]:
                self.gauge.record(principal.name, cid, config.name, config.model, request, turn.usage, session)
                return self.gauge.report(principal.name, cid, provider=config.name, model=config.model)

            try:
                report = await anyio.to_thread.run_sync(work)
            except NotFound:
                return  # the conversation was deleted meanwhile
            except Exception:
                log.exception("the context gauge failed")
                return
            await emit("context", report)

        return measure

    def _keep_change(self, ctx: ToolContext, principal: Principal) -> Callable[[Run, dict[str, Any]], Awaitable[None]]:
        async def keep(run: Run, result: dict[str, Any]) -> None:
            data = await undo.record(ctx, result)
            if data is not None:
                self.store.add_change(principal.name, run.id, data)

        return keep

    async def undo_run(self, ctx: ToolContext, run_id: str, *, force: bool = False) -> dict[str, Any]:
        """Undo every change of ``ctx``'s caller's run ``run_id`` (:func:`obsigate.agent.undo.undo`, on ``ctx``:
        the person's confirmed context); the report with ``run_id``.

        Raises:
            NotFound: no change of such a run of the caller. Conflict: ``run_undone`` (the second time),
                ``conflict`` (files changed since; nothing done).
        """
        records = self.store.run_changes(ctx.principal.name, run_id)
        if not records:
            raise NotFound("no run of yours with changes to undo", hint="only a run that applied changes can be undone")
        self.store.begin_undo(ctx.principal.name, run_id)
        report = None
        try:
            report = {"run_id": run_id, **(await undo.undo(ctx, records, force=force)).as_dict()}
        finally:
            self.store.end_undo(run_id, report)
        return report

    async def _drive(self, loop: RunLoop, principal: Principal, run: Run, messages: list[dict[str, Any]]) -> None:
        """Model turns until an answer, a pause or a limit; ``done`` at the end. The conversation's plan is read
        before each turn and an answer that leaves a step in progress is turned back once (agent/plan_watch.py)."""
        stopped = "completed"
        watch = loop.plan = loop.plan or PlanWatch(loop.ctx, active=run.plan_active)
        try:
            while True:
                if run.iterations >= self.limits.max_iterations:
                    stopped = "max_iterations"
                elif loop.quota_hit:
                    stopped = "quota_exceeded"
                final = stopped != "completed"  # a limit: one last turn, text only, so the person gets an answer
                plan = await watch.read(loop.emit) if run.tools_on else None
                turn = await loop.ask(run, with_plan(messages, plan), final=final)
                run.iterations += 1
                hint = None if turn.tool_calls or final or run.plan_nudged else turn_back(plan)
                if hint is not None:  # once per run; the answer and the hint are this run's only, never stored
                    run.plan_nudged = True
                    await loop.emit("notice", {"code": "plan_in_progress", "message": hint})
                    messages.extend([turn.message, {"role": "user", "content": hint}])
                    continue
                await loop.record([turn.message])
                messages.append(turn.message)
                if not turn.tool_calls or final:
                    if turn.tool_calls:  # a model that calls tools anyway: answer them, they were not run
                        await self._unanswered(loop, run, turn, messages)
                    await loop.emit("message", {"content": turn.text})
                    if not run.tools_on and await self._offer_actions(
                        principal, run, loop.provider.config, loop.emit, turn.text
                    ):
                        return  # paused on the answer's obsigate-action blocks
                    break
                await loop.run_calls(run, turn.tool_calls)
                run.plan_active = watch.active
                if run.pending:
                    await self._pause(loop, principal, run)
                    return
                tool_messages = RunLoop.tool_messages(run)
                await loop.record(tool_messages)
                messages.extend(tool_messages)
                run.turn = []
                if any(m.get("images") for m in tool_messages):  # a result's images, for a model that sees
                    config = loop.provider.config
                    messages = await self._with_images(principal, run.conversation_id, config, messages)
        except anyio.get_cancelled_exc_class():
            await self._stopped(principal, run.conversation_id, run.language, loop, run)
            raise
        finally:
            if not run.tools_on:
                config = loop.provider.config
                self._tool_less[(config.name, config.base_url, config.model)] = time.monotonic()
        self.store.finish(run.id)
        await self._done(loop, run, stopped)

    async def _pause(self, loop: RunLoop, principal: Principal, run: Run) -> None:
        """Store the run for the confirmation TTL and ask: ``confirmation``, then ``done`` ``awaiting_confirmation``."""
        self.store.pause(principal.name, run.id, run.conversation_id, run.to_json(), self.limits.run_ttl_s)
        await loop.emit("confirmation", {"run_id": run.id, "actions": loop.actions(run)})
        await self._done(loop, run, "awaiting_confirmation")

    async def _unanswered(self, loop: RunLoop, run: Run, turn: Any, messages: list[dict[str, Any]]) -> None:
        """Answer the calls of a last turn that were not run (the run's limit), so the conversation stays a
        valid tool-calling history."""
        content = json.dumps({"status": "not_run", "message": "not run: the run reached its limit"})
        answers = [{"role": "tool", "tool_call_id": c.id, "name": c.name, "content": content} for c in turn.tool_calls]
        await loop.record(answers)
        messages.extend(answers)

    async def _done(self, loop: RunLoop, run: Run, stopped: str) -> None:
        await self._anchor(loop.ctx.principal, run)
        data: dict[str, Any] = {"stopped": stopped, "usage": run.usage.as_dict(), "conversation_id": run.conversation_id,
                                "run_id": run.id}  # fmt: skip
        await loop.emit("done", data)

    # --- conversations API ------------------------------------------------------------------------

    def list_conversations(self, principal: Principal, *, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        """``principal``'s conversations, newest first (headers only)."""
        return [c.as_dict() for c in self.store.conversations(principal.name, limit=limit, offset=offset)]

    async def get_conversation(self, principal: Principal, cid: str, language: str = "en") -> dict[str, Any]:
        """One conversation: its header and messages (``raw`` provider payloads left out), the tool ``steps``
        of each request and the run ``waiting`` for the person's approval, or None (:mod:`agent.history`;
        labels in ``language``), so a reopened conversation shows its steps and its approval card again.

        Raises:
            NotFound: not one of ``principal``'s.
        """
        info = self.store.conversation(principal.name, cid).as_dict()
        stored = self.store.messages(principal.name, cid)
        messages = [{k: v for k, v in m.items() if k != "raw"} for m in stored]
        paused = self.store.waiting(principal.name, cid)
        run = Run.from_json(paused.data) if paused else None
        waiting = await waiting_view(self._ctx(principal, None), paused, run, language) if paused and run else None
        steps = conversation_steps(stored, language, run if waiting else None)
        return {**info, "messages": messages, "steps": steps, "waiting": waiting}

    async def delete_conversation(self, principal: Principal, cid: str) -> None:
        """Delete one of ``principal``'s conversations; proposals of a run still waiting are declined.

        Raises:
            NotFound: not one of ``principal``'s.
        """
        await self._close_runs(principal, self.store.delete_conversation(principal.name, cid), "deleted", None)
        try:
            await delete_conversation_plan(self._ctx(principal, cid), cid)  # its plan goes with it
        except (ServiceError, OSError) as exc:
            log.warning("the plan of conversation %s was not deleted: %s", cid, exc)


async def _discard(event: str, data: dict[str, Any]) -> None:
    return None


class _Closed:
    """A provider that is never asked (closing a run only declines its proposals)."""

    config: ProviderConfig

    async def chat(self, request: ChatRequest, on_delta: Any = None) -> Any:  # pragma: no cover
        raise RuntimeError("a closed run asks no model")

    async def aclose(self) -> None:  # pragma: no cover
        return None
