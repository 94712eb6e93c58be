"""``<data-dir>/owner.json``: who holds a data dir, written atomically 0600, stale when its process is gone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from obsigate.domain.storage.owner import OWNER_FILE, Owner, claim_owner, read_owner, release_owner


def test_claim_read_release(tmp_path: Path) -> None:
    me = Owner(pid=os.getpid(), kind="serve", mcp_url="http://127.0.0.1:8000/mcp", auth=False, vaults={"n": "/v"})
    claim_owner(tmp_path, me)
    assert (tmp_path / OWNER_FILE).stat().st_mode & 0o777 == 0o600
    assert read_owner(tmp_path) == me
    assert me.describe() == f"obsigate serve (pid {os.getpid()}, http://127.0.0.1:8000/mcp)"
    release_owner(tmp_path, pid=os.getpid() + 1)  # not ours: kept
    assert read_owner(tmp_path) == me
    release_owner(tmp_path)
    assert read_owner(tmp_path) is None and not (tmp_path / OWNER_FILE).exists()


def test_a_dead_owner_or_a_bad_file_is_no_owner(tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = Owner(pid=int(gone.stdout), kind="stdio")
    claim_owner(tmp_path, dead)
    assert read_owner(tmp_path) is None
    assert read_owner(tmp_path, alive_only=False) == dead
    assert dead.describe() == f"obsigate mcp stdio (pid {dead.pid})"
    for text in ("", "[]", '{"pid": "x", "kind": "serve"}', '{"kind": "serve"}', "{"):
        (tmp_path / OWNER_FILE).write_text(text)
        assert read_owner(tmp_path, alive_only=False) is None
