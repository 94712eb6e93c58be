"""The AI provider settings over HTTP on a real server: status (keys masked), POST /api/config (admin, hot),
the model lists and capabilities, and the refusals (non-admin, bad body, cross-site)."""

from __future__ import annotations

import json

import httpx2
import pytest

from obsigate.agent.providers.catalog import PROVIDERS

KEY = "sk-posted-0123456789abcdefLAST"
ENV_KEY = "sk-from-env-0123456789zyxwENVK"


@pytest.fixture
def gateway(live_server, small_vault, monkeypatch):
    for spec in PROVIDERS.values():
        for var in (spec.api_key_env, spec.base_url_env, spec.model_env):
            monkeypatch.delenv(var, raising=False)
    monkeypatch.delenv("AI_DEFAULT_PROVIDER", raising=False)
    monkeypatch.setenv("DEEPSEEK_API_KEY", ENV_KEY)  # the server copies the environment when it is built
    server = live_server({"notes": small_vault})
    auth = server.app.state.auth
    server.admin = {
        "Authorization": f"Bearer {auth.tokens.issue(auth.users.add_user('root', None, admin=True, vaults=None))}"
    }
    server.user = {"Authorization": f"Bearer {auth.tokens.issue(auth.users.add_user('alice', None, vaults=['notes']))}"}
    return server


def post_config(server, body, headers) -> httpx2.Response:
    return httpx2.post(f"{server.url}/api/config", json=body, headers=headers)


def test_status_masks_keys_for_everyone(gateway) -> None:
    r = post_config(gateway, {"api_keys": {"openai": KEY}}, gateway.admin)
    assert r.status_code == 200, r.text
    assert KEY not in r.text and ENV_KEY not in r.text
    for path in ("/api/ai/status", "/api/config/ai-models", "/api/ai/model-capabilities"):
        for who in (gateway.user, gateway.admin):
            answer = httpx2.get(f"{gateway.url}{path}", headers=who)
            assert answer.status_code == 200, (path, answer.text)
            assert KEY not in answer.text and ENV_KEY not in answer.text and KEY[:-4] not in answer.text
    config = httpx2.get(f"{gateway.url}/api/config", headers=gateway.admin)
    assert config.status_code == 200 and KEY not in config.text and ENV_KEY not in config.text
    providers = {
        p["name"]: p for p in httpx2.get(f"{gateway.url}/api/ai/status", headers=gateway.user).json()["providers"]
    }
    assert (providers["openai"]["key"], providers["openai"]["key_source"]) == ("…LAST", "file")
    assert (providers["deepseek"]["key"], providers["deepseek"]["key_source"]) == ("…ENVK", "env")
    assert httpx2.get(f"{gateway.url}/api/ai/status").status_code == 401


def test_post_config_changes_the_default_at_once(gateway) -> None:
    before = httpx2.get(f"{gateway.url}/api/ai/status", headers=gateway.user).json()
    assert (before["default_provider"], before["default_provider_source"], before["default_configured"]) == (
        "deepseek", "builtin", True,
    )  # fmt: skip
    r = post_config(
        gateway, {"ai_default_provider": "Ollama", "ai_default_models": {"ollama": "qwen3:8b"}}, gateway.admin
    )
    assert r.status_code == 200 and r.json()["default_provider"] == "ollama"
    after = httpx2.get(f"{gateway.url}/api/ai/status", headers=gateway.user).json()
    ollama = next(p for p in after["providers"] if p["name"] == "ollama")
    assert (after["default_provider"], ollama["default_model"], ollama["model_source"]) == (
        "ollama",
        "qwen3:8b",
        "config",
    )
    assert gateway.app.state.ai_settings.resolve().model == "qwen3:8b"  # what the next assistant request uses
    stored = json.loads((gateway.settings.data_dir / "config.json").read_text())
    assert stored["ai_default_provider"] == "ollama"
    config = httpx2.get(f"{gateway.url}/api/config", headers=gateway.admin).json()
    assert config["ai_default_provider"] == "ollama" and config["ai_default_models"] == {"ollama": "qwen3:8b"}
    models = httpx2.get(f"{gateway.url}/api/config/ai-models", headers=gateway.user).json()
    listed = next(p for p in models["providers"] if p["name"] == "ollama")
    assert listed["models"][0]["name"] == "qwen3:8b" and listed["models"][0]["capabilities"]["chat"]
    # null removes: back to the built-in default, and a key removed falls back to the environment
    post_config(gateway, {"ai_default_provider": None, "api_keys": {"deepseek": KEY}}, gateway.admin)
    assert gateway.app.state.ai_settings.resolve().api_key == KEY
    post_config(gateway, {"api_keys": {"deepseek": None}}, gateway.admin)
    assert gateway.app.state.ai_settings.resolve().api_key == ENV_KEY
    assert httpx2.get(f"{gateway.url}/api/ai/status", headers=gateway.user).json()["default_provider"] == "deepseek"


