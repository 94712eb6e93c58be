"""The list_backups / diff_backup services over a real workspace, and the store's failures as service errors."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import SMALL_VAULT, write_tree

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.storage.backups import BackupStore
from obsigate.domain.vault import Vault
from obsigate.services.backups import diff_backup, list_backups, read_backup, save_backup
from obsigate.services.errors import BadRequest, NotFound, PathOutsideVault, ServiceError, Unavailable
from obsigate.services.workspace import Limits, Workspace

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"


def files_under(root: Path) -> list[Path]:
    return [Path(d) / f for d, _, fs in os.walk(root) for f in fs]


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    root = write_tree(tmp_path / "vault", SMALL_VAULT)
    other = write_tree(tmp_path / "other", {"Private.md": "private\n"})
    index = VaultIndex(tmp_path / "data" / "index.sqlite3")
    workspace = Workspace(
        vaults={"notes": Vault("notes", root), "other": Vault("other", other)},
        index=index,
        limits=Limits(budget_chars=20_000),
        backups=BackupStore(tmp_path / "data" / "backups"),
    )
    yield workspace
    index.close()


def test_services_list_and_diff_a_file_even_after_it_was_deleted(ws: Workspace) -> None:
    assert ws.backups is not None
    plan = ws.vaults["notes"].root / "Projects" / "Plan.md"
    before = plan.read_bytes()
    version = ws.backups.save("notes", "Projects/Plan.md", before, reason="edit_file")
    plan.write_bytes(before.replace(b"small", b"large"))
    listed = list_backups(ws, ws.get_vault("notes", None), "Projects/Plan.md").model_dump()
    assert listed["vault"] == "notes" and listed["path"] == "Projects/Plan.md" and listed["total"] == 1
    out = diff_backup(ws, ws.get_vault("notes", None), "Projects/Plan.md", version).model_dump()
    assert out["compare_with"] is None and out["truncated"] is False and out["version"] == version
    assert "-The budget for the tidepool buoy is small. #project/sensors" in out["diff"]
    assert "+The budget for the tidepool buoy is large. #project/sensors" in out["diff"]
    gone = ws.backups.save("notes", "Projects/Plan.md", plan.read_bytes(), reason="delete_file")
    plan.unlink()
    listed = list_backups(ws, ws.get_vault("notes", None), "Projects/Plan.md").model_dump()
    assert [v["version"] for v in listed["versions"]] == [gone, version] and listed["versions"][0]["deleted"]
    out = diff_backup(ws, ws.get_vault("notes", None), "Projects/Plan.md", gone).model_dump()
    assert "(absent now)" in out["diff"].splitlines()[1]
    between = diff_backup(ws, ws.get_vault("notes", None), "Projects/Plan.md", version, compare_with=gone).model_dump()
    assert between["compare_with"] == gone and "+The budget for the tidepool buoy is large." in between["diff"]


def test_services_check_paths_and_the_store(ws: Workspace) -> None:
    # vault grants are the tool layer's: tests/tools/test_backup_tools.py checks them through call_tool
    with pytest.raises(PathOutsideVault):
        list_backups(ws, ws.get_vault("notes", None), "../other/Private.md")
    with pytest.raises(PathOutsideVault):
        diff_backup(ws, ws.get_vault("notes", None), ".obsidian/app.json", "20200101T000000.000000Z-0000")
    with pytest.raises(BadRequest):
        diff_backup(ws, ws.get_vault("notes", None), "Home.md", "nonsense")
    with pytest.raises(NotFound):
        diff_backup(ws, ws.get_vault("notes", None), "Home.md", "20200101T000000.000000Z-0000")
    assert ws.backups is not None
    secret_version = ws.backups.save("notes", "Projects/Secret.md", b"old\n", reason="edit_file")
    out = diff_backup(ws, ws.get_vault("notes", None), "Projects/Secret.md", secret_version).model_dump()
    assert SECRET not in out["diff"] and "[REDACTED:openai-api-key]" in out["diff"]
    ws.backups.save("notes", "Long.md", "".join(f"line {i}\n" for i in range(3000)).encode(), reason="edit_file")
    long = list_backups(ws, ws.get_vault("notes", None), "Long.md").model_dump()["versions"][0]["version"]
    cut = diff_backup(ws, ws.get_vault("notes", None), "Long.md", long).model_dump()
    assert cut["truncated"] is True and len(json.dumps(cut)) < ws.limits.budget_chars
    ws.backups = None
    with pytest.raises(Unavailable) as err:
        list_backups(ws, ws.get_vault("notes", None), "Home.md")
    assert err.value.code == "unavailable" and err.value.http_status == 503


def test_store_failures_keep_their_codes_statuses_and_messages(tmp_path: Path) -> None:
    store = BackupStore(tmp_path / "data" / "backups")
    version = save_backup(store, "notes", "A.md", b"a", reason="edit_file")
    assert read_backup(store, "notes", "A.md", version) == b"a"
    with pytest.raises(NotFound) as missing:
        read_backup(store, "notes", "A.md", "20200101T000000.000000Z-0000")
    assert missing.value.code == "not_found" and missing.value.http_status == 404
    assert missing.value.to_dict() == {
        "code": "not_found",
        "message": "no backup '20200101T000000.000000Z-0000' of 'A.md' in vault 'notes'",
        "hint": "call list_backups to see the versions of this file",
    }
    with pytest.raises(BadRequest) as malformed:
        read_backup(store, "notes", "A.md", "latest")
    assert malformed.value.code == "invalid_argument" and malformed.value.http_status == 400
    assert (
        malformed.value.message == "version 'latest' is not a backup version id (like '20261130T120501.123456Z-3f2a')"
    )
    assert malformed.value.hint == "call list_backups to see the versions of a file"
    with pytest.raises(BadRequest, match="vault name is missing"):
        save_backup(store, "", "A.md", b"a", reason="edit_file")
    for bad in ("../escape.md", "/etc/passwd", ".obsidian/app.json", "a/../../b.md"):
        with pytest.raises(PathOutsideVault):  # the path guard's own error, before the store
            save_backup(store, "notes", bad, b"x", reason="edit_file")
    with pytest.raises(BadRequest, match="path must not be empty"):
        read_backup(store, "notes", "", version)
    assert save_backup(store, "notes", "Sub//./B.md", b"b", reason="edit_file") in [
        v["version"] for v in store.versions("notes", "Sub/B.md")
    ]  # normalised as every service path is

    data = next(p for p in files_under(store.root) if p.suffix == ".bin" and version in p.name)
    data.write_bytes(b"tampered")
    with pytest.raises(ServiceError) as damaged:
        read_backup(store, "notes", "A.md", version)
    assert damaged.value.code == "backup_damaged" and damaged.value.http_status == 500
    assert damaged.value.message == f"backup {version!r} of 'A.md' is damaged (checksum mismatch)"

    folder = data.parent
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    folder.symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(ServiceError) as failed:
        save_backup(store, "notes", "A.md", b"a", reason="edit_file")
    assert failed.value.code == "backup_failed" and failed.value.http_status == 500
    assert failed.value.message == "the backup store is damaged: a backup folder is not a real folder"
    assert failed.value.__cause__ is None and failed.value.__suppress_context__


def test_services_report_a_damaged_store_with_its_code(ws: Workspace) -> None:
    assert ws.backups is not None
    version = ws.backups.save("notes", "Home.md", b"home\n", reason="edit_file")
    data = next(p for p in files_under(ws.backups.root) if p.suffix == ".bin")
    data.write_bytes(b"tampered")
    with pytest.raises(ServiceError) as damaged:
        diff_backup(ws, ws.get_vault("notes", None), "Home.md", version)
    assert damaged.value.code == "backup_damaged"
    folder = data.parent
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    folder.symlink_to(ws.vaults["notes"].root, target_is_directory=True)
    with pytest.raises(ServiceError) as failed:
        list_backups(ws, ws.get_vault("notes", None), "Home.md")
    assert failed.value.code == "backup_failed"
