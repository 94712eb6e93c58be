"""Backlinks of a file: linked mentions from the index's link graph, and optional unlinked mentions.

Definitions from Obsidian's Backlinks pane (``shared/reference/obsidian.md`` §11): *linked mentions* are notes
whose links, embeds or quoted frontmatter links resolve to the file; *unlinked mentions* are plain-text
occurrences of the file's name or one of its aliases, case-insensitive, outside links, in other notes.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, Field

from obsigate.domain.links.resolve import clip_around
from obsigate.domain.markdown.note import parse_note
from obsigate.domain.vault import Vault, is_note, note_title
from obsigate.services.errors import BadRequest, NotFound, ServiceError
from obsigate.services.files import note_text
from obsigate.services.paths import resolve_safe_path
from obsigate.services.results import IndexState, Page, Result
from obsigate.services.workspace import Workspace, page_fields

MAX_LIMIT = 200
LINKS_PER_NOTE = 20  # occurrences listed per linking note; ``count`` still gives them all
UNLINKED_CANDIDATES = 200  # notes searched for unlinked mentions (the full-text hits for each name)
# Spans that are links already (their text is not an "unlinked" mention): wikilinks/embeds, markdown links.
_LINK_SPAN = re.compile(r"!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)")


def _target(ws: Workspace, vault: Vault, path: str) -> str:
    rel = resolve_safe_path(vault, path).rel
    if not ws.index.has_file(vault.name, rel):
        raise NotFound(
            f"file {rel!r} is not in vault {vault.name!r} (or not indexed yet)",
            hint="check the path with search_paths or list_directory",
        )
    return rel


class LinkOccurrence(BaseModel):
    line: int | None = Field(description="1-based line of the link in the linking note.")
    context: str | None = Field(description="The linking line (clipped).")
    subpath: str | None = Field(default=None, description="'#Heading' or '#^block' the link points at.")
    display: str | None = None
    kind: str = Field(description="'wikilink', 'markdown' or 'frontmatter'")
    embed: bool
    key: str | None = Field(default=None, description="Frontmatter property holding the link.")


class BacklinkInfo(BaseModel):
    path: str
    title: str
    count: int = Field(description="Links from this note to the file (links lists at most 20).")
    links: list[LinkOccurrence]


class Mention(BaseModel):
    line: int
    context: str


class UnlinkedInfo(BaseModel):
    path: str
    title: str
    count: int
    mentions: list[Mention]


class GetBacklinksResult(Result, Page):
    vault: str
    path: str
    backlinks: list[BacklinkInfo]
    unlinked: list[UnlinkedInfo] | None = None
    index: IndexState


def get_backlinks(
    ws: Workspace,
    vault: Vault,
    path: str,
    *,
    limit: int = 50,
    offset: int = 0,
    unlinked: bool = False,
) -> GetBacklinksResult:
    """Notes of ``vault`` (already permitted by the tool layer) linking to ``path`` (any file: note or
    attachment), by linking note path.

    Returns a :class:`GetBacklinksResult`: ``total`` counts linking notes; ``links`` lists at most 20 occurrences per note
    (``count`` has them all); ``context`` is the linking line, redacted and clipped. With ``unlinked``, also
    ``unlinked`` for up to ``limit`` notes
    (see :func:`unlinked_mentions`).

    Raises:
        NotFound (a file the index does not know), PathOutsideVault, BadRequest (limit outside 1..200,
        negative offset).
    """
    if not 1 <= limit <= MAX_LIMIT or offset < 0:
        raise BadRequest(f"limit must be 1..{MAX_LIMIT} and offset >= 0")
    rel = _target(ws, vault, path)
    index = ws.index_state()  # first: "complete" describes the index read below
    page, total = ws.index.backlinks(vault.name, rel, limit=limit, offset=offset)
    items = [
        BacklinkInfo(
            path=b.path,
            title=note_title(b.path),
            count=len(b.links),
            links=[
                LinkOccurrence(
                    line=r.line,
                    context=r.context,  # redacted once, with the whole result, by the tool layer
                    subpath=r.subpath,
                    display=r.display,
                    kind=r.kind,
                    embed=r.embed,
                    key=r.key,
                )
                for r in b.links[:LINKS_PER_NOTE]
            ],
        )
        for b in page
    ]
    return GetBacklinksResult(
        vault=vault.name,
        path=rel,
        backlinks=items,
        **page_fields(total, offset, len(items)),
        unlinked=unlinked_mentions(ws, vault, rel, limit=limit) if unlinked else None,
        index=index,
    )


def unlinked_mentions(ws: Workspace, vault: Vault, rel: str, *, limit: int) -> list[UnlinkedInfo]:
    """Other notes that name ``rel`` (its title or an alias) in plain text without linking to it.

    Candidates are the full-text hits for each name (up to 200 each); a mention is a case-insensitive,
    whole-word occurrence outside frontmatter and outside link spans; notes that already link to ``rel`` are
    left out, as in Obsidian. Returns :class:`UnlinkedInfo` items (≤ ``limit`` notes, ≤ 20 mentions each, by path).
    """
    names = [note_title(rel)]
    if is_note(rel):
        try:
            names += [a for a in parse_note(note_text(vault, rel)).aliases if a.strip()]
        except ServiceError:
            pass  # unreadable now: the title alone still works
    names = list(dict.fromkeys(n.strip() for n in names if len(n.strip()) >= 2))
    if not names:
        return []
    pattern = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in sorted(names, key=len, reverse=True)), re.I)
    linked = ws.index.backlink_sources(vault.name, rel)
    candidates: set[str] = set()
    for name in names:
        hits = ws.index.search(name, vaults=[vault.name], limit=UNLINKED_CANDIDATES).hits
        candidates.update(h.path for h in hits)
    out = []
    for source in sorted(candidates - linked - {rel}):
        try:
            parsed = parse_note(note_text(vault, source))
        except ServiceError:
            continue  # deleted or unreadable since it was indexed
        mentions = []
        for i, line in enumerate(parsed.body.split("\n")):
            for m in pattern.finditer(_LINK_SPAN.sub(lambda s: " " * len(s.group()), line)):
                mentions.append(Mention(line=parsed.body_line + i, context=clip_around(line, m.group())))
        if mentions:
            out.append(
                UnlinkedInfo(
                    path=source, title=note_title(source), count=len(mentions), mentions=mentions[:LINKS_PER_NOTE]
                )
            )
            if len(out) >= limit:
                break
    return out
