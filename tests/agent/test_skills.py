"""Skills end to end (issue 18 item 2): ``GET/POST /api/ai/skills``, ``DELETE /api/ai/skills/{id}`` on one real
ObsiGate (auth on, two people), the file they live in, and a skill's prompt reaching the scripted fake
provider as part of the system prompt (both dialects)."""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
from conftest import LiveServer
from fakes import gemini_replies as g
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, running, use_fake
from support import SMALL_VAULT, free_port, write_tree

from obsigate.agent.skills import SKILLS, SkillInput
from obsigate.agent.user_skills import MAX_SKILLS_PER_USER, SkillBook
from obsigate.config import load_settings
from obsigate.tools.api import Unavailable

WEEKLY = {
    "id": "weekly",
    "icon": "📅",
    "description": "Weekly review",
    "prompt": "Write a weekly review: wins, misses, next.",
}


@dataclass
class Server:
    url: str
    fake: FakeLLM
    data: Path
    alice: dict[str, str]
    bob: dict[str, str]
    client: httpx2.Client

    def call(self, method: str, path: str, who: dict[str, str] | None, **kw: Any) -> httpx2.Response:
        headers = {**(who or {}), **kw.pop("headers", {})}
        return self.client.request(method, f"{self.url}{path}", headers=headers, **kw)

    def skills(self, who: dict[str, str]) -> dict[str, dict[str, Any]]:
        response = self.call("GET", "/api/ai/skills", who)
        assert response.status_code == 200, response.text
        return {s["id"]: s for s in response.json()["skills"]}

    def chat(self, who: dict[str, str], body: dict[str, Any], agent: bool = False) -> httpx2.Response:
        path = "/api/ai/bookslm/agent" if agent else "/api/ai/bookslm/chat"
        return self.call("POST", path, who, json=body, timeout=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module: ``alice`` and ``bob`` (neither admin), providers pointed at the fake."""
    root = tmp_path_factory.mktemp("skills")
    vault = write_tree(root / "vault", SMALL_VAULT)
    with running() as fake, pytest.MonkeyPatch.context() as env:
        use_fake(env, fake)
        settings = load_settings(
            data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=True,
            tool_rate_limit=10_000,
        )  # fmt: skip
        live = LiveServer(settings).start()
        try:
            live.wait_ready()
            auth = live.app.state.auth
            bearer = {n: {"Authorization": f"Bearer {auth.tokens.issue(auth.users.add_user(n, None, vaults=['notes']))}"}
                      for n in ("alice", "bob")}  # fmt: skip
            with httpx2.Client(timeout=30) as client:  # one connection kept: ~5 ms a request, not ~200
                yield Server(live.url, fake, root / "data", bearer["alice"], bearer["bob"], client)
        finally:
            live.stop()


def test_each_person_creates_updates_lists_and_deletes_only_their_own(server: Server) -> None:
    s = server
    listed = s.skills(s.alice)
    assert list(listed)[: len(SKILLS)] == list(SKILLS) and all(x["builtin"] for x in listed.values())
    assert listed["summarize"]["icon"] and listed["summarize"]["prompt"] == SKILLS["summarize"].prompt

    created = s.call("POST", "/api/ai/skills", s.alice, json=WEEKLY)
    assert created.status_code == 201 and created.json() == {"skill": {**WEEKLY, "builtin": False}, "created": True}
    assert s.skills(s.alice)["weekly"] == {**WEEKLY, "builtin": False}
    assert "weekly" not in s.skills(s.bob)  # never another person's

    changed = s.call("POST", "/api/ai/skills", s.alice, json={**WEEKLY, "prompt": "  Shorter review.  "})
    assert changed.status_code == 200 and changed.json()["created"] is False
    assert s.skills(s.alice)["weekly"]["prompt"] == "Shorter review."  # trimmed
    no_icon = s.call(
        "POST", "/api/ai/skills", s.bob, json={"id": "weekly", "description": "Bob's", "prompt": "Bob's way."}
    )
    assert no_icon.status_code == 201 and no_icon.json()["skill"]["icon"] == "✨"
    assert s.skills(s.alice)["weekly"]["prompt"] == "Shorter review."  # the same id, two people, two skills

    stored = json.loads((s.data / "skills.json").read_text(encoding="utf-8"))
    assert set(stored["users"]) == {"alice", "bob"} and stored["users"]["alice"]["weekly"]["icon"] == "📅"
    assert stat.S_IMODE((s.data / "skills.json").stat().st_mode) == 0o600

    assert s.call("DELETE", "/api/ai/skills/weekly", s.bob).json() == {"deleted": "weekly"}  # Bob's own
    assert "weekly" in s.skills(s.alice)
    gone = s.call("DELETE", "/api/ai/skills/weekly", s.bob)
    assert gone.status_code == 404 and gone.json()["code"] == "not_found"
    assert s.call("DELETE", "/api/ai/skills/weekly", s.alice).status_code == 200
    assert "weekly" not in s.skills(s.alice)
    assert "bob" not in json.loads((s.data / "skills.json").read_text())["users"]  # nothing left of him


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code"),
    [
        ("POST", "/api/ai/skills", {**WEEKLY, "id": "summarize"}, 409, "exists"),  # never shadows a built-in
        ("DELETE", "/api/ai/skills/summarize", None, 403, "forbidden"),
        ("DELETE", "/api/ai/skills/nope", None, 404, "not_found"),
        ("DELETE", f"/api/ai/skills/{'x' * 65}", None, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "id": "Weekly"}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "id": "my skill"}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "id": "-dash"}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "id": "x" * 41}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "id": "../x"}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "description": "two\nlines"}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "description": ""}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "prompt": "x" * 4001}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "prompt": "   "}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "prompt": "bell \x07"}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "icon": "a b"}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "icon": "x" * 17}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "builtin": True}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", {**WEEKLY, "id": 7}, 400, "invalid_argument"),
        ("POST", "/api/ai/skills", [WEEKLY], 400, "invalid_argument"),
    ],
)
def test_bad_requests_are_clear_errors_and_change_nothing(server: Server, method, path, body, status, code) -> None:
    before = server.skills(server.alice)
    kw = {"json": body} if body is not None else {}
    response = server.call(method, path, server.alice, **kw)
    assert (response.status_code, response.json()["code"]) == (status, code), response.text
    assert server.skills(server.alice) == before


def test_no_credential_a_foreign_origin_or_a_form_body_is_refused(server: Server) -> None:
    s = server
    assert s.call("GET", "/api/ai/skills", None).status_code == 401
    assert s.call("POST", "/api/ai/skills", None, json=WEEKLY).status_code == 401
    foreign = s.call("POST", "/api/ai/skills", s.alice, json=WEEKLY, headers={"Origin": "https://evil.example"})
    assert foreign.status_code == 403 and foreign.json()["code"] == "forbidden_origin"
    form = s.call("POST", "/api/ai/skills", s.alice, content=json.dumps(WEEKLY), headers={"Content-Type": "text/plain"})
    assert form.status_code == 400 and form.json()["code"] == "unsupported_media_type"
    assert s.call("DELETE", "/api/ai/skills/x", s.alice, headers={"Origin": "https://evil.example"}).status_code == 403
    assert "weekly" not in s.skills(s.alice)


def test_a_person_keeps_at_most_fifty_skills(server: Server) -> None:
    s = server
    book = SkillBook(s.data)  # another writer on the same file (as the CLI or a second process would be)
    for i in range(MAX_SKILLS_PER_USER - 1):
        book.save("bob", SkillInput(id=f"s{i:02d}", description=f"Skill {i}", prompt=f"Do thing {i}."))
    last = {"id": "s49", "description": "Skill 49", "prompt": "Do thing 49."}
    assert s.call("POST", "/api/ai/skills", s.bob, json=last).status_code == 201
    over = s.call("POST", "/api/ai/skills", s.bob, json=WEEKLY)
    assert over.status_code == 413 and over.json()["code"] == "too_large" and over.json()["details"]["limit"] == 50
    replaced = s.call("POST", "/api/ai/skills", s.bob, json={"id": "s00", "description": "Still", "prompt": "Fine."})
    assert replaced.status_code == 200  # replacing one at the limit is fine
    assert len([x for x in s.skills(s.bob).values() if not x["builtin"]]) == MAX_SKILLS_PER_USER
    assert not [x for x in s.skills(s.alice).values() if not x["builtin"]]  # Alice's room is her own
    assert s.call("DELETE", "/api/ai/skills/s49", s.bob).status_code == 200
    assert s.call("POST", "/api/ai/skills", s.bob, json=WEEKLY).status_code == 201  # room again
    for i in range(MAX_SKILLS_PER_USER - 1):
        book.delete("bob", f"s{i:02d}")
    assert s.call("DELETE", "/api/ai/skills/weekly", s.bob).status_code == 200


def _system_prompt_openai(fake: FakeLLM) -> str:
    messages = fake.requests[-1].json["messages"]
    assert messages[0]["role"] == "system"
    return messages[0]["content"]


def test_a_persons_skill_reaches_the_provider_and_another_persons_does_not(server: Server) -> None:
    s = server
    mine = {"id": "pirate", "icon": "🏴‍☠️", "description": "Talk like a pirate", "prompt": "Answer like a pirate, arr."}
    assert s.call("POST", "/api/ai/skills", s.alice, json=mine).status_code == 201

    s.fake.add(o.stream_text(["Arr."]))
    answered = s.chat(s.alice, {"message": "Hello", "skill": "pirate"})
    assert answered.status_code == 200 and "event: done" in answered.text
    assert "Skill:\nAnswer like a pirate, arr." in _system_prompt_openai(s.fake)

    s.fake.add(o.stream_text(["Done."]))
    agent = s.chat(s.alice, {"message": "List tasks", "skill": "tasks", "vault": "notes"}, agent=True)
    assert agent.status_code == 200 and SKILLS["tasks"].prompt in _system_prompt_openai(s.fake)

    s.fake.add(g.stream_text(["Arr again."]))
    gemini = s.chat(s.alice, {"message": "Hello", "skill": "pirate", "provider": "gemini"})
    assert gemini.status_code == 200
    system = s.fake.requests[-1].json["systemInstruction"]["parts"][0]["text"]
    assert "Answer like a pirate, arr." in system

    sent = len(s.fake.requests)
    refused = s.chat(s.bob, {"message": "Hello", "skill": "pirate"})  # Alice's skill is unknown to Bob
    assert refused.status_code == 400 and refused.json()["code"] == "invalid_argument"
    assert "pirate" in refused.json()["message"] and "summarize" in refused.json()["message"]
    assert len(s.fake.requests) == sent  # refused before any provider call
    assert s.call("DELETE", "/api/ai/skills/pirate", s.alice).status_code == 200
    assert s.chat(s.alice, {"message": "Hello", "skill": "pirate"}).status_code == 400


# ---- the store on its own: a broken file, writers at once ------------------------------------------------


def _skill(i: int) -> SkillInput:
    return SkillInput(id=f"k{i}", description=f"Skill {i}", prompt=f"Prompt {i}.")


def test_a_broken_file_keeps_its_last_good_skills_and_is_never_overwritten(tmp_path: Path) -> None:
    book = SkillBook(tmp_path)
    assert book.save("alice", _skill(1)) is True
    assert [s["id"] for s in book.list("alice") if not s["builtin"]] == ["k1"]
    (tmp_path / "skills.json").write_text('{"users": {"alice": ', encoding="utf-8")  # a half-written hand edit
    assert book.prompt("alice", "k1") == "Prompt 1."  # reading keeps the last good content
    with pytest.raises(Unavailable) as broken:
        book.save("alice", _skill(2))
    assert "skills.json" in (broken.value.hint or "") and str(tmp_path) not in str(broken.value.to_dict())
    assert (tmp_path / "skills.json").read_text() == '{"users": {"alice": '
    (tmp_path / "skills.json").write_text(
        json.dumps({"users": {"alice": {"k3": {"description": "ok", "prompt": "Three."}, "BAD ID": {"prompt": 1},
                                        "summarize": {"description": "shadow", "prompt": "Evil."}}}}),
    )  # fmt: skip
    assert [s["id"] for s in book.list("alice") if not s["builtin"]] == ["k3"]  # broken and shadowing entries skipped
    assert book.prompt("alice", "summarize") == SKILLS["summarize"].prompt


def test_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    books = [SkillBook(tmp_path), SkillBook(tmp_path)]  # two objects over one file, as two processes would be
    threads = [threading.Thread(target=books[i % 2].save, args=(f"u{i % 3}", _skill(i))) for i in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(len(books[0].own(f"u{u}")) for u in range(3)) == 24
