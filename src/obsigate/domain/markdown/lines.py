"""What one line of a note is: indentation, blockquote markers and the block openers/closers (§12).

Pure per-line recognisers (CommonMark block starts, with Obsidian's departures as read back from Obsidian
1.13), used by the block scanner in :mod:`obsigate.domain.markdown.blocks`. Kept apart so the scanner reads as
a state machine over lines and these rules can be checked one by one.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "ATX",
    "LIST_ITEM",
    "REF_DEF",
    "SETEXT_UNDERLINE",
    "TABLE_DELIM",
    "THEMATIC_BREAK",
    "closes_fence",
    "dedent",
    "ends_lazily",
    "fence_open",
    "heading_text",
    "html_ends",
    "html_start",
    "indentation",
    "interrupts",
    "is_blank",
    "space_width",
    "strip_quotes",
]

_QUOTE = re.compile(r" {0,3}> ?")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)")
ATX = re.compile(r"(#{1,6})(?:[ \t]+|$)")
LIST_ITEM = re.compile(r"([-+*]|([0-9]{1,9})[.)])(?:([ \t]+)|$)")
THEMATIC_BREAK = re.compile(r"(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,}")
REF_DEF = re.compile(r"\[(?:[^\]\\]|\\.)+\]:")
SETEXT_UNDERLINE = re.compile(r"(?:=+|-+)[ \t]*")
TABLE_DELIM = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
_HTML_RAW = re.compile(r"<(?:pre|script|style|textarea)(?:[ \t>]|$)", re.I)
_HTML_RAW_END = re.compile(r"</(?:pre|script|style|textarea)>", re.I)
_HTML_BLOCK = re.compile(
    r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
    r"dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|"
    r"html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|"
    r"section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:[ \t]|/?>|$)",
    re.I,
)
_HTML_LONE_TAG = re.compile(
    r"(?:<[A-Za-z][A-Za-z0-9-]*+(?:[ \t]++[A-Za-z_:][\w.:-]*+"
    r"(?:[ \t]*+=[ \t]*+(?:[^\s\"'=<>`]++|'[^']*+'|\"[^\"]*+\"))?+)*+[ \t]*+/?>"
    r"|</[A-Za-z][A-Za-z0-9-]*+[ \t]*+>)[ \t]*"
)


def indentation(s: str) -> tuple[int, int]:
    """(columns, characters) of leading whitespace; tabs stop every 4 columns."""
    if not s or (s[0] != " " and s[0] != "\t"):
        return 0, 0
    col = 0
    for i, ch in enumerate(s):
        if ch == " ":
            col += 1
        elif ch == "\t":
            col += 4 - col % 4
        else:
            return col, i
    return col, len(s)


def space_width(space: str, start: int) -> int:
    """Width of the spaces/tabs in `space` when it starts at column `start`."""
    col = start
    for ch in space:
        col += 1 if ch == " " else 4 - col % 4
    return col - start


def strip_quotes(line: str, limit: int = 1 << 30) -> tuple[int, str]:
    depth = 0
    pos = 0
    while depth < limit and (m := _QUOTE.match(line, pos)) is not None:
        depth += 1
        pos = m.end()
    return depth, line[pos:] if pos else line


def dedent(s: str, columns: int) -> str:
    col = 0
    for i, ch in enumerate(s):
        if col >= columns or ch not in " \t":
            return s[i:]
        col += 1 if ch == " " else 4 - col % 4
    return ""


def is_blank(s: str) -> bool:
    # Only spaces make a blank line: Obsidian keeps a paragraph or HTML block going past a tab-only line.
    return not s.strip(" ")


def fence_open(s: str) -> tuple[str, int, str] | None:
    """(char, length, marker) of a fence opener; an info string may not hold a backtick."""
    m = _FENCE.match(s)
    if m is None or (s[0] == "`" and "`" in m.group(2)):
        return None
    return s[0], len(m.group(1)), m.group(1)


def closes_fence(s: str, fence: tuple[str, int, str]) -> bool:
    cols, i = indentation(s)
    if cols > 3:
        return False
    rest = s[i:]
    run = len(rest) - len(rest.lstrip(fence[0]))
    return run >= fence[1] and not rest[run:].strip(" \t")


def html_start(s: str, interrupting: bool) -> Any:
    """End condition of an HTML block starting with `s` ("" = a blank line), or None (CommonMark types 1-7)."""
    if s.startswith("<!--"):
        return "-->"
    if s.startswith("<?"):
        return "?>"
    if s.startswith("<![CDATA["):
        return "]]>"
    if s.startswith("<!") and s[2:3].isascii() and s[2:3].isalpha():
        return ">"
    if _HTML_RAW.match(s):
        return _HTML_RAW_END
    if _HTML_BLOCK.match(s) or (not interrupting and _HTML_LONE_TAG.fullmatch(s)):
        return ""
    return None


def html_ends(end: Any, s: str, opening: bool = False) -> bool:
    if isinstance(end, str):
        return end in (s[2:] if opening else s)
    return end.search(s) is not None


def heading_text(rest: str) -> str:
    text = rest.strip(" \t")
    if text.endswith("#"):
        bare = text.rstrip("#")
        if not bare:
            return ""
        if bare[-1] in " \t":  # a closing sequence needs a space before it
            return bare.rstrip(" \t")
    return text


def ends_lazily(line: str) -> bool:
    """A line outside a container's indentation that closes the container and its open block (readback:
    a heading or a list item does, a fence does not)."""
    s = line.lstrip(" \t")
    if not s or len(line) - len(s) > 3:
        return False
    if s[0] == "#":
        return ATX.match(s) is not None
    return s[0] in "-+*0123456789" and LIST_ITEM.match(s) is not None


def interrupts(s: str, para: list[str], in_list: bool) -> bool:
    """Can `s` (relative indent < 4) start a block in the middle of a paragraph?"""
    c = s[0]
    if c == "#":
        return ATX.match(s) is not None
    if c == "`" or c == "~":
        return fence_open(s) is not None
    if c == "<":
        return html_start(s, True) is not None
    if c == "$":  # unless it closes $$ opened inline in this paragraph
        return s.startswith("$$") and sum(p.count("$$") for p in para) % 2 == 0
    if c in "-*_" and THEMATIC_BREAK.fullmatch(s):
        return True
    if c in "-+*0123456789" and (m := LIST_ITEM.match(s)) is not None:
        if not s[m.end() :].strip(" \t"):
            return in_list
        return m.group(2) is None or m.group(2) == "1" or in_list
    return False
