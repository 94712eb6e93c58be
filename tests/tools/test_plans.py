"""The planning tools through the one door (call_tool) on a real data dir: the file they keep, the at-most-one
in_progress rule, revisions, a person's edits (tolerated, or refused without losing anything), isolation."""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import anyio
import pytest

from obsigate.auth.principal import Principal
from obsigate.services import plans
from obsigate.services.plans import DEFAULT_PLAN, parse_plan, plan_name
from obsigate.tools.api import REGISTRY, ServiceError, ToolContext, call_tool
from obsigate.tools.context import ToolRuntime

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
BOB = Principal(name="bob", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
STEPS = [
    {"step": "Read the meeting notes", "status": "completed"},
    {"step": "Draft the summary", "status": "in_progress"},
    {"step": "Link it from Home", "status": "pending"},
]


@pytest.fixture
def rt(runtime: ToolRuntime, tmp_path: Path) -> ToolRuntime:
    data = tmp_path / "data"
    data.mkdir()
    return dataclasses.replace(runtime, data_dir=data)


def call(rt: ToolRuntime, name: str, args: dict[str, Any], *, who: Principal = ALICE, session: str | None = "c1",
         mode: str = "in_app") -> dict[str, Any]:  # fmt: skip
    ctx = ToolContext(principal=who, runtime=rt, mode=mode, session_id=session)
    return anyio.run(lambda: call_tool(ctx, name, args))


def error(rt: ToolRuntime, name: str, args: dict[str, Any], **kw: Any) -> ServiceError:
    with pytest.raises(ServiceError) as caught:
        call(rt, name, args, **kw)
    return caught.value


def plan_file(rt: ToolRuntime, user: str = "alice", cid: str | None = "c1") -> Path:
    assert rt.data_dir is not None
    return rt.data_dir / "users" / user / "plans" / f"{plan_name(cid)}.md"


def test_update_writes_a_markdown_checklist_and_get_reads_it_back(rt: ToolRuntime) -> None:
    assert call(rt, "get_plan", {})["exists"] is False
    out = call(rt, "update_plan", {"explanation": "Summary first.", "plan": STEPS})
    assert out["revision"] == 1 and out["status"] == "in_progress"
    assert out["plan"] == STEPS and out["edited_by"] == "assistant"
    assert "- [~] Draft the summary" in out["markdown"]  # the rendered plan is in the result every consumer reads
    text = plan_file(rt).read_text(encoding="utf-8")
    assert text.startswith('---\nconversation: "c1"\nrevision: 1\n')
    assert 'status: "in_progress"' in text and 'edited_by: "assistant"' in text
    assert text.endswith("# Plan\n\n> Summary first.\n\n- [x] Read the meeting notes\n- [~] Draft the summary\n"
                         "- [ ] Link it from Home\n")  # fmt: skip
    assert os.stat(plan_file(rt)).st_mode & 0o777 == 0o600
    got = call(rt, "get_plan", {})
    assert got["revision"] == 1 and got["plan"] == STEPS and got["explanation"] == "Summary first."
    done = call(rt, "update_plan", {"plan": [{**s, "status": "completed"} for s in STEPS], "revision": 1})
    assert done["revision"] == 2 and done["status"] == "completed"
    assert text.split("\n")[3] == plan_file(rt).read_text(encoding="utf-8").split("\n")[3]  # created: kept


def test_two_steps_in_progress_is_invalid_and_writes_nothing(rt: ToolRuntime) -> None:
    call(rt, "update_plan", {"plan": STEPS})
    before = plan_file(rt).read_bytes()
    two = [{**s, "status": "in_progress"} for s in STEPS[:2]]
    exc = error(rt, "update_plan", {"plan": two, "revision": 1})
    assert exc.code == "invalid_argument" and "at most one" in exc.message and exc.hint
    assert exc.details["errors"] == [{"field": "plan", "problem": "at most one step may be in_progress"}]
    assert exc.details["in_progress"] == [s["step"] for s in two]
    assert plan_file(rt).read_bytes() == before
    first = error(rt, "update_plan", {"plan": two}, session="fresh")
    assert first.code == "invalid_argument" and not plan_file(rt, cid="fresh").exists()


@pytest.mark.parametrize(
    "args",
    [
        {"plan": [{"step": "x", "status": "done"}]},
        {"plan": [{"step": "", "status": "pending"}]},
        {"plan": [{"step": "x" * 501, "status": "pending"}]},
        {"plan": [{"step": f"s{i}", "status": "pending"} for i in range(51)]},
        {"plan": [], "explanation": "x" * 2001},
        {"plan": [], "revision": -1},
        {"plan": [{"step": "x", "status": "pending", "priority": "high"}]},
    ],
)
def test_bounds(rt: ToolRuntime, args: dict[str, Any]) -> None:
    assert error(rt, "update_plan", args).code == "invalid_argument"
    assert not plan_file(rt).exists()


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"plan": [{"step": "Draft\x00 the summary", "status": "pending"}]}, "plan.0.step"),
        ({"plan": [STEPS[0], {"step": "a\nb", "status": "pending"}]}, "plan.1.step"),
        ({"plan": [{"step": "bell\x07", "status": "pending"}]}, "plan.0.step"),
        ({"plan": [{"step": "c1\x85", "status": "pending"}]}, "plan.0.step"),
        ({"plan": STEPS, "explanation": "Summary\x00 first."}, "explanation"),
        ({"plan": STEPS, "explanation": "esc \x1b[31m"}, "explanation"),
        ({"plan": STEPS, "explanation": "line\r\nbreak"}, "explanation"),
    ],
)
def test_a_control_character_is_refused_and_nothing_written(rt: ToolRuntime, args: dict[str, Any], field: str) -> None:
    exc = error(rt, "update_plan", args)
    assert exc.code == "invalid_argument" and exc.details["errors"][0]["field"] == field
    assert "control character" in exc.details["errors"][0]["problem"]
    assert not plan_file(rt).exists()


