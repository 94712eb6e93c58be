"""Revoking credentials on a running server (issue 16 items 2 and 3): a real server on loopback, the real `obsigate`
command in another process on the same data dir. `secret rotate` refuses every earlier JWT and cookie; `user
passwd`, an admin's password reset, `POST /api/auth/signout-all`, `user signout-all` and the admin's
`signout-all` refuse every earlier JWT and cookie of that user (REST, the web app and MCP) while new sign-ins
work; API keys survive unless revoked."""

from __future__ import annotations

import os
import subprocess
import sys
from http.cookies import SimpleCookie

import httpx2
import pytest
from support import PW, add_alice_and_bob

NEW_PW = "a brand new passphrase"
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}  # fmt: skip


def obsigate(*args: str, data, stdin: str | None = None) -> subprocess.CompletedProcess:
    """The `obsigate` command, as the server's operator runs it next to the running server."""
    return subprocess.run(
        [sys.executable, "-m", "obsigate", *args, "--data-dir", str(data)],
        input=stdin, capture_output=True, text=True, timeout=60, env=dict(os.environ),
    )  # fmt: skip


@pytest.fixture
def server(live_server, small_vault):
    return add_alice_and_bob(live_server({"notes": small_vault}, auth_enabled=True))


def _login(server, name: str = "alice", password: str = PW) -> str:
    r = httpx2.post(f"{server.url}/api/auth/login", json={"username": name, "password": password})
    assert r.status_code == 200, r.text
    return r.json()["access_token"]


def _cookie(server, name: str = "alice", password: str = PW) -> dict[str, str]:
    r = httpx2.post(f"{server.url}/api/auth/session", json={"username": name, "password": password})
    assert r.status_code == 200, r.text
    jar = SimpleCookie()
    jar.load(r.headers["set-cookie"])
    return {"obsigate_session": jar["obsigate_session"].value}


class Credentials:
    """One user's JWT (REST, MCP), web session cookie and API key, taken before a revocation."""

    def __init__(self, server, name: str = "alice", password: str = PW) -> None:
        self.server, self.jwt, self.cookie = server, _login(server, name, password), _cookie(server, name, password)
        self.key = server.app.state.auth.users.create_api_key(name)[1]

    def me(self, **kwargs) -> httpx2.Response:
        return httpx2.get(f"{self.server.url}/api/auth/me", **kwargs)

    def status(self) -> dict[str, int]:
        mcp = httpx2.post(f"{self.server.url}/mcp", json=INIT, headers={
            "Accept": "application/json, text/event-stream", "Authorization": f"Bearer {self.jwt}"})  # fmt: skip
        return {
            "jwt": self.me(headers={"Authorization": f"Bearer {self.jwt}"}).status_code,
            "cookie": self.me(cookies=self.cookie).status_code,
            "mcp": mcp.status_code,
            "key": self.me(headers={"Authorization": f"Bearer {self.key}"}).status_code,
        }

    def refusal(self) -> dict:
        return self.me(headers={"Authorization": f"Bearer {self.jwt}"}).json()


ALL_OK = {"jwt": 200, "cookie": 200, "mcp": 200, "key": 200}
SESSIONS_GONE = {"jwt": 401, "cookie": 401, "mcp": 401, "key": 200}


def test_secret_rotate_refuses_every_jwt_and_cookie_of_a_running_server(server) -> None:
    alice, bob = Credentials(server), Credentials(server, "bob")
    assert alice.status() == ALL_OK and bob.status() == ALL_OK
    key_file = server.settings.data_dir / "jwt_secret"
    before = key_file.read_bytes()
    r = obsigate("secret", "rotate", data=server.settings.data_dir)
    assert r.returncode == 0, r.stderr
    assert key_file.read_bytes() != before and oct(key_file.stat().st_mode & 0o777) == "0o600"
    assert alice.status() == SESSIONS_GONE and bob.status() == SESSIONS_GONE  # the next request: no restart
    refusal = alice.refusal()
    assert refusal["code"] == "unauthenticated" and refusal["details"]["reason"] == "invalid_signature"
    assert Credentials(server).status() == ALL_OK  # new sign-ins are signed with the new key


