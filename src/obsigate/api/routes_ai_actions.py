"""The editor's AI text actions: ``POST /api/ai/{action}`` (issue 18 item 1; seeds 000 §2.1, ``AIRequest``),
the answer streamed as Server-Sent Events like the chat (``delta`` ``{text}``, then ``done`` ``{action, text,
placement, usage, provider, model}``, or ``error`` ``{code, message}``).

``{action}`` matches only the ids of :data:`~obsigate.agent.text_actions.ACTIONS` (a path convertor), so the
route shadows none of the other ``/api/ai/*`` routes whatever the order the routers are included in; any other
name is the app's JSON 404 (``not_found``). Errors before the stream (a missing field, a selection over the
cap, no provider) are 4xx JSON like every route's. Same-site checks and authentication as the chat.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field
from sse_starlette import EventSourceResponse
from starlette.convertors import Convertor, register_url_convertor

from obsigate.agent.text_actions import ACTIONS, TextActions, TextRequest
from obsigate.api.deps import CurrentPrincipal
from obsigate.api.routes_ai import SAME_SITE, SSE_ANSWER, Raw, _assistant, _parse, event_stream

router = APIRouter(prefix="/api/ai", tags=["assistant"])


class _ActionConvertor(Convertor[str]):
    """A path segment that is one of the text actions' ids."""

    regex = "|".join(re.escape(name) for name in ACTIONS)

    def convert(self, value: str) -> str:
        return value

    def to_string(self, value: str) -> str:
        return value


register_url_convertor("ai_text_action", _ActionConvertor())
_Action = Annotated[
    str,
    Path(
        description=f"One of: {', '.join(ACTIONS)} (docs/assistant.md: the editor's AI toolbar).",
        json_schema_extra={"enum": list(ACTIONS)},  # in /openapi.json: any other segment is a 404
    ),
]


class ActionBody(BaseModel):
    """A text action's body (the seeds' ``AIRequest``): the selected ``text``; ``target_lang`` for
    ``translate``, ``tone`` for ``tone``, ``instruction`` for ``custom``; ``provider``/``model`` overrides."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(min_length=1, description="The selection (at most 20,000 characters).")
    instruction: str | None = Field(default=None, max_length=2000)
    target_lang: str | None = Field(default=None, max_length=64)
    tone: str | None = Field(default=None, max_length=64)
    provider: str | None = Field(default=None, min_length=1, max_length=40)
    model: str | None = Field(default=None, min_length=1, max_length=200)


@router.post(
    "/{action:ai_text_action}",
    summary="Transform the editor's selection (one of 16 actions); the answer streamed (SSE)",
    dependencies=SAME_SITE,
    responses=SSE_ANSWER,
    response_class=EventSourceResponse,  # not JSON: only the stream is documented
)
async def text_action(request: Request, principal: CurrentPrincipal, action: _Action, body: Raw) -> EventSourceResponse:
    actions = TextActions(_assistant(request))
    parsed = _parse(ActionBody, body)
    req = TextRequest(action=action, **parsed.model_dump())
    prepared = await actions.prepare(principal, req)
    return event_stream(lambda emit: actions.stream(prepared, emit))
