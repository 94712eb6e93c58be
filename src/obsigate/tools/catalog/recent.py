"""Recent-files tool: list_recent."""

from __future__ import annotations

from typing import Literal

from obsigate.services import recent as svc
from obsigate.services.recent import ListRecentResult
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, tool
from obsigate.tools.schemas import Limit, Offset, VaultFilter

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 5


class ListRecentArgs(ToolArgs):
    vault: str | None = VaultFilter()
    limit: int = Limit(20, le=svc.MAX_LIMIT)
    mode: Literal["modified", "created"] = "modified"
    offset: int = Offset()


@tool(
    "list_recent",
    title="Recent files",
    label=("Fichiers récents consultés", "Recent files listed"),
    rest=Rest("GET", "/recent", summary="Recently modified or created files", name="recent", tag="vaults"),
)
def list_recent(ctx: ToolContext, args: ListRecentArgs) -> ListRecentResult:
    """List recently modified (or created) files, newest first, with a readable age ('yesterday')."""
    return svc.list_recent(ctx.workspace, ctx.scope, limit=args.limit, mode=args.mode, offset=args.offset)
