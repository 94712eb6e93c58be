"""Skills (seeds §6bis): a named instruction the person picks for a request; its prompt is added to the system
prompt. Four are built in; each person may add their own (:mod:`obsigate.agent.user_skills` keeps them).

A skill is ``id`` (what a request's ``skill`` and the panel's ``/skill <id>`` name), ``icon`` (an emoji shown in
the picker), a one-line ``description`` and the ``prompt`` it adds. :class:`SkillInput` is the one validation of
a person's skill, shared by the REST route and the store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from obsigate.tools.api import BadRequest

__all__ = [
    "DESCRIPTION_MAX_CHARS",
    "ICON_MAX_CHARS",
    "ID_PATTERN",
    "PROMPT_MAX_CHARS",
    "SKILLS",
    "Skill",
    "SkillInput",
    "skill_prompt",
]

#: A skill id: lower-case letters, digits, ``-`` and ``_``, 1-40 characters, starting with a letter or digit
#: (typed after ``/skill``, so no spaces and no case to get wrong).
ID_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,39}$"
ICON_MAX_CHARS = 16  # an emoji with modifiers and joiners (👩🏽‍💻 is 4 code points; a flag sequence up to 7)
DESCRIPTION_MAX_CHARS = 200
PROMPT_MAX_CHARS = 4000
#: The icon a person's skill gets when none is given.
DEFAULT_ICON = "✨"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")  # tab and line feed allowed


@dataclass(frozen=True, slots=True)
class Skill:
    """``id``, ``icon`` (an emoji), a one-line ``description`` and the ``prompt`` it adds to the system prompt."""

    id: str
    icon: str
    description: str
    prompt: str

    def as_dict(self, *, builtin: bool) -> dict[str, Any]:
        """``{id, icon, description, prompt, builtin}``, as ``GET /api/ai/skills`` lists it."""
        return {"id": self.id, "icon": self.icon, "description": self.description, "prompt": self.prompt,
                "builtin": builtin}  # fmt: skip


SKILLS: dict[str, Skill] = {
    s.id: s
    for s in (
        Skill("summarize", "📝", "Summarise the notes in context", "Summarise the notes in context: key points first, then details, with links to the notes."),
        Skill("outline", "🗂️", "Turn the context into an outline", "Write a structured outline (headings and bullet points) of the notes in context."),
        Skill("tasks", "✅", "List open tasks", "List the open tasks (- [ ] items) and implied to-dos found in the notes, grouped by note, with links."),
        Skill("translate", "🌐", "Translate the answer", "Translate the requested text faithfully; keep Markdown, wikilinks and code unchanged."),
    )
}  # fmt: skip


def _one_line(value: str) -> str:
    value = value.strip()
    if "\n" in value or "\t" in value or _CONTROL.search(value):
        raise ValueError("must be one line without control characters")
    return value


def _icon(value: str) -> str:
    value = value.strip()
    if not value or any(c.isspace() for c in value) or _CONTROL.search(value):
        raise ValueError("must be a short symbol (an emoji) without spaces or control characters")
    return value


def _prompt(value: str) -> str:
    value = value.strip()
    if not value:
        raise ValueError("must not be blank")
    if _CONTROL.search(value):
        raise ValueError("must not hold control characters (line breaks and tabs are fine)")
    return value


class SkillInput(BaseModel):
    """A person's skill as ``POST /api/ai/skills`` takes it (unknown fields refused, strict types): ``id``
    (:data:`ID_PATTERN`), ``icon`` (optional, at most 16 characters, default ✨), ``description`` (one line,
    1-200 characters) and ``prompt`` (1-4000 characters). Surrounding whitespace is removed."""

    model_config = ConfigDict(extra="forbid", strict=True)

    id: str = Field(pattern=ID_PATTERN, description="a-z, 0-9, - and _; 1-40 characters")
    icon: Annotated[str, Field(min_length=1, max_length=ICON_MAX_CHARS), AfterValidator(_icon)] = DEFAULT_ICON
    description: Annotated[str, Field(min_length=1, max_length=DESCRIPTION_MAX_CHARS), AfterValidator(_one_line)]
    prompt: Annotated[str, Field(min_length=1, max_length=PROMPT_MAX_CHARS), AfterValidator(_prompt)]

    def skill(self) -> Skill:
        """This input as a :class:`Skill`."""
        return Skill(self.id, self.icon, self.description, self.prompt)


def skill_prompt(skill: str | None, own: dict[str, Skill] | None = None) -> str | None:
    """The prompt of skill ``skill``: a built-in one, else one of ``own`` (the person's skills); ``None`` → ``None``.

    Raises:
        BadRequest: ``invalid_argument`` for an unknown skill (the message lists the ones this person may use).
    """
    if skill is None:
        return None
    found = SKILLS.get(skill) or (own or {}).get(skill)
    if found is None:
        known = [*SKILLS, *(own or {})]
        raise BadRequest(f"unknown skill {skill[:64]!r}; known: {', '.join(known)}", details={"field": "skill"})
    return found.prompt
