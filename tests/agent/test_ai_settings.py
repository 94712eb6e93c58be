"""AISettings over real files and an environment dict: precedence, keys, atomic writes, hot reload, errors."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from obsigate.agent.providers.base import ProviderError
from obsigate.agent.providers.catalog import PROVIDERS, is_local_engine
from obsigate.agent.settings import AISettings, mask_key, validate_base_url
from obsigate.tools.api import BadRequest, Unavailable

KEY = "sk-live-0123456789abcdefSECRET"  # 30 chars: masked to its last 4
ENV_KEY = "sk-env-9876543210zyxwvuENVKEY"


def write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def bump(path: Path, data: dict) -> None:
    """Rewrite ``path`` in place (an editor's save) with a visibly new mtime, as a hand edit would."""
    write_json(path, data)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


# (request provider, config.json ai_default_provider, env AI_DEFAULT_PROVIDER) → provider used
PROVIDER_CASES = [
    (None, None, None, "deepseek"),
    (None, None, "openai", "openai"),
    (None, "gemini", "openai", "gemini"),
    ("ollama", "gemini", "openai", "ollama"),
    ("OpenRouter", None, None, "openrouter"),  # names are case-insensitive
]


@pytest.mark.parametrize(("request_p", "config_p", "env_p", "expected"), PROVIDER_CASES)
def test_provider_precedence_request_config_env_builtin(data, request_p, config_p, env_p, expected) -> None:
    env = {f"{n.upper()}_API_KEY": ENV_KEY for n in PROVIDERS}
    if env_p:
        env["AI_DEFAULT_PROVIDER"] = env_p
    if config_p:
        write_json(data / "config.json", {"ai_default_provider": config_p})
    assert AISettings(data, env).resolve(request_p).name == expected


# (request model, config ai_default_models.openai, env OPENAI_MODEL) → model used
MODEL_CASES = [
    (None, None, None, "gpt-4.1-mini"),
    (None, None, "gpt-env", "gpt-env"),
    (None, "gpt-config", "gpt-env", "gpt-config"),
    ("gpt-request", "gpt-config", "gpt-env", "gpt-request"),
]


@pytest.mark.parametrize(("request_m", "config_m", "env_m", "expected"), MODEL_CASES)
def test_model_precedence_request_config_env_builtin(data, request_m, config_m, env_m, expected) -> None:
    env = {"OPENAI_API_KEY": ENV_KEY, **({"OPENAI_MODEL": env_m} if env_m else {})}
    if config_m:
        write_json(data / "config.json", {"ai_default_models": {"openai": config_m, "deepseek": "other"}})
    config = AISettings(data, env).resolve("openai", request_m)
    assert config.model == expected
    assert (config.name, config.dialect, config.base_url) == ("openai", "openai", "https://api.openai.com/v1")


def test_builtin_endpoints_and_base_url_precedence(data) -> None:
    settings = AISettings(data, {"GEMINI_API_KEY": ENV_KEY, "DEEPSEEK_API_KEY": ENV_KEY})
    assert settings.resolve().base_url == "https://api.deepseek.com/v1"
    gemini = settings.resolve("gemini")
    assert (gemini.dialect, gemini.base_url) == ("gemini", "https://generativelanguage.googleapis.com/v1beta")
    ollama = settings.resolve("ollama")  # no key needed
    assert (ollama.base_url, ollama.api_key) == ("http://127.0.0.1:11434/v1", None)
    env = AISettings(data, {"OLLAMA_BASE_URL": "http://gpu-box:8080/v1/"})
    assert env.resolve("ollama").base_url == "http://gpu-box:8080/v1"  # trailing slash dropped
    write_json(data / "config.json", {"ai_base_urls": {"ollama": "http://lan:11434/v1"}})
    assert (
        AISettings(data, {"OLLAMA_BASE_URL": "http://gpu-box:8080/v1"}).resolve("ollama").base_url
        == "http://lan:11434/v1"
    )


def test_key_file_wins_over_environment_and_timeout_is_passed(data) -> None:
    env = {"DEEPSEEK_API_KEY": ENV_KEY}
    assert AISettings(data, env).resolve().api_key == ENV_KEY
    write_json(data / "api_keys.json", {"deepseek": KEY})
    settings = AISettings(data, env, timeout_s=12.5)
    config = settings.resolve()
    assert (config.api_key, config.timeout_s) == (KEY, 12.5)
    entry = next(p for p in settings.status()["providers"] if p["name"] == "deepseek")
    assert (entry["key"], entry["key_source"]) == ("…CRET", "file")


def test_a_request_naming_an_unknown_provider_is_a_bad_request(data) -> None:
    """The caller's mistake, not the server's: 400 ``invalid_argument``, never a 5xx (found by the OpenAPI fuzz,
    tests/robust/test_openapi_fuzz.py); an unknown *configured* default stays ``provider_not_configured``."""
    with pytest.raises(BadRequest) as caught:
        AISettings(data, {}).resolve("nonsense")
    assert caught.value.code == "invalid_argument" and caught.value.http_status == 400
    assert "known providers: deepseek, openai, openrouter, ollama, gemini, custom" in caught.value.message


@pytest.mark.parametrize(
    ("env", "provider", "needle"),
    [
        ({}, None, "DEEPSEEK_API_KEY"),  # the default needs a key
        ({}, "gemini", "obsigate ai key set gemini"),
        ({"CUSTOM_MODEL": "m"}, "custom", "CUSTOM_BASE_URL"),  # custom has no built-in endpoint
        ({"CUSTOM_BASE_URL": "http://127.0.0.1:9/v1"}, "custom", "CUSTOM_MODEL"),
        ({"AI_DEFAULT_PROVIDER": "claude"}, None, "unknown AI provider 'claude'"),
        ({"OPENAI_API_KEY": "sk-with a space-and-more"}, "openai", "spaces or control characters"),
    ],
)
def test_not_configured_is_provider_not_configured(data, env, provider, needle) -> None:
    with pytest.raises(ProviderError) as caught:
        AISettings(data, env).resolve(provider)
    assert caught.value.code == "provider_not_configured" and caught.value.http_status == 503
    assert needle in caught.value.message
    assert "sk-with" not in caught.value.message


def test_custom_works_once_configured_and_a_request_model_fills_in(data) -> None:
    settings = AISettings(data, {"CUSTOM_BASE_URL": "http://127.0.0.1:8000/v1"})
    config = settings.resolve("custom", "qwen2.5-7b-instruct")  # no key, no default model: the request names it
    assert (config.base_url, config.model, config.api_key) == ("http://127.0.0.1:8000/v1", "qwen2.5-7b-instruct", None)


@pytest.mark.parametrize("model", ["", "x" * 201, "gpt\n4", "gpt 4", "a\x00b", "m\x7f", "m\u2028"])
def test_a_bad_model_name_is_invalid_argument(data, model) -> None:
    with pytest.raises(BadRequest) as caught:
        AISettings(data, {"DEEPSEEK_API_KEY": ENV_KEY}).resolve(None, model)
    assert caught.value.code == "invalid_argument"


def test_model_of_200_chars_is_accepted(data) -> None:
    assert AISettings(data, {"DEEPSEEK_API_KEY": ENV_KEY}).resolve(None, "m" * 200).model == "m" * 200


def test_set_key_creates_a_0600_file_and_keeps_it_0600(data) -> None:
    settings = AISettings(data, {})
    settings.set_key("DeepSeek", f"  {KEY}\n")  # trimmed, name normalised
    path = data / "api_keys.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"deepseek": KEY}
    os.chmod(path, 0o644)  # someone loosened it
    settings.set_key("openai", ENV_KEY)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"deepseek": KEY, "openai": ENV_KEY}
    assert not [p for p in data.iterdir() if p.name.endswith(".tmp")]  # no temp file left behind
    assert settings.remove_key("openai") is True and settings.remove_key("openai") is False
    assert json.loads(path.read_text()) == {"deepseek": KEY}


