"""The ``obsigate`` command: serve, manage users, tokens and the server's secrets, rebuild the index.

Every subcommand takes ``--data-dir`` (env ``OBSIGATE_DATA_DIR``, default ``./data``). Settings
precedence: flags > ``OBSIGATE_*`` env > ``<data-dir>/config.json`` > defaults (see ``docs/configuration.md``).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console

from obsigate.auth.users import User, UserStore
from obsigate.bootstrap import (
    USERS_FILE,
    ConfigError,
    build_runtime,
    build_vaults,
    check_auth_bind,
    journal_anchors,
    open_auth,
    prepare_data_dir,
    read_journal,
    run_mcp_stdio,
)
from obsigate.config import Settings, VaultSettings, load_settings, parse_vault_specs
from obsigate.demo import DEMO_VAULT_NAME, DemoVaultError, default_demo_dir, prepare_demo_vault
from obsigate.services.errors import NotFound, ServiceError

app = typer.Typer(
    help="ObsiGate: serve markdown vaults to people and AI agents (REST + MCP).",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,  # a traceback must never print a password or API key
)
user_app = typer.Typer(help="Manage users.", no_args_is_help=True)
token_app = typer.Typer(help="Issue access tokens.", no_args_is_help=True)
key_app = typer.Typer(
    help="Manage API keys (long-lived bearer keys for MCP clients and scripts).", no_args_is_help=True
)
index_app = typer.Typer(help="Manage the search index.", no_args_is_help=True)
secret_app = typer.Typer(help="The server's own secrets (incident response).", no_args_is_help=True)
ai_app = typer.Typer(help="The assistant's LLM providers: status and API keys.", no_args_is_help=True)
ai_key_app = typer.Typer(
    help="Store or remove a provider's API key (in <data-dir>/api_keys.json, mode 0600).", no_args_is_help=True
)
mcp_app = typer.Typer(
    help="MCP over stdio for local clients (Claude Desktop, Claude Code, Cursor, VS Code).", no_args_is_help=True
)
ai_app.add_typer(ai_key_app, name="key")
app.add_typer(mcp_app, name="mcp")
app.add_typer(user_app, name="user")
app.add_typer(token_app, name="token")
app.add_typer(key_app, name="key")
app.add_typer(index_app, name="index")
app.add_typer(secret_app, name="secret")
app.add_typer(ai_app, name="ai")
journal_app = typer.Typer(
    help="The tool journal: one chained, signed row per tool call (verify, tail, search, export).",
    no_args_is_help=True,
)
app.add_typer(journal_app, name="journal")

err = Console(stderr=True, soft_wrap=True)  # one error = one line, whatever the terminal width

DataDir = Annotated[
    Path | None,
    typer.Option("--data-dir", envvar="OBSIGATE_DATA_DIR", help="Data folder (index, users, keys, journal)."),
]
VaultOpt = Annotated[list[str] | None, typer.Option("--vault", help="Declare a vault: NAME=PATH (repeatable).")]
DemoOpt = Annotated[
    bool,
    typer.Option(
        "--demo",
        help="Also serve the demo vault that ships with ObsiGate, as vault 'demo': copied to --demo-dir on the "
        "first run, that copy reused (with your edits) after. Auth applies as usual: add --no-auth to try it "
        "(serve: on loopback only), or use a user granted it (obsigate user add NAME --vaults demo "
        "--password-stdin; mcp stdio: --user NAME).",
    ),
]
DemoDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--demo-dir",
        envvar="OBSIGATE_DEMO_DIR",
        help="Where --demo keeps its copy (default: demo-vault in the user's data folder, "
        "e.g. ~/.local/share/obsigate/demo-vault). Must be outside --data-dir.",
    ),
]


#: How ObsiGate's own log lines look on the console: time, level, logger, message.
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def console_logging() -> None:
    """Print ObsiGate's own log lines (the ``obsigate.*`` loggers, INFO and up) on stderr: what a start did
    (a change recovered from the journal), an internal error's id and traceback. Once per process."""
    logger = logging.getLogger("obsigate")
    if any(getattr(h, "obsigate_console", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    handler.obsigate_console = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}")
    return typer.Exit(code)


@contextmanager
def _reported() -> Iterator[None]:
    """Turn the expected failures of the block (a ``ServiceError``, a ``ConfigError``) into one error line on
    stderr and exit status 2; their messages already say how to fix the call, so no traceback. A
    ``ServiceError`` line starts with its stable code: ``error: not_found: no user named 'bob'``."""
    try:
        yield
    except ServiceError as exc:
        raise _fail(_service_line(exc.code, exc.message, exc.hint)) from None
    except ConfigError as exc:
        raise _fail(str(exc)) from None


def _service_line(code: str, message: str, hint: str | None = None) -> str:
    """One CLI error: the stable code first (scripts match it), then the message and the next step."""
    return f"{code}: {message}" + (f" ({hint})" if hint else "")


def _stdin_password() -> str:
    """The password piped on stdin: exactly one line. More text after it, or a password of spaces only, is
    refused rather than silently cut or accepted."""
    return _stdin_line("password")


def _stdin_line(what: str) -> str:
    """One secret (``what``: ``password``, ``API key``) piped on stdin: exactly one line; more text after it,
    or a value of spaces only, is refused rather than silently cut or accepted. May be empty."""
    lines = sys.stdin.read().splitlines()
    value = lines[0] if lines else ""
    if any(line.strip() for line in lines[1:]):
        raise _fail(_service_line("invalid_argument", f"give the {what} on one line of stdin", "nothing after it"))
    if value and not value.strip():
        raise _fail(_service_line("invalid_argument", f"the {what} is only spaces"))
    return value


def _need_vaults(settings: Settings) -> None:
    if not settings.vaults:
        raise _fail("no vault declared: pass --vault NAME=PATH (or set vaults in config.json)")


def _with_demo(settings: Settings, demo_dir: Path | None) -> Settings:
    """``settings`` plus the vault ``demo``: the user's copy of the packaged demo vault (made if missing)."""
    if DEMO_VAULT_NAME in settings.vaults:
        raise _fail(f"--demo serves a vault named {DEMO_VAULT_NAME!r}, but one is already declared: rename it")
    target = Path(os.path.realpath(demo_dir or default_demo_dir()))
    for name, vs in settings.vaults.items():
        root = Path(os.path.realpath(vs.path))
        if target == root or target.is_relative_to(root) or root.is_relative_to(target):
            raise _fail(
                f"--demo-dir {str(target)!r} overlaps vault {name!r} ({str(root)!r}): choose a folder outside it"
            )
    try:
        path = prepare_demo_vault(demo_dir)
    except DemoVaultError as exc:
        raise _fail(str(exc)) from None
    return settings.model_copy(update={"vaults": {**settings.vaults, DEMO_VAULT_NAME: VaultSettings(path=path)}})


def _grants(vaults: frozenset[str] | None) -> str:
    """A user's vault grants as the CLI shows them: ``*`` (all), ``a,b`` or ``(none)``."""
    return "*" if vaults is None else ",".join(sorted(vaults)) or "(none)"


def _settings(**flags: Any) -> Settings:
    vault_specs = flags.pop("vault", None)
    if vault_specs:
        try:
            flags["vaults"] = parse_vault_specs(vault_specs)
        except ValueError as exc:
            raise _fail(str(exc)) from None
    try:
        return load_settings(**flags)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}" for e in exc.errors(include_url=False)
        )
        raise _fail(f"invalid settings: {problems}") from None
    except ValueError as exc:
        raise _fail(f"invalid settings: {exc}") from None


