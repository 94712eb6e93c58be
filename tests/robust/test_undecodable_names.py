"""File names that are not valid UTF-8 (``na\\xffme.md``, legal on Linux) never crash anything: every listing
skips them (the one rule, ``is_servable_name``), a result can never carry the lone surrogate Python decodes them
to, the stdio server answers on, and the watcher keeps using notify (never looking through a symlink), whether
such a name sits in the vault or behind a symlink out of it."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp.client.stdio import StdioServerParameters, stdio_client
from support import eventually, write_tree

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.text import has_lone_surrogate
from obsigate.domain.vault import Vault, is_servable_name, walk

BAD = os.fsdecode(b"na\xffme.md")  # 'na\udcffme.md': what os.listdir gives for the bytes
BAD_DIR = os.fsdecode(b"dir\xfe")
FILES = {"Home.md": "# Home\ntidepool\n", "Sub/Plan.md": "# Plan\n"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def bad_vault(root: Path) -> Path:
    """A vault holding an undecodable note, an undecodable folder (with a decodable note in it) and one in Sub."""
    write_tree(root, FILES)
    (root / BAD).write_text("x")
    (root / BAD_DIR).mkdir()
    (root / BAD_DIR / "inside.md").write_text("# hidden by its folder\n")
    (root / "Sub" / BAD).write_text("y")
    return root


def test_the_rule_and_the_walk_skip_undecodable_names(tmp_path: Path) -> None:
    vault = Vault("v", bad_vault(tmp_path / "v"))
    assert not is_servable_name(BAD) and not is_servable_name(BAD_DIR) and is_servable_name("naïve.md")
    assert sorted(e.path for e, _ in walk(vault)) == ["Home.md", "Sub/Plan.md"]


def test_browse_and_files_routes_skip_undecodable_names(live_server, tmp_path: Path) -> None:
    server = live_server({"v": bad_vault(tmp_path / "v")}, auth_enabled=False)
    root = httpx2.get(f"{server.url}/api/browse/v")
    assert root.status_code == 200, root.text
    assert [e["name"] for e in root.json()["entries"]] == ["Sub", "Home.md"]
    assert root.json()["summary"] == {"dirs": 1, "files": 1, "notes": 1}
    sub = httpx2.get(f"{server.url}/api/browse/v", params={"path": "Sub"})
    assert sub.status_code == 200 and [e["path"] for e in sub.json()["entries"]] == ["Sub/Plan.md"]
    files = httpx2.get(f"{server.url}/api/vault/v/files")
    assert sorted(f["path"] for f in files.json()["files"]) == ["Home.md", "Sub/Plan.md"]


@pytest.mark.anyio
async def test_mcp_over_http_lists_a_folder_holding_an_undecodable_name(live_server, tmp_path: Path) -> None:
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    server = live_server({"v": bad_vault(tmp_path / "v")}, auth_enabled=False)
    with anyio.fail_after(20):
        async with (
            httpx2.AsyncClient() as http,
            Client(streamable_http_client(f"{server.url}/mcp", http_client=http), mode="legacy") as client,
        ):
            result = await client.call_tool("list_directory", {"vault": "v"})
            assert result.is_error is False
            assert [e["name"] for e in result.structured_content["entries"]] == ["Sub", "Home.md"]


@pytest.mark.anyio
async def test_stdio_lists_a_folder_holding_an_undecodable_name(tmp_path: Path) -> None:
    from mcp import Client

    root = bad_vault(tmp_path / "v")
    args = ["-m", "obsigate", "mcp", "stdio", "--vault", f"v={root}", "--no-auth", "--data-dir", str(tmp_path / "d")]
    params = StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ))
    with anyio.fail_after(30), open(os.devnull, "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode="legacy") as client:
            for path in ("", "Sub"):
                result = await client.call_tool("list_directory", {"vault": "v", "path": path})
                assert result.is_error is False
                names = [e["name"] for e in result.structured_content["entries"]]
                assert names == (["Sub", "Home.md"] if not path else ["Plan.md"])
            found = await client.call_tool("list_all_files", {"vault": "v"})  # the server is still there
            assert not has_lone_surrogate(found.structured_content)


def hits(index: VaultIndex, q: str) -> list[str]:
    return [h.path for h in index.search(q, vaults=["v"]).hits]


@pytest.mark.anyio
async def test_watcher_keeps_notify_with_undecodable_names(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / BAD).write_text("out")
    root = bad_vault(tmp_path / "v")
    (root / "link").symlink_to(outside, target_is_directory=True)
    index = VaultIndex(tmp_path / "data" / "index.sqlite3", commit_interval=0.1)
    ix = Indexer(index, {"v": Vault("v", root)}, debounce_ms=50, workers=0)
    caplog.set_level(logging.INFO, logger="obsigate.domain.index.watcher")
    await ix.start()
    try:
        await eventually(lambda: ix.state == "ready", 20, "ready")

        def decode_lines() -> list[logging.LogRecord]:
            return [r for r in caplog.records if "not valid UTF-8 (" in r.getMessage()]

        # behind the symlink: never watched, so notify never even sees the undecodable name change there
        (outside / BAD).write_text("changed")
        (outside / "Seen.md").write_text("never indexed: behind a symlink\n")
        (root / "Home.md").write_text("# Home\nnow about narwhals\n")
        await eventually(lambda: hits(index, "narwhals") == ["Home.md"], 5, "edit")
        assert decode_lines() == []
        # inside: notify reports it (and drops its batch); the watcher goes on with notify, the edit is kept
        (root / BAD).write_text("changed")
        (root / "Sub" / "Plan.md").write_text("# Plan\nthe axolotl plan\n")
        await eventually(lambda: hits(index, "axolotl") == ["Sub/Plan.md"], 5, "edit beside a bad name's change")
        await eventually(lambda: len(decode_lines()) > 0, 5, "the bad name's change reached notify")
        # a new folder is watched too
        (root / "New").mkdir()
        await anyio.sleep(0.3)
        (root / "New" / "Okapi.md").write_text("# the okapi\n")
        await eventually(lambda: hits(index, "okapi") == ["New/Okapi.md"], 5, "note in a new folder")
        (root / "New" / "Okapi.md").write_text("# the quetzal\n")
        await eventually(lambda: hits(index, "quetzal") == ["New/Okapi.md"], 5, "edit in a new folder")
        assert sorted(index.file_states("v")) == ["Home.md", "New/Okapi.md", "Sub/Plan.md"]
        assert "error" not in ix.status()
    finally:
        await ix.stop()
        index.close()
    assert not [r for r in caplog.records if "file watcher failed" in r.getMessage()]  # no fallback to polling
