"""MCP prompts and completion against the real app (``create_app``), driven by the official ``mcp.Client``
over HTTP in both protocol eras (in-process ``ASGITransport``), and once over a real loopback socket."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client
from mcp_types import INVALID_PARAMS, PromptReference, ResourceTemplateReference, TextContent
from support import free_port, uvicorn_thread, write_tree

from obsigate.mcp import completion

pytestmark = pytest.mark.anyio

BASE = "http://127.0.0.1:8765"  # what the ``make_app`` apps accept as Host (see conftest)
MCP_URL = f"{BASE}/mcp"
PROMPT_NAMES = ["summarize-directory", "generate-note", "find-related"]
FILE_TEMPLATE = "vault://{name}/{+path}"
#: Words of SMALL_VAULT's note bodies and of the other vault: a prompt must never carry them.
CONTENT_WORDS = ("Welcome", "tidepool", "buoy", "sk-proj", "marmalade", "Credentials")


def prompt(name: str) -> PromptReference:
    return PromptReference(type="ref/prompt", name=name)


def text_of(result: Any) -> str:
    assert len(result.messages) == 1 and result.messages[0].role == "user"
    content = result.messages[0].content
    assert isinstance(content, TextContent)
    return content.text


def tools_named(text: str) -> set[str]:
    """Every `tool_name` (backticked, with or without arguments) the prompt names, result fields aside."""
    return set(re.findall(r"`([a-z]+(?:_[a-z]+)+)[ `]", text)) - {"next_offset"}


async def refused(call: Any) -> Any:
    """Run ``call()``, expect a JSON-RPC -32602 error and return its ``error``."""
    with pytest.raises(MCPError) as info:
        await call()
    assert info.value.error.code == INVALID_PARAMS
    return info.value.error


# --- prompts/list ----------------------------------------------------------------------------------


async def test_prompts_list_and_capabilities(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        listed = (await client.list_prompts()).prompts
        caps = client.server_capabilities
    assert caps.prompts is not None and caps.completions is not None
    assert [p.name for p in listed] == PROMPT_NAMES
    args = {p.name: [(a.name, a.required) for a in p.arguments or []] for p in listed}
    assert args == {
        "summarize-directory": [("vault", True), ("path", False)],
        "generate-note": [("vault", True), ("topic", True), ("folder", False)],
        "find-related": [("vault", True), ("path", True)],
    }
    assert all(p.title and p.description for p in listed)


async def test_user_without_vaults_gets_no_prompts(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["carol"], era) as client:
        assert (await client.list_prompts()).prompts == []
        error = await refused(lambda: client.get_prompt("find-related", {"vault": "notes", "path": "Home.md"}))
    assert error.data["code"] == "vault_access_denied"


async def test_prompts_list_rejects_a_cursor(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        await refused(lambda: client.list_prompts(cursor="bogus", cache_mode="bypass"))


# --- prompts/get -----------------------------------------------------------------------------------


async def test_summarize_directory(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        folder = await client.get_prompt("summarize-directory", {"vault": "notes", "path": "Projects/"})
        root = await client.get_prompt("summarize-directory", {"vault": "notes"})
    text = text_of(folder)
    assert '`list_directory {"vault": "notes", "path": "Projects"}`' in text  # the path comes back normalised
    assert "read_file" in text and "Projects/Plan.md" not in text  # it names tools, not the folder's notes
    assert '`list_directory {"vault": "notes", "path": ""}`' in text_of(root) and "root folder" in text_of(root)
    assert folder.description


async def test_generate_note(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        new_folder = await client.get_prompt(
            "generate-note", {"vault": "notes", "topic": 'Buoy "v2" design', "folder": "Projects/Hardware"}
        )
        no_folder = await client.get_prompt("generate-note", {"vault": "notes", "topic": "sensors"})
        error = await refused(
            lambda: client.get_prompt("generate-note", {"vault": "notes", "topic": "x", "folder": "Home.md"})
        )
    text = text_of(new_folder)
    assert json.dumps('Buoy "v2" design') in text  # the user's words, JSON-quoted
    assert '"Projects/Hardware" (a new folder)' in text
    assert '`list_directory {"vault": "notes", "path": "Projects"}`' in text  # the part that exists
    assert {"search_fulltext", "search_paths", "suggest_tags", "list_directory"} <= tools_named(text)
    assert "fitting place" in text_of(no_folder)
    assert error.data["code"] == "not_a_directory"


async def test_find_related(gateway, era: str) -> None:
    has_backlinks = gateway.runtime.registry.get("get_backlinks") is not None
    async with gateway.client(gateway.tokens["alice"], era) as client:
        result = await client.get_prompt("find-related", {"vault": "notes", "path": "Projects/Plan.md"})
    text = text_of(result)
    assert '`read_file {"vault": "notes", "path": "Projects/Plan.md"}`' in text
    assert '`search_paths {"q": "Plan", "vault": "notes"}`' in text
    if has_backlinks:
        assert '`get_backlinks {"vault": "notes", "path": "Projects/Plan.md"' in text
    else:  # until get_backlinks ships, mentions by name stand in for backlinks
        assert "get_backlinks" not in text and '`search_fulltext {"q": "Plan", "vault": "notes"}`' in text


async def test_prompts_name_only_registered_tools_and_embed_no_content(gateway) -> None:
    registered = {spec.name for spec in gateway.runtime.registry}
    calls = [
        ("summarize-directory", {"vault": "notes", "path": "Projects"}),
        ("generate-note", {"vault": "notes", "topic": "buoy sensors", "folder": "Projects"}),
        ("find-related", {"vault": "notes", "path": "Projects/Secret.md"}),
    ]
    async with gateway.client(gateway.tokens["alice"], "2026-07-28") as client:
        for name, args in calls:
            text = text_of(await client.get_prompt(name, args))
            named = tools_named(text)
            assert named and named <= registered, (name, named - registered)
            assert not [w for w in CONTENT_WORDS if w.lower() in text.lower() and w.lower() not in json.dumps(args)]


@pytest.mark.parametrize(
    ("name", "args", "code"),
    [
        ("find-related", {"vault": "other", "path": "Private.md"}, "vault_access_denied"),
        ("summarize-directory", {"vault": "other"}, "vault_access_denied"),
        ("generate-note", {"vault": "no-such-vault", "topic": "x"}, "vault_access_denied"),
        ("find-related", {"vault": "notes", "path": "../other/Private.md"}, "path_outside_vault"),
        ("find-related", {"vault": "notes", "path": ".obsidian/app.json"}, "path_outside_vault"),
        ("summarize-directory", {"vault": "notes", "path": "/etc"}, "path_outside_vault"),
        ("generate-note", {"vault": "notes", "topic": "x", "folder": "../../tmp"}, "path_outside_vault"),
        ("find-related", {"vault": "notes", "path": "Missing.md"}, "not_found"),
        ("find-related", {"vault": "notes", "path": "Projects"}, "is_a_directory"),
        ("summarize-directory", {"vault": "notes", "path": "Nowhere"}, "not_found"),
        ("summarize-directory", {"vault": "notes", "path": "Home.md"}, "not_a_directory"),
        ("find-related", {"vault": "notes"}, "invalid_argument"),
        ("generate-note", {"vault": "notes", "topic": "   "}, "invalid_argument"),
        ("generate-note", {"vault": "notes", "topic": "x" * 501}, "invalid_argument"),
        ("find-related", {"path": "Home.md"}, "invalid_argument"),
        ("find-related", {"vault": "notes", "path": "Home.md", "depth": "2"}, "invalid_argument"),
    ],
)
async def test_prompt_refusals(gateway, era: str, name: str, args: dict[str, str], code: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        error = await refused(lambda: client.get_prompt(name, args))
    assert error.data["code"] == code and error.message.startswith(f"{code}: ")
    assert error.data["prompt"] == name
    assert "marmalade" not in error.message and "config" not in json.dumps(error.data)


async def test_unknown_prompt(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        error = await refused(lambda: client.get_prompt("delete-everything", {}))
    assert error.data == {"code": "unknown_prompt"} and "delete-everything" in error.message


async def test_grant_change_applies_inside_an_open_legacy_session(gateway) -> None:
    args = {"vault": "notes", "path": "Home.md"}
    async with gateway.client(gateway.tokens["alice"], "legacy") as client:
        assert text_of(await client.get_prompt("find-related", args))
        gateway.auth.users.set_vaults("alice", ["other"])
        error = await refused(lambda: client.get_prompt("find-related", args))
        assert error.data["code"] == "vault_access_denied"
        values = (await client.complete(prompt("find-related"), {"name": "vault", "value": ""})).completion.values
        assert values == ["other"]


async def test_prompt_gets_are_audited_without_the_topic(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "auto") as client:
        await client.get_prompt("generate-note", {"vault": "notes", "topic": "my secret plan"})
        with pytest.raises(MCPError):
            await client.get_prompt("find-related", {"vault": "other", "path": "Private.md"})
    records = [r for r in gateway.runtime.journal.tail(10) if r["tool"] == "prompts/get"]
    assert [(r["action"], r["user"], r["vault"], r["result"]) for r in records] == [
        ("mcp_prompt_get", "alice", "notes", "ok"),
        ("mcp_prompt_get", "alice", "other", "vault_access_denied"),
    ]
    assert records[0]["args"] == {"name": "generate-note", "vault": "notes", "topic": "<14 chars>"}
    assert "my secret plan" not in json.dumps(records)


# --- completion/complete ---------------------------------------------------------------------------


async def complete(client: Client, ref: Any, name: str, value: str, context: dict[str, str] | None = None) -> Any:
    return (await client.complete(ref, {"name": name, "value": value}, context)).completion


async def test_vault_completion_is_limited_to_the_callers_vaults(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        mine = await complete(client, prompt("summarize-directory"), "vault", "")
        other = await complete(client, prompt("summarize-directory"), "vault", "ot")
    assert (mine.values, mine.total, mine.has_more) == (["notes"], 1, False)
    assert other.values == [] and other.total == 0  # "other" exists, but not for alice


async def test_vault_completion_with_every_vault(open_gateway, era: str) -> None:
    async with open_gateway.client(None, era) as client:
        every = await complete(client, prompt("find-related"), "vault", "")
        by_prefix = await complete(client, prompt("find-related"), "vault", "OT")
        template = await complete(
            client, ResourceTemplateReference(type="ref/resource", uri=FILE_TEMPLATE), "name", "n"
        )
    assert every.values == ["notes", "other"] and by_prefix.values == ["other"] and template.values == ["notes"]


async def test_path_completion_by_argument_kind(gateway, era: str) -> None:
    ctx = {"vault": "notes"}
    async with gateway.client(gateway.tokens["alice"], era) as client:
        folders = await complete(client, prompt("summarize-directory"), "path", "", ctx)
        proj = await complete(client, prompt("summarize-directory"), "path", "pro", ctx)
        note_folder = await complete(client, prompt("generate-note"), "folder", "Att", ctx)
        notes = await complete(client, prompt("find-related"), "path", "", ctx)
        by_name = await complete(client, prompt("find-related"), "path", "plan", ctx)
        fuzzy = await complete(client, prompt("find-related"), "path", "prj scr", ctx)
        files = await complete(
            client, ResourceTemplateReference(type="ref/resource", uri=FILE_TEMPLATE), "path", "a", {"name": "notes"}
        )
        hidden = await complete(client, prompt("find-related"), "path", ".obs", ctx)
        topic = await complete(client, prompt("generate-note"), "topic", "bu", ctx)
    assert folders.values == ["Attachments", "Projects"]
    assert proj.values == ["Projects"]
    assert note_folder.values == ["Attachments"]
    assert notes.values == ["Home.md", "Ideas.md", "Projects/Plan.md", "Projects/Secret.md"]  # notes only
    assert by_name.values == ["Projects/Plan.md"]
    assert fuzzy.values == ["Projects/Secret.md"]
    assert files.values == ["Attachments/pic.png"]  # the template completes any file
    assert hidden.values == [] and topic.values == []


async def test_path_completion_needs_an_accessible_vault(gateway) -> None:
    async with gateway.client(gateway.tokens["alice"], "auto") as client:
        only_vault = await complete(client, prompt("find-related"), "path", "Home")  # alice has one vault
        foreign = await complete(client, prompt("find-related"), "path", "", {"vault": "other"})
        ghost = await complete(client, prompt("find-related"), "path", "", {"vault": "ghost"})
    assert only_vault.values == ["Home.md"]
    assert foreign.values == [] and ghost.values == [] and foreign.total == 0  # no leak, no confirmation


async def test_path_completion_with_two_vaults_needs_a_choice(open_gateway) -> None:
    async with open_gateway.client(None, "auto") as client:
        ambiguous = await complete(client, prompt("find-related"), "path", "")  # two vaults, none chosen
        chosen = await complete(client, prompt("find-related"), "path", "", {"vault": "other"})
    assert ambiguous.values == [] and chosen.values == ["Private.md"]


async def test_completion_refusals(gateway, era: str) -> None:
    async with gateway.client(gateway.tokens["alice"], era) as client:
        unknown_prompt = await refused(lambda: complete(client, prompt("nope"), "vault", ""))
        unknown_arg = await refused(lambda: complete(client, prompt("find-related"), "topic", ""))
        unknown_template = await refused(
            lambda: complete(client, ResourceTemplateReference(type="ref/resource", uri="file:///{path}"), "path", "")
        )
    assert unknown_prompt.data["code"] == "unknown_prompt"
    assert unknown_arg.data["code"] == "invalid_argument" and "topic" in unknown_arg.message
    assert unknown_template.data["code"] == "unknown_template"


async def connect(app: Any, mode: str) -> Any:
    """The official client to ``app`` over in-process HTTP, once its index is ready."""
    indexer = app.state.runtime.workspace.indexer
    with anyio.fail_after(30):
        while indexer.state != "ready":
            await anyio.sleep(0.02)
    http = httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE)
    return http, Client(streamable_http_client(MCP_URL, http_client=http), mode=mode)


async def test_completion_is_bounded_to_100_values(make_app, run_app, tmp_path: Path) -> None:
    days = {f"Daily/2026-{i // 28 + 1:02d}-{i % 28 + 1:02d}.md": "# Day\n" for i in range(150)}
    app = make_app({"big": write_tree(tmp_path / "big", days)}, auth_enabled=False)
    async with run_app(app):
        http, mcp_client = await connect(app, "auto")
        async with http, mcp_client as client:
            every = await complete(client, prompt("find-related"), "path", "daily/")
            march = await complete(client, prompt("find-related"), "path", "Daily/2026-03")
    assert (len(every.values), every.total, every.has_more) == (100, 150, True)
    assert every.values[:2] == ["Daily/2026-01-01.md", "Daily/2026-01-02.md"]
    assert [v.startswith("Daily/2026-03-") for v in march.values] == [True] * 28 + [False] * (march.total - 28)
    assert march.values[0] == "Daily/2026-03-01.md" and march.has_more is False  # prefix matches, then forgiving


async def test_completion_is_rate_limited(make_app, run_app, vaults: dict[str, Path], monkeypatch) -> None:
    monkeypatch.setattr(completion, "COMPLETIONS_PER_MINUTE", 3)
    app = make_app(vaults, auth_enabled=False)
    async with run_app(app):
        http, mcp_client = await connect(app, "auto")
        async with http, mcp_client as client:
            for _ in range(3):
                await complete(client, prompt("find-related"), "vault", "")
            error = await refused(lambda: complete(client, prompt("find-related"), "vault", ""))
            assert (await client.list_prompts()).prompts  # other methods are not affected
    assert error.data["code"] == "rate_limited" and error.data["retry_after"] >= 1


# --- a real socket ---------------------------------------------------------------------------------


@pytest.fixture
def live_gateway(make_app, vaults: dict[str, Path]) -> Iterator[tuple[str, str]]:
    """``create_app`` under a real uvicorn on 127.0.0.1 (thread); yields (mcp url, alice's token)."""
    port = free_port()
    app = make_app(vaults, port=port)
    token = app.state.auth.tokens.issue(app.state.auth.users.add_user("alice", None, vaults=["notes"]))
    with uvicorn_thread(app, port):
        yield f"http://127.0.0.1:{port}/mcp", token


async def test_real_socket_both_eras(live_gateway: tuple[str, str]) -> None:
    url, token = live_gateway
    for era in ("legacy", "auto"):
        async with (
            httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http,
            Client(streamable_http_client(url, http_client=http), mode=era) as client,
        ):
            assert [p.name for p in (await client.list_prompts()).prompts] == PROMPT_NAMES
            got = await client.get_prompt("summarize-directory", {"vault": "notes", "path": "Projects"})
            assert '"path": "Projects"' in text_of(got)
            with anyio.fail_after(30):  # completion reads the index, built in the background
                while not (values := (await complete(client, prompt("find-related"), "path", "ide")).values):
                    await anyio.sleep(0.05)
            assert values == ["Ideas.md"]
            error = await refused(lambda: client.get_prompt("find-related", {"vault": "other", "path": "Private.md"}))
            assert error.data["code"] == "vault_access_denied"
