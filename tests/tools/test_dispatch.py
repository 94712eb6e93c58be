"""call_tool: validation, permissions, confirmation, redaction, budget and audit, on the real catalog."""

from __future__ import annotations

import json
import threading

import anyio
import pytest
from support import journal_text

from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.tools.api import REGISTRY, Scope, ServiceError, ToolContext, call_tool, visible_tools
from obsigate.tools.context import ToolRuntime
from obsigate.tools.ratelimit import ToolRateLimiter
from obsigate.tools.registry import Risk, ToolArgs, ToolOutput, ToolRegistry, tool

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt", token_id="t1")


class TouchArgs(ToolArgs):
    vault: str


def run(ctx: ToolContext, name: str, args: dict | None) -> dict:
    return anyio.run(call_tool, ctx, name, args)


def error_of(ctx: ToolContext, name: str, args: dict | None) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        run(ctx, name, args)
    return info.value


def test_read_file_returns_parsed_note(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    out = run(ctx, "read_file", {"vault": "notes", "path": "Home.md"})
    assert out["path"] == "Home.md"
    assert "Welcome" in out["content"] and "---" not in out["content"]
    assert {"home", "dashboard"} <= set(out["tags"])
    assert [link["target"] for link in out["links"]] == ["Projects/Plan", "Ideas"]
    assert out["headings"][0]["text"] == "Home"


def test_secrets_never_leave(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    for name in ("read_file", "read_file_raw"):
        out = run(ctx, name, {"vault": "notes", "path": "Projects/Secret.md"})
        assert "sk-proj-abcdef" not in json.dumps(out)
        assert "[REDACTED:" in out["content"]


def test_vault_not_granted_is_denied(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    err = error_of(ctx, "read_file", {"vault": "other", "path": "Private.md"})
    assert err.code == "vault_access_denied"
    # an unknown vault looks the same as a forbidden one: names of other vaults do not leak
    assert error_of(ctx, "read_file", {"vault": "nope", "path": "x.md"}).code == "vault_access_denied"
    # search across "all my vaults" never reaches the other vault
    out = run(ctx, "search_fulltext", {"q": "owner"})
    assert out["total"] == 0


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ({"vault": "notes"}, "invalid_argument"),
        ({"vault": "notes", "path": 3}, "invalid_argument"),
        ({"vault": "notes", "path": "Home.md", "extra": 1}, "invalid_argument"),
        ({"vault": "notes", "path": "../other/Private.md"}, "path_outside_vault"),
        ({"vault": "notes", "path": ".obsidian/app.json"}, "path_outside_vault"),
        ({"vault": "notes", "path": "Missing.md"}, "not_found"),
        ({"vault": "notes", "path": "Projects"}, "is_a_directory"),
        ({"vault": "notes", "path": "Attachments/pic.png"}, "not_text"),
    ],
)
def test_bad_input_gets_a_stable_code(runtime: ToolRuntime, args: dict, code: str) -> None:
    assert error_of(ToolContext(ANONYMOUS, runtime), "read_file", args).code == code


def test_unknown_tool_and_non_object_arguments(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ANONYMOUS, runtime, mode="mcp")
    assert error_of(ctx, "rm_rf", {}).code == "unknown_tool"
    assert error_of(ctx, "list_vaults", ["x"]).code == "invalid_argument"  # type: ignore[arg-type]


def test_every_call_is_audited_without_content(runtime: ToolRuntime) -> None:
    ctx = ToolContext(ALICE, runtime, mode="mcp")
    run(ctx, "read_file", {"vault": "notes", "path": "Home.md"})
    error_of(ctx, "read_file", {"vault": "other", "path": "Private.md"})
    records = runtime.journal.tail(2)
    assert [r["result"] for r in records] == ["ok", "vault_access_denied"]
    assert records[0]["user"] == "alice" and records[0]["tool"] == "read_file" and records[0]["vault"] == "notes"
    assert records[0]["duration_ms"] >= 0
    assert "Welcome" not in journal_text(runtime.journal.data_dir)


def test_rate_limit_answers_rate_limited(runtime: ToolRuntime) -> None:
    runtime.limiter = ToolRateLimiter(limit=3, window_s=60)
    ctx = ToolContext(ALICE, runtime)
    for _ in range(3):
        run(ctx, "list_vaults", {})
    # a sliding-window counter may let one extra call through across a window edge
    with pytest.raises(ServiceError) as info:
        for _ in range(2):
            run(ctx, "list_vaults", {})
    assert info.value.code == "rate_limited" and info.value.details["retry_after"] >= 1


def test_result_budget_applies(runtime: ToolRuntime, small_vault) -> None:
    (small_vault / "Big.md").write_text("# Big\n\n" + "word " * 200_000)
    runtime.workspace.limits = type(runtime.workspace.limits)(max_read_bytes=10_000_000, budget_chars=20_000)
    out = run(ToolContext(ANONYMOUS, runtime), "read_file", {"vault": "notes", "path": "Big.md"})
    assert out["truncated"] is True
    assert len(json.dumps(out)) <= 20_000 + 200


def test_write_tools_need_confirmation(runtime: ToolRuntime) -> None:
    registry = ToolRegistry()

    @tool("touch", title="Touch", risk=Risk.WRITE, registry=registry)
    def touch(ctx: ToolContext, args: TouchArgs) -> ToolOutput:
        """Pretend to write."""
        return ToolOutput()

    rt = ToolRuntime(workspace=runtime.workspace, registry=registry)
    assert error_of(ToolContext(ANONYMOUS, rt), "touch", {"vault": "notes"}).code == "confirmation_required"
    assert run(ToolContext(ANONYMOUS, rt, confirmed=True), "touch", {"vault": "notes"})["truncated"] is False


def test_visible_tools_for_a_user_without_vaults(runtime: ToolRuntime) -> None:
    nobody = Principal(name="nobody", is_admin=False, vaults=frozenset(), auth_kind="jwt")
    names = [t.name for t in visible_tools(ToolContext(nobody, runtime, mode="mcp"))]
    assert "list_vaults" in names and "read_file" not in names
    offered = {t.name for t in visible_tools(ToolContext(ALICE, runtime, mode="mcp"))}
    raw_writes = {t.name for t in REGISTRY.for_scope(Scope.MCP) if t.planner is not None}
    assert offered == {t.name for t in REGISTRY.for_scope(Scope.MCP)} - raw_writes  # writes only as propose/apply


def test_paging_a_long_note_loses_nothing(runtime: ToolRuntime, small_vault) -> None:
    body = "".join(f'line {i} é "quoted" and more words\n' for i in range(6_000))
    (small_vault / "Long.md").write_text("# Long\n" + body)
    runtime.workspace.limits = type(runtime.workspace.limits)(max_read_bytes=200_000, budget_chars=40_000)
    ctx, parts, offset = ToolContext(ANONYMOUS, runtime), [], 0
    while offset is not None:
        page = run(ctx, "read_file", {"vault": "notes", "path": "Long.md", "offset": offset})
        assert len(json.dumps(page, ensure_ascii=False)) <= 40_000
        parts.append(page["content"])
        offset = page["next_offset"]
    assert "".join(parts) == "# Long\n" + body
    raw, offset = [], 0
    while offset is not None:
        page = run(ctx, "read_file_raw", {"vault": "notes", "path": "Long.md", "offset": offset})
        raw.append(page["content"])
        offset = page["next_offset"]
    assert "".join(raw) == "# Long\n" + body


def test_frontmatter_secrets_are_redacted(runtime: ToolRuntime, small_vault) -> None:
    (small_vault / "Keys.md").write_text('---\napi_key: "sk-abc123def456ghi789"\npassword: hunter2hunter2\n---\nbody\n')
    out = run(ToolContext(ANONYMOUS, runtime), "read_file", {"vault": "notes", "path": "Keys.md"})
    assert "hunter2hunter2" not in json.dumps(out) and "sk-abc123" not in json.dumps(out)


def test_a_fifo_is_refused_without_blocking(runtime: ToolRuntime, small_vault) -> None:
    import os

    os.mkfifo(small_vault / "pipe.md")
    for name in ("read_file", "read_file_raw"):
        assert (
            error_of(ToolContext(ANONYMOUS, runtime), name, {"vault": "notes", "path": "pipe.md"}).code == "not_a_file"
        )


def test_symlink_loop_non_utf8_and_nfd_names(runtime: ToolRuntime, small_vault) -> None:
    import os

    ctx = ToolContext(ANONYMOUS, runtime)
    os.symlink("loopB", small_vault / "loopA")
    os.symlink("loopA", small_vault / "loopB")
    assert error_of(ctx, "read_file", {"vault": "notes", "path": "loopA"}).code == "path_outside_vault"
    (small_vault / "latin1.md").write_bytes(b"password=latin1secret999 caf\xe9\n")
    for name in ("read_file", "read_file_raw"):
        out = run(ctx, name, {"vault": "notes", "path": "latin1.md"})
        assert "latin1secret999" not in json.dumps(out) and out["content"].startswith("password=[REDACTED")
    (small_vault / "Cafe\u0301.md").write_text("# nfd name\n")  # as macOS tools write names
    assert run(ctx, "read_file", {"vault": "notes", "path": "Caf\u00e9.md"})["headings"][0]["text"] == "nfd name"


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("get_backlinks", {"vault": "notes", "path": "Home.md\ud800"}),
        ("search_advanced", {"q": "\udfff"}),
        ("search_fulltext", {"q": "x", "tag": "a\ud800"}),
        ("read_file", {"vault": "notes", "path": "Home.md", "\ud800": 1}),
    ],
)
def test_lone_surrogates_are_invalid_and_still_audited(runtime: ToolRuntime, name: str, args: dict) -> None:
    assert error_of(ToolContext(ALICE, runtime, mode="mcp"), name, args).code == "invalid_argument"
    last = runtime.journal.tail(1)[0]
    assert last["tool"] == name and last["result"] == "invalid_argument"


