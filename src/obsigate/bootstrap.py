"""Composition root shared by the fronts: turns :class:`~obsigate.config.Settings` into live objects.

Only ``cli.py`` (and tests) call this module; everything below receives plain objects. It is the one place
that reads :mod:`obsigate.config` besides the CLI, and the one that wires the transports to the tool layer
(:func:`create_app`).
"""

from __future__ import annotations

import functools
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from obsigate.agent.settings import AISettings
from obsigate.auth.principal import BearerAuthenticator
from obsigate.auth.tokens import TokenService
from obsigate.auth.users import UserStore
from obsigate.config import Settings
from obsigate.domain.index.vault_index import IndexBusyError, VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.storage.backups import BackupStore
from obsigate.domain.storage.journal import ChangeJournal, Recovered
from obsigate.domain.storage.owner import Owner, claim_owner, read_owner, release_owner
from obsigate.domain.storage.private_files import ensure_private_file, load_or_create_secret, make_private_dir
from obsigate.domain.storage.read_only import connect_read_only
from obsigate.domain.storage.tool_journal import JournalEntry, ToolJournal
from obsigate.domain.vault import Vault
from obsigate.domain.versions import VERSION_KEY_BYTES, FileVersions
from obsigate.services import plans
from obsigate.services.mutation_exec import recover, sweep_temps
from obsigate.services.net.guard import NetPolicy
from obsigate.services.net.web import WebAccess
from obsigate.services.user_files import FileSpace
from obsigate.services.workspace import DestructiveSwitches, Limits, Workspace
from obsigate.tools.confirm.store import CONFIRM_DB_FILE, CONFIRM_KEY_FILE, ConfirmationService
from obsigate.tools.context import ToolRuntime
from obsigate.tools.ratelimit import ToolRateLimiter

if TYPE_CHECKING:
    from fastapi import FastAPI

    from obsigate.agent.assistant import Assistant

INDEX_FILE = "index.sqlite3"
USERS_FILE = "users.sqlite3"
JWT_SECRET_FILE = "jwt_secret"
ASSISTANT_FILE = "assistant.sqlite3"
BACKUPS_DIR = "backups"
VERSION_KEY_FILE = "version.key"

#: Start-up events worth a line on the console (``obsigate serve`` prints the ``obsigate`` loggers on stderr).
log = logging.getLogger("obsigate.startup")


class ConfigError(Exception):
    """A setting that cannot work (missing vault folder, unsafe no-auth bind). The message says how to fix it."""


class DataDirBusy(ConfigError):
    """Another process holds the data dir's index (and so its change journal); ``owner`` says which, when it
    recorded itself (``<data-dir>/owner.json``), else ``None``."""

    def __init__(self, message: str, owner: Owner | None) -> None:
        super().__init__(message)
        self.owner = owner


def prepare_data_dir(data_dir: Path, vaults: dict[str, Vault] | None = None) -> Path:
    """Check ``data_dir`` against ``vaults`` (before touching anything), create it (mode 0700) if needed and
    return it absolute.

    Raises:
        ConfigError: it overlaps a vault, cannot be created or is not a folder.
    """
    data_dir = data_dir.expanduser().resolve()
    if vaults:
        check_data_dir_outside_vaults(data_dir, vaults)
    try:
        make_private_dir(data_dir, tighten=True)
    except OSError as exc:
        raise ConfigError(f"data dir {str(data_dir)!r} cannot be used: {exc.strerror or exc}") from None
    return data_dir


def build_vaults(settings: Settings) -> dict[str, Vault]:
    """Declared vaults with real, absolute roots.

    Raises:
        ConfigError: a vault folder that does not exist or is not a folder.
    """
    vaults: dict[str, Vault] = {}
    for name, vs in settings.vaults.items():
        root = vs.path.expanduser()
        if not root.is_dir():
            what = "is a file, not a folder" if root.exists() else "does not exist"
            raise ConfigError(f"vault {name!r}: {str(root)!r} {what}")
        vaults[name] = Vault(name=name, root=Path(os.path.realpath(root)), read_only=vs.read_only)
    return vaults


