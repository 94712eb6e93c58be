"""Prompts: ``summarize-directory``, ``generate-note`` and ``find-related`` (MCP ``server/prompts``), each one
function declared with :func:`~obsigate.tools.kinds.operation` and run like a tool
(:func:`~obsigate.tools.dispatch.call_operation`: door → parse → permit → run).

A prompt is a user-chosen recipe (a slash command in most hosts). Its one ``user`` message tells the model
which ObsiGate tools to call with which arguments; it never embeds note contents, so what the model reads
still goes through the tools (vault access, path guard, redaction, audit). Only tools the caller can use
are named: a step whose tool is not offered to this caller is left out or replaced by a fallback.

Each call is checked like a tool call: the door (rate limit, audit as ``prompts/get`` with ``action:
mcp_prompt_get``, the topic kept only as its length), the argument model (unknown, missing, blank or too long
arguments are ``invalid_argument``; values are stripped of surrounding spaces), the caller's grant on the
vault (``pipeline.permit``, once); then the prompt's function checks its paths
(``services.paths.resolve_safe_path``: the folder or note must exist) and writes the message, redacted.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from obsigate.domain.redaction import redact_text
from obsigate.services import vaults
from obsigate.services.errors import BadRequest, NotFound
from obsigate.services.paths import kind_of, resolve_safe_path
from obsigate.services.redacted_paths import locate
from obsigate.tools.context import ToolContext
from obsigate.tools.dispatch import call_operation, visible_tools
from obsigate.tools.kinds import OPERATIONS, Kind, Operation, operation

__all__ = ["Has", "PromptArg", "PromptArgs", "get_prompt", "list_prompts", "prompt_arguments"]

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
    """One prompt argument as ``prompts/list`` shows it. ``complete`` names what ``completion/complete``
    suggests for it: ``vault`` (vault names), ``folder``, ``note`` or ``none``."""

    name: str
    description: str
    required: bool
    complete: str = "none"


class PromptArgs(BaseModel):
    """Base of every prompt's argument model: unknown arguments are errors, values are strings stripped of
    surrounding spaces (a blank required one is missing)."""

    model_config = ConfigDict(extra="forbid", strict=True, str_strip_whitespace=True)


def _arg(description: str, complete: str = "none", *, max_length: int = MAX_PATH_CHARS, required: bool = False) -> Any:
    """A prompt argument's field: its description (listed), what completes it, its bounds."""
    return Field(
        min_length=1 if required else 0, max_length=max_length, description=description,
        json_schema_extra={"complete": complete},
    )  # fmt: skip


_Vault = Annotated[str, _arg("Vault name (as listed by list_vaults).", "vault", max_length=64, required=True)]


def prompt_arguments(op: Operation) -> list[PromptArg]:
    """The arguments of prompt ``op`` as ``prompts/list`` shows them, from its argument model, in field order."""
    out = []
    for name, field in op.args_model.model_fields.items():
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        out.append(PromptArg(name, field.description or "", field.is_required(), str(extra.get("complete", "none"))))
    return out


def _call(tool: str, **args: Any) -> str:
    """``tool {"arg": value}``: an exact call the model can copy (values JSON-quoted, so any text is safe)."""
    return f"`{tool} {json.dumps(args, ensure_ascii=False)}`"


def _steps(items: list[tuple[str, tuple[str, ...]]], has: Has) -> str:
    """Numbered steps, keeping only those whose tools the caller has."""
    kept = [text for text, tools in items if all(has(t) for t in tools)]
    return "\n".join(f"{i}. {text}" for i, text in enumerate(kept, 1))


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


def _has(ctx: ToolContext) -> Has:
    specs = visible_tools(dataclasses.replace(ctx, mode="mcp"))
    return Has({s.name: frozenset(s.input_schema["properties"]) for s in specs})


def _message(ctx: ToolContext, text: str) -> str:
    return redact_text(text)  # a path or topic may hold a secret


class SummarizeDirectoryArgs(PromptArgs):
    vault: _Vault
    path: Annotated[str, _arg("Folder, relative to the vault root; empty or omitted: the root.", "folder")] = ""


