"""A real ``obsigate serve`` process on loopback for the robustness tests (``from robust.serving import ...``):
its crashes, its stderr and its CPU are its own, apart from the test's process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import httpx2
from support import free_port


class Server:
    """``python -m obsigate serve`` over ``vaults`` (name → folder) and the data dir ``data`` on loopback ``port``
    (default: a free one; a load that restarts the server keeps one address), its console log appended to ``log``
    (default: ``serve-PORT.log`` beside ``data``), the rate limits out of the way (thousands of calls from one
    identity), ``env`` adding ``OBSIGATE_*`` settings. Returns once the index is ready.

    Raises:
        AssertionError: the server exited or was not ready within 60 s (its log's end in the message).
    """

    def __init__(
        self,
        vaults: Mapping[str, Path],
        data: Path,
        *,
        port: int | None = None,
        log: Path | None = None,
        auth: bool = False,
        env: Mapping[str, str] | None = None,
    ) -> None:
        port = port or free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.log = log or data.parent / f"serve-{port}.log"
        full_env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000", "OBSIGATE_WEB_RATE_LIMIT": "1000000"}
        cmd = [sys.executable, "-m", "obsigate", "serve", "--data-dir", str(data), "--port", str(port)]
        cmd += [arg for name, path in vaults.items() for arg in ("--vault", f"{name}={path}")]
        cmd += [] if auth else ["--no-auth"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env={**full_env, **(env or {})}
            )
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx2.get(f"{self.url}/api/health", timeout=2).json()["index"]["state"] == "ready":
                    return
            except (httpx2.HTTPError, ValueError, KeyError):
                pass
            assert self.proc.poll() is None, f"the server exited while starting:\n{self.printed()[-3000:]}"
            assert time.monotonic() < deadline, f"the server was not ready in 60 s:\n{self.printed()[-3000:]}"
            time.sleep(0.05)

    def printed(self) -> str:
        """What the server has written to its log so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def close(self) -> None:
        """:meth:`stop` (for ``contextlib.closing``); nothing if it has stopped already."""
        self.stop()

    def kill(self) -> None:
        """SIGKILL (a crash: nothing runs on the way out)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self, grace: float = 15.0) -> float:
        """SIGTERM (a clean stop), then SIGKILL after ``grace`` seconds; returns the seconds it took to exit."""
        started = time.monotonic()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.kill()
        return time.monotonic() - started


@contextmanager
def serve(
    vaults: Mapping[str, Path], data: Path, *, auth: bool = False, env: Mapping[str, str] | None = None
) -> Iterator[Server]:
    """A :class:`Server` on a free port, stopped cleanly on leaving."""
    server = Server(vaults, data, auth=auth, env=env)
    try:
        yield server
    finally:
        server.stop()
