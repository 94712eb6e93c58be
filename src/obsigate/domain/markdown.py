"""Parse one Obsidian note: properties, tags, aliases, links, embeds and headings.

Rules are those of `shared/reference/obsidian.md` (cited as §n): frontmatter §3, wikilinks §4, embeds §5,
markdown links §6, headings §8, tags §9, parser gotchas §12. Where Obsidian departs from CommonMark
(lazy lines inside container fences, where a tag may start) the behaviour follows Obsidian 1.13 readbacks.

One pass over the lines tracks block structure (fenced / indented code, ``$$`` math, HTML blocks,
blockquotes, list items, tables) and hands every inline run (paragraph, heading, table) to
`_inline`, which masks code spans, inline math, HTML comments and escapes, then extracts wikilinks,
markdown links and tags. ``%% comments %%`` are deliberately *not* masked: Obsidian indexes them.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from obsigate.domain.frontmatter import iter_string_values, load_frontmatter, split_frontmatter
from obsigate.domain.tags import (
    MASK_BOUNDARY,
    MASK_OPAQUE,
    distinct_tags,
    frontmatter_tag,
    scan_tags,
    tag_matches,
)

__all__ = [
    "Heading",
    "Link",
    "ParsedNote",
    "decode_uri",
    "distinct_tags",
    "extract_tags",
    "parse_note",
    "tag_matches",
]

_log = logging.getLogger(__name__)

WIKILINK = "wikilink"
MARKDOWN = "markdown"
FRONTMATTER = "frontmatter"


@dataclass(frozen=True, slots=True)
class Heading:
    """A top-level ATX heading (§8): ``level`` 1..6, ``text`` trimmed without closing ``#``s, 1-based ``line``."""

    level: int
    text: str
    line: int


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


@dataclass(frozen=True, slots=True)
class ParsedNote:
    """Everything the index needs from one note.

    ``frontmatter`` is JSON-safe ({} when absent or invalid; ``frontmatter_error`` says why it is invalid).
    ``body`` is the text after the frontmatter block, starting at file line ``body_line``. ``tags`` lists
    every occurrence without ``#`` (frontmatter first, duplicates kept, like ``getAllTags``); ``links`` holds
    frontmatter links first, then body links and embeds in document order; ``headings`` only top-level ones.
    """

    frontmatter: dict[str, Any]
    frontmatter_error: str | None
    body: str
    body_line: int
    tags: tuple[str, ...]
    aliases: tuple[str, ...]
    links: tuple[Link, ...]
    headings: tuple[Heading, ...]


# --- public entry points -------------------------------------------------------------------------


def parse_note(text: str) -> ParsedNote:
    """Parse a note's full text (CRLF accepted, a leading BOM ignored). Never raises."""
    try:
        return _parse(text)
    except Exception:  # a parser bug must not take indexing down; keep the note, log the input shape
        _log.exception("parse_note failed on a %d-character note; indexing it without metadata", len(text))
        body = text.replace("\r\n", "\n")
        return ParsedNote({}, None, body, 1, (), (), (), ())


def extract_tags(text: str) -> list[str]:
    """Inline tags (without ``#``, in order, duplicates kept) of a markdown body; no frontmatter handling."""
    tags: list[str] = []
    _scan_blocks(text.replace("\r\n", "\n").split("\n"), 1, [], [], tags)
    return tags


def _parse(text: str) -> ParsedNote:
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]
    source, body, body_line = split_frontmatter(text)
    props: dict[str, Any] = {}
    error = None
    tags: list[str] = []
    aliases: list[str] = []
    links: list[Link] = []
    if source is not None:
        props, error = load_frontmatter(source)
        tags = [t for t in map(frontmatter_tag, _as_items(_property(props, "tags"))) if t is not None]
        aliases = [a.strip() for a in _as_items(_property(props, "aliases")) if isinstance(a, str) and a.strip()]
        links = _frontmatter_links(props, source)
    headings: list[Heading] = []
    _scan_blocks(body.split("\n"), body_line, headings, links, tags)
    return ParsedNote(props, error, body, body_line, tuple(tags), tuple(aliases), tuple(links), tuple(headings))


