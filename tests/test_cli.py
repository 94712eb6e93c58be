"""The `obsigate` command as a user runs it: in process (``cli_runner``), and two smoke tests of the real program."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import jwt
import pytest
from cli_runner import run_cli as run
from support import DEMO_VAULT, free_port

OBSIGATE = [sys.executable, "-m", "obsigate"]


@pytest.fixture
def serve_stops_before_listening(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """In process, a ``serve`` that got past its checks would serve until killed: fail it instead."""
    import uvicorn

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("serve got past its checks and started uvicorn")

    monkeypatch.setattr(uvicorn, "run", refuse)
    yield


# --- the real program (smoke tests) ----------------------------------------------------------------------------


def test_the_console_script_prints_its_help() -> None:
    script = shutil.which("obsigate", path=str(Path(sys.executable).parent))
    assert script is not None, "the obsigate console script is not installed next to this Python"
    r = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    for command in ("serve", "user", "token", "key", "index", "secret", "ai"):
        assert command in r.stdout


def test_serve_starts_and_answers_health(tmp_path: Path) -> None:
    """``python -m obsigate serve`` on a free loopback port: the banner, then /api/health answers."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [*OBSIGATE, "serve", "--vault", f"demo={DEMO_VAULT}", "--no-auth", "--port", str(port),
             "--data-dir", str(tmp_path / "data")],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "obsigate serve did not answer /api/health"
                try:
                    health = httpx2.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                    break
                except httpx2.TransportError:
                    time.sleep(0.1)
        finally:
            proc.terminate()
            proc.wait(timeout=15)
    assert health.status_code == 200 and "index" in health.json()
    assert "MCP:" in log.read_text() and f"127.0.0.1:{port}/mcp" in log.read_text()


# --- the commands, in process ----------------------------------------------------------------------------------


def test_user_add_then_token_create(tmp_path: Path) -> None:
    data = tmp_path / "data"
    r = run("user", "add", "alice", "--vaults", "tasks,later", "--password-stdin", data=data, stdin="a good password\n")
    assert r.returncode == 0, r.stderr
    token = run("token", "create", "--user", "alice", "--ttl", "600", data=data)
    assert token.returncode == 0, token.stderr
    value = token.stdout.strip()
    assert value.count(".") == 2 and "\n" not in value  # the token alone on stdout
    claims = jwt.decode(value, options={"verify_signature": False})
    assert claims["sub"] == "alice" and claims["exp"] - claims["iat"] == 600
    listing = run("user", "list", data=data).stdout
    assert "alice" in listing and "later,tasks" in listing
    assert oct((data / "users.sqlite3").stat().st_mode & 0o777) == "0o600"
    assert oct((data / "jwt_secret").stat().st_mode & 0o777) == "0o600"


def test_user_add_admin_makes_an_admin(tmp_path: Path) -> None:
    """The README's way to create an admin (who may manage users and the AI settings)."""
    from obsigate.auth.users import UserStore

    data = tmp_path / "data"
    r = run("user", "add", "root", "--admin", "--vaults", "*", "--password-stdin", data=data, stdin="a good password\n")
    assert r.returncode == 0 and "created user root (admin=True, vaults=*)" in r.stderr, r.stderr
    run("user", "add", "bob", "--vaults", "notes", data=data)
    listing = run("user", "list", data=data).stdout.splitlines()
    assert "root\tadmin=True\tvaults=*" in listing and "bob\tadmin=False\tvaults=notes" in listing
    with UserStore(data / "users.sqlite3") as store:
        assert store.verify_password("root", "a good password").is_admin