def test_a_tab_and_a_line_break_in_the_explanation_are_kept(rt: ToolRuntime) -> None:
    out = call(rt, "update_plan", {"plan": [{"step": "a\tb", "status": "pending"}], "explanation": "One.\nTwo."})
    assert out["explanation"] == "One.\nTwo." and call(rt, "get_plan", {})["explanation"] == "One.\nTwo."
    assert "\x00" not in plan_file(rt).read_text(encoding="utf-8")


#: Explanations that must come back as they were sent, none of their lines a step.
EXPLANATIONS = [
    "Approach:\n1. read the notes\n2. draft",
    "Options:\n- keep it\n* drop it\n+ merge it\n10) later",
    "ctx:\n- [~] injected\n- [x] fake\n- [ ] pending too\n* [/] and this",
    "Line one\n\nLine two\n\n\nLine three",
    "# Not the heading\nText\n## another\n#no space",
    "  two spaces before\ntrailing spaces   \n\tA tab\n   - [~] indented too  ",
    "\n\nblank lines around\n\n",
    "> already quoted\n>\n>> nested\n>- [~] quoted step",
    "---\nnot: frontmatter\n---",
    "a line separator\u2028- [~] after it, and an emoji 🙂",
]


@pytest.mark.parametrize("explanation", EXPLANATIONS)
def test_the_explanation_round_trips_exactly_and_never_becomes_a_step(rt: ToolRuntime, explanation: str) -> None:
    step = [{"step": "Write summary", "status": "in_progress"}]
    out = call(rt, "update_plan", {"plan": step, "explanation": explanation})
    assert out["explanation"] == explanation and out["plan"] == step  # kept as sent: not stripped
    got = call(rt, "get_plan", {})
    assert got["explanation"] == explanation and got["plan"] == step and got["revision"] == 1
    assert got["edited_by"] == "assistant"  # the digest matches: nothing read as a hand edit
    # in the file: a block quote between the heading and the steps, so a person sees it and no line is a step
    body = parse_plan(plan_file(rt).read_text(encoding="utf-8")).body
    quote = body.split("\n")[2 : 2 + explanation.count("\n") + 1]
    assert all(line.startswith(">") for line in quote) and body.endswith("\n\n- [~] Write summary\n")
    again = call(rt, "update_plan", {"plan": step, "explanation": got["explanation"], "revision": 1})
    assert again["explanation"] == explanation and again["revision"] == 2


