"""Public facade of the tool layer: importing it registers the catalog and re-exports the entry points."""

from __future__ import annotations

from obsigate.tools import (  # noqa: F401 — importing registers the tools
    catalog_files,
    catalog_links,
    catalog_recent,
    catalog_search,
    catalog_vaults,
)
from obsigate.tools.context import ToolContext, ToolRuntime
from obsigate.tools.dispatch import call_tool, visible_tools
from obsigate.tools.errors import ToolError
from obsigate.tools.registry import REGISTRY, Risk, Scope, ToolSpec

__all__ = ["REGISTRY", "Risk", "Scope", "ToolContext", "ToolError", "ToolRuntime", "ToolSpec", "call_tool", "visible_tools"]