def client_configs(settings: Settings) -> str:
    """Ready-to-paste MCP client configurations for this server (Claude Desktop via mcp-remote, Cursor)."""
    url = f"{settings.base_url}/mcp"
    header = ["--header", "Authorization:Bearer ${OBSIGATE_TOKEN}"] if settings.auth_enabled else []
    claude = {
        "mcpServers": {
            "obsigate": {
                "command": "npx",
                # http-only: ObsiGate speaks Streamable HTTP only; mcp-remote must not fall back to SSE
                "args": ["-y", "mcp-remote", url, *header, "--transport", "http-only"],
                **(
                    {"env": {"OBSIGATE_TOKEN": "<paste: obsigate token create --user NAME>"}}
                    if settings.auth_enabled
                    else {}
                ),
            }
        }
    }
    cursor = {
        "mcpServers": {
            "obsigate": {
                "url": url,
                **({"headers": {"Authorization": "Bearer <token>"}} if settings.auth_enabled else {}),
            }
        }
    }
    return (
        "Claude Desktop (claude_desktop_config.json):\n"
        + json.dumps(claude, indent=2)
        + "\n\nCursor (.cursor/mcp.json):\n"
        + json.dumps(cursor, indent=2)
    )


@app.command()
def serve(
    data_dir: DataDir = None,
    vault: VaultOpt = None,
    host: Annotated[str | None, typer.Option(help="Address to bind (default 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default 8000).")] = None,
    no_auth: Annotated[bool, typer.Option("--no-auth", help="Disable authentication (loopback only).")] = False,
    force_no_auth: Annotated[
        bool, typer.Option("--force-no-auth", help="Allow --no-auth on a non-loopback bind. Dangerous.")
    ] = False,
    public_url: Annotated[str | None, typer.Option(help="Base URL clients use, if behind a proxy.")] = None,
    demo: DemoOpt = False,
    demo_dir: DemoDirOpt = None,
) -> None:
    """Serve the vaults over REST (/api), MCP (/mcp) and a small web page (/)."""
    import uvicorn

    from obsigate.bootstrap import create_app

    settings = _settings(
        data_dir=data_dir,
        vault=vault,
        host=host,
        port=port,
        auth_enabled=False if no_auth else None,
        force_no_auth=True if force_no_auth else None,
        public_url=public_url,
    )
    if not demo:
        _need_vaults(settings)
    with _reported():
        check_auth_bind(settings)  # a refused bind says so whether or not the port is free
    _check_port_free(settings.host, settings.port)
    if demo:  # copied only once the server can start: a refused run leaves nothing behind
        settings = _with_demo(settings, demo_dir)
    console_logging()  # before create_app: the change recovery it runs prints what it did
    with _reported():
        application = create_app(settings)
    out = Console(soft_wrap=True)  # a long path stays on its line, whatever the terminal's width
    out.print(f"[bold]ObsiGate[/bold] serving {', '.join(settings.vaults)}")
    out.print(f"  Web:  {settings.base_url}/")
    out.print(f"  MCP:  {settings.base_url}/mcp")
    out.print(f"  API:  {settings.base_url}/docs")
    if demo:
        out.print(f"  Demo: {settings.vaults[DEMO_VAULT_NAME].path} (your copy: delete it to start afresh)")
    if settings.auth_enabled:
        out.print("  Auth: on — create a token with: obsigate token create --user NAME")
        if not application.state.auth.users.list_users():
            out.print("        no user yet: obsigate user add NAME --vaults '*' --password-stdin")
    else:
        out.print("  Auth: [yellow]off[/yellow] (anonymous access to every vault)")
    out.print("\n" + client_configs(settings), markup=False, highlight=False)
    uvicorn.run(application, host=settings.host, port=settings.port, log_level="warning", proxy_headers=False)


