"""A 10k-file vault root: list_directory stays a bounded overview; list_all_files pages from the index."""

from __future__ import annotations

import json
from collections.abc import Iterator

import anyio
import pytest

from obsigate.auth.principal import ANONYMOUS
from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.storage.tool_journal import ToolJournal
from obsigate.domain.vault import Vault
from obsigate.services.workspace import Workspace
from obsigate.tools.api import ToolContext, call_tool
from obsigate.tools.context import ToolRuntime


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolRuntime]:
    tmp = tmp_path_factory.mktemp("big")
    root = tmp / "vault"
    (root / "deep" / "er").mkdir(parents=True)
    for i in range(10_000):
        (root / f"n{i:05d}.md").write_text(f"note {i}\n")
    for i in range(30):
        (root / "deep" / "er" / f"d{i}.md").write_text("deep\n")
    (root / "deep" / "pic.png").write_bytes(b"png")
    vaults = {"big": Vault("big", root)}
    index = VaultIndex(tmp / "index.sqlite3")
    Indexer(index, vaults).refresh_all()
    yield ToolRuntime(workspace=Workspace(vaults=vaults, index=index), journal=ToolJournal(tmp))
    index.close()


def run(rt: ToolRuntime, name: str, args: dict) -> dict:
    return anyio.run(call_tool, ToolContext(ANONYMOUS, rt, mode="mcp"), name, args)


def test_root_listing_is_a_bounded_overview(big: ToolRuntime) -> None:
    out = run(big, "list_directory", {"vault": "big"})
    assert len(out["entries"]) == 200 and out["total"] == 10_001 and out["truncated"] and out["next_offset"] == 200
    assert out["summary"] == {"dirs": 1, "files": 10_000, "notes": 10_000}
    assert {k: v for k, v in out["entries"][0].items() if v is not None} == {
        "name": "deep",
        "path": "deep",
        "type": "dir",
        "files": 31,
        "notes": 30,
    }
    assert len(json.dumps(out)) < big.workspace.limits.budget_chars
    last = run(big, "list_directory", {"vault": "big", "offset": 10_000})
    assert [e["name"] for e in last["entries"]] == ["n09999.md"] and last["next_offset"] is None


def test_list_all_files_pages_in_path_order(big: ToolRuntime) -> None:
    first = run(big, "list_all_files", {"vault": "big", "limit": 3})
    assert [f["path"] for f in first["files"]] == ["deep/er/d0.md", "deep/er/d1.md", "deep/er/d10.md"]
    assert first["total"] == 10_031 and first["next_offset"] == 3
    flat = run(big, "list_all_files", {"vault": "big", "dir": "deep", "recursive": False})
    assert [f["path"] for f in flat["files"]] == ["deep/pic.png"]
