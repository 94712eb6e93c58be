"""``GET /api/file/{vault}/raw`` as the web app's file viewer uses it (issue 11 item 3): whatever a vault file
holds, it never runs as the app (HTML and SVG are sandboxed documents), a PDF can be framed by the app for the
browser's own viewer, and a byte range is answered for audio and video seeking."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

SCRIPTED = b"<html><body><script>document.title='pwned'</script></body></html>"


@pytest.fixture
def server(live_server, small_vault: Path):
    (small_vault / "Attachments" / "page.html").write_bytes(SCRIPTED)
    (small_vault / "Attachments" / "drawing.svg").write_bytes(
        b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'
    )
    (small_vault / "Attachments" / "report.pdf").write_bytes(b"%PDF-1.4\n% a test file\n%%EOF\n")
    (small_vault / "Attachments" / "disguised.pdf").write_bytes(SCRIPTED)  # HTML under a PDF name
    (small_vault / "Attachments" / "été.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    (small_vault / "Attachments" / "sound.wav").write_bytes(bytes(range(100)))
    (small_vault / "Attachments" / "gadget.js").write_bytes(b"document.title='pwned'")
    (small_vault / "Attachments" / "theme.css").write_bytes(b"body{display:none}")
    return live_server({"notes": small_vault}, auth_enabled=False)


def _raw(server, path: str, **headers: str) -> httpx2.Response:
    return httpx2.get(f"{server.url}/api/file/notes/raw", params={"path": path}, headers=headers)


@pytest.mark.parametrize("path", ["Attachments/page.html", "Attachments/drawing.svg", "Attachments/pic.png", "Home.md"])
def test_every_file_but_a_pdf_is_a_sandboxed_document(server, path: str) -> None:
    r = _raw(server, path)
    assert r.status_code == 200
    assert r.headers["content-security-policy"] == "sandbox; default-src 'none'"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_a_pdf_can_be_framed_by_the_app_only(server) -> None:
    r = _raw(server, "Attachments/report.pdf")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    policy = r.headers["content-security-policy"]
    assert policy == "frame-ancestors 'self'" and "sandbox" not in policy  # browsers show no PDF in a sandbox
    assert r.headers["x-content-type-options"] == "nosniff"  # the type is never guessed from the bytes
    assert r.headers["content-disposition"] == "inline; filename*=UTF-8''report.pdf"
    assert (
        _raw(server, "Attachments/été.pdf").headers["content-disposition"]
        == "inline; filename*=UTF-8''%C3%A9t%C3%A9.pdf"
    )


def test_html_named_pdf_is_still_only_a_pdf(server) -> None:
    r = _raw(server, "Attachments/disguised.pdf")
    assert r.headers["content-type"] == "application/pdf" and r.headers["x-content-type-options"] == "nosniff"
    assert r.content == SCRIPTED  # the bytes as stored, for the PDF viewer, which will refuse them


@pytest.mark.parametrize(
    ("range_", "status", "body", "content_range"),
    [
        ("bytes=10-19", 206, bytes(range(10, 20)), "bytes 10-19/100"),
        ("bytes=95-", 206, bytes(range(95, 100)), "bytes 95-99/100"),
        ("bytes=-3", 206, bytes(range(97, 100)), "bytes 97-99/100"),
        ("bytes=90-500", 206, bytes(range(90, 100)), "bytes 90-99/100"),  # clipped to the file
        ("bytes=0-1,5-6", 200, bytes(range(100)), None),  # several ranges: the whole file, as RFC 9110 allows
        ("bytes=20-10", 200, bytes(range(100)), None),
        # past the end: the whole file, as RFC 9110 allows, not 416 (Chromium's media player asks for it and
        # would log each 416 as an error in the page)
        ("bytes=200-", 200, bytes(range(100)), None),
        ("bytes=100-", 200, bytes(range(100)), None),
        ("bytes=-0", 200, bytes(range(100)), None),
        ("items=1-2", 200, bytes(range(100)), None),
    ],
)
def test_byte_ranges(server, range_: str, status: int, body: bytes, content_range: str | None) -> None:
    r = _raw(server, "Attachments/sound.wav", Range=range_)
    assert r.status_code == status and r.content == body
    assert r.headers.get("content-range") == content_range
    assert r.headers["accept-ranges"] == "bytes" and r.headers["content-type"].startswith("audio/")
    assert r.headers["content-security-policy"] == "sandbox; default-src 'none'"


def test_a_range_of_a_note_is_cut_from_the_redacted_text(server, small_vault: Path) -> None:
    whole = _raw(server, "Projects/Secret.md")
    part = _raw(server, "Projects/Secret.md", Range="bytes=0-")
    assert part.status_code == 206 and part.content == whole.content and b"sk-proj" not in part.content


@pytest.mark.parametrize("path", ["Attachments/gadget.js", "Attachments/theme.css"])
def test_code_from_a_vault_is_served_as_plain_text(server, path: str) -> None:
    """A vault's script or style sheet served as such would satisfy the page's ``script-src 'self'``; as
    ``text/plain`` with ``nosniff`` no browser runs or applies it."""
    r = _raw(server, path)
    assert r.status_code == 200 and r.headers["content-type"] == "text/plain; charset=utf-8"
    assert r.headers["x-content-type-options"] == "nosniff"
