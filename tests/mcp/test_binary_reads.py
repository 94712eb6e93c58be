"""read_file_raw of binaries over MCP (issue 9 item 2): up to ``max_tool_read_bytes`` per call, paged with
``offset``/``next_offset``, the bytes in an image or embedded-resource block (sent once), the structured
result describing the chunk with ``content: ""``."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp_types import CallToolResult, EmbeddedResource, ImageContent, TextContent
from support import SMALL_VAULT, write_tree

pytestmark = pytest.mark.anyio

PNG_SIZE = 250_000  # > 100 KB and > one read (200 000 bytes)


def png_like(size: int) -> bytes:
    """A PNG signature and IHDR-looking header followed by pseudo-random bytes (not valid UTF-8)."""
    head = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
    return head + random.Random(9).randbytes(size - len(head))


async def structured(client: Any, result: CallToolResult) -> dict[str, Any]:
    assert result.is_error is False, result.content
    tool = next(t for t in (await client.list_tools()).tools if t.name == "read_file_raw")
    Draft202012Validator(tool.output_schema).validate(result.structured_content)
    text = result.content[0]
    assert isinstance(text, TextContent) and json.loads(text.text) == result.structured_content
    return result.structured_content


def real_png(width: int = 40, height: int = 30) -> bytes:
    """A valid PNG (Pillow), small enough to be sent as it is."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (30, 120, 200)).save(out, "PNG")
    return out.getvalue()


PNG = png_like(PNG_SIZE)
SMALL_PNG = real_png()
FORGED_PNG = png_like(5_000)  # a PNG's leading bytes, then noise: not an image
BLOB = random.Random(3).randbytes(60_000)


@pytest.fixture
def vaults(tmp_path: Path) -> dict[str, Path]:
    """The small vault plus a 250 KB PNG and a 60 KB binary of another type."""
    return {
        "notes": write_tree(
            tmp_path / "vaults" / "notes",
            {
                **SMALL_VAULT,
                "Pics/big.png": PNG,
                "Pics/small.png": SMALL_PNG,
                "Pics/forged.png": FORGED_PNG,
                "Pics/fake.png": BLOB[:1000],
                "data.bin": BLOB,
            },
        )
    }


async def test_large_png_is_read_in_chunks_as_image_content(open_gateway) -> None:
    png, blob = PNG, BLOB
    async with open_gateway.client(None, "auto") as client:
        first = await client.call_tool("read_file_raw", {"vault": "notes", "path": "Pics/big.png"})
        data = await structured(client, first)
        assert data["encoding"] == "base64" and data["content"] == "" and data["mime_type"] == "image/png"
        assert (data["size"], data["offset"], data["next_offset"], data["truncated"]) == (PNG_SIZE, 0, 200_000, True)
        assert data["sha256"] == hashlib.sha256(png).hexdigest()
        # a part of an image is not an image a model can decode: it comes as a resource blob
        assert len(first.content) == 2 and isinstance(first.content[1], EmbeddedResource)
        assert first.content[1].resource.mime_type == "image/png"
        part1 = base64.b64decode(first.content[1].resource.blob)
        assert part1 == png[:200_000]
        assert first.content[1].resource.blob not in first.content[0].text  # the base64 is sent once

        second = await client.call_tool(
            "read_file_raw", {"vault": "notes", "path": "Pics/big.png", "offset": data["next_offset"]}
        )
        data2 = await structured(client, second)
        assert (data2["offset"], data2["next_offset"], data2["truncated"]) == (200_000, None, False)
        assert part1 + base64.b64decode(second.content[1].resource.blob) == png
        end = await client.call_tool("read_file_raw", {"vault": "notes", "path": "Pics/big.png", "offset": PNG_SIZE})
        assert len(end.content) == 1  # nothing left to send: no empty block

        whole = await client.call_tool("read_file_raw", {"vault": "notes", "path": "Pics/small.png"})
        assert isinstance(whole.content[1], ImageContent) and base64.b64decode(whole.content[1].data) == SMALL_PNG
        fake = await client.call_tool("read_file_raw", {"vault": "notes", "path": "Pics/fake.png"})
        assert isinstance(fake.content[1], EmbeddedResource)  # named .png, but not an image
        # a PNG's magic bytes over noise: Pillow cannot read it, so never an image block (issue 21)
        forged = await client.call_tool("read_file_raw", {"vault": "notes", "path": "Pics/forged.png"})
        assert len(forged.content) == 2 and isinstance(forged.content[1], EmbeddedResource)
        assert base64.b64decode(forged.content[1].resource.blob) == FORGED_PNG

        other = await client.call_tool("read_file_raw", {"vault": "notes", "path": "data.bin"})
        meta = await structured(client, other)
        assert meta["mime_type"] == "application/octet-stream" and meta["next_offset"] is None
        block = other.content[1]
        assert isinstance(block, EmbeddedResource)
        assert block.resource.uri == "vault://notes/data.bin"
        assert base64.b64decode(block.resource.blob) == blob

        past = await client.call_tool("read_file_raw", {"vault": "notes", "path": "data.bin", "offset": 60_001})
        assert past.is_error is True


async def test_a_binary_resource_is_served_up_to_one_read(open_gateway) -> None:
    """resources/read of a binary: whole up to max_tool_read_bytes (was: too_large past 37 500 bytes), the first
    chunk beyond, with the truncation in ``_meta``."""
    async with open_gateway.client(None, "auto") as client:
        small = (await client.read_resource("vault://notes/data.bin")).contents[0]
        big = (await client.read_resource("vault://notes/Pics/big.png")).contents[0]
    assert base64.b64decode(small.blob) == BLOB and not small.meta
    assert base64.b64decode(big.blob) == PNG[:200_000] and big.mime_type == "image/png"
    assert big.meta["obsigate/truncated"] is True and big.meta["obsigate/next_offset"] == 200_000
