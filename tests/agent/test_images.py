"""Images in the assistant's conversation (issue 18 item 3), end to end: a real ObsiGate on loopback, the
scripted fake provider recording what it receives in each dialect (OpenAI ``image_url`` parts, Gemini
``inlineData``), the refusals made before any provider call, the history that keeps images by reference and
resends the most recent ones. One server for the module, auth on: ``alice`` may use the vault ``notes``,
``carol`` only ``private`` (the vision model is the default: ``gpt-4o`` on the ``custom`` provider,
``gemini-2.5-flash`` on ``gemini``; ``fake-model`` has no vision flag)."""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
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

from obsigate.agent import images
from obsigate.agent.providers.image_parts import gemini_parts, openai_content
from obsigate.config import load_settings
from obsigate.tools.errors import BadRequest, PayloadTooLarge

# a real 1x1 PNG (and the same pixel as GIF): what a browser's clipboard or a vault would hold
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
GIF = base64.b64decode("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")
VAULT_PNG = SMALL_VAULT["Attachments/pic.png"]
CANARY = b"canary-7f3e-file-space"
CANARY_GIF = GIF[:-1] + b"!\xfe" + bytes([len(CANARY)]) + CANARY + b"\x00;"  # a GIF comment extension holds it


def data_url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode()}"


def tokens(data: Path) -> dict[str, str]:
    """Bearer tokens of two new users made in the data dir ``data`` before the server opens it: ``alice``
    (vault ``notes``) and ``carol`` (vault ``private``)."""
    from pwdlib.hashers.argon2 import Argon2Hasher

    from obsigate.auth.tokens import TokenService
    from obsigate.auth.users import UserStore

    data.mkdir(parents=True, exist_ok=True)
    users = UserStore(data / "users.sqlite3", password_hasher=Argon2Hasher(time_cost=1, memory_cost=8192))
    try:
        issue = TokenService(data / "jwt_secret").issue
        return {"alice": issue(users.add_user("alice", None, vaults=["notes"])),
                "carol": issue(users.add_user("carol", None, vaults=["private"]))}  # fmt: skip
    finally:
        users.close()


@dataclass
class Server:
    url: str
    fake: FakeLLM
    data: Path
    tokens: dict[str, str]
    user: str = "alice"

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[self.user]}"}

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        """``(status, parsed)``: the SSE events as ``[(event, data)]``, or the JSON error body."""
        response = httpx2.post(f"{self.url}{path}", json=body, headers=self.headers, timeout=60)
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            events = []
            for block in response.text.replace("\r\n", "\n").split("\n\n"):
                lines = dict(line.split(":", 1) for line in block.split("\n") if line and not line.startswith(":"))
                if "data" in lines:
                    events.append((lines.get("event", "message").strip(), json.loads(lines["data"])))
            return response.status_code, events
        return response.status_code, response.json()

    def chat(self, body: Any) -> tuple[int, Any]:
        return self.post("/api/ai/bookslm/chat", body)

    def agent(self, body: Any) -> tuple[int, Any]:
        return self.post("/api/ai/bookslm/agent", body)

    def get(self, path: str) -> httpx2.Response:
        return httpx2.get(f"{self.url}{path}", headers=self.headers, timeout=30)

    def last(self) -> dict[str, Any]:
        return self.fake.requests[-1].json


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running() as fake, pytest.MonkeyPatch.context() as mp:
        use_fake(mp, fake, CUSTOM_MODEL="gpt-4o", GEMINI_MODEL="gemini-2.5-flash")
        root = tmp_path_factory.mktemp("images")
        vault = write_tree(root / "vault", SMALL_VAULT)
        private = write_tree(root / "private", {"Attachments/pic.png": PNG})
        given = tokens(root / "data")
        settings = load_settings(
            data_dir=root / "data", port=free_port(), tool_rate_limit=10_000, auth_enabled=True,
            vaults={"notes": {"path": str(vault)}, "private": {"path": str(private)}},
        )  # fmt: skip
        server = LiveServer(settings).start()
        server.wait_ready()
        try:
            yield Server(server.url, fake, root / "data", given)
        finally:
            server.stop()