def test_api_key_create_prints_the_key_alone(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run("user", "add", "bot", "--vaults", "*", data=data)
    r = run("key", "create", "--user", "bot", data=data)
    assert r.returncode == 0 and r.stdout.strip().startswith("og_")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("token", "create", "--user", "ghost"), "no user named"),
        (("user", "add", "bad name!"), "user name"),
        (("index", "rebuild"), "no vault declared"),
        (("index", "rebuild", "--vault", "x=/definitely/missing"), "does not exist"),
        (("index", "rebuild", "--vault", "novalue"), "NAME=PATH"),
        (("token", "create", "--user", "alice", "--ttl", "5"), "ttl"),
    ],
)
def test_bad_input_is_a_clear_error(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    data = tmp_path / "data"
    run("user", "add", "alice", data=data)
    r = run(*args, data=data)
    assert r.returncode != 0
    assert message.lower() in r.stderr.lower(), r.stderr
    assert "Traceback" not in r.stderr


def test_index_rebuild_counts_the_demo_vault(tmp_path: Path) -> None:
    r = run("index", "rebuild", "--vault", f"demo={DEMO_VAULT}", data=tmp_path / "data")
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert stats["notes"] == 23


@pytest.mark.usefixtures("serve_stops_before_listening")
def test_serve_refuses_no_auth_on_a_public_bind(tmp_path: Path) -> None:
    """Refused before the port is looked at: the answer is the same whether the port is free or not."""
    with socket.socket() as busy:  # never the default 8000: a `make run` beside the tests holds it
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        for port in (free_port(), busy.getsockname()[1]):
            r = run(
                "serve",
                "--vault",
                f"demo={DEMO_VAULT}",
                "--no-auth",
                "--host",
                "0.0.0.0",
                "--port",
                str(port),
                data=tmp_path / "data",
            )
            assert r.returncode == 2 and "--force-no-auth" in r.stderr and "cannot listen" not in r.stderr, r.stderr


def test_settings_precedence_flag_over_env_over_config(tmp_path: Path) -> None:
    from obsigate.config import load_settings

    data = tmp_path / "data"
    data.mkdir()
    (data / "config.json").write_text(json.dumps({"port": 7001, "token_ttl": 999, "tool_rate_limit": 5}))
    env = {"OBSIGATE_PORT": "7002", "OBSIGATE_TOKEN_TTL": "1234"}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        s = load_settings(data_dir=data, port=7003)
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    assert (s.port, s.token_ttl, s.tool_rate_limit) == (7003, 1234, 5)


def test_index_rebuild_while_the_index_is_held_is_refused(tmp_path: Path) -> None:
    from obsigate.domain.index.vault_index import VaultIndex

    data = tmp_path / "data"
    data.mkdir()
    held = VaultIndex(data / "index.sqlite3")  # stands for a running server on the same data dir
    try:
        r = run("index", "rebuild", "--vault", f"demo={DEMO_VAULT}", data=data)
    finally:
        held.close()
    assert r.returncode == 2 and "another ObsiGate process" in r.stderr


def test_data_dir_inside_a_vault_is_refused(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "a.md").write_text("# a")
    r = run("index", "rebuild", "--vault", f"v={vault}", data=vault / "data")
    assert r.returncode == 2 and "overlaps vault" in r.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--vault", "a=/tmp", "--vault", "a=/var"), "declared twice"),
        (("--vault", f"a={__file__}"), "is a file"),
    ],
)
def test_vault_declaration_errors(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    r = run("index", "rebuild", *args, data=tmp_path / "data")
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


@pytest.mark.usefixtures("serve_stops_before_listening")
def test_serve_on_a_busy_port_fails_before_the_banner(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = run("serve", "--vault", f"demo={DEMO_VAULT}", "--no-auth", "--port", str(port), data=tmp_path / "data")
    assert r.returncode == 2 and "cannot listen" in r.stderr and "MCP:" not in r.stdout


def test_refused_data_dir_leaves_the_vault_untouched(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir(mode=0o755)
    os.chmod(vault, 0o755)
    r = run("index", "rebuild", "--vault", f"v={vault}", data=vault)
    assert r.returncode == 2 and "overlaps vault" in r.stderr
    assert oct(vault.stat().st_mode & 0o777) == "0o755"
    r = run("index", "rebuild", "--vault", f"v={vault}", data=vault / "data")
    assert r.returncode == 2 and not (vault / "data").exists()


def _grants_of(name: str, data: Path) -> str:
    line = next(row for row in run("user", "list", data=data).stdout.splitlines() if row.startswith(name + "\t"))
    return line.rsplit("vaults=", 1)[1]


def test_user_grant_revoke_passwd_keep_the_api_keys(tmp_path: Path) -> None:
    from obsigate.auth.users import UserStore

    data = tmp_path / "data"
    run("user", "add", "alice", "--vaults", "a", "--password-stdin", data=data, stdin="first password\n")
    key = run("key", "create", "--user", "alice", data=data).stdout.strip()
    r = run("user", "grant", "alice", "--vaults", "b, c", data=data)
    assert r.returncode == 0 and "vaults=a,b,c" in r.stderr, r.stderr
    r = run("user", "revoke", "alice", "--vaults", "a,c", data=data)
    assert r.returncode == 0 and _grants_of("alice", data) == "b", r.stderr
    assert run("user", "grant", "alice", "--vaults", "*", data=data).returncode == 0
    assert _grants_of("alice", data) == "*"
    assert run("user", "revoke", "alice", "--vaults", "*", data=data).returncode == 0
    assert _grants_of("alice", data) == "(none)"
    r = run("user", "passwd", "alice", "--password-stdin", data=data, stdin="second password\n")
    assert r.returncode == 0, r.stderr
    with UserStore(data / "users.sqlite3") as store:
        assert store.verify_password("alice", "second password").name == "alice"
        assert store.verify_api_key(key) is not None  # the key survived every change


@pytest.mark.parametrize(
    ("args", "stdin", "code", "message"),
    [
        (("user", "grant", "ghost", "--vaults", "a"), None, "not_found", "no user named 'ghost'"),
        (("user", "revoke", "ghost", "--vaults", "a"), None, "not_found", "no user named 'ghost'"),
        (("user", "passwd", "ghost", "--password-stdin"), "a long password\n", "not_found", "no user named 'ghost'"),
        (("user", "grant", "alice", "--vaults", " , "), None, "invalid_argument", "at least one vault"),
        (("user", "grant", "alice", "--vaults", "bad name"), None, "invalid_argument", "vault name"),
        (("user", "revoke", "alice", "--vaults", "zzz"), None, "invalid_argument", "no grant on zzz"),
        (("user", "passwd", "alice", "--password-stdin"), "short\n", "invalid_argument", "8-1024"),
        (("user", "passwd", "alice"), None, "invalid_argument", "--password-stdin"),
        (("user", "delete", "ghost"), None, "not_found", "no user named"),
        (("user", "signout-all", "ghost"), None, "not_found", "no user named 'ghost'"),
        (("user", "add", "alice"), None, "exists", "already exists"),
    ],
)
def test_user_commands_refuse_bad_input_with_a_stable_code(
    tmp_path: Path, args: tuple[str, ...], stdin: str | None, code: str, message: str
) -> None:
    data = tmp_path / "data"
    run("user", "add", "alice", "--vaults", "a", data=data)
    r = run(*args, data=data, stdin=stdin)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.startswith(f"error: {code}: ") and message in r.stderr, r.stderr
    assert _grants_of("alice", data) == "a"  # nothing changed


def test_client_configs_use_mcp_remote_over_streamable_http_only() -> None:
    from obsigate.cli import client_configs
    from obsigate.config import load_settings

    printed = client_configs(load_settings(port=8000))
    claude = json.loads(printed.split("Claude Desktop (claude_desktop_config.json):\n", 1)[1].split("\n\n", 1)[0])
    args = claude["mcpServers"]["obsigate"]["args"]
    assert args[-2:] == ["--transport", "http-only"] and "mcp-remote" in args
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert '"--transport", "http-only"' in readme.split("## Connect an MCP client", 1)[1].split("**Cursor**", 1)[0]


def test_a_piped_password_is_one_line_and_not_blank(tmp_path: Path) -> None:
    """`--password-stdin` refuses a second line (it was silently dropped) and a password of spaces only."""
    from typer.testing import CliRunner

    from obsigate.cli import app

    runner = CliRunner()
    data = ["--data-dir", str(tmp_path / "data")]
    two = runner.invoke(app, ["user", "add", "ann", "--password-stdin", *data], input="longenough1\nsecond\n")
    assert two.exit_code == 2 and "invalid_argument" in two.output
    blank = runner.invoke(app, ["user", "add", "ann", "--password-stdin", *data], input="          \n")
    assert blank.exit_code == 2 and "only spaces" in blank.output
    ok = runner.invoke(app, ["user", "add", "ann", "--password-stdin", *data], input="longenough1\n")
    assert ok.exit_code == 0


def test_secret_rotate_replaces_the_jwt_key(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run("user", "add", "alice", "--vaults", "*", data=data)
    token = run("token", "create", "--user", "alice", data=data).stdout.strip()
    old_key = bytes.fromhex((data / "jwt_secret").read_text().strip())
    r = run("secret", "rotate", data=data)
    assert r.returncode == 0 and r.stdout == "" and "jwt_secret" in r.stderr, r.stderr
    new_key = bytes.fromhex((data / "jwt_secret").read_text().strip())
    assert len(new_key) == 64 and new_key != old_key
    assert oct((data / "jwt_secret").stat().st_mode & 0o777) == "0o600"
    assert not [p.name for p in data.iterdir() if p.name.endswith(".tmp")]  # no temp file left behind
    options = {"verify_aud": False}
    assert jwt.decode(token, old_key, algorithms=["HS256"], options=options)["sub"] == "alice"
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(token, new_key, algorithms=["HS256"], options=options)
    fresh = run("token", "create", "--user", "alice", data=data).stdout.strip()
    assert jwt.decode(fresh, new_key, algorithms=["HS256"], options=options)["sub"] == "alice"
    assert run("secret", "rotate", data=tmp_path / "new").returncode == 0  # no key yet: one is made


def test_a_broken_jwt_key_is_one_error_line_naming_the_fix(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run("user", "add", "alice", "--vaults", "*", data=data)
    (data / "jwt_secret").write_text("not a key")
    r = run("token", "create", "--user", "alice", data=data)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "obsigate secret rotate" in r.stderr, r.stderr
    assert run("secret", "rotate", data=data).returncode == 0
    assert run("token", "create", "--user", "alice", data=data).returncode == 0


def test_user_signout_all_and_passwd_bump_the_token_version(tmp_path: Path) -> None:
    from obsigate.auth.users import UserStore

    data = tmp_path / "data"
    run("user", "add", "alice", "--vaults", "*", "--password-stdin", data=data, stdin="first password\n")
    key = run("key", "create", "--user", "alice", data=data).stdout.strip()
    r = run("user", "signout-all", "alice", data=data)
    assert r.returncode == 0 and "API keys kept" in r.stderr, r.stderr
    r = run("user", "passwd", "alice", "--password-stdin", data=data, stdin="second password\n")
    assert r.returncode == 0 and "no longer work" in r.stderr, r.stderr
    with UserStore(data / "users.sqlite3") as store:
        assert store.get_user("alice").token_version == 2 and store.verify_api_key(key) is not None
    r = run("user", "signout-all", "alice", "--api-keys", data=data)
    assert r.returncode == 0 and "revoked 1 API key(s)" in r.stderr, r.stderr
    with UserStore(data / "users.sqlite3") as store:
        assert store.get_user("alice").token_version == 3 and store.verify_api_key(key) is None
