"""A vault and a real runtime (index, backups, journal, confirmation tokens) in a temporary folder, called through
the tool layer's door in process: the property tests' world (``from robust.world import world_in``)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio

from obsigate.auth.principal import ANONYMOUS
from obsigate.bootstrap import build_runtime
from obsigate.config import load_settings
from obsigate.tools.api import ToolContext, ToolRuntime, call_tool


class World:
    """Vault ``notes`` at ``base/vault``, its runtime's data in ``base/data``, no rate limit. ``mode``: the front
    the calls come from (``"mcp"``: writes are proposed then applied; ``"rest"`` confirmed: applied at once)."""

    def __init__(self, base: Path, mode: str) -> None:
        self.vault = base / "vault"
        self.vault.mkdir()
        data = base / "data"
        self.rt: ToolRuntime = build_runtime(
            load_settings(data_dir=data, vaults={"notes": {"path": str(self.vault)}}), data
        )
        self.rt.limiter = None
        self._mode = mode

    def call(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        ctx = ToolContext(ANONYMOUS, self.rt, mode=self._mode, confirmed=self._mode == "rest")
        return anyio.run(call_tool, ctx, name, args)

    def snapshot(self) -> dict[str, bytes]:
        """Every visible file of the vault, path → bytes."""
        return {
            str(p.relative_to(self.vault)): p.read_bytes()
            for p in sorted(self.vault.rglob("*"))
            if p.is_file() and not p.relative_to(self.vault).parts[0].startswith(".")
        }

    def clear(self) -> None:
        """Empty the vault folder."""
        for p in sorted(self.vault.rglob("*"), reverse=True):
            p.unlink() if p.is_file() or p.is_symlink() else p.rmdir()


@contextmanager
def world_in(prefix: str, mode: str) -> Iterator[World]:
    """A :class:`World` in a new temporary folder, its index closed on leaving."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        w = World(Path(os.path.realpath(tmp)), mode)
        try:
            yield w
        finally:
            w.rt.workspace.index.close()
