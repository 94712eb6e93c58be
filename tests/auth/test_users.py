"""UserStore: real SQLite in tmp_path, real argon2 (cheap parameters), real HMAC."""

from __future__ import annotations

import hashlib
import hmac
import re
import sqlite3
import stat
import threading
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from obsigate.auth.users import User, UserStore, api_key_id, api_key_well_formed
from obsigate.services.errors import BadRequest, Conflict, NotFound, Unauthenticated, Unavailable

PW = "correct horse battery"


def cheap_hasher(time_cost: int = 1) -> Argon2Hasher:
    return Argon2Hasher(time_cost=time_cost, memory_cost=8192, parallelism=1)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "users.sqlite3"


@pytest.fixture
def store(db_path: Path):
    with UserStore(db_path, password_hasher=cheap_hasher()) as s:
        yield s


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def all_db_bytes(db_path: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db_path.parent.glob(db_path.name + "*"))


# -- users ------------------------------------------------------------------------------------


def test_add_get_list_delete(store: UserStore) -> None:
    alice = store.add_user("alice", PW, vaults=["notes", "work"])
    bob = store.add_user("bob", None, admin=True, vaults=None)
    assert isinstance(alice, User)
    assert (alice.name, alice.is_admin, alice.vaults) == ("alice", False, frozenset({"notes", "work"}))
    assert (bob.is_admin, bob.vaults) == (True, None)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", alice.created_at)
    assert abs(datetime.fromisoformat(alice.created_at) - datetime.now(UTC)) < timedelta(seconds=5)
    assert store.get_user("alice") == alice
    assert store.get_user("nobody") is None
    assert [u.name for u in store.list_users()] == ["alice", "bob"]
    store.delete_user("alice")
    assert store.get_user("alice") is None
    assert [u.name for u in store.list_users()] == ["bob"]
    with pytest.raises(NotFound):
        store.delete_user("alice")


def test_user_ids_are_never_reused(store: UserStore) -> None:
    first = store.add_user("alice", PW)
    store.delete_user("alice")
    assert store.add_user("alice", PW).id != first.id


def test_duplicate_name(store: UserStore) -> None:
    store.add_user("alice", PW)
    for dup in ("alice", "ALICE", "Alice"):
        with pytest.raises(Conflict) as ei:
            store.add_user(dup, PW)
        assert ei.value.code == "exists" and ei.value.http_status == 409


def test_names_are_case_insensitive_but_keep_their_spelling(store: UserStore) -> None:
    store.add_user("Alice", PW)
    assert store.get_user("alice").name == "Alice"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["", "a b", "x" * 65, "../x", "a/b", "é", ".", "..", "al\x00ice", "alice\n", None, 42])
def test_bad_names(store: UserStore, name: object) -> None:
    with pytest.raises(BadRequest):
        store.add_user(name, PW)  # type: ignore[arg-type]
    assert store.get_user(name) is None  # type: ignore[arg-type]


def test_longest_and_odd_but_valid_names(store: UserStore) -> None:
    for name in ("x" * 64, "a.b-c_d", "-", "_.x"):
        assert store.add_user(name, None).name == name


@pytest.mark.parametrize("name", ["anonymous", "Anonymous"])
def test_reserved_name(store: UserStore, name: str) -> None:
    with pytest.raises(BadRequest):
        store.add_user(name, PW)


@pytest.mark.parametrize(
    ("given", "stored"),
    [
        ((), frozenset()),
        ([], frozenset()),
        (None, None),
        (["*"], None),
        (["notes", "*"], None),
        (["notes", "notes", "never-declared"], frozenset({"notes", "never-declared"})),
        ("solo", frozenset({"solo"})),  # a lone string is one name, not its letters
        (iter(["gen"]), frozenset({"gen"})),
    ],
)
def test_vault_grants(store: UserStore, given: object, stored: frozenset[str] | None) -> None:
    assert store.add_user("alice", None, vaults=given).vaults == stored  # type: ignore[arg-type]
    assert store.get_user("alice").vaults == stored  # type: ignore[union-attr]


@pytest.mark.parametrize("vault", ["a b", "../etc", "", "x" * 65, "**", 7])
def test_bad_vault_names(store: UserStore, vault: object) -> None:
    with pytest.raises(BadRequest):
        store.add_user("alice", PW, vaults=["ok", vault])  # type: ignore[list-item]
    with pytest.raises(BadRequest):
        store.add_user("alice", PW, vaults=["*", vault])  # type: ignore[list-item]
    assert store.get_user("alice") is None