def _property(props: dict[str, Any], name: str) -> Any:
    # §3: default keys match case-insensitively (``Tags:`` works); the first matching key wins.
    for key, value in props.items():
        if key.lower() == name:
            return value
    return None


def _as_items(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    return [] if value is None else [value]


def _frontmatter_links(props: dict[str, Any], source: str) -> list[Link]:
    """§3: every string value that starts with ``[[`` and ends with ``]]``, anywhere in the tree."""
    out: list[Link] = []
    if "[[" not in source:
        return out
    cursor = 0
    counted_to, counted_line = 0, 2  # incremental line count keeps many links linear
    for key, value in iter_string_values(props):
        if not (value.startswith("[[") and value.endswith("]]")):
            continue
        inner = value[2:-2]
        if "[[" in inner or "]]" in inner:
            continue
        at = source.find(value, cursor)
        if at == -1:
            at = source.find(value)
        if at == -1:
            line = 1  # written with escapes or folded: position unknown
        else:
            if at < counted_to:
                counted_to, counted_line = 0, 2
            counted_line += source.count("\n", counted_to, at)
            counted_to = at
            line = counted_line
            cursor = at + len(value)
        link = _wikilink(inner, False, line, FRONTMATTER, key)
        if link is not None:
            out.append(link)
    return out


# --- link text helpers ---------------------------------------------------------------------------


def _clean(text: str) -> str:
    # §4 cleanString: NBSP -> space, NFC (macOS stores NFD), trim.
    if not text.isascii():
        text = unicodedata.normalize("NFC", text.replace("\xa0", " "))
    return text.strip()


def _split_subpath(linktext: str) -> tuple[str, str | None]:
    # §4 parseLinktext: split at the first '#'.
    cut = linktext.find("#")
    if cut == -1:
        return linktext, None
    return linktext[:cut].strip(), linktext[cut:]


def _wikilink(content: str, embed: bool, line: int, kind: str = WIKILINK, key: str | None = None) -> Link | None:
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


def _markdown_link(dest: str, display: str | None, embed: bool, line: int) -> Link | None:
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


# --- inline scanning -----------------------------------------------------------------------------

_MASK_TOKEN = re.compile(r"\\[!-/:-@\[-`{-~]|`+|\$\$?|<!--")
_BACKTICKS = re.compile(r"`+")
# §4: content runs to the first "]]" on the line and may not contain "[[" (then the inner "[[" starts over).
_WIKILINK = re.compile(r"\[\[([^\[\]\n]*+(?:(?:\[(?!\[)|\](?!\]))[^\[\]\n]*+)*+)\]\]")
_MATH_CLOSE = re.compile(r"(?<![\s\\])\$")
_MD_OPEN = re.compile(r"\[([^\[\]]*+(?:\[[^\[\]]*+\][^\[\]]*+)*+)\]\(")  # one nested [] level
_MD_DEST = re.compile(
    r"""[ \t]*\n?[ \t]*
    (?: <([^<>\n]*)> | ((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*+\))*+) )
    (?: [ \t]*\n?[ \t]* (?: "(?:[^"\\]|\\.)*+" | '(?:[^'\\]|\\.)*+' | \((?:[^()\\]|\\.)*+\) ) )?
    [ \t]*\n?[ \t]*\)""",
    re.X,
)
_CONTROL_MASKS = str.maketrans({MASK_OPAQUE: "\x02", MASK_BOUNDARY: "\x02"})


@lru_cache(maxsize=64)
def _backtick_closer(length: int) -> re.Pattern[str]:
    return re.compile(f"(?<!`)`{{{length}}}(?!`)")


def _mask(text: str) -> str:
    """Same-length copy of `text` with code spans, math, HTML comments and escapes overwritten.

    Escapes become `MASK_OPAQUE` (``\\#x`` is no tag); the rest `MASK_BOUNDARY` (a tag may follow them).
    ``\\|`` is kept: it is the table escape inside wikilinks.
    """
    if MASK_OPAQUE in text or MASK_BOUNDARY in text:
        text = text.translate(_CONTROL_MASKS)
    if "`" not in text and "$" not in text and "\\" not in text and "<!--" not in text:
        return text  # cheap pre-check: the token regex has no literal prefix to search fast
    m = _MASK_TOKEN.search(text)
    if m is None:
        return text
    parts = []
    last = 0
    unclosed: set[str] = set()  # openers known to have no closer further on: keeps the scan linear
    no_exact: set[int] = set()  # backtick run lengths with no same-length closer further on
    no_math_before = -1  # a failed $ closer search covers the rest of its line
    while m is not None:
        start, tok = m.start(), m.group()
        end = -1
        fill = MASK_BOUNDARY
        if tok[0] == "\\":
            if tok[1] != "|":  # an escaped char is literal text; only \# must not start a tag
                end, fill = start + 2, MASK_OPAQUE if tok[1] == "#" else MASK_BOUNDARY
        elif tok in unclosed:
            pass
        elif tok[0] == "`":
            close = None if len(tok) in no_exact else _backtick_closer(len(tok)).search(text, m.end())
            if close is None:
                no_exact.add(len(tok))
            if close is not None:
                end = close.end()
            elif len(tok) > 1:
                # Obsidian (not CommonMark): with no closer of the same length, the first shorter run
                # closes a span opened by the tail of this run (``b #x` hides #x).
                for run in _BACKTICKS.finditer(text, m.end()):
                    if len(run.group()) < len(tok):
                        start += len(tok) - len(run.group())
                        end = run.end()
                        break
        elif tok == "$$" or tok == "<!--":
            closer = "$$" if tok == "$$" else "-->"
            at = text.find(closer, start + 2)
            end = at + len(closer) if at != -1 else -1
        elif start >= no_math_before:  # inline $math$: no space after the opener or before the closer
            nxt = text[start + 1 : start + 2]
            if nxt and not nxt.isspace():
                line_end = text.find("\n", start)
                line_end = len(text) if line_end == -1 else line_end
                close = _MATH_CLOSE.search(text, start + 2, line_end)
                if close is None:
                    no_math_before = line_end
                end = close.end() if close else -1
        if end == -1:
            if tok[0] != "\\" and tok != "$":
                unclosed.add(tok)
            m = _MASK_TOKEN.search(text, m.end())
            continue
        parts.append(text[last:start])
        parts.append(fill * (end - start))
        last = end
        m = _MASK_TOKEN.search(text, end)
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


def _inline(text: str, line: int, table: bool, links: list[Link], tags: list[str]) -> None:
    """Collect links and tags of one inline run that starts on file line `line`."""
    masked = _mask(text)
    if "\n" not in text:
        line_of: Callable[[int], int] = lambda pos: line  # noqa: E731
    elif len(text) < 8192:
        line_of = lambda pos: line + text.count("\n", 0, pos)  # noqa: E731
    else:  # long paragraphs: keep many links per paragraph linear
        breaks = [m.start() for m in re.finditer("\n", text)]
        line_of = lambda pos: line + bisect_right(breaks, pos)  # noqa: E731
    found: list[tuple[int, Link]] = []
    if "[[" in masked:
        masked = _wikilinks(text, masked, line_of, found)
    if "](" in masked:
        masked = _markdown_links(text, masked, line_of, found)
    if found:
        found.sort(key=lambda item: item[0])
        links.extend(link for _, link in found)
    if "#" in masked:
        tags.extend([tag for _, tag in scan_tags(masked, table)])


def _overwrite(masked: str, spans: list[tuple[int, int]]) -> str:
    parts = []
    last = 0
    for start, end in sorted(spans):
        parts.append(masked[last:start])
        parts.append(MASK_BOUNDARY * (end - start))
        last = end
    parts.append(masked[last:])
    return "".join(parts)


def _wikilinks(text: str, masked: str, line_of: Callable[[int], int], found: list[tuple[int, Link]]) -> str:
    """§4: ``(!?)[[content]]`` on one line; content runs to the first ``]]`` and may not contain ``[[``."""
    spans = []
    for m in _WIKILINK.finditer(masked):
        pos, end = m.span()
        start = pos - 1 if pos and masked[pos - 1] == "!" else pos
        if pos + 4 < end:  # [[]] is not a link (§4)
            link = _wikilink(text[pos + 2 : end - 2], start != pos, line_of(start))
            if link is not None:
                found.append((start, link))
            spans.append((start, end))
    if not spans or ("#" not in masked and "](" not in masked):
        return masked  # nobody reads the masked text any further
    return _overwrite(masked, spans)


def _markdown_links(text: str, masked: str, line_of: Callable[[int], int], found: list[tuple[int, Link]]) -> str:
    """§5/§6: ``[text](dest "title")`` and ``![alt](dest)``; image alt text holds no tags (readback)."""
    spans: list[tuple[int, int]] = []

    def scan(lo: int, hi: int, nested: bool) -> None:
        for m in _MD_OPEN.finditer(masked, lo, hi):
            embed = m.start() > 0 and masked[m.start() - 1] == "!"
            if nested and not embed:
                continue
            dest = _MD_DEST.match(text, m.end())
            if dest is None:
                continue
            start, end = m.start() - embed, dest.end()
            label_start, label_end = m.span(1)
            raw = dest.group(1) if dest.group(1) is not None else dest.group(2)
            display = text[label_start:label_end].strip() or None
            if raw:
                link = _markdown_link(raw, display, embed, line_of(start))
                if link is not None:
                    found.append((start, link))
            if embed:
                spans.append((start, end))
            else:
                spans.append((start, start + 1))  # '[' opens a text run: [#tag](u) is a tag
                spans.append((label_end, end))
                if "](" in masked[label_start:label_end]:
                    scan(label_start, label_end, True)  # [![img](a.png)](b.md)

    scan(0, len(masked), False)
    return _overwrite(masked, spans) if spans and "#" in masked else masked


# --- block scanning ------------------------------------------------------------------------------

_QUOTE = re.compile(r" {0,3}> ?")
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)")
_ATX = re.compile(r"(#{1,6})(?:[ \t]+|$)")
_LIST = re.compile(r"([-+*]|([0-9]{1,9})[.)])(?:([ \t]+)|$)")
_THEMATIC = re.compile(r"(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,}")
_REF_DEF = re.compile(r"\[(?:[^\]\\]|\\.)+\]:")
_SETEXT = re.compile(r"(?:=+|-+)[ \t]*")
_TABLE_DELIM = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
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

