"""``obsigate mcp stdio`` as a real subprocess, driven by the official SDK's stdio client in both protocol eras
(2025-11-25: initialize; 2026-07-28: per-request envelope), then by raw lines on its stdin: garbage, batches, a
100 MB line, stdin closed in the middle of a confirmed write. And the data dir shared with a running
``obsigate serve``: forwarded to it, or refused with the reason."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import psutil
import pytest
from catalogue import MCP_TOOLS
from cli_runner import run_cli as cli
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import ElicitResult, ResourceTemplateReference
from pwdlib.hashers.argon2 import Argon2Hasher
from robust.serving import Server, serve
from support import SMALL_VAULT, journal_records, write_tree

from obsigate.auth.users import UserStore
from obsigate.mcp.server import ERROR_META_KEY
from obsigate.mcp.stdio import LineSplitter

pytestmark = pytest.mark.anyio

OTHER = {"Private.md": "# Private\n\nOnly for the owner of other.\n"}
ERAS = ["legacy", "auto"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def vaults(tmp_path: Path) -> dict[str, Path]:
    return {"notes": write_tree(tmp_path / "notes", SMALL_VAULT), "other": write_tree(tmp_path / "other", OTHER)}


def add_user(data: Path, name: str, vaults: list[str] | None) -> None:
    """A local user in ``data``'s user store (cheap argon2: no password is checked over stdio anyway)."""
    data.mkdir(parents=True, exist_ok=True)
    users = UserStore(data / "users.sqlite3", password_hasher=Argon2Hasher(time_cost=1, memory_cost=8192))
    try:
        users.add_user(name, None, vaults=vaults)
    finally:
        users.close()


def stdio_args(vaults: dict[str, Path], data: Path, *who: str) -> list[str]:
    vault_args = [a for name, path in vaults.items() for a in ("--vault", f"{name}={path}")]
    return ["-m", "obsigate", "mcp", "stdio", *vault_args, "--data-dir", str(data), *who]