def test_set_vaults_and_admin(store: UserStore) -> None:
    store.add_user("alice", PW, vaults=["a"])
    assert store.set_vaults("alice", ["b", "c"]).vaults == frozenset({"b", "c"})
    assert store.set_vaults("ALICE", ["*"]).vaults is None
    assert store.set_admin("alice", True).is_admin
    assert store.get_user("alice").is_admin  # type: ignore[union-attr]
    with pytest.raises(NotFound):
        store.set_vaults("nobody", ["a"])
    with pytest.raises(NotFound):
        store.set_admin("nobody", True)


# -- passwords --------------------------------------------------------------------------------


def test_verify_password(store: UserStore) -> None:
    alice = store.add_user("alice", PW)
    assert store.verify_password("alice", PW) == alice


def test_bad_password_and_unknown_user_fail_alike(store: UserStore) -> None:
    store.add_user("alice", PW)
    errors = []
    for name, pw in [("alice", "wrong password"), ("nobody", PW), ("bad name!", PW), ("alice", PW.upper())]:
        with pytest.raises(Unauthenticated) as ei:
            store.verify_password(name, pw)
        errors.append(ei.value.to_dict())
    assert all(e == {"code": "unauthenticated", "message": "invalid username or password"} for e in errors)


def test_password_hash_is_not_plaintext(store: UserStore, db_path: Path) -> None:
    store.add_user("alice", PW)
    row = sqlite3.connect(db_path).execute("SELECT password_hash FROM users").fetchone()
    assert row[0].startswith("$argon2id$")
    assert PW.encode() not in all_db_bytes(db_path)


def test_password_none_cannot_log_in(store: UserStore) -> None:
    store.add_user("svc", None)
    with pytest.raises(Unauthenticated):
        store.verify_password("svc", "")
    with pytest.raises(Unauthenticated):
        store.verify_password("svc", PW)
    store.set_password("svc", PW)
    assert store.verify_password("svc", PW).name == "svc"
    store.set_password("svc", None)
    with pytest.raises(Unauthenticated):
        store.verify_password("svc", PW)


@pytest.mark.parametrize("pw", ["short", "1234567", "", "x" * 1025, b"bytes-password", 12345678])
def test_password_rules(store: UserStore, pw: object) -> None:
    with pytest.raises(BadRequest):
        store.add_user("alice", pw)  # type: ignore[arg-type]
    store.add_user("bob", PW)
    with pytest.raises(BadRequest):
        store.set_password("bob", pw)  # type: ignore[arg-type]


def test_password_min_length_is_8(store: UserStore) -> None:
    store.add_user("alice", "12345678")
    assert store.verify_password("alice", "12345678").name == "alice"


def test_set_password(store: UserStore) -> None:
    store.add_user("alice", PW)
    store.set_password("alice", "a new password")
    with pytest.raises(Unauthenticated):
        store.verify_password("alice", PW)
    store.verify_password("alice", "a new password")
    with pytest.raises(NotFound):
        store.set_password("nobody", "a new password")


def test_overlong_password_at_login_fails_fast(store: UserStore) -> None:
    store.add_user("alice", PW)
    with pytest.raises(Unauthenticated):
        store.verify_password("alice", PW + "x" * 2000)


def test_rehash_on_login_when_parameters_change(db_path: Path) -> None:
    with UserStore(db_path, password_hasher=cheap_hasher(1)) as old:
        old.add_user("alice", PW)
    read = lambda: sqlite3.connect(db_path).execute("SELECT password_hash FROM users").fetchone()[0]  # noqa: E731
    assert ",t=1," in read()
    with UserStore(db_path, password_hasher=PasswordHash((cheap_hasher(2),))) as new:
        new.verify_password("alice", PW)
        assert ",t=2," in read()
        new.verify_password("alice", PW)  # and the new hash verifies


class CountingHasher(Argon2Hasher):
    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=8192, parallelism=1)
        self.verifies = 0

    def verify(self, password, hash):  # type: ignore[no-untyped-def,override]
        self.verifies += 1
        return super().verify(password, hash)