_MAX_MARKERS = 16  # list markers opened on one line ("- - - x"); past this the rest is text, keeping it linear
# First characters that may open or interrupt a block; any other line is plain paragraph text.
_SPECIAL_START = frozenset(" \t#`~<$-*_+=|>0123456789")

# Open leaf blocks: (kind, quote depth, list content indent, data).
_FENCED, _MATH, _HTML, _CODE = "F", "M", "H", "I"


def _indent(s: str) -> tuple[int, int]:
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


def _columns(space: str, start: int) -> int:
    """Width of the spaces/tabs in `space` when it starts at column `start`."""
    col = start
    for ch in space:
        col += 1 if ch == " " else 4 - col % 4
    return col - start


def _strip_quotes(line: str, limit: int = 1 << 30) -> tuple[int, str]:
    depth = 0
    pos = 0
    while depth < limit and (m := _QUOTE.match(line, pos)) is not None:
        depth += 1
        pos = m.end()
    return depth, line[pos:] if pos else line


def _dedent(s: str, columns: int) -> str:
    col = 0
    for i, ch in enumerate(s):
        if col >= columns or ch not in " \t":
            return s[i:]
        col += 1 if ch == " " else 4 - col % 4
    return ""


def _is_blank(s: str) -> bool:
    # Only spaces make a blank line: Obsidian keeps a paragraph or HTML block going past a tab-only line.
    return not s.strip(" ")


