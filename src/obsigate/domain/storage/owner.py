"""Which process owns a data dir: ``<data-dir>/owner.json``.

One process at a time writes a data dir's index and change journal; tantivy's writer lock enforces that
(``IndexBusyError``). This file only says *who* holds it, so a second process can say so clearly or, when
the owner is an ``obsigate serve`` that speaks MCP over HTTP, forward its calls there
(``obsigate mcp stdio``). It is written by the owner after the lock is taken, atomically and 0600, and
removed on a clean stop; a stale file (its pid gone) is ignored, since the lock is the truth.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from obsigate.domain.storage.atomic import atomic_write
from obsigate.domain.storage.private_files import FILE_MODE

__all__ = ["OWNER_FILE", "Owner", "claim_owner", "read_owner", "release_owner"]

OWNER_FILE = "owner.json"


@dataclass(frozen=True, slots=True)
class Owner:
    """The process holding a data dir.

    Attributes:
        pid: its process id.
        kind: ``"serve"`` (``obsigate serve``: REST, web app, MCP over HTTP) or ``"stdio"``
            (``obsigate mcp stdio``).
        mcp_url: the MCP endpoint other local processes may forward to (``serve`` only), e.g.
            ``http://127.0.0.1:8000/mcp``.
        auth: whether that endpoint requires a bearer token.
        vaults: the vaults it serves, name → absolute real path.
        started: when it took the data dir, epoch seconds.
    """

    pid: int
    kind: str
    mcp_url: str | None = None
    auth: bool = True
    vaults: dict[str, str] = field(default_factory=dict)
    started: float = field(default_factory=time.time)

    def describe(self) -> str:
        """One phrase naming the owner, e.g. ``obsigate serve (pid 41, http://127.0.0.1:8000/mcp)``."""
        where = f", {self.mcp_url}" if self.mcp_url else ""
        command = "obsigate serve" if self.kind == "serve" else "obsigate mcp stdio"
        return f"{command} (pid {self.pid}{where})"


def claim_owner(data_dir: Path, owner: Owner) -> None:
    """Record ``owner`` as the data dir's owner (call only once the index lock is held).

    Raises:
        OSError: the file cannot be written.
    """
    atomic_write(data_dir / OWNER_FILE, json.dumps(asdict(owner), separators=(",", ":")).encode(), mode=FILE_MODE)


def release_owner(data_dir: Path, pid: int | None = None) -> None:
    """Remove the owner file if it names ``pid`` (default: this process); never raises."""
    current = read_owner(data_dir, alive_only=False)
    if current is not None and current.pid == (os.getpid() if pid is None else pid):
        try:
            (data_dir / OWNER_FILE).unlink()
        except OSError:
            pass


def read_owner(data_dir: Path, *, alive_only: bool = True) -> Owner | None:
    """The recorded owner, or ``None``: no file, an unreadable one, or (``alive_only``) its process gone."""
    try:
        raw = json.loads((data_dir / OWNER_FILE).read_text(encoding="utf-8"))
        owner = Owner(
            pid=int(raw["pid"]), kind=str(raw["kind"]), mcp_url=raw.get("mcp_url"), auth=bool(raw.get("auth", True)),
            vaults={str(k): str(v) for k, v in (raw.get("vaults") or {}).items()}, started=float(raw.get("started", 0)),
        )  # fmt: skip
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if alive_only and not _alive(owner.pid):
        return None
    return owner


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (signal 0: no signal is sent)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    return pid > 0
