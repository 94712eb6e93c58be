"""The settings page's server side on a real server (issue 11 item 8): the provider test call against the fake
LLM, the per-vault ``aiDestructiveTools`` switch (persisted, effective at once), users and API keys for admins,
and the refusals (non-admin, bad bodies, own account, cross-site)."""

from __future__ import annotations

import json

import httpx2
import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, Reply, use_fake
from support import free_port

PASSWORD = "a long enough password"
PROVIDER_KEY = "sk-settings-0123456789abcdefWXYZ"


@pytest.fixture
def gateway(live_server, small_vault, tmp_path, fake: FakeLLM, monkeypatch):
    """Auth on, vaults ``notes`` and ``other``; ``root`` (admin) and ``alice`` (notes only) with bearer headers;
    the provider environment pointed at the fake (``custom`` is the default provider)."""
    use_fake(monkeypatch, fake)
    other = tmp_path / "other"
    other.mkdir()
    (other / "Note.md").write_text("# Other\n")
    server = live_server({"notes": small_vault, "other": other})
    auth = server.app.state.auth
    server.admin = {
        "Authorization": f"Bearer {auth.tokens.issue(auth.users.add_user('root', None, admin=True, vaults=None))}"
    }
    server.user = {"Authorization": f"Bearer {auth.tokens.issue(auth.users.add_user('alice', None, vaults=['notes']))}"}
    return server


def api(server, method: str, path: str, headers: dict, body=None) -> httpx2.Response:
    return httpx2.request(method, f"{server.url}{path}", json=body, headers=headers)


# ---- the provider test call -------------------------------------------------------------------------------


def test_the_test_call_is_one_tiny_request_with_the_current_settings(gateway, fake: FakeLLM) -> None:
    fake.add(o.plain("ok"))
    r = api(gateway, "POST", "/api/ai/test", gateway.admin, {"provider": "custom"})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["ok"] is True and answer["provider"] == "custom" and answer["model"] == "fake-model"
    assert answer["reply"] == "ok" and isinstance(answer["latency_ms"], int) and answer["latency_ms"] >= 0
    sent = fake.requests[-1]
    assert sent.path == "/v1/chat/completions" and sent.json["max_tokens"] == 16 and "stream" not in sent.json
    assert sent.json["model"] == "fake-model" and "tools" not in sent.json
    # a model named in the body is used instead of the default
    fake.add(o.plain("ok"))
    assert (
        api(gateway, "POST", "/api/ai/test", gateway.admin, {"provider": "custom", "model": "other-model"}).json()[
            "model"
        ]
        == "other-model"
    )
    assert fake.requests[-1].json["model"] == "other-model"


def test_a_refused_key_is_the_providers_code_and_the_key_never_shows(gateway, fake: FakeLLM) -> None:
    body = {"api_keys": {"openai": PROVIDER_KEY}, "ai_base_urls": {"openai": f"{fake.base_url}/v1"}}
    assert api(gateway, "POST", "/api/config", gateway.admin, body).status_code == 200
    fake.add(o.unauthorized())
    r = api(gateway, "POST", "/api/ai/test", gateway.admin, {"provider": "openai"})
    assert r.status_code == 200 and r.json()["ok"] is False and r.json()["code"] == "provider_auth_failed", r.text
    assert PROVIDER_KEY not in r.text
    sent = fake.requests[-1]
    assert sent.headers["authorization"] == f"Bearer {PROVIDER_KEY}"
    assert sent.json["max_completion_tokens"] == 16 and "max_tokens" not in sent.json  # OpenAI's own spelling
    fake.add(o.model_not_found("gpt-nope"))
    r = api(gateway, "POST", "/api/ai/test", gateway.admin, {"provider": "openai", "model": "gpt-nope"})
    assert (r.json()["ok"], r.json()["code"]) == (False, "model_not_found")


