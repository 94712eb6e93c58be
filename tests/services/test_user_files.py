"""The user file space on real SQLite and a real data dir (issue 21 item 2): ids, sniffed types, limits,
isolation, expiry with an injected clock, deletion that leaves no trace, restart, and a killed put's leftovers."""

from __future__ import annotations

import base64
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from obsigate.services.errors import NotFound, ServiceError
from obsigate.services.user_files import FILE_ID_RE, FileSpace, sniff_mime

#: A real 1×1 PNG.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def space(tmp_path: Path, clock: Clock) -> FileSpace:
    fs = FileSpace(tmp_path / "data", max_bytes=4096, quota_bytes=10_000, ttl_s=3600, clock=clock)
    yield fs
    fs.close()


def code_of(exc: pytest.ExceptionInfo[ServiceError]) -> str:
    return exc.value.code


def test_put_then_read_back_with_its_record(space: FileSpace, tmp_path: Path) -> None:
    rec = space.put(
        "alice", PNG, name="../../etc/shot.png", conversation="conv-1", turn="t1", tool="browser_screenshot"
    )
    assert FILE_ID_RE.fullmatch(rec.file_id) and rec.file_id.startswith("U_alice_C_conv-1_T_1800000000000000_")
    assert (rec.name, rec.mime_type, rec.size, rec.origin, rec.created_by_tool) == (
        "shot.png", "image/png", len(PNG), "tool", "browser_screenshot",
    )  # fmt: skip
    blob = tmp_path / "data" / "users" / "alice" / "files" / rec.file_id
    assert blob.read_bytes() == PNG and stat.S_IMODE(blob.stat().st_mode) == 0o600
    assert stat.S_IMODE(blob.parent.stat().st_mode) == 0o700
    got, data = space.read("alice", rec.file_id)
    assert data == PNG and got.sha256 == rec.sha256 and got.turn == "t1"
    assert rec.to_dict()["uri"] == f"obsigate://files/{rec.file_id}" and "user" not in rec.to_dict()
    long = space.put("alice", PNG, name="é" * 300 + ".png").name  # cut to 255 characters, its extension kept
    assert len(long) == 255 and long.endswith("é.png")
    two = space.put("alice", PNG, name="a.png", conversation="conv-1")
    assert two.file_id != rec.file_id  # same user, conversation and instant: the random suffix differs


@pytest.mark.parametrize(
    ("data", "name", "declared", "expected"),
    [
        (b"just some text, not an image", "photo.png", "image/png", "text/plain"),
        (PNG, "notes.txt", "text/plain", "image/png"),
        (PDF, "x.bin", None, "application/pdf"),
        (
            b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>",
            "a.svg",
            "image/svg+xml",
            "text/plain",
        ),
        (b"<html><script>alert(1)</script></html>", "a.html", "text/html", "text/plain"),
        (b"# Title\n", "a.md", None, "text/markdown"),
        (b"\x00\x01\x02\xff\xfe", "a.png", "image/png", "application/octet-stream"),
    ],
)
def test_the_type_comes_from_the_bytes(
    space: FileSpace, data: bytes, name: str, declared: str | None, expected: str
) -> None:
    assert space.put("alice", data, name=name, mime_type=declared, origin="upload").mime_type == expected
    assert sniff_mime(data, name) == expected


@pytest.mark.parametrize("session", ["../x", "a\x00b", "s" * 200, "weird id/with spaces"])
def test_an_odd_session_id_gets_a_digest_in_the_file_id(space: FileSpace, session: str) -> None:
    rec = space.put("alice", b"tool output", name="a.txt", conversation=session, tool="t")  # never refused
    assert FILE_ID_RE.fullmatch(rec.file_id)
    cid = rec.file_id.split("_C_", 1)[1].split("_T_", 1)[0]
    assert cid.startswith("h-") and len(cid) == 34
    assert space.get("alice", rec.file_id).conversation == session


