"""Recent-files tool: list_recent."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from obsigate.services import recent as svc
from obsigate.tools.context import ToolContext
from obsigate.tools.registry import ToolArgs, ToolOutput, tool
from obsigate.tools.schemas import MAX_LIST_OFFSET, IndexState, Page


class ListRecentArgs(ToolArgs):
    vault: str | None = Field(
        default=None, description="Only this vault; default: every vault you can use.", max_length=64
    )
    limit: int = Field(default=20, ge=1, le=svc.MAX_LIMIT, description="Most files to return.")
    mode: Literal["modified", "created"] = Field(
        default="modified", description="Order by last modification ('modified') or by creation time ('created')."
    )
    offset: int = Field(default=0, ge=0, le=MAX_LIST_OFFSET, description="Files to skip (from a previous next_offset).")


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


class ListRecentResult(ToolOutput, Page):
    mode: str
    files: list[RecentFile]
    index: IndexState
    warning: str | None = None


@tool("list_recent", title="Recent files")
def list_recent(ctx: ToolContext, args: ListRecentArgs) -> ListRecentResult:
    """List the most recently modified (or created, with mode='created') files, notes and attachments,
    newest first, with a readable age ('5 minutes ago', 'yesterday').

    Use it to see what changed lately or to pick up recent work. Page with `offset` = `next_offset`."""
    return ListRecentResult(
        **svc.list_recent(
            ctx.workspace, ctx.allowed_vaults, vault=args.vault, mode=args.mode, limit=args.limit, offset=args.offset
        )
    )