def test_update_keeps_every_other_config_key(data) -> None:
    original = {
        "port": 9000,
        "vaults": {"notes": {"path": "/srv/notes"}},
        "ai_default_models": {"gemini": "gemini-2.5-pro"},
    }
    write_json(data / "config.json", original)
    os.chmod(data / "config.json", 0o640)
    settings = AISettings(data, {})
    status = settings.update(ai_default_provider="ollama", ai_default_models={"ollama": "qwen3", "gemini": None})
    stored = json.loads((data / "config.json").read_text())
    assert stored == {"port": 9000, "vaults": {"notes": {"path": "/srv/notes"}}, "ai_default_provider": "ollama",
                      "ai_default_models": {"ollama": "qwen3"}}  # fmt: skip
    assert stat.S_IMODE((data / "config.json").stat().st_mode) == 0o640  # its mode is kept too
    assert (status["default_provider"], status["default_provider_source"]) == ("ollama", "config")
    assert settings.resolve().model == "qwen3"
    settings.update(ai_default_provider=None)
    assert "ai_default_provider" not in json.loads((data / "config.json").read_text())
    assert settings.default_provider() == ("deepseek", "builtin")


def test_update_validates_everything_before_writing(data) -> None:
    write_json(data / "config.json", {"port": 9000})
    settings = AISettings(data, {})
    for bad in (
        {"ai_default_provider": "claude"},
        {"ai_default_models": {"openai": "ok", "nope": "x"}},
        {"ai_default_models": {"openai": "has space"}},
        {"ai_base_urls": {"custom": "ftp://host/v1"}},
        {"ai_base_urls": {"custom": "http://user:pw@host/v1"}},
        {"ai_default_provider": "openai", "keys": {"openai": "two words"}},
    ):
        with pytest.raises(BadRequest) as caught:
            settings.update(**bad)
        assert caught.value.code == "invalid_argument"
        assert "two words" not in caught.value.message and "pw@" not in caught.value.message
    assert json.loads((data / "config.json").read_text()) == {"port": 9000}
    assert not (data / "api_keys.json").exists()


