"""Real images made with Pillow for the tests of results with parts (issue 21): one place, so every test feeds
the tool layer the same kinds of picture."""

from __future__ import annotations

import io
import random

from PIL import Image


def png(width: int, height: int, colour: tuple[int, int, int] = (10, 100, 200)) -> bytes:
    """A plain PNG of one ``colour``."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def striped_png(width: int, height: int) -> bytes:
    """A blue PNG with yellow stripes every 50 px: something to look at in a screenshot."""
    image = Image.new("RGB", (width, height), (20, 90, 160))
    for x in range(0, width, 50):
        image.paste((240, 200, 40), (x, 0, x + 10, height))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def noisy_png(width: int, height: int, seed: int = 5) -> bytes:
    """A PNG that does not compress (random pixels, stored without compression): about 3 bytes a pixel."""
    data = random.Random(seed).randbytes(width * height * 3)
    out = io.BytesIO()
    Image.frombytes("RGB", (width, height), data).save(out, "PNG", compress_level=0)
    return out.getvalue()


def blank_pdf(pages: int) -> bytes:
    """A real PDF of ``pages`` blank A4 pages (pypdf)."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=595, height=842)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
