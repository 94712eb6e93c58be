"""Recent-files tool: list_recent."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from obsigate.services import recent as svc
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import Rest, ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import FromIndex, Limit, Offset, Page, VaultFilter

#: Position of this family in tools/list (tools/catalog/__init__.py).
ORDER = 5


class ListRecentArgs(ToolArgs):
    vault: str | None = VaultFilter(max_length=64)
    limit: int = Limit(20, le=svc.MAX_LIMIT)
    mode: Literal["modified", "created"] = "modified"
    offset: int = Offset()


class RecentFile(BaseModel):
    vault: str
    path: str
    title: str
    is_note: bool
    size: int = Field(description="Bytes.")
    modified: str = Field(description="Last modification, ISO 8601 UTC.")
    created: str = Field(description="Creation time, ISO 8601 UTC (the modification time when unknown).")
    age: str = Field(
        description="How long ago, from the time of the chosen mode: 'just now', '3 hours ago', 'yesterday'..."
    )


class ListRecentResult(ToolOutput, Page, FromIndex):
    mode: str
    files: list[RecentFile]


@tool(
    "list_recent",
    title="Recent files",
    label=("Fichiers récents consultés", "Recent files listed"),
    rest=Rest("GET", "/recent", summary="Recently modified or created files", name="recent", tag="vaults"),
)
def list_recent(ctx: ToolContext, args: ListRecentArgs) -> ListRecentResult:
    """List recently modified (or created) files, newest first, with a readable age ('yesterday')."""
    return ListRecentResult(**svc.list_recent(ctx.workspace, ctx.scope, **args.service_args()))
