from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from obsigate.domain.index.vault_index import VaultIndex


@pytest.fixture
def index(tmp_path: Path) -> Iterator[VaultIndex]:
    """An empty index in ``tmp_path/data`` with a short full-text commit interval."""
    ix = VaultIndex(tmp_path / "data" / "index.sqlite3", commit_interval=0.2)
    yield ix
    ix.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
