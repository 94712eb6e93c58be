"""Tool results with parts (issue 21 item 1, ``tools/parts.py``): image normalisation with Pillow (EXIF
orientation, longest side ≤ 1568 px, format kept, small images untouched), the caps of one result (4 inline
images, 5 MB of base64), bytes that lie about being an image, a 40 MB image and a 300-page PDF, on a real
runtime through ``call_tool_output`` (the one door) and ``build_parts``. The file space a part over the caps is
kept in is another part's work (``ToolRuntime.files``): here a small in-memory one with its ``put`` signature."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
from pathlib import Path
from typing import Any

import anyio
import pytest
from pictures import blank_pdf, noisy_png, png
from PIL import Image

from obsigate.auth.principal import ANONYMOUS
from obsigate.tools import parts as parts_module
from obsigate.tools.api import REGISTRY, ToolContext, call_tool, call_tool_output
from obsigate.tools.context import ToolRuntime
from obsigate.tools.parts import (
    MAX_INLINE_B64,
    MAX_INLINE_IMAGES,
    MAX_SIDE,
    Part,
    b64_len,
    build_parts,
    normalise_image,
    text_line,
)


def rotated_jpeg() -> bytes:
    """A 6000×3000 JPEG stored on its side with EXIF orientation 6 (turn 90° clockwise to view): viewed
    upright it is 3000×6000, red on its top half and blue on its bottom half."""
    stored = Image.new("RGB", (6000, 3000), (0, 0, 255))
    stored.paste((255, 0, 0), (0, 0, 3000, 3000))  # orientation 6: the stored column 0 is the viewed top row
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    stored.save(out, "JPEG", quality=85, exif=exif.tobytes())
    return out.getvalue()


def ctx_of(runtime: ToolRuntime, **kw: Any) -> ToolContext:
    return ToolContext(ANONYMOUS, runtime, mode="mcp", **kw)


SPEC = REGISTRY.get("read_file_raw")


def build(runtime: ToolRuntime, raw: list[Any], **kw: Any) -> tuple[list[Part], list[dict[str, Any]]]:
    assert SPEC is not None
    return anyio.run(build_parts, ctx_of(runtime, **kw), SPEC, raw)


# --- normalisation ----------------------------------------------------------------------------------------


def test_a_small_upright_image_keeps_its_exact_bytes() -> None:
    small = png(64, 48)
    assert normalise_image(small) == (small, "image/png", 64, 48)


def test_a_big_png_stays_png_and_shrinks_to_the_longest_side() -> None:
    data, mime, width, height = normalise_image(png(4000, 1000)) or (b"", "", 0, 0)
    assert (mime, width, height) == ("image/png", MAX_SIDE, 392)
    assert data.startswith(b"\x89PNG") and Image.open(io.BytesIO(data)).size == (MAX_SIDE, 392)


def test_a_6000px_jpeg_with_exif_rotation_comes_out_upright_and_within_1568() -> None:
    data, mime, width, height = normalise_image(rotated_jpeg()) or (b"", "", 0, 0)
    assert (mime, width, height) == ("image/jpeg", 784, MAX_SIDE)  # portrait: it was turned
    image = Image.open(io.BytesIO(data))
    assert image.size == (784, MAX_SIDE)
    top, bottom = image.getpixel((392, 100)), image.getpixel((392, MAX_SIDE - 100))
    assert top[0] > 200 and top[2] < 60, top  # red on top: upright
    assert bottom[2] > 200 and bottom[0] < 60, bottom
    assert image.getexif().get(0x0112, 1) == 1  # no orientation left for a viewer to apply twice


def test_bytes_that_lie_are_not_an_image() -> None:
    forged = b"\x89PNG\r\n\x1a\n" + b"\x00" * 500  # a PNG's magic, then nothing
    truncated = png(300, 200)[:-40]
    assert normalise_image(forged) is None
    assert normalise_image(truncated) is None
    assert normalise_image(b"%PDF-1.7\n") is None


# --- caps ------------------------------------------------------------------------------------------------


def test_five_images_give_four_inline_and_one_text_line(runtime: ToolRuntime) -> None:
    raw = [{"kind": "image", "mime_type": "image/png", "data": png(32, 32, (n * 40, 0, 0)), "name": f"{n}.png"}
           for n in range(5)]  # fmt: skip
    parts, artifacts = build(dataclasses.replace(runtime, files=None), raw)  # a server with no file space
    assert [p.inline for p in parts] == [True] * MAX_INLINE_IMAGES + [False]
    assert artifacts == []
    assert text_line(parts[4]) == "image/png 32×32, 4.png (not inline: a result carries at most 4 images)"
    assert parts[0].sha256 == hashlib.sha256(raw[0]["data"]).hexdigest()


def test_beyond_the_caps_a_part_is_kept_in_the_file_space(runtime: ToolRuntime) -> None:
    raw = [{"kind": "image", "mime_type": "image/png", "data": png(32, 32, (n * 40, 0, 0)), "name": f"{n}.png"}
           for n in range(5)]  # fmt: skip
    parts, artifacts = build(runtime, raw, session_id="conv1", turn_id="turn1")
    kept = parts[4]
    assert kept.data is None and kept.file_id is not None and kept.file_id.startswith("U_anonymous_C_conv1_T_")
    record, data = runtime.files.read("anonymous", kept.file_id)  # the real file space, on disk
    assert data == raw[4]["data"] and (record.created_by_tool, record.turn) == ("read_file_raw", "turn1")
    assert text_line(kept).startswith(f"image/png 32×32, 4.png, file_id={kept.file_id}")
    assert artifacts == [{"file_id": kept.file_id, "name": "4.png", "mime_type": "image/png",
                          "size": len(raw[4]["data"]), "sha256": kept.sha256, "created_by_tool": "read_file_raw",
                          "turn_id": "turn1"}]  # fmt: skip


def test_a_file_of_the_space_is_named_not_stored_again(runtime: ToolRuntime) -> None:
    photo = png(2000, 1000)
    rec = runtime.files.put("anonymous", photo, name="photo.png", conversation="conv1")
    out = anyio.run(call_tool_output, ctx_of(runtime), "read_user_file", {"file_id": rec.file_id})
    (part,) = out.parts
    assert (part.kind, part.mime_type, part.width, part.height, part.file_id) == (
        "image",
        "image/png",
        1568,
        784,
        rec.file_id,
    )
    assert Image.open(io.BytesIO(part.data)).size == (1568, 784)
    many = [{"kind": "image", "mime_type": "image/png", "data": photo, "name": f"{n}.png", "file_id": rec.file_id}
            for n in range(5)]  # fmt: skip
    parts, artifacts = build(runtime, many)
    assert parts[4].data is None and parts[4].file_id == rec.file_id and artifacts == []
    assert runtime.files.list("anonymous")[1] == 1  # still the one file


def test_the_base64_cap_holds_whatever_the_images(runtime: ToolRuntime) -> None:
    big = [noisy_png(1200, 900, seed) for seed in range(3)]  # ~3.2 MB each: 4.3 MB of base64
    parts, _ = build(runtime, [{"kind": "image", "mime_type": "image/png", "data": d} for d in big])
    inline = [p for p in parts if p.inline]
    assert len(inline) == 1 and sum(b64_len(p.size) for p in inline) <= MAX_INLINE_B64
    assert all("5 MB" in (p.note or "") for p in parts[1:])


def test_a_40mb_image_is_never_decoded_nor_sent(runtime: ToolRuntime) -> None:
    huge = b"\x89PNG\r\n\x1a\n" + bytes(40 * 1024 * 1024)
    (part,), _ = build(runtime, [{"kind": "image", "mime_type": "image/png", "data": huge, "name": "huge.png"}])
    assert part.data is None and part.kind == "image"
    assert "too large" in text_line(part) and "40.0 MB" in text_line(part)


def test_a_decompression_bomb_is_refused_by_its_header(runtime: ToolRuntime) -> None:
    out = io.BytesIO()
    Image.new("1", (20_000, 20_000)).save(out, "PNG")  # 400 M pixels in a few KB
    (part,), _ = build(runtime, [{"kind": "image", "mime_type": "image/png", "data": out.getvalue()}])
    assert part.data is None and part.kind == "image" and "M pixels" in (part.note or "")
    seventy = io.BytesIO()
    Image.new("1", (10_000, 7_000)).save(seventy, "PNG")  # 70 M: under Pillow's own limit, over ours
    (part,), _ = build(runtime, [{"kind": "image", "mime_type": "image/png", "data": seventy.getvalue()}])
    assert part.data is None and "10000×7000 px" in (part.note or "")
    # beside its chunk (read_file_raw over one read) the whole image is not silently dropped: its line says why
    (part,), _ = build(
        runtime, [{"kind": "image", "mime_type": "image/png", "data": seventy.getvalue(), "extra": True}]
    )
    assert part.data is None and "too large to decode" in text_line(part)


# --- read_file_raw, the first user, through the door -------------------------------------------------------


def test_read_file_raw_gives_image_pdf_and_file_parts(runtime: ToolRuntime, small_vault: Path) -> None:
    (small_vault / "Pics").mkdir(exist_ok=True)
    shot, forged, pdf, big_pdf = png(3000, 1500), b"\x89PNG\r\n\x1a\n" + b"\x01" * 3000, blank_pdf(3), blank_pdf(300)
    (small_vault / "Pics" / "shot.png").write_bytes(shot)
    (small_vault / "Pics" / "forged.png").write_bytes(forged)
    (small_vault / "paper.pdf").write_bytes(pdf)
    (small_vault / "book.pdf").write_bytes(big_pdf + b"%" + bytes(300_000))  # over one read (200 000 bytes)
    ctx = ctx_of(runtime)

    def out(path: str) -> Any:
        return anyio.run(call_tool_output, ctx, "read_file_raw", {"vault": "notes", "path": path})

    image = out("Pics/shot.png")
    (part,) = image.parts
    assert (part.kind, part.mime_type, part.width, part.height) == ("image", "image/png", MAX_SIDE, 784)
    assert image.exact == ("content",)
    # call_tool's dict is unchanged: the first chunk of the stored bytes, base64
    plain = anyio.run(call_tool, ctx, "read_file_raw", {"vault": "notes", "path": "Pics/shot.png"})
    assert plain == image.data and base64.b64decode(plain["content"]) == shot[:200_000]

    (lie,) = out("Pics/forged.png").parts  # never an image part: the chunk as a file
    assert (lie.kind, lie.data, lie.uri) == ("file", forged, "vault://notes/Pics/forged.png")

    (doc,) = out("paper.pdf").parts
    assert (doc.kind, doc.mime_type, doc.data) == ("pdf", "application/pdf", pdf)

    book = out("book.pdf")  # a 300-page PDF over one read: its first chunk, as today, within the budget
    (chunk,) = book.parts
    assert chunk.kind == "file" and chunk.size == 200_000
    assert book.data["next_offset"] == 200_000

    assert out("Home.md").parts == []  # text: no part

    # the bytes, not the name, say what a file is
    (small_vault / "Pics" / "scan.png").write_bytes(pdf)
    (small_vault / "Pics" / "noise.jpg").write_bytes(b"\xff\xfe\x00\x01" * 100)
    (small_vault / "Pics" / "words.jpg").write_bytes(b"plain words")
    (small_vault / "Pics" / "export.bin").write_bytes(png(20, 10))
    scan = out("Pics/scan.png")
    assert scan.data["mime_type"] == "application/pdf" and [p.kind for p in scan.parts] == ["pdf"]
    noise = out("Pics/noise.jpg")
    assert noise.data["mime_type"] == "application/octet-stream" and [p.kind for p in noise.parts] == ["file"]
    ascii_pdf = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    (small_vault / "plain.pdf").write_bytes(ascii_pdf)  # a PDF with no binary byte: still a PDF, not text
    plain = out("plain.pdf")
    assert (plain.data["mime_type"], plain.data["encoding"]) == ("application/pdf", "base64")
    assert [(p.kind, p.data) for p in plain.parts] == [("pdf", ascii_pdf)]
    (small_vault / "Pics" / "ID3 talk.md").write_bytes(b"ID3 tags hold a song's title.\n")
    assert out("Pics/ID3 talk.md").data["encoding"] == "utf-8"  # a note is text whatever its first bytes
    words = out("Pics/words.jpg")
    assert (words.data["mime_type"], words.data["encoding"], words.parts) == ("text/plain", "utf-8", [])
    export = out("Pics/export.bin")
    assert export.data["mime_type"] == "image/png" and [(p.kind, p.width) for p in export.parts] == [("image", 20)]

    photo = noisy_png(400, 300, 1)  # over one read: the first chunk stays, the whole image comes after it
    (small_vault / "Pics" / "photo.png").write_bytes(photo)
    first, whole = out("Pics/photo.png").parts
    assert (first.kind, first.carries, first.data) == ("file", "content", photo[:200_000])
    assert (whole.kind, whole.data, whole.width) == ("image", photo, 400)
    (small_vault / "Pics" / "forged-big.png").write_bytes(forged * 100)
    (chunk_only,) = out("Pics/forged-big.png").parts  # the extra image left out: its bytes are not one
    assert chunk_only.kind == "file" and chunk_only.size == 200_000


def test_an_image_too_heavy_for_the_budget_alone_is_sent_as_a_jpeg_that_fits(
    runtime: ToolRuntime, small_vault: Path
) -> None:
    shot = noisy_png(1500, 1500, 7)  # ~6.8 MB under 1568 px: over the 5 MB of base64 a result may carry
    assert b64_len(len(shot)) > MAX_INLINE_B64
    done = normalise_image(shot)
    assert done is not None and done[1] == "image/jpeg" and b64_len(len(done[0])) <= MAX_INLINE_B64
    assert Image.open(io.BytesIO(done[0])).size == (done[2], done[3])
    (small_vault / "noise.png").write_bytes(shot)
    runtime.workspace.limits = dataclasses.replace(runtime.workspace.limits, max_read_bytes=8_000_000)
    out = anyio.run(call_tool_output, ctx_of(runtime), "read_file_raw", {"vault": "notes", "path": "noise.png"})
    (part,) = out.parts
    assert (part.kind, part.mime_type, part.data) == ("image", "image/jpeg", done[0])
    # over one read: the chunk stays a file part; the whole image, re-encoded, beside it
    runtime.workspace.limits = dataclasses.replace(runtime.workspace.limits, max_read_bytes=200_000)
    chunk, whole = anyio.run(
        call_tool_output, ctx_of(runtime), "read_file_raw", {"vault": "notes", "path": "noise.png"}
    ).parts
    assert (chunk.kind, whole.kind, whole.mime_type) == ("file", "image", "image/jpeg")


def test_a_heavy_16_bit_grey_png_keeps_its_greys_in_the_jpeg() -> None:
    import random

    from PIL import ImageStat

    grey = Image.frombytes("I;16", (1500, 1500), random.Random(1).randbytes(1500 * 1500 * 2))
    out = io.BytesIO()
    grey.save(out, "PNG")  # 16-bit ("I;16"), ~4.5 MB: over the budget alone
    done = normalise_image(out.getvalue())
    assert done is not None and done[1] == "image/jpeg"
    mean = ImageStat.Stat(Image.open(io.BytesIO(done[0])).convert("L")).mean[0]
    assert 110 < mean < 145  # mid-grey noise stays mid-grey (a plain convert clipped it to white)


def test_an_extra_image_over_the_caps_keeps_its_text_line(
    runtime: ToolRuntime, small_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parts_module, "MAX_INLINE_B64", 300_000)  # the chunk fits, the whole image cannot
    (small_vault / "photo.png").write_bytes(noisy_png(400, 300, 3))
    chunk, whole = anyio.run(
        call_tool_output, ctx_of(runtime), "read_file_raw", {"vault": "notes", "path": "photo.png"}
    ).parts
    assert chunk.kind == "file" and whole.data is None and whole.file_id is None
    assert text_line(whole).startswith("image/jpeg 400×300, photo.png (not inline: a result carries at most")


def test_a_part_kept_in_the_file_space_and_its_journal_row_name_each_other(
    runtime: ToolRuntime, small_vault: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(parts_module, "MAX_INLINE_B64", 100)  # no JPEG is that small: kept whole
    (small_vault / "noise.png").write_bytes(noisy_png(400, 300, 7))
    runtime.workspace.limits = dataclasses.replace(runtime.workspace.limits, max_read_bytes=8_000_000)
    ctx = ctx_of(runtime, session_id="conv1", turn_id="turn1")
    out = anyio.run(call_tool_output, ctx, "read_file_raw", {"vault": "notes", "path": "noise.png"})
    (part,) = out.parts
    assert part.data is None and part.file_id is not None and "not inline" in text_line(part)
    assert runtime.journal is not None
    (row,) = [r for r in runtime.journal.tail(5) if r["tool"] == "read_file_raw"]
    assert row["result_file_id"] == part.file_id
    assert runtime.files.get("anonymous", part.file_id).journal_seq == row["seq"]