def test_an_unreachable_or_unconfigured_provider_is_a_failed_test_not_a_500(gateway) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    api(gateway, "POST", "/api/config", gateway.admin, {"ai_base_urls": {"ollama": dead}})
    r = api(gateway, "POST", "/api/ai/test", gateway.admin, {"provider": "ollama"})
    assert (r.status_code, r.json()["ok"], r.json()["code"]) == (200, False, "provider_unavailable"), r.text
    r = api(gateway, "POST", "/api/ai/test", gateway.admin, {"provider": "deepseek"})  # no key anywhere
    assert (r.json()["ok"], r.json()["code"]) == (False, "provider_not_configured")
    for bad in (
        {"provider": "claude"},
        {"provider": "custom", "model": "two words"},
        {"provider": "custom", "x": 1},
        {},
    ):
        r = api(gateway, "POST", "/api/ai/test", gateway.admin, bad)
        assert (r.status_code, r.json()["code"]) == (400, "invalid_argument"), (bad, r.text)


def test_gemini_gets_a_capped_answer_too(gateway, fake: FakeLLM) -> None:
    fake.add(
        Reply.json({"candidates": [{"content": {"role": "model", "parts": [{"text": "ok"}]}, "finishReason": "STOP"}]})
    )
    r = api(gateway, "POST", "/api/ai/test", gateway.admin, {"provider": "gemini"})
    assert r.json()["ok"] is True, r.text
    assert fake.requests[-1].json["generationConfig"] == {"maxOutputTokens": 16}


# ---- aiDestructiveTools ------------------------------------------------------------------------------------


def _agent_deletes(server, fake: FakeLLM, vault: str, path: str) -> tuple[list[str], list[str]]:
    """One agent turn whose model asks to delete ``vault``/``path``: the tools it was offered and the statuses of
    the delete step."""
    fake.script.clear()  # a run that paused for a confirmation left its second reply
    fake.add(o.stream_tool_calls([("d1", "delete_file", {"vault": vault, "path": path})]), o.stream_text(["Done."]))
    before = len(fake.requests)
    with httpx2.Client(timeout=60) as client:
        r = client.post(
            f"{server.url}/api/ai/bookslm/agent", json={"message": "delete it", "vault": vault}, headers=server.admin
        )
    assert r.status_code == 200, r.text
    offered = [t["function"]["name"] for t in fake.requests[before].json.get("tools") or []]
    steps = [json.loads(line[5:]) for line in r.text.splitlines() if line.startswith("data:") and '"id":"d1"' in line]
    return offered, [step["status"] for step in steps if "status" in step]


def test_the_destructive_switch_is_effective_at_once_and_persisted(gateway, fake: FakeLLM, small_vault) -> None:
    config = api(gateway, "GET", "/api/config", gateway.admin).json()
    assert config["vaults"] == [
        {"name": "notes", "read_only": False, "destructive_tools": True},
        {"name": "other", "read_only": False, "destructive_tools": True},
    ]
    assert config["ai_destructive_tools"] == {}
    offered, statuses = _agent_deletes(gateway, fake, "notes", "Ideas.md")
    assert "delete_file" in offered and statuses[-1] == "pending_confirmation"
    r = api(gateway, "POST", "/api/config", gateway.admin, {"ai_destructive_tools": {"notes": False}})
    assert r.status_code == 200, r.text
    # the very next assistant run: no dangerous tool offered, and a call to one anyway is refused
    offered, statuses = _agent_deletes(gateway, fake, "notes", "Ideas.md")
    assert "read_file" in offered and not {"delete_file", "rename_file", "move_path", "replace_in_files"} & set(offered)
    assert statuses == ["error"]
    assert (small_vault / "Ideas.md").exists()
    vaults = {v["name"]: v for v in api(gateway, "GET", "/api/vaults", gateway.admin).json()["vaults"]}
    assert vaults["notes"]["destructive_tools"] is False and vaults["other"]["destructive_tools"] is True
    assert json.loads((gateway.settings.data_dir / "config.json").read_text())["ai_destructive_tools"] == {
        "notes": False
    }
    config = api(gateway, "GET", "/api/config", gateway.admin).json()
    assert config["ai_destructive_tools"] == {"notes": False} and config["vaults"][0]["destructive_tools"] is False
    # null: back to the declaration (on)
    api(gateway, "POST", "/api/config", gateway.admin, {"ai_destructive_tools": {"notes": None}})
    assert api(gateway, "GET", "/api/config", gateway.admin).json()["vaults"][0]["destructive_tools"] is True
    offered, _ = _agent_deletes(gateway, fake, "notes", "Ideas.md")
    assert "delete_file" in offered


