"""Public facade of the tool layer: importing it registers the catalog and re-exports the entry points."""

from __future__ import annotations

# Import order is the catalog's order in tools/list: discovery first, then reading, searching, writing.
from obsigate.tools import (  # noqa: F401, I001 — importing registers the tools
    catalog_vaults,
    catalog_files,
    catalog_links,
    catalog_search,
    catalog_recent,
    catalog_backups,
    catalog_write,
)
from obsigate.tools.context import ToolContext, ToolRuntime
from obsigate.tools.dispatch import call_tool, visible_tools
from obsigate.tools.errors import ToolError
from obsigate.tools.registry import REGISTRY, Risk, Scope, ToolSpec

__all__ = ["REGISTRY", "Risk", "Scope", "ToolContext", "ToolError", "ToolRuntime", "ToolSpec", "call_tool", "visible_tools"]
