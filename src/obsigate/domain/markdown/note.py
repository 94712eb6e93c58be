"""Parse one Obsidian note: properties, tags, aliases, links, embeds and headings.

Rules are those of `shared/reference/obsidian.md` (cited as §n): frontmatter §3, wikilinks §4, embeds §5,
markdown links §6, headings §8, tags §9, parser gotchas §12. Where Obsidian departs from CommonMark
(lazy lines inside container fences, where a tag may start) the behaviour follows Obsidian 1.13 readbacks.

This module is the public API and puts the steps together; each step is a module of this package:

* :mod:`~obsigate.domain.markdown.frontmatter` — the properties block (YAML);
* :mod:`~obsigate.domain.markdown.blocks` — one pass over the body lines tracking block structure (fenced /
  indented code, ``$$`` math, HTML blocks, blockquotes, list items, tables), with the per-line rules in
  :mod:`~obsigate.domain.markdown.lines`;
* :mod:`~obsigate.domain.markdown.inline` — each inline run (paragraph, heading, table row): masks code spans,
  inline math, HTML comments and escapes, then extracts links and tags. ``%% comments %%`` are
  deliberately *not* masked: Obsidian indexes them;
* :mod:`~obsigate.domain.markdown.link_syntax` — what a link's text means; :mod:`~obsigate.domain.markdown.tags` — the tag grammar.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from obsigate.domain.markdown.blocks import Heading, scan_blocks
from obsigate.domain.markdown.frontmatter import iter_string_values, load_frontmatter, split_frontmatter
from obsigate.domain.markdown.link_syntax import (
    FRONTMATTER,
    MARKDOWN,  # noqa: F401  (a link kind, importable from here as before)
    WIKILINK,  # noqa: F401
    Link,
    decode_uri,
    wikilink,
)
from obsigate.domain.markdown.tags import distinct_tags, frontmatter_tag, tag_matches

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
    except Exception:  # noqa: BLE001 — a parser bug must not take indexing down; keep the note, log the input shape
        _log.exception("parse_note failed on a %d-character note; indexing it without metadata", len(text))
        body = text.replace("\r\n", "\n")
        return ParsedNote({}, None, body, 1, (), (), (), ())


def extract_tags(text: str) -> list[str]:
    """Inline tags (without ``#``, in order, duplicates kept) of a markdown body; no frontmatter handling."""
    tags: list[str] = []
    scan_blocks(text.replace("\r\n", "\n").split("\n"), 1, [], [], tags)
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
    scan_blocks(body.split("\n"), body_line, headings, links, tags)
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
        link = wikilink(inner, False, line, FRONTMATTER, key)
        if link is not None:
            out.append(link)
    return out
