"""The assistant's routes: SSE chat and agent runs, resume, conversations (issue 10 item 4).

Thin: validate the body, authenticate, let :class:`~obsigate.agent.assistant.Assistant` prepare the request
(its errors are 4xx JSON like every route's), then stream its events as Server-Sent Events
(``text/event-stream``; each event is ``event: NAME`` and one JSON ``data:`` line; a ``: ping`` comment every
15 s). An error after the stream started is an ``error`` event ``{code, message}``. When the client hangs up,
sse-starlette cancels the task running the request, which closes the upstream provider request.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal

import anyio
from fastapi import APIRouter, Body, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette import EventSourceResponse

from obsigate.agent.assistant import Ask, Assistant
from obsigate.agent.labels import language_of
from obsigate.agent.loop import Emit
from obsigate.api.deps import Ctx, CurrentPrincipal
from obsigate.api.routes_ai_images import ImageBody, image_inputs
from obsigate.api.routes_write import Write, check_same_site
from obsigate.tools.api import (
    MAX_CONVERSATION_ID,
    BadRequest,
    NotFound,
    PayloadTooLarge,
    ServiceError,
    Unavailable,
    call_tool,
    parse,
)

router = APIRouter(prefix="/api/ai", tags=["assistant"])
log = logging.getLogger("obsigate.assistant")

#: The longest message a person may send (characters); a longer one is ``too_large``, before any model call.
MAX_MESSAGE_CHARS = 100_000
_PATHS: Any = Field(default_factory=list, max_length=200)  # shared by the list fields below


class AskBody(BaseModel):
    """A chat or agent request (``POST /api/ai/bookslm/chat``, ``/agent``)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    message: str = Field(min_length=1, description=f"What the person asks (at most {MAX_MESSAGE_CHARS} characters).")
    mode: Literal["directory", "files", "general"] = "general"
    vault: str | None = Field(default=None, min_length=1, max_length=64)
    directory: str | None = Field(default=None, max_length=1024)
    files: list[Annotated[str, Field(min_length=1, max_length=1024)]] = _PATHS
    extra_files: list[Annotated[str, Field(min_length=1, max_length=1024)]] = _PATHS
    extra_directories: list[Annotated[str, Field(max_length=1024)]] = _PATHS
    provider: str | None = Field(default=None, min_length=1, max_length=40)
    model: str | None = Field(default=None, min_length=1, max_length=200)
    skill: str | None = Field(default=None, min_length=1, max_length=64)
    conversation_id: str | None = Field(default=None, min_length=1, max_length=64)
    language: Literal["fr", "en"] | None = None
    accept_large_context: bool = Field(
        default=False, description="Send even when the context would fill over the share of the model's window."
    )
    images: list[ImageBody] = Field(default_factory=list, max_length=32)  # the real cap: agent/images.py


class ResumeBody(BaseModel):
    """A paused run's answer: ``confirm_all`` true applies every proposal shown, false rejects them."""

    model_config = ConfigDict(extra="forbid", strict=True)

    run_id: str = Field(min_length=1, max_length=64)
    confirm_all: bool


def _assistant(request: Request) -> Assistant:
    assistant = getattr(request.app.state, "assistant", None)
    if assistant is None:
        raise Unavailable("the assistant is not set up on this server")
    return assistant


def _parse(model: type[BaseModel], body: Any) -> Any:
    """``body`` validated by ``model`` with the tool layer's one validation (same ``invalid_argument`` shape)."""
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    return parse(model, body)


def _ask(request: Request, body: AskBody) -> Ask:
    if len(body.message) > MAX_MESSAGE_CHARS:
        raise PayloadTooLarge(f"message is {len(body.message)} characters; at most {MAX_MESSAGE_CHARS}")
    return Ask(
        message=body.message, mode=body.mode, vault=body.vault, directory=body.directory, files=tuple(body.files),
        extra_files=tuple(body.extra_files), extra_directories=tuple(body.extra_directories), provider=body.provider,
        model=body.model, skill=body.skill, conversation_id=body.conversation_id,
        language=language_of(body.language, request.headers.get("accept-language")), images=image_inputs(body.images),
        accept_large_context=body.accept_large_context,
    )  # fmt: skip


def event_stream(run: Callable[[Emit], Awaitable[None]]) -> EventSourceResponse:
    """An SSE response whose events come from ``run(emit)``; a :class:`ServiceError` it raises becomes a
    final ``error`` event, anything unexpected an ``internal_error`` event (logged, never a traceback)."""
    send, receive = anyio.create_memory_object_stream[dict[str, str]](max_buffer_size=256)

    async def emit(event: str, data: dict[str, Any]) -> None:
        await send.send({"event": event, "data": json.dumps(data, ensure_ascii=False, separators=(",", ":"))})

    async def produce() -> None:
        async with send:
            try:
                await run(emit)
            except ServiceError as exc:
                error: dict[str, Any] = {"code": exc.code, "message": exc.message}
                if exc.hint:
                    error["hint"] = exc.hint
                if "retry_after" in exc.details:
                    error["retry_after"] = exc.details["retry_after"]
                await emit("error", error)
            except Exception:
                log.exception("assistant request failed")
                await emit("error", {"code": "internal_error", "message": "the assistant failed unexpectedly"})

    async def events() -> AsyncIterator[dict[str, str]]:
        async with receive:
            async for item in receive:
                yield item

    return EventSourceResponse(events(), data_sender_callable=produce, ping=15, headers={"Cache-Control": "no-store"})


