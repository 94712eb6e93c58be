"""BackupStore on a real folder, and the list_backups / diff_backup services over a real workspace."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import SMALL_VAULT, write_tree

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.vault import Vault
from obsigate.services.backups import BackupStore, diff_backup, is_version_id, list_backups, redacted_diff
from obsigate.services.errors import BadRequest, NotFound, PathOutsideVault, ServiceError, Unavailable, VaultAccessDenied
from obsigate.services.workspace import Limits, Workspace

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"


@pytest.fixture
def store(tmp_path: Path) -> BackupStore:
    return BackupStore(tmp_path / "data" / "backups")


def files_under(root: Path) -> list[Path]:
    return [Path(d) / f for d, _, fs in os.walk(root) for f in fs]


def test_save_read_and_list_newest_first(store: BackupStore) -> None:
    v1 = store.save("notes", "Projects/Plan.md", b"# Plan\nv1\n", reason="edit_file")
    v2 = store.save("notes", "Projects/Plan.md", b"# Plan\nv2\n", reason="rename_file")
    assert is_version_id(v1) and is_version_id(v2) and v1 < v2
    assert store.read("notes", "Projects/Plan.md", v1) == b"# Plan\nv1\n"
    assert store.read("notes", "Projects/Plan.md", v2) == b"# Plan\nv2\n"
    listed = store.versions("notes", "Projects/Plan.md")
    assert [v["version"] for v in listed] == [v2, v1]
    assert listed[0]["reason"] == "rename_file" and listed[0]["size"] == 10 and listed[0]["deleted"] is False
    assert set(listed[0]) == {"version", "created", "size", "sha256", "reason", "deleted"}
    assert listed[0]["created"].endswith("+00:00") and listed[0]["created"][:4] == v2[:4]
    assert store.versions("notes", "Other.md") == [] and store.versions("elsewhere", "Projects/Plan.md") == []


def test_sidecar_shape_and_private_permissions(store: BackupStore) -> None:
    version = store.save("notes", "Ideas.md", b"idea", reason="delete_file")
    meta = store.info("notes", "Ideas.md", version)
    assert meta == {
        "version": version, "path": "Ideas.md", "vault": "notes", "created": meta["created"], "size": 4,
        "sha256": hashlib.sha256(b"idea").hexdigest(), "reason": "delete_file", "deleted": True,
    }  # fmt: skip
    assert store.versions("notes", "Ideas.md")[0]["deleted"] is True
    kept = store.save("notes", "Ideas.md", b"idea", reason="delete_directory", deleted=False)
    assert store.info("notes", "Ideas.md", kept)["deleted"] is False
    assert stat.S_IMODE(os.stat(store.root).st_mode) == 0o700
    for d, dirs, fs in os.walk(store.root):
        for name in dirs:
            assert stat.S_IMODE(os.stat(Path(d) / name).st_mode) == 0o700
        for name in fs:
            assert stat.S_IMODE(os.stat(Path(d) / name).st_mode) == 0o600
    sidecars = [p for p in files_under(store.root) if p.suffix == ".json"]
    assert len(sidecars) == 2 and json.loads(sidecars[0].read_text())["path"] == "Ideas.md"


def test_version_ids_are_unique_and_ordered_within_one_second(store: BackupStore) -> None:
    made = [store.save("notes", "Fast.md", b"%d" % i, reason="edit_file") for i in range(30)]
    assert made == sorted(made) and len(set(made)) == 30
    got: list[str] = []
    lock = threading.Lock()

    def burst() -> None:
        for i in range(15):
            v = store.save("notes", "Threads.md", b"%d" % i, reason="edit_file")
            with lock:
                got.append(v)

    threads = [threading.Thread(target=burst) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 60
    assert [v["version"] for v in store.versions("notes", "Threads.md")] == sorted(got, reverse=True)[:50]


def test_only_the_newest_versions_are_kept(tmp_path: Path) -> None:
    store = BackupStore(tmp_path / "b", keep=3)
    made = [store.save("notes", "A.md", b"%d" % i, reason="edit_file") for i in range(5)]
    assert [v["version"] for v in store.versions("notes", "A.md")] == made[:1:-1]
    with pytest.raises(NotFound):
        store.read("notes", "A.md", made[0])
    assert len(files_under(store.root)) == 6
    assert store.prune("notes", "A.md", keep=1) == 2
    assert [v["version"] for v in store.versions("notes", "A.md")] == [made[-1]]
    unlimited = BackupStore(tmp_path / "u", keep=0)
    for i in range(60):
        unlimited.save("notes", "A.md", b"x", reason="edit_file")
    assert len(unlimited.versions("notes", "A.md")) == 60


def test_unknown_and_malformed_versions(store: BackupStore) -> None:
    version = store.save("notes", "A.md", b"a", reason="edit_file")
    with pytest.raises(NotFound) as missing:
        store.read("notes", "A.md", "20200101T000000.000000Z-0000")
    assert missing.value.code == "not_found"
    with pytest.raises(NotFound):
        store.read("notes", "B.md", version)  # a version of another file
    with pytest.raises(NotFound):
        store.read("other", "A.md", version)  # of another vault
    with pytest.raises(NotFound):
        store.read("notes", "A.md", "20261399T250000.000000Z-0000")  # the right form, not a real time
    arabic_digits = version.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    for bad in ("latest", "../../etc/passwd", version + "x", version + "\n", "", version.replace("Z", "z"), arabic_digits):
        with pytest.raises(BadRequest) as err:
            store.read("notes", "A.md", bad)
        assert err.value.code == "invalid_argument"


def test_weird_names_stay_inside_the_store_and_apart(store: BackupStore, tmp_path: Path) -> None:
    names = [
        "A.md", "a.md", "C++ (draft) v1.2.md", "100% done.md", "Ünïcödé/Ñote.md", "x" * 252 + ".md",
        "/".join(["deep"] * 30) + "/n.md", "a%2Fb.md", "a/b.md",
    ]  # fmt: skip
    versions = {name: store.save("notes", name, name.encode(), reason="edit_file") for name in names}
    for name, version in versions.items():
        assert store.read("notes", name, version) == name.encode()
        assert [v["version"] for v in store.versions("notes", name)] == [version]
    for vault in ("..", ".", "a/b", "x" * 200):
        v = store.save(vault, "N.md", b"n", reason="edit_file")
        assert store.read(vault, "N.md", v) == b"n"
    root = os.path.realpath(store.root)
    for path in files_under(store.root):
        assert os.path.realpath(path).startswith(root + os.sep)
        rel = os.path.relpath(path, root)
        assert not any(seg.startswith(".") for seg in rel.split(os.sep)), rel
        assert all(len(seg.encode()) <= 255 for seg in rel.split(os.sep))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data"]
    for bad in ("../escape.md", "/etc/passwd", ".obsidian/app.json", "a/../../b.md", ""):
        with pytest.raises(BadRequest):
            store.save("notes", bad, b"x", reason="edit_file")


def test_a_symlink_planted_in_the_store_is_never_followed(store: BackupStore, tmp_path: Path) -> None:
    store.save("notes", "A.md", b"a", reason="edit_file")
    folder = next(p for p in files_under(store.root)).parent
    outside = tmp_path / "outside"
    outside.mkdir()
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    folder.symlink_to(outside, target_is_directory=True)
    with pytest.raises(ServiceError) as err:
        store.save("notes", "A.md", b"a", reason="edit_file")
    assert err.value.code == "backup_failed"
    with pytest.raises(ServiceError):
        store.versions("notes", "A.md")
    assert list(outside.iterdir()) == []


def test_a_damaged_backup_is_reported_not_served(store: BackupStore) -> None:
    version = store.save("notes", "A.md", b"original", reason="edit_file")
    data = next(p for p in files_under(store.root) if p.suffix == ".bin")
    data.write_bytes(b"tampered")
    with pytest.raises(ServiceError) as err:
        store.read("notes", "A.md", version)
    assert err.value.code == "backup_damaged" and err.value.http_status == 500


def test_diff_against_another_version_the_current_file_or_nothing(store: BackupStore) -> None:
    v1 = store.save("notes", "Plan.md", b"# Plan\nalpha\nbeta\n", reason="edit_file")
    v2 = store.save("notes", "Plan.md", b"# Plan\nalpha\ngamma\n", reason="edit_file")
    assert store.diff("notes", "Plan.md", v1, v2).splitlines() == [
        f"--- Plan.md @ {v1}", f"+++ Plan.md @ {v2}", "@@ -1,3 +1,3 @@", " # Plan", " alpha", "-beta", "+gamma",
    ]  # fmt: skip
    now = store.diff("notes", "Plan.md", v2, current=b"# Plan\nalpha\ngamma\ndelta\n")
    assert now.splitlines()[1] == "+++ Plan.md (current)" and now.splitlines()[-1] == "+delta"
    gone = store.diff("notes", "Plan.md", v2, current=None)
    assert gone.splitlines()[1] == "+++ Plan.md (absent now)" and gone.count("\n-") == 3
    assert store.diff("notes", "Plan.md", v2, current=b"# Plan\nalpha\ngamma\n") == ""
    with pytest.raises(BadRequest):
        store.diff("notes", "Plan.md", v1, "yesterday")
    with pytest.raises(NotFound):
        store.diff("notes", "Plan.md", v1, "20200101T000000.000000Z-0000")


def test_diffs_never_carry_a_secret() -> None:
    old = f'# Keys\napi_key = "{SECRET}"\n'.encode()
    new = b"# Keys\nrotated\n"
    diff, truncated = redacted_diff(old, new, path="Keys.md", old_label="old", new_label="new")
    assert SECRET not in diff and "-api_key = \"[REDACTED:openai-api-key]\"" in diff and not truncated
    pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nabcdefghijklmnop\n-----END PRIVATE KEY-----\n"
    diff, _ = redacted_diff(b"", pem.encode(), path="k.md", old_label="a", new_label="b")
    assert "MIIEvQ" not in diff and "[REDACTED:private-key]" in diff


def test_binary_lossy_line_endings_and_truncation() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00"
    note, truncated = redacted_diff(png, png + b"\x00", path="pic.png", old_label="a", new_label="b")
    assert note == "Binary file pic.png differs (a: 10 bytes, b: 11 bytes)" and not truncated
    assert redacted_diff(png, png, path="pic.png", old_label="a", new_label="b") == ("", False)
    lossy, _ = redacted_diff(b"caf\xe9\n", b"cafe\n", path="Menu.md", old_label="a", new_label="b")
    assert "-caf\ufffd" in lossy and "+cafe" in lossy
    crlf, _ = redacted_diff(b"\xef\xbb\xbfa\r\nb\r\n", b"a\nb\n", path="N.md", old_label="a", new_label="b")
    assert "differ only in line endings" in crlf
    old = "".join(f"line {i}\n" for i in range(5000)).encode()
    new = "".join(f"LINE {i}\n" for i in range(5000)).encode()
    cut, truncated = redacted_diff(old, new, path="Long.md", old_label="a", new_label="b", max_chars=5_000)
    assert truncated and cut.endswith("compare narrower versions or read the backup\n")
    assert len(json.dumps(cut.rsplit("…", 1)[0])) <= 5_002


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
    listed = list_backups(ws, "notes", "Projects/Plan.md", None)
    assert listed["vault"] == "notes" and listed["path"] == "Projects/Plan.md" and listed["total"] == 1
    out = diff_backup(ws, "notes", "Projects/Plan.md", version, None)
    assert out["compare_with"] is None and out["truncated"] is False and out["version"] == version
    assert "-The budget for the tidepool buoy is small. #project/sensors" in out["diff"]
    assert "+The budget for the tidepool buoy is large. #project/sensors" in out["diff"]
    gone = ws.backups.save("notes", "Projects/Plan.md", plan.read_bytes(), reason="delete_file")
    plan.unlink()
    listed = list_backups(ws, "notes", "Projects/Plan.md", None)
    assert [v["version"] for v in listed["versions"]] == [gone, version] and listed["versions"][0]["deleted"]
    out = diff_backup(ws, "notes", "Projects/Plan.md", gone, None)
    assert "(absent now)" in out["diff"].splitlines()[1]
    between = diff_backup(ws, "notes", "Projects/Plan.md", version, None, compare_with=gone)
    assert between["compare_with"] == gone and "+The budget for the tidepool buoy is large." in between["diff"]


def test_services_check_access_paths_and_the_store(ws: Workspace) -> None:
    with pytest.raises(VaultAccessDenied):
        list_backups(ws, "other", "Private.md", ["notes"])
    with pytest.raises(NotFound):
        list_backups(ws, "nope", "A.md", None)
    with pytest.raises(PathOutsideVault):
        list_backups(ws, "notes", "../other/Private.md", None)
    with pytest.raises(PathOutsideVault):
        diff_backup(ws, "notes", ".obsidian/app.json", "20200101T000000.000000Z-0000", None)
    with pytest.raises(BadRequest):
        diff_backup(ws, "notes", "Home.md", "nonsense", None)
    with pytest.raises(NotFound):
        diff_backup(ws, "notes", "Home.md", "20200101T000000.000000Z-0000", None)
    assert ws.backups is not None
    secret_version = ws.backups.save("notes", "Projects/Secret.md", b"old\n", reason="edit_file")
    out = diff_backup(ws, "notes", "Projects/Secret.md", secret_version, None)
    assert SECRET not in out["diff"] and "[REDACTED:openai-api-key]" in out["diff"]
    ws.backups.save("notes", "Long.md", "".join(f"line {i}\n" for i in range(3000)).encode(), reason="edit_file")
    long = list_backups(ws, "notes", "Long.md", None)["versions"][0]["version"]
    cut = diff_backup(ws, "notes", "Long.md", long, None)
    assert cut["truncated"] is True and len(json.dumps(cut)) < ws.limits.budget_chars
    ws.backups = None
    with pytest.raises(Unavailable) as err:
        list_backups(ws, "notes", "Home.md", None)
    assert err.value.code == "unavailable" and err.value.http_status == 503
    with pytest.raises(VaultAccessDenied):  # access is checked before the store
        diff_backup(ws, "other", "Private.md", "20200101T000000.000000Z-0000", ["notes"])
