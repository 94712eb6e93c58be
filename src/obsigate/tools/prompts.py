"""Prompts: ``summarize-directory``, ``generate-note`` and ``find-related`` (MCP ``server/prompts``), served
through the tool layer's one door.

A prompt is a user-chosen recipe (a slash command in most hosts). Its one ``user`` message tells the model
which ObsiGate tools to call with which arguments; it never embeds note contents, so what the model reads
still goes through the tools (vault access, path guard, redaction, audit). Only tools the caller can use
are named: a step whose tool is not offered to this caller is left out or replaced by a fallback.

:func:`get_prompt` checks like a tool call, inside :func:`~obsigate.tools.door.door` (rate limit, audit as
``prompts/get`` with ``action: mcp_prompt_get``, the topic kept only as its length): the caller must have the
vault, paths go through ``services.paths.resolve_safe_path``, and the folder or note must exist.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import anyio

from obsigate.domain.redaction import redact_text
from obsigate.domain.text import has_lone_surrogate
from obsigate.services import vaults
from obsigate.services.errors import BadRequest, NotFound
from obsigate.services.paths import kind_of, resolve_safe_path
from obsigate.services.redacted_paths import locate
from obsigate.tools.audit import summarize_args
from obsigate.tools.context import ToolContext
from obsigate.tools.dispatch import visible_tools
from obsigate.tools.door import door

__all__ = [
    "PROMPTS",
    "Has",
    "PromptArg",
    "PromptSpec",
    "check_arguments",
    "get_prompt",
    "list_prompts",
    "resolve_targets",
]

MAX_TOPIC_CHARS = 500
MAX_PATH_CHARS = 1024


@dataclass(frozen=True, slots=True)
class Has:
    """The tools offered to this caller on MCP (``visible_tools``) and their argument names:
    ``has("get_backlinks")`` and ``has.takes("get_backlinks", "unlinked")``."""

    params: dict[str, frozenset[str]]

    def __call__(self, tool: str) -> bool:
        return tool in self.params

    def takes(self, tool: str, arg: str) -> bool:
        return arg in self.params.get(tool, frozenset())


@dataclass(frozen=True, slots=True)
class PromptArg:
    """One prompt argument. ``complete`` names what ``completion/complete`` suggests for it: ``vault``
    (vault names), ``folder``, ``note`` or ``none``."""

    name: str
    description: str
    required: bool
    complete: str = "none"
    max_chars: int = MAX_PATH_CHARS


@dataclass(frozen=True, slots=True)
class PromptSpec:
    """A prompt: its listing (``name``, ``title``, ``description``, ``arguments``) and ``render(args, has)``,
    which turns checked arguments into the message text."""

    name: str
    title: str
    description: str
    arguments: tuple[PromptArg, ...]
    render: Callable[[dict[str, str], Has], str]


def _call(tool: str, **args: Any) -> str:
    """``tool {"arg": value}``: an exact call the model can copy (values JSON-quoted, so any text is safe)."""
    return f"`{tool} {json.dumps(args, ensure_ascii=False)}`"


def _steps(items: list[tuple[str, tuple[str, ...]]], has: Has) -> str:
    """Numbered steps, keeping only those whose tools the caller has."""
    kept = [text for text, tools in items if all(has(t) for t in tools)]
    return "\n".join(f"{i}. {text}" for i, text in enumerate(kept, 1))


_VAULT_ARG = PromptArg("vault", "Vault name (as listed by list_vaults).", required=True, complete="vault", max_chars=64)
_FOOTER = (
    "Use only what the tools return; if a call fails, read its error code and hint and fix the call. "
    "Refer to notes by their vault-relative path."
)


def _render_summarize_directory(a: dict[str, str], has: Has) -> str:
    vault, path = a["vault"], a["path"]
    where = f"the folder {json.dumps(path, ensure_ascii=False)}" if path else "the root folder"
    steps = _steps(
        [
            (
                f"List it with {_call('list_directory', vault=vault, path=path)}; while `truncated` is true, call "
                "again with `offset` = `next_offset`. List interesting sub-folders the same way.",
                ("list_directory",),
            ),
            (
                "Read its notes with `read_file` (for a long note the first chunk is usually enough). Skip "
                "attachments, but mention what kinds there are.",
                ("read_file",),
            ),
            (
                f"Call {_call('list_tags', vault=vault)} to see which of the folder's tags are used elsewhere.",
                ("list_tags",),
            ),
        ],
        has,
    )
    return (
        f"Summarize {where} of the ObsiGate vault {json.dumps(vault, ensure_ascii=False)}.\n\n{steps}\n\n"
        "Then write the summary: what the folder is for, its main themes, the key notes (as [[wikilinks]]), "
        "open tasks (unchecked `- [ ]` items) and anything that looks outdated, duplicated or unfinished. "
        f"{_FOOTER}"
    )


def _render_generate_note(a: dict[str, str], has: Has) -> str:
    vault, topic, folder = a["vault"], a["topic"], a.get("folder", "")
    place = f"in the folder {json.dumps(folder, ensure_ascii=False)}" if folder else "at a fitting place"
    if folder and a.get("existing_folder", folder) != folder:
        place += " (a new folder)"
    steps = _steps(
        [
            (
                f"Find what the vault already says: `search_fulltext` with a few key words of the topic and "
                f'"vault": {json.dumps(vault)}; read the best hits with `read_file`.',
                ("search_fulltext", "read_file"),
            ),
            (
                "Check that no note on the topic exists yet: `search_paths` with the topic's main words. If one "
                "exists, propose additions to it instead of a duplicate.",
                ("search_paths",),
            ),
            (
                "Reuse the vault's tags: `suggest_tags` with a word of the topic (or `list_tags`).",
                ("suggest_tags",),
            ),
            (
                f"Look at {_call('list_directory', vault=vault, path=a.get('existing_folder', folder))} to follow "
                "the naming and structure of the neighbouring notes.",
                ("list_directory",),
            ),
        ],
        has,
    )
    return (
        f"Draft a new note for the ObsiGate vault {json.dumps(vault, ensure_ascii=False)}, {place}, about this "
        f"topic: {json.dumps(topic, ensure_ascii=False)}\n\n{steps}\n\n"
        "Then write the note in Obsidian Markdown: YAML frontmatter with `tags` when the vault uses tags, a "
        "`# Title` heading, short sections, and [[wikilinks]] to the related notes you found (their exact file "
        "names). Propose its vault-relative path (`Folder/Title.md`) and give the note as Markdown; do not "
        f"change the vault unless the user asks you to. {_FOOTER}"
    )


def _render_find_related(a: dict[str, str], has: Has) -> str:
    vault, path = a["vault"], a["path"]
    title = path.rsplit("/", 1)[-1].removesuffix(".md")
    items: list[tuple[str, tuple[str, ...]]] = [
        (
            f"Read the note with {_call('read_file', vault=vault, path=path)}: note its title, tags, outgoing "
            "links and headings.",
            ("read_file",),
        ),
    ]
    if has("get_backlinks"):
        if has.takes("get_backlinks", "unlinked"):
            call = _call("get_backlinks", vault=vault, path=path, unlinked=True)
            items.append((f"Find the notes linking to it, and those naming it without a link: {call}.", ()))
        else:
            items.append((f"Find the notes linking to it: {_call('get_backlinks', vault=vault, path=path)}.", ()))
    else:
        items.append(
            (
                f"Find notes that mention it by name: {_call('search_fulltext', q=title, vault=vault)}.",
                ("search_fulltext",),
            )
        )
    if has("get_graph") and has.takes("get_graph", "depth"):
        call = _call("get_graph", vault=vault, path=path, depth=2)
        items.append((f"See its neighbourhood two links away (notes sharing links with it): {call}.", ()))
    items += [
        (
            f'For each of its tags, find other notes with it: `search_fulltext` with "vault": '
            f"{json.dumps(vault)}, the tag as `tag` and one or two key words of the note as `q`.",
            ("search_fulltext",),
        ),
        (
            "Search for 3-5 distinctive phrases or terms of the note with `search_fulltext` (same vault).",
            ("search_fulltext",),
        ),
        (
            f"Find similarly named files: {_call('search_paths', q=title, vault=vault)}.",
            ("search_paths",),
        ),
    ]
    return (
        f"Find the notes related to {json.dumps(path, ensure_ascii=False)} in the ObsiGate vault "
        f"{json.dumps(vault, ensure_ascii=False)}.\n\n{_steps(items, has)}\n\n"
        "Then list the related notes, most related first, each with its path and one line on why (links to it, "
        "linked from it, shares a tag, same subject). Leave out the note itself. Finally suggest [[wikilinks]] "
        f"the note is missing. {_FOOTER}"
    )


PROMPTS: dict[str, PromptSpec] = {
    p.name: p
    for p in (
        PromptSpec(
            "summarize-directory",
            "Summarize a folder",
            "Summarize the notes of one folder of a vault: purpose, main themes, key notes, open tasks.",
            (
                _VAULT_ARG,
                PromptArg("path", "Folder, relative to the vault root; empty or omitted: the root.", False, "folder"),
            ),
            _render_summarize_directory,
        ),
        PromptSpec(
            "generate-note",
            "Draft a note",
            "Draft a new note on a topic, linked to what the vault already holds and using its tags.",
            (
                _VAULT_ARG,
                PromptArg("topic", "What the note is about.", True, max_chars=MAX_TOPIC_CHARS),
                PromptArg("folder", "Folder for the new note, relative to the vault root (optional).", False, "folder"),
            ),
            _render_generate_note,
        ),
        PromptSpec(
            "find-related",
            "Find related notes",
            "Find the notes related to one note: links, backlinks, shared tags and subjects.",
            (
                _VAULT_ARG,
                PromptArg("path", "The note, relative to the vault root (e.g. 'Projects/Plan.md').", True, "note"),
            ),
            _render_find_related,
        ),
    )
}


def check_arguments(spec: PromptSpec, raw: dict[str, str] | None) -> dict[str, str]:
    """The arguments of ``spec`` with absent optional ones as ``""``, values stripped of surrounding spaces.

    Raises:
        BadRequest: an unknown argument, a missing or blank required one, or one longer than its limit.
    """
    given = dict(raw or {})
    if has_lone_surrogate(given):
        raise BadRequest("arguments must be valid Unicode text (a lone surrogate was sent)")
    unknown = sorted(set(given) - {a.name for a in spec.arguments})
    if unknown:
        raise BadRequest(f"prompt {spec.name!r} has no argument {unknown[0]!r}", hint="see prompts/list")
    out = {}
    for arg in spec.arguments:
        value = given.get(arg.name)
        value = value.strip() if isinstance(value, str) else ""
        if arg.required and not value:
            raise BadRequest(f"missing required argument {arg.name!r}", hint="see prompts/list")
        if len(value) > arg.max_chars:
            raise BadRequest(f"argument {arg.name!r} is longer than {arg.max_chars} characters")
        out[arg.name] = value
    return out


def resolve_targets(ctx: ToolContext, spec: PromptSpec, args: dict[str, str]) -> dict[str, str]:
    """Check vault access (once: ``Workspace.get_vault``, then the services get the resolved vault) and the
    paths of ``args``; return them normalised (``path``/``folder`` as vault-relative POSIX paths, ``vault`` as
    declared). Touches only file metadata, never contents.

    Raises:
        VaultAccessDenied, NotFound (vault, folder or note), PathOutsideVault, BadRequest (``not_a_directory``,
        ``is_a_directory``).
    """
    ws = ctx.workspace
    vault = ws.get_vault(args["vault"], ctx.allowed_vaults)
    args = {k: locate(ws, vault, v) if k in ("path", "folder") else v for k, v in args.items()}  # as shown
    out = {**args, "vault": vault.name}
    if spec.name == "summarize-directory":  # existing folder ("" = root)
        out["path"] = vaults.browse_directory(ws, vault, args["path"], limit=1).path
    elif spec.name == "find-related":  # existing file
        safe = resolve_safe_path(vault, args["path"])
        found = kind_of(vault, safe.rel)
        if found == "dir":
            hint = "use summarize-directory for folders"
            raise BadRequest(f"{safe.rel!r} is a folder", code="is_a_directory", hint=hint)
        if found != "file":
            raise NotFound(f"note {safe.rel!r} does not exist in vault {vault.name!r}", hint="complete the path")
        out["path"] = safe.rel
    elif spec.name == "generate-note":  # the folder may not exist yet, but must not be a file
        safe = resolve_safe_path(vault, args["folder"], allow_root=True)
        if safe.rel and kind_of(vault, safe.rel) not in (None, "dir"):
            raise BadRequest(f"{safe.rel!r} is a file, not a folder", code="not_a_directory")
        out["folder"] = near = safe.rel
        while near and kind_of(vault, near) != "dir":
            near = near.rpartition("/")[0]
        out["existing_folder"] = near  # the deepest folder of the way that exists, to look at
    return out


def _has(ctx: ToolContext) -> Has:
    specs = visible_tools(dataclasses.replace(ctx, mode="mcp"))
    return Has({s.name: frozenset(s.input_schema["properties"]) for s in specs})


def list_prompts(ctx: ToolContext, prompts: dict[str, PromptSpec] = PROMPTS) -> list[PromptSpec]:
    """Every prompt, in a fixed order; none for a caller without any vault (each prompt takes one), as the
    list may vary by authorization (MCP 2026-07-28 ``server/prompts`` §Capabilities)."""
    if not ctx.workspace.accessible(ctx.allowed_vaults):
        return []
    return list(prompts.values())


async def get_prompt(
    ctx: ToolContext, name: str, raw: dict[str, str] | None, prompts: dict[str, PromptSpec] = PROMPTS
) -> tuple[PromptSpec, str]:
    """Prompt ``name`` for checked arguments ``raw``: its spec and the text of its single ``user`` message.

    Raises:
        ServiceError: ``unknown_prompt``, ``invalid_argument``, ``vault_access_denied``, ``not_found``,
            ``path_outside_vault``, ``not_a_directory``, ``is_a_directory``, ``rate_limited``.
    """
    raw = dict(raw or {})
    # the topic is the user's words: the audit keeps only its length
    kept = {key: f"<{len(v)} chars>" if key == "topic" and isinstance(v, str) else v for key, v in raw.items()}
    async with door(
        ctx, "prompts/get", raw, action="mcp_prompt_get", audit_args=summarize_args({"name": name, **kept})
    ):
        spec = prompts.get(name)
        if spec is None:
            raise NotFound(f"no prompt named {name!r}", code="unknown_prompt", hint="see prompts/list")
        args = check_arguments(spec, raw)
        args = await anyio.to_thread.run_sync(resolve_targets, ctx, spec, args)
        return spec, redact_text(spec.render(args, _has(ctx)))  # a path or topic may hold a secret
