"""Skills over REST (issue 18 item 2, seeds §6bis): the built-in ones and the caller's own.

* ``GET /api/ai/skills``: ``{"skills": [{id, icon, description, prompt, builtin}]}``, built-in first, then
  the caller's own (sorted by id); nobody sees another person's.
* ``POST /api/ai/skills`` ``{id, icon?, description, prompt}``: create (201) or replace (200) one of the
  caller's skills; answers ``{"skill": {...}, "created": bool}``.
* ``DELETE /api/ai/skills/{id}``: delete one of the caller's skills; ``{"deleted": id}``.

Any signed-in person; the writes pass the cross-site checks of every REST write. A request's ``skill``
(``POST /api/ai/bookslm/chat`` and ``/agent``) names one of these. Registered before any ``/api/ai/{name}``
route so that ``skills`` is never taken for a name.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path, Request, Response
from starlette.concurrency import run_in_threadpool

from obsigate.agent.user_skills import SkillBook, check_skill
from obsigate.api.deps import CurrentPrincipal
from obsigate.api.routes_write import check_same_site
from obsigate.tools.api import Unavailable

router = APIRouter(prefix="/api/ai/skills", tags=["assistant"])

SAME_SITE = [Depends(check_same_site)]


def _book(request: Request) -> SkillBook:
    assistant = getattr(request.app.state, "assistant", None)
    skills = getattr(assistant, "skills", None)
    if skills is None:
        raise Unavailable("skills are not set up on this server")
    return skills


@router.get("", summary="The built-in skills and your own")
async def list_skills(request: Request, principal: CurrentPrincipal) -> dict[str, Any]:
    return {"skills": await run_in_threadpool(_book(request).list, principal.name)}


@router.post(
    "",
    summary="Create or replace one of your skills (201 when new)",
    dependencies=SAME_SITE,
    responses={201: {"description": "A new skill: the same answer, with `created: true`."}},
)
async def save_skill(
    request: Request,
    response: Response,
    principal: CurrentPrincipal,
    body: Annotated[Any, Body(description="{id, icon?, description, prompt}; see docs/assistant.md")],
) -> dict[str, Any]:
    """Raises: ``invalid_argument`` (a bad field), ``exists`` (a built-in id), ``too_large`` (50 skills
    already), ``unavailable`` (the skills file cannot be read)."""
    skill = check_skill(body)
    created = await run_in_threadpool(_book(request).save, principal.name, skill)
    response.status_code = 201 if created else 200
    return {"skill": skill.skill().as_dict(builtin=False), "created": created}


@router.delete("/{skill_id}", summary="Delete one of your skills", dependencies=SAME_SITE)
async def delete_skill(
    request: Request, principal: CurrentPrincipal, skill_id: Annotated[str, Path(min_length=1, max_length=64)]
) -> dict[str, Any]:
    """Raises: ``forbidden`` (a built-in skill), ``not_found`` (none of yours has that id)."""
    await run_in_threadpool(_book(request).delete, principal.name, skill_id)
    return {"deleted": skill_id}
