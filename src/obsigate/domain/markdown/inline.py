"""Inline scanning: links and tags of one run of inline text (a paragraph, heading or table row).

The block scanner (:mod:`obsigate.domain.markdown.blocks`) hands each run to :func:`scan_inline`, which first
*masks* the spans that can hold neither links nor tags (code spans, inline math, HTML comments, escapes),
then takes out wikilinks and markdown links, and gives what is left to
:func:`obsigate.domain.markdown.tags.scan_tags`. ``%% comments %%`` are deliberately *not* masked: Obsidian indexes
them. Masking keeps offsets (same-length overwrites), so links keep their line numbers.

Where each link sits is available too, for span-based rewriting (obsidian.md §10, §12.5): :func:`link_spans`
for one run of text, and :func:`recording_inline_runs` to record every run the block scanner hands over
while a note is parsed (so only what the parser itself reports as a link, with the same masking, is seen).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from obsigate.domain.markdown.link_syntax import Link, markdown_link, wikilink
from obsigate.domain.markdown.tags import MASK_BOUNDARY, MASK_OPAQUE, scan_tags

__all__ = ["InlineRun", "LinkSpan", "link_spans", "recording_inline_runs", "scan_inline"]

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


@dataclass(frozen=True, slots=True)
class LinkSpan:
    """Where one link sits in the text of its inline run (offsets into that text, end exclusive).

    - ``start``/``end``: the whole markup, ``!`` of an embed included (``![[a|b]]``, ``[t](d "x")``);
    - ``inner``: a wikilink's content between ``[[`` and ``]]``, or a markdown link's label between ``[``
      and ``]``;
    - ``dest``: a markdown link's destination as written, without the ``<…>`` of the angle form and
      without the title; None for a wikilink.
    """

    start: int
    end: int
    link: Link
    inner: tuple[int, int]
    dest: tuple[int, int] | None


@dataclass(frozen=True, slots=True)
class InlineRun:
    """One inline run the block scanner handed to :func:`scan_inline`: its text (lines joined by ``\\n``;
    each line is a suffix of its file line, after blockquote markers and indentation), the file line it
    starts on, and its links in document order."""

    text: str
    line: int
    spans: tuple[LinkSpan, ...]


# what the scanners collect per link: (start, link, end, inner span, markdown destination span), see LinkSpan
_Found = tuple[int, Link, int, tuple[int, int], tuple[int, int] | None]
_RUN_SINK: ContextVar[list[InlineRun] | None] = ContextVar("obsigate_inline_runs", default=None)


@contextmanager
def recording_inline_runs() -> Iterator[list[InlineRun]]:
    """Record, into the yielded list, every :class:`InlineRun` scanned in this context (thread-safe).

    ``with recording_inline_runs() as runs: parsed = parse_note(text)`` gives the position of every body
    link ``parsed.links`` holds (obsidian.md §12.5: rewrites are span-based); parsing is otherwise unchanged.
    """
    runs: list[InlineRun] = []
    token = _RUN_SINK.set(runs)
    try:
        yield runs
    finally:
        _RUN_SINK.reset(token)


def link_spans(text: str, line: int = 1) -> list[LinkSpan]:
    """The links of one inline run of ``text`` with their spans, exactly as :func:`scan_inline` sees them
    (code spans, math, HTML comments and escapes masked; ``%% comments %%`` not: obsidian.md §4)."""
    with recording_inline_runs() as runs:
        scan_inline(text, line, False, [], [])
    return list(runs[0].spans)


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


def scan_inline(text: str, line: int, table: bool, links: list[Link], tags: list[str]) -> None:
    """Collect links and tags of one inline run that starts on file line `line`."""
    masked = _mask(text)
    if "\n" not in text:
        line_of: Callable[[int], int] = lambda pos: line  # noqa: E731
    elif len(text) < 8192:
        line_of = lambda pos: line + text.count("\n", 0, pos)  # noqa: E731
    else:  # long paragraphs: keep many links per paragraph linear
        breaks = [m.start() for m in re.finditer("\n", text)]
        line_of = lambda pos: line + bisect_right(breaks, pos)  # noqa: E731
    found: list[_Found] = []
    if "[[" in masked:
        masked = _wikilinks(text, masked, line_of, found)
    if "](" in masked:
        masked = _markdown_links(text, masked, line_of, found)
    if found:
        found.sort(key=lambda item: item[0])
        links.extend(item[1] for item in found)
    sink = _RUN_SINK.get()
    if sink is not None:
        sink.append(InlineRun(text, line, tuple(LinkSpan(s, e, lk, i, d) for s, lk, e, i, d in found)))
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


def _wikilinks(text: str, masked: str, line_of: Callable[[int], int], found: list[_Found]) -> str:
    """§4: ``(!?)[[content]]`` on one line; content runs to the first ``]]`` and may not contain ``[[``."""
    spans = []
    for m in _WIKILINK.finditer(masked):
        pos, end = m.span()
        start = pos - 1 if pos and masked[pos - 1] == "!" else pos
        if pos + 4 < end:  # [[]] is not a link (§4)
            link = wikilink(text[pos + 2 : end - 2], start != pos, line_of(start))
            if link is not None:
                found.append((start, link, end, (pos + 2, end - 2), None))
            spans.append((start, end))
    if not spans or ("#" not in masked and "](" not in masked):
        return masked  # nobody reads the masked text any further
    return _overwrite(masked, spans)


def _markdown_links(text: str, masked: str, line_of: Callable[[int], int], found: list[_Found]) -> str:
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
            group = 1 if dest.group(1) is not None else 2
            raw = dest.group(group)
            display = text[label_start:label_end].strip() or None
            if raw:
                link = markdown_link(raw, display, embed, line_of(start))
                if link is not None:
                    found.append((start, link, end, (label_start, label_end), dest.span(group)))
            if embed:
                spans.append((start, end))
            else:
                spans.append((start, start + 1))  # '[' opens a text run: [#tag](u) is a tag
                spans.append((label_end, end))
                if "](" in masked[label_start:label_end]:
                    scan(label_start, label_end, True)  # [![img](a.png)](b.md)

    scan(0, len(masked), False)
    return _overwrite(masked, spans) if spans and "#" in masked else masked