def test_a_hand_edit_of_config_json_applies_to_the_next_call(gateway) -> None:
    path = gateway.settings.data_dir / "config.json"
    path.write_text(json.dumps({"ai_destructive_tools": {"other": False}}))
    vaults = {v["name"]: v for v in api(gateway, "GET", "/api/vaults", gateway.admin).json()["vaults"]}
    assert vaults["other"]["destructive_tools"] is False and vaults["notes"]["destructive_tools"] is True


@pytest.mark.parametrize(
    "body",
    [
        {"ai_destructive_tools": {"nope": False}},
        {"ai_destructive_tools": {"notes": "no"}},
        {"ai_destructive_tools": ["notes"]},
    ],
)
def test_a_bad_switch_is_refused(gateway, body) -> None:
    r = api(gateway, "POST", "/api/config", gateway.admin, body)
    assert (r.status_code, r.json()["code"]) == (400, "invalid_argument"), r.text


# ---- users and API keys ------------------------------------------------------------------------------------


def test_create_a_user_grant_a_vault_create_and_revoke_a_key(gateway) -> None:
    r = api(
        gateway, "POST", "/api/admin/users", gateway.admin, {"name": "bob", "password": PASSWORD, "vaults": ["other"]}
    )
    assert r.status_code == 201, r.text
    assert {k: r.json()[k] for k in ("name", "admin", "vaults", "keys")} == {
        "name": "bob",
        "admin": False,
        "vaults": ["other"],
        "keys": [],
    }
    assert PASSWORD not in r.text
    login = httpx2.post(f"{gateway.url}/api/auth/login", json={"username": "bob", "password": PASSWORD})
    assert login.status_code == 200
    bob = {"Authorization": f"Bearer {login.json()['access_token']}"}
    assert [v["name"] for v in api(gateway, "GET", "/api/vaults", bob).json()["vaults"]] == ["other"]
    # grants change at once
    r = api(gateway, "PATCH", "/api/admin/users/bob", gateway.admin, {"vaults": ["notes", "other"]})
    assert r.status_code == 200 and r.json()["vaults"] == ["notes", "other"]
    assert [v["name"] for v in api(gateway, "GET", "/api/vaults", bob).json()["vaults"]] == ["notes", "other"]
    # a key: shown once, works, never listed, revoked at once
    made = api(gateway, "POST", "/api/admin/users/bob/keys", gateway.admin, {"label": "laptop", "expires_days": 30})
    assert made.status_code == 201, made.text
    key, key_id = made.json()["key"], made.json()["key_id"]
    assert key.startswith("og_") and made.json()["label"] == "laptop" and made.json()["expires_at"]
    as_key = {"Authorization": f"Bearer {key}"}
    assert api(gateway, "GET", "/api/auth/me", as_key).json()["name"] == "bob"
    listed = api(gateway, "GET", "/api/admin/users", gateway.admin)
    keys = api(gateway, "GET", "/api/admin/users/bob/keys", gateway.admin)
    for text in (listed.text, keys.text):
        assert key not in text and key[3:20] not in text
    assert [k["key_id"] for k in keys.json()["keys"]] == [key_id]
    bob_row = next(u for u in listed.json()["users"] if u["name"] == "bob")
    assert bob_row["keys"][0]["key_id"] == key_id and bob_row["keys"][0]["revoked_at"] is None
    assert listed.json()["vaults"] == ["notes", "other"] and listed.json()["me"] == "root"
    assert api(gateway, "DELETE", f"/api/admin/users/alice/keys/{key_id}", gateway.admin).json()["code"] == "not_found"
    assert api(gateway, "DELETE", f"/api/admin/users/bob/keys/{key_id}", gateway.admin).status_code == 204
    assert api(gateway, "GET", "/api/auth/me", as_key).status_code == 401
    assert api(gateway, "DELETE", f"/api/admin/users/bob/keys/{key_id}", gateway.admin).status_code == 204  # idempotent
    # make bob an admin, then delete him: his token stops working
    assert api(gateway, "PATCH", "/api/admin/users/bob", gateway.admin, {"admin": True}).json()["admin"] is True
    assert api(gateway, "GET", "/api/admin/users", bob).status_code == 200
    assert api(gateway, "DELETE", "/api/admin/users/bob", gateway.admin).status_code == 204
    assert api(gateway, "GET", "/api/auth/me", bob).status_code == 401
    assert api(gateway, "DELETE", "/api/admin/users/bob", gateway.admin).json()["code"] == "not_found"