def _done(events: list[tuple[str, Any]]) -> dict[str, Any]:
    done = [d for e, d in events if e == "done"]
    assert done, events
    return done[0]


def test_openai_parts_history_and_the_stored_image(srv: Server) -> None:
    srv.fake.add(o.stream_text(["A pixel."]), o.stream_text(["Still a pixel."]))
    status, events = srv.chat({
        "message": "What is in these?", "vault": "notes",
        "images": [{"url": data_url(PNG), "name": "clip.png"}, {"path": "Attachments/pic.png"}],
    })  # fmt: skip
    assert status == 200, events
    cid = _done(events)["conversation_id"]
    user = srv.last()["messages"][-1]
    assert user == {"role": "user", "content": [
        {"type": "text", "text": "What is in these?"},
        {"type": "image_url", "image_url": {"url": data_url(PNG)}},
        {"type": "image_url", "image_url": {"url": data_url(VAULT_PNG)}},
    ]}  # fmt: skip

    # kept by reference: the message holds ids, the bytes are served back to the owner
    conv = srv.get(f"/api/ai/conversations/{cid}").json()
    refs = conv["messages"][0]["images"]
    assert [(r["id"], r["name"], r["mime_type"], r["bytes"]) for r in refs] == [
        (hashlib.sha256(PNG).hexdigest(), "clip.png", "image/png", len(PNG)),
        (hashlib.sha256(VAULT_PNG).hexdigest(), "pic.png", "image/png", len(VAULT_PNG)),
    ]
    assert refs[1]["vault"] == "notes" and refs[1]["path"] == "Attachments/pic.png"
    with sqlite3.connect(srv.data / "assistant.sqlite3") as db:
        (stored,) = db.execute("SELECT message FROM messages WHERE conversation_id = ? AND seq = 0", (cid,)).fetchone()
    assert "base64" not in stored and len(stored) < 600  # no bytes in the message itself
    shown = srv.get(f"/api/ai/conversations/{cid}/images/{refs[0]['id']}")
    assert shown.status_code == 200 and shown.content == PNG
    assert shown.headers["content-type"] == "image/png" and shown.headers["x-content-type-options"] == "nosniff"
    assert srv.get(f"/api/ai/conversations/{cid}/images/{'0' * 64}").status_code == 404
    assert srv.get(f"/api/ai/conversations/{cid}/images/..%2Fx").status_code == 404

    # the next turn of the conversation resends them, as parts of the message they came with
    status, events = srv.chat({"message": "And now?", "conversation_id": cid})
    assert status == 200, events
    sent = srv.last()["messages"]
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "user"]
    assert [p["type"] for p in sent[1]["content"]] == ["text", "image_url", "image_url"]
    assert sent[3] == {"role": "user", "content": "And now?"}

    # a model without vision later in the same conversation: the images become notes, the request goes
    srv.fake.add(o.stream_text(["No eyes."]))
    status, events = srv.chat({"message": "Once more", "conversation_id": cid, "model": "fake-model"})
    assert status == 200, events
    first = srv.last()["messages"][1]
    assert first["content"] == (
        "What is in these?\n[image not shown to you: clip.png]\n[image not shown to you: pic.png]"
    )

    # another person gets neither the conversation nor its images
    srv.user = "carol"
    try:
        assert srv.get(f"/api/ai/conversations/{cid}/images/{refs[0]['id']}").status_code == 404
    finally:
        srv.user = "alice"

    # deleting the conversation deletes its images
    assert httpx2.delete(f"{srv.url}/api/ai/conversations/{cid}", headers=srv.headers).status_code == 200
    assert srv.get(f"/api/ai/conversations/{cid}/images/{refs[0]['id']}").status_code == 404


