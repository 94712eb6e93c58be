"""Issue 16, item 5, over MCP (official SDK client, the real app): a name holding a secret is suggested,
read and written by its redacted path, never spelled out; reads and confirmation tokens hold no plain hash of
a file's secrets (``domain/versions.py``, ``ConfirmationService.digest``)."""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp_types import PromptReference, ResourceTemplateReference
from support import SMALL_VAULT, write_tree

from obsigate.tools.confirm.store import sha256_json
from obsigate.tools.resources import FILE_TEMPLATE

pytestmark = pytest.mark.anyio

K = "AKIAQWERTYUIOPASDF23"
R = "[REDACTED:aws-access-key]"
WEAK = "---\ntitle: Router\n---\n# Router\nadmin password: Weak-pw1\n"


@pytest.fixture
def vaults(tmp_path: Path) -> dict[str, Path]:
    extra = {f"{K}/note.md": "# Folder note\nhello tidepool\n", "Router.md": WEAK}
    return {"notes": write_tree(tmp_path / "vaults" / "notes", {**SMALL_VAULT, **extra})}


async def call(client: Client, name: str, args: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(name, args)
    assert result.is_error is False, result.content
    return result.structured_content


def claims(token: str) -> dict[str, Any]:
    """A JWT's payload as any holder can read it (no key needed)."""
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


async def test_a_secret_name_is_suggested_read_and_found_redacted(gateway, vaults, era: str) -> None:
    template = ResourceTemplateReference(type="ref/resource", uri=FILE_TEMPLATE)
    async with gateway.client(gateway.tokens["alice"], era) as client:
        every = (await client.complete(template, {"name": "path", "value": ""}, {"name": "notes"})).completion
        probe = (await client.complete(template, {"name": "path", "value": "AKIA"}, {"name": "notes"})).completion
        folders = (await client.complete(PromptReference(type="ref/prompt", name="summarize-directory"),
                                         {"name": "path", "value": "[RED"}, {"vault": "notes"})).completion  # fmt: skip
        assert f"{R}/note.md" in every.values and not any(K in v for v in every.values)
        assert probe.values == [] and folders.values == [R]  # the key id is not a way to find the name

        read = await client.read_resource(f"vault://notes/{R}/note.md")  # the suggestion, sent back
        assert "hello tidepool" in read.contents[0].text
        listed = await call(client, "list_directory", {"vault": "notes", "path": R})
        assert [e["path"] for e in listed["entries"]] == [f"{R}/note.md"]
        note = await call(client, "read_file", {"vault": "notes", "path": f"{R}/note.md"})
        assert note["path"] == f"{R}/note.md" and "hello tidepool" in note["content"]
        prompt = await client.get_prompt("find-related", {"vault": "notes", "path": f"{R}/note.md"})
        assert K not in json.dumps(prompt.model_dump(mode="json")) and R in prompt.messages[0].content.text

        proposal = await call(client, "propose_edit_file", {"vault": "notes", "path": f"{R}/note.md",
                                                           "find": "hello", "replace": "goodbye"})  # fmt: skip
        assert [d["path"] for d in proposal["diffs"]] == [f"{R}/note.md"] and K not in json.dumps(proposal)
        done = await call(client, "apply_edit_file", {"confirmation_token": proposal["confirmation_token"]})
        assert K not in json.dumps(done)
    assert (vaults["notes"] / K / "note.md").read_text() == "# Folder note\ngoodbye tidepool\n"


async def test_reads_and_tokens_hold_no_plain_hash_of_a_secret(gateway, vaults) -> None:
    """With ``password: ?`` the only unknown, a SHA-256 of the file (read_file's old ``sha256``, or a token's
    claims over it) lets a weak password be found offline; nothing a client gets may be such a hash."""
    raw = (vaults["notes"] / "Router.md").read_bytes()
    plain = hashlib.sha256(raw).hexdigest()
    async with gateway.client(gateway.tokens["alice"], "auto") as client:
        note = await call(client, "read_file", {"vault": "notes", "path": "Router.md"})
        source = await call(client, "read_file_raw", {"vault": "notes", "path": "Router.md"})
        args = {"vault": "notes", "path": "Router.md", "find": "# Router", "replace": "# Home router"}
        proposal = await call(client, "propose_edit_file", args)
        backups = await call(client, "list_backups", {"vault": "notes", "path": "Router.md"})
        token = claims(proposal["confirmation_token"])
        assert "Weak-pw1" not in json.dumps([note, source, proposal])
        guesses = {
            plain,
            sha256_json({"Router.md": plain}),
            sha256_json({"Router.md": note["version"]}),
            sha256_json({k: v for k, v in args.items()}),
            sha256_json(args),
        }
        shown = json.dumps([note, source, proposal, backups, token])
        assert not any(g in shown for g in guesses)
        assert source["sha256"] == hashlib.sha256(source["content"].encode()).hexdigest() == note["sha256"]

        (vaults["notes"] / "Router.md").write_bytes(raw.replace(b"Weak-pw1", b"Weak-pw2"))  # only the secret
        assert (await call(client, "read_file", {"vault": "notes", "path": "Router.md"}))["version"] != note["version"]
        refused = await client.call_tool("apply_edit_file", {"confirmation_token": proposal["confirmation_token"]})
        assert refused.is_error and refused.meta["obsigate/error"]["code"] == "conflict"
    assert (vaults["notes"] / "Router.md").read_bytes() == raw.replace(b"Weak-pw1", b"Weak-pw2")