def _fence_open(s: str) -> tuple[str, int, str] | None:
    """(char, length, marker) of a fence opener; an info string may not hold a backtick."""
    m = _FENCE.match(s)
    if m is None or (s[0] == "`" and "`" in m.group(2)):
        return None
    return s[0], len(m.group(1)), m.group(1)


def _closes_fence(s: str, fence: tuple[str, int, str]) -> bool:
    cols, i = _indent(s)
    if cols > 3:
        return False
    rest = s[i:]
    run = len(rest) - len(rest.lstrip(fence[0]))
    return run >= fence[1] and not rest[run:].strip(" \t")


def _html_start(s: str, interrupting: bool) -> Any:
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


def _html_ends(end: Any, s: str, opening: bool = False) -> bool:
    if isinstance(end, str):
        return end in (s[2:] if opening else s)
    return end.search(s) is not None


def _heading_text(rest: str) -> str:
    text = rest.strip(" \t")
    if text.endswith("#"):
        bare = text.rstrip("#")
        if not bare:
            return ""
        if bare[-1] in " \t":  # a closing sequence needs a space before it
            return bare.rstrip(" \t")
    return text


def _next_outside(lines: list[str], index: int, columns: int) -> bool:
    """After a blank line: does the next non-blank line fall outside a list item's content?"""
    for line in lines[index:]:
        if not _is_blank(line):
            return _indent(line)[0] < columns
    return True