def check_auth_bind(settings: Settings) -> None:
    """Refuse auth disabled on a non-loopback bind unless ``force_no_auth``.

    Raises:
        ConfigError: with the flag to use if the user really means it.
    """
    if not settings.auth_enabled and not settings.is_loopback and not settings.force_no_auth:
        raise ConfigError(
            f"refusing to serve {settings.host} without authentication: anyone on the network could read "
            "your vaults. Enable auth, bind 127.0.0.1, or pass --force-no-auth if you really mean it."
        )


@dataclass(slots=True)
class AuthParts:
    """User store, access-token service and the bearer authenticator over both."""

    users: UserStore
    tokens: TokenService
    authenticator: BearerAuthenticator


def open_auth(settings: Settings, data_dir: Path) -> AuthParts:
    """Open (creating if needed) the user database and the server's own secrets under ``data_dir`` (the resolved
    data dir, refused inside a vault): the JWT signing key (``jwt_secret``) and the API-key pepper are read here,
    once, and kept in memory. Afterwards only the JWT key file is looked at again, one ``lstat`` per use, and
    read again only when it was replaced (``obsigate secret rotate``); nothing is ever read through a vault.

    Raises:
        ConfigError: a secret file that cannot be used (a symlink, not hex, too short), naming the fix.
        OSError, sqlite3.Error: the user database cannot be opened.
    """
    users = UserStore(data_dir / USERS_FILE)
    tokens = TokenService(data_dir / JWT_SECRET_FILE, default_ttl_s=settings.token_ttl)
    try:
        tokens.load_key()
        users.load_pepper()
    except (OSError, ValueError) as exc:
        users.close()
        raise ConfigError(
            f"a secret file in {data_dir} cannot be used ({exc}); for {JWT_SECRET_FILE}: obsigate secret rotate"
        ) from None
    except BaseException:
        users.close()
        raise
    return AuthParts(users, tokens, BearerAuthenticator(users, tokens))


def check_data_dir_outside_vaults(data_dir: Path, vaults: dict[str, Vault]) -> None:
    """Refuse a data dir inside a vault (or a vault inside the data dir): the JWT secret, the user database
    and the index would otherwise be files any vault reader could download.

    Raises:
        ConfigError: naming the vault and what to do.
    """
    real = Path(os.path.realpath(data_dir))
    for name, vault in vaults.items():
        if real == vault.root or real.is_relative_to(vault.root) or vault.root.is_relative_to(real):
            raise ConfigError(
                f"data dir {str(real)!r} overlaps vault {name!r} ({str(vault.root)!r}); its secrets would be "
                "readable as notes. Use a --data-dir outside every vault."
            )


#: How many tools' worth of budget the web app's global per-user limit has (tree, note, backlinks, search...).
WEB_TOOLS = 4


