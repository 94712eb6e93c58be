"""The link graph of a vault as nodes and edges, like Obsidian's Graph view (``obsidian.md`` §11).

Two scopes: ``local`` (the neighbourhood of one file, ``depth`` link hops in either direction, as the local
graph pane) and ``vault`` (every note, optionally below a folder; orphans included). Edges are resolved
links aggregated per (source, target) pair; links that resolve to nothing become ``unresolved`` nodes ("not
created yet" in Obsidian). A ``tag`` keeps only the notes carrying it (nested tags included). Results are
bounded by ``limit`` nodes: the most connected are kept and ``truncated`` says so.

:func:`export_graph` is the whole vault for the web app's graph view (10k notes and more): every note, no
limit, in a compact shape (paths once, edges as index pairs), cached per vault version.
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict, deque
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from obsigate.domain.vault import Vault, is_note, note_title
from obsigate.services.errors import BadRequest, NotFound
from obsigate.services.paths import kind_of, normalize_rel
from obsigate.services.results import IndexState, Result
from obsigate.services.workspace import Workspace

MAX_NODES = 2_000
MAX_DEPTH = 3
EDGES_PER_NODE = 5  # the edge list is cut at limit × this
EXPLORE_FACTOR = 5  # a local walk visits at most limit × this files before ranking them
EXPORTS_KEPT = 8  # whole-vault exports cached (vault × tag), the least recently used dropped first

_exports: OrderedDict[tuple[str, str, str], ExportGraphResult] = OrderedDict()
_exports_lock = threading.Lock()


def _node(key: str, unresolved: bool) -> dict[str, Any]:
    if unresolved:
        return {"id": key, "title": key.rsplit("/", 1)[-1], "type": "unresolved"}
    return {"id": key, "title": note_title(key), "type": "note" if is_note(key) else "attachment"}


class GraphNode(BaseModel):
    id: str = Field(description="Vault-relative path, or the link text of an unresolved node.")
    title: str
    type: str = Field(description="'note', 'attachment' or 'unresolved' (linked but not created yet)")
    degree: int = Field(description="Edges touching the node in this graph.")
    depth: int | None = Field(default=None, description="Hops from the centre (local scope).")


class GraphEdge(BaseModel):
    source: str
    target: str
    count: int = Field(description="Links from source to target.")


class GetGraphResult(Result):
    vault: str
    scope: str
    center: str | None
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    total_nodes: int
    total_edges: int
    index: IndexState


def get_graph(
    ws: Workspace,
    vault: Vault,
    *,
    path: str | None = None,
    depth: int = 1,
    scope: str | None = None,
    tag: str | None = None,
    limit: int = 200,
) -> GetGraphResult:
    """Nodes and edges of the link graph of ``vault`` (already permitted by the tool layer).

    Args:
        path: ``local`` scope: the centre file (required); ``vault`` scope: an optional folder to keep.
        depth: link hops from the centre (1..3), following links both ways; ignored for ``vault``.
        scope: ``"local"`` or ``"vault"``; default ``local`` when ``path`` names a file, else ``vault``.
        tag: keep only notes carrying this tag or a nested one (the centre is always kept).
        limit: most nodes returned (1..2000); edges are cut at ``limit`` × 5.

    Returns:
        :class:`GetGraphResult`. A node's ``id`` is the vault-relative path (or the link text of an unresolved
        node); ``count`` is the number of links from source to target.

    Raises:
        NotFound (the centre file, the folder), BadRequest (bad scope, depth or limit), PathOutsideVault.
    """
    if not 1 <= limit <= MAX_NODES or not 1 <= depth <= MAX_DEPTH:
        raise BadRequest(f"limit must be 1..{MAX_NODES} and depth 1..{MAX_DEPTH}")
    state = ws.index_state()  # first: "complete" describes the index read below
    name = vault.name
    rel = normalize_rel(path, allow_root=True) if path else ""
    if scope is None:
        scope = "local" if rel and ws.index.has_file(name, rel) else "vault"
    if scope not in ("local", "vault"):
        raise BadRequest("scope must be 'local' or 'vault'")
    tagged = ws.index.notes_with_tag(name, tag) if tag and tag.strip("# ") else None
    capped = False
    if scope == "local":
        if not rel or not ws.index.has_file(name, rel):
            raise NotFound(f"file {rel!r} is not in vault {name!r}", hint="local graphs need an existing file in path")
        depth_of, edges, capped = _neighbourhood(ws, name, rel, depth, tagged, limit * EXPLORE_FACTOR)
        keep = set(depth_of)
    else:
        if rel and ws.index.has_file(name, rel):
            raise BadRequest(f"{rel!r} is a file; the vault scope takes a folder", code="not_a_directory",
                             hint="use scope 'local' for the graph around a note")  # fmt: skip
        if rel and kind_of(vault, rel) != "dir":
            raise NotFound(f"folder {rel!r} does not exist in vault {name!r}", hint="check it with list_directory")
        keep = {r.path for r in ws.index.file_records(name, under=rel or None) if r.note}
        if tagged is not None:
            keep &= tagged
        depth_of, edges = {}, ws.index.link_edges(name)
    unresolved: set[str] = set()
    kept_edges: Counter[tuple[str, str]] = Counter()
    for source, dest, target, n in edges:
        if source not in keep:
            continue
        if dest is None:
            if scope == "vault" or depth_of[source] < depth:
                unresolved.add(target)
                kept_edges[(source, target)] += n
                if scope == "local" and target not in keep:
                    depth_of.setdefault(target, depth_of[source] + 1)
        elif dest in keep:
            kept_edges[(source, dest)] += n
    degree: Counter[str] = Counter()
    for s, t in kept_edges:
        degree[s] += 1
        degree[t] += 1
    ids = keep | unresolved
    center = rel if scope == "local" else None
    ranked = sorted(ids, key=lambda i: (i != center, -degree[i], i))
    chosen = set(ranked[:limit])
    nodes = [GraphNode(**_node(i, i not in keep), degree=degree[i], depth=depth_of.get(i)) for i in ranked[:limit]]
    out_edges = [
        GraphEdge(source=s, target=t, count=n)
        for (s, t), n in sorted(kept_edges.items())
        if s in chosen and t in chosen
    ]
    total_edges = len(kept_edges)
    cap = limit * EDGES_PER_NODE
    return GetGraphResult(
        vault=name,
        scope=scope,
        center=center,
        nodes=nodes,
        edges=out_edges[:cap],
        total_nodes=len(ids),
        total_edges=total_edges,
        truncated=capped or len(ids) > limit or len(out_edges) > cap or len(out_edges) < total_edges,
        index=state,
    )


def _neighbourhood(
    ws: Workspace, vault: str, center: str, depth: int, tagged: set[str] | None, cap: int
) -> tuple[dict[str, int], list[tuple[str, str | None, str, int]], bool]:
    """Breadth-first walk from ``center`` over resolved links both ways, up to ``depth`` hops and ``cap`` files.

    Only the visited notes' own links and backlinks are read (never the whole vault's), so a local graph costs
    the same in a 100k-note vault as in a small one. With ``tagged``, notes without the tag are neither kept
    nor walked through (the centre always is).

    Returns ``(hops per file, edges as LinkGraph.edges gives them for the visited notes, capped)``.
    """
    depth_of = {center: 0}
    queue = deque([center])
    edges: list[tuple[str, str | None, str, int]] = []
    capped = False
    while queue:
        cur = queue.popleft()
        links: Counter[tuple[str | None, str]] = Counter()
        for out in ws.index.outgoing_links(vault, cur):
            if out.target.strip() and out.resolved != cur:
                links[(out.resolved, out.resolved or out.target)] += 1
        edges += [(cur, dest, target, n) for (dest, target), n in links.items()]
        if depth_of[cur] == depth:
            continue
        found = [dest for dest, _ in links if dest is not None]
        found += [b.path for b in ws.index.backlinks(vault, cur, limit=cap)[0]]
        for nxt in found:
            if nxt in depth_of or (tagged is not None and nxt not in tagged):
                continue
            if len(depth_of) >= cap:
                capped = True
                break
            depth_of[nxt] = depth_of[cur] + 1
            queue.append(nxt)
    return depth_of, edges, capped


class ExportGraphResult(Result):
    """The whole graph, never cut to the result budget (``UNBOUNDED``): it is offered to no model, only to the web
    app, whose graph view needs every note."""

    UNBOUNDED: ClassVar[bool] = True

    vault: str
    version: str = Field(description="Changes whenever the vault's index changes (the REST route's ETag).")
    tag: str | None
    notes: list[str] = Field(description="Node i < len(notes): the note at this path.")
    unresolved: list[str] = Field(description="Node len(notes) + j: a link to a note not created yet.")
    edges: list[int] = Field(description="Flat (source, target) node index pairs, one per linking note and target.")
    index: IndexState


def export_graph(ws: Workspace, vault: Vault, *, tag: str | None = None) -> ExportGraphResult:
    """Every note of ``vault`` and the links between them, compact (the web app's whole-vault graph).

    Unlike :func:`get_graph` nothing is cut: a 10k-note vault gives 10k paths. Built from the index's link
    graph and cached until the vault's index changes (``version``), so repeated loads cost a dictionary
    lookup; the REST route turns ``version`` into an ETag.

    Args:
        tag: keep only notes carrying this tag or a nested one (and the unresolved links they make).

    Returns:
        :class:`ExportGraphResult` (``edges``: ``[s0, t0, s1, t1, …]``). Node ``i`` is ``notes[i]``, or ``unresolved[i - len(notes)]`` (a link to a note not
        created yet); ``edges`` is flat, one (source, target) index pair per linking note and linked node,
        in the direction of the link. Attachments and same-note links are left out, as in the vault scope
        of :func:`get_graph`.
    """
    name = vault.name
    wanted = tag.strip().lstrip("#") if tag else ""
    version = ws.index.graph_version(name)
    key = (version, name, wanted)
    with _exports_lock:
        cached = _exports.get(key)
        if cached is not None:
            _exports.move_to_end(key)
    if cached is None:
        cached = _build_export(ws, name, wanted, version)
        with _exports_lock:
            _exports[key] = cached
            while len(_exports) > EXPORTS_KEPT:
                _exports.popitem(last=False)
    return cached.model_copy(update={"index": ws.index_state()})


def _build_export(ws: Workspace, name: str, tag: str, version: str) -> ExportGraphResult:
    state = ws.index_state()  # first: "complete" describes the index read below
    notes = [r.path for r in ws.index.file_records(name) if r.note]
    if tag:
        tagged = ws.index.notes_with_tag(name, tag)
        notes = [p for p in notes if p in tagged]
    index = {p: i for i, p in enumerate(notes)}
    links = ws.index.link_edges(name)
    unresolved = sorted({target for source, dest, target, _ in links if dest is None and source in index})
    missing = {text: len(notes) + i for i, text in enumerate(unresolved)}
    edges: list[int] = []
    for source, dest, target, _ in links:
        s, t = index.get(source), missing.get(target) if dest is None else index.get(dest)
        if s is not None and t is not None:
            edges += (s, t)
    return ExportGraphResult(
        vault=name,
        version=version,
        tag=tag or None,
        notes=notes,
        unresolved=unresolved,
        edges=edges,
        index=state,
    )
