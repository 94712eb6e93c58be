"""The server's own secrets (issue 16 item 2) on a real server: the JWT key and the API-key pepper are read once at
start from the resolved data dir and kept in memory; a broken key stops the start with the fix; the provider keys,
re-read while serving, come only from the data dir and never through a symlink (one planted towards a vault note
is refused)."""

from __future__ import annotations

import json
import os

import pytest
from support import free_port

from obsigate.auth.users import UserStore
from obsigate.bootstrap import ConfigError, create_app
from obsigate.config import load_settings


def test_the_api_key_pepper_is_kept_in_memory_from_the_start(live_server, small_vault, tmp_path) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=True)
    users: UserStore = server.app.state.auth.users
    data = server.settings.data_dir
    users.add_user("bot", None, vaults=["notes"])
    _, key = users.create_api_key("bot")
    (data / "api_key_pepper").write_text("ab" * 32 + "\n")  # changed on disk while the server runs
    assert users.verify_api_key(key) is not None  # the server keeps the pepper it read at start
    with UserStore(data / "users.sqlite3") as reopened:
        assert reopened.verify_api_key(key) is None  # a fresh read would have used the changed file


def test_a_broken_jwt_key_stops_the_start_and_names_the_fix(small_vault, tmp_path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "jwt_secret").write_text("too short\n")
    settings = load_settings(data_dir=data, port=free_port(), vaults={"notes": {"path": str(small_vault)}})
    with pytest.raises(ConfigError, match="obsigate secret rotate"):
        create_app(settings)
    (data / "jwt_secret").unlink()
    os.symlink(small_vault / "Home.md", data / "jwt_secret")  # a key file pointing into a vault
    with pytest.raises(ConfigError):
        create_app(settings)


def test_provider_keys_are_reread_from_the_data_dir_never_through_a_symlink(live_server, small_vault) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=True)
    ai = server.app.state.ai_settings
    data = server.settings.data_dir
    assert ai.data_dir == data.resolve()  # the resolved data dir, which is refused inside a vault

    def deepseek() -> dict:
        return next(p for p in ai.status()["providers"] if p["name"] == "deepseek")

    note = small_vault / "Keys.md"
    note.write_text(json.dumps({"deepseek": "sk-from-a-vault-note-9999"}))
    (data / "api_keys.json").symlink_to(note)
    assert deepseek()["key_source"] != "file"  # refused (O_NOFOLLOW): the note's text is never used as a key
    (data / "api_keys.json").unlink()
    (data / "api_keys.json").write_text(json.dumps({"deepseek": "sk-the-admins-own-1234"}))
    os.chmod(data / "api_keys.json", 0o600)
    assert deepseek()["key_source"] == "file" and deepseek()["key"].endswith("1234")  # hot reload still works
