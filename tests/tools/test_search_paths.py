"""The search_paths tool on a real indexed vault: results, permissions, bad input."""

from __future__ import annotations

import anyio
import pytest

from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.tools.api import ServiceError, ToolContext, call_tool
from obsigate.tools.context import ToolRuntime


def run(ctx: ToolContext, args: dict) -> dict:
    return anyio.run(call_tool, ctx, "search_paths", args)


def test_finds_by_title_folder_and_scattered_letters(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ANONYMOUS, runtime, mode="mcp")
    out = run(ctx, {"q": "plan"})
    assert out["hits"][0] == {
        "vault": "notes",
        "path": "Projects/Plan.md",
        "title": "Plan",
        "score": out["hits"][0]["score"],
        "aliases": [],
    }
    assert [h["path"] for h in run(ctx, {"q": "proj secr"})["hits"]] == ["Projects/Secret.md"]
    assert run(ctx, {"q": "attpic"})["hits"][0]["path"] == "Attachments/pic.png"
    assert run(ctx, {"q": "zebra"})["total"] == 0
    assert run(ctx, {"q": ".obsidian"})["total"] == 0  # hidden files are never candidates


def test_other_users_vault_is_not_searched(runtime: ToolRuntime) -> None:
    alice = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
    ctx = ToolContext(alice, runtime, mode="mcp")
    assert run(ctx, {"q": "private"})["total"] == 0
    with pytest.raises(ServiceError) as info:
        run(ctx, {"q": "private", "vault": "other"})
    assert info.value.code == "vault_access_denied"


@pytest.mark.parametrize("args", [{"q": ""}, {"q": "   "}, {"q": "x", "limit": 0}, {"q": "x", "limit": 101}, {}])
def test_bad_input(runtime: ToolRuntime, args: dict) -> None:
    with pytest.raises(ServiceError) as info:
        run(ToolContext(ANONYMOUS, runtime), args)
    assert info.value.code == "invalid_argument"


def test_accents_and_unicode_forms_do_not_matter(runtime: ToolRuntime, small_vault) -> None:
    (small_vault / "Cafe\u0301 notes.md").write_text("decomposed name on disk\n")  # NFD, as macOS stores it
    runtime.workspace.indexer.refresh_all()
    ctx = ToolContext(ANONYMOUS, runtime, mode="mcp")
    for q in ("Caf\u00e9", "Cafe\u0301", "cafe", "CAFÉ notes"):
        assert [h["path"] for h in run(ctx, {"q": q})["hits"]] == ["Caf\u00e9 notes.md"], q


def test_aliases_find_their_note_and_an_exact_name_comes_first(runtime: ToolRuntime, small_vault) -> None:
    """Issue 19: the quick switcher finds a note by its frontmatter aliases (indexed; redacted like every
    indexed text), and the note named exactly as typed is first even when longer names match better per word."""
    (small_vault / "People").mkdir()
    (small_vault / "People/Jean Dupont.md").write_text("---\naliases: [JD, Johnny Be]\n---\nA person.\n")
    (small_vault / "Budget planning overview.md").write_text("no alias\n")
    (small_vault / "Archive").mkdir()
    (small_vault / "Archive/Budget.md").write_text("old\n")
    runtime.workspace.indexer.refresh_all()
    ctx = ToolContext(ANONYMOUS, runtime, mode="mcp")
    hits = run(ctx, {"q": "johnny"})["hits"]
    assert [h["path"] for h in hits] == ["People/Jean Dupont.md"]
    assert hits[0]["aliases"] == ["JD", "Johnny Be"]
    assert run(ctx, {"q": "jd"})["hits"][0]["path"] == "People/Jean Dupont.md"
    assert run(ctx, {"q": "budget"})["hits"][0]["path"] == "Archive/Budget.md"
    (small_vault / "People/Jean Dupont.md").write_text("no aliases any more\n")
    runtime.workspace.indexer.refresh_all()
    assert run(ctx, {"q": "johnny"})["total"] == 0  # re-indexing a note replaces its aliases