def test_a_plain_session_id_is_kept_in_the_file_id(space: FileSpace) -> None:
    uuid_hex = "0123456789abcdef0123456789abcdef"
    assert f"_C_{uuid_hex}_T_" in space.put("alice", b"x", name="a.txt", conversation=uuid_hex).file_id
    assert (
        "_C_stdio-0123456789ab_T_" in space.put("alice", b"x", name="a.txt", conversation="stdio-0123456789ab").file_id
    )


def test_over_the_cap_or_the_quota_nothing_is_stored(space: FileSpace, tmp_path: Path) -> None:
    with pytest.raises(ServiceError) as big:
        space.put("alice", b"x" * 4097, name="big.txt")
    assert code_of(big) == "file_too_large" and big.value.http_status == 413
    for i in range(2):
        space.put("alice", b"y" * 4000, name=f"{i}.txt", origin="upload")
    with pytest.raises(ServiceError) as full:
        space.put("alice", b"z" * 2001, name="over.txt", origin="upload")
    assert code_of(full) == "quota_exceeded" and full.value.http_status == 507
    assert full.value.details == {"used_bytes": 8000, "size": 2001, "quota_bytes": 10_000}
    assert len(os.listdir(tmp_path / "data" / "users" / "alice" / "files")) == 2
    assert space.list("alice")[1] == 2 and space.used_bytes("alice") == 8000
    space.put("bob", b"z" * 2001, name="bob.txt")  # a quota is per user


@pytest.mark.parametrize(
    "forged",
    [
        "../users/alice/files/x",
        "U_alice_C_none_T_1800000000000000_/../../../jwt_secret",
        "U_alice_C_none_T_1800000000000000_AAAAAAAAAAAAAAAAAAAAA\x00",
        "..",
        "",
        "U_alice_C_none_T_1800000000000000_AAAAAAAAAAAAAAAAAAAAAA",  # well formed, never issued
        "x" * 5000,
    ],
)
def test_a_forged_id_is_not_found(space: FileSpace, forged: str) -> None:
    space.put("alice", b"hello", name="a.txt")
    for call in (space.get, space.read, space.delete, space.touch):
        with pytest.raises(NotFound):
            call("alice", forged)


def test_another_users_id_is_not_found_and_left_alone(space: FileSpace) -> None:
    rec = space.put("alice", b"alice's", name="a.txt")
    for call in (space.get, space.read, space.delete, space.touch):
        with pytest.raises(NotFound) as refused:
            call("bob", rec.file_id)
        assert "alice" not in refused.value.message.replace(rec.file_id, "")  # says nothing but the id it was given
    assert space.list("bob") == ([], 0)
    assert space.read("alice", rec.file_id)[1] == b"alice's"


def test_session_files_expire_after_their_last_use(space: FileSpace, clock: Clock, tmp_path: Path) -> None:
    artifact = space.put("alice", b"made by a tool", name="a.txt", conversation="c1", tool="t")
    no_conv_artifact = space.put("alice", b"tool, no conversation", name="b.txt", tool="t")
    session_upload = space.put("alice", b"attached", name="c.txt", conversation="c1", origin="upload")
    kept = space.put("alice", b"my own upload", name="d.txt", origin="upload")
    assert kept.expires_at is None and artifact.expires_at == clock.now + 3600
    clock.now += 3000
    space.read("alice", artifact.file_id)  # a use moves its expiry on
    clock.now += 1000  # 4000 s after the puts, 1000 s after the read
    assert space.expire() == 2  # the no-conversation artifact and the session upload
    with pytest.raises(NotFound):
        space.get("alice", session_upload.file_id)
    with pytest.raises(NotFound):
        space.get("alice", no_conv_artifact.file_id)
    assert {r.file_id for r in space.list("alice")[0]} == {artifact.file_id, kept.file_id}
    clock.now += 3600
    with pytest.raises(NotFound):  # expired and not yet swept: already gone for every reader
        space.read("alice", artifact.file_id)
    assert space.expire() == 1
    assert os.listdir(tmp_path / "data" / "users" / "alice" / "files") == [kept.file_id]
    clock.now += 10 * 365 * 86400
    assert space.expire() == 0 and space.read("alice", kept.file_id)[1] == b"my own upload"