def test_an_explanation_of_only_whitespace_is_none(rt: ToolRuntime) -> None:
    for blank in ("", "   ", "\n\t\n "):
        out = call(rt, "update_plan", {"plan": STEPS, "explanation": blank}, session=f"b{len(blank)}")
        assert out["explanation"] is None and out["markdown"] == "# Plan\n\n" + "".join(
            f"- [{m}] {s['step']}\n" for m, s in zip("x~ ", STEPS, strict=True)
        )


def test_a_persons_edit_of_the_quoted_explanation_is_read(rt: ToolRuntime) -> None:
    call(rt, "update_plan", {"plan": STEPS, "explanation": "Why:\n1. first"})
    path = plan_file(rt)
    text = path.read_text(encoding="utf-8").replace("> 1. first\n", "> 1. first, then\n>\n> 2. second\n")
    path.write_text(text.replace("- [ ] Link", "- [ ] Ask Bob\n- [ ] Link"), encoding="utf-8")
    got = call(rt, "get_plan", {})
    assert got["explanation"] == "Why:\n1. first, then\n\n2. second" and got["revision"] == 2
    assert [s["step"] for s in got["plan"]] == [*(s["step"] for s in STEPS[:2]), "Ask Bob", "Link it from Home"]


def test_a_plan_written_before_the_quoted_explanation_still_reads(rt: ToolRuntime) -> None:
    # the old format: the explanation a plain paragraph, its digest of that body (as written by the assistant)
    body = "# Plan\n\nSummary first,\nthen the links.\n\n- [x] Read the meeting notes\n- [~] Draft the summary\n"
    digest = hashlib.sha256(body.encode()).hexdigest()[:32]
    path = plan_file(rt)
    path.parent.mkdir(parents=True)
    path.write_text(f'---\nconversation: "c1"\nrevision: 4\ncreated: "2026-01-01T00:00:00Z"\nupdated: '
                    f'"2026-01-01T00:00:00Z"\nstatus: "in_progress"\nedited_by: "assistant"\ndigest: "{digest}"\n'
                    f"---\n{body}", encoding="utf-8")  # fmt: skip
    got = call(rt, "get_plan", {})
    assert got["explanation"] == "Summary first,\nthen the links." and got["plan"] == STEPS[:2]
    assert got["revision"] == 4 and got["edited_by"] == "assistant"
    out = call(rt, "update_plan", {"plan": STEPS, "explanation": got["explanation"]})  # the model wrote it last
    assert out["revision"] == 5 and "> Summary first,\n> then the links.\n\n- [x]" in out["markdown"]


def test_a_stale_revision_is_a_conflict_with_the_current_plan(rt: ToolRuntime) -> None:
    call(rt, "update_plan", {"plan": STEPS})
    call(rt, "update_plan", {"plan": STEPS, "revision": 1})
    before = plan_file(rt).read_bytes()
    exc = error(rt, "update_plan", {"plan": STEPS[:1], "revision": 1})
    assert exc.code == "conflict" and exc.details["plan"]["revision"] == 2 and "get_plan" in (exc.hint or "")
    assert exc.details["plan"]["plan"] == STEPS
    assert plan_file(rt).read_bytes() == before


