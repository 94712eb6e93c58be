"""The server's periodic sweep of the file space (``api/app.expire_files_forever``): a file whose time has come is
deleted by the running loop, off the event loop, without a request, and so is an MCP session's plan idle as long;
the loop survives a failed sweep."""

from __future__ import annotations

import os
import time
from pathlib import Path
from types import SimpleNamespace

import anyio
import pytest

from obsigate.api.app import expire_files_forever
from obsigate.services import plans
from obsigate.services.plans import PlanStep
from obsigate.services.user_files import FileSpace

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_the_sweep_deletes_what_expired_while_the_server_runs(tmp_path: Path) -> None:
    now = [1_800_000_000.0]
    files = FileSpace(tmp_path / "data", ttl_s=60, clock=lambda: now[0])
    try:
        gone = files.put("alice", b"artifact", name="a.txt", conversation="c1", tool="t")
        kept = files.put("alice", b"mine", name="b.txt", origin="upload")
        step = [PlanStep(step="x", status="pending")]
        plans.update_plan(tmp_path / "data", "alice", "s-1", step, session=True)
        plans.update_plan(tmp_path / "data", "alice", "c1", step)  # an in-app conversation's: goes with it only
        folder = tmp_path / "data" / "users" / "alice" / "plans"
        session_plan = folder / (plans.plan_name("s-1", session=True) + ".md")
        old = time.time() - 61
        for plan in folder.iterdir():
            os.utime(plan, (old, old))
        calls = 0
        real = files.expire

        def counted() -> int:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise OSError("a disk hiccup")  # logged; the next sweep runs anyway
            return real()

        files.expire = counted  # type: ignore[method-assign]
        now[0] += 61
        async with anyio.create_task_group() as tg:
            tg.start_soon(expire_files_forever, SimpleNamespace(files=files, data_dir=tmp_path / "data"), 0.02)
            with anyio.fail_after(5):
                while files.used_bytes("alice") != len(b"mine") or session_plan.exists():  # counted until swept
                    await anyio.sleep(0.02)
            tg.cancel_scope.cancel()
        assert calls >= 2 and [r.file_id for r in files.list("alice")[0]] == [kept.file_id]
        assert not (tmp_path / "data" / "users" / "alice" / "files" / gone.file_id).exists()
        assert [p.name for p in folder.iterdir()] == ["c1.md"]
    finally:
        files.close()