def test_an_unreadable_config_is_never_overwritten(data) -> None:
    (data / "config.json").write_text("{ half-written", encoding="utf-8")
    settings = AISettings(data, {"DEEPSEEK_API_KEY": ENV_KEY})
    assert settings.resolve().name == "deepseek"  # reads keep going on the last good values (none here)
    with pytest.raises(Unavailable):
        settings.update(ai_default_provider="openai")
    assert (data / "config.json").read_text() == "{ half-written"


def test_hot_reload_after_a_file_change(data) -> None:
    env = {"DEEPSEEK_API_KEY": ENV_KEY, "GEMINI_API_KEY": ENV_KEY}
    settings = AISettings(data, env)
    assert settings.resolve().name == "deepseek"
    bump(data / "config.json", {"ai_default_provider": "gemini", "ai_default_models": {"gemini": "gemini-2.5-pro"}})
    assert (settings.resolve().name, settings.resolve().model) == ("gemini", "gemini-2.5-pro")
    bump(data / "api_keys.json", {"gemini": KEY})
    assert settings.resolve().api_key == KEY
    (data / "config.json").write_text("{ broken", encoding="utf-8")  # an editor mid-save: last good values kept
    assert settings.resolve().name == "gemini"
    (data / "config.json").unlink()
    assert settings.resolve().name == "deepseek"
    other = AISettings(data, env)  # another process (the CLI) writes: this one sees it at once
    other.update(ai_default_provider="gemini")
    assert settings.resolve().name == "gemini"


