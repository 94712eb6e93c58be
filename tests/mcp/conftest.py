"""Fixtures for the MCP tests: the real app (``create_app``) served in-process over ``httpx2.ASGITransport``
(its lifespan entered by hand: indexer + MCP session manager), users and bearer credentials, and the
official ``mcp.Client`` connected through it with a chosen protocol era."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from fastapi import FastAPI
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from support import SMALL_VAULT, write_tree

from obsigate.bootstrap import create_app
from obsigate.config import load_settings

#: What ASGITransport requests look like: loopback Host with a port, as a local client sends.
BASE = "http://127.0.0.1:8765"
MCP_URL = f"{BASE}/mcp"
ERAS = ["legacy", "auto"]

OTHER_VAULT = {"Private.md": "# Private\n\nThe marmalade protocol is only for the owner of other.\n"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=ERAS)
def era(request: pytest.FixtureRequest) -> str:
    """The ``mcp.Client`` mode: ``legacy`` (2025-11-25: initialize + session) or ``auto`` (server/discover, then
    2026-07-28, sessionless)."""
    return request.param


@dataclass
class Gateway:
    """A running ObsiGate app with users ``alice`` (vault notes), ``bob`` (vault other), ``carol`` (none)."""

    app: FastAPI
    base: str = BASE
    mcp_url: str = MCP_URL
    tokens: dict[str, str] = field(default_factory=dict)
    api_keys: dict[str, str] = field(default_factory=dict)

    @property
    def auth(self) -> Any:
        return self.app.state.auth

    @property
    def runtime(self) -> Any:
        return self.app.state.runtime

    def http(self, bearer: str | None = None, headers: dict[str, str] | None = None) -> httpx2.AsyncClient:
        """A raw HTTP client to the app (no socket); ``bearer`` adds ``Authorization``."""
        all_headers = dict(headers or {})
        if bearer is not None:
            all_headers["Authorization"] = f"Bearer {bearer}"
        return httpx2.AsyncClient(transport=httpx2.ASGITransport(app=self.app), base_url=BASE, headers=all_headers)

    @asynccontextmanager
    async def client(self, bearer: str | None, mode: str) -> AsyncIterator[Client]:
        """The official MCP client speaking ``mode`` to ``/mcp`` with ``bearer``."""
        async with (
            self.http(bearer) as http,
            Client(streamable_http_client(MCP_URL, http_client=http), mode=mode) as client,
        ):
            yield client

    async def wait_indexed(self, timeout: float = 30) -> None:
        """Return once the background indexer reports ``ready``."""
        indexer = self.runtime.workspace.indexer
        with anyio.fail_after(timeout):
            while indexer is not None and indexer.state != "ready":
                await anyio.sleep(0.02)


@pytest.fixture
def make_app(tmp_path: Path) -> Callable[..., FastAPI]:
    """Factory: ``make_app({"name": path}, **settings)`` → ``create_app`` with a data dir under tmp_path.

    ``port`` defaults to the one in :data:`BASE`; the rate limit is lifted so tests never hit it."""

    def make(vaults: dict[str, Path], **overrides: Any) -> FastAPI:
        settings = load_settings(
            data_dir=tmp_path / "data",
            vaults={name: {"path": str(p)} for name, p in vaults.items()},
            **{"port": 8765, "tool_rate_limit": 10_000, **overrides},
        )
        return create_app(settings)

    return make


@asynccontextmanager
async def running(app: FastAPI) -> AsyncIterator[FastAPI]:
    """Enter the app's lifespan (ASGITransport runs none): starts the indexer and the MCP session manager."""
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
def run_app() -> Callable[[FastAPI], Any]:
    """``async with run_app(app):`` enters ``app``'s lifespan (see :func:`running`)."""
    return running


@pytest.fixture
def vaults(tmp_path: Path) -> dict[str, Path]:
    return {
        "notes": write_tree(tmp_path / "vaults" / "notes", SMALL_VAULT),
        "other": write_tree(tmp_path / "vaults" / "other", OTHER_VAULT),
    }


@pytest.fixture
async def gateway(make_app: Callable[..., FastAPI], vaults: dict[str, Path]) -> AsyncIterator[Gateway]:
    """The real app with auth on, three users, a JWT each and an API key for alice; index ready."""
    app = make_app(vaults)
    async with running(app):
        gw = Gateway(app)
        users, tokens = gw.auth.users, gw.auth.tokens
        for name, grants in (("alice", ["notes"]), ("bob", ["other"]), ("carol", [])):
            gw.tokens[name] = tokens.issue(users.add_user(name, None, vaults=grants))
        gw.api_keys["alice"] = users.create_api_key("alice", label="tests")[1]
        await gw.wait_indexed()
        yield gw


@pytest.fixture
async def open_gateway(make_app: Callable[..., FastAPI], vaults: dict[str, Path]) -> AsyncIterator[Gateway]:
    """The real app with authentication disabled (anonymous, every vault)."""
    app = make_app(vaults, auth_enabled=False)
    async with running(app):
        gw = Gateway(app)
        await gw.wait_indexed()
        yield gw
