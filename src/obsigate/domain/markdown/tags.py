"""Obsidian tag grammar: inline tag scanning, frontmatter tag items, matching and identity.

Rules come from `shared/reference/obsidian.md` §9 (inline grammar, nesting, case-insensitive identity,
display casing) and §3 (frontmatter `tags` items). Tags are handled *without* their leading ``#``.

`scan_tags` works on a *masked* copy of one inline run of text (a paragraph, heading or table), prepared
by `obsigate.domain.markdown.inline`: spans that can never hold tags are overwritten, same length, with
`MASK_BOUNDARY` (code, math, comments, links: a tag may start right after them) or `MASK_OPAQUE`
(backslash escapes: ``\\#x`` is not a tag).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = [
    "MASK_BOUNDARY",
    "MASK_OPAQUE",
    "distinct_tags",
    "frontmatter_tag",
    "is_valid_tag",
    "scan_tags",
    "tag_matches",
]

MASK_OPAQUE = "\x00"
MASK_BOUNDARY = "\x01"

# §9: a tag body is one or more characters outside this class. \ufeff is whitespace in JS but not in Python.
_EXCLUDED = r"\s\ufeff\u2000-\u206f\u2e00-\u2e7f'!\"#$%&()*+,.:;<=>?@^`{|}~\[\]\\" + MASK_OPAQUE + MASK_BOUNDARY
_TAG = re.compile(f"#([^{_EXCLUDED}]+)")
_UNDERSCORES = re.compile(r"_+")
_INLINE_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
_BRACKET = re.compile(r"[\[\]]")
_WINDOW = 1000  # how far bracket look-arounds search; keeps pathological input linear


def is_valid_tag(body: str) -> bool:
    """True unless `body` is empty or all ASCII digits (``#1984`` is never a tag, §9)."""
    return bool(body) and not (body.isascii() and body.isdigit())  # JS \d is ASCII-only


def frontmatter_tag(item: object) -> str | None:
    """Normalise one item of a frontmatter ``tags`` list (§3); None when Obsidian drops it.

    Strings only; trimmed; items containing whitespace are dropped; one leading ``#`` is optional;
    all-digit tags are rejected as they are inline.
    """
    if not isinstance(item, str):
        return None
    tag = item.strip()
    if not tag or any(ch.isspace() for ch in tag):
        return None
    if tag.startswith("#"):
        tag = tag[1:]
    return tag if is_valid_tag(tag) else None


class _Underscores:
    """Which ``_`` runs pair up as emphasis, fitted to Obsidian 1.13 readbacks (not CommonMark flanking).

    Walk the runs in order with at most one opener pending. A run followed by an ASCII letter/digit, or
    longer than the opener, cannot close it; a pair whose gap starts and ends with whitespace fails and
    the run becomes the new opener.
    """

    __slots__ = ("closer_of", "paired")

    def __init__(self, text: str) -> None:
        self.paired: set[int] = set()  # end offsets of paired runs
        self.closer_of: dict[int, int] = {}  # closer start -> opener start
        pending: tuple[int, int] | None = None
        for m in _UNDERSCORES.finditer(text):
            start, end = m.span()
            if pending is None:
                pending = (start, end)
                continue
            nxt = text[end : end + 1]
            if (nxt.isascii() and nxt.isalnum()) or end - start > pending[1] - pending[0]:
                continue
            gap = text[pending[1] : start]
            if gap and gap[0].isspace() and gap[-1].isspace():
                pending = (start, end)
                continue
            self.paired.update((pending[1], end))
            self.closer_of[start] = pending[0]
            pending = None


class _LazyUnderscores:
    """Computes the underscore pairing only when a tag actually touches an underscore."""

    __slots__ = ("_text", "_value")

    def __init__(self, text: str) -> None:
        self._text = text
        self._value: _Underscores | None = None

    def get(self) -> _Underscores:
        if self._value is None:
            self._value = _Underscores(self._text)
        return self._value


def _run_start(text: str, pos: int, table: bool, under: _LazyUnderscores | None) -> bool:
    """Whether the ``#`` at `pos` begins an inline text run (§9 position rule, readback cases)."""
    prev = text[pos - 1]
    if prev.isspace() or prev in "\x01\ufeff*":
        return True
    if prev in "=~":  # only the doubled delimiters of highlight / strikethrough
        return pos >= 2 and text[pos - 2] == prev
    if prev == "|":
        return table
    if prev == "[":  # an innermost bracketed span that closes and is not a reference definition
        m = _BRACKET.search(text, pos, pos + _WINDOW)
        return m is not None and m.group() == "]" and text[m.end() : m.end() + 1] != ":"
    if prev == "]":  # closes a non-empty bracketed span
        lo = max(0, pos - _WINDOW)
        opening = text.rfind("[", lo, pos - 1)
        return opening != -1 and opening < pos - 2 and text.rfind("]", opening, pos - 1) == -1
    if prev == ">":  # right after an inline HTML tag such as <br>
        opening = text.rfind("<", max(0, pos - 200), pos - 1)
        return opening != -1 and _INLINE_HTML_TAG.fullmatch(text, opening, pos) is not None
    if prev == "_":
        return under is not None and pos in under.get().paired
    return False


def scan_tags(masked: str, table: bool = False) -> list[tuple[int, str]]:
    """Inline tags of one masked text run as ``(offset of '#', tag without '#')``, in order.

    A ``#`` counts when it starts the run, follows whitespace or a run boundary, or is glued to the end
    of a previous *valid* tag (``#a#b`` gives both, ``#1984#x`` gives none). `table` enables cell
    starts after ``|``.
    """
    out: list[tuple[int, str]] = []
    under = _LazyUnderscores(masked) if "_" in masked else None
    last_end = -1
    last_valid = False
    for m in _TAG.finditer(masked):
        pos = m.start()
        if pos and not (pos == last_end and last_valid) and not _run_start(masked, pos, table, under):
            last_valid = False
            continue
        body = m.group(1)
        if under is not None and "_" in body:
            body = _cut_at_closer(body, pos, under.get())
        last_end = m.end()
        last_valid = is_valid_tag(body)
        if last_valid:
            out.append((pos, body))
    return out


def _cut_at_closer(body: str, pos: int, under: _Underscores) -> str:
    """End the tag at an underscore run that closes emphasis opened before the ``#`` (``_#x_`` -> x)."""
    for m in _UNDERSCORES.finditer(body):
        opener = under.closer_of.get(pos + 1 + m.start())
        if opener is not None and opener < pos:
            return body[: m.start()]
    return body


def _fold(tag: str) -> str:
    # JS toLowerCase equivalent (§12.2): str.lower, not casefold.
    return tag.lower()


def tag_matches(tag: str, query: str) -> bool:
    """Case-insensitive hierarchical match (§9 search ``tag:``).

    ``"a"`` matches ``a`` and ``a/b`` but not ``ab`` or ``x/a``. A leading ``#`` on either side is ignored.
    """
    t = _fold(tag[1:] if tag.startswith("#") else tag)
    q = _fold(query[1:] if query.startswith("#") else query)
    if not q:
        return False
    return t == q or t.startswith(q + "/")


def distinct_tags(tags: Iterable[str]) -> list[str]:
    """Collapse tags case-insensitively (§9), in first-seen order.

    Each tag is shown in its most frequent casing; ties go to the casing seen first.
    Example: ``["Work", "work", "work", "x"] -> ["work", "x"]``.
    """
    variants: dict[str, dict[str, int]] = {}  # folded -> casing -> count (dicts keep first-seen order)
    for tag in tags:
        counts = variants.setdefault(_fold(tag), {})
        counts[tag] = counts.get(tag, 0) + 1
    out = []
    for counts in variants.values():
        best = max(counts.values())
        out.append(next(name for name, n in counts.items() if n == best))
    return out