UserOpt = Annotated[
    str | None, typer.Option("--user", help="The local user whose vault grants apply (obsigate user add).")
]
NoAuthOpt = Annotated[
    bool, typer.Option("--no-auth", help="No user: the anonymous user with every vault (stated, never implied).")
]


@mcp_app.command("stdio")
def mcp_stdio(
    data_dir: DataDir = None,
    vault: VaultOpt = None,
    user: UserOpt = None,
    no_auth: NoAuthOpt = False,
    demo: DemoOpt = False,
    demo_dir: DemoDirOpt = None,
) -> None:
    """Serve MCP on stdin/stdout (JSON-RPC only on stdout, logs on stderr) until stdin closes.

    Shares the data dir with a running `obsigate serve` of the same vaults by forwarding to it; refuses
    any other holder. See `obsigate mcp config` for client configurations."""
    settings = _settings(data_dir=data_dir, vault=vault, auth_enabled=False if no_auth else None)
    if demo:
        settings = _with_demo(settings, demo_dir)
    _need_vaults(settings)
    console_logging()  # stderr: stdout carries only JSON-RPC
    with _reported():
        run_mcp_stdio(settings, user)


#: ``obsigate mcp config --client NAME``: where each client keeps its MCP servers.
CLIENTS = {
    "claude-desktop": "claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/; "
    "Windows: %APPDATA%\\Claude\\)",
    "claude-code": "run in a shell (or the same server in .mcp.json)",
    "cursor": ".cursor/mcp.json in a project, or ~/.cursor/mcp.json",
    "vscode": '.vscode/mcp.json in a workspace (or the user configuration\'s "mcp" section)',
}


