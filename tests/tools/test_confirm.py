"""Two-step confirmation (propose → apply) in the tool layer: real registry, real SQLite, real JWTs.

The write tools here are test-only (``write_note``, ``delete_note``): a planner that reads and hashes, a tool that
checks ``ctx.expected_reads`` and writes, as the real mutation tools do through ``services.mutations``.
"""

from __future__ import annotations

import base64
import dataclasses
import difflib
import hashlib
import json
import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import jwt
import pytest
from support import journal_text

from obsigate.auth.principal import Principal
from obsigate.auth.tokens import TokenService
from obsigate.auth.users import User
from obsigate.services.changes import Change
from obsigate.services.errors import Conflict, ServiceError
from obsigate.tools.confirm.flow import strip_secret_fields
from obsigate.tools.confirm.store import CONFIRM_DB_FILE, CONFIRM_KEY_FILE, ConfirmationService, sha256_json
from obsigate.tools.context import ToolContext, ToolRuntime
from obsigate.tools.dispatch import call_tool, visible_tools
from obsigate.tools.ratelimit import ToolRateLimiter
from obsigate.tools.registry import (
    ConfirmArgs,
    Risk,
    ToolArgs,
    ToolKind,
    ToolOutput,
    ToolRegistry,
    ToolSpec,
    tool,
)

