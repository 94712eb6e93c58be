"""TokenService: real PyJWT, real secret files in tmp_path."""

from __future__ import annotations

import json
import os
import stat
import time
import uuid
from pathlib import Path

import jwt
import pytest

from obsigate.auth.tokens import TokenService
from obsigate.auth.users import User
from obsigate.domain.storage.private_files import load_or_create_secret
from obsigate.services.errors import BadRequest, Unauthenticated, Unavailable

ALICE = User(id=1, name="alice", is_admin=False, vaults=frozenset({"notes"}), created_at="2026-11-30T10:00:00Z")


@pytest.fixture
def secret_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "jwt_secret"


@pytest.fixture
def svc(secret_path: Path) -> TokenService:
    return TokenService(secret_path)


def claims_for(svc: TokenService, **overrides: object) -> dict:
    now = int(time.time())
    claims = {
        "iss": svc.issuer,
        "aud": svc.audience,
        "sub": "alice",
        "uid": 1,
        "jti": uuid.uuid4().hex,
        "typ": "access",
        "iat": now,
        "nbf": now,
        "exp": now + 600,
    }
    claims.update(overrides)
    return {k: v for k, v in claims.items() if v is not None}


def forge(svc: TokenService, claims: dict, *, key: bytes | None = None, typ: str | None = "at+jwt") -> str:
    headers = {"typ": typ} if typ is not None else {}
    return jwt.encode(claims, key or svc.key_bytes, algorithm="HS256", headers=headers)


def reason(exc_info: pytest.ExceptionInfo[Unauthenticated]) -> str:
    return exc_info.value.details["reason"]


# -- round trip -------------------------------------------------------------------------------


def test_round_trip(svc: TokenService) -> None:
    before = int(time.time())
    token = svc.issue(ALICE)
    claims = svc.verify(token)
    assert claims["sub"] == "alice" and claims["uid"] == 1
    assert claims["typ"] == "access"
    assert claims["aud"] == "obsigate-api" and claims["iss"] == "obsigate"
    assert len(claims["jti"]) == 32 and int(claims["jti"], 16) >= 0
    assert before <= claims["iat"] == claims["nbf"] <= before + 2
    assert claims["exp"] - claims["iat"] == 3600
    header = jwt.get_unverified_header(token)
    assert header == {"alg": "HS256", "typ": "at+jwt"}


def test_each_token_gets_a_fresh_jti(svc: TokenService) -> None:
    assert svc.verify(svc.issue(ALICE))["jti"] != svc.verify(svc.issue(ALICE))["jti"]


@pytest.mark.parametrize("ttl", [60, 3600, 366 * 24 * 3600])
def test_ttl_in_bounds(svc: TokenService, ttl: int) -> None:
    claims = svc.verify(svc.issue(ALICE, ttl_s=ttl))
    assert claims["exp"] - claims["iat"] == ttl


@pytest.mark.parametrize("ttl", [59, 0, -1, 366 * 24 * 3600 + 1, True, 60.0, "3600"])
def test_ttl_out_of_bounds(svc: TokenService, ttl: object) -> None:
    with pytest.raises(BadRequest):
        svc.issue(ALICE, ttl_s=ttl)  # type: ignore[arg-type]


def test_bad_default_ttl_rejected(secret_path: Path) -> None:
    with pytest.raises(BadRequest):
        TokenService(secret_path, default_ttl_s=10)


def test_extra_claims(svc: TokenService) -> None:
    claims = svc.verify(svc.issue(ALICE, extra_claims={"vault": "notes", "path": "a.md"}))
    assert claims["vault"] == "notes" and claims["path"] == "a.md"


@pytest.mark.parametrize("name", ["sub", "exp", "typ", "aud", "jti", "uid", "nbf"])
def test_extra_claims_cannot_override(svc: TokenService, name: str) -> None:
    with pytest.raises(BadRequest):
        svc.issue(ALICE, extra_claims={name: "x"})


# -- rejections -------------------------------------------------------------------------------


def test_expired(svc: TokenService) -> None:
    now = int(time.time())
    token = forge(svc, claims_for(svc, iat=now - 120, nbf=now - 120, exp=now - 30))
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(token)
    assert reason(ei) == "expired"


def test_expired_within_leeway_is_accepted(svc: TokenService) -> None:
    now = int(time.time())
    svc.verify(forge(svc, claims_for(svc, iat=now - 120, nbf=now - 120, exp=now - 3)))


@pytest.mark.parametrize("claim", ["nbf", "iat"])
def test_not_yet_valid(svc: TokenService, claim: str) -> None:
    token = forge(svc, claims_for(svc, **{claim: int(time.time()) + 3600}))
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(token)
    assert reason(ei) == "not_yet_valid"


def test_wrong_audience(svc: TokenService, secret_path: Path) -> None:
    other = TokenService(secret_path, audience="someone-else")
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(other.issue(ALICE))
    assert reason(ei) == "invalid_audience"


def test_audience_list_rejected(svc: TokenService) -> None:
    token = forge(svc, claims_for(svc, aud=["obsigate-api", "other"]))
    with pytest.raises(Unauthenticated):
        svc.verify(token)