@mcp_app.command("config")
def mcp_config(
    client: Annotated[str, typer.Option("--client", help=f"One of: {', '.join(CLIENTS)}.")],
    data_dir: DataDir = None,
    vault: VaultOpt = None,
    user: UserOpt = None,
    no_auth: NoAuthOpt = False,
    demo: DemoOpt = False,
    demo_dir: DemoDirOpt = None,
) -> None:
    """Print the configuration that makes CLIENT start `obsigate mcp stdio` (absolute paths). The vaults and the
    user are checked now, so the client does not fail later where its logs hide why."""
    if client not in CLIENTS:
        raise _fail(_service_line("invalid_argument", f"unknown client {client!r}", f"one of: {', '.join(CLIENTS)}"))
    settings = _settings(data_dir=data_dir, vault=vault, auth_enabled=False if no_auth else None)
    if not demo:
        _need_vaults(settings)
    with _reported():
        build_vaults(settings)  # a missing vault folder is refused here, naming it
    if settings.auth_enabled and not user:
        raise _fail("name the local user the client acts as: --user NAME (or --no-auth)")
    if user:
        _check_local_user(Path(settings.data_dir), user)
    err.print(f"{client}: {CLIENTS[client]}")
    extra = (["--demo"] + (["--demo-dir", str(demo_dir.resolve())] if demo_dir else [])) if demo else []
    typer.echo(stdio_client_config(client, settings, user, extra))


def _check_local_user(data_dir: Path, user: str) -> None:
    """Fail unless ``user`` exists in ``data_dir``'s user store (which this check never creates)."""
    if (data_dir / USERS_FILE).is_file():
        users = UserStore(data_dir / USERS_FILE)
        try:
            if users.get_user(user) is not None:
                return
        finally:
            users.close()
    raise _fail(f"no local user {user!r} in {data_dir.resolve()}; create it: obsigate user add {user} --vaults ...")


def stdio_command(settings: Settings, user: str | None, extra: list[str] | None = None) -> list[str]:
    """The argv (absolute paths) that starts `obsigate mcp stdio` for ``settings`` and ``user`` (``extra``:
    more of its options, e.g. ``--demo``): this installation's ``obsigate`` script beside its interpreter, else
    ``python -m obsigate``."""
    script = Path(sys.executable).parent / "obsigate"
    argv = [str(script)] if script.is_file() else [sys.executable, "-m", "obsigate"]
    argv += ["mcp", "stdio", "--data-dir", str(Path(settings.data_dir).resolve())]
    for name, vs in settings.vaults.items():
        argv += ["--vault", f"{name}={vs.path.resolve()}"]
    return argv + (extra or []) + (["--user", user] if user else ["--no-auth"])


def stdio_client_config(client: str, settings: Settings, user: str | None, extra: list[str] | None = None) -> str:
    """``client``'s configuration snippet (JSON, or a shell command for claude-code) for the stdio server."""
    import shlex

    command, *args = stdio_command(settings, user, extra)
    if client == "claude-code":
        return shlex.join(["claude", "mcp", "add", "--transport", "stdio", "obsigate", "--", command, *args])
    server = {"command": command, "args": args}
    if client == "vscode":
        return json.dumps({"servers": {"obsigate": {"type": "stdio", **server}}}, indent=2)
    return json.dumps({"mcpServers": {"obsigate": server}}, indent=2)


