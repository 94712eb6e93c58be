"""A tool result's parts over MCP (issue 21 item 1): through the real SDK client, read_file_raw on a 2000×1000
PNG arrives as one ``image`` block holding the normalised PNG (1568×784, the SHA-256 the tool layer computes, the
same bytes the providers get: ``tests/agent/test_tool_result_parts.py``); the adapter's gates by protocol
revision: ``audio`` from 2025-03-26, ``resource_link`` to ``obsigate://files/<file_id>`` from 2025-06-18, older
clients get the part's text line instead."""

from __future__ import annotations

import base64
import hashlib
import io
import json
from pathlib import Path

import pytest
from mcp_types import AudioContent, EmbeddedResource, ImageContent, ResourceLink, TextContent
from pictures import noisy_png, striped_png
from PIL import Image
from support import SMALL_VAULT, write_tree

from obsigate.mcp.server import success_result
from obsigate.tools.api import REGISTRY
from obsigate.tools.parts import Part, normalise_image

pytestmark = pytest.mark.anyio


SHOT = striped_png(2000, 1000)
NORMALISED = normalise_image(SHOT)
assert NORMALISED is not None
PHOTO = noisy_png(400, 300)  # ~360 KB: over one read (200 000 bytes)


@pytest.fixture
def vaults(tmp_path: Path) -> dict[str, Path]:
    files = {**SMALL_VAULT, "Pics/shot.png": SHOT, "Pics/photo.png": PHOTO}
    return {"notes": write_tree(tmp_path / "vaults" / "notes", files)}


async def test_a_big_image_arrives_normalised_in_an_image_block(open_gateway, era: str) -> None:
    async with open_gateway.client(None, era) as client:
        result = await client.call_tool("read_file_raw", {"vault": "notes", "path": "Pics/shot.png"})
    assert result.is_error is False
    text, image = result.content
    assert isinstance(text, TextContent) and isinstance(image, ImageContent)
    data = json.loads(text.text)
    assert data == result.structured_content and data["content"] == ""  # the bytes once, in the block
    assert data["size"] == len(SHOT) and data["sha256"] == hashlib.sha256(SHOT).hexdigest()  # the file as stored
    sent = base64.b64decode(image.data)
    assert hashlib.sha256(sent).hexdigest() == hashlib.sha256(NORMALISED[0]).hexdigest()
    assert image.mime_type == "image/png" and Image.open(io.BytesIO(sent)).size == (1568, 784)


async def test_an_image_over_one_read_keeps_its_chunks_and_adds_the_image(open_gateway) -> None:
    """A client that joins chunks still gets each chunk as the block after the text; the first read also has the
    whole image, as an image block, after it."""
    async with open_gateway.client(None, "legacy") as client:
        first = await client.call_tool("read_file_raw", {"vault": "notes", "path": "Pics/photo.png"})
        text, chunk, image = first.content
        assert isinstance(chunk, EmbeddedResource) and isinstance(image, ImageContent)
        offset = json.loads(text.text)["next_offset"]
        second = await client.call_tool("read_file_raw", {"vault": "notes", "path": "Pics/photo.png", "offset": offset})
        assert len(second.content) == 2 and isinstance(second.content[1], EmbeddedResource)
    joined = base64.b64decode(chunk.resource.blob) + base64.b64decode(second.content[1].resource.blob)
    assert joined == PHOTO
    assert base64.b64decode(image.data) == PHOTO  # 400×300 and upright: the image as stored


SPEC = REGISTRY.get("read_file_raw")
KEPT = Part(kind="pdf", mime_type="application/pdf", file_id="U_alice_C_c1_T_1_x", name="report.pdf", size=2_000_000)
VOICE = Part(kind="audio", mime_type="audio/wav", data=b"RIFF0000WAVEfmt ", name="memo.wav", size=16)
DROPPED = Part(kind="image", mime_type="image/png", name="5.png", width=32, height=32, size=90,
               note="not inline: a result carries at most 4 images")  # fmt: skip


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", None])
def test_blocks_follow_the_clients_protocol_revision(version: str | None) -> None:
    result = success_result({"ok": True}, SPEC, [KEPT, VOICE, DROPPED], version)
    _, kept, voice, dropped = result.content
    if version is None or version < "2025-06-18":
        assert isinstance(kept, TextContent) and kept.text.startswith("application/pdf 1.9 MB, report.pdf, file_id=")
    else:
        assert isinstance(kept, ResourceLink)
        assert (kept.uri, kept.name, kept.mime_type, kept.size) == (
            "obsigate://files/U_alice_C_c1_T_1_x", "report.pdf", "application/pdf", 2_000_000,
        )  # fmt: skip
    if version == "2024-11-05":  # before audio content: its text line
        assert isinstance(voice, TextContent) and voice.text == "audio/wav 16 B, memo.wav"
    else:
        assert isinstance(voice, AudioContent) and base64.b64decode(voice.data) == VOICE.data
    assert isinstance(dropped, TextContent)
    assert dropped.text == "image/png 32×32, 5.png (not inline: a result carries at most 4 images)"


def test_an_inline_file_is_an_embedded_resource_where_it_lives() -> None:
    part = Part(kind="file", mime_type="application/zip", data=b"PK\x03\x04", uri="vault://notes/a%20b.zip")
    (_, block) = success_result({}, SPEC, [part], "2025-11-25").content
    assert isinstance(block, EmbeddedResource) and block.resource.uri == "vault://notes/a%20b.zip"
    assert base64.b64decode(block.resource.blob) == b"PK\x03\x04"