@pytest.mark.parametrize("iss", ["evil", "_obsigate_", "obsigat"])
def test_wrong_issuer(svc: TokenService, iss: str) -> None:
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(forge(svc, claims_for(svc, iss=iss)))
    assert reason(ei) == "invalid_issuer"


def test_alg_none(svc: TokenService) -> None:
    token = jwt.encode(claims_for(svc), None, algorithm="none", headers={"typ": "at+jwt"})
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(token)
    assert reason(ei) == "invalid_algorithm"
    # same thing built by hand, with an empty signature
    import base64

    def b64(obj: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()

    handmade = f"{b64({'alg': 'none', 'typ': 'at+jwt'})}.{b64(claims_for(svc))}."
    with pytest.raises(Unauthenticated):
        svc.verify(handmade)


def test_other_hmac_alg_rejected(svc: TokenService) -> None:
    token = jwt.encode(claims_for(svc), svc.key_bytes, algorithm="HS512", headers={"typ": "at+jwt"})
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(token)
    assert reason(ei) == "invalid_algorithm"


@pytest.mark.parametrize("claim", ["exp", "iat", "sub", "jti", "aud", "iss"])
def test_missing_required_claim(svc: TokenService, claim: str) -> None:
    token = forge(svc, claims_for(svc, **{claim: None}))
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(token)
    assert reason(ei) == f"missing_claim:{claim}"


def test_missing_typ_claim(svc: TokenService) -> None:
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(forge(svc, claims_for(svc, typ=None)))
    assert reason(ei) == "wrong_type"


def test_token_of_another_kind_with_same_key_is_rejected(svc: TokenService, secret_path: Path) -> None:
    # Same key, same audience: only the type tells them apart (RFC 8725 §3.11).
    confirm = TokenService(secret_path, token_type="confirm")
    token = confirm.issue(ALICE)
    assert jwt.get_unverified_header(token)["typ"] == "confirm+jwt"
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(token)
    assert reason(ei) == "wrong_type"
    with pytest.raises(Unauthenticated):
        confirm.verify(svc.issue(ALICE))
    assert confirm.verify(token)["typ"] == "confirm"


@pytest.mark.parametrize(
    ("header_typ", "claim_typ"),
    [("at+jwt", "confirm"), ("confirm+jwt", "access"), (None, "access"), ("JWT", "access")],
)
def test_header_and_claim_typ_both_checked(svc: TokenService, header_typ: str | None, claim_typ: str) -> None:
    token = forge(svc, claims_for(svc, typ=claim_typ), typ=header_typ)
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(token)
    assert reason(ei) == "wrong_type"


@pytest.mark.parametrize("header_typ", ["application/at+jwt", "AT+JWT"])
def test_header_typ_media_type_forms_accepted(svc: TokenService, header_typ: str) -> None:
    # RFC 7515 §4.1.9: the "application/" prefix may be present; media types are case-insensitive.
    svc.verify(forge(svc, claims_for(svc), typ=header_typ))


def test_tampered_payload(svc: TokenService) -> None:
    header, _, sig = svc.issue(ALICE).split(".")
    _, payload, _ = forge(svc, claims_for(svc, sub="admin")).split(".")
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(f"{header}.{payload}.{sig}")
    assert reason(ei) == "invalid_signature"


def test_tampered_signature(svc: TokenService) -> None:
    token = svc.issue(ALICE)
    head, payload, sig = token.split(".")
    flipped = ("A" if sig[0] != "A" else "B") + sig[1:]
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(f"{head}.{payload}.{flipped}")
    assert reason(ei) == "invalid_signature"


def test_token_signed_with_another_key(svc: TokenService, tmp_path: Path) -> None:
    other = TokenService(tmp_path / "other_secret")
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(other.issue(ALICE))
    assert reason(ei) == "invalid_signature"


@pytest.mark.parametrize("garbage", ["", "abc", "a.b.c", "x" * 9000, "og_notajwt", None, b"bytes"])
def test_garbage(svc: TokenService, garbage: object) -> None:
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(garbage)  # type: ignore[arg-type]
    assert reason(ei) == "malformed"


def test_error_never_contains_the_token(svc: TokenService) -> None:
    now = int(time.time())
    token = forge(svc, claims_for(svc, exp=now - 100, iat=now - 200, nbf=now - 200))
    with pytest.raises(Unauthenticated) as ei:
        svc.verify(token)
    exc = ei.value
    for text in (str(exc), exc.message, json.dumps(exc.to_dict()), repr(exc.args)):
        assert token not in text
        assert token.split(".")[2] not in text
    assert exc.__cause__ is None and exc.__suppress_context__
    assert exc.code == "unauthenticated" and exc.http_status == 401


# -- the secret file --------------------------------------------------------------------------


def test_secret_file_created_0600_with_64_random_bytes(svc: TokenService, secret_path: Path) -> None:
    assert not secret_path.exists()  # lazy
    svc.issue(ALICE)
    assert stat.S_IMODE(secret_path.stat().st_mode) == 0o600
    assert len(bytes.fromhex(secret_path.read_text().strip())) == 64
    assert svc.key_bytes == bytes.fromhex(secret_path.read_text().strip())
    assert [p.name for p in secret_path.parent.iterdir()] == ["jwt_secret"]  # no temp left


def test_secret_file_reused_across_instances(secret_path: Path) -> None:
    token = TokenService(secret_path).issue(ALICE)
    assert TokenService(secret_path).verify(token)["sub"] == "alice"


def test_loose_permissions_are_tightened(secret_path: Path) -> None:
    key = TokenService(secret_path).key_bytes
    os.chmod(secret_path, 0o644)
    assert TokenService(secret_path).key_bytes == key
    assert stat.S_IMODE(secret_path.stat().st_mode) == 0o600


@pytest.mark.parametrize("content", ["not hex at all", "00" * 16])
def test_bad_secret_file_refused(secret_path: Path, content: str) -> None:
    secret_path.parent.mkdir(parents=True)
    secret_path.write_text(content)
    with pytest.raises(ValueError):
        TokenService(secret_path).load_key()  # at start: the server does not start on it
    with pytest.raises(Unavailable):  # a catalogued 503, never a 500
        TokenService(secret_path).issue(ALICE)
    with pytest.raises(Unauthenticated) as info:
        TokenService(secret_path).verify("a.b.c")
    assert info.value.details["reason"] == "signing_key_unavailable"


# -- the key in memory, its rotation (issue 16 item 2) ----------------------------------------


def test_the_key_is_read_once_and_kept_until_the_file_is_replaced(secret_path: Path, monkeypatch) -> None:
    svc = TokenService(secret_path)
    svc.load_key()
    key = svc.key_bytes
    reads = []
    real_open = os.open

    def counting_open(path, *args, **kwargs):  # os.open is how secret files are read (O_NOFOLLOW)
        reads.append(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting_open)
    token = svc.issue(ALICE)
    for _ in range(5):
        svc.verify(token)
    monkeypatch.undo()
    assert reads == [] and svc.key_bytes == key  # six uses, no read of the key file: only an lstat each


def test_rotate_key_refuses_earlier_tokens_here_and_in_another_instance(secret_path: Path) -> None:
    server, cli = TokenService(secret_path), TokenService(secret_path)  # a running server, the CLI's own
    server.load_key()
    old = server.issue(ALICE)
    cli.rotate_key()
    assert stat.S_IMODE(secret_path.stat().st_mode) == 0o600
    for svc in (server, cli):  # the server sees the replaced file at its next use
        with pytest.raises(Unauthenticated) as info:
            svc.verify(old)
        assert info.value.details["reason"] == "invalid_signature"
    fresh = server.issue(ALICE)
    assert cli.verify(fresh)["sub"] == "alice" and server.key_bytes == cli.key_bytes


def test_rotate_key_replaces_a_symlink_rather_than_writing_through_it(secret_path: Path, tmp_path: Path) -> None:
    target = tmp_path / "vault" / "note.md"
    target.parent.mkdir()
    target.write_text("# a note\n")
    secret_path.parent.mkdir(parents=True)
    secret_path.symlink_to(target)
    TokenService(secret_path).rotate_key()
    assert target.read_text() == "# a note\n" and not secret_path.is_symlink()
    assert stat.S_IMODE(secret_path.stat().st_mode) == 0o600


def test_a_key_file_broken_after_start_fails_closed_until_rotated(secret_path: Path) -> None:
    svc = TokenService(secret_path)
    svc.load_key()
    token = svc.issue(ALICE)
    secret_path.write_text("not hex")  # someone edits it while the server runs
    with pytest.raises(Unauthenticated) as info:
        svc.verify(token)
    assert info.value.details["reason"] == "signing_key_unavailable"
    with pytest.raises(Unavailable):
        svc.issue(ALICE)
    TokenService(secret_path).rotate_key()
    assert svc.verify(svc.issue(ALICE))["sub"] == "alice"
    with pytest.raises(Unauthenticated):
        svc.verify(token)


def test_tokens_carry_the_users_token_version(svc: TokenService) -> None:
    import dataclasses

    claims = svc.verify(svc.issue(dataclasses.replace(ALICE, token_version=7)))
    assert claims["tv"] == 7
    with pytest.raises(BadRequest):
        svc.issue(ALICE, extra_claims={"tv": 99})  # reserved: a caller cannot pick it


def test_secret_symlink_refused(secret_path: Path, tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("11" * 64)
    secret_path.parent.mkdir(parents=True)
    secret_path.symlink_to(target)
    with pytest.raises(OSError):
        load_or_create_secret(secret_path)


def test_a_deleted_key_file_is_a_rotation(secret_path: Path) -> None:
    svc = TokenService(secret_path)
    svc.load_key()
    token = svc.issue(ALICE)
    secret_path.unlink()  # as at a first start: a new key is made, and earlier tokens are refused
    with pytest.raises(Unauthenticated) as info:
        svc.verify(token)
    assert info.value.details["reason"] == "invalid_signature"
    assert stat.S_IMODE(secret_path.stat().st_mode) == 0o600 and svc.verify(svc.issue(ALICE))["sub"] == "alice"
