from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.storage.tool_journal import ToolJournal
from obsigate.domain.vault import Vault
from obsigate.services.user_files import FileSpace
from obsigate.services.workspace import Workspace
from obsigate.tools.context import ToolRuntime


@pytest.fixture
def runtime(small_vault: Path, tmp_path: Path) -> Iterator[ToolRuntime]:
    """A real workspace over ``small_vault`` (indexed synchronously) plus a second vault ``other``; the users'
    file space in ``tmp_path/file-space``."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "Private.md").write_text("# Private\n\nonly for the owner of other\n")
    vaults = {"notes": Vault("notes", small_vault.resolve()), "other": Vault("other", other.resolve())}
    index = VaultIndex(tmp_path / "index.sqlite3")
    indexer = Indexer(index, vaults)
    indexer.refresh_all()
    files = FileSpace(tmp_path / "file-space")
    rt = ToolRuntime(
        workspace=Workspace(vaults=vaults, index=index, indexer=indexer), journal=ToolJournal(tmp_path),
        data_dir=tmp_path / "file-space", files=files,
    )  # fmt: skip
    yield rt
    files.close()
    index.close()
