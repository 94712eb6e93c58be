"""The note view's math and diagrams, and the files that are not notes, in a real browser (issue 11 item 3):
KaTeX and mermaid drawn on demand (never in the first load), a sortable CSV, PDF in the browser's own viewer,
docx and xlsx previews that stay inert whatever the file holds, audio and video with seeking, a download link
for every kind. The test files are written here, byte by byte (no binary fixture from anywhere)."""

from __future__ import annotations

import gzip
import re
import time
import wave
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote
from xml.etree import ElementTree

import httpx2

NOTE_WITH_MATH = r"""# Maths

Inline $a^2 + b^2 = c^2$ in a sentence, and prices like $5 and $6 stay text.

$$
\int_0^1 x\,dx = \frac{1}{2}
$$

A hostile one: $\href{javascript:window.pwned=1}{click}$, a bold $\pmb{x}$ and a mistake $\frac{1}{$ here.
"""

NOTE_WITH_DIAGRAMS = """# Diagrams

```mermaid
flowchart LR
    A[Alpha node] --> B[Beta <img src=x onerror=window.pwned=1> node]
```

```mermaid
flowchart LR
    this is not --> a [valid diagram
```
"""


def _open(page: Any, server: Any, path: str) -> None:
    """Opens ``path`` once the server's index has it (the file was just written: the side panel asks for its
    backlinks, which are answered from the index)."""
    deadline = time.monotonic() + 15
    while httpx2.get(f"{server.url}/api/backlinks/notes", params={"path": path}).status_code == 404:
        assert time.monotonic() < deadline, f"{path} never indexed"
        time.sleep(0.1)
    page.goto(f"{server.url}/#/v/notes/{quote(path)}", wait_until="networkidle")
    page.wait_for_selector("#note-title")


def _pwned(page: Any) -> Any:
    return page.evaluate("window.pwned")


# ---- files written by hand ----------------------------------------------------------------------------