Raw = Annotated[Any, Body(description="See docs/assistant.md")]


#: A run can write to the vault once confirmed, and a chat spends the owner's provider credit: both pass the
#: cross-site checks of every REST write.
SAME_SITE = [Depends(check_same_site)]
#: The streamed answer as ``/openapi.json`` describes it (an error before the stream is the JSON error shape).
SSE_ANSWER: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-Sent Events (`event: delta|done|error|...`, each `data` one JSON object).",
        "content": {
            "text/event-stream": {
                "schema": {  # one event of the stream
                    "type": "object",
                    "required": ["event", "data"],
                    "properties": {
                        "event": {"type": "string", "examples": ["delta", "done", "error"]},
                        "data": {"type": "string", "contentMediaType": "application/json"},
                    },
                }
            }
        },
    }
}


@router.post(
    "/bookslm/chat",
    summary="Chat about the notes: the answer streamed token by token (SSE)",
    dependencies=SAME_SITE,
    responses=SSE_ANSWER,
    response_class=EventSourceResponse,  # not JSON: only the stream is documented
)
async def chat(request: Request, principal: CurrentPrincipal, body: Raw) -> EventSourceResponse:
    assistant = _assistant(request)
    prepared = await assistant.prepare(principal, _ask(request, _parse(AskBody, body)), agent=False)
    return event_stream(lambda emit: assistant.chat(prepared, emit))


@router.post(
    "/bookslm/agent",
    summary="Agent run with vault tools; writes pause for one confirmation (SSE)",
    dependencies=SAME_SITE,
    responses=SSE_ANSWER,
    response_class=EventSourceResponse,  # not JSON: only the stream is documented
)
async def agent(request: Request, principal: CurrentPrincipal, body: Raw) -> EventSourceResponse:
    assistant = _assistant(request)
    if isinstance(body, dict) and "run_id" in body:
        resume = _parse(ResumeBody, body)
        run = assistant.claim(principal, resume.run_id)
        return event_stream(lambda emit: assistant.resume(principal, run, resume.confirm_all, emit))
    prepared = await assistant.prepare(principal, _ask(request, _parse(AskBody, body)), agent=True)
    return event_stream(lambda emit: assistant.agent(prepared, emit))


@router.get("/conversations", summary="Your conversations with the assistant, newest first")
async def conversations(
    request: Request,
    principal: CurrentPrincipal,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
) -> dict[str, Any]:
    return {"conversations": _assistant(request).list_conversations(principal, limit=limit, offset=offset)}


@router.get("/conversations/{conversation_id}", summary="One of your conversations with its messages")
async def conversation(
    request: Request,
    principal: CurrentPrincipal,
    conversation_id: str,
    language: Annotated[Literal["fr", "en"] | None, Query(description="the step labels' language")] = None,
) -> dict[str, Any]:
    lang = language_of(language, request.headers.get("accept-language"))
    return await _assistant(request).get_conversation(principal, conversation_id, lang)


@router.get("/conversations/{conversation_id}/context", summary="How full one of your conversations' context window is")
async def conversation_context(ctx: Ctx, conversation_id: str) -> dict[str, Any]:
    """The context gauge through the tool layer (``get_context_usage``): ``{model, window, used, reserved, total,
    percent, level, source, breakdown, last_usage, totals}`` (docs/assistant.md "Context gauge"); 404 when the
    conversation is not yours, or its id is one no conversation has (over the tool's 64 characters: 404 as on
    every other conversation route, not the tool's 400)."""
    if len(conversation_id) > MAX_CONVERSATION_ID:
        raise NotFound("no such conversation", hint="GET /api/ai/conversations lists yours")
    return await call_tool(ctx, "get_context_usage", {"conversation_id": conversation_id})


@router.delete("/conversations/{conversation_id}", summary="Delete one of your conversations", dependencies=SAME_SITE)
async def delete_conversation(request: Request, principal: CurrentPrincipal, conversation_id: str) -> dict[str, Any]:
    await _assistant(request).delete_conversation(principal, conversation_id)
    return {"deleted": conversation_id}


class UndoBody(BaseModel):
    """``force``: also replace files changed since the run (their current content is backed up first)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    force: bool = False


@router.post(
    "/runs/{run_id}/undo",
    summary="Undo every file change of one of your agent runs, from the backups",
    dependencies=SAME_SITE,
)
async def undo_run(request: Request, ctx: Write, run_id: str, body: Raw = None) -> dict[str, Any]:
    """``{"run_id", "restored": [{vault, path, action}], "unchanged", "skipped", "conflicts"}``; 404 not
    your run or no change, 409 ``run_undone`` (the second time) or ``conflict`` (files changed since the run:
    nothing done; ``details.changed``; send ``{"force": true}`` to undo anyway)."""
    undo = _parse(UndoBody, body if body is not None else {})
    return await _assistant(request).undo_run(ctx, run_id, force=undo.force)