def build_runtime(
    settings: Settings, data_dir: Path, vaults: dict[str, Vault] | None = None, *, ai_settings: AISettings | None = None
) -> ToolRuntime:
    """Vaults, index, indexer (not started), backup store, tool journal, rate limiter and confirmation tokens,
    wired into a :class:`ToolRuntime`. With ``ai_settings``, the per-vault ``aiDestructiveTools`` switches set at
    run time (``config.json`` ``ai_destructive_tools``) win over the declared ones, live.

    Files under ``data_dir``: ``index.sqlite3`` (+ ``index.tantivy/``), ``backups/``, ``journal.sqlite3``
    (the tool journal, with ``journal.salt``, ``journal_signing.key``/``.pub`` and ``journal.head``),
    ``confirm.key`` (the confirmation tokens' own HMAC key, 0600, created on first start),
    ``confirmations.sqlite3`` (pending proposals and spent token ids, 0600), ``files.sqlite3`` and ``users/<user>/files/``
    (the users' file space, ``services/user_files.py``; expired files swept here) and ``version.key`` (the key of
    the file versions readers are given instead of hashes, ``domain/versions.py``; 0600, created on first
    start, kept so a version read before a restart still matches after it).

    Raises:
        ConfigError: a missing vault folder, the index held by another process, or a tool journal that cannot
            be opened.
    """
    vaults = vaults if vaults is not None else build_vaults(settings)
    check_data_dir_outside_vaults(data_dir, vaults)
    try:
        index = VaultIndex(data_dir / INDEX_FILE)
    except IndexBusyError:
        owner = read_owner(data_dir)
        who = owner.describe() if owner is not None else "another ObsiGate process"
        raise DataDirBusy(
            f"{who} is using the index in {data_dir}; stop it first or use another --data-dir", owner
        ) from None
    destructive = {n: vs.ai_destructive_tools for n, vs in settings.vaults.items()}
    workspace = Workspace(
        vaults=vaults,
        index=index,
        indexer=Indexer(index, vaults),
        limits=Limits(
            max_read_bytes=settings.max_tool_read_bytes,
            budget_chars=settings.tool_result_budget_tokens * 4,
            context_max_files=settings.bookslm_max_files,
            context_max_total_chars=settings.bookslm_max_total_chars,
            context_max_file_chars=settings.bookslm_max_file_chars,
        ),
        destructive=destructive
        if ai_settings is None
        else DestructiveSwitches(destructive, ai_settings.destructive_overrides),
        backups=BackupStore(data_dir / BACKUPS_DIR),
        journal=ChangeJournal(data_dir),
        versions=FileVersions(load_or_create_secret(data_dir / VERSION_KEY_FILE, VERSION_KEY_BYTES)),
    )
    journal = open_journal(settings, data_dir)
    try:
        journal.checkpoint()  # the tail signed, with the interval in force from now on
    except (sqlite3.Error, OSError) as exc:
        log.error("the tool journal could not be signed at start: %s", exc)
    recover_changes(workspace, journal)
    files = FileSpace(
        data_dir, max_bytes=settings.files_max_bytes, quota_bytes=settings.files_quota_bytes, ttl_s=settings.files_ttl
    )
    files.sweep()  # what expired while the server was down, and the leftovers of a put a kill cut short
    try:  # MCP sessions' plans idle as long: the periodic sweep's first round is minutes away
        plans.sweep_session_plans(data_dir, settings.files_ttl)
    except OSError as exc:
        log.warning("idle MCP session plans were not swept at start: %s", exc)
    return ToolRuntime(
        workspace=workspace,
        journal=journal,
        limiter=ToolRateLimiter(settings.tool_rate_limit, settings.tool_rate_window, settings.tool_rate_limit_per_tool),
        # The web app's people (issue 11): per tool web_rate_limit, and room for the several tools a page uses.
        web_limiter=ToolRateLimiter(
            WEB_TOOLS * settings.web_rate_limit, settings.tool_rate_window, settings.web_rate_limit
        ),
        # The in-app assistant's runs (issue 18): a budget of their own, still a limit (a looping model is stopped).
        agent_limiter=ToolRateLimiter(settings.agent_rate_limit, settings.tool_rate_window),
        confirmations=ConfirmationService(
            data_dir / CONFIRM_KEY_FILE, data_dir / CONFIRM_DB_FILE, ttl_s=settings.mcp_confirmation_ttl
        ),
        web=WebAccess(policy=NetPolicy.parse(settings.fetch_allow), searxng_url=settings.searxng_url),
        data_dir=data_dir,
        files=files,
    )


def open_journal(settings: Settings, data_dir: Path) -> ToolJournal:
    """The server's tool journal of ``data_dir`` with the settings' checkpoint interval and content switch,
    created with its salt and key pair if missing (:func:`build_runtime`; a reader uses :func:`read_journal`).

    Raises:
        ConfigError: the journal or its key files cannot be opened.
    """
    try:
        return ToolJournal(
            data_dir, checkpoint_every=settings.journal_checkpoint_every, keep_content=settings.journal_keep_content
        )
    except (OSError, ValueError, sqlite3.Error) as exc:
        raise ConfigError(f"the tool journal in {data_dir} cannot be opened: {exc}") from None


def read_journal(settings: Settings, data_dir: Path) -> ToolJournal:
    """The tool journal of ``data_dir`` opened read-only for the ``obsigate journal`` commands
    (:meth:`ToolJournal.open_reader`): nothing in the data dir is created, rewritten or chmodded.

    Raises:
        ConfigError: there is no journal, or the file is not one (empty, not SQLite, no journal tables), or it
            cannot be read. One line, naming the file.
    """
    try:
        return ToolJournal.open_reader(data_dir, checkpoint_every=settings.journal_checkpoint_every)
    except (OSError, ValueError, sqlite3.Error) as exc:
        raise ConfigError(f"the tool journal in {data_dir} cannot be read: {exc}") from None


