"""Search snippets as plain text: the markdown markup of a snippet removed, its ``<mark>`` highlights kept.

A snippet is a window of raw note text (``domain/index/snippets.py``, ``services/search_advanced.snippet``)
with matches wrapped in ``<mark>…</mark>``; shown as is it reads ``**Due** [[Projects/Plan|the plan]] ^ab12``.
:func:`plain` rewrites the markup Obsidian's reading view would not show (obsidian.md: links and embeds show
their alias or name; ``==``, ``**``, ``~~``, ``%%`` and inline code ticks are formatting; ``^block-id`` is
hidden; headings, quotes, list and task markers start a line) into the text a reader sees. It works on the
short snippet only (≤ a few hundred characters), after the window was cut: offsets are not needed, and a
match inside removed markup (a link's target behind its alias) loses its highlight rather than showing the
markup. Only ``<mark>``/``</mark>`` survive as tags; the result is still to be rendered as text.
"""

from __future__ import annotations

import re

__all__ = ["plain"]

_MARK = "\x01", "\x02"  # stand-ins for <mark>/</mark> while the markup rules run (never in note text after _clean)
_RULES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"<!--.*?(?:-->|$)|%%.*?(?:%%|$)"), ""),  # comments: hidden in reading view
    (re.compile(r"!?\[\[([^\]|]*)\|([^\]]*)\]\]"), r"\2"),  # [[target|alias]] → alias
    (re.compile(r"!?\[\[([^\]#]*?)(?:#\^?([^\]]*))?\]\]"), r"\1"),  # [[target#h]] → target
    (re.compile(r"!?\[([^\]]*)\]\((?:[^)\s]*)(?:\s+\"[^\"]*\")?\)"), r"\1"),  # [text](url) / ![alt](src) → text
    (re.compile(r"</?(?!\x01|\x02)[A-Za-z][^>]{0,200}>"), ""),  # inline HTML tags (their text kept)
    (re.compile(r"(?:^|(?<=\s))\^[A-Za-z0-9-]+(?=\s|$)"), ""),  # ^block-id
    (re.compile(r"(?:(?<=\s)|^)#{1,6}\s+"), ""),  # heading hashes (whitespace was collapsed: after a space)
    (re.compile(r"(?:(?<=\s)|^)(?:>\s*)+(?:\[![\w-]+\][+-]?\s*)?"), ""),  # quote / callout markers
    (re.compile(r"(?:(?<=\s)|^)(?:[-*+]|\d+[.)])\s+\[.\]\s+"), ""),  # task markers "- [ ] "
    (re.compile(r"(?:(?<=\s)|^)[-*+]\s+(?=\S)"), ""),  # bullet markers
    (re.compile(r"\*\*|__|==|~~|`+"), ""),  # bold, highlight, strike, code ticks
    (re.compile(r"(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])"), ""),  # *italic*
    (re.compile(r"(?<![\w\\])_(?=\S)|(?<=\S)_(?!\w)"), ""),  # _italic_
    (re.compile(r"\s{2,}"), " "),
]


def plain(snippet: str) -> str:
    """``snippet`` (raw markdown with ``<mark>`` highlights) → what a reader sees, highlights kept.

    Example: ``"**Due** [[Plan|the <mark>plan</mark>]] ^ab12"`` → ``"Due the <mark>plan</mark>"``.
    """
    s = snippet.replace("<mark>", _MARK[0]).replace("</mark>", _MARK[1])
    for pattern, repl in _RULES:
        s = pattern.sub(repl, s)
    s = s.replace(_MARK[0] + _MARK[1], "")  # a highlight whose text was markup
    return s.strip().replace(_MARK[0], "<mark>").replace(_MARK[1], "</mark>")