def test_read_file_offset_inside_a_character_is_snapped(runtime: ToolRuntime, small_vault) -> None:
    """Issue 9 item 3: the result's ``offset`` is where the chunk starts, not the offset asked for."""
    (small_vault / "Accents.md").write_text("é€x\n", encoding="utf-8")  # é: bytes 0-1, €: bytes 2-4, x: 5
    ctx = ToolContext(ANONYMOUS, runtime)
    for name in ("read_file", "read_file_raw"):
        inside_e = run(ctx, name, {"vault": "notes", "path": "Accents.md", "offset": 1})
        assert (inside_e["offset"], inside_e["content"]) == (2, "€x\n"), name
        inside_euro = run(ctx, name, {"vault": "notes", "path": "Accents.md", "offset": 3})
        assert (inside_euro["offset"], inside_euro["content"]) == (5, "x\n"), name
        assert run(ctx, name, {"vault": "notes", "path": "Accents.md", "offset": 0})["offset"] == 0


def test_read_file_raw_binaries_are_exact_and_paged(runtime: ToolRuntime, small_vault) -> None:
    """Issue 9 item 2: binaries up to ``max_read_bytes`` a call (not the JSON budget), paged with offset, the
    base64 neither redacted nor cut."""
    import base64
    import hashlib

    secretish = b"AKIAABCDEFGHIJKLMNOP password=hunter2hunter2 "  # would be redacted if treated as text
    data = b"\x89PNG\r\n\x1a\n" + secretish * 4000  # ~180 KB
    data += bytes(range(256)) * 200  # ~51 KB more: > 200 000 bytes in all
    (small_vault / "big.png").write_bytes(data)
    runtime.workspace.limits = type(runtime.workspace.limits)(max_read_bytes=200_000, budget_chars=40_000)
    ctx, got, offset, starts = ToolContext(ANONYMOUS, runtime, mode="mcp"), b"", 0, []
    while offset is not None:
        page = run(ctx, "read_file_raw", {"vault": "notes", "path": "big.png", "offset": offset})
        assert page["encoding"] == "base64" and page["mime_type"] == "image/png" and page["size"] == len(data)
        assert page["truncated"] is (page["next_offset"] is not None)
        assert (page["notice"] is None) is (page["next_offset"] is None)  # a cut page says how to go on
        starts.append(page["offset"])
        got += base64.b64decode(page["content"])
        offset = page["next_offset"]
    assert starts == [0, 200_000] and got == data
    assert page["sha256"] == hashlib.sha256(data).hexdigest()
    assert (
        error_of(ctx, "read_file_raw", {"vault": "notes", "path": "big.png", "offset": len(data) + 1}).code
        == "invalid_argument"
    )


def test_a_result_is_finished_outside_the_event_loop(runtime: ToolRuntime, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: a result's redaction and size budget (milliseconds for a big one) never hold the event loop."""
    from obsigate.tools import dispatch

    threads: list[object] = []
    real_finish = dispatch.finish

    def spy(*args: object, **kwargs: object) -> dict:
        threads.append(threading.current_thread())  # the real finish runs and answers
        return real_finish(*args, **kwargs)

    monkeypatch.setattr(dispatch, "finish", spy)
    loop_thread: list[object] = []

    async def call() -> dict:
        loop_thread.append(threading.current_thread())
        return await call_tool(
            ToolContext(ALICE, runtime, mode="mcp"), "read_file", {"vault": "notes", "path": "Home.md"}
        )

    out = anyio.run(call)
    assert out["path"] == "Home.md" and "Welcome" in out["content"]
    assert threads and all(t is not loop_thread[0] for t in threads)
