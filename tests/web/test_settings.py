"""The settings page in a real browser against a real ObsiGate (issue 11 item 8): an admin sets a provider's key,
base URL and default model and tests it against the fake provider; turns a vault's dangerous AI tools off;
creates a user with a vault grant and an API key (shown once), then revokes it. A non-admin sees only the
preferences and their own files, and the admin API refuses them. Preferences: theme, language, editor options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2
import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake

from .conftest import PASSWORD

KEY = "sk-browser-0123456789abcdefWXYZ"


@pytest.fixture
def admin_server(live_server: Any, web_vault: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Auth on; ``root`` (admin, every vault) and ``alice`` (notes only), both with :data:`PASSWORD`; the
    providers' environment pointed at the fake."""
    use_fake(monkeypatch, fake)
    server = live_server({"notes": web_vault}, auth_enabled=True)
    users = server.app.state.auth.users
    users.add_user("root", PASSWORD, admin=True, vaults=None)
    users.add_user("alice", PASSWORD, vaults=["notes"])
    return server


def _sign_in(page: Any, url: str, user: str, tab: str = "prefs") -> None:
    page.goto(f"{url}/#/settings?tab={tab}")
    page.watch.expect("401")  # the page asks who is there before signing in
    page.fill("#login-user", user)
    page.fill("#login-pass", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector(".settings-view h1")


def _bearer(server: Any, user: str) -> dict[str, str]:
    auth = server.app.state.auth
    return {"Authorization": f"Bearer {auth.tokens.issue(auth.users.get_user(user))}"}


def test_an_admin_sets_a_provider_tests_it_and_makes_it_the_default(
    page: Any, admin_server: Any, fake: FakeLLM
) -> None:
    _sign_in(page, admin_server.url, "root", "ai")
    page.wait_for_selector("#cfg-ai #provider-openai")
    assert page.locator(".settings-tab").all_inner_texts() == [
        "Preferences",
        "Your files",
        "AI",
        "Vaults",
        "Users & API keys",
    ]
    page.fill("#key-openai", KEY)
    page.click("#key-save-openai")
    page.wait_for_selector("#key-state-openai >> text=…WXYZ")
    assert KEY not in page.content() and page.input_value("#key-openai") == ""
    page.fill("#url-openai", f"{fake.base_url}/v1")
    page.fill("#model-openai", "fake-model")
    page.click("#save-openai")
    page.wait_for_selector('#model-openai[value="fake-model"]')  # the card redrawn from the server's answer
    # Test: one tiny call against the fake, ok, then a refused key
    fake.add(o.plain("ok"))
    page.click("#test-openai")
    page.wait_for_selector("#test-result-openai.ok")
    assert "fake-model" in page.inner_text("#test-result-openai")
    sent = fake.requests[-1]
    assert sent.headers["authorization"] == f"Bearer {KEY}" and sent.json["max_completion_tokens"] == 16
    fake.add(o.unauthorized())
    page.click("#test-openai")
    page.wait_for_selector("#test-result-openai.fail")
    assert "provider_auth_failed" in page.inner_text("#test-result-openai")
    # the default provider and model, with the model's capability badges
    page.select_option("#ai-default-provider", "openai")
    assert page.input_value("#ai-default-model") == "fake-model"
    assert "chat" in page.inner_text(".ai-defaults .caps")
    page.click("#ai-save-defaults")
    page.wait_for_selector("#ai-default-now >> text=OpenAI · fake-model")
    config = httpx2.get(f"{admin_server.url}/api/config", headers=_bearer(admin_server, "root")).json()
    assert config["ai_default_provider"] == "openai" and config["ai_default_models"]["openai"] == "fake-model"
    assert KEY not in str(config)
    status = httpx2.get(f"{admin_server.url}/api/ai/status", headers=_bearer(admin_server, "alice")).json()
    assert status["default_provider"] == "openai" and status["default_configured"] is True
    used = admin_server.app.state.ai_settings.resolve()  # what the assistant's next request uses
    assert (used.name, used.model, used.api_key) == ("openai", "fake-model", KEY)
    # remove the stored key: openai is no longer configured
    page.click("#key-remove-openai")
    page.click("dialog.confirm button.primary")
    page.wait_for_selector("#provider-openai .chip.warn")
    assert admin_server.app.state.ai_settings.status()["default_configured"] is False
    assert page.watch.problems() == []


def test_an_admin_turns_dangerous_ai_tools_off_for_a_vault(page: Any, admin_server: Any) -> None:
    _sign_in(page, admin_server.url, "root", "vaults")
    switch = page.wait_for_selector("#destructive-notes")
    assert switch.is_checked() and switch.get_attribute("role") == "switch"
    switch.click()
    page.wait_for_selector(".toast >> text=Dangerous AI tools are off for notes.")
    assert admin_server.app.state.runtime.workspace.destructive["notes"] is False  # in force for the next tool call
    vaults = httpx2.get(f"{admin_server.url}/api/vaults", headers=_bearer(admin_server, "alice")).json()["vaults"]
    assert vaults[0]["destructive_tools"] is False
    page.reload()
    assert not page.wait_for_selector("#destructive-notes").is_checked()  # kept on the server
    assert page.watch.problems() == []


def test_an_admin_creates_a_user_and_a_key_shown_once_then_revokes_it(page: Any, admin_server: Any) -> None:
    _sign_in(page, admin_server.url, "root", "users")
    page.wait_for_selector("#cfg-users")
    assert page.is_disabled("#user-root-delete") and page.is_disabled("#user-root-admin")  # not yourself
    page.fill("#new-user-name", "bob")
    page.fill("#new-user-pass", PASSWORD)
    page.check("#new-user-v-notes")
    page.click("#new-user-create")
    card = page.wait_for_selector('[data-user="bob"]')
    assert card.query_selector("#user-bob-v-notes").is_checked()
    login = httpx2.post(f"{admin_server.url}/api/auth/login", json={"username": "bob", "password": PASSWORD})
    bob = {"Authorization": f"Bearer {login.json()['access_token']}"}
    assert [v["name"] for v in httpx2.get(f"{admin_server.url}/api/vaults", headers=bob).json()["vaults"]] == ["notes"]
    # a key, shown once
    page.fill("#user-bob-key-label", "script")
    page.click("#user-bob-key-create")
    key = page.wait_for_selector(".key-once .key-value").input_value()
    assert key.startswith("og_")
    as_key = {"Authorization": f"Bearer {key}"}
    assert httpx2.get(f"{admin_server.url}/api/auth/me", headers=as_key).json()["name"] == "bob"
    page.click("#new-key-done")
    assert key not in page.content()
    page.reload()
    page.wait_for_selector('[data-user="bob"] .key-row')
    assert key not in page.content() and "script" in page.inner_text('[data-user="bob"] .key-row')
    # revoke: refused at once
    page.click('[data-user="bob"] .key-row button')
    page.click("dialog.confirm button.primary")
    page.wait_for_selector('[data-user="bob"] .key-row.inactive')
    assert httpx2.get(f"{admin_server.url}/api/auth/me", headers=as_key).status_code == 401
    # delete bob
    page.click("#user-bob-delete")
    page.click("dialog.confirm button.primary")
    page.wait_for_selector('[data-user="bob"]', state="detached")
    assert httpx2.get(f"{admin_server.url}/api/auth/me", headers=bob).status_code == 401
    assert page.watch.problems() == []


def test_a_non_admin_sees_only_the_preferences_and_the_admin_api_refuses(page: Any, admin_server: Any) -> None:
    _sign_in(page, admin_server.url, "alice", "ai")
    page.wait_for_selector("#cfg-prefs")
    assert page.query_selector("#cfg-ai") is None
    assert page.locator(".settings-tab").all_inner_texts() == ["Preferences", "Your files"]  # everyone has files
    page.watch.expect("403")  # the browser logs the refused requests below
    statuses = page.evaluate("""async () => Promise.all([
        fetch('/api/config').then(r => r.status),
        fetch('/api/admin/users').then(r => r.status),
        fetch('/api/config', {method: 'POST', headers: {'Content-Type': 'application/json'},
                              body: JSON.stringify({ai_destructive_tools: {notes: false}})}).then(r => r.status),
        fetch('/api/ai/test', {method: 'POST', headers: {'Content-Type': 'application/json'},
                               body: JSON.stringify({provider: 'custom'})}).then(r => r.status),
    ])""")
    assert statuses == [403, 403, 403, 403]
    assert admin_server.app.state.runtime.workspace.destructive["notes"] is True
    assert page.watch.problems() == []


def test_preferences_theme_language_and_editor(page: Any, open_server: Any) -> None:
    page.goto(f"{open_server.url}/#/settings")
    page.wait_for_selector("#cfg-prefs")
    # auth off: the local owner is the admin
    assert page.locator(".settings-tab").count() == 5
    page.check("#pref-theme-dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.evaluate("localStorage.getItem('obsigate.theme')") == "dark"
    assert "dark" in page.get_attribute("#theme-btn", "aria-label")  # the top bar follows
    page.click("#theme-btn")  # and the other way round: dark → system
    assert page.is_checked("#pref-theme-system")
    page.check("#pref-theme-light")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    # editor options, read by the editor when it opens
    page.uncheck("#pref-lines")
    page.uncheck("#pref-wrap")
    page.select_option("#pref-font", "18")
    # language: the page and the top bar switch at once
    page.check("#pref-lang-fr")
    page.wait_for_selector(".settings-view h1 >> text=Paramètres")
    assert page.evaluate("document.documentElement.lang") == "fr" and page.input_value("#lang-select") == "fr"
    assert page.is_checked("#pref-lang-fr") and page.is_checked("#pref-theme-light")
    page.goto(f"{open_server.url}/#/v/notes/Ideas.md")
    page.click("#edit-note")
    editor = page.wait_for_selector(".editor-box .cm-editor")
    assert "cm-no-line-numbers" in editor.get_attribute("class")
    assert not page.is_visible(".editor-box .cm-lineNumbers")
    assert "cm-lineWrapping" not in page.get_attribute(".editor-box .cm-content", "class")
    assert page.evaluate("getComputedStyle(document.querySelector('.editor-box .cm-editor')).fontSize") == "18px"
    page.goto(f"{open_server.url}/#/settings?tab=users")
    page.wait_for_selector("#cfg-users .notice")  # auth off: accounts wait for it to be on
    assert page.watch.problems() == []
