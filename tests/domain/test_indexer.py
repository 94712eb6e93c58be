"""Indexer: incremental refresh, diagnostics, temp/hidden files, and the real watcher (external edits)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import anyio
import pytest
from support import eventually

import obsigate.domain.index.watcher as indexer_mod
from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.vault import Vault

VAULT = {
    "Home.md": "---\ntags: [home]\n---\n# Home\nWelcome to the tidepool vault. [[Ideas]]\n",
    "Ideas.md": "# Ideas\nA tidepool sensor network. #project/sensors\n",
    "Projects/Plan.md": "---\nstatus: active\n---\n## Budget\nThe budget is small. #project/sensors\n",
    "Attachments/pic.png": "not really a png",
    ".obsidian/app.json": "{}",
    ".trash/Old.md": "# Old tidepool note\n",
}


def write(root: Path, rel: str, content: str | bytes) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        p.write_bytes(content)
    else:
        p.write_text(content, encoding="utf-8")
    return p


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    root = tmp_path / "vault"
    for rel, text in VAULT.items():
        write(root, rel, text)
    return Vault("v", root)


@pytest.fixture
def parse_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count calls to the real parser made by the indexer."""
    calls: list[int] = []
    real = indexer_mod.parse_note

    def counting(text: str):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(text)

    monkeypatch.setattr(indexer_mod, "parse_note", counting)
    return calls


def hits(index: VaultIndex, q: str, **kw) -> list[str]:  # type: ignore[no-untyped-def]
    return [h.path for h in index.search(q, vaults=["v"], **kw).hits]


def test_refresh_all_is_incremental(vault: Vault, index: VaultIndex, parse_calls: list[int]) -> None:
    ix = Indexer(index, {"v": vault})
    first = ix.refresh_all()
    assert (first["scanned"], first["indexed"], first["unchanged"], first["removed"]) == (4, 4, 0, 0)
    assert len(parse_calls) == 3  # three notes, the png is not parsed
    assert sorted(hits(index, "tidepool")) == ["Home.md", "Ideas.md"]  # .trash is hidden
    assert index.note_count("v") == 3 and index.file_count("v") == 4

    second = ix.refresh_all()
    assert (second["indexed"], second["unchanged"]) == (0, 4) and len(parse_calls) == 3

    p = vault.root / "Ideas.md"
    p.write_text("# Ideas\nnow about coral reefs\n", encoding="utf-8")
    os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns + 1_000_000))
    (vault.root / "Projects" / "Plan.md").unlink()
    third = ix.refresh_all()
    assert (third["indexed"], third["unchanged"], third["removed"]) == (1, 2, 1) and len(parse_calls) == 4
    assert hits(index, "coral") == ["Ideas.md"] and hits(index, "budget") == []

    full = ix.refresh_all(full=True)
    assert full["indexed"] == 3 and full["full"] is True and len(parse_calls) == 6
    assert hits(index, "coral") == ["Ideas.md"]


def test_refresh_drops_unconfigured_vaults(vault: Vault, index: VaultIndex) -> None:
    Indexer(index, {"v": vault, "w": Vault("w", vault.root)}).refresh_all()
    assert index.vault_names() == ["v", "w"]
    stats = Indexer(index, {"v": vault}).refresh_all()
    assert stats["removed_vaults"] == 1 and index.vault_names() == ["v"]
    assert index.search("tidepool", vaults=["w"]).total == 0


def test_invalid_utf8_and_frontmatter_diagnostics(vault: Vault, index: VaultIndex) -> None:
    write(vault.root, "latin1.md", "café tidepool".encode("latin-1"))
    write(vault.root, "badfm.md", "---\ntags: [unclosed\n---\nbroken frontmatter tidepool\n")
    Indexer(index, {"v": vault}).refresh_all()
    diags = {(d["path"], d["code"]) for d in index.diagnostics("v")}
    assert diags == {("latin1.md", "invalid_utf8"), ("badfm.md", "invalid_frontmatter")}
    found = hits(index, "tidepool")
    assert "badfm.md" in found and "latin1.md" not in found  # bad frontmatter: indexed; bad bytes: not
    assert "latin1.md" in index.file_states("v")  # still listed as a file
    write(vault.root, "latin1.md", "café tidepool fixed")
    Indexer(index, {"v": vault}).refresh_path("v", "latin1.md")
    assert "latin1.md" in hits(index, "fixed") and {d["path"] for d in index.diagnostics()} == {"badfm.md"}


