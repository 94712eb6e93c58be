"""Skills and slash commands in the assistant panel, in a real browser against a real ObsiGate (auth on) whose
provider is the scripted fake (issue 18 item 2): the picker and the create/edit/delete form, each slash command
with its completion, an admin's /provider and /model changing the server's defaults, and a non-admin's refusals."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx2
import pytest
from conftest import LiveServer
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, running, use_fake
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings

from .conftest import PASSWORD


@dataclass
class App:
    url: str
    fake: FakeLLM
    server: LiveServer

    def bearer(self, user: str) -> dict[str, str]:
        auth = self.server.app.state.auth
        return {"Authorization": f"Bearer {auth.tokens.issue(auth.users.get_user(user))}"}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """One server for the module: ``ada`` (admin) and ``bo`` (not), the providers pointed at the fake."""
    root = tmp_path_factory.mktemp("web-skills")
    vault = write_tree(root / "vault", SMALL_VAULT)
    with running() as fake, pytest.MonkeyPatch.context() as env:
        use_fake(env, fake)
        settings = load_settings(data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}},
                                 auth_enabled=True, tool_rate_limit=10_000)  # fmt: skip
        server = LiveServer(settings).start()
        try:
            server.wait_ready()
            users = server.app.state.auth.users
            users.add_user("ada", PASSWORD, admin=True, vaults=None)
            users.add_user("bo", PASSWORD, vaults=["notes"])
            yield App(server.url, fake, server)
        finally:
            server.stop()


def _open_panel(page: Any, url: str, user: str) -> None:
    page.goto(f"{url}/#/v/notes/Ideas.md")
    page.watch.expect("401")  # the page asks who is there before signing in
    page.fill("#login-user", user)
    page.fill("#login-pass", PASSWORD)
    page.click("form button[type=submit]")
    page.wait_for_selector("#assistant-btn")
    page.click("#assistant-btn")
    page.wait_for_selector("#as-skill option >> nth=4", state="attached")  # the skills are loaded


def _command(page: Any, line: str, *, button: bool = False) -> Any:
    """Type ``line`` and press Enter (or click Send); the locator of the answer it adds to the conversation."""
    before = page.locator(".assistant-log .slash-out").count()
    page.fill(".assistant textarea", line)
    if button:
        page.click(".assistant-input button[type=submit]")
    else:
        page.press(".assistant textarea", "Enter")
    answer = page.locator(".assistant-log .slash-out").nth(before)
    answer.wait_for()
    return answer


def test_an_admin_manages_skills_and_runs_every_command(page: Any, app: App) -> None:
    _open_panel(page, app.url, "ada")
    box = ".assistant textarea"
    # completion: "/" lists the commands; Enter on "/help" runs it
    page.fill(box, "/")
    page.wait_for_selector("#as-slash:not([hidden])")
    assert page.locator("#as-slash .slash-label").all_inner_texts() == [
        "/help", "/skill <id|off>", "/providers", "/provider <name>", "/model <id>", "/keys"]  # fmt: skip
    page.type(box, "he")
    assert page.locator("#as-slash .slash-label").all_inner_texts() == ["/help"]
    page.press(box, "Enter")
    page.wait_for_selector(".slash-out >> text=/providers")
    assert "/skill summarize" in page.inner_text(".assistant-log") and page.input_value(box) == ""
    assert page.locator(".slash-out .badge").count() == 0  # an admin has every command
    # Enter runs a whole command as typed, not the list's highlighted item: /provider is not /providers, and
    # "/skill " with the skills listed is /skill without its argument
    for line, usage in (("/provider", "Usage: /provider <name>"), ("/skill   ", "Usage: /skill <id|off>")):
        page.fill(box, line)
        page.wait_for_selector("#as-slash:not([hidden]) [aria-selected=true]")
        page.press(box, "Enter")
        page.wait_for_selector(f".slash-out[role=alert] >> text={usage}")
    assert page.input_value("#as-skill") == "" and "Providers" not in page.inner_text(".assistant-log")

    # the form: create, a refused built-in id, edit
    page.click("#as-skills")
    page.wait_for_selector("#as-skills-manager >> text=You have no skills of your own yet.")
    page.click("#as-skill-new")
    page.fill(".skill-form [name=id]", "summarize")
    page.fill(".skill-form [name=description]", "Mine")
    page.fill(".skill-form [name=prompt]", "Nope.")
    page.watch.expect("409")  # the browser's own log of the refusal below
    page.click(".skill-form button[type=submit]")
    page.wait_for_selector(".skill-form .error >> text=built-in skill")
    page.fill(".skill-form [name=id]", "pirate")
    page.fill(".skill-form [name=icon]", "🏴‍☠️")
    page.fill(".skill-form [name=description]", "Talk like a pirate")
    page.fill(".skill-form [name=prompt]", "Answer like a pirate, arr.")
    page.click(".skill-form button[type=submit]")
    page.wait_for_selector(".slash-out >> text=Skill “pirate” saved.")
    page.click(".skill[data-id=pirate] .skill-edit")
    assert page.get_attribute(".skill-form [name=id]", "readonly") is not None
    page.fill(".skill-form [name=description]", "Speak as a pirate")
    page.click(".skill-form button[type=submit]")
    page.wait_for_selector(".skill[data-id=pirate] >> text=Speak as a pirate")
    assert "🏴‍☠️ pirate" in page.locator("#as-skill option").all_inner_texts()
    page.click("#as-skills")  # closes the manager

    # /skill by completion, then a message: the skill's prompt reaches the provider; "//" sends a leading "/"
    page.fill(box, "/skill p")
    page.wait_for_selector("#as-slash >> text=🏴‍☠️ pirate")
    page.press(box, "Enter")
    page.wait_for_selector(".slash-out >> text=Skill 🏴‍☠️ pirate is on for the next messages.")
    assert page.input_value("#as-skill") == "pirate"
    app.fake.add(o.stream_text(["Arr, ", "matey."]))
    page.uncheck("#as-agent")
    page.fill(box, "//etc is a folder?")
    page.click(".assistant-input button[type=submit]")
    page.wait_for_selector(".msg.assistant >> text=Arr, matey.")
    sent = app.fake.requests[-1].json["messages"]
    assert "Skill:\nAnswer like a pirate, arr." in sent[0]["content"]
    assert sent[-1] == {"role": "user", "content": "/etc is a folder?"}
    assert "unknown skill" not in _command(page, "/skill nope").inner_text()
    assert "No skill “nope”" in page.locator(".slash-out").last.inner_text()
    _command(page, "/skill off")
    assert page.input_value("#as-skill") == ""

    # the admin commands
    providers = _command(page, "/providers").inner_text()
    assert (
        "✓ Custom OpenAI-compatible server (custom) · default · model fake-model" in providers
        and "✕ DeepSeek (deepseek)" in providers
    )
    keys = _command(page, "/keys").inner_text()
    assert "Gemini (gemini): …0000 · GEMINI_API_KEY in the environment" in keys and "gemini-test-key" not in keys
    assert "Ollama (local) (ollama): none needed" in keys
    _command(page, "/provider gemini")
    page.wait_for_selector(".slash-out >> text=The default provider is now Google Gemini (gemini), for everyone")
    assert page.input_value(".assistant-bar select[aria-label=Provider]") == "gemini"
    _command(page, "/model gemini-2.5-pro")
    page.wait_for_selector(".slash-out >> text=The default model of gemini is now gemini-2.5-pro")
    assert page.input_value(".assistant-bar select[aria-label=Model]") == "gemini-2.5-pro"
    status = httpx2.get(f"{app.url}/api/ai/status", headers=app.bearer("ada")).json()
    gemini = next(p for p in status["providers"] if p["name"] == "gemini")
    assert status["default_provider"] == "gemini" and gemini["default_model"] == "gemini-2.5-pro"
    assert "No provider “nope”" in _command(page, "/provider nope").inner_text()
    assert "Usage: /model <id>" in _command(page, "/model", button=True).inner_text()
    assert "Unknown command /bogus" in _command(page, "/bogus").inner_text()
    httpx2.post(f"{app.url}/api/config", json={"ai_default_provider": None, "ai_default_models": {"gemini": None}},
                headers=app.bearer("ada")).raise_for_status()  # fmt: skip

    # delete from the manager: the picker forgets it
    page.click("#as-skills")
    page.click(".skill[data-id=pirate] .skill-delete")
    page.click("dialog.confirm button.primary")
    page.wait_for_selector(".slash-out >> text=Skill “pirate” deleted.")
    assert "🏴‍☠️ pirate" not in page.locator("#as-skill option").all_inner_texts()
    assert page.watch.problems() == []


def test_a_non_admin_is_refused_the_admin_commands_and_never_sees_anothers_skills(page: Any, app: App) -> None:
    mine = {"id": "adas-own", "description": "Ada's", "prompt": "Only Ada."}
    httpx2.post(f"{app.url}/api/ai/skills", json=mine, headers=app.bearer("ada")).raise_for_status()
    before = httpx2.get(f"{app.url}/api/ai/status", headers=app.bearer("ada")).json()
    _open_panel(page, app.url, "bo")
    assert "✨ adas-own" not in page.locator("#as-skill option").all_inner_texts()
    page.fill(".assistant textarea", "/pro")
    page.wait_for_selector("#as-slash .badge >> text=admins only")
    page.press(".assistant textarea", "Escape")
    for line in ("/providers", "/provider gemini", "/model x", "/keys"):
        refused = _command(page, line)
        assert refused.get_attribute("role") == "alert"
        assert f"{line.split()[0]} is for administrators only." in refused.inner_text()
    assert page.locator(".slash-out .badge").count() == 0
    help_text = _command(page, "/help")
    assert help_text.locator(".badge").count() == 4  # the four admin commands, marked
    assert "/skill adas-own" not in page.inner_text(".assistant-log")
    assert "No skill “adas-own”" in _command(page, "/skill adas-own").inner_text()
    assert httpx2.get(f"{app.url}/api/ai/status", headers=app.bearer("ada")).json() == before  # nothing changed

    # a skill deleted elsewhere while chosen here: the refusal is said in the conversation, the picker reset
    page.click("#as-skills")
    page.click("#as-skill-new")
    for name, value in (("id", "ghost"), ("description", "Soon gone"), ("prompt", "Boo.")):
        page.fill(f".skill-form [name={name}]", value)
    page.click(".skill-form button[type=submit]")
    page.wait_for_selector("#as-skill option[value=ghost]", state="attached")
    page.click("#as-skills")
    page.select_option("#as-skill", "ghost")
    httpx2.delete(f"{app.url}/api/ai/skills/ghost", headers=app.bearer("bo")).raise_for_status()
    page.uncheck("#as-agent")
    page.watch.expect("400")
    asked = len(app.fake.requests)
    page.fill(".assistant textarea", "Hello?")
    page.click(".assistant-input button[type=submit]")
    said = page.wait_for_selector(".slash-out[role=alert] >> text=no longer exists").inner_text()
    assert "“ghost”" in said and page.input_value("#as-skill") == ""
    assert len(app.fake.requests) == asked
    assert page.watch.problems() == []