def _check_port_free(host: str, port: int) -> None:
    """Fail early, before the banner, when something already listens on ``host:port``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise _fail(
                f"cannot listen on {host}:{port} ({exc.strerror}); is ObsiGate already running? try --port"
            ) from None


def _auth(data_dir: Path | None):
    settings = _settings(data_dir=data_dir)
    try:
        with _reported():
            return open_auth(settings, prepare_data_dir(settings.data_dir)), settings
    except (OSError, sqlite3.Error) as exc:
        raise _fail(f"cannot open the user database in {settings.data_dir}: {exc}") from None


@user_app.command("add")
def user_add(
    name: str,
    data_dir: DataDir = None,
    admin: Annotated[bool, typer.Option("--admin", help="May manage users.")] = False,
    vaults: Annotated[str, typer.Option("--vaults", help="Comma-separated vault names, or '*' for all.")] = "",
    password_stdin: Annotated[bool, typer.Option("--password-stdin", help="Read the password from stdin.")] = False,
) -> None:
    """Create a user. Vault names may be declared later by `serve`."""
    parts, _ = _auth(data_dir)
    password = _stdin_password() if password_stdin else None
    grants = None if vaults.strip() == "*" else _vault_names(vaults)
    with _reported():
        user = parts.users.add_user(name, password, admin=admin, vaults=grants)
    err.print(f"created user {user.name} (admin={user.is_admin}, vaults={_grants(user.vaults)})")


@user_app.command("list")
def user_list(data_dir: DataDir = None) -> None:
    """List users and their vault grants."""
    parts, _ = _auth(data_dir)
    for u in parts.users.list_users():
        typer.echo(f"{u.name}\tadmin={u.is_admin}\tvaults={_grants(u.vaults)}")


@user_app.command("delete")
def user_delete(name: str, data_dir: DataDir = None) -> None:
    """Delete a user; their tokens and API keys stop working at once."""
    parts, _ = _auth(data_dir)
    with _reported():
        parts.users.delete_user(name)
    err.print(f"deleted user {name}")


def _vault_names(vaults: str) -> list[str]:
    """``--vaults a,b`` (or ``'*'``) as a list of names; blanks dropped, so ``""`` is the empty list."""
    return [v.strip() for v in vaults.split(",") if v.strip()]


VaultsArg = Annotated[str, typer.Option("--vaults", help="Comma-separated vault names, or '*' for all.")]


def _change_grants(data_dir: Path | None, change: Callable[[UserStore], User]) -> None:
    """Run one grant change on the user store and print the user's grants after it (errors: one line)."""
    parts, _ = _auth(data_dir)
    with _reported():
        user = change(parts.users)
    err.print(f"user {user.name} now has vaults={_grants(user.vaults)}")


@user_app.command("grant")
def user_grant(name: str, vaults: VaultsArg, data_dir: DataDir = None) -> None:
    """Add vault grants to a user (``'*'``: every vault); other grants, the password and API keys are kept.
    Effective on the user's next request, also on a running server."""
    _change_grants(data_dir, lambda users: users.grant_vaults(name, _vault_names(vaults)))


@user_app.command("revoke")
def user_revoke(name: str, vaults: VaultsArg, data_dir: DataDir = None) -> None:
    """Remove vault grants from a user (``'*'``: all of them); the password and API keys are kept.
    Effective on the user's next request, also on a running server."""
    _change_grants(data_dir, lambda users: users.revoke_vaults(name, _vault_names(vaults)))


@user_app.command("passwd")
def user_passwd(
    name: str,
    data_dir: DataDir = None,
    password_stdin: Annotated[
        bool, typer.Option("--password-stdin", help="Read the new password from stdin (required).")
    ] = False,
) -> None:
    """Set a user's password (8-1024 characters, read from stdin) and sign them out everywhere: every JWT and web
    session issued before is refused from the next request, also on a running server. Grants and API keys are kept."""
    if not password_stdin:
        raise _fail(_service_line("invalid_argument", "the new password is read from stdin", "add --password-stdin"))
    parts, _ = _auth(data_dir)
    password = _stdin_password()
    with _reported():
        if parts.users.get_user(name) is None:  # say not_found before judging the password
            raise NotFound(f"no user named {name!r}", hint="obsigate user list shows the names")
        parts.users.set_password(name, password)
    err.print(f"password of {name} changed; their earlier tokens and web sessions no longer work (API keys do)")


@user_app.command("signout-all")
def user_signout_all(
    name: str,
    data_dir: DataDir = None,
    api_keys: Annotated[bool, typer.Option("--api-keys", help="Also revoke every API key of the user.")] = False,
) -> None:
    """Sign a user out everywhere: every JWT and web session issued to them so far is refused from the next
    request, also on a running server; a new sign-in works at once. Their API keys keep working unless
    --api-keys revokes them all too."""
    parts, _ = _auth(data_dir)
    with _reported():
        user = parts.users.sign_out_everywhere(name)
        revoked = parts.users.revoke_api_keys(user.name) if api_keys else None
    keys = f"; revoked {revoked} API key(s)" if revoked is not None else "; API keys kept (--api-keys revokes them)"
    err.print(f"signed {user.name} out everywhere{keys}")


@token_app.command("create")
def token_create(
    user: Annotated[str, typer.Option("--user", help="User the token acts as.")],
    data_dir: DataDir = None,
    ttl: Annotated[int | None, typer.Option("--ttl", help="Lifetime in seconds (default: token_ttl, 3600).")] = None,
) -> None:
    """Print a bearer JWT for USER, alone on stdout."""
    parts, settings = _auth(data_dir)
    found = parts.users.get_user(user)
    if found is None:
        raise _fail(_service_line("not_found", f"no user named {user!r}", f"create one with: obsigate user add {user}"))
    with _reported():
        token = parts.tokens.issue(found, ttl_s=ttl if ttl is not None else settings.token_ttl)
    typer.echo(token)


