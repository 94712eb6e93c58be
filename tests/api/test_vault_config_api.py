"""GET /api/vault/{vault}/config over a real server on loopback: a vault's .obsidian/ settings with Obsidian's
defaults, malformed files named not fatal, a symlinked file refused, permissions."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx2
from support import alice_token, write_tree

from obsigate.domain.obsidian_config import parse_config

KEPANO = Path("../shared/vaults/kepano-obsidian")


def test_defaults_without_a_config_folder() -> None:
    cfg = parse_config({})
    assert cfg["app"]["strict_line_breaks"] is False and cfg["app"]["new_link_format"] == "shortest"
    assert cfg["daily_notes"] == {"folder": "", "format": "YYYY-MM-DD", "template": "", "autorun": False}
    assert cfg["templates"] == {"folder": "", "date_format": "YYYY-MM-DD", "time_format": "HH:mm"}
    assert cfg["bookmarks"] == [] and cfg["problems"] == []


def test_wrong_types_fall_back_and_are_named() -> None:
    cfg = parse_config({
        "app.json": b'{"strictLineBreaks": "yes", "newLinkFormat": "weird", "showFrontmatter": false}',
        "daily-notes.json": b"{not json",
        "bookmarks.json": json.dumps({"items": [{"type": "file"}, {"type": "nope"}, {"type": "search", "query": "x"}]}).encode(),
        "graph.json": b'{"colorGroups": [{"query": "tag:#a", "color": {"a": 1, "rgb": 16711680}}]}',
    })  # fmt: skip
    assert cfg["app"]["strict_line_breaks"] is False and cfg["app"]["new_link_format"] == "shortest"
    assert cfg["app"]["properties_in_document"] == "hidden"  # the pre-1.4 boolean still counts
    assert cfg["daily_notes"]["format"] == "YYYY-MM-DD"
    assert cfg["bookmarks"] == [{"type": "search", "query": "x"}]
    assert cfg["graph_groups"] == [{"query": "tag:#a", "color": "#ff0000"}]
    text = "\n".join(cfg["problems"])
    assert "strictLineBreaks" in text and "newLinkFormat" in text and "daily-notes.json: not valid JSON" in text
    assert "file bookmark without a path" in text


def test_bookmarks_outside_the_vault_are_dropped() -> None:
    items = [
        {"type": "file", "path": p} for p in ("../../etc/passwd", "/etc/passwd", ".obsidian/app.json", "a\\b", "a//b")
    ]
    cfg = parse_config(
        {"bookmarks.json": json.dumps({"items": [*items, {"type": "folder", "path": "Notes/Sub"}]}).encode()}
    )
    assert cfg["bookmarks"] == [{"type": "folder", "path": "Notes/Sub"}]
    assert sum("outside the vault" in p for p in cfg["problems"]) == 5


def test_config_route(live_server, tmp_path: Path) -> None:
    vault = write_tree(tmp_path / "v", {
        "Home.md": "# Home\n",
        ".obsidian/app.json": '{"strictLineBreaks": true, "newLinkFormat": "relative"}',
        ".obsidian/daily-notes.json": '{"folder": "/Journal/", "format": "YYYY/MM/YYYY-MM-DD", "template": "T/Daily.md"}',
        ".obsidian/templates.json": '{"folder": "T"}',
        ".obsidian/bookmarks.json": json.dumps({"items": [{"type": "group", "title": "G", "items": [
            {"type": "file", "path": "Home.md", "subpath": "#Home"}]}]}),
    })  # fmt: skip
    os.symlink("/etc/passwd", vault / ".obsidian" / "types.json")
    other = write_tree(tmp_path / "other", {"Private.md": "# P\n"})
    data = tmp_path / "data"
    alice = alice_token(data)
    server = live_server({"notes": vault, "other": other}, data_dir=data)
    auth = {"Authorization": f"Bearer {alice}"}

    assert httpx2.get(f"{server.url}/api/vault/notes/config").status_code == 401
    cfg = httpx2.get(f"{server.url}/api/vault/notes/config", headers=auth).json()
    assert cfg["vault"] == "notes" and cfg["config_dir"] == ".obsidian"
    assert cfg["app"]["strict_line_breaks"] is True and cfg["app"]["new_link_format"] == "relative"
    assert cfg["daily_notes"] == {
        "folder": "Journal",
        "format": "YYYY/MM/YYYY-MM-DD",
        "template": "T/Daily",
        "autorun": False,
    }
    assert cfg["templates"]["folder"] == "T"
    assert cfg["bookmarks"][0]["items"] == [{"type": "file", "path": "Home.md", "subpath": "#Home"}]
    assert cfg["property_types"] == {} and cfg["problems"] == ["types.json: a symlink, ignored"]

    denied = httpx2.get(f"{server.url}/api/vault/other/config", headers=auth)
    assert denied.status_code == 403 and denied.json()["code"] == "vault_access_denied"
    assert httpx2.get(f"{server.url}/api/vault/nope/config", headers=auth).status_code in (403, 404)


def test_kepano_vault_settings() -> None:
    if not KEPANO.is_dir():
        import pytest

        pytest.skip("../shared/vaults/kepano-obsidian is absent")
    from obsigate.domain.vault import Vault
    from obsigate.services.vault_config import vault_config

    cfg = vault_config(Vault("kepano", KEPANO))
    assert cfg.problems == []
    assert cfg.templates["folder"] == "Templates"
    assert cfg.daily_notes["folder"] == "Daily"
