"""Issue 9 item 3: every list whose page ends before its total says so in ``notice`` (never ``truncated: true``
with ``notice: null``), and the notice names the offset to continue from."""

from __future__ import annotations

from obsigate.tools.context import ToolRuntime
from tests.tools.test_dispatch import ALICE, ToolContext, run

CALLS = [
    ("list_directory", {"vault": "notes", "limit": 1}),
    ("list_all_files", {"vault": "notes", "limit": 1}),
    ("list_recent", {"vault": "notes", "limit": 1}),
    ("list_tags", {"vault": "notes", "limit": 1}),
    ("suggest_tags", {"vault": "notes", "limit": 1}),
    ("search_paths", {"q": "a", "limit": 1}),
    ("search_advanced", {"q": "a", "vault": "notes", "limit": 1}),
]


def test_a_short_page_has_a_notice(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    for name, args in CALLS:
        out = run(ctx, name, args)
        assert out["total"] > 1, (name, out)
        assert out["truncated"] is True and out["next_offset"] == 1, (name, out)
        assert out["notice"] == f"showing 1-1 of {out['total']}; call again with offset=1 for more", name
        rest = run(ctx, name, {**args, "offset": out["total"] - 1})
        assert rest["truncated"] is False and rest["notice"] is None and rest["next_offset"] is None, name