def journal_anchors(data_dir: Path) -> list[tuple[str, str, int, int, str]]:
    """The turns' cumulative hashes the assistant stored with its conversations (``[]``: no assistant store, or
    one older than its ``turn_hashes`` table), read without changing the store (a read-only connection).

    Raises:
        ConfigError: the store cannot be read or is not an SQLite database.
    """
    from obsigate.agent.store import TURN_HASHES_SQL

    path = data_dir / ASSISTANT_FILE
    if not path.exists():
        return []
    try:
        db = connect_read_only(path)
        try:
            if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'turn_hashes'").fetchone():
                return []
            rows = db.execute(TURN_HASHES_SQL).fetchall()
        finally:
            db.close()
    except sqlite3.Error as exc:
        raise ConfigError(f"the assistant's turn hashes in {path} cannot be read: {exc}") from None
    return [(r[0], r[1], int(r[2]), int(r[3]), r[4]) for r in rows]


def recover_changes(workspace: Workspace, journal: ToolJournal) -> list[Recovered]:
    """Before anything is served: roll back the changes a killed process left unfinished (the change journal,
    ``services/mutation_exec.recover``), one journal row (kind ``event``, ``action: change_recovery``) and one console line
    (:func:`recovery_line`) each, and delete the temp files of interrupted writes.

    Returns:
        What was done to each unfinished change, oldest first (``[]``: the last run ended cleanly).

    Raises:
        OSError, LookupError: a change could not be rolled back; the server must not start on such a vault.
    """

    def report(change: Recovered) -> None:
        try:
            _journal_recovery(journal, change)
        except (sqlite3.Error, OSError) as exc:  # the roll-back is done; the console line below still says so
            log.error("the tool journal could not record the recovery of change %s: %s", change.id, exc)
        log.log(logging.WARNING if change.kept else logging.INFO, "%s", recovery_line(change))

    recovered = recover(workspace, report)
    sweep_temps(workspace)
    return recovered


def _journal_recovery(journal: ToolJournal, change: Recovered) -> None:
    """The journal row (kind ``event``) of one change rolled back at start."""
    journal.append(
        JournalEntry(
            kind="event", user="obsigate", auth_kind="system", front="startup", tool=change.reason or "change",
            vault=change.vault, args={"journal": change.id, "kept_changed_since": change.kept},
            outcome="rolled_back", action="change_recovery", paths=change.paths,
        )
    )  # fmt: skip


#: Most paths a recovery line names; the journal row of the change has them all.
RECOVERY_LINE_PATHS = 10


def recovery_line(change: Recovered) -> str:
    """One console line about one interrupted change: which vault, which change (its tool), which paths were
    rolled back, which were kept and why, e.g. ``change recovery: vault 'notes': rolled back rename_file
    (interrupted: the process stopped before it finished): Hub.md, Centre.md``."""

    def names(paths: list[str]) -> str:
        unique = [_printable(p) for p in dict.fromkeys(paths)]
        more = len(unique) - RECOVERY_LINE_PATHS
        shown = ", ".join(unique[:RECOVERY_LINE_PATHS])
        return shown + (f" and {more} more (all in the tool journal, change {change.id})" if more > 0 else "")

    if not change.vault and not change.paths and not change.kept:  # killed while its first record was written
        return f"change recovery: journal entry {change.id} was cut before its first record: nothing to put back"
    what = change.reason or "a change"
    line = f"change recovery: vault {change.vault!r}: "
    if change.paths:
        line += f"rolled back {what} (interrupted: the process stopped before it finished): {names(change.paths)}"
    elif change.kept:
        line += f"{what} was interrupted (the process stopped before it finished); nothing rolled back"
    else:
        line += f"{what} was interrupted before its first step (the process stopped): nothing to put back"
    if change.kept:
        line += f"; kept as they are, changed by someone else since (their edit wins): {names(change.kept)}"
    return line


