"""Test helpers shared by several test modules (importable as ``support``)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import anyio

from obsigate.domain.vault import Vault
from obsigate.services.workspace import Workspace

REPO = Path(__file__).resolve().parents[1]
SHARED_VAULTS = REPO.parent / "shared" / "vaults"
DEMO_VAULT = REPO / "src" / "obsigate" / "demo_vault"  # package data: obsigate serve --demo serves a copy

SMALL_VAULT = {
    "Home.md": "---\ntags: [home]\naliases: [Start]\n---\n# Home\n\nWelcome. See [[Projects/Plan|the plan]] and [[Ideas]].\n#dashboard\n",
    "Ideas.md": "# Ideas\n\nA tidepool sensor network. #project/sensors\n\n- [ ] sketch the buoy\n",
    "Projects/Plan.md": "---\nstatus: active\n---\n# Plan\n\n## Budget\nThe budget for the tidepool buoy is small. #project/sensors\n[[Home#Home]]\n",
    "Projects/Secret.md": '# Credentials\n\napi_key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"\n',
    "Attachments/pic.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 32,
    ".obsidian/app.json": '{"secret": "config"}',
    ".trash/Old.md": "# Old tidepool note\n",
}


def alice_token(data: Path, vaults: Iterable[str] = ("notes",)) -> str:
    """A bearer JWT of a new user ``alice`` allowed ``vaults``, made in the data dir ``data`` (created) that a
    server then opens: the user store with a cheap argon2 setting, the token from its signing secret."""
    from pwdlib.hashers.argon2 import Argon2Hasher

    from obsigate.auth.tokens import TokenService
    from obsigate.auth.users import UserStore

    data.mkdir(parents=True, exist_ok=True)
    users = UserStore(data / "users.sqlite3", password_hasher=Argon2Hasher(time_cost=1, memory_cost=8192))
    try:
        return TokenService(data / "jwt_secret").issue(users.add_user("alice", None, vaults=list(vaults)))
    finally:
        users.close()


#: The password of the users :func:`add_alice_and_bob` makes.
PW = "correct horse battery staple"


def add_alice_and_bob(server: Any) -> Any:
    """Give a live server with auth on ``alice`` (vault notes) and the admin ``bob`` (every vault), both with
    :data:`PW`; returns the server."""
    users = server.app.state.auth.users
    users.add_user("alice", PW, vaults=["notes"])
    users.add_user("bob", PW, admin=True, vaults=None)
    return server


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Create ``files`` (relative path → text or bytes) under ``root`` and return ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def eventually(check: Callable[[], bool], timeout: float = 2.0, what: str = "") -> float:
    """Poll ``check`` every 20 ms until true; fail after ``timeout`` seconds. Returns the elapsed time."""
    t0 = time.monotonic()
    while not check():
        if time.monotonic() - t0 > timeout:
            raise AssertionError(f"not visible within {timeout}s: {what}")
        await anyio.sleep(0.02)
    return time.monotonic() - t0


@contextlib.contextmanager
def uvicorn_thread(app: Any, port: int) -> Iterator[None]:
    """Serve ``app`` with a real uvicorn on 127.0.0.1:``port`` in a daemon thread (lifespan on) while inside."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class CountingWorkspace(Workspace):
    """A real workspace that counts calls of its permission functions (``get_vault``, ``accessible``); the
    checks themselves are the real ones (tests of "the grant is checked once")."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.calls: Counter[str] = Counter()

    def get_vault(self, name: object, allowed: Iterable[str] | None) -> Vault:
        self.calls["get_vault"] += 1
        return super().get_vault(name, allowed)

    def accessible(self, allowed: Iterable[str] | None) -> list[str]:
        self.calls["accessible"] += 1
        return super().accessible(allowed)


def journal_records(data_dir: Path, kind: str | None = "call") -> list[dict[str, Any]]:
    """The tool journal's rows of ``kind`` (``None``: every kind) in ``data_dir``, oldest first, as its readers see
    them (``ToolJournal.record``: lists decoded, ``mode``/``result``/``session`` beside ``front``/``outcome``/
    ``conversation``), read from the database file itself (read-only; ``[]``: no journal yet)."""
    import sqlite3

    from obsigate.domain.storage.tool_journal import JOURNAL_FILE, ToolJournal

    path = data_dir / JOURNAL_FILE
    if not path.exists():
        return []
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cur = conn.execute(
            "SELECT * FROM tool_journal" + (" WHERE kind = ?" if kind else "") + " ORDER BY seq",
            (kind,) if kind else (),
        )
        names = [d[0] for d in cur.description]
        return [ToolJournal.record(dict(zip(names, row, strict=True))) for row in cur.fetchall()]
    finally:
        conn.close()


def journal_text(data_dir: Path) -> str:
    """Every row of the tool journal in ``data_dir`` (all kinds) as one JSON line each, for "never logged" checks."""
    import json

    return "\n".join(json.dumps(r, ensure_ascii=False) for r in journal_records(data_dir, None))


def alice_and_bob(data: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Two people with a grant on ``notes`` in a new data dir ``data``: their ``Authorization`` headers."""
    from pwdlib.hashers.argon2 import Argon2Hasher

    from obsigate.auth.tokens import TokenService
    from obsigate.auth.users import UserStore

    data.mkdir()
    users = UserStore(data / "users.sqlite3", password_hasher=Argon2Hasher(time_cost=1, memory_cost=8192))
    tokens = TokenService(data / "jwt_secret")
    alice, bob = ({"Authorization": f"Bearer {tokens.issue(users.add_user(name, None, vaults=['notes']))}"}
                  for name in ("alice", "bob"))  # fmt: skip
    users.close()
    return alice, bob
