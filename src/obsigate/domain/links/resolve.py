"""Obsidian's link resolution: which file a link path points to, from a given note.

The algorithm is Obsidian's ``MetadataCache.getLinkpathDest`` as documented in
``shared/reference/obsidian.md`` §7 (sources [DECOMP], [API] there): candidates by lower-cased file name,
then relative paths, then the vault-absolute form, then the shortest path ending with the link, preferring
files under the source note's folder. Resolution is per file only: a ``#heading`` or ``#^block`` subpath
never makes a link unresolved, so callers pass the link path without it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from obsigate.domain.markdown.link_syntax import FRONTMATTER, Link
from obsigate.domain.text import nfc

if TYPE_CHECKING:
    from obsigate.domain.markdown.note import ParsedNote

__all__ = ["CONTEXT_CHARS", "LinkResolver", "clip_around", "link_contexts", "link_name", "lookup_names"]

CONTEXT_CHARS = 240  # longest linking-line excerpt kept per link


def link_name(linkpath: str) -> str:
    """The key under which a link is looked up for backlinks: its last path segment, NFC, lower-cased.

    ``"folder/My Note"`` → ``"my note"``; ``"../pic.PNG"`` → ``"pic.png"``; ``""`` (a same-note ``[[#h]]``)
    → ``""``. A link can only resolve to a file whose :func:`lookup_names` contains this key.
    """
    return nfc(linkpath.strip()).rsplit("/", 1)[-1].lower()


def lookup_names(path: str) -> tuple[str, ...]:
    """The :func:`link_name` keys of links that may resolve to ``path``.

    ``"a/Note.md"`` → ``("note.md", "note")`` (``[[Note]]`` and ``[[Note.md]]``); ``"pic.png"`` →
    ``("pic.png",)`` (attachments need their extension, obsidian.md §7).
    """
    name = path.rsplit("/", 1)[-1].lower()
    return (name, name[:-3]) if name.endswith(".md") and len(name) > 3 else (name,)


def clip_around(line: str, needle: str, width: int = CONTEXT_CHARS) -> str:
    """``line`` stripped, or a window of about ``width`` characters centred on ``needle`` (``…`` marks cuts)."""
    line = line.strip()
    if len(line) <= width:
        return line
    at = line.find(needle) if needle else -1
    start = 0 if at < 0 else max(0, min(at - width // 3, len(line) - width))
    out = line[start : start + width]
    return ("…" if start else "") + out + ("…" if start + width < len(line) else "")


def _link_needle(line: str, lk: Link) -> str:
    """Text that locates ``lk`` in its line: the link's own markup when found, so a long line is clipped
    around the link rather than around an earlier plain mention of the same name."""
    marks = (f"[[{lk.target}", f"]({lk.target}", f"](<{lk.target}", f"]({lk.target.replace(' ', '%20')}")
    return next((m for m in marks if m in line), lk.target)


def link_contexts(parsed: ParsedNote) -> list[str | None]:
    """For each of ``parsed.links``, the line it sits on, clipped with :func:`clip_around`.

    A frontmatter link's context is ``key: [[target]]`` (its YAML line is not kept by the parser).
    """
    lines = parsed.body.split("\n")
    out: list[str | None] = []
    for lk in parsed.links:
        if lk.kind == FRONTMATTER:
            out.append(clip_around(f"{lk.key}: [[{lk.target}]]", lk.target))
            continue
        i = lk.line - parsed.body_line
        out.append(clip_around(lines[i], _link_needle(lines[i], lk)) if 0 <= i < len(lines) else None)
    return out


def _folder(path: str) -> str:
    return path.rsplit("/", 1)[0] if "/" in path else ""


class LinkResolver:
    """Resolve link paths among a vault's visible files (vault-relative POSIX paths, NFC).

    Hidden files must not be given: Obsidian never resolves a link to them (obsidian.md §13 case 20).
    Lookups are case-insensitive with ``str.lower`` (JavaScript ``toLowerCase``, not ``casefold``: §12).
    """

    def __init__(self, paths: Iterable[str] = ()) -> None:
        self._by_name: dict[str, set[str]] = defaultdict(set)
        for path in paths:
            self.add(path)

    def add(self, path: str) -> None:
        """Make ``path`` a possible link target."""
        self._by_name[path.rsplit("/", 1)[-1].lower()].add(path)

    def contains(self, path: str) -> bool:
        """True if ``path`` (exact spelling) is a known file."""
        return path in self._by_name.get(path.rsplit("/", 1)[-1].lower(), ())

    def remove(self, path: str) -> None:
        """Forget ``path`` (deleted or renamed away)."""
        name = path.rsplit("/", 1)[-1].lower()
        found = self._by_name.get(name)
        if found is not None:
            found.discard(path)
            if not found:
                del self._by_name[name]

    def resolve(self, linkpath: str, source: str) -> str | None:
        """The file ``linkpath`` (no ``#subpath``) points to from note ``source``, or ``None`` if unresolved.

        Examples (obsidian.md §13, vault ``Note.md``, ``a/Note.md``, ``ab/Note.md``, ``pic.png``):
        ``resolve("Note", "a/x.md") == "Note.md"``; ``resolve("b/Note", "x.md") == "ab/Note.md"`` (the
        string-suffix quirk); ``resolve("pic", "x.md") is None`` (attachments need their extension).
        """
        link = nfc(linkpath.strip())
        if not link:
            return source  # [[#Heading]]: the note itself
        last = link.rsplit("/", 1)[-1].lower()
        candidates: set[str] = set()
        if "." in last:
            candidates = self._by_name.get(last, set())
        if not candidates:
            link, last = link + ".md", last + ".md"
            candidates = self._by_name.get(last, set())
        if not candidates:
            return None
        if "/" not in link and len(candidates) == 1:
            return next(iter(candidates))
        lowered = {c.lower(): c for c in sorted(candidates)}
        folder = _folder(source)
        if link.startswith(("./", "../")):
            parts: list[str] = []
            for seg in f"{folder}/{link}".split("/") if folder else link.split("/"):
                if seg == "..":
                    if parts:
                        parts.pop()  # above the root clamps to the root
                elif seg not in ("", "."):
                    parts.append(seg)
            hit = lowered.get("/".join(parts).lower())
            if hit:
                return hit
        absolute = link.startswith("/")
        hit = lowered.get(link[1:].lower() if absolute else link.lower())
        if hit or absolute:
            return hit
        suffix = link.lower()
        matches = [c for low, c in lowered.items() if low.endswith(suffix)]
        near = sorted((c for c in matches if c.startswith(folder)), key=len)
        far = sorted((c for c in matches if not c.startswith(folder)), key=len)
        ranked = near + far
        return ranked[0] if ranked else None
