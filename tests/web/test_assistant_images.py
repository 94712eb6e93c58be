"""Images in the assistant panel, in a real browser against a real ObsiGate whose provider is the scripted fake
(issue 18 item 3): paste and drop an image, pick a vault image with @, remove a chip, send; the provider gets the
images as ``image_url`` parts; the sent message shows them, and so does the conversation once reopened after a
reload."""

from __future__ import annotations

import base64
import os
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake

#: Where the screenshots go when OBSIGATE_SHOTS names a directory (to look at the panel by eye).
SHOTS = os.environ.get("OBSIGATE_SHOTS")


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A real PNG of one colour with a diagonal stripe (what a screenshot or photo would be, only smaller)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(
        b"\0" + b"".join(bytes((255, 255, 255) if abs(x - y) < 3 else rgb) for x in range(width)) for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


PASTED = png(48, 32, (40, 120, 200))
DROPPED = png(32, 32, (200, 80, 40))
PHOTO = png(40, 40, (60, 160, 90))


@pytest.fixture
def app_server(
    live_server: Any, web_vault: Path, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> Any:
    """Auth off, the default provider ``custom`` at the fake with a vision model; a real PNG in the vault."""
    use_fake(monkeypatch, fake, CUSTOM_MODEL="gpt-4o")
    (web_vault / "Attachments" / "photo.png").write_bytes(PHOTO)
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "images-data")


# a File made in the page from base64, handed over as a paste on the message box or a drop on the panel
_GIVE = """([kind, b64, name]) => {
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const dt = new DataTransfer();
  dt.items.add(new File([bytes], name, { type: "image/png" }));
  if (kind === "paste") document.querySelector(".assistant textarea").dispatchEvent(
    new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  else document.querySelector("section.assistant").dispatchEvent(
    new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
}"""


def _loaded(page: Any, selector: str) -> list[int]:
    """The natural widths of the images matching ``selector`` once each has loaded (0: broken)."""
    page.wait_for_function(
        "(s) => [...document.querySelectorAll(s)].every((i) => i.complete)", arg=selector, timeout=10_000
    )
    return page.eval_on_selector_all(selector, "(imgs) => imgs.map((i) => i.naturalWidth)")


def _shoot(page: Any, name: str) -> None:
    if not SHOTS:
        return
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.locator("section.assistant").screenshot(path=str(Path(SHOTS) / f"{name}-{theme}.png"))


def test_paste_drop_and_at_images_are_sent_shown_and_reopened(page: Any, app_server: Any, fake: FakeLLM) -> None:
    fake.add(o.stream_text(["Three images: ", "blue, orange, green."]))
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".assistant textarea")

    page.evaluate(_GIVE, ["paste", base64.b64encode(PASTED).decode(), "clip.png"])
    page.evaluate(_GIVE, ["drop", base64.b64encode(DROPPED).decode(), "drop.png"])
    page.evaluate(_GIVE, ["drop", base64.b64encode(DROPPED).decode(), "drop.png"])  # the same image once only
    page.wait_for_selector(".image-chip >> nth=1")
    page.fill(".assistant textarea", "Compare @photo")
    page.wait_for_selector(".mention-option >> text=photo.png")
    page.keyboard.press("Enter")
    page.wait_for_selector(".image-chip >> nth=2")
    assert page.locator(".image-chip .chip-label").all_inner_texts() == ["clip.png", "drop.png", "photo.png"]
    assert page.locator(".mention-chips .chip").count() == 0  # an image is no context file
    assert all(w > 0 for w in _loaded(page, ".image-chip img"))
    _shoot(page, "assistant-image-chips")

    # a chip's ✕ removes it; the others are sent
    page.click(".image-chip:has-text('drop.png') .chip-remove")
    assert page.locator(".image-chip").count() == 2
    page.fill(".assistant textarea", "Compare these")
    page.click(".assistant-input button[type=submit]")
    page.wait_for_selector(".msg.assistant >> text=green")
    assert page.locator(".image-chip").count() == 0  # the chips went with the message
    user = fake.requests[-1].json["messages"][-1]
    assert user["content"][0] == {"type": "text", "text": "Compare these"}
    assert [p["image_url"]["url"] for p in user["content"][1:]] == [
        f"data:image/png;base64,{base64.b64encode(PASTED).decode()}",
        f"data:image/png;base64,{base64.b64encode(PHOTO).decode()}",
    ]
    assert _loaded(page, ".msg.user .msg-images img") == [48, 40]
    _shoot(page, "assistant-image-sent")

    # reload: the conversation comes back with its images, served from the conversation
    page.reload(wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".msg.user .msg-images img >> nth=1")
    assert _loaded(page, ".msg.user .msg-images img") == [48, 40]
    srcs = page.eval_on_selector_all(".msg.user .msg-images img", "(imgs) => imgs.map((i) => i.getAttribute('src'))")
    assert all(s.startswith("/api/ai/conversations/") and "/images/" in s for s in srcs)
    assert page.locator(".msg.user .msg-images img").first.get_attribute("alt") == "clip.png"