def test_only_admins_see_or_change_the_config(gateway) -> None:
    r = post_config(gateway, {"ai_default_provider": "openai"}, gateway.user)
    assert (r.status_code, r.json()["code"]) == (403, "forbidden")
    r = httpx2.get(f"{gateway.url}/api/config", headers=gateway.user)
    assert (r.status_code, r.json()["code"]) == (403, "forbidden")
    assert post_config(gateway, {"ai_default_provider": "openai"}, {}).status_code == 401
    assert (
        not (gateway.settings.data_dir / "config.json").exists()
        or "openai" not in (gateway.settings.data_dir / "config.json").read_text()
    )


@pytest.mark.parametrize(
    "body",
    [
        {"unknown_field": 1},
        {"ai_default_provider": "claude"},
        {"ai_default_provider": 3},
        {"ai_default_models": {"openai": 4}},
        {"ai_default_models": {"nope": "m"}},
        {"ai_default_models": {"openai": "two words"}},
        {"ai_base_urls": {"custom": "file:///etc/passwd"}},
        {"api_keys": {"openai": "sk-has a-space-inside-it"}},
        {"api_keys": {"openai": ""}},
        {"api_keys": "sk-not-an-object"},
        ["not", "an", "object"],
    ],
)
def test_a_bad_body_is_400_with_a_stable_code(gateway, body) -> None:
    r = post_config(gateway, body, gateway.admin)
    assert (r.status_code, r.json()["code"]) == (400, "invalid_argument"), r.text
    assert "sk-has a-space" not in r.text and "sk-not-an-object" not in r.text
    assert not (gateway.settings.data_dir / "api_keys.json").exists()


def test_cross_site_config_writes_are_refused(gateway) -> None:
    body = json.dumps({"ai_default_provider": "openai"}).encode()
    evil = {**gateway.admin, "Origin": "https://evil.example", "Content-Type": "application/json"}
    r = httpx2.post(f"{gateway.url}/api/config", content=body, headers=evil)
    assert (r.status_code, r.json()["code"]) == (403, "forbidden_origin")
    plain = {**gateway.admin, "Content-Type": "text/plain"}
    assert (
        httpx2.post(f"{gateway.url}/api/config", content=body, headers=plain).json()["code"] == "unsupported_media_type"
    )
    assert httpx2.get(f"{gateway.url}/api/ai/status", headers=gateway.user).json()["default_provider"] == "deepseek"
    same = {**gateway.admin, "Origin": gateway.url, "Content-Type": "application/json"}
    assert httpx2.post(f"{gateway.url}/api/config", content=body, headers=same).status_code == 200


def test_model_capabilities_routes(gateway) -> None:
    url = f"{gateway.url}/api/ai/model-capabilities"
    table = httpx2.get(url, headers=gateway.user).json()
    assert table["flags"][0] == "chat" and len(table["flags"]) == 8
    assert table["providers"]["openai"]["gpt-4o"]["vision"] is True
    one = httpx2.get(url, params={"provider": "ollama", "model": "llava:13b"}, headers=gateway.user).json()
    assert one["capabilities"]["vision"] is True and one["provider"] == "ollama"
    only = httpx2.get(url, params={"provider": "gemini"}, headers=gateway.user).json()
    assert "gemini-2.5-flash" in only["models"]
    for params in ({"provider": "claude"}, {"model": "gpt-4o"}, {"provider": "openai", "model": "bad model"}):
        r = httpx2.get(url, params=params, headers=gateway.user)
        assert (r.status_code, r.json()["code"]) == (400, "invalid_argument"), params