def test_a_persons_edit_needs_the_revision_and_a_hand_edit_counts_as_one(rt: ToolRuntime) -> None:
    call(rt, "update_plan", {"plan": STEPS})
    # the person ticks a box in the panel (REST: mode web): a new revision, written by the person
    ticked = [{**STEPS[0]}, {**STEPS[1], "status": "completed"}, {**STEPS[2], "status": "in_progress"}]
    person = call(rt, "update_plan", {"plan": ticked, "revision": 1}, mode="web")
    assert person["revision"] == 2 and person["edited_by"] == "person"
    # the model, which did not read it, cannot overwrite it without a revision
    exc = error(rt, "update_plan", {"plan": STEPS})
    assert exc.code == "conflict" and exc.details["plan"]["revision"] == 2
    # ...and then a direct edit of the file: an added step, a box ticked by hand, '*' bullets, [X], [/]
    path = plan_file(rt)
    text = path.read_text(encoding="utf-8").replace("- [~] Link it from Home", "* [/] Link it from Home\n"
                                                    "  (and from the index)\n- [ ] Ask Bob to review")  # fmt: skip
    path.write_text(text.replace("- [x] Read", "- [X] Read"), encoding="utf-8")
    got = call(rt, "get_plan", {})
    assert got["revision"] == 3 and got["edited_by"] == "person"  # the hand edit counts as a revision
    assert [(s["step"], s["status"]) for s in got["plan"]] == [
        ("Read the meeting notes", "completed"), ("Draft the summary", "completed"),
        ("Link it from Home (and from the index)", "in_progress"), ("Ask Bob to review", "pending"),
    ]  # fmt: skip
    assert error(rt, "update_plan", {"plan": STEPS, "revision": 2}).code == "conflict"
    assert call(rt, "update_plan", {"plan": got["plan"], "revision": 3})["revision"] == 4


def test_an_unreadable_file_is_an_error_and_an_update_keeps_it_aside(rt: ToolRuntime) -> None:
    call(rt, "update_plan", {"plan": STEPS})
    path = plan_file(rt)
    broken = path.read_text(encoding="utf-8") + "\nSome prose the person wrote after the steps.\n"
    path.write_text(broken, encoding="utf-8")
    exc = error(rt, "get_plan", {})
    # the hand edit counts as a revision (1 + 1), which the error names: what an update must send
    assert exc.code == "plan_unreadable" and exc.details["line"] > 10 and exc.details["revision"] == 2
    assert "revision 2" in (exc.hint or "")
    assert path.read_text(encoding="utf-8") == broken  # left as it is
    # a writer that read the plan before the edit is stale, and so is the model's update without a revision
    for stale in ({"plan": STEPS, "revision": 1}, {"plan": STEPS, "revision": 99}, {"plan": STEPS}):
        refused = error(rt, "update_plan", stale)
        assert refused.code == "conflict" and refused.details["revision"] == 2, stale
        assert path.read_text(encoding="utf-8") == broken  # refused before anything moved
    out = call(rt, "update_plan", {"plan": STEPS[:1], "revision": 2})
    assert out["revision"] == 3 and "kept as plans/c1.md.unreadable-" in (out["notice"] or "")
    assert error(rt, "update_plan", {"plan": STEPS, "revision": 2}).code == "conflict"
    kept = [p for p in path.parent.iterdir() if p.name.startswith("c1.md.unreadable-")]
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == broken  # nothing lost
    # the person's own edit (the panel, REST) without a revision replaces it; the next revision goes on
    path.write_text("no frontmatter at all\n", encoding="utf-8")
    assert error(rt, "get_plan", {}).details["revision"] == 1  # it names none: 0 + 1
    assert call(rt, "update_plan", {"plan": STEPS}, mode="rest")["revision"] == 2
    for bad in ("no frontmatter\n- [ ] x\n", "---\nrevision: [\n---\n", "---\nrevision: 1\n---\n- [?] x\n",
                "---\nrevision: two\n---\n"):  # fmt: skip
        with pytest.raises(ServiceError) as caught:
            parse_plan(bad)
        assert caught.value.code == "plan_unreadable"