@key_app.command("create")
def key_create(
    user: Annotated[str, typer.Option("--user", help="User the key acts as.")],
    data_dir: DataDir = None,
    label: Annotated[str, typer.Option(help="A note to recognise the key.")] = "",
) -> None:
    """Print a new API key for USER, alone on stdout (shown once; stored only as a hash)."""
    parts, _ = _auth(data_dir)
    with _reported():
        key_id, key = parts.users.create_api_key(user, label=label)
    err.print(f"key id {key_id}")
    typer.echo(key)


@key_app.command("revoke")
def key_revoke(key_id: str, data_dir: DataDir = None) -> None:
    """Revoke an API key by id."""
    parts, _ = _auth(data_dir)
    with _reported():
        parts.users.revoke_api_key(key_id)
    err.print(f"revoked {key_id}")


@secret_app.command("rotate")
def secret_rotate(data_dir: DataDir = None) -> None:
    """Replace the JWT signing key (<data-dir>/jwt_secret) with a new random one, atomically (mode 0600): every
    JWT and web session cookie issued so far is refused at once, also by a running server from its next request.
    API keys (og_...) are not signed with it and keep working: revoke them with `obsigate key revoke`."""
    from obsigate.auth.tokens import TokenService
    from obsigate.bootstrap import JWT_SECRET_FILE

    settings = _settings(data_dir=data_dir)
    with _reported():
        folder = prepare_data_dir(settings.data_dir)
    tokens = TokenService(folder / JWT_SECRET_FILE)
    try:
        tokens.rotate_key()
    except OSError as exc:
        raise _fail(f"cannot write a new key in {folder}: {exc.strerror or exc}") from None
    err.print(f"new JWT signing key in {tokens.secret_path}: every earlier JWT and web session is refused from now on")


@contextmanager
def _journal(data_dir: Path | None) -> Iterator[Any]:
    """The data dir's tool journal for one reading command, opened read-only (``read_journal``): the data dir is
    left as it was, not a file created, rewritten or chmodded. A data dir holding no journal, or a file there
    that is not one, is refused (exit 2), never created: a mistyped ``--data-dir`` must not read as "ok"."""
    from obsigate.domain.storage.tool_journal import JOURNAL_FILE

    settings = _settings(data_dir=data_dir)
    folder = settings.data_dir.expanduser().resolve()
    if not (folder / JOURNAL_FILE).is_file():
        raise _fail(f"no tool journal in {folder} ({JOURNAL_FILE} is not there): check --data-dir")
    with _reported():
        journal = read_journal(settings, folder)
    try:
        yield journal
    finally:
        journal.close()


def _journal_lines(rows: list[dict[str, Any]], as_json: bool) -> None:
    for r in rows:
        if as_json:
            typer.echo(json.dumps(r, ensure_ascii=False, default=str))
        else:
            where = f" {r['vault']}" if r.get("vault") else ""
            typer.echo(
                f"{r['seq']:>8} {r['ts']} {r['front']:<7} {r['user']:<12} {r['tool']}{where} -> {r['outcome']} "
                f"({r['duration_ms']} ms) {json.dumps(r['args'], ensure_ascii=False)}"
            )


JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object per line.")]
#: The most rows one reading command prints (SQLite's integers are 64-bit; a person never reads more).
MAX_ROWS = 1_000_000


def _since(value: str | None) -> str | None:
    """``--since`` as the journal's own UTC timestamps spell it (``2026-12-04T10:00:00.000+00:00``): any ISO 8601
    date or time, a time without an offset read as UTC.

    Raises:
        typer.BadParameter: not an ISO 8601 date or time (exit 2).
    """
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise typer.BadParameter(f"{value!r} is not an ISO 8601 date or time (e.g. 2026-12-04T10:00)") from None
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return when.isoformat(timespec="milliseconds")


