"""Readable text out of a fetched document: HTML through trafilatura (main content as markdown, boilerplate such
as menus and footers dropped; ``arsenal.md`` §e), PDF through pypdf (its text layer only: a scanned PDF gives
little), JSON pretty-printed, text and markdown as they are. CPU-bound: call it in a worker thread."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from io import BytesIO

from obsigate.services.errors import ServiceError
from obsigate.services.net.client import Fetched

__all__ = ["MAX_PDF_PAGES", "Readable", "readable"]

#: Most pages of a PDF read (a longer one is read up to here, ``truncated``).
MAX_PDF_PAGES = 100

# trafilatura and pypdf report the quirks of other people's documents at WARNING: not the server's problem
for _name in ("trafilatura", "htmldate", "courlan", "pypdf"):
    logging.getLogger(_name).setLevel(logging.ERROR)


@dataclass(frozen=True)
class Readable:
    """A document's ``title`` (``None`` when it has none) and ``text``; ``truncated``: pages were left out."""

    title: str | None
    text: str
    truncated: bool = False


def readable(doc: Fetched) -> Readable:
    """The readable text of ``doc`` by its content type.

    Raises:
        ServiceError: ``fetch_failed`` for a PDF that does not parse.
    """
    if doc.content_type in ("text/html", "application/xhtml+xml"):
        return _html(_decode(doc), doc.url)
    if doc.content_type == "application/pdf":
        return _pdf(doc.body, doc.url)
    text = _decode(doc)
    if doc.content_type == "application/json":
        try:
            text = json.dumps(json.loads(text), ensure_ascii=False, indent=2)
        except ValueError:
            pass  # shown as sent: the model can still read it
    return Readable(title=None, text=text)


def _decode(doc: Fetched) -> str:
    for encoding in (doc.charset, "utf-8"):
        if encoding:
            try:
                return doc.body.decode(encoding)
            except (LookupError, UnicodeDecodeError):
                continue
    return doc.body.decode("utf-8", "replace")


#: trafilatura's markdown escapes ``_ * [ ]``... with a backslash: undone, so that the redaction every result goes
#: through sees a secret as written (``ghp\_…`` slips past its patterns) and the model reads plain text.
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|<>~])")


def _html(html: str, url: str) -> Readable:
    import trafilatura  # 0.2 s to import: only when a page is read

    text = trafilatura.extract(html, url=url, output_format="markdown", include_links=True, favor_recall=True)
    meta = trafilatura.extract_metadata(html, default_url=url)
    title = (meta.title if meta is not None else None) or None
    if text:
        text = _MD_ESCAPE.sub(r"\1", text)
    else:  # nothing trafilatura calls content (a bare page): the page's visible text
        text = _visible_text(html)
    return Readable(title=title, text=text.strip())


def _visible_text(html: str) -> str:
    from lxml import html as lxml_html

    try:
        root = lxml_html.fromstring(html)
    except (ValueError, TypeError):  # lxml's ParserError is a ValueError: an empty or unparseable page
        return ""
    for bad in root.xpath("//script|//style|//noscript|//template"):
        bad.drop_tree()
    return " ".join(root.text_content().split())


def _pdf(data: bytes, url: str) -> Readable:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(BytesIO(data))  # bytes in memory, not a file
        pages = reader.pages
        count = len(pages)
        texts = [pages[i].extract_text() or "" for i in range(min(count, MAX_PDF_PAGES))]
        title = reader.metadata.title if reader.metadata is not None else None
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as exc:
        raise ServiceError(
            f"{url} is a PDF that could not be read ({type(exc).__name__})",
            code="fetch_failed",
            details={"reason": "pdf"},
        ) from None
    body = "\n\n".join(t.strip() for t in texts if t.strip())
    return Readable(title=title or None, text=body, truncated=count > MAX_PDF_PAGES)