@pytest.mark.parametrize(
    ("frontmatter", "at"),
    [
        ("revision: 5 # by hand", 6),  # valid YAML with a comment: the unreadable part is the body
        ("revision: 9999999999999", 10_000_000_000_000),
        ('revision: "5"', 6),
        ("revision: 5\nbroken: [", 6),  # YAML that does not parse: the revision line still counts
        ("status: x", 1),  # none in the frontmatter...
    ],
)
def test_an_unreadable_file_stands_at_the_revision_its_frontmatter_names(
    rt: ToolRuntime, frontmatter: str, at: int
) -> None:
    path = plan_file(rt)
    path.parent.mkdir(parents=True, exist_ok=True)
    # ...and a revision line in the body is not the plan's (prose after the steps makes the file unreadable)
    path.write_text(f"---\n{frontmatter}\n---\n# Plan\n\n- [ ] a\n\nrevision: 77\n", encoding="utf-8")
    assert error(rt, "get_plan", {}).details["revision"] == at
    assert call(rt, "update_plan", {"plan": STEPS, "revision": at})["revision"] == at + 1


def test_plans_set_aside_in_the_same_second_are_all_kept(rt: ToolRuntime, monkeypatch: pytest.MonkeyPatch) -> None:
    # the clock stands still: each unreadable file gets the same time, and the next free suffix
    monkeypatch.setattr(plans, "time", SimpleNamespace(time=lambda: 1_767_225_600.0))
    path = plan_file(rt)
    texts = []
    revision = 0
    for n in range(3):
        revision = call(rt, "update_plan", {"plan": STEPS, "revision": revision})["revision"]
        texts.append(path.read_text(encoding="utf-8") + f"\nProse after the steps, edit {n}.\n")
        path.write_text(texts[-1], encoding="utf-8")
        out = call(rt, "update_plan", {"plan": STEPS[:1], "revision": revision + 1})
        aside = "c1.md.unreadable-1767225600" + (f"-{n + 1}" if n else "")
        assert out["revision"] == revision + 2 and f"kept as plans/{aside}" in (out["notice"] or "")
        revision = out["revision"]
    # a folder at the plan's name cannot be hard-linked: it is renamed, still to a free name
    path.unlink()
    (path / "inside").mkdir(parents=True)
    out = call(rt, "update_plan", {"plan": STEPS[:1], "revision": 1})  # it names no revision: 0 + 1
    assert "kept as plans/c1.md.unreadable-1767225600-4" in (out["notice"] or "")
    kept = sorted(p.name for p in path.parent.iterdir() if p.name.startswith("c1.md.unreadable-"))
    assert kept == ["c1.md.unreadable-1767225600"] + [f"c1.md.unreadable-1767225600-{n}" for n in (2, 3, 4)]
    for name, text in zip(kept, texts, strict=False):
        assert (path.parent / name).read_text(encoding="utf-8") == text  # every person's text, intact
    assert (path.parent / kept[-1] / "inside").is_dir() and parse_plan(path.read_text(encoding="utf-8")).steps


def test_one_plan_per_conversation_a_default_plan_without_one_and_per_user(rt: ToolRuntime) -> None:
    call(rt, "update_plan", {"plan": STEPS})
    assert call(rt, "get_plan", {}, session="c2")["exists"] is False
    call(rt, "update_plan", {"plan": STEPS[:1]}, session=None, mode="rest")
    assert plan_file(rt, cid=None).name == f"{DEFAULT_PLAN}.md"
    assert call(rt, "get_plan", {}, session=None, mode="rest")["plan"] == STEPS[:1]
    # an MCP session id with any visible character: a hashed, plain file name of the sessions' own, which no
    # in-app conversation shares (a session named "c1" is not conversation c1)
    odd = "../../etc/x y"
    call(rt, "update_plan", {"plan": STEPS}, session=odd, mode="mcp")
    session_plan = plan_file(rt).parent / f"{plan_name(odd, session=True)}.md"
    assert session_plan.is_file() and session_plan.name.startswith("mcp-")
    assert call(rt, "get_plan", {}, session="c1", mode="mcp")["exists"] is False
    # bob, in a conversation with the same id, never sees alice's plan
    assert call(rt, "get_plan", {}, who=BOB)["exists"] is False
    call(rt, "update_plan", {"plan": STEPS[2:]}, who=BOB)
    assert call(rt, "get_plan", {})["plan"] == STEPS and call(rt, "get_plan", {}, who=BOB)["plan"] == STEPS[2:]