def test_an_admin_cannot_lock_themselves_out(gateway) -> None:
    for method, path, body in (("DELETE", "/api/admin/users/root", None), ("DELETE", "/api/admin/users/ROOT", None),
                               ("PATCH", "/api/admin/users/root", {"admin": False})):  # fmt: skip
        r = api(gateway, method, path, gateway.admin, body)
        assert (r.status_code, r.json()["code"]) == (409, "self_lockout"), r.text
    assert gateway.app.state.auth.users.get_user("root").is_admin
    assert api(gateway, "PATCH", "/api/admin/users/root", gateway.admin, {"vaults": ["notes"]}).status_code == 200


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"name": "alice", "password": PASSWORD}, "exists"),
        ({"name": "ALICE", "password": PASSWORD}, "exists"),
        ({"name": "bad name", "password": PASSWORD}, "invalid_argument"),
        ({"name": "anonymous", "password": PASSWORD}, "invalid_argument"),
        ({"name": "carol", "password": "short"}, "invalid_argument"),
        ({"name": "carol", "password": PASSWORD, "vaults": ["nope"]}, "invalid_argument"),
        ({"name": "carol", "password": PASSWORD, "admin": "yes"}, "invalid_argument"),
        ({"name": "carol", "password": PASSWORD, "extra": 1}, "invalid_argument"),
        ({"password": PASSWORD}, "invalid_argument"),
    ],
)
def test_bad_users_are_refused_with_stable_codes(gateway, body, code) -> None:
    r = api(gateway, "POST", "/api/admin/users", gateway.admin, body)
    assert r.status_code in (400, 409) and r.json()["code"] == code, r.text
    assert PASSWORD not in r.text


def test_only_admins_reach_the_admin_routes(gateway) -> None:
    calls = [
        ("GET", "/api/admin/users", None), ("POST", "/api/admin/users", {"name": "eve", "password": PASSWORD}),
        ("PATCH", "/api/admin/users/alice", {"admin": True}), ("DELETE", "/api/admin/users/root", None),
        ("GET", "/api/admin/users/alice/keys", None), ("POST", "/api/admin/users/alice/keys", {"label": "x"}),
        ("DELETE", "/api/admin/users/root/keys/ak_0000000000000000", None),
        ("POST", "/api/ai/test", {"provider": "custom"}), ("POST", "/api/config", {"ai_destructive_tools": {"notes": False}}),
    ]  # fmt: skip
    for method, path, body in calls:
        r = api(gateway, method, path, gateway.user, body)
        assert (r.status_code, r.json()["code"]) == (403, "forbidden"), (method, path, r.text)
        assert api(gateway, method, path, {}, body).status_code == 401
    assert (
        gateway.app.state.auth.users.get_user("eve") is None
        and not gateway.app.state.auth.users.get_user("alice").is_admin
    )


def test_cross_site_admin_writes_are_refused(gateway) -> None:
    evil = {**gateway.admin, "Origin": "https://evil.example"}
    r = api(gateway, "POST", "/api/admin/users", evil, {"name": "eve", "password": PASSWORD})
    assert (r.status_code, r.json()["code"]) == (403, "forbidden_origin")
    r = httpx2.post(
        f"{gateway.url}/api/admin/users",
        content=b'{"name":"eve"}',
        headers={**gateway.admin, "Content-Type": "text/plain"},
    )
    assert r.json()["code"] == "unsupported_media_type"
    assert gateway.app.state.auth.users.get_user("eve") is None


def test_with_auth_off_the_local_owner_is_the_admin(live_server, small_vault, tmp_path) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=False, data_dir=tmp_path / "open")
    r = httpx2.get(f"{server.url}/api/admin/users")
    assert r.status_code == 200 and r.json()["me"] == "anonymous" and r.json()["users"] == []
    assert httpx2.post(f"{server.url}/api/admin/users", json={"name": "later", "password": PASSWORD}).status_code == 201
    assert httpx2.get(f"{server.url}/api/config").json()["vaults"][0]["name"] == "notes"
