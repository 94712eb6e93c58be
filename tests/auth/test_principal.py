"""Principal and BearerAuthenticator over a real UserStore and TokenService."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path

import jwt
import pytest
from pwdlib.hashers.argon2 import Argon2Hasher

from obsigate.auth.principal import ANONYMOUS, BearerAuthenticator, Principal
from obsigate.auth.tokens import TokenService
from obsigate.auth.users import UserStore
from obsigate.services.errors import Unauthenticated


@pytest.fixture
def users(tmp_path: Path):
    hasher = Argon2Hasher(time_cost=1, memory_cost=8192, parallelism=1)
    with UserStore(tmp_path / "users.sqlite3", password_hasher=hasher) as store:
        yield store


@pytest.fixture
def tokens(tmp_path: Path) -> TokenService:
    return TokenService(tmp_path / "jwt_secret")


@pytest.fixture
def auth(users: UserStore, tokens: TokenService) -> BearerAuthenticator:
    return BearerAuthenticator(users, tokens)


def assert_rejected(auth: BearerAuthenticator, credential: object) -> Unauthenticated:
    with pytest.raises(Unauthenticated) as ei:
        auth.authenticate(credential)  # type: ignore[arg-type]
    exc = ei.value
    assert exc.code == "unauthenticated" and exc.http_status == 401
    if isinstance(credential, str) and len(credential) >= 8:
        for text in (str(exc), exc.message, json.dumps(exc.to_dict()), repr(exc.args)):
            assert credential not in text
    return exc


# -- Principal --------------------------------------------------------------------------------


def test_principal_vault_checks() -> None:
    p = Principal("alice", False, frozenset({"b", "a"}), "jwt", "j1")
    assert p.can_access("a") and not p.can_access("c")
    assert p.allowed_vaults(["c", "b", "a", "b"]) == ["b", "a"]
    assert p.allowed_vaults([]) == []
    everything = Principal("root", True, None, "api_key")
    assert everything.can_access("anything")
    assert everything.allowed_vaults(iter(["z", "y", "z"])) == ["z", "y"]
    nothing = Principal("x", True, frozenset(), "jwt")
    assert nothing.allowed_vaults(["a"]) == [] and not nothing.can_access("a")  # admin != vault grant


def test_principal_is_frozen() -> None:
    p = Principal("alice", False, None, "jwt")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.name = "mallory"  # type: ignore[misc]
    assert p.token_id is None


def test_anonymous() -> None:
    assert ANONYMOUS == Principal("anonymous", True, None, "anonymous", None)
    assert ANONYMOUS.can_access("any")


# -- JWT --------------------------------------------------------------------------------------


def test_jwt_ok(users: UserStore, tokens: TokenService, auth: BearerAuthenticator) -> None:
    alice = users.add_user("alice", None, vaults=["notes"])
    token = tokens.issue(alice)
    p = auth.authenticate(token)
    assert p == Principal("alice", False, frozenset({"notes"}), "jwt", tokens.verify(token)["jti"])
    assert auth.authenticate(f"Bearer {token}") == p  # the raw header value works too
    assert auth.authenticate(f"bearer   {token} ") == p


def test_deleted_users_jwt_rejected(users: UserStore, tokens: TokenService, auth: BearerAuthenticator) -> None:
    token = tokens.issue(users.add_user("alice", None, vaults=["*"]))
    auth.authenticate(token)
    users.delete_user("alice")
    assert assert_rejected(auth, token).details["reason"] == "unknown_user"
    # a namesake created later does not inherit the old token
    users.add_user("alice", None, vaults=["*"])
    assert assert_rejected(auth, token).details["reason"] == "unknown_user"


def test_changed_grants_visible_at_once(users: UserStore, tokens: TokenService, auth: BearerAuthenticator) -> None:
    alice = users.add_user("alice", None, vaults=["a"])
    token = tokens.issue(alice)
    _, key = users.create_api_key("alice")
    assert auth.authenticate(token).vaults == frozenset({"a"})
    users.set_vaults("alice", ["b"])
    users.set_admin("alice", True)
    for cred in (token, key):
        p = auth.authenticate(cred)
        assert p.vaults == frozenset({"b"}) and p.is_admin
        assert not p.can_access("a")
    users.set_vaults("alice", None)
    assert auth.authenticate(token).vaults is None


def test_token_of_another_kind_rejected(users: UserStore, tmp_path: Path, auth: BearerAuthenticator) -> None:
    alice = users.add_user("alice", None)
    confirm = TokenService(tmp_path / "jwt_secret", token_type="confirm", audience="obsigate-confirm")
    exc = assert_rejected(auth, confirm.issue(alice))
    assert exc.details["reason"] in {"wrong_type", "invalid_audience"}


def test_expired_jwt(users: UserStore, tokens: TokenService, auth: BearerAuthenticator) -> None:
    users.add_user("alice", None)
    now = int(time.time())
    claims = {
        "iss": "obsigate", "aud": "obsigate-api", "sub": "alice", "uid": 1, "jti": "j", "typ": "access",
        "iat": now - 7200, "exp": now - 3600,
    }  # fmt: skip
    token = jwt.encode(claims, tokens.key_bytes, algorithm="HS256", headers={"typ": "at+jwt"})
    assert assert_rejected(auth, token).details["reason"] == "expired"


def test_jwt_without_uid_rejected(users: UserStore, tokens: TokenService, auth: BearerAuthenticator) -> None:
    users.add_user("alice", None)
    now = int(time.time())
    claims = {
        "iss": "obsigate", "aud": "obsigate-api", "sub": "alice", "jti": "j", "typ": "access",
        "iat": now, "exp": now + 60,
    }  # fmt: skip
    token = jwt.encode(claims, tokens.key_bytes, algorithm="HS256", headers={"typ": "at+jwt"})
    assert_rejected(auth, token)


# -- API keys ---------------------------------------------------------------------------------


def test_api_key_ok(users: UserStore, auth: BearerAuthenticator) -> None:
    users.add_user("bot", None, vaults=["notes", "inbox"])
    key_id, key = users.create_api_key("bot", label="ci")
    p = auth.authenticate(key)
    assert p == Principal("bot", False, frozenset({"notes", "inbox"}), "api_key", key_id)
    assert key not in repr(p) and key[3:-6] not in repr(p)
    assert auth.authenticate(f"Bearer {key}") == p


def test_revoked_and_deleted_keys_rejected(users: UserStore, auth: BearerAuthenticator) -> None:
    users.add_user("bot", None)
    key_id, key = users.create_api_key("bot")
    _, key2 = users.create_api_key("bot")
    users.revoke_api_key(key_id)
    assert assert_rejected(auth, key).details["reason"] == "invalid_api_key"
    users.delete_user("bot")
    assert_rejected(auth, key2)


# -- garbage ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "garbage",
    ["", "   ", "Bearer", "Bearer ", "garbage", "og_" + "a" * 49, "og_garbage", "eyJ.eyJ.sig", "x" * 10_000, None, 42],
)
def test_garbage_rejected(auth: BearerAuthenticator, garbage: object) -> None:
    assert_rejected(auth, garbage)


def test_tampered_jwt_message_does_not_echo_token(
    users: UserStore, tokens: TokenService, auth: BearerAuthenticator
) -> None:
    token = tokens.issue(users.add_user("alice", None))
    head, payload, sig = token.split(".")
    bad = f"{head}.{payload}.{'A' if sig[0] != 'A' else 'B'}{sig[1:]}"
    exc = assert_rejected(auth, bad)
    assert exc.details == {"reason": "invalid_signature"}
    assert exc.__cause__ is None


# -- token versions: password change, sign-out everywhere (issue 16 item 3) -------------------


@pytest.mark.parametrize("revoke", ["password", "sign_out_everywhere"])
def test_older_jwts_are_refused_after_a_bump_and_new_ones_work(
    users: UserStore, tokens: TokenService, auth: BearerAuthenticator, revoke: str
) -> None:
    users.add_user("alice", "a good password", vaults=["notes"])
    _, key = users.create_api_key("alice")
    old = tokens.issue(users.get_user("alice"))
    assert auth.authenticate(old).name == "alice"
    if revoke == "password":
        users.set_password("alice", "a new good password")
    else:
        users.sign_out_everywhere("alice")
    exc = assert_rejected(auth, old)
    assert exc.details["reason"] == "revoked"
    assert auth.authenticate(tokens.issue(users.get_user("alice"))).name == "alice"
    assert auth.authenticate(key).auth_kind == "api_key"  # API keys are separate credentials


def test_a_jwt_without_a_token_version_is_version_0(
    users: UserStore, tokens: TokenService, auth: BearerAuthenticator
) -> None:
    alice = users.add_user("alice", None)
    legacy, _ = tokens.mint("alice", uid=alice.id)  # issued before token versions existed
    assert auth.authenticate(legacy).name == "alice"
    users.sign_out_everywhere("alice")
    assert assert_rejected(auth, legacy).details["reason"] == "revoked"
    forged_bool, _ = tokens.mint("alice", uid=alice.id, extra_claims={}, token_version=True)  # type: ignore[arg-type]
    assert assert_rejected(auth, forged_bool).details["reason"] == "revoked"  # True is not version 1
