"""BackupStore on a real folder: layout, permissions, version ids, retention, and its own errors."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import threading
from pathlib import Path

import pytest

from obsigate.domain.storage.backups import (
    BackupArgumentError,
    BackupDamagedError,
    BackupError,
    BackupFailedError,
    BackupNotFoundError,
    BackupStore,
    is_version_id,
)


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
    with pytest.raises(BackupNotFoundError):
        store.read("notes", "A.md", made[0])
    assert len(files_under(store.root)) == 6
    assert store.prune("notes", "A.md", keep=1) == 2
    assert [v["version"] for v in store.versions("notes", "A.md")] == [made[-1]]
    unlimited = BackupStore(tmp_path / "u", keep=0)
    for _i in range(60):
        unlimited.save("notes", "A.md", b"x", reason="edit_file")
    assert len(unlimited.versions("notes", "A.md")) == 60


def test_unknown_and_malformed_versions(store: BackupStore) -> None:
    version = store.save("notes", "A.md", b"a", reason="edit_file")
    with pytest.raises(BackupNotFoundError) as missing:
        store.read("notes", "A.md", "20200101T000000.000000Z-0000")
    assert isinstance(missing.value, LookupError)
    assert missing.value.message == "no backup '20200101T000000.000000Z-0000' of 'A.md' in vault 'notes'"
    assert missing.value.hint == "call list_backups to see the versions of this file"
    with pytest.raises(BackupNotFoundError):
        store.read("notes", "B.md", version)  # a version of another file
    with pytest.raises(BackupNotFoundError):
        store.read("other", "A.md", version)  # of another vault
    with pytest.raises(BackupNotFoundError):
        store.read("notes", "A.md", "20261399T250000.000000Z-0000")  # the right form, not a real time
    arabic_digits = version.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    for bad in (
        "latest",
        "../../etc/passwd",
        version + "x",
        version + "\n",
        "",
        version.replace("Z", "z"),
        arabic_digits,
    ):
        with pytest.raises(BackupArgumentError) as err:
            store.read("notes", "A.md", bad)
        assert isinstance(err.value, ValueError) and err.value.hint == "call list_backups to see the versions of a file"


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
    for bad in ("../escape.md", "/etc/passwd", ".obsidian/app.json", "a/../../b.md", "", "a//b.md", "a\x00.md", None):
        with pytest.raises(BackupArgumentError):
            store.save("notes", bad, b"x", reason="edit_file")  # type: ignore[arg-type]
    for vault in ("", None):
        with pytest.raises(BackupArgumentError, match="vault name is missing"):
            store.save(vault, "N.md", b"n", reason="edit_file")  # type: ignore[arg-type]
        with pytest.raises(BackupArgumentError, match="vault name is missing"):
            store.files(vault)  # type: ignore[arg-type]


def test_a_symlink_planted_in_the_store_is_never_followed(store: BackupStore, tmp_path: Path) -> None:
    store.save("notes", "A.md", b"a", reason="edit_file")
    folder = next(p for p in files_under(store.root)).parent
    outside = tmp_path / "outside"
    outside.mkdir()
    for f in folder.iterdir():
        f.unlink()
    folder.rmdir()
    folder.symlink_to(outside, target_is_directory=True)
    with pytest.raises(BackupFailedError) as err:
        store.save("notes", "A.md", b"a", reason="edit_file")
    assert err.value.message == "the backup store is damaged: a backup folder is not a real folder"
    with pytest.raises(BackupFailedError):
        store.versions("notes", "A.md")
    assert list(outside.iterdir()) == []


def test_a_damaged_backup_is_reported_not_served(store: BackupStore) -> None:
    version = store.save("notes", "A.md", b"original", reason="edit_file")
    data = next(p for p in files_under(store.root) if p.suffix == ".bin")
    data.write_bytes(b"tampered")
    with pytest.raises(BackupDamagedError) as err:
        store.read("notes", "A.md", version)
    assert err.value.message == f"backup {version!r} of 'A.md' is damaged (checksum mismatch)"


def test_diff_against_another_version_the_current_file_or_nothing(store: BackupStore) -> None:
    v1 = store.save("notes", "Plan.md", b"# Plan\nalpha\nbeta\n", reason="edit_file")
    v2 = store.save("notes", "Plan.md", b"# Plan\nalpha\ngamma\n", reason="edit_file")
    assert store.diff("notes", "Plan.md", v1, v2)[0].splitlines() == [
        f"--- Plan.md @ {v1}", f"+++ Plan.md @ {v2}", "@@ -1,3 +1,3 @@", " # Plan", " alpha", "-beta", "+gamma",
    ]  # fmt: skip
    now, truncated = store.diff("notes", "Plan.md", v2, current=b"# Plan\nalpha\ngamma\ndelta\n")
    assert not truncated and now.splitlines()[1] == "+++ Plan.md (current)" and now.splitlines()[-1] == "+delta"
    gone, _ = store.diff("notes", "Plan.md", v2, current=None)
    assert gone.splitlines()[1] == "+++ Plan.md (absent now)" and gone.count("\n-") == 3
    assert store.diff("notes", "Plan.md", v2, current=b"# Plan\nalpha\ngamma\n") == ("", False)
    with pytest.raises(BackupArgumentError, match=r"^compare_with 'yesterday' is not a backup version id"):
        store.diff("notes", "Plan.md", v1, "yesterday")
    with pytest.raises(BackupNotFoundError):
        store.diff("notes", "Plan.md", v1, "20200101T000000.000000Z-0000")
    cut, truncated = store.diff("notes", "Plan.md", v1, current=b"x\n" * 5_000, max_chars=2_000)
    assert truncated and cut.endswith("compare narrower versions or read the backup\n")


def test_every_failure_is_a_backup_error() -> None:
    for cls in (BackupArgumentError, BackupNotFoundError, BackupFailedError, BackupDamagedError):
        assert issubclass(cls, BackupError)
        err = cls("message", hint="hint")
        assert (str(err), err.message, err.hint) == ("message", "message", "hint")