def test_concurrent_updates_lose_nothing(data) -> None:
    settings = AISettings(data, {})
    names = list(PROVIDERS)

    def work(i: int) -> None:
        settings.update(ai_default_models={names[i % len(names)]: f"model-{i % len(names)}"})

    threads = [threading.Thread(target=work, args=(i,)) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert json.loads((data / "config.json").read_text())["ai_default_models"] == {
        n: f"model-{i}" for i, n in enumerate(names)
    }


@pytest.mark.parametrize("key", ["abcd", "0123456789a", "0123456789ab", KEY, "x" * 300])
def test_a_masked_key_never_shows_more_than_4_chars(key: str) -> None:
    shown = mask_key(key)
    assert shown is not None
    revealed = shown.removeprefix("…") if shown != "set" else ""
    assert len(revealed) <= 4 and (not revealed or key.endswith(revealed))
    assert key not in shown
    assert mask_key(None) is None and mask_key("") is None


def test_status_shape_and_no_key_anywhere(data) -> None:
    write_json(data / "api_keys.json", {"openai": KEY, "gemini": "short"})
    env = {"DEEPSEEK_API_KEY": ENV_KEY, "CUSTOM_BASE_URL": "http://bob:hunter2@10.0.0.5:8000/v1"}
    status = AISettings(data, env).status()
    text = json.dumps(status)
    assert KEY not in text and ENV_KEY not in text and "short" not in text and "hunter2" not in text
    by_name = {p["name"]: p for p in status["providers"]}
    assert list(by_name) == list(PROVIDERS)
    assert by_name["openai"]["key"] == "…CRET" and by_name["gemini"]["key"] == "set"
    assert by_name["deepseek"]["key_source"] == "env" and by_name["deepseek"]["configured"]
    assert by_name["ollama"]["configured"] and by_name["ollama"]["key"] is None
    assert not by_name["openrouter"]["configured"] and "OPENROUTER_API_KEY" in by_name["openrouter"]["problem"]
    assert not by_name["custom"]["configured"]  # user info in a base URL is refused...
    assert by_name["custom"]["base_url"] == "http://***@10.0.0.5:8000/v1"  # ...and never shown
    assert status["default_provider"] == "deepseek" and status["default_configured"] is True


def test_two_writers_on_one_data_dir_lose_nothing(data) -> None:
    """The CLI and a running server are two AISettings over the same files: the file lock orders them."""
    first, second = AISettings(data, {}), AISettings(data, {})
    names = list(PROVIDERS)

    def work(i: int) -> None:
        writer = first if i % 2 else second
        writer.update(ai_default_models={names[i % len(names)]: f"m{i}"}, keys={names[i % len(names)]: f"{KEY}{i}"})
        writer.remove_key(names[(i + 1) % len(names)]) if i % 5 == 0 else None

    threads = [threading.Thread(target=work, args=(i,)) for i in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    models = json.loads((data / "config.json").read_text())["ai_default_models"]
    assert set(models) == set(names)  # every provider's last write is there
    assert stat.S_IMODE((data / "api_keys.json").stat().st_mode) == 0o600


def test_a_bad_hand_edited_model_is_reported_not_sent(data) -> None:
    write_json(data / "config.json", {"ai_default_models": {"ollama": "two words"}})
    settings = AISettings(data, {})
    with pytest.raises(ProviderError) as caught:
        settings.resolve("ollama")
    assert caught.value.code == "provider_not_configured" and "ai_default_models.ollama" in caught.value.message
    assert settings.resolve("ollama", "llama3.1").model == "llama3.1"  # a request's own model still works
    entry = next(p for p in settings.status()["providers"] if p["name"] == "ollama")
    assert entry["configured"] is False and "ai_default_models.ollama" in entry["problem"]


def test_an_unreadable_key_file_stops_the_whole_update(data) -> None:
    write_json(data / "config.json", {"port": 1})
    (data / "api_keys.json").write_text("not json", encoding="utf-8")
    with pytest.raises(Unavailable):
        AISettings(data, {}).update(ai_default_provider="openai", keys={"openai": KEY})
    assert json.loads((data / "config.json").read_text()) == {"port": 1}


@pytest.mark.parametrize(
    "url",
    [
        "http://169.254.169.254/latest",
        "http://[fe80::1]:8080/v1",
        "http://[::ffff:169.254.169.254]/v1",
        "http://metadata.google.internal/v1",
    ],
)
def test_a_base_url_at_a_link_local_or_metadata_address_is_refused(url: str) -> None:
    with pytest.raises(BadRequest, match="link-local"):
        validate_base_url(url)


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:11434/v1", "http://192.168.1.20:8080/v1", "https://api.deepseek.com/v1"]
)
def test_loopback_private_and_public_base_urls_are_kept(url: str) -> None:
    assert validate_base_url(url) == url


@pytest.mark.parametrize(("name", "url", "local"), [
    ("custom", "http://127.0.0.1:8080/v1", True),  # llama-cpp-python's server on this machine
    ("custom", "http://localhost:8080/v1", True),
    ("custom", "http://[::1]:8080/v1", True),
    ("custom", "http://192.168.1.20:8080/v1", True),
    ("custom", "http://10.0.0.7:8000/v1", True),
    ("custom", "http://llama:8080/v1", True),  # a container's service name
    ("custom", "http://gpu-box.lan:8080/v1", True),
    ("ollama", "https://ollama.example.com/v1", True),  # Ollama is an engine wherever it runs
    ("custom", "https://api.together.xyz/v1", False),
    ("deepseek", "https://api.deepseek.com/v1", False),
    ("custom", "http://8.8.8.8/v1", False),
    ("custom", "not a url", False),
])  # fmt: skip
def test_local_engines_are_told_from_hosted_apis(name: str, url: str, local: bool) -> None:
    assert is_local_engine(name, url) is local


def test_a_local_engine_gets_the_local_timeout_and_a_longer_turn(data) -> None:
    env = {"CUSTOM_BASE_URL": "http://127.0.0.1:8080/v1", "CUSTOM_MODEL": "smollm2", "DEEPSEEK_API_KEY": ENV_KEY}
    settings = AISettings(data, env, timeout_s=60.0, local_timeout_s=900.0)
    local = settings.resolve("custom")
    assert (local.local, local.timeout_s, local.local_timeout_s, local.turn_timeout_s) == (True, 60.0, 900.0, 1800.0)
    assert (local.read_timeout_s(stream=True), local.read_timeout_s(stream=False)) == (60.0, 900.0)
    hosted = settings.resolve("deepseek")
    assert (hosted.local, hosted.turn_timeout_s, hosted.read_timeout_s(stream=False)) == (False, 600.0, 60.0)
    assert AISettings(data, env, local_timeout_s=30.0).resolve("custom").turn_timeout_s == 600.0  # never shorter
