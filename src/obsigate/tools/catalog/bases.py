"""Bases: ``query_base``, one view of an Obsidian base (a ``.base`` file or a note's ```` ```base ```` block) as rows
and cells, read-only (``services/bases.py``; the rules in ``domain/bases``)."""

from __future__ import annotations

from pydantic import Field

from obsigate.services import bases as bases_svc
from obsigate.services.bases import QueryBaseResult
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, tool
from obsigate.tools.schemas import Path, Vault

#: Position of this family in tools/list (tools/catalog/__init__.py): last, clear of the numbers other families take.
ORDER = 34


class QueryBaseArgs(ToolArgs):
    vault: str = Vault()
    path: str = Path(".base file, or note with ```base blocks.")
    view: str | None = Field(default=None, max_length=200, description="Default: the first.")
    this: str | None = Path("Embedding note; default: the base.", default=None)
    block: int = Field(default=0, ge=0, le=100, description="Nth ```base block (0-based).")


@tool(
    "query_base",
    title="Run an Obsidian base",
    scopes=(),  # the web app's: tools/list has no room under its 50k target for one more tool (tests/catalogue.py)
    label=("Base consultée : {path}", "Base viewed: {path}"),
)
def query_base(ctx: ToolContext, args: QueryBaseArgs) -> QueryBaseResult:
    """Run one view of an Obsidian base (.base or ```base block): its rows."""
    return bases_svc.query_base(
        ctx.workspace, ctx.permitted_vault, args.path, view=args.view, this=args.this, block=args.block
    )