def test_a_symlinked_plans_folder_is_refused(rt: ToolRuntime, tmp_path: Path) -> None:
    assert rt.data_dir is not None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (rt.data_dir / "users" / "alice").mkdir(parents=True)
    (rt.data_dir / "users" / "alice" / "plans").symlink_to(elsewhere)
    assert error(rt, "update_plan", {"plan": STEPS}).code == "write_failed"
    assert list(elsewhere.iterdir()) == []


def test_declarations() -> None:
    update, get = REGISTRY.get("update_plan"), REGISTRY.get("get_plan")
    assert update is not None and get is not None
    assert update.risk.value == "read" and update.annotations["readOnlyHint"] is False  # runs directly, writes
    assert get.annotations["readOnlyHint"] is True
    assert {s.value for s in update.scopes} == {"in_app", "mcp"} and update.label == ("Plan mis à jour", "Plan updated")


def test_an_idle_mcp_session_plan_expires_and_nothing_else_does(rt: ToolRuntime) -> None:
    # a session ends without a word: its plan goes once unused (written or read) for the TTL
    assert rt.data_dir is not None
    call(rt, "update_plan", {"plan": STEPS}, session="idle", mode="mcp")
    call(rt, "update_plan", {"plan": STEPS}, session="busy", mode="mcp")
    call(rt, "update_plan", {"plan": STEPS})  # conversation c1 (in-app): deleted with it, never swept
    call(rt, "update_plan", {"plan": STEPS}, session=None, mode="rest")  # the default plan
    folder = plan_file(rt).parent
    (folder / "mcp-0123.md.unreadable-1").write_text("a person's text\n", encoding="utf-8")
    past = time.time() - 7200
    for p in folder.iterdir():
        os.utime(p, (past, past))
    call(rt, "get_plan", {}, session="busy", mode="mcp")  # a read is a use
    assert plans.sweep_session_plans(rt.data_dir, 3600) == 1
    left = sorted(p.name for p in folder.iterdir())
    assert f"{plan_name('idle', session=True)}.md" not in left
    assert left == sorted(
        ["c1.md", f"{DEFAULT_PLAN}.md", f"{plan_name('busy', session=True)}.md", "mcp-0123.md.unreadable-1"]
    )
    assert call(rt, "get_plan", {}, session="idle", mode="mcp")["exists"] is False
    assert plans.sweep_session_plans(None, 3600) == 0  # no data dir: nothing to do


def test_the_sweep_follows_no_symlink_out_of_the_data_dir(rt: ToolRuntime, tmp_path: Path) -> None:
    assert rt.data_dir is not None
    outside = tmp_path / "outside"
    victim = outside / "users" / "eve" / "plans" / f"{plan_name('s', session=True)}.md"
    victim.parent.mkdir(parents=True)
    victim.write_text("not ours\n", encoding="utf-8")
    os.utime(victim, (0, 0))
    rt.data_dir.mkdir(parents=True, exist_ok=True)
    (rt.data_dir / "users").symlink_to(outside / "users")  # users itself a symlink
    assert plans.sweep_session_plans(rt.data_dir, 60) == 0 and victim.exists()
    (rt.data_dir / "users").unlink()
    (rt.data_dir / "users").mkdir()
    (rt.data_dir / "users" / "eve").symlink_to(outside / "users" / "eve")  # a user's folder
    (rt.data_dir / "users" / "zed").mkdir()
    (rt.data_dir / "users" / "zed" / "plans").symlink_to(outside / "users" / "eve" / "plans")  # a plans folder
    assert plans.sweep_session_plans(rt.data_dir, 60) == 0 and victim.exists()