def test_images_of_the_new_message_left_out_by_the_cap_are_named(srv: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(images, "MAX_SENT_BYTES", len(PNG))  # room for the GIF (sent first: the last), not both
    srv.fake.add(o.stream_text(["A GIF."]), o.stream_text(["Still."]))
    images_in = [{"url": data_url(PNG), "name": "clip.png"}, {"url": data_url(GIF, "image/gif"), "name": "anim.gif"}]
    status, events = srv.chat({"message": "Both?", "images": images_in})
    assert status == 200, events
    (notice,) = [d for e, d in events if e == "notice"]
    assert notice["code"] == "images_not_sent" and notice["images"] == ["clip.png"]
    assert "clip.png" in notice["message"] and "anim.gif" not in notice["message"]
    parts = srv.last()["messages"][-1]["content"]
    assert [p["type"] for p in parts] == ["text", "image_url"] and parts[1]["image_url"]["url"] == data_url(
        GIF, "image/gif"
    )
    assert "[image not shown to you: clip.png]" in parts[0]["text"]
    # the next message has no images of its own: the older ones left out say nothing
    status, events = srv.chat({"message": "And?", "conversation_id": _done(events)["conversation_id"]})
    assert status == 200 and [e for e, _ in events if e == "notice"] == []


def test_gemini_inline_data_in_an_agent_run(srv: Server) -> None:
    srv.fake.add(g.stream_text(["Two pixels."]))
    status, events = srv.agent({
        "message": "Describe", "vault": "notes", "provider": "gemini",
        "images": [{"url": data_url(GIF, "image/gif")}, {"path": "Attachments/pic.png", "vault": "notes"}],
    })  # fmt: skip
    assert status == 200, events
    assert _done(events)["stopped"] == "completed"
    assert "streamGenerateContent" in srv.fake.requests[-1].path
    assert srv.last()["contents"][-1] == {"role": "user", "parts": [
        {"text": "Describe"},
        {"inlineData": {"mimeType": "image/gif", "data": base64.b64encode(GIF).decode()}},
        {"inlineData": {"mimeType": "image/png", "data": base64.b64encode(VAULT_PNG).decode()}},
    ]}  # fmt: skip


def test_a_resumed_run_resends_the_images(srv: Server) -> None:
    srv.fake.add(
        o.stream_tool_calls([("c1", "create_file", {"vault": "notes", "path": "Seen.md", "content": "# Seen\n"})]),
        o.stream_text(["Noted."]),
    )
    status, events = srv.agent({"message": "Note what you see", "vault": "notes", "images": [{"url": data_url(PNG)}]})
    assert status == 200, events
    run_id = _done(events)["run_id"]
    assert _done(events)["stopped"] == "awaiting_confirmation"
    status, events = srv.agent({"run_id": run_id, "confirm_all": True})
    assert status == 200 and _done(events)["stopped"] == "completed", events
    resumed = srv.last()["messages"]
    assert [m["role"] for m in resumed] == ["system", "user", "assistant", "tool"]
    assert resumed[1]["content"][1] == {"type": "image_url", "image_url": {"url": data_url(PNG)}}


def test_an_image_of_the_file_space_is_named_by_its_file_id(srv: Server) -> None:
    def upload(user: str, name: str, data: bytes) -> str:
        srv.user = user
        try:
            got = httpx2.post(f"{srv.url}/api/files", files={"file": (name, data)}, headers=srv.headers, timeout=30)
        finally:
            srv.user = "alice"
        assert got.status_code == 201, got.text
        return str(got.json()["file_id"])

    mine, text, carols = (
        upload("alice", "shot.gif", CANARY_GIF),
        upload("alice", "a.txt", b"hi"),
        upload("carol", "c.png", PNG),
    )
    srv.fake.add(o.stream_text(["A GIF."]), o.stream_text(["Again."]))
    status, events = srv.chat({"message": "This one?", "images": [{"file_id": mine}]})
    assert status == 200, events
    assert srv.last()["messages"][-1]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": data_url(CANARY_GIF, "image/gif")},
    }
    cid = _done(events)["conversation_id"]
    (ref,) = srv.get(f"/api/ai/conversations/{cid}").json()["messages"][0]["images"]
    assert (ref["file_id"], ref["name"], ref["id"]) == (mine, "shot.gif", hashlib.sha256(CANARY_GIF).hexdigest())
    # a later message names it again: no bytes travel, the same image reaches the model
    status, events = srv.chat({"message": "And with it?", "conversation_id": cid, "images": [{"file_id": mine}]})
    assert status == 200, events
    assert srv.last()["messages"][-1]["content"][1]["image_url"]["url"] == data_url(CANARY_GIF, "image/gif")

    # deleting the file deletes every conversation copy: the image is gone, its canary found nowhere on disk
    assert httpx2.delete(f"{srv.url}/api/files/{mine}", headers=srv.headers).status_code == 200
    assert srv.get(f"/api/ai/conversations/{cid}/images/{ref['id']}").status_code == 404
    leaks = [p for p in srv.data.rglob("*") if p.is_file() and CANARY in p.read_bytes()]
    assert leaks == []
    srv.fake.add(o.stream_text(["Gone."]))
    status, events = srv.chat({"message": "Still there?", "conversation_id": cid})
    assert status == 200, events
    assert "[image not shown to you: shot.gif]" in srv.last()["messages"][1]["content"]

    before = len(srv.fake.requests)
    for images_in, code in (
        ([{"file_id": mine}], "not_found"),  # deleted
        ([{"file_id": carols}], "not_found"),  # another person's file does not exist for alice
        ([{"file_id": "U_alice_C_x_T_1_forged"}], "not_found"),
        ([{"file_id": text}], "invalid_argument"),  # a text file is no image
        ([{"file_id": mine, "url": data_url(PNG)}], "invalid_argument"),
    ):
        got, body = srv.chat({"message": "Look", "images": images_in})
        assert (got, body["code"]) == (404 if code == "not_found" else 400, code), body
    assert len(srv.fake.requests) == before


