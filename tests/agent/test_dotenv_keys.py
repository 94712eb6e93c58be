"""Provider keys from ``<data-dir>/.env`` (seeds §2.3): ``api_keys.json`` > ``.env`` > the environment, on real
files; hot reload, what is read from the file and what is refused, and that no value reaches the log."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from obsigate.agent.providers.base import ProviderError
from obsigate.agent.settings import AISettings

FILE_KEY = "sk-file-0123456789abcdefFILE"
DOTENV_KEY = "sk-dotenv-0123456789abcdDOTENV"
ENV_KEY = "sk-env-9876543210zyxwvuENVKEY"


@pytest.fixture
def data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    return folder


def write(path: Path, text: str) -> None:
    """Write ``path`` with a visibly new mtime (a hand edit, seen by the next read)."""
    path.write_text(text, encoding="utf-8")
    os.chmod(path, 0o600)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


def key_of(settings: AISettings, provider: str = "deepseek") -> tuple[str | None, str | None]:
    """``(resolved key, key_source from status())``."""
    entry = next(p for p in settings.status()["providers"] if p["name"] == provider)
    return settings.resolve(provider).api_key, entry["key_source"]


@pytest.mark.parametrize(
    ("in_file", "in_dotenv", "in_env", "expected", "source"),
    [
        (True, True, True, FILE_KEY, "file"),
        (False, True, True, DOTENV_KEY, "dotenv"),
        (False, False, True, ENV_KEY, "env"),
        (True, False, True, FILE_KEY, "file"),
        (False, True, False, DOTENV_KEY, "dotenv"),
    ],
)
def test_key_precedence_file_then_dotenv_then_environment(data, in_file, in_dotenv, in_env, expected, source) -> None:
    if in_file:
        (data / "api_keys.json").write_text(json.dumps({"deepseek": FILE_KEY}))
        os.chmod(data / "api_keys.json", 0o600)
    if in_dotenv:
        write(data / ".env", f"# provider keys\nexport DEEPSEEK_API_KEY='{DOTENV_KEY}'\n")
    env = {"DEEPSEEK_API_KEY": ENV_KEY} if in_env else {}
    assert key_of(AISettings(data, env)) == (expected, source)


def test_dotenv_is_re_read_when_it_changes_and_its_removal_falls_back_to_the_environment(data) -> None:
    settings = AISettings(data, {"OPENAI_API_KEY": ENV_KEY})
    assert key_of(settings, "openai") == (ENV_KEY, "env")
    write(data / ".env", f'OPENAI_API_KEY="{DOTENV_KEY}"\n')
    assert key_of(settings, "openai") == (DOTENV_KEY, "dotenv")
    write(data / ".env", "OPENAI_API_KEY=sk-second-0123456789abcdef\n")
    assert key_of(settings, "openai") == ("sk-second-0123456789abcdef", "dotenv")
    (data / ".env").unlink()
    assert key_of(settings, "openai") == (ENV_KEY, "env")


def test_only_the_keys_are_read_and_values_are_taken_as_written(data) -> None:
    write(
        data / ".env",
        "AI_DEFAULT_PROVIDER=openai\nDEEPSEEK_MODEL=from-dotenv\nGEMINI_API_KEY=${HOME}-literal-key-0000\n"
        "OPENROUTER_API_KEY\nbroken line without equals sign but with spaces\nOPENAI_API_KEY=  \n",
    )
    settings = AISettings(data, {"OPENAI_API_KEY": ENV_KEY})
    status = settings.status()
    assert status["default_provider"] == "deepseek"  # AI_DEFAULT_PROVIDER in .env is not a setting
    deepseek = next(p for p in status["providers"] if p["name"] == "deepseek")
    assert deepseek["default_model"] != "from-dotenv" and deepseek["key"] is None
    assert settings.resolve("gemini").api_key == "${HOME}-literal-key-0000"  # no expansion from the environment
    openrouter = next(p for p in status["providers"] if p["name"] == "openrouter")
    assert openrouter["key"] is None and not openrouter["configured"]  # a name without "=" is no key
    assert key_of(settings, "openai") == (ENV_KEY, "env")  # a blank value is no key


def test_a_symlinked_oversized_or_undecodable_dotenv_is_not_used_and_no_value_is_logged(data, tmp_path, caplog) -> None:
    elsewhere = tmp_path / "elsewhere.env"
    elsewhere.write_text(f"DEEPSEEK_API_KEY={DOTENV_KEY}\n")
    (data / ".env").symlink_to(elsewhere)
    caplog.set_level(logging.DEBUG)
    settings = AISettings(data, {})
    with pytest.raises(ProviderError) as refused:
        settings.resolve("deepseek")
    assert refused.value.code == "provider_not_configured" and ".env" in refused.value.message
    (data / ".env").unlink()

    write(data / ".env", f"DEEPSEEK_API_KEY={DOTENV_KEY}\n")
    assert key_of(settings) == (DOTENV_KEY, "dotenv")
    write(data / ".env", f"DEEPSEEK_API_KEY={DOTENV_KEY}\n" + "#" * 70_000)
    assert key_of(settings) == (DOTENV_KEY, "dotenv")  # a file past the cap keeps the last good values
    (data / ".env").write_bytes(b"DEEPSEEK_API_KEY=\xff\xfe\n")
    assert key_of(settings) == (DOTENV_KEY, "dotenv")
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("larger than" in w for w in warnings) and any("cannot be used" in w for w in warnings)
    assert DOTENV_KEY not in caplog.text and "sk-dotenv" not in caplog.text


def test_a_dotenv_others_may_read_is_used_with_a_warning(data, caplog) -> None:
    write(data / ".env", f"DEEPSEEK_API_KEY={DOTENV_KEY}\n")
    os.chmod(data / ".env", 0o644)
    with caplog.at_level(logging.WARNING):
        assert key_of(AISettings(data, {})) == (DOTENV_KEY, "dotenv")
    assert "chmod 600" in caplog.text and DOTENV_KEY not in caplog.text
    assert (data / ".env").stat().st_mode & 0o777 == 0o644  # the admin's file is left as it is