def test_temp_and_hidden_files_are_ignored(vault: Vault, index: VaultIndex) -> None:
    for name in (".Home.md.swp", "Home.md~", "4913", "x.tmp", ".#Home.md", "Home.md.sb-1a2b3c4d-Zx9"):
        write(vault.root, name, "tidepool temp")
    write(vault.root, "sub/.hidden/n.md", "tidepool hidden")
    ix = Indexer(index, {"v": vault})
    ix.refresh_all()
    assert set(index.file_states("v")) == {"Home.md", "Ideas.md", "Projects/Plan.md", "Attachments/pic.png"}
    ix.refresh_path("v", "x.tmp")
    ix.refresh_path("v", ".obsidian/app.json")
    ix.refresh_path("v", "../outside.md")
    assert len(index.file_states("v")) == 4


def test_refresh_path_own_write_is_visible_at_once(vault: Vault, index: VaultIndex) -> None:
    ix = Indexer(index, {"v": vault})
    ix.refresh_all()
    write(vault.root, "New note.md", "freshly written marmoset\n")
    t = time.perf_counter()
    ix.refresh_path("v", "New note.md")
    found = hits(index, "marmoset")
    assert found == ["New note.md"] and time.perf_counter() - t < 0.5
    (vault.root / "New note.md").unlink()
    ix.refresh_path("v", "New note.md")
    assert hits(index, "marmoset") == []
    with pytest.raises(KeyError):
        ix.refresh_path("nope", "a.md")


def test_refresh_path_on_folders(vault: Vault, index: VaultIndex) -> None:
    ix = Indexer(index, {"v": vault})
    ix.refresh_all()
    (vault.root / "Projects").rename(vault.root / "Archive")
    ix.refresh_path("v", "Projects")
    ix.refresh_path("v", "Archive")
    index.flush()
    assert hits(index, "budget") == ["Archive/Plan.md"]
    assert not any(p.startswith("Projects/") for p in index.file_states("v"))


def test_symlink_escaping_the_vault_is_not_indexed(vault: Vault, index: VaultIndex, tmp_path: Path) -> None:
    write(tmp_path, "outside/secret.md", "classified tidepool secret")
    os.symlink(tmp_path / "outside" / "secret.md", vault.root / "leak.md")
    ix = Indexer(index, {"v": vault})
    ix.refresh_all()
    ix.refresh_path("v", "leak.md")
    assert hits(index, "classified") == [] and "leak.md" not in index.file_states("v")


def test_big_refresh_parses_in_worker_processes(
    vault: Vault, index: VaultIndex, parse_calls: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexer_mod, "PARALLEL_AFTER", 20)
    for i in range(150):
        write(vault.root, f"many/n{i:03d}.md", f"---\ntags: [batch/n{i % 3}]\n---\nworker parsed note {i}\n")
    write(vault.root, "many/zz-bad.md", b"worker \xff\xfe parsed")
    stats = Indexer(index, {"v": vault}, workers=1).refresh_all()
    assert stats["indexed"] == 155 and stats["errors"] == 0
    assert len(parse_calls) == 20  # the first 20 notes in-process, the other 134 in the worker
    assert index.search("worker parsed", vaults=["v"]).total == 150
    assert {t.tag: t.count for t in index.list_tags(vaults=["v"])}["batch"] == 150
    assert [(d["path"], d["code"]) for d in index.diagnostics("v")] == [("many/zz-bad.md", "invalid_utf8")]


