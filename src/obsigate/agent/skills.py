"""Built-in skills (seeds §6bis): a named instruction the person picks for a request; its prompt is added to
the system prompt. User-defined skills come with the web app."""

from __future__ import annotations

from dataclasses import dataclass

from obsigate.tools.api import BadRequest

__all__ = ["SKILLS", "Skill", "skill_prompt"]


@dataclass(frozen=True, slots=True)
class Skill:
    """``id`` (what a request's ``skill`` names), a one-line ``description`` and the ``prompt`` it adds."""

    id: str
    description: str
    prompt: str


SKILLS: dict[str, Skill] = {
    s.id: s
    for s in (
        Skill("summarize", "Summarise the notes in context", "Summarise the notes in context: key points first, then details, with links to the notes."),
        Skill("outline", "Turn the context into an outline", "Write a structured outline (headings and bullet points) of the notes in context."),
        Skill("tasks", "List open tasks", "List the open tasks (- [ ] items) and implied to-dos found in the notes, grouped by note, with links."),
        Skill("translate", "Translate the answer", "Translate the requested text faithfully; keep Markdown, wikilinks and code unchanged."),
    )
}  # fmt: skip


def skill_prompt(skill: str | None) -> str | None:
    """The prompt of skill ``skill`` (``None`` → ``None``).

    Raises:
        BadRequest: ``invalid_argument`` for an unknown skill (the message lists the known ones).
    """
    if skill is None:
        return None
    found = SKILLS.get(skill)
    if found is None:
        raise BadRequest(f"unknown skill {skill!r}; known: {', '.join(SKILLS)}")
    return found.prompt
