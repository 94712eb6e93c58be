"""Shared fixtures: temporary vaults, settings, and a real ObsiGate server on loopback."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn
from fakes.llm_server import FakeLLM, running
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import Settings, load_settings


@pytest.fixture
def small_vault(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "vault", SMALL_VAULT)


class LiveServer:
    """A real uvicorn server running ``create_app(settings)`` in a thread on 127.0.0.1."""

    def __init__(self, settings: Settings) -> None:
        from obsigate.bootstrap import create_app

        self.settings = settings
        self.app = create_app(settings)
        self.url = settings.base_url
        # proxy_headers=False as `obsigate serve` runs it: ObsiGate reads X-Forwarded-For itself, from trusted
        # proxies only (api/client_address.py); uvicorn's default would trust any 127.0.0.1 peer's header
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=settings.port, log_level="warning", lifespan="on", proxy_headers=False
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        return self

    def wait_ready(self, timeout: float = 30) -> None:
        """Block until the index reports ``ready``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if httpx2.get(f"{self.url}/api/health").json()["index"]["state"] == "ready":
                return
            time.sleep(0.05)
        raise TimeoutError("index not ready")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Callable[..., LiveServer]]:
    """Factory: ``live_server(vaults={"name": path}, **settings)`` → a started, index-ready server. A vault may
    also be given as its settings (``{"path": ..., "read_only": True}``)."""
    started: list[LiveServer] = []

    def make(vaults: dict[str, Path | dict[str, Any]], **overrides) -> LiveServer:
        settings = load_settings(
            data_dir=overrides.pop("data_dir", tmp_path / "data"),
            port=free_port(),
            vaults={name: p if isinstance(p, dict) else {"path": str(p)} for name, p in vaults.items()},
            tool_rate_limit=overrides.pop("tool_rate_limit", 10_000),
            **overrides,
        )
        server = LiveServer(settings).start()
        started.append(server)
        server.wait_ready()
        return server

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def fake() -> Iterator[FakeLLM]:
    """The scripted fake LLM provider on loopback (``tests/fakes/llm_server.py``), stopped after the test."""
    with running() as server:
        yield server


@pytest.fixture(autouse=True, scope="session")
def _names_never_reach_dns() -> Iterator[None]:
    """No test sends a DNS query off the machine (issue 18): a model under test (the real engine) may call
    fetch_url with any URL, so the outbound client resolves only what glibc answers without DNS: numeric forms
    (``127.1``, ``0x7f.1``, ``2130706433``: ``AI_NUMERICHOST``) and ``localhost`` (/etc/hosts); any other name
    fails as an unknown name would. Tests that need a name pass their own stub resolver."""
    import socket

    from obsigate.services.net import client

    real = client.system_resolver

    async def offline(host: str, port: int) -> list[str]:
        if host.lower().rstrip(".") == "localhost":
            return await real(host, port)
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_NUMERICHOST)
        return list(dict.fromkeys(str(info[4][0]) for info in infos))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(client, "system_resolver", offline)
        yield