@journal_app.command("verify")
def journal_verify(
    data_dir: DataDir = None,
    as_json: JsonOpt = False,
    public_key: Annotated[
        Path | None,
        typer.Option(
            "--public-key", help="A copy of journal_signing.pub kept elsewhere (default: the data dir's key)."
        ),
    ] = None,
    head: Annotated[
        Path | None,
        typer.Option(
            "--head", help="A copy of journal.head kept elsewhere: finds the journal rolled back to before it."
        ),
    ] = None,
) -> None:
    """Check the whole journal: the chain, the signed checkpoints and head, the turns' stored hashes. Names the
    first row edited, deleted, inserted, reordered or cut off, a chain rebuilt without the key, a signature that
    does not verify, or a missing public key; exit 1 then. Reads only: the private key is not needed."""
    from obsigate.services.journal import load_head, load_public_key, verify_journal

    key = kept = None
    try:  # bounded: /dev/zero or a huge file is refused, not read
        key = load_public_key(public_key) if public_key is not None else None
    except (OSError, ValueError) as exc:
        raise _fail(f"cannot use --public-key: {exc}") from None
    try:
        kept = load_head(head) if head is not None else None
    except (OSError, ValueError) as exc:
        raise _fail(f"cannot use --head: {exc}") from None
    with _journal(data_dir) as journal:
        with _reported():
            anchors = journal_anchors(journal.data_dir)
        report = verify_journal(journal, anchors, public_key=key, kept_head=kept)
    if as_json:
        typer.echo(json.dumps(report.to_dict()))
    elif report.ok:
        typer.echo(
            f"ok: {report.rows} rows, signed up to {report.signed_seq} ({report.unsigned} after it not signed yet), "
            f"checked in {report.seconds:.2f} s"
        )
    else:
        first = report.first
        assert first is not None
        where = f" at seq {first.seq}" if first.seq else ""
        err.print(f"[red]journal verify failed[/red]{where}: {first.kind}: {first.message}")
        for other in report.findings[1:]:
            err.print(f"  also: seq {other.seq}: {other.kind}: {other.message}")
        if any(f.kind == "key_missing" for f in report.findings):
            err.print("  check the signatures with your own copy of journal_signing.pub: --public-key FILE")
    if not report.ok:
        raise typer.Exit(1)


@journal_app.command("tail")
def journal_tail(
    data_dir: DataDir = None,
    n: Annotated[int, typer.Option("-n", "--lines", min=1, max=MAX_ROWS, help="How many calls.")] = 20,
    as_json: JsonOpt = False,
) -> None:
    """The last calls, oldest first."""
    with _journal(data_dir) as journal:
        _journal_lines(journal.tail(n), as_json)


@journal_app.command("search")
def journal_search(
    data_dir: DataDir = None,
    user: Annotated[str | None, typer.Option("--user", help="Calls of this user.")] = None,
    tool: Annotated[str | None, typer.Option("--tool", help="Calls of this tool.")] = None,
    since: Annotated[
        str | None, typer.Option("--since", callback=_since, help="At or after this time (ISO 8601; no offset: UTC).")
    ] = None,
    outcome: Annotated[str | None, typer.Option("--outcome", help="ok, or an error code.")] = None,
    limit: Annotated[
        int, typer.Option("--limit", min=1, max=MAX_ROWS, help="At most this many: the newest, printed oldest first.")
    ] = 100,
    as_json: JsonOpt = False,
) -> None:
    """Calls matching every filter given, oldest first."""
    with _journal(data_dir) as journal:
        _journal_lines(journal.search(user=user, tool=tool, since=since, outcome=outcome, limit=limit), as_json)


@journal_app.command("export")
def journal_export(
    out: Annotated[Path, typer.Option("--out", help="Folder to write the files into (created).")],
    data_dir: DataDir = None,
    fmt: Annotated[str, typer.Option("--format", help="otlp-json (the only one).")] = "otlp-json",
    since: Annotated[
        str | None, typer.Option("--since", callback=_since, help="At or after this time (ISO 8601; no offset: UTC).")
    ] = None,
) -> None:
    """Export the calls as OpenTelemetry traces (OTLP/JSON files, GenAI attribute names)."""
    from obsigate import __version__
    from obsigate.services.journal import export_otlp

    if fmt != "otlp-json":
        raise _fail(f"unknown format {fmt!r}: use otlp-json")
    with _journal(data_dir) as journal:
        try:
            files = export_otlp(journal, out, since=since, version=__version__)
        except OSError as exc:
            raise _fail(f"cannot write to {out}: {exc.strerror or exc}") from None
    for path in files:
        typer.echo(str(path))