def test_user_passwd_on_the_command_line_revokes_earlier_sessions(server) -> None:
    alice, bob = Credentials(server), Credentials(server, "bob")
    r = obsigate("user", "passwd", "alice", "--password-stdin", data=server.settings.data_dir, stdin=NEW_PW + "\n")
    assert r.returncode == 0, r.stderr
    assert alice.status() == SESSIONS_GONE and bob.status() == ALL_OK  # only alice's
    assert alice.refusal()["details"]["reason"] == "revoked"
    assert httpx2.post(f"{server.url}/api/auth/login", json={"username": "alice", "password": PW}).status_code == 401
    assert Credentials(server, password=NEW_PW).status() == ALL_OK


def test_an_admins_password_reset_revokes_earlier_sessions(server) -> None:
    alice = Credentials(server)
    admin = {"Authorization": f"Bearer {_login(server, 'bob')}"}
    r = httpx2.patch(f"{server.url}/api/admin/users/alice", json={"password": NEW_PW}, headers=admin)
    assert r.status_code == 200, r.text
    assert alice.status() == SESSIONS_GONE
    assert Credentials(server, password=NEW_PW).status() == ALL_OK
    grants = httpx2.patch(f"{server.url}/api/admin/users/alice", json={"vaults": ["notes"]}, headers=admin)
    assert grants.status_code == 200 and Credentials(server, password=NEW_PW).status() == ALL_OK  # grants: no sign-out


def test_sign_out_everywhere_from_the_web_app_ends_every_session_of_that_user(server) -> None:
    alice, bob = Credentials(server), Credentials(server, "bob")
    laptop = _cookie(server)  # a second browser
    r = httpx2.post(f"{server.url}/api/auth/signout-all", json={}, headers={"Origin": server.url}, cookies=laptop)
    assert r.status_code == 204
    jar = SimpleCookie()
    jar.load(r.headers["set-cookie"])
    assert jar["obsigate_session"].value == "" and jar["obsigate_session"]["max-age"] == "0"
    assert alice.status() == SESSIONS_GONE and bob.status() == ALL_OK
    assert alice.me(cookies=laptop).status_code == 401
    assert Credentials(server).status() == ALL_OK


def test_sign_out_everywhere_with_a_bearer_token_and_its_refusals(server, live_server, small_vault, tmp_path) -> None:
    alice = Credentials(server)
    r = httpx2.post(f"{server.url}/api/auth/signout-all", headers={"Authorization": f"Bearer {alice.jwt}"})
    assert r.status_code == 204 and alice.status() == SESSIONS_GONE
    again = httpx2.post(f"{server.url}/api/auth/signout-all", headers={"Authorization": f"Bearer {alice.jwt}"})
    assert again.status_code == 401 and again.json()["code"] == "unauthenticated"  # that token is gone already
    assert httpx2.post(f"{server.url}/api/auth/signout-all").status_code == 401
    off = live_server({"notes": small_vault}, auth_enabled=False, data_dir=tmp_path / "off")
    r = httpx2.post(f"{off.url}/api/auth/signout-all")
    assert r.status_code == 400 and r.json()["code"] == "auth_disabled"


def test_signout_all_on_the_command_line_and_by_an_admin_with_the_api_keys(server) -> None:
    alice = Credentials(server)
    r = obsigate("user", "signout-all", "alice", data=server.settings.data_dir)
    assert r.returncode == 0 and "API keys kept" in r.stderr
    assert alice.status() == SESSIONS_GONE
    alice = Credentials(server)
    admin = {"Authorization": f"Bearer {_login(server, 'bob')}"}
    r = httpx2.post(f"{server.url}/api/admin/users/alice/signout-all", json={"api_keys": True}, headers=admin)
    assert r.status_code == 200 and all(k["revoked_at"] for k in r.json()["keys"])
    assert alice.status() == {"jwt": 401, "cookie": 401, "mcp": 401, "key": 401}
    fresh = Credentials(server)
    assert fresh.status() == ALL_OK
    missing = httpx2.post(f"{server.url}/api/admin/users/nobody/signout-all", json={}, headers=admin)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    forbidden = httpx2.post(
        f"{server.url}/api/admin/users/bob/signout-all", json={}, headers={"Authorization": f"Bearer {fresh.jwt}"}
    )
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "forbidden"
