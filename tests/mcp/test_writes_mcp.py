"""The real write catalog over MCP (official SDK client, both eras): propose, review, apply; links kept on
rename; conflicts; replay; delete then restore from the backup."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client

from obsigate.mcp.server import ERROR_META_KEY

pytestmark = pytest.mark.anyio


async def call(client: Client, name: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, args)
    assert result.is_error is False, result.content
    return result.structured_content


async def error(client: Client, name: str, args: dict[str, Any]) -> str:
    result = await client.call_tool(name, args)
    assert result.is_error is True
    return result.meta[ERROR_META_KEY]["code"]


async def test_rename_propose_review_apply_keeps_links(gateway, vaults, era: str) -> None:
    root = vaults["notes"]
    async with gateway.client(gateway.tokens["alice"], era) as client:
        proposal = await call(
            client, "propose_rename_file", {"vault": "notes", "path": "Ideas.md", "new_name": "Thoughts"}
        )
        assert proposal["status"] == "proposed" and "Ideas.md → Thoughts.md" in proposal["summary"]
        home = next(d for d in proposal["diffs"] if d["path"] == "Home.md")
        assert "-Welcome. See [[Projects/Plan|the plan]] and [[Ideas]]." in home["diff"] and "+" in home["diff"]
        assert (root / "Ideas.md").exists()  # a proposal changes nothing
        done = await call(client, "apply_rename_file", {"confirmation_token": proposal["confirmation_token"]})
        assert done["details"]["links_updated"] == {"Home.md": 1}
        assert "[[Thoughts]]" in (root / "Home.md").read_text() and not (root / "Ideas.md").exists()
        assert (
            await error(client, "apply_rename_file", {"confirmation_token": proposal["confirmation_token"]})
            == "token_reused"
        )
        back = await call(client, "get_backlinks", {"vault": "notes", "path": "Thoughts.md"})
        assert [b["path"] for b in back["backlinks"]] == ["Home.md"]
    records = [r for r in gateway.runtime.journal.tail(20) if r["tool"].endswith("rename_file")]
    assert [r["action"] for r in records][-3:] == ["ai_tool_propose", "ai_tool_apply", "ai_tool_apply"]
    assert proposal["confirmation_token"] not in json.dumps(records)  # the key is logged as "<withheld>"


async def test_an_external_edit_between_propose_and_apply_is_a_conflict(gateway, vaults) -> None:
    """An edit depends on the text it was proposed against: a change meanwhile refuses it."""
    note = vaults["notes"] / "Ideas.md"
    async with gateway.client(gateway.tokens["alice"], "2026-07-28") as client:
        args = {"vault": "notes", "path": "Ideas.md", "content": "# Ideas\nmine\n"}
        proposal = await call(client, "propose_edit_file", args)
        note.write_text("# Ideas\nrewritten by the user meanwhile\n")
        assert (
            await error(client, "apply_edit_file", {"confirmation_token": proposal["confirmation_token"]}) == "conflict"
        )
    assert note.read_text() == "# Ideas\nrewritten by the user meanwhile\n"


async def test_an_append_re_bases_on_what_was_written_meanwhile(gateway, vaults) -> None:
    """An append commutes with other writes (issue 9): it lands after the external edit instead of failing."""
    note = vaults["notes"] / "Ideas.md"
    async with gateway.client(gateway.tokens["alice"], "2026-07-28") as client:
        proposal = await call(
            client, "propose_append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "- more\n"}
        )
        note.write_text("# Ideas\nrewritten by the user meanwhile\n")
        applied = await call(client, "apply_append_to_file", {"confirmation_token": proposal["confirmation_token"]})
        assert applied["changes"] == [{"path": "Ideas.md", "action": "modify", "to": None}]
        created = await call(client, "propose_create_file", {"vault": "notes", "path": "Late.md", "content": "mine\n"})
        (vaults["notes"] / "Late.md").write_text("theirs\n")
        code = await error(client, "apply_create_file", {"confirmation_token": created["confirmation_token"]})
    assert note.read_text() == "# Ideas\nrewritten by the user meanwhile\n- more\n"
    assert code == "exists" and (vaults["notes"] / "Late.md").read_text() == "theirs\n"


async def test_raw_write_tools_are_not_callable_over_mcp(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "2026-07-28") as client:
        code = await error(client, "create_file", {"vault": "notes", "path": "x.md", "content": "x"})
        assert code == "confirmation_required"


async def test_delete_then_restore_from_the_backup(gateway, vaults) -> None:
    root = vaults["notes"]
    original = (root / "Projects/Plan.md").read_bytes()
    async with gateway.client(gateway.tokens["alice"], "legacy") as client:
        p = await call(client, "propose_delete_file", {"vault": "notes", "path": "Projects/Plan.md"})
        deleted = await call(client, "apply_delete_file", {"confirmation_token": p["confirmation_token"]})
        assert not (root / "Projects/Plan.md").exists()
        versions = (await call(client, "list_backups", {"vault": "notes", "path": "Projects/Plan.md"}))["versions"]
        assert versions[0]["version"] == deleted["backups"][0]["version"] and versions[0]["deleted"] is True
        p = await call(
            client,
            "propose_restore_backup",
            {"vault": "notes", "path": "Projects/Plan.md", "version": versions[0]["version"]},
        )
        await call(client, "apply_restore_backup", {"confirmation_token": p["confirmation_token"]})
    assert (root / "Projects/Plan.md").read_bytes() == original


async def test_another_users_vault_cannot_be_proposed(gateway) -> None:
    async with gateway.client(gateway.tokens["bob"], "2026-07-28") as client:
        code = await error(client, "propose_create_file", {"vault": "notes", "path": "x.md", "content": "x"})
        assert code == "vault_access_denied"


async def test_a_deleted_folder_is_found_again_without_knowing_its_paths(gateway, vaults) -> None:
    root = vaults["notes"]
    async with gateway.client(gateway.tokens["alice"], "2026-07-28") as client:
        p = await call(client, "propose_delete_directory", {"vault": "notes", "path": "Projects", "recursive": True})
        await call(client, "apply_delete_directory", {"confirmation_token": p["confirmation_token"]})
        assert not (root / "Projects").exists()
        listing = await call(client, "list_backups", {"vault": "notes"})
        deleted = {f["path"]: f for f in listing["files"] if f["deleted"]}
        assert set(deleted) == {"Projects/Plan.md", "Projects/Secret.md"} and listing["path"] is None
        plan = deleted["Projects/Plan.md"]
        p = await call(
            client, "propose_restore_backup", {"vault": "notes", "path": "Projects/Plan.md", "version": plan["latest"]}
        )
        await call(client, "apply_restore_backup", {"confirmation_token": p["confirmation_token"]})
    assert "tidepool buoy" in (root / "Projects/Plan.md").read_text()
