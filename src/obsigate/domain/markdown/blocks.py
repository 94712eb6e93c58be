"""Block structure of a note body: one pass over the lines, filling headings, links and tags.

The pass tracks fenced / indented code, ``$$`` math, HTML blocks, blockquotes, list items and tables (rules:
`shared/reference/obsidian.md` §8, §12, following Obsidian 1.13 readbacks where it departs from CommonMark),
and hands every inline run (paragraph, heading, table row) to :func:`obsigate.domain.markdown.inline.scan_inline`.
What a single line is comes from :mod:`obsigate.domain.markdown.lines`; this module holds the state between lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from obsigate.domain.markdown.inline import scan_inline
from obsigate.domain.markdown.lines import (
    ATX,
    LIST_ITEM,
    REF_DEF,
    SETEXT_UNDERLINE,
    TABLE_DELIM,
    THEMATIC_BREAK,
    closes_fence,
    dedent,
    ends_lazily,
    fence_open,
    heading_text,
    html_ends,
    html_start,
    indentation,
    interrupts,
    is_blank,
    space_width,
    strip_quotes,
)
from obsigate.domain.markdown.link_syntax import Link

__all__ = ["Heading", "scan_blocks"]


@dataclass(frozen=True, slots=True)
class Heading:
    """A top-level ATX heading (§8): ``level`` 1..6, ``text`` trimmed without closing ``#``s, 1-based ``line``."""

    level: int
    text: str
    line: int


_MAX_MARKERS = 16  # list markers opened on one line ("- - - x"); past this the rest is text, keeping it linear
# First characters that may open or interrupt a block; any other line is plain paragraph text.
_SPECIAL_START = frozenset(" \t#`~<$-*_+=|>0123456789")

# Open leaf blocks: (kind, quote depth, list content indent, data).
_FENCED, _MATH, _HTML, _CODE = "F", "M", "H", "I"
_Leaf = tuple[str, int, int, Any]


def _next_outside(lines: list[str], index: int, columns: int) -> bool:
    """After a blank line: does the next non-blank line fall outside a list item's content?"""
    for line in lines[index:]:
        if not is_blank(line):
            return indentation(line)[0] < columns
    return True


def _continue_leaf(leaf: _Leaf, line: str, lines: list[str], index: int) -> tuple[_Leaf | None, bool]:
    """Feed `line` to an open code/math/HTML block: (the block if still open, whether it took the line).

    Container rules follow Obsidian readbacks: a fence, ``$$`` or HTML block inside a quote or list item
    takes lazy lines (no ``>`` / not indented) until a blank line, a heading or a list item ends the container.
    """
    kind, quote, columns, data = leaf
    depth, rest = strip_quotes(line, quote) if quote else (0, line)
    if depth < quote:
        if is_blank(line) or kind == _CODE or ends_lazily(line):
            return None, False
        if kind == _HTML and data and html_ends(data, line):
            return None, True
        return leaf, True
    blank = is_blank(rest)
    if kind == _CODE:
        return (leaf, True) if blank or indentation(rest)[0] >= columns + 4 else (None, False)
    if blank:
        if (kind == _HTML and data == "") or (columns and _next_outside(lines, index + 1, columns)):
            return None, False  # ends an HTML 6/7 block, or the list item holding the block
        return leaf, True
    if columns and indentation(rest)[0] < columns:  # a lazy line of a list item never closes a fence or $$
        if ends_lazily(rest):
            return None, False
        return (None if kind == _HTML and data and html_ends(data, rest) else leaf), True
    content = dedent(rest, columns) if columns else rest
    if kind == _FENCED:
        closed = closes_fence(content, data)
    elif kind == _MATH:
        closed = "$$" in content
    else:
        closed = bool(data) and html_ends(data, content)
    return (None if closed else leaf), True


def _heading(
    s: str, m: re.Match[str], lineno: int, top_level: bool, headings: list[Heading], links: list[Link], tags: list[str]
) -> None:
    """An ATX heading line (``m`` matched its marker): recorded when top-level; its text may hold links/tags."""
    title = s[m.end() :]
    if top_level and (text := heading_text(title)):
        headings.append(Heading(len(m.group(1)), text, lineno))
    if "#" in title or "[" in title:
        scan_inline(s, lineno, False, links, tags)