def test_refused_in_the_panel_a_file_that_is_not_an_image_and_images_for_a_model_without_vision(
    page: Any, app_server: Any, fake: FakeLLM
) -> None:
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.wait_for_selector(".assistant textarea")
    page.evaluate("""() => {
      const dt = new DataTransfer();
      dt.items.add(new File(["<svg/>"], "logo.svg", { type: "image/svg+xml" }));
      document.querySelector("section.assistant").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }""")
    assert "only PNG, JPEG, WebP and GIF" in page.wait_for_selector(".image-error").inner_text()
    assert page.locator(".image-chip").count() == 0
    # a text file named x.png with type image/png: told by its first bytes, refused the same way
    page.evaluate(_GIVE, ["drop", base64.b64encode(b"just some text, not a picture").decode(), "x.png"])
    assert "only PNG" in page.wait_for_selector(".image-error:has-text('x.png')").inner_text()
    assert page.locator(".image-chip").count() == 0

    # a model the list knows without vision (DeepSeek's): said at once, the chip kept, nothing sent
    page.evaluate(_GIVE, ["paste", base64.b64encode(PASTED).decode(), "clip.png"])
    page.wait_for_selector(".image-chip")
    page.select_option(".assistant-bar select >> nth=1", "deepseek")
    page.fill(".assistant textarea", "What is this?")
    page.click(".assistant-input button[type=submit]")
    assert "cannot read images" in page.wait_for_selector(".image-error:has-text('vision')").inner_text()
    assert page.locator(".image-chip").count() == 1 and page.locator(".msg.user").count() == 0
    assert page.input_value(".assistant textarea") == "What is this?"
    assert fake.requests == []
    _shoot(page, "assistant-image-no-vision")


def test_an_image_of_your_files_is_picked_with_at_and_sent_by_its_file_id(
    page: Any, app_server: Any, fake: FakeLLM
) -> None:
    import httpx2

    shot = png(36, 24, (150, 60, 180))
    up = httpx2.post(
        f"{app_server.url}/api/files", files={"file": ("shot.png", shot)}, headers={"X-ObsiGate-Upload": "1"}
    )
    assert up.status_code == 201, up.text
    file_id = up.json()["file_id"]
    httpx2.post(
        f"{app_server.url}/api/files", files={"file": ("shot notes.txt", b"text")}, headers={"X-ObsiGate-Upload": "1"}
    )
    fake.add(o.stream_text(["A purple shot."]))
    bodies: list[Any] = []
    page.on(
        "request",
        lambda r: bodies.append(r.post_data_json) if r.url.endswith("/chat") or r.url.endswith("/agent") else None,
    )
    page.goto(f"{app_server.url}/#/v/notes/Ideas.md", wait_until="networkidle")
    page.click("#assistant-btn")
    page.fill(".assistant textarea", "What is @shot")
    option = page.wait_for_selector(".mention-option.mention-userfile")
    assert option.inner_text().split("\n")[0] == "shot.png" and "Your files" in option.inner_text()
    assert page.locator(".mention-option.mention-userfile").count() == 1  # the text file is no image
    _shoot(page, "assistant-your-files-mention")
    option.click()  # after the vault's matches (photo.png here)
    page.wait_for_selector(".image-chip")
    assert page.locator(".image-chip .chip-label").all_inner_texts() == ["shot.png"]
    assert _loaded(page, ".image-chip img") == [36]
    page.fill(".assistant textarea", "What is this?")
    page.click(".assistant-input button[type=submit]")
    page.wait_for_selector(".msg.assistant >> text=purple")
    assert bodies[-1]["images"] == [{"file_id": file_id}]  # the bytes stayed on the server
    user = fake.requests[-1].json["messages"][-1]
    assert user["content"][1] == {
        "type": "image_url",
        "image_url": {"url": f"data:image/png;base64,{base64.b64encode(shot).decode()}"},
    }
    assert _loaded(page, ".msg.user .msg-images img") == [36]