def test_delete_leaves_no_trace_in_the_data_dir(space: FileSpace, tmp_path: Path) -> None:
    canary = b"CANARY-7f3a9c1e-the-heron-waits"
    rec = space.put("alice", b"before " + canary + b" after", name="canary-CANARY-7f3a9c1e.txt", origin="upload")
    gone: list[tuple[str, str]] = []
    space.on_delete(lambda user, file_id: gone.append((user, file_id)))
    space.delete("alice", rec.file_id)
    assert gone == [("alice", rec.file_id)]
    with sqlite3.connect(tmp_path / "data" / "files.sqlite3") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    found = [p for p in (tmp_path / "data").rglob("*") if p.is_file() and b"CANARY-7f3a9c1e" in p.read_bytes()]
    assert found == []
    with pytest.raises(NotFound):
        space.delete("alice", rec.file_id)


def test_files_survive_a_restart(tmp_path: Path, clock: Clock) -> None:
    first = FileSpace(tmp_path / "data", clock=clock)
    rec = first.put("alice", PNG, name="a.png", conversation="c1")
    first.close()
    again = FileSpace(tmp_path / "data", clock=clock)
    try:
        assert again.read("alice", rec.file_id)[1] == PNG
        assert again.get("alice", rec.file_id).conversation == "c1"
    finally:
        again.close()


def test_sweep_removes_what_a_killed_put_left(space: FileSpace, clock: Clock, tmp_path: Path) -> None:
    rec = space.put("alice", b"kept", name="a.txt", origin="upload")
    folder = tmp_path / "data" / "users" / "alice" / "files"
    orphan = folder / "U_alice_C_none_T_1700000000000000_BBBBBBBBBBBBBBBBBBBBBB"
    orphan.write_bytes(b"bytes without a row")
    os.utime(orphan, (clock.now - 7200, clock.now - 7200))
    fresh = folder / "U_alice_C_none_T_1800000000000000_CCCCCCCCCCCCCCCCCCCCCC"
    fresh.write_bytes(b"a put in flight")
    os.utime(fresh, (clock.now, clock.now))
    assert space.sweep() == 1
    assert sorted(os.listdir(folder)) == sorted([rec.file_id, fresh.name])


def test_a_symlinked_files_folder_is_never_followed(space: FileSpace, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "data" / "users" / "mallory").mkdir(parents=True)
    (tmp_path / "data" / "users" / "mallory" / "files").symlink_to(outside)
    with pytest.raises(OSError):
        space.put("mallory", b"x", name="x.txt")
    assert list(outside.iterdir()) == [] and space.list("mallory") == ([], 0)


def test_journal_seq_is_filled_later(space: FileSpace) -> None:
    rec = space.put("alice", b"x", name="x.txt")
    assert rec.journal_seq is None
    space.set_journal_seq("alice", rec.file_id, 42)
    space.set_journal_seq("bob", rec.file_id, 7)  # another user's id changes nothing
    assert space.get("alice", rec.file_id).journal_seq == 42


def test_a_folder_swapped_for_a_symlink_is_not_read_through(space: FileSpace, tmp_path: Path) -> None:
    rec = space.put("alice", b"the real bytes", name="a.txt")
    users = tmp_path / "data" / "users"
    decoy = tmp_path / "decoy" / "files"
    decoy.mkdir(parents=True)
    (decoy / rec.file_id).write_bytes(b"planted bytes")
    (users / "alice").rename(tmp_path / "moved")
    (users / "alice").symlink_to(tmp_path / "decoy")
    with pytest.raises(NotFound):
        space.read("alice", rec.file_id)


def test_concurrent_puts_never_pass_the_quota(space: FileSpace, tmp_path: Path) -> None:
    import threading

    results: list[str] = []

    def one(i: int) -> None:
        try:
            space.put("alice", bytes([i]) * 3000, name=f"{i}.bin", origin="upload")
            results.append("ok")
        except ServiceError as exc:
            results.append(exc.code)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count("ok") == 3 and results.count("quota_exceeded") == 9
    assert space.used_bytes("alice") == 9000
    assert len(os.listdir(tmp_path / "data" / "users" / "alice" / "files")) == 3
