"""The system prompt of a request: its BooksLM context, collected through the tool layer's door
(:func:`obsigate.tools.api.collect_context`: one permission check, one audit record, everything redacted),
laid out by :func:`obsigate.agent.prompts.system_prompt` for the request's mode, skill and language."""

from __future__ import annotations

from obsigate.agent.assistant import Ask
from obsigate.agent.prompts import system_prompt
from obsigate.agent.skills import skill_prompt
from obsigate.agent.user_skills import SkillBook
from obsigate.tools.api import ToolContext, collect_context

__all__ = ["build_system_prompt"]


async def build_system_prompt(ctx: ToolContext, ask: Ask, agent: bool, *, skills: SkillBook | None = None) -> str:
    """The system prompt for ``ask`` (an agent run when ``agent``), a :data:`~obsigate.agent.assistant.PromptBuilder`
    once ``skills`` is bound (the caller's own skills are found there; without it, the built-in ones only).

    Raises:
        ServiceError: an unknown skill (``invalid_argument``) or the context's errors (``vault_access_denied``,
            ``not_found``, ``path_outside_vault``, ``invalid_argument``, ``rate_limited``).
    """
    extra = skills.prompt(ctx.principal.name, ask.skill) if skills is not None else skill_prompt(ask.skill)
    context = await collect_context(
        ctx, mode=ask.mode, vault=ask.vault, directory=ask.directory, files=list(ask.files) or None,
        extra_files=list(ask.extra_files) or None, extra_directories=list(ask.extra_directories) or None,
    )  # fmt: skip
    return system_prompt(
        ask.mode, context, agent=agent, language=ask.language, skill_prompt=extra,
        web_search=ctx.runtime.web.search_configured,
    )  # fmt: skip