BAD = [
    ({"model": "fake-model", "images": [{"url": data_url(PNG)}]}, 400, "vision_unsupported"),
    ({"images": [{"url": data_url(b"%PDF-1.7 not an image", "image/png")}]}, 400, "invalid_argument"),
    ({"images": [{"url": data_url(PNG, "image/jpeg")}]}, 400, "invalid_argument"),  # declared type ≠ bytes
    ({"images": [{"url": data_url(PNG, "image/svg+xml")}]}, 400, "invalid_argument"),
    ({"images": [{"url": "data:image/png;base64,@@@"}]}, 400, "invalid_argument"),
    ({"images": [{"url": "https://example.org/a.png"}]}, 400, "invalid_argument"),
    ({"images": [{"url": data_url(PNG)}] * 5}, 400, "invalid_argument"),  # over the count cap
    ({"images": [{}]}, 400, "invalid_argument"),
    ({"images": [{"path": "Home.md"}]}, 400, "invalid_argument"),  # a note is no image
    ({"images": [{"path": "../outside.png"}]}, 400, "path_outside_vault"),
    ({"images": [{"path": "Attachments/none.png"}]}, 404, "not_found"),
    ({"images": [{"path": "Attachments/pic.png", "vault": "private"}]}, 403, "vault_access_denied"),  # not alice's
    ({"images": [{"url": data_url(PNG[:8] + b"\0" * (images.MAX_IMAGE_BYTES + 1))}]}, 413, "too_large"),
]


@pytest.mark.parametrize(("extra", "status", "code"), BAD, ids=[c for _, _, c in BAD])
def test_refused_before_any_provider_call(srv: Server, extra: dict[str, Any], status: int, code: str) -> None:
    before = len(srv.fake.requests)
    conversations = len(srv.get("/api/ai/conversations").json()["conversations"])
    got, body = srv.agent({"message": "Look", "vault": "notes", **extra})
    assert (got, body["code"]) == (status, code), body
    assert len(srv.fake.requests) == before  # no provider call
    assert len(srv.get("/api/ai/conversations").json()["conversations"]) == conversations  # nothing stored


