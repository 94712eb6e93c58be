"""`obsigate ai status` and `obsigate ai key set/remove` as a user runs them (in process: ``cli_runner``)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest
from cli_runner import Ran, run_cli

from obsigate.agent.providers.catalog import PROVIDERS

KEY = "sk-cli-0123456789abcdefghWXYZ"


def run(*args: str, data: Path, stdin: str | None = None, env: dict[str, str] | None = None) -> Ran:
    """The command without the providers' settings of the machine's environment, only ``env``'s."""
    unset: dict[str, str | None] = {
        k: None for k in os.environ if k.endswith(("_API_KEY", "_BASE_URL", "_MODEL")) or k == "AI_DEFAULT_PROVIDER"
    }
    return run_cli(*args, data=data, stdin=stdin, env={**unset, "COLUMNS": "80", **(env or {})})


def test_key_set_from_stdin_then_status_shows_the_last_4_only(tmp_path: Path) -> None:
    data = tmp_path / "data"
    r = run("ai", "key", "set", "DeepSeek", data=data, stdin=f"{KEY}\n")
    assert r.returncode == 0, r.stderr
    assert KEY not in r.stdout + r.stderr
    assert json.loads((data / "api_keys.json").read_text()) == {"deepseek": KEY}
    assert stat.S_IMODE((data / "api_keys.json").stat().st_mode) == 0o600
    status = run("ai", "status", data=data)
    assert status.returncode == 0, status.stderr
    assert "…WXYZ" in status.stdout and KEY[:-4] not in status.stdout and KEY not in status.stdout
    for name in PROVIDERS:
        assert name in status.stdout
    assert "https://api.deepseek.com/v1" in status.stdout  # the table is not cut in a pipe
    as_json = json.loads(run("ai", "status", "--json", data=data).stdout)
    assert as_json["default_provider"] == "deepseek" and as_json["default_configured"] is True
    removed = run("ai", "key", "remove", "deepseek", data=data)
    assert removed.returncode == 0 and json.loads((data / "api_keys.json").read_text()) == {}


def test_status_reads_the_environment_and_marks_the_default(tmp_path: Path) -> None:
    env = {"AI_DEFAULT_PROVIDER": "gemini", "GEMINI_API_KEY": KEY, "GEMINI_MODEL": "gemini-2.5-pro"}
    status = json.loads(run("ai", "status", "--json", data=tmp_path / "data", env=env).stdout)
    gemini = next(p for p in status["providers"] if p["name"] == "gemini")
    assert (status["default_provider"], status["default_provider_source"]) == ("gemini", "env")
    assert (gemini["key"], gemini["key_source"], gemini["default_model"]) == ("…WXYZ", "env", "gemini-2.5-pro")
    table = run("ai", "status", data=tmp_path / "data", env=env).stdout
    rows = {
        line.split("│")[2].strip(): line.split("│")[1].strip() for line in table.splitlines() if line.count("│") > 3
    }
    assert rows["gemini"] == "*" and rows["deepseek"] == ""  # the default provider is marked


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("ai", "key", "set", "openai"), "", "no API key on stdin"),
        (("ai", "key", "set", "openai"), "   \n", "only spaces"),
        (("ai", "key", "set", "openai"), f"{KEY}\nsecond line\n", "one line"),
        (("ai", "key", "set", "openai"), "sk-two words-here\n", "spaces or control characters"),
        (("ai", "key", "set", "claude"), f"{KEY}\n", "unknown AI provider 'claude'"),
        (("ai", "key", "remove", "claude"), None, "known providers: deepseek"),
    ],
)
def test_bad_input_is_refused_with_a_stable_code(tmp_path: Path, args, stdin, message) -> None:
    data = tmp_path / "data"
    r = run(*args, data=data, stdin=stdin)
    assert r.returncode == 2, r.stderr
    assert "invalid_argument" in r.stderr and message in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and KEY not in r.stderr and "two words" not in r.stderr
    assert not (data / "api_keys.json").exists()