ALICE = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt", token_id="t1")
DAVE = Principal(name="dave", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt", token_id="t2")
FAKE_SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"


# --- test-only write tools -------------------------------------------------------------------------


class WriteArgs(ToolArgs):
    vault: str
    path: str
    content: str
    newline: bool = True


class WriteResult(ToolOutput):
    path: str
    bytes: int
    backup_id: str | None = None
    given: list[str] = []  # noqa: RUF012 — a pydantic field: each instance gets its own copy


class NoVault(ToolArgs):
    path: str


class DeleteArgs(ToolArgs):
    vault: str
    path: str


class DeleteResult(ToolOutput):
    path: str
    backups: list[dict[str, str]] = []  # noqa: RUF012 — a pydantic field: each instance gets its own copy


def _target(ctx: ToolContext, vault: str, path: str) -> tuple[Path, Path]:
    root = ctx.workspace.get_vault(vault, ctx.allowed_vaults).root
    return root, root / path


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else ""


def _check_reads(ctx: ToolContext, root: Path) -> None:
    for rel, digest in (ctx.expected_reads or {}).items():
        if _sha(root / rel) != digest:
            raise Conflict(f"{rel} changed since the proposal", hint="propose again")


def plan_write(ctx: ToolContext, args: WriteArgs) -> Change:
    _, target = _target(ctx, args.vault, args.path)
    before = target.read_text(encoding="utf-8") if target.exists() else ""
    diff = "".join(
        difflib.unified_diff(before.splitlines(True), args.content.splitlines(True), f"a/{args.path}", f"b/{args.path}")
    )
    action = "modify" if target.exists() else "create"
    return Change(
        summary=f"{action} {args.path} ({len(args.content)} bytes)",
        changes=[{"path": args.path, "action": action, "diff": diff}],
        reads={args.path: _sha(target)},
        details={"lines": args.content.count("\n")},
    )


def plan_delete(ctx: ToolContext, args: DeleteArgs) -> Change:
    _, target = _target(ctx, args.vault, args.path)
    return Change(
        summary=f"delete {args.path}",
        changes=[{"path": args.path, "action": "delete", "diff": ""}],
        reads={args.path: _sha(target)},
    )


def make_registry() -> ToolRegistry:
    """A registry holding ``write_note`` (write) and ``delete_note`` (dangerous), each with a planner."""
    registry = ToolRegistry()

    @tool("write_note", title="Write a note", risk=Risk.WRITE, planner=plan_write, registry=registry)
    def write_note(ctx: ToolContext, args: WriteArgs) -> WriteResult:
        """Write `content` to the note at `path` (created if missing, replaced otherwise)."""
        root, target = _target(ctx, args.vault, args.path)
        _check_reads(ctx, root)
        existed = target.exists()
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(args.content, encoding="utf-8")
        return WriteResult(
            path=args.path,
            bytes=len(args.content.encode()),
            backup_id="bk-1" if existed else None,
            given=sorted(args.model_fields_set),
        )

    @tool("delete_note", title="Delete a note", risk=Risk.DANGEROUS, planner=plan_delete, registry=registry)
    def delete_note(ctx: ToolContext, args: DeleteArgs) -> DeleteResult:
        """Delete the note at `path` (a copy is kept in the backups)."""
        root, target = _target(ctx, args.vault, args.path)
        _check_reads(ctx, root)
        target.unlink()
        return DeleteResult(path=args.path, backups=[{"path": args.path, "version": "v1"}])

    return registry


# --- fixtures and helpers --------------------------------------------------------------------------


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def rt(runtime: ToolRuntime, data_dir: Path) -> ToolRuntime:
    """The shared test workspace with the test registry and a confirmation service in ``data_dir``."""
    return dataclasses.replace(
        runtime, registry=make_registry(), confirmations=ConfirmationService.in_data_dir(data_dir, ttl_s=300)
    )


def run(ctx: ToolContext, name: str, args: dict[str, Any] | None) -> dict[str, Any]:
    return anyio.run(call_tool, ctx, name, args)


def error_of(ctx: ToolContext, name: str, args: dict[str, Any] | None) -> ServiceError:
    with pytest.raises(ServiceError) as info:
        run(ctx, name, args)
    return info.value


def propose(ctx: ToolContext, path: str = "New.md", content: str = "# New\n\nhello\n") -> dict[str, Any]:
    return run(ctx, "propose_write_note", {"vault": "notes", "path": path, "content": content})


def apply(ctx: ToolContext, token: str) -> dict[str, Any]:
    return run(ctx, "apply_write_note", {"confirmation_token": token})


def apply_error(ctx: ToolContext, token: str, tool_name: str = "write_note") -> ServiceError:
    return error_of(ctx, f"apply_{tool_name}", {"confirmation_token": token})


def _b64(data: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()


# --- registry ----------------------------------------------------------------------------------------


def test_a_planner_derives_a_propose_apply_pair() -> None:
    registry = make_registry()
    assert [s.name for s in registry] == [
        "write_note",
        "propose_write_note",
        "apply_write_note",
        "delete_note",
        "propose_delete_note",
        "apply_delete_note",
    ]
    assert [s.name for s in registry.declared()] == ["write_note", "delete_note"]
    write, propose_spec, apply_spec = (
        registry.get("write_note"),
        registry.get("propose_write_note"),
        registry.get("apply_write_note"),
    )
    assert isinstance(propose_spec, ToolSpec) and isinstance(apply_spec, ToolSpec) and isinstance(write, ToolSpec)
    assert (propose_spec.kind, apply_spec.kind) == (ToolKind.PROPOSE, ToolKind.APPLY)
    assert propose_spec.origin is write and apply_spec.origin is write
    assert propose_spec.input_schema == write.input_schema
    assert list(apply_spec.input_schema["properties"]) == ["confirmation_token"]
    assert apply_spec.input_schema["required"] == ["confirmation_token"]
    assert apply_spec.output_schema == write.output_schema
    out = propose_spec.output_schema["properties"]
    assert {"status", "summary", "diffs", "details", "confirmation_token", "expires_at", "expires_in", "result"} <= set(
        out
    )
    assert out["confirmation_token"]["x-obsigate-secret"] is True
    assert "apply_write_note" in propose_spec.description and "changes NOTHING" in propose_spec.description
    assert write.annotations == {
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": False,
    }
    assert propose_spec.annotations == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": False,
    }
    assert apply_spec.annotations == {
        "readOnlyHint": False,
        "destructiveHint": False,
        "idempotentHint": False,
        "openWorldHint": False,
    }
    assert registry.get("apply_delete_note").annotations["destructiveHint"] is True  # type: ignore[union-attr]
    assert registry.get("delete_note").annotations["destructiveHint"] is True  # type: ignore[union-attr]
    assert registry.get("propose_delete_note").annotations["destructiveHint"] is False  # type: ignore[union-attr]


def test_planner_misuse_is_refused() -> None:
    registry = ToolRegistry()
    with pytest.raises(ValueError, match="write or dangerous"):

        @tool("peek", title="Peek", planner=plan_write, registry=registry)
        def peek(ctx: ToolContext, args: WriteArgs) -> ToolOutput:
            """Read only."""
            return ToolOutput()

    with pytest.raises(ValueError, match="vault"):

        @tool("touch", title="Touch", risk=Risk.WRITE, planner=plan_write, registry=registry)
        def touch(ctx: ToolContext, args: NoVault) -> ToolOutput:
            """No vault."""
            return ToolOutput()

    @tool("propose_x", title="Squatter", registry=registry)
    def squatter(ctx: ToolContext, args: WriteArgs) -> ToolOutput:
        """Takes the derived name first."""
        return ToolOutput()

    with pytest.raises(ValueError, match="registered twice"):

        @tool("x", title="X", risk=Risk.WRITE, planner=plan_write, registry=registry)
        def x(ctx: ToolContext, args: WriteArgs) -> ToolOutput:
            """Its propose_ name is taken."""
            return ToolOutput()

    assert registry.get("x") is None  # nothing half-registered
    with pytest.raises(ValueError, match="derived"):
        ToolRegistry().add(make_registry().get("apply_write_note"))  # type: ignore[arg-type]


def test_model_fronts_list_the_pair_not_the_raw_tool(rt: ToolRuntime) -> None:
    for mode in ("mcp", "in_app"):
        names = [s.name for s in visible_tools(ToolContext(ALICE, rt, mode=mode))]
        assert "write_note" not in names and "delete_note" not in names
        assert {"propose_write_note", "apply_write_note", "propose_delete_note", "apply_delete_note"} <= set(names)
    assert "write_note" in [s.name for s in visible_tools(ToolContext(ALICE, rt, mode="rest"))]
    nobody = Principal(name="nobody", is_admin=False, vaults=frozenset(), auth_kind="jwt")
    assert visible_tools(ToolContext(nobody, rt, mode="mcp")) == []  # apply_ counts as taking a vault


# --- the flow ----------------------------------------------------------------------------------------


def test_propose_changes_nothing_then_apply_writes(rt: ToolRuntime, small_vault: Path, data_dir: Path) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    args = {"vault": "notes", "path": "Ideas.md", "content": "# Ideas\n\nrewritten\n"}
    before = (small_vault / "Ideas.md").read_text()
    out = run(ctx, "propose_write_note", args)
    assert (small_vault / "Ideas.md").read_text() == before
    assert out["status"] == "proposed" and out["tool"] == "write_note" and out["vault"] == "notes"
    assert out["summary"] == "modify Ideas.md (19 bytes)"
    assert out["diffs"][0]["path"] == "Ideas.md" and "+rewritten" in out["diffs"][0]["diff"]
    assert out["details"] == {"lines": 3} and out["result"] is None
    assert 299 <= out["expires_in"] <= 300 and out["expires_at"].endswith("+00:00")

    token = out["confirmation_token"]
    header = jwt.get_unverified_header(token)
    claims = rt.confirmations.decode(token)  # type: ignore[union-attr]
    assert header["typ"] == "mcp_confirmation" and header["alg"] == "HS256"
    assert claims["typ"] == "mcp_confirmation" and claims["aud"] == "obsigate-confirm" and claims["iss"] == "obsigate"
    assert claims["sub"] == "alice" and claims["tool"] == "write_note" and claims["vault"] == "notes"
    assert claims["exp"] - claims["iat"] == 300 and len(claims["jti"]) == 32
    reads = {"Ideas.md": hashlib.sha256(before.encode()).hexdigest()}  # this test tool's own reads
    assert claims["args_sha256"] == rt.confirmations.digest(args) != sha256_json(args)  # keyed: no plain hash
    assert claims["reads_sha256"] == rt.confirmations.digest(reads) != sha256_json(reads)
    assert "rewritten" not in token and "content" not in json.dumps(claims)  # arguments stay server-side

    done = apply(ctx, token)
    assert done == {
        "path": "Ideas.md",
        "bytes": 19,
        "backup_id": "bk-1",
        "given": ["content", "path", "vault"],
        "truncated": False,
        "notice": None,
    }  # a default the caller did not set stays unset on apply (tools may read model_fields_set)
    assert (small_vault / "Ideas.md").read_text() == args["content"]

    proposed, applied = rt.journal.tail(2)  # type: ignore[union-attr]
    assert proposed["tool"] == "propose_write_note" and proposed["action"] == "ai_tool_propose"
    assert proposed["result"] == "ok" and proposed["vault"] == "notes" and proposed["paths"] == ["Ideas.md"]
    assert applied["tool"] == "apply_write_note" and applied["action"] == "ai_tool_apply" and applied["result"] == "ok"
    assert applied["vault"] == "notes" and applied["paths"] == ["Ideas.md"] and applied["backups"] == ["bk-1"]
    assert proposed["proposal"] == applied["proposal"] == claims["jti"]
    assert applied["args"]["path"] == "Ideas.md" and applied["args"]["content"].startswith("<19 chars sha256:")
    log = journal_text(rt.journal.data_dir)  # type: ignore[union-attr]
    assert token not in log and token.split(".")[2] not in log and "rewritten" not in log


def test_a_dangerous_apply_records_its_backups(rt: ToolRuntime, small_vault: Path) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    out = run(ctx, "propose_delete_note", {"vault": "notes", "path": "Ideas.md"})
    assert (small_vault / "Ideas.md").exists()
    assert run(ctx, "apply_delete_note", {"confirmation_token": out["confirmation_token"]})["path"] == "Ideas.md"
    assert not (small_vault / "Ideas.md").exists()
    assert rt.journal.tail(1)[0]["backups"] == ["Ideas.md@v1"]  # type: ignore[union-attr]


def test_replay_is_token_reused_even_after_a_restart(rt: ToolRuntime, small_vault: Path, data_dir: Path) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    token = propose(ctx)["confirmation_token"]
    apply(ctx, token)
    (small_vault / "New.md").write_text("edited by hand\n")
    err = apply_error(ctx, token)
    assert err.code == "token_reused" and err.http_status == 409 and "propose_write_note" in (err.hint or "")
    restarted = dataclasses.replace(rt, confirmations=ConfirmationService.in_data_dir(data_dir, ttl_s=300))
    assert apply_error(ToolContext(ALICE, restarted, mode="mcp"), token).code == "token_reused"
    assert (small_vault / "New.md").read_text() == "edited by hand\n"
    assert rt.journal.tail(1)[0]["result"] == "token_reused"  # type: ignore[union-attr]


def test_a_token_survives_a_restart_until_used(rt: ToolRuntime, small_vault: Path, data_dir: Path) -> None:
    token = propose(ToolContext(ALICE, rt, mode="mcp"))["confirmation_token"]
    restarted = dataclasses.replace(rt, confirmations=ConfirmationService.in_data_dir(data_dir, ttl_s=300))
    apply(ToolContext(ALICE, restarted, mode="mcp"), token)
    assert (small_vault / "New.md").read_text() == "# New\n\nhello\n"


def test_expired_tokens_are_invalid(rt: ToolRuntime, small_vault: Path, data_dir: Path) -> None:
    # issued an hour ago: PyJWT's own exp check against the wall clock refuses it
    past = dataclasses.replace(
        rt, confirmations=ConfirmationService.in_data_dir(data_dir, clock=lambda: time.time() - 3600)
    )
    token = propose(ToolContext(ALICE, past, mode="mcp"))["confirmation_token"]
    err = apply_error(ToolContext(ALICE, rt, mode="mcp"), token)
    assert err.code == "invalid_confirmation" and err.details == {"reason": "expired"}
    assert "propose_write_note" in (err.hint or "")

    # a clock that moves on past the TTL: the service's own exp check
    now = [time.time()]
    moving = dataclasses.replace(
        rt, confirmations=ConfirmationService.in_data_dir(data_dir, ttl_s=60, clock=lambda: now[0])
    )
    ctx = ToolContext(ALICE, moving, mode="mcp")
    token = propose(ctx)["confirmation_token"]
    now[0] += 61
    assert apply_error(ctx, token).details == {"reason": "expired"}
    assert not (small_vault / "New.md").exists()


def test_a_one_second_ttl_expires(rt: ToolRuntime, small_vault: Path, data_dir: Path) -> None:
    short = dataclasses.replace(rt, confirmations=ConfirmationService.in_data_dir(data_dir, ttl_s=1))
    ctx = ToolContext(ALICE, short, mode="mcp")
    token = propose(ctx)["confirmation_token"]
    time.sleep(1.1)
    assert apply_error(ctx, token).code == "invalid_confirmation"
    assert not (small_vault / "New.md").exists()


def test_tampered_and_foreign_tokens_are_invalid(
    rt: ToolRuntime, small_vault: Path, data_dir: Path, tmp_path: Path
) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    token = propose(ctx)["confirmation_token"]
    header_b64, payload_b64, sig = token.split(".")
    claims = rt.confirmations.decode(token)  # type: ignore[union-attr]
    key = bytes.fromhex((data_dir / CONFIRM_KEY_FILE).read_text().strip())
    other_key = os.urandom(32)

    flipped_sig = f"{header_b64}.{payload_b64}.{sig[:-3]}{'A' if sig[-3] != 'A' else 'B'}{sig[-2:]}"
    forged_payload = f"{header_b64}.{_b64({**claims, 'sub': 'alice', 'vault': 'other'})}.{sig}"
    cases = {
        "flipped signature": flipped_sig,
        "edited payload": forged_payload,
        "re-signed with another key": jwt.encode(
            claims, other_key, algorithm="HS256", headers={"typ": "mcp_confirmation"}
        ),
        "alg none": f"{_b64({'alg': 'none', 'typ': 'mcp_confirmation'})}.{payload_b64}.",
        "HS512": jwt.encode(claims, key + key, algorithm="HS512", headers={"typ": "mcp_confirmation"}),
        "header typ JWT": jwt.encode(claims, key, algorithm="HS256", headers={"typ": "JWT"}),
        "claim typ access": jwt.encode(
            {**claims, "typ": "access"}, key, algorithm="HS256", headers={"typ": "mcp_confirmation"}
        ),
        "wrong audience": jwt.encode(
            {**claims, "aud": "obsigate-api"}, key, algorithm="HS256", headers={"typ": "mcp_confirmation"}
        ),
        "no exp": jwt.encode(
            {k: v for k, v in claims.items() if k != "exp"}, key, algorithm="HS256", headers={"typ": "mcp_confirmation"}
        ),
        "no args hash": jwt.encode(
            {k: v for k, v in claims.items() if k != "args_sha256"},
            key,
            algorithm="HS256",
            headers={"typ": "mcp_confirmation"},
        ),
        "garbage": "not-a-token",
        "three dots": "a.b.c",
        "too long": "x" * 8192,
    }
    for what, bad in cases.items():
        err = apply_error(ctx, bad)
        assert err.code == "invalid_confirmation", (what, err.code, err.details)
        assert bad not in err.message and bad not in json.dumps(err.details), what

    # an ObsiGate access token (its own key, typ at+jwt) is never a confirmation
    access = TokenService(tmp_path / "jwt_secret").issue(
        User(id=1, name="alice", is_admin=False, vaults=frozenset({"notes"}), created_at="2026-01-01T00:00:00Z")
    )
    assert apply_error(ctx, access).code == "invalid_confirmation"
    # signed with the right key but bound to other arguments: the stored proposal does not match it
    rebound = jwt.encode(
        {**claims, "args_sha256": "0" * 64}, key, algorithm="HS256", headers={"typ": "mcp_confirmation"}
    )
    assert apply_error(ctx, rebound).details == {"reason": "args_mismatch"}
    assert not (small_vault / "New.md").exists()


def test_a_token_is_for_one_tool_and_unspent_when_refused(rt: ToolRuntime, small_vault: Path) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    token = propose(ctx)["confirmation_token"]
    err = apply_error(ctx, token, "delete_note")
    assert err.code == "invalid_confirmation" and err.details == {"reason": "wrong_tool"}
    assert apply_error(ctx, "").code == "invalid_argument"
    apply(ctx, token)  # the refusals above did not spend it
    assert (small_vault / "New.md").exists()


def test_another_users_token_is_refused(rt: ToolRuntime, small_vault: Path) -> None:
    token = propose(ToolContext(ALICE, rt, mode="mcp"))["confirmation_token"]
    err = apply_error(ToolContext(DAVE, rt, mode="mcp"), token)
    assert err.code == "forbidden" and err.http_status == 403
    assert not (small_vault / "New.md").exists()
    apply(ToolContext(ALICE, rt, mode="mcp"), token)  # still the owner's to use
    assert (small_vault / "New.md").exists()


def test_access_is_checked_again_at_apply(rt: ToolRuntime, small_vault: Path) -> None:
    token = propose(ToolContext(ALICE, rt, mode="mcp"))["confirmation_token"]
    revoked = dataclasses.replace(ALICE, vaults=frozenset({"other"}))
    assert apply_error(ToolContext(revoked, rt, mode="mcp"), token).code == "vault_access_denied"
    assert not (small_vault / "New.md").exists()


def test_a_file_changed_since_the_proposal_is_a_conflict(rt: ToolRuntime, small_vault: Path) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    token = propose(ctx, "Ideas.md", "# Ideas\n\nmine\n")["confirmation_token"]
    (small_vault / "Ideas.md").write_text("# Ideas\n\nsomeone else's edit\n")
    err = apply_error(ctx, token)
    assert err.code == "conflict" and err.http_status == 409
    assert (small_vault / "Ideas.md").read_text() == "# Ideas\n\nsomeone else's edit\n"
    # a file that was absent and now exists is a change too
    token = propose(ctx, "Fresh.md", "new\n")["confirmation_token"]
    (small_vault / "Fresh.md").write_text("created meanwhile\n")
    assert apply_error(ctx, token).code == "conflict"
    assert (small_vault / "Fresh.md").read_text() == "created meanwhile\n"
    assert rt.journal.tail(1)[0]["result"] == "conflict"  # type: ignore[union-attr]


def test_the_raw_write_tool_needs_confirmation(rt: ToolRuntime, small_vault: Path) -> None:
    args = {"vault": "notes", "path": "Raw.md", "content": "x"}
    for mode in ("mcp", "in_app", "rest"):
        err = error_of(ToolContext(ALICE, rt, mode=mode), "write_note", args)
        assert err.code == "confirmation_required" and "propose_write_note" in (err.hint or "")
    assert not (small_vault / "Raw.md").exists()
    run(ToolContext(ALICE, rt, mode="rest", confirmed=True), "write_note", args)  # a REST route after the user's action
    assert (small_vault / "Raw.md").read_text() == "x"


def test_the_destructive_switch_is_checked_at_both_steps(rt: ToolRuntime, small_vault: Path) -> None:
    ctx = ToolContext(ALICE, rt, mode="mcp")
    rt.workspace.destructive = {"notes": False}
    try:
        err = error_of(ctx, "propose_delete_note", {"vault": "notes", "path": "Ideas.md"})
        assert err.code == "destructive_tools_disabled" and err.http_status == 403
        propose(ctx)  # write tools are not destructive
        rt.workspace.destructive = {"notes": True}
        token = run(ctx, "propose_delete_note", {"vault": "notes", "path": "Ideas.md"})["confirmation_token"]
        rt.workspace.destructive = {"notes": False}
        assert error_of(ctx, "apply_delete_note", {"confirmation_token": token}).code == "destructive_tools_disabled"
        assert (small_vault / "Ideas.md").exists()
        assert error_of(
            ToolContext(ALICE, rt, mode="in_app", confirmed=True), "delete_note", {"vault": "notes", "path": "Ideas.md"}
        ).code == ("destructive_tools_disabled")
    finally:
        rt.workspace.destructive = {}


def test_the_token_survives_redaction_and_a_tiny_budget(rt: ToolRuntime, small_vault: Path) -> None:
    rt.workspace.limits = dataclasses.replace(rt.workspace.limits, budget_chars=2_000)
    ctx = ToolContext(ALICE, rt, mode="mcp")
    content = f'api_key = "{FAKE_SECRET}"\n' + "a long line of words\n" * 2_000
    out = propose(ctx, "Big.md", content)
    assert out["truncated"] is True and FAKE_SECRET not in json.dumps(out)
    assert len(json.dumps(out)) < 2_000 + 200
    rt.confirmations.decode(out["confirmation_token"])  # type: ignore[union-attr]  # whole, not redacted or cut
    apply(ctx, out["confirmation_token"])
    assert (small_vault / "Big.md").read_text() == content  # the full arguments were kept server-side


def test_both_steps_are_rate_limited(rt: ToolRuntime) -> None:
    rt.limiter = ToolRateLimiter(limit=2, window_s=60)
    ctx = ToolContext(ALICE, rt, mode="mcp")
    token = propose(ctx)["confirmation_token"]
    propose(ctx, "Other.md")
    codes = set()
    for _ in range(3):
        try:
            apply(ctx, token)
            codes.add("ok")
        except ServiceError as err:
            codes.add(err.code)
    assert "rate_limited" in codes


def test_no_confirmation_service_is_unavailable(runtime: ToolRuntime) -> None:
    rt = dataclasses.replace(runtime, registry=make_registry())
    err = error_of(
        ToolContext(ALICE, rt, mode="mcp"), "propose_write_note", {"vault": "notes", "path": "a.md", "content": ""}
    )
    assert err.code == "unavailable"


# --- the service ---------------------------------------------------------------------------------------


def test_key_and_store_are_private_files(data_dir: Path) -> None:
    service = ConfirmationService.in_data_dir(data_dir)
    key_file, db_file = data_dir / CONFIRM_KEY_FILE, data_dir / CONFIRM_DB_FILE
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600 and stat.S_IMODE(db_file.stat().st_mode) == 0o600
    assert len(bytes.fromhex(key_file.read_text().strip())) == 32
    assert (
        ConfirmationService.in_data_dir(data_dir).decode(
            service.issue(user="u", tool="t", vault="v", args={}, reads={}).token
        )["sub"]
        == "u"
    )  # same key after a restart


def test_expired_rows_are_purged(data_dir: Path) -> None:
    now = [time.time()]
    service = ConfirmationService.in_data_dir(data_dir, ttl_s=10, clock=lambda: now[0])
    spent = service.issue(user="u", tool="t", vault="v", args={"a": 1}, reads={})
    service.redeem(spent.token, user="u", tool="t")
    service.issue(user="u", tool="t", vault="v", args={"a": 2}, reads={})
    now[0] += 11
    assert service.purge() == 1  # the pending proposal; the spent jti is kept a grace minute longer
    now[0] += 60
    assert service.purge() == 1
    assert service.purge() == 0


def test_revoke_spends_a_token(data_dir: Path) -> None:
    service = ConfirmationService.in_data_dir(data_dir)
    issued = service.issue(user="u", tool="t", vault="v", args={}, reads={})
    assert service.revoke(issued.token, user="someone else") is None
    assert service.revoke(issued.token, user="u") == issued.jti
    with pytest.raises(ServiceError) as info:
        service.redeem(issued.token, user="u", tool="t")
    assert info.value.code == "token_reused"


def test_many_threads_take_turns_on_the_store(data_dir: Path) -> None:
    """Regression (issue 20, 50 MCP sessions): concurrent proposals failed with ``database is locked`` once
    SQLite's unfair busy wait ran out; threads of one process now queue. A 50 ms busy timeout makes the old
    failure certain here; every issue and redeem must land."""
    service = ConfirmationService(data_dir / CONFIRM_KEY_FILE, data_dir / CONFIRM_DB_FILE, busy_timeout_s=0.05)
    errors: list[BaseException] = []

    def work(i: int) -> None:
        for j in range(5):
            try:
                issued = service.issue(user="u", tool="t", vault="v", args={"i": i, "j": j}, reads={})
                assert service.redeem(issued.token, user="u", tool="t").args == {"i": i, "j": j}
            except BaseException as exc:  # noqa: BLE001 — collected, asserted below
                errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []


def test_strip_secret_fields_for_model_prompts(rt: ToolRuntime) -> None:
    out = propose(ToolContext(ALICE, rt, mode="in_app"))
    stripped = strip_secret_fields(out)
    assert "confirmation_token" not in stripped and stripped["summary"] == out["summary"]
    assert out["confirmation_token"]  # the original still has it, for the Apply card
    assert ConfirmArgs.model_fields["confirmation_token"].is_required()


def test_an_inline_decline_is_audited_with_its_proposal(rt: ToolRuntime, small_vault: Path) -> None:
    """``settle(decline)`` spends the token and its audit record names the vault, the paths and the proposal."""
    from obsigate.tools.api import Answer, settle

    ctx = ToolContext(ALICE, rt, mode="mcp")
    proposed = propose(ctx, "Declined.md")
    out = anyio.run(settle, ctx, proposed, Answer.DECLINE)
    assert out["status"] == "declined" and out["confirmation_token"] is None
    record = rt.journal.tail(1)[0]  # type: ignore[union-attr]
    assert (record["tool"], record["action"], record["vault"]) == ("decline_write_note", "ai_tool_decline", "notes")
    assert record["paths"] == ["Declined.md"] and record["proposal"] == rt.journal.tail(2)[0]["proposal"]  # type: ignore[union-attr]
    assert apply_error(ctx, proposed["confirmation_token"]).code == "token_reused"
    assert not (small_vault / "Declined.md").exists()