def test_unknown_user_costs_one_argon2_verification(db_path: Path) -> None:
    # Timing parity: unknown user, password-less user and wrong password do the same work.
    hasher = CountingHasher()
    with UserStore(db_path, password_hasher=hasher) as s:
        s.add_user("alice", PW)
        s.add_user("svc", None)
        for name in ("alice", "nobody", "svc"):
            before = hasher.verifies
            with pytest.raises(Unauthenticated):
                s.verify_password(name, "wrong password")
            assert hasher.verifies == before + 1, name


class SlowHasher(Argon2Hasher):
    def __init__(self, gate: threading.Event | None = None) -> None:
        super().__init__(time_cost=1, memory_cost=8192, parallelism=1)
        self.gate = gate
        self.active = self.peak = 0
        self._lock = threading.Lock()

    def verify(self, password, hash):  # type: ignore[no-untyped-def,override]
        with self._lock:
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            if self.gate is not None:
                assert self.gate.wait(5)
            else:
                time.sleep(0.05)
            return super().verify(password, hash)
        finally:
            with self._lock:
                self.active -= 1


def test_at_most_two_concurrent_verifications(db_path: Path) -> None:
    hasher = SlowHasher()
    with UserStore(db_path, password_hasher=hasher) as s:
        s.add_user("alice", PW)
        results: list[str] = []

        def login() -> None:
            results.append(s.verify_password("alice", PW).name)

        threads = [threading.Thread(target=login) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert results == ["alice"] * 6
    assert hasher.peak == 2


def test_hash_slot_wait_is_bounded(db_path: Path) -> None:
    gate = threading.Event()
    hasher = SlowHasher(gate)
    with UserStore(db_path, password_hasher=hasher, max_concurrent_hashes=1, hash_wait_s=0.05) as s:
        s.add_user("alice", PW)
        t = threading.Thread(target=s.verify_password, args=("alice", PW))
        t.start()
        try:
            deadline = time.monotonic() + 5
            while hasher.active == 0 and time.monotonic() < deadline:
                time.sleep(0.005)
            with pytest.raises(Unavailable):
                s.verify_password("alice", PW)
        finally:
            gate.set()
            t.join()


# -- files and threads ------------------------------------------------------------------------


def test_db_file_is_0600(store: UserStore, db_path: Path) -> None:
    store.add_user("alice", PW)
    assert mode(db_path) == 0o600
    assert all(mode(p) == 0o600 for p in db_path.parent.glob("users.sqlite3*"))


def test_existing_db_with_loose_mode_is_tightened(db_path: Path) -> None:
    with UserStore(db_path, password_hasher=cheap_hasher()) as s:
        s.add_user("alice", PW)
    db_path.chmod(0o644)
    with UserStore(db_path, password_hasher=cheap_hasher()) as s:
        assert s.get_user("alice") is not None
    assert mode(db_path) == 0o600


def test_data_persists_across_instances(db_path: Path) -> None:
    with UserStore(db_path, password_hasher=cheap_hasher()) as s:
        s.add_user("alice", PW, vaults=["notes"])
        _, key = s.create_api_key("alice")
    with UserStore(db_path, password_hasher=cheap_hasher()) as s:
        assert s.verify_password("alice", PW).vaults == frozenset({"notes"})
        assert s.verify_api_key(key).name == "alice"  # type: ignore[union-attr]


def test_concurrent_use_from_threads(store: UserStore) -> None:
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            store.add_user(f"user{i}", None, vaults=[f"v{i}"])
            _, key = store.create_api_key(f"user{i}")
            for _ in range(20):
                assert store.verify_api_key(key).name == f"user{i}"  # type: ignore[union-attr]
                assert len(store.list_users()) >= 1
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(store.list_users()) == 8


# -- API keys ---------------------------------------------------------------------------------

KEY_RE = re.compile(r"og_[0-9A-Za-z]{49}")


def test_api_key_format_and_checksum(store: UserStore) -> None:
    store.add_user("alice", None)
    key_id, key = store.create_api_key("alice", label="laptop")
    assert KEY_RE.fullmatch(key) and len(key) == 52
    assert api_key_well_formed(key)
    assert key_id == api_key_id(key) and re.fullmatch(r"ak_[0-9a-f]{16}", key_id)
    assert key_id[3:] not in key  # the id discloses nothing of the secret
    # checksum: CRC32 of the 43-char body, base62, 6 chars
    import zlib

    body, check = key[3:-6], key[-6:]
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    n = 0
    for ch in check:
        n = n * 62 + alphabet.index(ch)
    assert n == zlib.crc32(body.encode())
    keys = {store.create_api_key("alice")[1] for _ in range(20)}
    assert len(keys) == 20


def test_verify_api_key(store: UserStore) -> None:
    alice = store.add_user("alice", None, vaults=["notes"])
    _, key = store.create_api_key("alice")
    assert store.verify_api_key(key) == alice


def flip(ch: str) -> str:
    return "b" if ch != "b" else "c"


def test_tampered_keys_rejected(store: UserStore) -> None:
    store.add_user("alice", None)
    _, key = store.create_api_key("alice")
    body, check = key[3:-6], key[-6:]
    tampered_body = "og_" + flip(body[0]) + body[1:] + check  # checksum now wrong
    assert not api_key_well_formed(tampered_body)
    assert store.verify_api_key(tampered_body) is None
    bad_check = "og_" + body + check[:-1] + flip(check[-1])
    assert store.verify_api_key(bad_check) is None
    # valid checksum on a forged body: passes the cheap check, fails the lookup
    import zlib

    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    forged_body = flip(body[0]) + body[1:]
    n, digits = zlib.crc32(forged_body.encode()), ""
    for _ in range(6):
        n, r = divmod(n, 62)
        digits = alphabet[r] + digits
    forged = "og_" + forged_body + digits
    assert api_key_well_formed(forged)
    assert store.verify_api_key(forged) is None


@pytest.mark.parametrize(
    "bad", ["", "og_", "og_short", "xx_" + "a" * 49, "og_" + "a" * 48, "og_" + "a" * 50, "og_" + "-" * 49, None, 123]
)
def test_malformed_keys_rejected(store: UserStore, bad: object) -> None:
    assert store.verify_api_key(bad) is None  # type: ignore[arg-type]


def test_unknown_key_rejected(store: UserStore, tmp_path: Path) -> None:
    store.add_user("alice", None)
    with UserStore(tmp_path / "other" / "users.sqlite3", password_hasher=cheap_hasher()) as other:
        other.add_user("alice", None)
        _, foreign = other.create_api_key("alice")
    assert api_key_well_formed(foreign)
    assert store.verify_api_key(foreign) is None


def test_pepper_is_used(db_path: Path) -> None:
    with UserStore(db_path, password_hasher=cheap_hasher()) as s:
        s.add_user("alice", None)
        _, key = s.create_api_key("alice")
    pepper = db_path.parent / "api_key_pepper"
    assert mode(pepper) == 0o600 and len(bytes.fromhex(pepper.read_text().strip())) == 32
    stored = sqlite3.connect(db_path).execute("SELECT key_hash FROM api_keys").fetchone()[0]
    assert stored == hmac.new(bytes.fromhex(pepper.read_text().strip()), key.encode(), hashlib.sha256).digest()
    # a different pepper (e.g. a lost pepper file) makes every key invalid
    with UserStore(db_path, pepper_path=db_path.parent / "other_pepper", password_hasher=cheap_hasher()) as s:
        assert s.verify_api_key(key) is None


def test_keys_stored_hashed_only(store: UserStore, db_path: Path) -> None:
    store.add_user("alice", None)
    keys = [store.create_api_key("alice", label=f"k{i}")[1] for i in range(3)]
    for key in keys:
        assert store.verify_api_key(key) is not None
    blob = all_db_bytes(db_path)
    for key in keys:
        assert key.encode() not in blob
        assert key[3:-6].encode() not in blob  # nor the random body
        assert key[3:20].encode() not in blob  # nor a prefix of it


def test_revoked_key_rejected(store: UserStore) -> None:
    store.add_user("alice", None)
    key_id, key = store.create_api_key("alice")
    store.revoke_api_key(key_id)
    assert store.verify_api_key(key) is None
    first = store.get_api_key(key_id)["revoked_at"]  # type: ignore[index]
    store.revoke_api_key(key_id)  # idempotent
    assert store.get_api_key(key_id)["revoked_at"] == first  # type: ignore[index]
    with pytest.raises(NotFound):
        store.revoke_api_key("ak_0000000000000000")


def test_expired_key_rejected(store: UserStore, db_path: Path) -> None:
    store.add_user("alice", None)
    key_id, key = store.create_api_key("alice", expires_at=datetime.now(UTC) + timedelta(hours=1))
    assert store.verify_api_key(key) is not None
    with sqlite3.connect(db_path) as db:  # move the expiry into the past
        db.execute("UPDATE api_keys SET expires_at = '2020-01-01T00:00:00Z' WHERE key_id = ?", (key_id,))
    assert store.verify_api_key(key) is None


@pytest.mark.parametrize(
    "expires_at",
    [datetime(2030, 1, 1), datetime.now(UTC) - timedelta(seconds=1), "2030-01-01T00:00:00Z"],
)
def test_bad_expiry(store: UserStore, expires_at: object) -> None:
    store.add_user("alice", None)
    with pytest.raises(BadRequest):
        store.create_api_key("alice", expires_at=expires_at)  # type: ignore[arg-type]


@pytest.mark.parametrize("label", ["x" * 101, "a\nb", "bell\x07", 7])
def test_bad_label(store: UserStore, label: object) -> None:
    store.add_user("alice", None)
    with pytest.raises(BadRequest):
        store.create_api_key("alice", label=label)  # type: ignore[arg-type]


def test_key_for_unknown_user(store: UserStore) -> None:
    with pytest.raises(NotFound):
        store.create_api_key("nobody")
    with pytest.raises(NotFound):
        store.list_api_keys("nobody")


def test_list_api_keys_has_no_secrets(store: UserStore) -> None:
    store.add_user("alice", None)
    store.add_user("bob", None)
    expires = datetime(2031, 5, 6, 7, 8, 9, 999, tzinfo=timezone(timedelta(hours=2)))
    id1, key1 = store.create_api_key("alice", label="laptop", expires_at=expires)
    id2, key2 = store.create_api_key("alice")
    store.create_api_key("bob")
    listed = store.list_api_keys("alice")
    assert [k["key_id"] for k in listed] == [id1, id2]
    assert set(listed[0]) == {"key_id", "user", "label", "created_at", "expires_at", "last_used_at", "revoked_at"}
    assert listed[0]["user"] == "alice" and listed[0]["label"] == "laptop"
    assert listed[0]["expires_at"] == "2031-05-06T05:08:09Z"
    assert listed[1]["expires_at"] is None and listed[1]["revoked_at"] is None
    text = repr(listed)
    assert key1 not in text and key2 not in text and key1[3:-6] not in text


def test_last_used_at(store: UserStore) -> None:
    store.add_user("alice", None)
    key_id, key = store.create_api_key("alice")
    assert store.get_api_key(key_id)["last_used_at"] is None  # type: ignore[index]
    store.verify_api_key(key)
    used = store.get_api_key(key_id)["last_used_at"]  # type: ignore[index]
    assert used is not None
    assert abs(datetime.fromisoformat(used) - datetime.now(UTC)) < timedelta(seconds=5)
    assert store.get_api_key("ak_ffffffffffffffff") is None


def test_deleting_user_deletes_keys(store: UserStore) -> None:
    store.add_user("alice", None)
    key_id, key = store.create_api_key("alice")
    store.delete_user("alice")
    assert store.verify_api_key(key) is None
    assert store.get_api_key(key_id) is None
    store.add_user("alice", None)  # a namesake does not inherit the old keys
    assert store.verify_api_key(key) is None
    assert store.list_api_keys("alice") == []


def test_bookkeeping_write_skipped_when_db_is_locked(db_path: Path) -> None:
    with UserStore(db_path, password_hasher=cheap_hasher(), busy_timeout_s=0.05) as s:
        s.add_user("alice", None)
        key_id, key = s.create_api_key("alice")
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
            assert s.verify_api_key(key).name == "alice"  # type: ignore[union-attr]
            other.execute("ROLLBACK")
        finally:
            other.close()
        assert s.get_api_key(key_id)["last_used_at"] is None  # type: ignore[index]
        assert s.verify_api_key(key) is not None
        assert s.get_api_key(key_id)["last_used_at"] is not None  # type: ignore[index]


def test_grant_and_revoke_vaults_change_only_the_named_grants(store: UserStore) -> None:
    store.add_user("alice", PW, vaults=["a"])
    key_id, key = store.create_api_key("alice")
    assert store.grant_vaults("alice", ["b", "c"]).vaults == {"a", "b", "c"}
    assert store.grant_vaults("alice", ["b"]).vaults == {"a", "b", "c"}  # already held: nothing changes
    assert store.revoke_vaults("alice", ["a", "c"]).vaults == {"b"}
    assert store.grant_vaults("alice", ["*"]).vaults is None
    assert store.grant_vaults("alice", ["x"]).vaults is None  # every vault already
    assert store.revoke_vaults("alice", ["*"]).vaults == frozenset()
    assert store.verify_api_key(key) is not None and store.get_api_key(key_id)["revoked_at"] is None
    assert store.verify_password("alice", PW).name == "alice"


@pytest.mark.parametrize(
    ("call", "vaults", "code"),
    [
        ("grant_vaults", [], "invalid_argument"),
        ("grant_vaults", ["bad name"], "invalid_argument"),
        ("revoke_vaults", ["zzz"], "invalid_argument"),
        ("revoke_vaults", [], "invalid_argument"),
    ],
)
def test_grant_and_revoke_refuse_bad_input(store: UserStore, call: str, vaults: list[str], code: str) -> None:
    store.add_user("alice", PW, vaults=["a"])
    with pytest.raises(BadRequest) as caught:
        getattr(store, call)("alice", vaults)
    assert caught.value.code == code
    assert store.get_user("alice").vaults == {"a"}  # unchanged


def test_revoking_one_vault_from_an_all_vaults_user_is_refused(store: UserStore) -> None:
    store.add_user("root", PW, vaults=None)
    with pytest.raises(BadRequest, match="every vault") as caught:
        store.revoke_vaults("root", ["a"])
    assert "revoke '*'" in (caught.value.hint or "")
    assert store.get_user("root").vaults is None


@pytest.mark.parametrize("call", ["grant_vaults", "revoke_vaults"])
def test_grant_and_revoke_on_an_unknown_user_is_not_found(store: UserStore, call: str) -> None:
    with pytest.raises(NotFound):
        getattr(store, call)("ghost", ["a"])


# -- token versions (issue 16 item 3) ---------------------------------------------------------


def test_password_change_and_sign_out_everywhere_bump_the_token_version(store: UserStore) -> None:
    store.add_user("alice", PW, vaults=["notes"])
    _, key = store.create_api_key("alice")
    assert store.get_user("alice").token_version == 0
    store.set_password("alice", "another good password")
    assert store.get_user("alice").token_version == 1
    assert store.sign_out_everywhere("ALICE").token_version == 2  # names are case-insensitive
    assert store.verify_password("alice", "another good password").token_version == 2
    assert store.verify_api_key(key) is not None  # API keys survive both
    with pytest.raises(NotFound):
        store.sign_out_everywhere("bob")


def test_a_rehash_on_login_does_not_sign_anyone_out(db_path: Path) -> None:
    with UserStore(db_path, password_hasher=cheap_hasher(1)) as old:
        old.add_user("alice", PW)
    with UserStore(db_path, password_hasher=PasswordHash((cheap_hasher(2), cheap_hasher(1)))) as new:
        new.verify_password("alice", PW)  # replaces the hash
        assert new.get_user("alice").token_version == 0


def test_revoke_api_keys_revokes_only_that_users_keys_in_force(store: UserStore) -> None:
    store.add_user("alice", None)
    store.add_user("bob", None)
    first, _ = store.create_api_key("alice")
    store.revoke_api_key(first)
    revoked_at = store.get_api_key(first)["revoked_at"]
    keys = [store.create_api_key("alice")[1] for _ in range(2)]
    _, bobs = store.create_api_key("bob")
    assert store.revoke_api_keys("alice") == 2
    assert all(store.verify_api_key(k) is None for k in keys) and store.verify_api_key(bobs) is not None
    assert store.get_api_key(first)["revoked_at"] == revoked_at  # the first revocation time is kept
    assert store.revoke_api_keys("alice") == 0
    with pytest.raises(NotFound):
        store.revoke_api_keys("carol")


def test_a_database_of_the_previous_schema_gets_token_versions(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with sqlite3.connect(db_path) as db:  # the users table as version 1 made it
        db.executescript(
            "CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
            " password_hash TEXT, is_admin INTEGER NOT NULL DEFAULT 0, vaults TEXT NOT NULL, created_at TEXT NOT NULL);"
            "INSERT INTO users (name, vaults, created_at) VALUES ('alice', '*', '2026-11-30T10:00:00Z');"
            "PRAGMA user_version = 1;"
        )
    db.close()
    with (
        UserStore(db_path, password_hasher=cheap_hasher()) as store,
        UserStore(db_path, password_hasher=cheap_hasher()),
    ):
        assert store.get_user("alice").token_version == 0  # two opens: the column is added once
        assert store.sign_out_everywhere("alice").token_version == 1
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    db.close()