@index_app.command("rebuild")
def index_rebuild(
    data_dir: DataDir = None,
    vault: VaultOpt = None,
    full: Annotated[bool, typer.Option("--full", help="Drop and rebuild instead of refreshing changed files.")] = True,
) -> None:
    """Rebuild the search index of the declared vaults now."""
    settings = _settings(data_dir=data_dir, vault=vault)
    _need_vaults(settings)
    console_logging()  # build_runtime recovers interrupted changes and says so
    with _reported():
        vaults = build_vaults(settings)
        runtime = build_runtime(settings, prepare_data_dir(settings.data_dir, vaults), vaults)
    indexer = runtime.workspace.indexer
    assert indexer is not None
    stats = {**indexer.refresh_all(full=full), "notes": runtime.workspace.index.note_count()}
    runtime.workspace.index.close()
    if runtime.journal is not None:
        runtime.journal.close()
    typer.echo(json.dumps(stats, default=str))


def _ai_settings(data_dir: Path | None):
    """The assistant's provider settings of the data dir, over the environment of this command."""
    from obsigate.bootstrap import open_ai_settings

    settings = _settings(data_dir=data_dir)
    with _reported():
        return open_ai_settings(settings, prepare_data_dir(settings.data_dir))


@ai_app.command("status")
def ai_status(
    data_dir: DataDir = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the status as JSON.")] = False,
) -> None:
    """Show the LLM providers: configured or not, the key's last 4 characters at most, base URL, default model.
    The default provider is marked with *."""
    from rich.table import Table

    status = _ai_settings(data_dir).status()
    if as_json:
        typer.echo(json.dumps(status, indent=2, ensure_ascii=False))
        return
    table = Table(
        title=f"AI providers (default: {status['default_provider']}, from {status['default_provider_source']})"
    )
    for column in ("", "provider", "configured", "key", "base URL", "default model"):
        table.add_column(column, overflow="fold")
    for p in status["providers"]:
        key = f"{p['key']} ({p['key_source']})" if p["key"] else ("-" if p["key_required"] else "not needed")
        model = f"{p['default_model']} ({p['model_source']})" if p["default_model"] else "-"
        table.add_row(
            "*" if p["name"] == status["default_provider"] else "", p["name"], "yes" if p["configured"] else "no",
            key, p["base_url"] or "-", model,
        )  # fmt: skip
    out = Console()
    if not out.is_terminal:
        out = Console(width=160)  # piped: wide enough that nothing is cut
    out.print(table)
    for p in status["providers"]:
        if p["name"] == status["default_provider"] and p["problem"]:
            out.print(f"default provider not usable: {p['problem']}", markup=False, highlight=False)
    if status["default_provider"] not in {p["name"] for p in status["providers"]}:
        out.print(f"unknown default provider {status['default_provider']!r}", markup=False, highlight=False)


@ai_key_app.command("set")
def ai_key_set(
    name: Annotated[str, typer.Argument(help="Provider: deepseek, openai, openrouter, ollama, gemini or custom.")],
    data_dir: DataDir = None,
) -> None:
    """Store NAME's API key, read from stdin (one line; never an argument, so it stays out of the shell
    history). It wins over <NAME>_API_KEY; a running server uses it from its next request."""
    import getpass

    from obsigate.agent.settings import known_provider

    with _reported():
        provider = known_provider(name)  # judged before anything is read from stdin
    settings = _ai_settings(data_dir)
    key = getpass.getpass(f"API key for {name}: ") if sys.stdin.isatty() else _stdin_line("API key")
    if not key.strip():
        raise _fail(
            _service_line("invalid_argument", "no API key on stdin", f'echo "$KEY" | obsigate ai key set {provider}')
        )
    with _reported():
        settings.set_key(provider, key)
    err.print(f"stored the API key of {provider} in {settings.data_dir / 'api_keys.json'}")


@ai_key_app.command("remove")
def ai_key_remove(
    name: Annotated[str, typer.Argument(help="Provider: deepseek, openai, openrouter, ollama, gemini or custom.")],
    data_dir: DataDir = None,
) -> None:
    """Remove NAME's stored API key (an environment <NAME>_API_KEY, if set, applies again)."""
    settings = _ai_settings(data_dir)
    with _reported():
        removed = settings.remove_key(name)
    provider = name.strip().lower()
    err.print(f"removed the stored API key of {provider}" if removed else f"no stored API key for {provider}")


__all__ = ["app", "client_configs", "console_logging"]