@asynccontextmanager
async def stdio_session(args: list[str], era: str, **kwargs: Any) -> AsyncIterator[Client]:
    """The SDK's ``Client`` over its own stdio transport, starting ``python args...``; stderr to a file."""
    params = StdioServerParameters(command=sys.executable, args=args, env=dict(os.environ))
    with open(os.devnull, "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), mode=era, **kwargs) as client:
            yield client


def code_of(result: Any) -> str:
    assert result.is_error is True
    return result.meta[ERROR_META_KEY]["code"]


async def indexed_search(client: Client, q: str) -> dict[str, Any]:
    with anyio.fail_after(30):
        while True:
            data = (await client.call_tool("search_fulltext", {"q": q})).structured_content
            if data["index"]["complete"] and data["hits"]:  # (once in CI: complete a moment before the hits)
                return data
            await anyio.sleep(0.05)


# --- the SDK client, both eras ----------------------------------------------------------------------------


@pytest.mark.parametrize("era", ERAS)
async def test_everything_over_stdio(vaults: dict[str, Path], tmp_path: Path, era: str) -> None:
    data = tmp_path / "data"
    add_user(data, "alice", ["notes"])
    seen: list[str] = []

    async def confirm(context: Any, params: Any) -> ElicitResult:
        seen.append(params.message)
        return ElicitResult(action="accept", content={})

    async with stdio_session(stdio_args(vaults, data, "--user", "alice"), era, elicitation_callback=confirm) as client:
        assert client.protocol_version == ("2025-11-25" if era == "legacy" else "2026-07-28")
        assert {t.name for t in (await client.list_tools()).tools} == MCP_TOOLS
        read = (await client.call_tool("read_file", {"vault": "notes", "path": "Home.md"})).structured_content
        assert "Welcome" in read["content"] and read["path"] == "Home.md"
        hits = await indexed_search(client, "tidepool")
        assert {h["path"] for h in hits["hits"]} == {"Ideas.md", "Projects/Plan.md"}
        # alice's grants: the other vault does not exist for her
        denied = await client.call_tool("read_file", {"vault": "other", "path": "Private.md"})
        assert code_of(denied) == "vault_access_denied"
        assert [r.uri for r in (await client.list_resources()).resources] == ["vault://notes"]
        body = (await client.read_resource("vault://notes/Ideas.md")).contents[0]
        assert body.mime_type == "text/markdown" and "tidepool" in body.text
        prompts = {p.name for p in (await client.list_prompts()).prompts}
        assert prompts, "the prompts are served over stdio too"
        # a write: inline confirmation (elicitation) where the client offers it, applied once accepted
        out = (
            await client.call_tool(
                "propose_append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "- [ ] stdio line\n"}
            )
        ).structured_content
        assert out["status"] == "applied", out
        assert len(seen) == 1 and "Ideas.md" in seen[0]
    assert (vaults["notes"] / "Ideas.md").read_text().endswith("- [ ] stdio line\n")
    assert OTHER["Private.md"] == (vaults["other"] / "Private.md").read_text()
    audit = journal_records(data)
    applied = [r for r in audit if r["tool"] == "apply_append_to_file"]
    assert applied[-1]["user"] == "alice" and applied[-1]["mode"] == "mcp"
    assert not (data / "owner.json").exists()  # released on a clean stop


async def test_propose_apply_and_completion_without_elicitation(vaults: dict[str, Path], tmp_path: Path) -> None:
    async with stdio_session(stdio_args(vaults, tmp_path / "data", "--no-auth"), "legacy") as client:
        assert {t.name for t in (await client.list_tools()).tools} == MCP_TOOLS  # anonymous: every vault
        proposed = (
            await client.call_tool("propose_create_file", {"vault": "other", "path": "New.md", "content": "# N\n"})
        ).structured_content
        assert proposed["status"] == "proposed" and not (vaults["other"] / "New.md").exists()
        token = proposed["confirmation_token"]
        done = await client.call_tool("apply_create_file", {"confirmation_token": token})
        assert done.is_error is False
        assert code_of(await client.call_tool("apply_create_file", {"confirmation_token": token})) == "token_reused"
        ref = ResourceTemplateReference(type="ref/resource", uri="vault://{name}/{+path}")
        completion = await client.complete(ref, {"name": "name", "value": "o"})
        assert completion.completion.values == ["other"]
    assert (vaults["other"] / "New.md").read_text() == "# N\n"


async def test_grants_are_read_again_and_a_deleted_user_is_refused(vaults: dict[str, Path], tmp_path: Path) -> None:
    data = tmp_path / "data"
    add_user(data, "alice", ["notes"])
    async with stdio_session(stdio_args(vaults, data, "--user", "alice"), "legacy") as client:
        args = {"vault": "other", "path": "Private.md"}
        assert code_of(await client.call_tool("read_file", args)) == "vault_access_denied"
        users = UserStore(data / "users.sqlite3")
        try:
            users.grant_vaults("alice", ["other"])
            assert "Only for the owner" in (await client.call_tool("read_file", args)).structured_content["content"]
            users.delete_user("alice")
        finally:
            users.close()
        with pytest.raises(Exception, match="unauthenticated"):
            await client.call_tool("read_file", args)


# --- refusals at start --------------------------------------------------------------------------------------


def run_cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )


def test_identity_must_be_stated(vaults: dict[str, Path], tmp_path: Path) -> None:
    data = tmp_path / "data"
    args = stdio_args(vaults, data)[2:-2]  # in process: `mcp stdio --vault ...`, the data dir given apart
    done = cli(*args, data=data)
    assert done.returncode == 2 and "--user NAME" in done.stderr and "--no-auth" in done.stderr and done.stdout == ""
    done = cli(*args, "--user", "nobody", data=data)
    assert done.returncode == 2 and "no local user 'nobody'" in done.stderr
    done = cli(*args, "--user", "x", "--no-auth", data=data)
    assert done.returncode == 2 and "exclude each other" in done.stderr


@contextmanager
def raw_stdio(args: list[str], **env: str) -> Iterator[subprocess.Popen[bytes]]:
    proc = subprocess.Popen(
        [sys.executable, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **env},
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


INIT = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}},
}


def send(proc: subprocess.Popen[bytes], *messages: Any) -> None:
    assert proc.stdin is not None
    for m in messages:
        proc.stdin.write(m if isinstance(m, bytes) else json.dumps(m).encode() + b"\n")
    proc.stdin.flush()