def _ends_lazily(line: str) -> bool:
    """A line outside a container's indentation that closes the container and its open block (readback:
    a heading or a list item does, a fence does not)."""
    s = line.lstrip(" \t")
    if not s or len(line) - len(s) > 3:
        return False
    if s[0] == "#":
        return _ATX.match(s) is not None
    return s[0] in "-+*0123456789" and _LIST.match(s) is not None


def _interrupts(s: str, para: list[str], in_list: bool) -> bool:
    """Can `s` (relative indent < 4) start a block in the middle of a paragraph?"""
    c = s[0]
    if c == "#":
        return _ATX.match(s) is not None
    if c == "`" or c == "~":
        return _fence_open(s) is not None
    if c == "<":
        return _html_start(s, True) is not None
    if c == "$":  # unless it closes $$ opened inline in this paragraph
        return s.startswith("$$") and sum(p.count("$$") for p in para) % 2 == 0
    if c in "-*_" and _THEMATIC.fullmatch(s):
        return True
    if c in "-+*0123456789" and (m := _LIST.match(s)) is not None:
        if not s[m.end() :].strip(" \t"):
            return in_list
        return m.group(2) is None or m.group(2) == "1" or in_list
    return False


_Leaf = tuple[str, int, int, Any]


def _continue_leaf(leaf: _Leaf, line: str, lines: list[str], index: int) -> tuple[_Leaf | None, bool]:
    """Feed `line` to an open code/math/HTML block: (the block if still open, whether it took the line).

    Container rules follow Obsidian readbacks: a fence, ``$$`` or HTML block inside a quote or list item
    takes lazy lines (no ``>`` / not indented) until a blank line, a heading or a list item ends the container.
    """
    kind, quote, columns, data = leaf
    depth, rest = _strip_quotes(line, quote) if quote else (0, line)
    if depth < quote:
        if _is_blank(line) or kind == _CODE or _ends_lazily(line):
            return None, False
        if kind == _HTML and data and _html_ends(data, line):
            return None, True
        return leaf, True
    blank = _is_blank(rest)
    if kind == _CODE:
        return (leaf, True) if blank or _indent(rest)[0] >= columns + 4 else (None, False)
    if blank:
        if (kind == _HTML and data == "") or (columns and _next_outside(lines, index + 1, columns)):
            return None, False  # ends an HTML 6/7 block, or the list item holding the block
        return leaf, True
    if columns and _indent(rest)[0] < columns:  # a lazy line of a list item never closes a fence or $$
        if _ends_lazily(rest):
            return None, False
        return (None if kind == _HTML and data and _html_ends(data, rest) else leaf), True
    content = _dedent(rest, columns) if columns else rest
    if kind == _FENCED:
        closed = _closes_fence(content, data)
    elif kind == _MATH:
        closed = "$$" in content
    else:
        closed = bool(data) and _html_ends(data, content)
    return (None if closed else leaf), True


