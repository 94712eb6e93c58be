"""``obsigate serve`` as a separate process on a loopback port, for the robustness tests that need a real
server apart from the test's own process (its crashes, its stderr and its CPU are its own)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx2
from support import free_port


@dataclass(frozen=True, slots=True)
class Served:
    """A running ``obsigate serve``: its base URL (``http://127.0.0.1:PORT``), the process and its stderr file."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def printed(self) -> str:
        """What the server has written to stdout and stderr so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")


@contextmanager
def serve(
    vaults: Mapping[str, Path], data: Path, *, auth: bool = True, env: Mapping[str, str] | None = None
) -> Iterator[Served]:
    """Run ``python -m obsigate serve`` with ``vaults`` (name → folder) and data dir ``data`` on a free port
    until the index is ready; stop it (SIGTERM, then SIGKILL after 15 s) on leaving. ``env`` adds environment
    variables (``OBSIGATE_*`` settings); the tool rate limit is lifted unless ``env`` sets it.

    Raises:
        AssertionError: the server exited or was not ready within 60 s (its output is in the message).
    """
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = data.parent / f"serve-{port}.log"
    cmd = [sys.executable, "-m", "obsigate", "serve", "--port", str(port), "--data-dir", str(data)]
    for name, path in vaults.items():
        cmd += ["--vault", f"{name}={path}"]
    if not auth:
        cmd.append("--no-auth")
    full_env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000", **(env or {})}
    with log.open("wb") as out:
        process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=full_env)
    served = Served(url, process, log)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, served.printed()
            assert time.monotonic() < deadline, "obsigate serve was not ready in 60 s:\n" + served.printed()
            try:
                if httpx2.get(f"{url}/api/health", timeout=2).json()["index"]["state"] == "ready":
                    break
            except httpx2.HTTPError:
                pass
            time.sleep(0.1)
        yield served
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=15)