def answer(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, proc.stderr.read().decode() if proc.stderr else "no output"
    return json.loads(line)


def call(ident: int, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": {"name": tool, "arguments": args}}


def test_a_second_stdio_server_is_refused(vaults: dict[str, Path], tmp_path: Path) -> None:
    data = tmp_path / "data"
    with raw_stdio(stdio_args(vaults, data, "--no-auth")) as first:
        send(first, INIT)
        assert answer(first)["id"] == 1  # it holds the data dir now
        done = run_cli(*stdio_args(vaults, data, "--no-auth"))
        assert done.returncode == 2 and done.stdout == ""
        assert f"obsigate mcp stdio (pid {first.pid})" in done.stderr and "never two" in done.stderr


# --- bad input on the pipe ---------------------------------------------------------------------------------


def test_garbage_batches_and_a_100_mb_line_get_errors_and_the_server_stays_up(
    vaults: dict[str, Path], tmp_path: Path
) -> None:
    with raw_stdio(stdio_args(vaults, tmp_path / "data", "--no-auth")) as proc:
        send(proc, INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert answer(proc)["result"]["serverInfo"]["name"]
        send(proc, b"not json at all\n", b"\xff\xfe\n")
        for _ in range(2):
            reply = answer(proc)
            assert reply["id"] is None and reply["error"]["code"] == -32700
        send(proc, b"[]\n", json.dumps([INIT, INIT]).encode() + b"\n")
        for _ in range(2):
            assert answer(proc)["error"]["code"] == -32600
        send(proc, {"jsonrpc": "2.0", "id": 7, "method": 12}, {"jsonrpc": "2.0", "id": 8, "method": "no/such"})
        assert answer(proc) == {
            "jsonrpc": "2.0",
            "id": 7,
            "error": {
                "code": -32600,
                "message": "Invalid Request: not a JSON-RPC 2.0 request, notification or response",
            },
        }
        assert answer(proc)["error"]["code"] == -32601
        # an id of the wrong type is not a notification: refused, never run unanswered
        for bad in (None, True, 1.5, {"a": 1}, [1]):
            send(proc, {"jsonrpc": "2.0", "id": bad, "method": "ping"})
            assert answer(proc) == {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32600, "message": "Invalid Request: a request id must be a string or an integer"},
            }
        # 100 MB on one line: read and dropped chunk by chunk, answered, never held whole
        chunk = b"x" * (1 << 20)
        assert proc.stdin is not None
        proc.stdin.write(b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"')
        for _ in range(100):
            proc.stdin.write(chunk)
        proc.stdin.write(b'"}}\n')
        proc.stdin.flush()
        reply = answer(proc)
        assert reply["error"]["code"] == -32600 and "over the 4194304-byte limit" in reply["error"]["message"]
        assert psutil.Process(proc.pid).memory_info().rss < 400 * 1024 * 1024
        send(proc, call(10, "read_file", {"vault": "notes", "path": "Ideas.md"}))
        reply = answer(proc)
        assert reply["id"] == 10 and "tidepool" in reply["result"]["structuredContent"]["content"]
        send(proc, call(11, "read_file", {"vault": "nowhere", "path": "x.md"}))
        reply = answer(proc)["result"]
        assert reply["isError"] is True and reply["_meta"][ERROR_META_KEY]["code"] == "not_found"


def test_answers_that_fill_the_pipe_wait_for_a_slow_reader(vaults: dict[str, Path], tmp_path: Path) -> None:
    """Issue 20: answers are written from the event loop on a non-blocking pipe; a client that does not read yet
    makes the server wait for room (not spin, not drop, not interleave), then every answer arrives whole."""
    words = " ".join(f"word{i}" for i in range(12_000))  # ≈ 100 KB: each answer holds it twice (text + structured)
    (vaults["notes"] / "Big.md").write_text(f"# Big\n\n{words}\n")
    with raw_stdio(stdio_args(vaults, tmp_path / "data", "--no-auth")) as proc:
        send(proc, INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert answer(proc)["id"] == 1
        server = psutil.Process(proc.pid)
        send(proc, *[call(20 + i, "read_file", {"vault": "notes", "path": "Big.md"}) for i in range(4)])
        time.sleep(1.0)  # the answers (several times the 64 KB pipe) wait for this reader
        cpu = server.cpu_times()
        time.sleep(1.0)
        spent = sum(server.cpu_times()[:2]) - sum(cpu[:2])
        assert spent < 0.5, f"the server used {spent:.2f} CPU-s while its pipe was full"
        replies = [answer(proc) for _ in range(4)]  # concurrent calls: answered in any order
        assert sorted(r["id"] for r in replies) == [20, 21, 22, 23]
        assert all(r["result"]["structuredContent"]["path"] == "Big.md" for r in replies)
        send(proc, call(30, "read_file", {"vault": "notes", "path": "Ideas.md"}))
        assert answer(proc)["id"] == 30  # still serving


def test_stdin_closed_during_a_confirmed_write_finishes_it(vaults: dict[str, Path], tmp_path: Path) -> None:
    note = vaults["notes"] / "Ideas.md"
    before = note.read_text()
    with raw_stdio(stdio_args(vaults, tmp_path / "data", "--no-auth")) as proc:
        send(proc, INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        answer(proc)
        send(proc, call(2, "propose_append_to_file", {"vault": "notes", "path": "Ideas.md", "content": "- closed\n"}))
        token = answer(proc)["result"]["structuredContent"]["confirmation_token"]
        send(proc, call(3, "apply_append_to_file", {"confirmation_token": token}))
        assert proc.stdin is not None
        proc.stdin.close()  # at once, with the apply in flight
        reply = answer(proc)
        assert reply["id"] == 3 and reply["result"]["isError"] is False
        assert proc.wait(30) == 0
    assert note.read_text() == before + "- closed\n"


# --- beside a running `obsigate serve` ---------------------------------------------------------------------


async def test_forwards_to_a_running_serve(vaults: dict[str, Path], tmp_path: Path) -> None:
    data = tmp_path / "data"
    add_user(data, "alice", ["notes"])
    with serve(vaults, data, auth=True) as server:
        url = f"{server.url}/mcp"
        owner = json.loads((data / "owner.json").read_text())
        assert owner["kind"] == "serve" and owner["mcp_url"] == url
        for era in ERAS:
            await forwarded_session(vaults, data, era)
        assert (vaults["notes"] / "Ideas.md").read_text().endswith("- forwarded legacy\n- forwarded auto\n")
        # the serve process wrote it, as alice: one writer of the journal and the audit log
        audit = journal_records(data)
        assert [r["user"] for r in audit if r["tool"] == "apply_append_to_file"] == ["alice", "alice"]
        # what cannot be forwarded is refused, saying why
        done = run_cli(*stdio_args({"notes": vaults["notes"]}, data, "--user", "alice"))
        assert done.returncode == 2 and "other vaults" in done.stderr
        done = run_cli(*stdio_args(vaults, data, "--no-auth"))
        assert done.returncode == 2 and "requires auth" in done.stderr
    assert not (data / "owner.json").exists()


def test_a_lost_server_ends_forwarding_with_an_answer(vaults: dict[str, Path], tmp_path: Path) -> None:
    """A forwarding stdio process outlives a key rotation (a new token at the server's first 401) but not its
    server: the call in flight when the server is gone is answered ``-32000``, then the process exits 2 saying
    why, so that the client starts it again (and it then owns the data dir)."""
    data = tmp_path / "data"
    add_user(data, "alice", ["notes"])
    with serve(vaults, data, auth=True) as server:
        with raw_stdio(stdio_args(vaults, data, "--user", "alice")) as proc:
            send(proc, INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            assert answer(proc)["result"]["serverInfo"]["name"]
            assert cli("secret", "rotate", data=data).returncode == 0  # every earlier token is refused from now on
            send(proc, call(2, "read_file", {"vault": "notes", "path": "Ideas.md"}))
            assert "tidepool" in answer(proc)["result"]["structuredContent"]["content"]
            server.stop()
            send(proc, call(3, "read_file", {"vault": "notes", "path": "Ideas.md"}))
            reply = answer(proc)
            assert reply["id"] == 3 and reply["error"]["code"] == -32000, reply
            assert "this MCP server stops" in reply["error"]["message"]
            assert proc.wait(30) == 2
            assert proc.stderr is not None and "forwarding stopped" in proc.stderr.read().decode()


def test_a_restarted_server_ends_forwarding_saying_so(vaults: dict[str, Path], tmp_path: Path) -> None:
    """The server restarts on its port: the forwarded session is gone with it, so the stdio process answers the
    call and exits 2 naming why (the client starts it again, with a new session) instead of failing every call."""
    data = tmp_path / "data"
    add_user(data, "alice", ["notes"])
    first = Server(vaults, data, auth=True)
    port = int(first.url.rsplit(":", 1)[1])
    with raw_stdio(stdio_args(vaults, data, "--user", "alice")) as proc, contextlib.closing(first):
        send(proc, INIT, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert answer(proc)["result"]["serverInfo"]["name"]
        first.stop()
        with serve_on(vaults, data, port):  # the same address, a new process
            send(proc, call(2, "read_file", {"vault": "notes", "path": "Ideas.md"}))
            assert "error" in answer(proc)
            assert proc.wait(30) == 2
            assert proc.stderr is not None and "no longer knows this session" in proc.stderr.read().decode()


@contextmanager
def serve_on(vaults: dict[str, Path], data: Path, port: int) -> Iterator[Server]:
    server = Server(vaults, data, port=port, auth=True)
    try:
        yield server
    finally:
        server.stop()


async def forwarded_session(vaults: dict[str, Path], data: Path, era: str) -> None:
    """One SDK stdio session in ``era`` through a stdio process that forwards to the running server."""
    async with stdio_session(stdio_args(vaults, data, "--user", "alice"), era) as client:
        assert {t.name for t in (await client.list_tools()).tools} == MCP_TOOLS
        hits = await indexed_search(client, "buoy")
        assert {h["path"] for h in hits["hits"]} == {"Ideas.md", "Projects/Plan.md"}
        args = {"vault": "other", "path": "Private.md"}
        assert code_of(await client.call_tool("read_file", args)) == "vault_access_denied"
        proposed = (
            await client.call_tool(
                "propose_append_to_file", {"vault": "notes", "path": "Ideas.md", "content": f"- forwarded {era}\n"}
            )
        ).structured_content
        done = await client.call_tool("apply_append_to_file", {"confirmation_token": proposed["confirmation_token"]})
        assert done.is_error is False, done.content


def test_mcp_config_prints_each_clients_snippet(vaults: dict[str, Path], tmp_path: Path) -> None:
    data = tmp_path / "data"
    add_user(data, "alice", ["notes"])
    base = ["mcp", "config", "--vault", f"notes={vaults['notes']}"]
    for client, top in (("claude-desktop", "mcpServers"), ("cursor", "mcpServers"), ("vscode", "servers")):
        done = cli(*base, "--client", client, "--user", "alice", data=data)
        assert done.returncode == 0, done.stderr
        server = json.loads(done.stdout)[top]["obsigate"]
        assert Path(server["command"]).is_absolute()
        assert server["args"][-2:] == ["--user", "alice"] and f"notes={vaults['notes']}" in server["args"]
        assert str(data.resolve()) in server["args"]
    done = cli(*base, "--client", "claude-code", "--no-auth", data=data)
    assert done.returncode == 0 and done.stdout.startswith("claude mcp add --transport stdio obsigate -- /")
    assert done.stdout.rstrip().endswith("--no-auth")
    done = cli(*base, "--client", "zed", data=data)
    assert done.returncode == 2 and "invalid_argument: unknown client 'zed'" in done.stderr
    done = cli(*base, "--client", "cursor", data=data)
    assert done.returncode == 2 and "--user NAME" in done.stderr
    # what would make the client fail later, where its logs hide why, is refused now
    done = cli(*base, "--client", "cursor", "--user", "nobody", data=data)
    assert done.returncode == 2 and "no local user 'nobody'" in done.stderr
    done = cli("mcp", "config", "--vault", f"x={tmp_path / 'missing'}", "--client", "cursor", "--no-auth", data=data)
    assert done.returncode == 2 and "missing" in done.stderr and done.stdout == ""


def test_line_splitter_bounds_every_line_across_chunks() -> None:
    splitter = LineSplitter(8)
    assert splitter.feed(b"ab") == [] and splitter.feed(b"c\n\n12345678\n123456789\nxy") == [
        b"abc",
        b"",
        b"12345678",
        9,
    ]
    # an oversized line spread over chunks is counted, not kept, and the next line is whole
    assert splitter.feed(b"z" * 20) == [] and splitter.feed(b"zz\nok") == [24]
    assert splitter.feed(b"\n") == [b"ok"]
    assert splitter.end() is None
    splitter.feed(b"tail")
    assert splitter.end() == b"tail" and splitter.end() is None
    splitter.feed(b"t" * 9)
    assert splitter.end() == 9