def _scan_blocks(
    lines: list[str], first_line: int, headings: list[Heading], links: list[Link], tags: list[str]
) -> None:
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
                    _inline(row, para_line + offset, True, links, tags)
        elif para:
            text = para[0] if len(para) == 1 else "\n".join(para)
            if "#" in text or "[" in text:
                _inline(text, para_line, False, links, tags)
        para = []
        para_table = False

    for index, line in enumerate(lines):
        lineno = first_line + index
        if leaf is not None:
            if leaf[0] == _FENCED and not leaf[1] and not leaf[2]:  # fast path: a top-level fence
                if leaf[3][2] in line and _closes_fence(line, leaf[3]):
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
        if first == "#" and not para_table and (m := _ATX.match(line)) is not None:
            # Fast path: a heading at column 0 ends any paragraph and list, and is top-level.
            if para:
                flush()
            stack.clear()
            title = line[m.end() :]
            if text := _heading_text(title):
                headings.append(Heading(len(m.group(1)), text, lineno))
            if "#" in title or "[" in title:
                _inline(line, lineno, False, links, tags)
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

        quote, rest = _strip_quotes(line) if ">" in line[:4] else (0, line)
        if not rest.strip(" "):
            if para:
                flush()
            continue
        if rest[0] == " " or rest[0] == "\t":
            cols, skip = _indent(rest)
            s = rest[skip:]
        else:
            cols, s = 0, rest
        raw_cols = cols if not quote else _indent(line)[0]

        if para:
            # Paragraph continuation (incl. lazy lines) unless the line starts a block here.
            rel = cols
            if stack and not quote:
                for width in reversed(stack):
                    if width <= raw_cols:
                        rel = cols - width
                        break
            if para_table:
                if rel < 4 and "|" in s and not _interrupts(s, para, bool(stack)):
                    para.append(s)
                    continue
            elif cols >= 4 and not quote and (para_quote or (len(para) == 1 and _REF_DEF.match(para[0]))):
                pass  # after a blockquote paragraph or a link reference definition, indented means code
            elif quote and quote != para_quote:
                pass
            elif not s:
                para.append(s)
                continue
            elif rel >= 4 or not _interrupts(s, para, bool(stack)):
                if rel < 4 and len(para) == 1 and "|" in s and "|" in para[0] and _TABLE_DELIM.fullmatch(s):
                    para_table = True
                elif rel < 4 and _SETEXT.fullmatch(s):
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
            and (m := _LIST.match(s)) is not None
            and not _THEMATIC.fullmatch(s)
        ):
            markers += 1
            marker_end = cols + m.end(1)
            gap = _columns(m.group(3) or "", marker_end)
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
            fence = _fence_open(s)
            if fence is not None:
                leaf = (_FENCED, quote, base, fence)
                continue
        elif c == "$" and s.startswith("$$"):
            if s.find("$$", 2) == -1:
                leaf = (_MATH, quote, base, None)
            continue
        elif c == "<":
            end = _html_start(s, False)
            if end is not None:
                if end == "" or not _html_ends(end, s, opening=True):
                    leaf = (_HTML, quote, base, end)
                continue
        elif c == "#":
            m = _ATX.match(s)
            if m is not None:
                title = s[m.end() :]
                if not in_item and (text := _heading_text(title)):
                    headings.append(Heading(len(m.group(1)), text, lineno))
                if "#" in title or "[" in title:
                    _inline(s, lineno, False, links, tags)
                continue
        elif c in "-*_" and _THEMATIC.fullmatch(s):
            continue
        para = [s]
        para_line = lineno
        para_quote = quote
        para_table = False
    flush()
