"""A real ``obsigate serve`` process for the robustness tests (importable as ``robust.serving``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2


class Server:
    """``obsigate serve`` over the vault ``v`` at ``vault`` and the data dir ``data``, auth off, on a fixed loopback
    ``port`` (a load keeps one address across restarts), with the rate limits out of the way (1,000 writes from one
    identity); its console log is appended to ``log``. Returns once the index is ready (60 s at most)."""

    def __init__(self, vault: Path, data: Path, port: int, log: Path) -> None:
        self.url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000", "OBSIGATE_WEB_RATE_LIMIT": "1000000"}
        cmd = [sys.executable, "-m", "obsigate", "serve", "--vault", f"v={vault}", "--no-auth",
               "--data-dir", str(data), "--port", str(port)]  # fmt: skip
        with log.open("ab") as err:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx2.get(f"{self.url}/api/health", timeout=1).json()["index"]["state"] == "ready":
                    return
            except (httpx2.HTTPError, ValueError, KeyError):
                pass
            assert self.proc.poll() is None, f"the server exited while starting: {log.read_text()[-3000:]}"
            time.sleep(0.05)
        raise AssertionError("the server did not get ready")

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