def _printable(path: str) -> str:
    """``path`` with control characters escaped, so a recovery line stays one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in path)


def create_app(settings: Settings) -> FastAPI:
    """Return a ready-to-serve web app (REST, ``/mcp``, the web page) for ``settings``.

    The server's own secrets (the JWT key, the API-key pepper: :func:`open_auth`; the confirmation key:
    :func:`build_runtime`) are read here, once, from the resolved data dir and kept in memory. The provider keys
    (``api_keys.json``) change while the server runs and are re-read from that same folder, never through a
    symlink (:class:`~obsigate.agent.settings.AISettings`).

    Raises:
        ConfigError: a missing vault folder, a data dir inside a vault, auth disabled on a public bind, or a
            secret file that cannot be used.
    """
    from obsigate.api.app import build_app  # the transports load only when an app is built

    check_auth_bind(settings)
    vaults = build_vaults(settings)
    data_dir = prepare_data_dir(settings.data_dir, vaults)  # resolved, and refused inside (or around) a vault
    auth = open_auth(settings, data_dir)  # the server's own secrets, read once, before anything else opens
    try:
        ai_settings = open_ai_settings(settings, data_dir)
        runtime = build_runtime(settings, data_dir, vaults, ai_settings=ai_settings)
        assistant = open_assistant(settings, data_dir, runtime, ai_settings)
    except BaseException:
        auth.users.close()
        raise
    claim_owner(data_dir, serve_owner(settings, vaults))
    return build_app(settings, runtime, auth, ai_settings, assistant, on_close=lambda: release_owner(data_dir))


def serve_owner(settings: Settings, vaults: dict[str, Vault]) -> Owner:
    """This ``obsigate serve`` as the data dir's owner: its MCP endpoint as a local process reaches it (the
    loopback address when bound to every interface; ``public_url`` may name a proxy it cannot reach)."""
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "", "::") else settings.host
    host = f"[{host}]" if ":" in host else host
    url = f"http://{host}:{settings.port}/mcp"
    return Owner(pid=os.getpid(), kind="serve", mcp_url=url, auth=settings.auth_enabled, vaults=_real(vaults))


def open_ai_settings(settings: Settings, data_dir: Path) -> AISettings:
    """The assistant's provider settings over ``data_dir`` (``config.json``, ``api_keys.json``) and the
    environment as it is now (``<NAME>_API_KEY``, ``AI_DEFAULT_PROVIDER``...); ``ai_timeout`` as each
    provider's connect/idle timeout, ``ai_local_timeout`` as a local engine's non-streamed read timeout."""
    return AISettings(
        data_dir, dict(os.environ), timeout_s=settings.ai_timeout, local_timeout_s=settings.ai_local_timeout
    )


def open_assistant(settings: Settings, data_dir: Path, runtime: ToolRuntime, ai_settings: AISettings) -> Assistant:
    """The in-app assistant over the tool layer: its store ``<data_dir>/assistant.sqlite3`` (0600: paused runs
    keep confirmation tokens), each person's skills (``<data_dir>/skills.json``), the provider settings, the agent's limits (``OBSIGATE_AI_MAX_ITERATIONS``,
    ``BOOKSLM_MAX_TOOL_CALLS``, ``ai_tool_result_chars``; a paused run waits the confirmation TTL)."""
    from obsigate.agent.assistant import Assistant  # like the transports: loaded only when an app is built
    from obsigate.agent.context import build_system_prompt
    from obsigate.agent.loop import AgentLimits
    from obsigate.agent.providers import make_provider
    from obsigate.agent.store import AgentStore
    from obsigate.agent.user_skills import SkillBook

    path = data_dir / ASSISTANT_FILE
    ensure_private_file(path)
    limits = AgentLimits(
        max_iterations=settings.ai_max_iterations, max_tool_calls=settings.bookslm_max_tool_calls,
        tool_result_chars=settings.ai_tool_result_chars, run_ttl_s=settings.mcp_confirmation_ttl,
        max_args_bytes=settings.ai_max_tool_args_bytes,
        context_share=settings.ai_context_share, context_window=settings.ai_context_window,
        context_windows=dict(settings.ai_context_windows),
    )  # fmt: skip
    skills = SkillBook(data_dir)  # <data_dir>/skills.json: each person's own skills
    prompt = functools.partial(build_system_prompt, skills=skills)
    store = AgentStore(path)
    if runtime.files is not None:  # a file deleted from the space leaves no copy in a conversation
        runtime.files.on_delete(store.forget_file)
        # files that went before the hook was there (the start-up sweep, a crash mid-delete): their copies too
        store.forget_missing(runtime.files.exists)
    assistant = Assistant(runtime, ai_settings, store, prompt, make_provider, limits, skills=skills)
    runtime.context_gauge = assistant.gauge  # get_context_usage reads the conversations' usage through it
    return assistant


def run_mcp_stdio(settings: Settings, user: str | None) -> None:
    """``obsigate mcp stdio``: serve MCP on stdin/stdout until stdin closes, as local ``user`` (that user's
    vault grants, re-read on every request) or, with auth off (``settings.auth_enabled`` false), as the
    anonymous all-vaults user.

    One process writes a data dir's index and change journal. When it is free this process takes it (and
    runs the indexer); when an ``obsigate serve`` holds it, serving the same vaults with the same auth mode,
    every message is forwarded to that server's ``/mcp`` over loopback, authenticated as ``user`` with a
    short-lived token signed by the data dir's key; any other holder is refused.

    Raises:
        ConfigError: no ``user`` while auth is on, an unknown user, a data dir held by a process this one
            cannot forward to (another stdio server, a server of other vaults or another auth mode), or that
            server lost while forwarding (stopped or restarted: the client starts this process again).
    """
    import uuid

    import anyio

    from obsigate.auth.principal import ANONYMOUS
    from obsigate.mcp.forward import TokenAuth, forward_stdio
    from obsigate.mcp.stdio import serve_stdio, user_caller

    if settings.auth_enabled and not user:
        raise ConfigError(
            "name the local user whose vault grants apply: --user NAME (obsigate user add NAME --vaults ...), "
            "or --no-auth for the anonymous user with every vault"
        )
    if not settings.auth_enabled and user:
        raise ConfigError("--user and --no-auth exclude each other: keep one")
    vaults = build_vaults(settings)
    data_dir = prepare_data_dir(settings.data_dir, vaults)
    auth = open_auth(settings, data_dir)
    try:
        if user and auth.users.get_user(user) is None:
            raise ConfigError(f"no local user {user!r} in {data_dir}; create it: obsigate user add {user} --vaults ...")
        try:
            runtime = build_runtime(settings, data_dir, vaults)
        except DataDirBusy as busy:
            url = _forwardable(busy, vaults, user)
            log.info("%s owns %s: forwarding MCP to %s", busy.owner.describe() if busy.owner else "?", data_dir, url)
            runtime = None
        if runtime is None:
            token_auth = TokenAuth(auth.tokens, auth.users, user) if user else None
            lost = anyio.run(
                functools.partial(forward_stdio, url, token_auth, max_line_bytes=settings.mcp_max_body_bytes)
            )
            if lost is not None:
                raise ConfigError(f"forwarding stopped: {lost}")
            return
        claim_owner(data_dir, Owner(pid=os.getpid(), kind="stdio", auth=settings.auth_enabled, vaults=_real(vaults)))
        caller = user_caller(auth.users, user) if user else (lambda: ANONYMOUS)
        try:
            anyio.run(
                functools.partial(
                    serve_stdio, runtime, caller, max_line_bytes=settings.mcp_max_body_bytes,
                    session_id=f"stdio-{uuid.uuid4().hex[:12]}",
                )
            )  # fmt: skip
        finally:
            runtime.workspace.index.close()
            if runtime.journal is not None:
                runtime.journal.close()
            release_owner(data_dir)
    finally:
        auth.users.close()


def _real(vaults: dict[str, Vault]) -> dict[str, str]:
    return {name: str(v.root) for name, v in vaults.items()}


def _forwardable(busy: DataDirBusy, vaults: dict[str, Vault], user: str | None) -> str:
    """The MCP URL of the ``obsigate serve`` holding the data dir, if this stdio process may forward to it.

    Raises:
        ConfigError: why it may not (the message of ``busy`` first).
    """
    owner = busy.owner
    if owner is None or owner.kind != "serve" or not owner.mcp_url:
        raise ConfigError(f"{busy}; one process writes a data dir's index and change journal, never two") from None
    if owner.vaults != _real(vaults):
        raise ConfigError(
            f"{busy}; it serves other vaults ({', '.join(f'{k}={v}' for k, v in owner.vaults.items())}): declare the "
            "same --vault NAME=PATH list to forward to it"
        ) from None
    if owner.auth and not user:
        raise ConfigError(f"{busy}; it requires auth: pass --user NAME to forward to it as that user") from None
    if not owner.auth and user:
        raise ConfigError(f"{busy}; it runs without auth, so --user could not apply: pass --no-auth") from None
    return owner.mcp_url