def scan_blocks(lines: list[str], first_line: int, headings: list[Heading], links: list[Link], tags: list[str]) -> None:
    """Walk body `lines` (first one is file line `first_line`), filling headings, links and tags."""
    para: list[str] = []
    para_line = 0
    para_quote = 0
    para_table = False
    stack: list[int] = []  # content columns of the open list items (outside blockquotes)
    leaf: _Leaf | None = None

    def flush() -> None:
        nonlocal para, para_table
        if para_table:  # GFM rows are separate inline runs: a code span cannot pair across rows
            for offset, row in enumerate(para):
                if "#" in row or "[" in row:
                    scan_inline(row, para_line + offset, True, links, tags)
        elif para:
            text = para[0] if len(para) == 1 else "\n".join(para)
            if "#" in text or "[" in text:
                scan_inline(text, para_line, False, links, tags)
        para = []
        para_table = False

    for index, line in enumerate(lines):
        lineno = first_line + index
        if leaf is not None:
            if leaf[0] == _FENCED and not leaf[1] and not leaf[2]:  # fast path: a top-level fence
                if leaf[3][2] in line and closes_fence(line, leaf[3]):
                    leaf = None
                continue
            leaf, consumed = _continue_leaf(leaf, line, lines, index)
            if consumed:
                continue

        if not line:
            if para:
                flush()
            continue
        first = line[0]
        if first == "#" and not para_table and (m := ATX.match(line)) is not None:
            # Fast path: a heading at column 0 ends any paragraph and list, and is top-level.
            if para:
                flush()
            stack.clear()
            _heading(line, m, lineno, True, headings, links, tags)
            continue
        if first not in _SPECIAL_START or first == "#":  # plain text: continues or starts a paragraph
            if para and (not para_table or "|" in line):
                para.append(line)
                continue
            if para:
                flush()
            stack.clear()
            para = [line]
            para_line = lineno
            para_quote = 0
            continue

        quote, rest = strip_quotes(line) if ">" in line[:4] else (0, line)
        if not rest.strip(" "):
            if para:
                flush()
            continue
        if rest[0] == " " or rest[0] == "\t":
            cols, skip = indentation(rest)
            s = rest[skip:]
        else:
            cols, s = 0, rest
        raw_cols = cols if not quote else indentation(line)[0]

        if para:
            # Paragraph continuation (incl. lazy lines) unless the line starts a block here.
            rel = cols
            if stack and not quote:
                for width in reversed(stack):
                    if width <= raw_cols:
                        rel = cols - width
                        break
            if para_table:
                if rel < 4 and "|" in s and not interrupts(s, para, bool(stack)):
                    para.append(s)
                    continue
            elif cols >= 4 and not quote and (para_quote or (len(para) == 1 and REF_DEF.match(para[0]))):
                pass  # after a blockquote paragraph or a link reference definition, indented means code
            elif quote and quote != para_quote:
                pass
            elif not s:
                para.append(s)
                continue
            elif rel >= 4 or not interrupts(s, para, bool(stack)):
                if rel < 4 and len(para) == 1 and "|" in s and "|" in para[0] and TABLE_DELIM.fullmatch(s):
                    para_table = True
                elif rel < 4 and SETEXT_UNDERLINE.fullmatch(s):
                    flush()  # setext heading: not recorded (ATX only), but it ends the paragraph
                    continue
                para.append(s)
                continue
            flush()

        if not quote:
            while stack and raw_cols < stack[-1]:
                stack.pop()
        base = stack[-1] if stack and not quote else 0
        if cols - base >= 4:
            leaf = (_CODE, quote, base, None)
            continue
        in_item = bool(stack) or bool(quote)
        code_item = False
        markers = 0
        while (
            s
            and markers < _MAX_MARKERS
            and s[0] in "-+*0123456789"
            and (m := LIST_ITEM.match(s)) is not None
            and not THEMATIC_BREAK.fullmatch(s)
        ):
            markers += 1
            marker_end = cols + m.end(1)
            gap = space_width(m.group(3) or "", marker_end)
            content = s[m.end() :]
            if not content.strip(" \t"):
                columns, s = marker_end + 1, ""
            elif gap >= 5:
                columns, code_item = marker_end + 1, True
            else:
                columns, s = marker_end + gap, content
            if not quote:
                stack.append(columns)
            cols, base, in_item = columns, columns, True
            if code_item:
                break
        if code_item:
            leaf = (_CODE, quote, base, None)
            continue
        if not s:
            continue
        c = s[0]
        if c == "`" or c == "~":
            fence = fence_open(s)
            if fence is not None:
                leaf = (_FENCED, quote, base, fence)
                continue
        elif c == "$" and s.startswith("$$"):
            if s.find("$$", 2) == -1:
                leaf = (_MATH, quote, base, None)
            continue
        elif c == "<":
            end = html_start(s, False)
            if end is not None:
                if end == "" or not html_ends(end, s, opening=True):
                    leaf = (_HTML, quote, base, end)
                continue
        elif c == "#":
            m = ATX.match(s)
            if m is not None:
                _heading(s, m, lineno, not in_item, headings, links, tags)
                continue
        elif c in "-*_" and THEMATIC_BREAK.fullmatch(s):
            continue
        para = [s]
        para_line = lineno
        para_quote = quote
        para_table = False
    flush()