def test_vision_unsupported_says_what_to_do(srv: Server) -> None:
    got, body = srv.chat({"message": "Look", "model": "fake-model", "images": [{"url": data_url(PNG)}]})
    assert got == 400 and body["code"] == "vision_unsupported"
    assert "fake-model" in body["message"] and "vision" in body["hint"]


# --- the pure parts ---------------------------------------------------------------------------------------


def test_sniff_by_magic_bytes() -> None:
    assert images.sniff(PNG) == "image/png"
    assert images.sniff(GIF) == "image/gif"
    assert images.sniff(b"\xff\xd8\xff\xe0\0\x10JFIF") == "image/jpeg"
    assert images.sniff(b"RIFF\x24\0\0\0WEBPVP8 ") == "image/webp"
    assert images.sniff(b"RIFF\x24\0\0\0WAVEfmt ") is None
    assert images.sniff(b"<svg xmlns='http://www.w3.org/2000/svg'/>") is None


def test_history_resends_only_the_most_recent_images() -> None:
    stored = {f"{n:064x}": bytes([n]) * 10 for n in range(10)}
    messages: list[dict[str, Any]] = [
        {
            "role": "user",
            "content": f"m{n}",
            "images": [{"id": f"{n:064x}", "mime_type": "image/png", "name": f"{n}.png", "bytes": 10}],
        }
        for n in range(10)
    ]
    loads: list[str] = []

    def load(image_id: str) -> bytes | None:
        loads.append(image_id)
        return stored[image_id]

    out = images.for_provider(messages, load, vision=True)
    sent = [m["content"] for m in out if "data" in m["images"][0]]
    assert sent == [f"m{n}" for n in range(10 - images.MAX_SENT_IMAGES, 10)]  # the 8 most recent
    assert len(loads) == images.MAX_SENT_IMAGES  # the older ones are not even read
    assert all("data" not in m["images"][0] for m in messages)  # the stored messages are untouched
    assert openai_content(out[0]) == "m0\n[image not shown to you: 0.png]"
    assert gemini_parts(out[-1]) == [
        {"text": "m9"}, {"inlineData": {"mimeType": "image/png", "data": base64.b64encode(stored[f"{9:064x}"]).decode()}}
    ]  # fmt: skip
    assert all("data" not in m["images"][0] for m in images.for_provider(messages, load, vision=False))


def test_data_urls_checked_by_their_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    jpeg = b"\xff\xd8\xff\xe0\0\x10JFIF\0" + b"\0" * 20
    assert images.decode_data_url(data_url(jpeg, "image/jpg")) == ("image/jpeg", jpeg)  # the common misspelling
    assert images.decode_data_url(data_url(GIF, "IMAGE/GIF")) == ("image/gif", GIF)
    # RFC 2397: the scheme, type and base64 token in any case; MIME-wrapped or spaced base64 is the same bytes
    b64 = base64.b64encode(PNG).decode()
    assert images.decode_data_url(f"DATA:IMAGE/PNG;BASE64,{b64}") == ("image/png", PNG)
    wrapped = "\r\n".join(b64[i : i + 20] for i in range(0, len(b64), 20))
    assert images.decode_data_url(f"data:image/png;base64,{wrapped}\n") == ("image/png", PNG)
    assert images.decode_data_url(f"data:image/png;base64, {b64[:10]} {b64[10:]}") == ("image/png", PNG)
    with pytest.raises(BadRequest):  # still base64 only, still checked by the bytes
        images.decode_data_url(f"data:image/png;base64,{b64[:10]}*{b64[10:]}")
    with pytest.raises(BadRequest):
        images.decode_data_url(data_url(GIF, "IMAGE/PNG"))
    monkeypatch.setattr(images, "MAX_IMAGE_BYTES", 100)
    with pytest.raises(PayloadTooLarge):  # under the length check, over the cap once decoded
        images.decode_data_url(data_url(PNG[:8] + b"\0" * 93))
    assert images.decode_data_url(data_url(PNG[:8] + b"\0" * 92))[0] == "image/png"