# ----------------------------------------------------------------------------------- real watcher


@pytest.mark.anyio
async def test_watcher_applies_external_changes(vault: Vault, index: VaultIndex) -> None:
    for i in range(200):  # enough notes for the initial build to take a moment
        write(vault.root, f"bulk/n{i:03d}.md", f"bulk note {i} tidepool\n")
    ix = Indexer(index, {"v": vault}, debounce_ms=100)
    await ix.start()
    assert ix.state == "indexing" and ix.status()["started_at"] is not None
    await eventually(lambda: ix.state == "ready", 30, "ready")
    st = ix.status()
    assert st["ready_at"] and st["notes"] == 203 and st["files"] == 204 and st["pending"] == 0
    assert st["last_refresh"]["indexed"] == 204
    try:
        # create
        write(vault.root, "Created.md", "a brand new axolotl\n")
        await eventually(lambda: hits(index, "axolotl") == ["Created.md"], what="create")
        # edit
        write(vault.root, "Ideas.md", "# Ideas\nnow about narwhals\n")
        await eventually(lambda: hits(index, "narwhals") == ["Ideas.md"], what="edit")
        assert "Ideas.md" not in hits(index, "sensor")
        # rename a file
        (vault.root / "Created.md").rename(vault.root / "Renamed.md")
        await eventually(lambda: hits(index, "axolotl") == ["Renamed.md"], what="rename")
        # rename a folder
        (vault.root / "Projects").rename(vault.root / "Old projects")
        await eventually(lambda: hits(index, "budget") == ["Old projects/Plan.md"], what="folder rename")
        # delete
        (vault.root / "Renamed.md").unlink()
        await eventually(lambda: hits(index, "axolotl") == [], what="delete")
        # a bad file does not stop the watcher; temp and hidden files are ignored
        write(vault.root, "bad.md", b"\xff\xfe tidepool \xff")
        write(vault.root, "Home.md.swp", "tidepool swap")
        write(vault.root, ".obsidian/workspace.md", "tidepool hidden")
        write(vault.root, "after-bad.md", "the okapi arrives after a bad file\n")
        await eventually(lambda: hits(index, "okapi") == ["after-bad.md"], what="after bad file")
        await eventually(lambda: any(d["code"] == "invalid_utf8" for d in index.diagnostics()), what="diagnostic")
        files = index.file_states("v")
        assert "bad.md" in files and "Home.md.swp" not in files and ".obsidian/workspace.md" not in files
    finally:
        await ix.stop()
    assert ix._thread is None
    write(vault.root, "late.md", "written after stop: quetzal\n")
    await anyio.sleep(0.5)
    assert hits(index, "quetzal") == []


@pytest.mark.anyio
async def test_changes_during_initial_build_are_not_lost(vault: Vault, index: VaultIndex) -> None:
    for i in range(300):
        write(vault.root, f"bulk/n{i:03d}.md", f"bulk note {i}\n")
    ix = Indexer(index, {"v": vault}, debounce_ms=50)
    await ix.start()
    try:
        await anyio.sleep(0.1)
        write(vault.root, "zz-during.md", "created during the build: pangolin\n")
        (vault.root / "Ideas.md").unlink()
        await eventually(lambda: ix.state == "ready", 30, "ready")
        await eventually(lambda: hits(index, "pangolin") == ["zz-during.md"], what="created during build")
        await eventually(lambda: hits(index, "network") == [], what="deleted during build")
    finally:
        await ix.stop()


@pytest.mark.anyio
async def test_stop_interrupts_the_initial_build(vault: Vault, index: VaultIndex) -> None:
    for i in range(2000):
        write(vault.root, f"bulk/n{i:04d}.md", f"bulk note {i}\n")
    ix = Indexer(index, {"v": vault})
    await ix.start()
    await anyio.sleep(0.1)
    t = time.monotonic()
    await ix.stop()
    assert time.monotonic() - t < 5 and ix.state == "indexing"
