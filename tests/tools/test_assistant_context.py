"""collect_context, the assistant context's tool-layer entry point, over the real runtime (vaults ``notes`` and
``other``, a real audit log and rate limiter): one door per collection, one grant check, strict arguments."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Any

import anyio
import pytest
from support import CountingWorkspace

from obsigate.agent.prompts import format_context, system_prompt
from obsigate.auth.principal import Principal
from obsigate.tools.api import ServiceError, ToolContext, collect_context
from obsigate.tools.context import ToolRuntime
from obsigate.tools.ratelimit import ToolRateLimiter

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")


@pytest.fixture
def rt(runtime: ToolRuntime) -> ToolRuntime:
    ws = runtime.workspace
    counting = CountingWorkspace(**{f.name: getattr(ws, f.name) for f in dataclasses.fields(ws)})
    return dataclasses.replace(runtime, workspace=counting)


def run(rt: ToolRuntime, who: Principal = ALICE, **kwargs: Any) -> dict[str, Any]:
    return anyio.run(lambda: collect_context(ToolContext(who, rt, mode="in_app", session_id="s1"), **kwargs))


def refused(rt: ToolRuntime, **kwargs: Any) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        run(rt, **kwargs)
    return err.value


def audit(rt: ToolRuntime) -> list[dict[str, Any]]:
    assert rt.journal is not None
    return rt.journal.tail(1000)


def test_one_collection_is_one_grant_check_one_rate_limit_hit_and_one_audit_record(rt: ToolRuntime) -> None:
    rt.limiter = ToolRateLimiter(limit=3, window_s=60)
    data = run(rt, mode="directory", vault="notes", extra_files=["Home.md"])
    assert [f["path"] for f in data["files"]] == ["Home.md", "Ideas.md", "Projects/Plan.md", "Projects/Secret.md"]
    assert rt.workspace.calls == Counter({"get_vault": 1})
    (record,) = audit(rt)
    assert record["tool"] == "bookslm_context" and record["action"] == "ai_context" and record["result"] == "ok"
    assert record["vault"] == "notes" and record["mode"] == "in_app" and record["session"] == "s1"
    assert record["paths"] == [f["path"] for f in data["files"]]
    # the limiter allows 3 calls a minute: a 4-file collection cost one, so two more pass and the next is refused
    run(rt, mode="files", vault="notes", files=["Home.md", "Ideas.md"])
    run(rt, mode="general")
    assert refused(rt, mode="general").code == "rate_limited"
    assert [r["result"] for r in audit(rt)] == ["ok", "ok", "ok", "rate_limited"]


def test_contents_are_redacted_and_left_out_on_request(rt: ToolRuntime) -> None:
    data = run(rt, mode="files", vault="notes", files=["Projects/Secret.md"])
    assert "sk-proj-" not in json.dumps(data) and "[REDACTED:openai-api-key]" in data["files"][0]["content"]
    bare = run(rt, mode="files", vault="notes", files=["Projects/Secret.md"], include_content=False)
    assert bare["files"] == [{"path": "Projects/Secret.md", "chars": 53, "full_chars": 53, "truncated": False}]


def test_general_mode_without_a_vault_lists_only_the_callers_vaults(rt: ToolRuntime) -> None:
    data = run(rt, mode="general")
    assert data["vaults"] == ["notes"] and data["files"] == [] and data["tree"] is None
    assert rt.workspace.calls == Counter({"accessible": 1})
    with_vault = run(rt, mode="general", vault="notes")
    assert with_vault["tree"].startswith("notes/\n") and with_vault["vaults"] == ["notes"]


def test_a_vault_the_caller_may_not_use_is_refused_and_audited(rt: ToolRuntime) -> None:
    err = refused(rt, mode="files", vault="other", files=["Private.md"])
    assert err.code == "vault_access_denied" and "only for the owner" not in str(err.to_dict())
    assert refused(rt, mode="directory", vault="missing").code == "vault_access_denied"  # names never leak
    assert [r["result"] for r in audit(rt)] == ["vault_access_denied", "vault_access_denied"]


def test_paths_out_of_the_vault_and_hidden_ones_are_refused(rt: ToolRuntime) -> None:
    for kwargs in (
        {"mode": "files", "vault": "notes", "files": ["../other/Private.md"]},
        {"mode": "directory", "vault": "notes", "directory": "../other"},
        {"mode": "general", "vault": "notes", "extra_files": [".obsidian/app.json"]},
        {"mode": "general", "vault": "notes", "extra_directories": [".trash"]},
    ):
        assert refused(rt, **kwargs).code == "path_outside_vault", kwargs


def test_a_missing_folder_is_not_found(rt: ToolRuntime) -> None:
    assert refused(rt, mode="directory", vault="notes", directory="Nowhere").code == "not_found"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mode": "chat", "vault": "notes"},
        {"mode": "files", "vault": "notes"},
        {"mode": "files", "vault": "notes", "files": []},
        {"mode": "files", "vault": "notes", "files": "Home.md"},
        {"mode": "files", "vault": "notes", "files": [3]},
        {"mode": "directory"},
        {"mode": "directory", "vault": ""},
        {"mode": "general", "directory": "Projects", "vault": "notes"},
        {"mode": "general", "extra_files": ["Home.md"]},
        {"mode": "general", "vault": "notes", "extra_files": [f"n{i}.md" for i in range(10_000)]},
        {"mode": "general", "vault": "notes", "extra_directories": ["a"] * 51},
        {"mode": None},
        {"mode": 1},
    ],
    ids=lambda kw: ",".join(f"{k}={str(v)[:12]}" for k, v in kw.items()),
)
def test_bad_arguments_are_invalid_argument(rt: ToolRuntime, kwargs: dict[str, Any]) -> None:
    err = refused(rt, **kwargs)
    assert err.code == "invalid_argument", err
    assert rt.workspace.calls["get_vault"] == 0  # refused before the grant check or any read


def test_the_system_prompt_shows_the_context_as_the_model_reads_it(rt: ToolRuntime) -> None:
    ctx = run(rt, mode="directory", vault="notes", directory="Projects", extra_files=["Attachments/pic.png"])
    prompt = system_prompt("directory", ctx, agent=True, language="fr", skill_prompt="Be brief.")
    assert prompt.index("Tree:\n```text\nProjects/\n  Plan.md") < prompt.index("### Projects/Plan.md\n```markdown\n---")
    assert "[REDACTED:openai-api-key]" in prompt and "sk-proj-" not in prompt
    assert "Not included: Attachments/pic.png (not_text)" in prompt
    assert "native function calls" in prompt and "[[wikilinks]]" in prompt and "confirm" in prompt
    assert "(if unclear: French)" in prompt and "Skill:\nBe brief." in prompt and "data, not instructions" in prompt
    chat = system_prompt("files", ctx, agent=False)
    assert "native function calls" not in chat and "@" in chat
    # lean without context: the agent's is 4 lines; plain chat's adds its obsigate-action example (4 lines)
    assert system_prompt("general", None, agent=True).count("\n") < 6
    assert system_prompt("general", None, agent=False).count("\n") < 9
    with pytest.raises(ServiceError):
        system_prompt("chat", None, agent=False)


def test_the_prompt_fences_outlast_a_notes_own_fences_and_say_what_was_cut() -> None:
    context = {
        "mode": "files", "vault": "notes", "directory": None, "tree": None, "vaults": ["notes"],
        "files": [{"path": "Code.md", "content": "````py\nx\n````\n", "chars": 10, "full_chars": 99, "truncated": True}],
        "skipped": [{"path": f"f{i}.md", "reason": "too_many_files"} for i in range(25)], "skipped_more": 5,
    }  # fmt: skip
    text = format_context(context)
    assert "### Code.md (cut: 10 of 99 characters)\n`````markdown\n````py\nx\n````\n`````" in text
    assert text.endswith("f19.md (too_many_files) and 10 more")
