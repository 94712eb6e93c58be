"""Link tools: get_backlinks and get_graph, over the index's resolved link graph; export_graph, the whole graph for
the web app (offered to no model)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from obsigate.services import backlinks as backlinks_svc
from obsigate.services import graph as graph_svc
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import IndexState, Limit, Offset, Page, Path, Tag, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 3


class GetBacklinksArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path()
    limit: int = Limit(50, le=backlinks_svc.MAX_LIMIT)
    offset: int = Offset()
    unlinked: bool = Field(default=False, description="Also list unlinked mentions of its name or aliases.")


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


class GetBacklinksResult(ToolOutput, Page):
    vault: str
    path: str
    backlinks: list[BacklinkInfo]
    unlinked: list[UnlinkedInfo] | None = None
    index: IndexState


@tool(
    "get_backlinks",
    title="Backlinks of a note",
    label=("Backlinks analysés", "Backlinks checked"),
    rest=Rest("GET", "/backlinks/{vault}", summary="Notes linking to a file, with the linking lines", name="backlinks"),
)
def get_backlinks(ctx: ToolContext, args: GetBacklinksArgs) -> GetBacklinksResult:
    """List the notes linking to a note or attachment, with the linking lines; unlinked adds plain-text
    mentions."""
    return GetBacklinksResult(**backlinks_svc.get_backlinks(ctx.workspace, ctx.permitted_vault, **args.service_args()))


class GetGraphArgs(ToolArgs):
    vault: str = Vault()
    path: str | None = Path("local: the centre note; vault: only notes under this folder.", default=None)
    depth: int = Field(default=1, ge=1, le=graph_svc.MAX_DEPTH, description="Link hops from the centre (local).")
    scope: Literal["local", "vault"] | None = Field(default=None, description="Default: local if path is a file.")
    tag: str | None = Tag()
    limit: int = Limit(200, le=graph_svc.MAX_NODES)


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


class GetGraphResult(ToolOutput):
    vault: str
    scope: str
    center: str | None
    nodes: list[GraphNode]
    edges: list[GraphEdge]
    total_nodes: int
    total_edges: int
    index: IndexState


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
    return GetGraphResult(**graph_svc.get_graph(ctx.workspace, ctx.permitted_vault, **args.service_args()))


class ExportGraphArgs(ToolArgs):
    vault: str = Vault()
    tag: str | None = Tag()


class ExportGraphResult(ToolOutput):
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


@tool(
    "export_graph",
    title="Whole-vault link graph (compact)",
    scopes=(),
    label=("Graphe complet du vault exporté", "Whole vault graph exported"),
)
def export_graph(ctx: ToolContext, args: ExportGraphArgs) -> ExportGraphResult:
    """Every note of a vault and the links between them, uncut and compact (paths once, edges as index pairs),
    for the web app's graph view; cached until the vault changes. Not offered to models: get_graph is theirs."""
    return ExportGraphResult(**graph_svc.export_graph(ctx.workspace, ctx.permitted_vault, **args.service_args()))
