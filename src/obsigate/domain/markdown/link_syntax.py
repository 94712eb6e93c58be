"""Links: the :class:`Link` record and how the text of a link becomes one (§4 wikilinks, §6 markdown links).

Kept apart from scanning (:mod:`obsigate.domain.markdown.inline`) because frontmatter links (§3) go through the
same rules without any scanning: what a link *means* is decided here, where it *is* is decided there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from obsigate.domain.text import nfc

__all__ = ["FRONTMATTER", "MARKDOWN", "WIKILINK", "Link", "decode_uri", "markdown_link", "wikilink"]

WIKILINK = "wikilink"
MARKDOWN = "markdown"
FRONTMATTER = "frontmatter"


@dataclass(frozen=True, slots=True)
class Link:
    """One outgoing reference of a note.

    - ``target``: link path without subpath, trimmed, NBSP->space, NFC; markdown destinations decoded
      like JS ``decodeURI`` (§6). ``""`` is the note itself (``[[#H]]``, ``[x](#H)``).
    - ``subpath``: ``"#Heading"``, ``"#^block"``, ``"#H1#H2"``; None when absent.
    - ``display``: wikilink alias after ``|``, or markdown link text; None when absent or empty.
    - ``kind``: ``"wikilink"``, ``"markdown"`` or ``"frontmatter"`` (a quoted ``"[[…]]"`` property, §3).
    - ``embed``: ``![[…]]`` or ``![…](…)`` (§5).
    - ``line``: 1-based file line (frontmatter links: the value's line when found, else 1).
    - ``key``: property path such as ``"related.0"`` for frontmatter links.
    """

    target: str
    subpath: str | None
    display: str | None
    kind: str
    embed: bool
    line: int
    key: str | None = None


def _clean(text: str) -> str:
    # §4 cleanString: NBSP -> space, NFC (macOS stores NFD), trim.
    if not text.isascii():
        text = nfc(text.replace("\xa0", " "))
    return text.strip()


def _split_subpath(linktext: str) -> tuple[str, str | None]:
    # §4 parseLinktext: split at the first '#'.
    cut = linktext.find("#")
    if cut == -1:
        return linktext, None
    return linktext[:cut].strip(), linktext[cut:]


def wikilink(content: str, embed: bool, line: int, kind: str = WIKILINK, key: str | None = None) -> Link | None:
    """Build a link from the text between ``[[`` and ``]]`` (§4); None for ``[[ ]]``."""
    display = None
    pipe = content.find("|")
    if pipe > 0:  # a leading '|' is part of the link text
        linktext = content[:pipe]
        if linktext.endswith("\\"):  # table escape [[Note\|alias]]
            linktext = linktext[:-1]
        display = content[pipe + 1 :].strip() or None
    else:
        linktext = content
    linktext = _clean(linktext)
    if not linktext:
        return None  # [[ ]]: recommended to ignore (§4, UNVERIFIED self-link)
    target, subpath = _split_subpath(linktext)
    return Link(target, subpath, display, kind, embed, line, key)


_URI_RESERVED = frozenset(";/?:@&=+$,#")
_PERCENT = re.compile(r"%([0-9A-Fa-f]{2})")


def decode_uri(text: str) -> str | None:
    """JS ``decodeURI``: decode UTF-8 %XX runs except reserved characters (``%23`` stays); None if malformed."""
    if "%" not in text:
        return text
    out = []
    pos = 0
    while (pct := text.find("%", pos)) != -1:
        out.append(text[pos:pct])
        m = _PERCENT.match(text, pct)
        if m is None:
            return None
        first = int(m.group(1), 16)
        if first < 0x80:
            out.append(m.group() if chr(first) in _URI_RESERVED else chr(first))
            pos = m.end()
            continue
        size = 2 if first >> 5 == 0b110 else 3 if first >> 4 == 0b1110 else 4 if first >> 3 == 0b11110 else 0
        if not size:  # a continuation byte or 0xF8+ cannot start a character
            return None
        raw = bytearray([first])
        pos = m.end()
        for _ in range(size - 1):
            m = _PERCENT.match(text, pos)
            if m is None:
                return None
            raw.append(int(m.group(1), 16))
            pos = m.end()
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError:  # bad continuation byte, overlong form or surrogate
            return None
    out.append(text[pos:])
    return "".join(out)


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def markdown_link(dest: str, display: str | None, embed: bool, line: int) -> Link | None:
    """§6: internal iff no URL scheme; decodeURI, then like a wikilink."""
    if "\\" in dest:
        dest = _ESCAPED.sub(r"\1", dest)
    if _SCHEME.match(dest):
        return None
    decoded = decode_uri(dest)
    if decoded is None:
        return None
    cleaned = _clean(decoded)
    if not cleaned:
        return None
    target, subpath = _split_subpath(cleaned)
    return Link(target, subpath, display, MARKDOWN, embed, line)
