"""Link tools: get_backlinks and get_graph, over the index's resolved link graph; export_graph, the whole graph for
the web app (offered to no model)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from obsigate.services import backlinks as backlinks_svc
from obsigate.services import graph as graph_svc
from obsigate.services.backlinks import GetBacklinksResult
from obsigate.services.graph import ExportGraphResult, GetGraphResult
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, tool
from obsigate.tools.schemas import Limit, Offset, Path, Tag, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 3


class GetBacklinksArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path()
    limit: int = Limit(50, le=backlinks_svc.MAX_LIMIT)
    offset: int = Offset()
    unlinked: bool = Field(default=False, description="Also list unlinked mentions of its name or aliases.")


@tool(
    "get_backlinks",
    title="Backlinks of a note",
    label=("Backlinks analysés", "Backlinks checked"),
    rest=Rest("GET", "/backlinks/{vault}", summary="Notes linking to a file, with the linking lines", name="backlinks"),
)
def get_backlinks(ctx: ToolContext, args: GetBacklinksArgs) -> GetBacklinksResult:
    """List the notes linking to a note or attachment, with the linking lines; unlinked adds plain-text
    mentions."""
    return backlinks_svc.get_backlinks(
        ctx.workspace, ctx.permitted_vault, args.path, limit=args.limit, offset=args.offset, unlinked=args.unlinked
    )


class GetGraphArgs(ToolArgs):
    vault: str = Vault()
    path: str | None = Path("local: the centre note; vault: only notes under this folder.", default=None)
    depth: int = Field(default=1, ge=1, le=graph_svc.MAX_DEPTH, description="Link hops from the centre (local).")
    scope: Literal["local", "vault"] | None = Field(default=None, description="Default: local if path is a file.")
    tag: str | None = Tag()
    limit: int = Limit(200, le=graph_svc.MAX_NODES)


@tool(
    "get_graph",
    title="Link graph",
    label=("Graphe du vault consulté", "Vault graph viewed"),
    rest=Rest(
        "GET",
        "/graph/{vault}",
        summary="Link graph: nodes and edges, local (around a note) or the whole vault",
        name="graph",
    ),
)
def get_graph(ctx: ToolContext, args: GetGraphArgs) -> GetGraphResult:
    """Get the link graph (nodes, edges) around a note (local, depth hops) or of a whole vault; big graphs keep
    the most linked nodes."""
    return graph_svc.get_graph(
        ctx.workspace, ctx.permitted_vault, path=args.path, depth=args.depth, scope=args.scope, tag=args.tag,
        limit=args.limit,
    )  # fmt: skip


class ExportGraphArgs(ToolArgs):
    vault: str = Vault()
    tag: str | None = Tag()


@tool(
    "export_graph",
    title="Whole-vault link graph (compact)",
    scopes=(),
    label=("Graphe complet du vault exporté", "Whole vault graph exported"),
)
def export_graph(ctx: ToolContext, args: ExportGraphArgs) -> ExportGraphResult:
    """Every note of a vault and the links between them, uncut and compact (paths once, edges as index pairs),
    for the web app's graph view; cached until the vault changes. Not offered to models: get_graph is theirs."""
    return graph_svc.export_graph(ctx.workspace, ctx.permitted_vault, tag=args.tag)
