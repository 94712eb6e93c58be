"""get_backlinks, get_graph and read_file's resolved links through the real tool layer on indexed vaults."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from support import write_tree

from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.storage.tool_journal import ToolJournal
from obsigate.domain.vault import Vault
from obsigate.services.workspace import Workspace
from obsigate.tools.api import ServiceError, ToolContext, call_tool
from obsigate.tools.context import ToolRuntime

GARDEN = {
    "Compost.md": "---\naliases: [Humus]\ntags: [soil]\n---\n# Compost\nFeeds [[Beds]] and [[Worms]].\n",
    "Beds.md": "# Beds\nRaised beds need [[Compost#Mix|compost]]. #soil\nSee also [[Tomatoes]].\n",
    "Worms.md": "Worms eat scraps; good compost needs them. Also [[Ghost page]].\n",
    "Tomatoes.md": "Tomatoes love humus and Compost. Not a mention: compostable.\n",
    "Journal/2024.md": 'Started a [[compost]] heap. api_key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH" [[Compost]]\n',
    "Orphan.md": "nobody links here\n",
    "img/bed.png": b"\x89PNG\r\n\x1a\n",
    "Gallery.md": "![[bed.png]]\n",
}


@pytest.fixture
def garden(tmp_path: Path) -> Iterator[ToolRuntime]:
    root = write_tree(tmp_path / "garden", GARDEN)
    vaults = {"garden": Vault("garden", root)}
    index = VaultIndex(tmp_path / "index.sqlite3")
    indexer = Indexer(index, vaults)
    indexer.refresh_all()
    yield ToolRuntime(workspace=Workspace(vaults=vaults, index=index, indexer=indexer), journal=ToolJournal(tmp_path))
    index.close()


def run(rt: ToolRuntime, name: str, args: dict, principal: Principal = ANONYMOUS) -> dict:
    return anyio.run(call_tool, ToolContext(principal, rt, mode="mcp"), name, args)


def test_backlinks_with_context_and_paging(garden: ToolRuntime) -> None:
    out = run(garden, "get_backlinks", {"vault": "garden", "path": "Compost.md"})
    assert [b["path"] for b in out["backlinks"]] == ["Beds.md", "Journal/2024.md"]
    assert (out["total"], out["truncated"], out["next_offset"]) == (2, False, None)
    beds = out["backlinks"][0]
    assert beds["count"] == 1 and beds["links"][0] == {
        "line": 2,
        "context": "Raised beds need [[Compost#Mix|compost]]. #soil",
        "subpath": "#Mix",
        "display": "compost",
        "kind": "wikilink",
        "embed": False,
        "key": None,
    }
    journal = out["backlinks"][1]
    assert journal["count"] == 2  # [[compost]] (case-insensitive) and [[Compost]]
    assert "sk-proj" not in str(journal) and "[REDACTED" in journal["links"][0]["context"]
    page = run(garden, "get_backlinks", {"vault": "garden", "path": "Compost.md", "limit": 1})
    assert [b["path"] for b in page["backlinks"]] == ["Beds.md"] and page["next_offset"] == 1 and page["truncated"]
    assert (
        run(garden, "get_backlinks", {"vault": "garden", "path": "img/bed.png"})["backlinks"][0]["path"] == "Gallery.md"
    )
    assert run(garden, "get_backlinks", {"vault": "garden", "path": "Orphan.md"})["total"] == 0


def test_unlinked_mentions_use_title_and_aliases_outside_links(garden: ToolRuntime) -> None:
    out = run(garden, "get_backlinks", {"vault": "garden", "path": "Compost.md", "unlinked": True})
    unlinked = {u["path"]: u for u in out["unlinked"]}
    # Worms names compost in plain text without linking it; Journal and Beds link it, so they are left out
    assert set(unlinked) == {"Tomatoes.md", "Worms.md"}
    assert unlinked["Tomatoes.md"]["count"] == 2  # "humus" (alias) and "Compost"; not "compostable"
    assert [m["line"] for m in unlinked["Tomatoes.md"]["mentions"]] == [1, 1]
    assert "Journal/2024.md" not in unlinked and "Beds.md" not in unlinked  # they link already


def test_read_file_reports_where_links_resolve(garden: ToolRuntime) -> None:
    out = run(garden, "read_file", {"vault": "garden", "path": "Worms.md"})
    assert [(lk["target"], lk["resolved"]) for lk in out["links"]] == [("Ghost page", None)]
    beds = run(garden, "read_file", {"vault": "garden", "path": "Beds.md"})
    assert [(lk["target"], lk["resolved"]) for lk in beds["links"]] == [
        ("Compost", "Compost.md"),
        ("Tomatoes", "Tomatoes.md"),
    ]
    assert beds["headings"] == [{"level": 1, "text": "Beds", "line": 1}]


def test_local_graph_depth_and_unresolved_nodes(garden: ToolRuntime) -> None:
    one = run(garden, "get_graph", {"vault": "garden", "path": "Worms.md"})
    assert one["scope"] == "local" and one["center"] == "Worms.md"
    nodes = {n["id"]: n for n in one["nodes"]}
    assert set(nodes) == {"Worms.md", "Compost.md", "Ghost page"}
    assert nodes["Ghost page"]["type"] == "unresolved" and nodes["Compost.md"]["depth"] == 1
    assert nodes["Ghost page"]["depth"] == 1
    assert {(e["source"], e["target"]) for e in one["edges"]} == {
        ("Compost.md", "Worms.md"),
        ("Worms.md", "Ghost page"),
    }
    two = run(garden, "get_graph", {"vault": "garden", "path": "Worms.md", "depth": 2})
    assert {n["id"] for n in two["nodes"]} >= {"Beds.md", "Journal/2024.md"}
    assert "Tomatoes.md" not in {n["id"] for n in two["nodes"]}  # three hops away
    tagged = run(garden, "get_graph", {"vault": "garden", "path": "Compost.md", "tag": "soil"})
    assert {n["id"] for n in tagged["nodes"]} == {"Compost.md", "Beds.md"}


def test_vault_graph_includes_orphans_and_is_bounded(garden: ToolRuntime) -> None:
    full = run(garden, "get_graph", {"vault": "garden", "scope": "vault"})
    ids = {n["id"] for n in full["nodes"]}
    assert {"Orphan.md", "Ghost page", "Tomatoes.md"} <= ids and "img/bed.png" not in ids
    assert full["total_nodes"] == len(ids) and not full["truncated"]
    assert {"source": "Journal/2024.md", "target": "Compost.md", "count": 2} in full["edges"]
    small = run(garden, "get_graph", {"vault": "garden", "scope": "vault", "limit": 2})
    assert len(small["nodes"]) == 2 and small["truncated"]
    assert {n["id"] for n in small["nodes"]} == {"Compost.md", "Beds.md"}  # the most linked
    folder = run(garden, "get_graph", {"vault": "garden", "path": "Journal"})
    assert folder["scope"] == "vault" and {n["id"] for n in folder["nodes"]} == {"Journal/2024.md"}


@pytest.mark.parametrize(
    ("name", "args", "code"),
    [
        ("get_backlinks", {"vault": "garden", "path": "Nope.md"}, "not_found"),
        ("get_backlinks", {"vault": "garden", "path": "../etc/passwd"}, "path_outside_vault"),
        ("get_backlinks", {"vault": "garden", "path": "Compost.md", "limit": 0}, "invalid_argument"),
        ("get_backlinks", {"vault": "nope", "path": "Compost.md"}, "not_found"),
        ("get_graph", {"vault": "garden", "path": "Nope.md", "scope": "local"}, "not_found"),
        ("get_graph", {"vault": "garden", "scope": "local"}, "not_found"),
        ("get_graph", {"vault": "garden", "scope": "galaxy"}, "invalid_argument"),
        ("get_graph", {"vault": "garden", "path": "Nowhere"}, "not_found"),  # a typo is not an empty graph
        ("get_graph", {"vault": "garden", "path": "Compost.md", "scope": "vault"}, "not_a_directory"),
        ("get_graph", {"vault": "garden", "path": "../x"}, "path_outside_vault"),
        ("get_graph", {"vault": "garden", "depth": 9}, "invalid_argument"),
        ("get_graph", {"vault": "garden", "limit": 100000}, "invalid_argument"),
    ],
)
def test_bad_input_gets_a_stable_code(garden: ToolRuntime, name: str, args: dict, code: str) -> None:
    with pytest.raises(ServiceError) as info:
        run(garden, name, args)
    assert info.value.code == code


def test_other_users_vault_is_denied(garden: ToolRuntime) -> None:
    bob = Principal(name="bob", is_admin=False, vaults=frozenset({"elsewhere"}), auth_kind="jwt")
    for name, args in (("get_backlinks", {"path": "Compost.md"}), ("get_graph", {})):
        with pytest.raises(ServiceError) as info:
            run(garden, name, {"vault": "garden", **args}, bob)
        assert info.value.code == "vault_access_denied"


def test_export_graph_is_the_whole_vault_for_the_web_app_only(garden: ToolRuntime, tmp_path: Path) -> None:
    web = ToolContext(ANONYMOUS, garden, mode="web")
    out = anyio.run(call_tool, web, "export_graph", {"vault": "garden"})
    notes, missing = out["notes"], out["unresolved"]
    assert notes == ["Beds.md", "Compost.md", "Gallery.md", "Journal/2024.md", "Orphan.md", "Tomatoes.md", "Worms.md"]
    assert missing == ["Ghost page"]  # a link to a note not created yet
    names = notes + missing
    pairs = {(names[s], names[t]) for s, t in zip(out["edges"][::2], out["edges"][1::2], strict=True)}
    assert {("Compost.md", "Beds.md"), ("Beds.md", "Compost.md"), ("Journal/2024.md", "Compost.md"),
            ("Worms.md", "Ghost page")} <= pairs  # fmt: skip
    assert not any("bed.png" in n for n in names) and len(pairs) == len(out["edges"]) // 2
    again = anyio.run(call_tool, web, "export_graph", {"vault": "garden"})
    assert again["version"] == out["version"]  # unchanged vault: same version (the REST ETag)
    (garden.workspace.vaults["garden"].root / "New.md").write_text("[[Orphan]]\n")
    garden.workspace.indexer.refresh_all()
    changed = anyio.run(call_tool, web, "export_graph", {"vault": "garden"})
    assert changed["version"] != out["version"] and "New.md" in changed["notes"]
    soil = anyio.run(call_tool, web, "export_graph", {"vault": "garden", "tag": "soil"})
    assert soil["notes"] == ["Beds.md", "Compost.md"] and soil["tag"] == "soil"
    with pytest.raises(ServiceError) as info:
        run(garden, "export_graph", {"vault": "garden"})  # never offered to a model (MCP here)
    assert info.value.code == "unknown_tool"