@operation(Kind.PROMPT, "summarize-directory", title="Summarize a folder")
def summarize_directory(ctx: ToolContext, args: SummarizeDirectoryArgs) -> str:
    """Summarize the notes of one folder of a vault: purpose, main themes, key notes, open tasks.

    The folder must exist (``""``: the root); ``not_found``, ``not_a_directory``, ``path_outside_vault``."""
    ws, vault = ctx.workspace, ctx.permitted_vault
    path = vaults.browse_directory(ws, vault, str(locate(ws, vault, args.path)), limit=1).path  # as shown
    return _message(ctx, _render_summarize_directory({"vault": vault.name, "path": path}, _has(ctx)))


class GenerateNoteArgs(PromptArgs):
    vault: _Vault
    topic: Annotated[str, _arg("What the note is about.", max_length=MAX_TOPIC_CHARS, required=True)]
    folder: Annotated[str, _arg("Folder for the new note, relative to the vault root (optional).", "folder")] = ""


@operation(Kind.PROMPT, "generate-note", title="Draft a note")
def generate_note(ctx: ToolContext, args: GenerateNoteArgs) -> str:
    """Draft a new note on a topic, linked to what the vault already holds and using its tags.

    The folder may not exist yet, but must not be a file (``not_a_directory``); the message looks at the
    deepest folder of its way that exists."""
    ws, vault = ctx.workspace, ctx.permitted_vault
    safe = resolve_safe_path(vault, locate(ws, vault, args.folder), allow_root=True)
    if safe.rel and kind_of(vault, safe.rel) not in (None, "dir"):
        raise BadRequest(f"{safe.rel!r} is a file, not a folder", code="not_a_directory")
    near = safe.rel
    while near and kind_of(vault, near) != "dir":
        near = near.rpartition("/")[0]
    targets = {"vault": vault.name, "topic": args.topic, "folder": safe.rel, "existing_folder": near}
    return _message(ctx, _render_generate_note(targets, _has(ctx)))


class FindRelatedArgs(PromptArgs):
    vault: _Vault
    path: Annotated[str, _arg("The note, relative to the vault root (e.g. 'Projects/Plan.md').", "note", required=True)]


@operation(Kind.PROMPT, "find-related", title="Find related notes")
def find_related(ctx: ToolContext, args: FindRelatedArgs) -> str:
    """Find the notes related to one note: links, backlinks, shared tags and subjects.

    The note must exist (``not_found``; a folder is ``is_a_directory``)."""
    ws, vault = ctx.workspace, ctx.permitted_vault
    safe = resolve_safe_path(vault, locate(ws, vault, args.path))
    found = kind_of(vault, safe.rel)
    if found == "dir":
        raise BadRequest(f"{safe.rel!r} is a folder", code="is_a_directory", hint="use summarize-directory for folders")
    if found != "file":
        raise NotFound(f"note {safe.rel!r} does not exist in vault {vault.name!r}", hint="complete the path")
    return _message(ctx, _render_find_related({"vault": vault.name, "path": safe.rel}, _has(ctx)))


def list_prompts(ctx: ToolContext) -> list[Operation]:
    """Every prompt, in a fixed order; none for a caller without any vault (each prompt takes one), as the
    list may vary by authorization (MCP 2026-07-28 ``server/prompts`` §Capabilities)."""
    if not ctx.workspace.accessible(ctx.allowed_vaults):
        return []
    return OPERATIONS.of_kind(Kind.PROMPT)


async def get_prompt(ctx: ToolContext, name: str, raw: dict[str, str] | None) -> tuple[Operation, str]:
    """Prompt ``name`` for arguments ``raw``: the prompt and the text of its single ``user`` message.

    Raises:
        ServiceError: ``unknown_prompt``, ``invalid_argument``, ``vault_access_denied``, ``not_found``,
            ``path_outside_vault``, ``not_a_directory``, ``is_a_directory``, ``rate_limited``.
    """
    text = await call_operation(ctx, Kind.PROMPT, name, dict(raw or {}))
    op = OPERATIONS.get(Kind.PROMPT, name)
    assert op is not None  # call_operation refused an unknown name
    return op, text
