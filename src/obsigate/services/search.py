"""Full-text search and tags across the vaults in a call's scope (names the tool layer already permitted)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from obsigate.domain.search_query import is_plain
from obsigate.domain.vault import note_title
from obsigate.services.errors import BadRequest
from obsigate.services.paths_search import subsequence_span
from obsigate.services.results import FromIndex, IndexState, Page, Result
from obsigate.services.snippet_text import plain
from obsigate.services.workspace import Workspace, check_page, page_fields

MAX_LIMIT = 100
MAX_SEARCH_OFFSET = 10_000  # deeper pages are never useful, and the engine allocates offset + limit slots


class SearchHitInfo(BaseModel):
    vault: str
    path: str
    title: str
    score: float
    snippet: str = Field(description="Matching passage; matches wrapped in <mark>…</mark>.")
    tags: list[str]


class SearchFulltextResult(Result, Page, FromIndex):
    query: str
    hits: list[SearchHitInfo]


def search_vaults(
    ws: Workspace,
    q: str,
    vaults: Sequence[str],
    *,
    tag: str | None = None,
    limit: int = 20,
    offset: int = 0,
) -> SearchFulltextResult:
    """Search of ``q`` in ``vaults`` (declared names the tool layer already put in the caller's scope: the one
    named, or every vault they may use; empty → no hits).

    Plain words are a BM25 search (ranked, words completed: ``kube`` finds ``kubernetes``); a query using
    Obsidian's operators (``tag:``, ``path:``, ``"phrase"``, ``-x``, ``OR`` … :mod:`obsigate.services.search_syntax`)
    is narrowed by the index and checked note by note, best first. Returns a :class:`SearchFulltextResult`.
    Snippets are plain text (markdown markup removed) marking matches with ``<mark>``, and are redacted. While the index is still being built, ``index.complete`` is false and a ``warning``
    says results may be missing.

    Raises:
        BadRequest: ``q`` not a string, limit/offset out of range; ``invalid_query``: ``q`` does not parse
            (``details.position``), a bad regex, or an operator left out.
    """
    if not isinstance(q, str):
        raise BadRequest("q must be a string")
    from obsigate.services import search_syntax  # here: it reuses search_advanced, which imports this module

    check_page(limit, offset, max_limit=MAX_LIMIT, max_offset=MAX_SEARCH_OFFSET)
    node = search_syntax.parse_query(q)
    warnings = []
    index = ws.index_state()  # before the search: "complete" must describe the index it read, not a later one
    if node is None or is_plain(node):  # plain words: the ranked index as it always answered them
        page = ws.index.search(q, vaults=vaults, tag=tag or None, limit=limit, offset=offset)
        total = page.total
        hits = [
            {"vault": h.vault, "path": h.path, "title": h.title, "score": round(h.score, 4),
             "snippet": plain(h.snippet), "tags": list(h.tags)}  # snippets are redacted once, by the tool layer
            for h in page.hits
        ]  # fmt: skip
    else:
        scan = search_syntax.run(ws, node, vaults, tag=tag or None, offset=offset, limit=limit)
        total = len(scan.found)
        hits = [
            {"vault": f.vault, "path": f.path, "title": note_title(f.path), "score": f.score,
             "snippet": f.snippet, "tags": list(f.tags)}
            for f in scan.found[offset : offset + limit]
        ]  # fmt: skip
        if scan.out_of_time:
            warnings.append(
                f"stopped after {search_syntax.TIME_BUDGET_S:g} s with {scan.checked} notes checked:"
                " results are partial; narrow the search (a vault, path:, tag:)"
            )
    if not index.complete:
        warnings.append("the index is still being built; results may be incomplete")
    return SearchFulltextResult.model_validate(
        {"query": q, "hits": hits, **page_fields(total, offset, len(hits)), "index": index,
         "warning": "; ".join(warnings) or None}
    )  # fmt: skip


class TagInfo(BaseModel):
    tag: str
    count: int = Field(description="Notes carrying the tag or one of its nested children.")


class ListTagsResult(Result, Page):
    tags: list[TagInfo]
    index: IndexState


def list_tags(ws: Workspace, vaults: Sequence[str], *, limit: int = 500, offset: int = 0) -> ListTagsResult:
    """Distinct tags of ``vaults`` (names already in the caller's scope) with the number of notes carrying each
    (nested parents counted, as Obsidian's tag pane).

    Returns a :class:`ListTagsResult`, most used first.

    Raises:
        BadRequest: ``limit`` < 1 or ``offset`` < 0.
    """
    check_page(limit, offset)
    index = ws.index_state()  # first: "complete" describes the index read below
    tags = ws.index.list_tags(vaults=vaults)
    chunk = tags[offset : offset + limit]
    return ListTagsResult(
        tags=[TagInfo(tag=t.tag, count=t.count) for t in chunk],
        **page_fields(len(tags), offset, len(chunk)),
        index=index,
    )


class SuggestTagsResult(Result, Page):
    query: str
    tags: list[TagInfo]


def suggest_tags(
    ws: Workspace,
    q: str,
    vaults: Sequence[str],
    *,
    limit: int = 20,
    offset: int = 0,
) -> SuggestTagsResult:
    """Tags of ``vaults`` (names already in the caller's scope) for ``q`` (leading ``#`` optional,
    case-insensitive), with note counts, best first: tags starting
    with ``q``, then tags with a nested part starting with it (``sensors`` → ``project/sensors``), then tags
    holding ``q``'s letters in order. Within a group, most used first. An empty ``q`` gives the most used tags.

    Returns a :class:`SuggestTagsResult`.

    Raises:
        BadRequest: ``limit`` outside 1..100, negative ``offset``.
    """
    check_page(limit, offset, max_limit=MAX_LIMIT)
    needle = (q or "").strip().lstrip("#").lower()
    ranked = []
    for t in ws.index.list_tags(vaults=vaults):
        low = t.tag.lower()
        if low.startswith(needle):
            group = 0
        elif any(part.startswith(needle) for part in low.split("/")[1:]):
            group = 1
        elif subsequence_span(needle, low) is not None:
            group = 2
        else:
            continue
        ranked.append((group, -t.count, t.tag))
    ranked.sort()
    chunk = [TagInfo(tag=tag, count=-neg) for _, neg, tag in ranked[offset : offset + limit]]
    return SuggestTagsResult(query=q, tags=chunk, **page_fields(len(ranked), offset, len(chunk)))