def _zip(path: Path, parts: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in parts.items():
            z.writestr(name, '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + text)


REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG = "http://schemas.openxmlformats.org/package/2006"


def write_docx(path: Path, paragraphs: list[str], link: str) -> None:
    """A Word document: a "Heading 1" paragraph, then ``paragraphs``, then a hyperlink to ``link``."""
    w = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
    esc = lambda s: s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")  # noqa: E731
    body = "".join(f"<w:p><w:r><w:t>{esc(p)}</w:t></w:r></w:p>" for p in paragraphs)
    _zip(path, {
        "[Content_Types].xml": f'<Types xmlns="{PKG}/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/word/document.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        "_rels/.rels": f'<Relationships xmlns="{PKG}/relationships">'
        f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="word/document.xml"/></Relationships>',
        "word/_rels/document.xml.rels": f'<Relationships xmlns="{PKG}/relationships">'
        f'<Relationship Id="rId1" Type="{REL}/styles" Target="styles.xml"/>'
        f'<Relationship Id="rId9" Type="{REL}/hyperlink" Target="{esc(link)}" TargetMode="External"/></Relationships>',
        "word/styles.xml": f'<w:styles xmlns:w="{w}"><w:style w:type="paragraph" w:styleId="Heading1">'
        '<w:name w:val="heading 1"/></w:style></w:styles>',
        "word/document.xml": f'<w:document xmlns:w="{w}" xmlns:r="{REL}"><w:body>'
        '<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>Survey report</w:t></w:r></w:p>'
        f'{body}<w:p><w:hyperlink r:id="rId9"><w:r><w:t>a link</w:t></w:r></w:hyperlink></w:p></w:body></w:document>',
    })  # fmt: skip


def write_xlsx(path: Path, sheets: dict[str, list[list[str | int]]]) -> None:
    """A workbook with one worksheet per entry of ``sheets`` (strings inline, numbers as values)."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    esc = lambda s: s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")  # noqa: E731

    def cell(ref: str, v: str | int) -> str:
        return (
            f'<c r="{ref}"><v>{v}</v></c>'
            if isinstance(v, int)
            else f'<c r="{ref}" t="inlineStr"><is><t>{esc(v)}</t></is></c>'
        )

    parts = {
        "[Content_Types].xml": f'<Types xmlns="{PKG}/content-types">'
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
                  'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                  for i in range(1, len(sheets) + 1)) + "</Types>",
        "_rels/.rels": f'<Relationships xmlns="{PKG}/relationships">'
        f'<Relationship Id="rId1" Type="{REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": f'<workbook xmlns="{main}" xmlns:r="{REL}"><sheets>'
        + "".join(f'<sheet name="{esc(n)}" sheetId="{i}" r:id="rId{i}"/>' for i, n in enumerate(sheets, 1)) + "</sheets></workbook>",
        "xl/_rels/workbook.xml.rels": f'<Relationships xmlns="{PKG}/relationships">'
        + "".join(f'<Relationship Id="rId{i}" Type="{REL}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                  for i in range(1, len(sheets) + 1)) + "</Relationships>",
    }  # fmt: skip
    for i, rows in enumerate(sheets.values(), 1):
        data = "".join(f'<row r="{r}">' + "".join(cell(f"{chr(65 + c)}{r}", v) for c, v in enumerate(row)) + "</row>"
                       for r, row in enumerate(rows, 1))  # fmt: skip
        parts[f"xl/worksheets/sheet{i}.xml"] = f'<worksheet xmlns="{main}"><sheetData>{data}</sheetData></worksheet>'
    _zip(path, parts)


def tiny_pdf(text: str) -> bytes:
    """A one-page PDF showing ``text`` (hand-written objects, the cross-reference table computed)."""
    stream = f"BT /F1 24 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def write_wav(path: Path, seconds: float = 1.0, rate: int = 8000) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x00\x00" * int(seconds * rate))


# ---- math and diagrams ------------------------------------------------------------------------------------


def test_inline_and_display_math_are_drawn_and_stay_inert(page: Any, open_server: Any, web_vault: Path) -> None:
    (web_vault / "Maths.md").write_text(NOTE_WITH_MATH)
    _open(page, open_server, "Maths.md")
    page.wait_for_selector(".markdown-body .katex-display")
    body = page.locator(".markdown-body")
    assert body.locator(".math-inline .katex").count() == 3  # a^2…, the hostile \href, \pmb
    assert body.locator(".katex-display").count() == 1
    assert body.locator(".katex-display .mfrac").count() == 1 and body.locator("math").count() == 4  # MathML too
    text = page.evaluate("""() => {
        const b = document.querySelector('.markdown-body').cloneNode(true);
        b.querySelectorAll('.katex').forEach((k) => k.remove());
        return b.textContent; }""")
    assert "a^2" not in text and "\\int" not in text and "$$" not in text  # no raw TeX left
    assert "prices like $5 and $6 stay text" in text  # Obsidian's rule: not math
    assert body.locator("a").count() == 0 and _pwned(page) is None  # \href is refused (trust: false)
    assert body.locator(".katex-error").count() == 1  # the mistake shows as such; the rest still renders
    loaded = page.evaluate("[...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family)")
    assert any("KaTeX_Main" in f for f in loaded)  # the bundled fonts, from /static (font-src 'self')


def test_mermaid_is_an_image_with_its_labels_and_a_broken_one_says_why(
    page: Any, open_server: Any, web_vault: Path
) -> None:
    (web_vault / "Diagrams.md").write_text(NOTE_WITH_DIAGRAMS)
    # Mermaid sanitises label HTML with DOMPurify inside its frame; Chromium reports the onerror="" attribute it
    # parses there as refused by the frame's policy (script-src 'self'). Refused: window.pwned stays unset.
    page.watch.expect("Executing inline event handler")
    _open(page, open_server, "Diagrams.md")
    img = page.wait_for_selector("figure.mermaid img.mermaid-image")
    src = img.get_attribute("src")
    assert src.startswith("data:image/svg+xml;charset=utf-8,")
    svg = unquote(src.split(",", 1)[1])
    labels = ["".join(t.itertext()) for t in ElementTree.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")]
    assert "Alpha node" in labels and any(x.startswith("Beta") for x in labels)  # SVG text, which an <img> shows
    assert "<script" not in svg and "onerror" not in svg and "<foreignObject" not in svg
    assert int(img.get_attribute("width")) > 50 and page.evaluate("(i) => i.naturalWidth", img) > 50  # it draws
    error = page.wait_for_selector("figure.mermaid .mermaid-error")
    assert "cannot be drawn" in error.inner_text() and "valid diagram" in error.inner_text()  # message + source
    assert _pwned(page) is None
    # The theme is followed: switching to dark redraws the picture with mermaid's dark theme.
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    page.wait_for_function("(old) => document.querySelector('img.mermaid-image').src !== old", arg=src)
    assert page.locator("figure.mermaid").first.get_attribute("data-dark") == "true"


def test_the_first_load_stays_small(page: Any, open_server: Any) -> None:
    """A note without math or diagrams: none of their code is fetched, and the JavaScript stays under budget."""
    scripts: list[str] = []
    page.on("response", lambda r: scripts.append(r.url) if r.url.endswith(".js") else None)
    page.goto(f"{open_server.url}/#/v/notes/Home.md", wait_until="networkidle")
    page.wait_for_selector(".markdown-body")
    names = [u.rsplit("/", 1)[-1] for u in scripts]
    assert not [n for n in names if re.match(r"(math|mermaid|office|katex|editor)-", n)], names
    assert page.locator("iframe.mermaid-frame").count() == 0
    assert not page.evaluate("[...document.styleSheets].some((s) => (s.href || '').includes('katex'))")
    total = sum(len(gzip.compress(httpx2.get(u).content, 9)) for u in scripts)
    assert total <= 400 * 1024, f"{total / 1024:.1f} KB gzipped"


# ---- files that are not notes -----------------------------------------------------------------------------


def _download_link(page: Any, path: str) -> None:
    link = page.locator("#download-file")
    assert link.get_attribute("href") == f"/api/file/notes/raw?path={quote(path, safe='')}"
    assert link.get_attribute("download") == path.rsplit("/", 1)[-1]


def test_csv_sorts_by_column_with_mouse_and_keyboard(page: Any, open_server: Any, web_vault: Path) -> None:
    (web_vault / "counts.csv").write_text("species,count\nsnail,10\nanemone,9\nsea star,100\n")
    _open(page, open_server, "counts.csv")
    col = lambda i: page.locator(f".csv-table tbody td:nth-child({i})").all_inner_texts()  # noqa: E731
    assert col(2) == ["10", "9", "100"]
    count = page.locator(".csv-table th", has_text="count")
    count.click()
    assert col(2) == ["9", "10", "100"] and count.get_attribute("aria-sort") == "ascending"  # as numbers
    count.focus()
    page.keyboard.press("Enter")
    assert col(2) == ["100", "10", "9"] and count.get_attribute("aria-sort") == "descending"
    species = page.locator(".csv-table th", has_text="species")
    species.focus()
    page.keyboard.press(" ")
    assert col(1) == ["anemone", "sea star", "snail"] and count.get_attribute("aria-sort") == "none"
    _download_link(page, "counts.csv")


def test_pdf_opens_in_the_browsers_viewer(page: Any, open_server: Any, web_vault: Path) -> None:
    (web_vault / "Attachments" / "report.pdf").write_bytes(tiny_pdf("Tide report"))
    # The viewer is the browser's own: its chrome:// and chrome-extension:// files never leave the machine
    # (page routes come before the fixture's guard, which would refuse them as not loopback).
    page.route(re.compile(r"^chrome(-extension)?://"), lambda route: route.continue_())
    _open(page, open_server, "Attachments/report.pdf")
    frame = page.wait_for_selector("iframe.file-frame")
    raw = f"/api/file/notes/raw?path={quote('Attachments/report.pdf', safe='')}"
    assert frame.get_attribute("src") == raw and frame.get_attribute("title") == "report.pdf"
    deadline = time.monotonic() + 10
    while not any(f.url.startswith("chrome-extension://") for f in page.frames):  # the PDF viewer started
        assert time.monotonic() < deadline, [f.url for f in page.frames]
        page.wait_for_timeout(100)
    assert any(f.url.endswith(raw) for f in page.frames)  # in our frame: the file's policy let it be framed
    _download_link(page, "Attachments/report.pdf")


def test_docx_preview_and_a_hostile_one_stays_inert(page: Any, open_server: Any, web_vault: Path) -> None:
    hostile = '<script>window.pwned=1</script><img src=x onerror="window.pwned=2">'
    write_docx(web_vault / "report.docx", ["Hello from Word", hostile], link="javascript:window.pwned=3")
    _open(page, open_server, "report.docx")
    body = page.wait_for_selector(".docx-body")
    assert body.query_selector("h1").inner_text() == "Survey report"  # Word's heading style, kept
    assert "Hello from Word" in body.inner_text() and hostile in body.inner_text()  # shown as text
    assert body.query_selector("script, img, [onerror]") is None
    assert not [
        a.get_attribute("href") for a in body.query_selector_all("a") if "javascript" in (a.get_attribute("href") or "")
    ]
    page.click(".docx-body a")  # a link DOMPurify emptied does nothing
    assert _pwned(page) is None
    _download_link(page, "report.docx")


def test_xlsx_preview_with_its_sheets_and_hostile_cells(page: Any, open_server: Any, web_vault: Path) -> None:
    write_xlsx(web_vault / "survey.xlsx", {
        "Counts": [["Species", "Count"], ["Ochre sea star", 42], ['<img src=x onerror="window.pwned=4">', 7]],
        "Notes": [["Calm sea, low swell"]],
    })  # fmt: skip
    _open(page, open_server, "survey.xlsx")
    table = page.wait_for_selector(".xlsx-table")
    cells = [c.inner_text() for c in table.query_selector_all("tbody td")]
    assert cells == ["Species", "Count", "Ochre sea star", "42", '<img src=x onerror="window.pwned=4">', "7"]
    assert table.query_selector("tbody img") is None and table.query_selector("td.num").inner_text() == "42"
    page.select_option("#xlsx-sheet", label="Notes")  # the sheet picker (a labelled <select>)
    page.wait_for_selector(".xlsx-table td >> text=Calm sea, low swell")
    assert page.locator("label.xlsx-picker").inner_text().startswith("Sheet")
    assert _pwned(page) is None
    _download_link(page, "survey.xlsx")


def test_office_files_over_the_cap_are_only_offered_for_download(page: Any, open_server: Any, web_vault: Path) -> None:
    (web_vault / "huge.xlsx").write_bytes(b"PK" + b"\0" * (21 * 1024 * 1024))
    _open(page, open_server, "huge.xlsx")
    notice = page.wait_for_selector(".office-preview .notice")
    assert "over 20 MB" in notice.inner_text()
    (web_vault / "broken.docx").write_bytes(b"not a zip at all")
    _open(page, open_server, "broken.docx")
    assert "cannot be previewed" in page.wait_for_selector(".office-preview .notice").inner_text()
    _download_link(page, "broken.docx")


def test_audio_plays_from_the_raw_file_and_video_is_set_up(page: Any, open_server: Any, web_vault: Path) -> None:
    write_wav(web_vault / "Attachments" / "tide.wav", seconds=2.0)
    _open(page, open_server, "Attachments/tide.wav")
    audio = page.wait_for_selector("audio.file-audio")
    raw = f"/api/file/notes/raw?path={quote('Attachments/tide.wav', safe='')}"
    assert audio.get_attribute("src") == raw and audio.get_attribute("controls") == ""
    page.wait_for_function("() => document.querySelector('audio.file-audio').duration > 1.9")  # it decoded
    ranged = page.evaluate(
        f"fetch({raw!r}, {{headers: {{Range: 'bytes=44-99'}}}}).then(async (r) => [r.status, "
        "r.headers.get('Content-Range'), (await r.arrayBuffer()).byteLength])"
    )
    assert ranged[0] == 206 and ranged[1].startswith("bytes 44-99/") and ranged[2] == 56  # seeking works
    _download_link(page, "Attachments/tide.wav")
    (web_vault / "Attachments" / "clip.webm").write_bytes(b"")  # no encoder here: the element is what is tested
    _open(page, open_server, "Attachments/clip.webm")
    video = page.wait_for_selector("video.file-preview")
    assert video.get_attribute("src") == f"/api/file/notes/raw?path={quote('Attachments/clip.webm', safe='')}"
    assert video.get_attribute("controls") == "" and video.get_attribute("aria-label") == "clip.webm"
