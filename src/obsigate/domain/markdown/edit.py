"""Pure text edits of a note that keep everything they do not target byte for byte.

A note is decoded into :class:`NoteText` (BOM flag, line-ending style, text with ``\\n`` line breaks) and
encoded back by :meth:`NoteText.encode`, so a CRLF file with a BOM stays CRLF with a BOM whatever the edit.
Replacement text is always literal: ``$&``, ``$1`` or ``\\1`` are inserted as typed (peers' users lost text to
``re.sub`` templates). A file whose line breaks are mixed is kept as is (no conversion either way).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from obsigate.domain.markdown.note import parse_note

__all__ = ["EditError", "NoteText", "append", "heading_section", "replace_exact", "replace_section"]

BOM = "\ufeff"


class EditError(ValueError):
    """An edit that cannot apply as asked. ``code`` is stable: ``invalid_argument`` (an empty text to find),
    ``not_found`` (text or heading absent), ``count_mismatch`` (the text occurs a different number of times than expected), ``ambiguous``
    (several headings match)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class NoteText:
    """A decoded note: ``text`` with ``\\n`` line breaks, whether it had a BOM, and its line-ending style."""

    text: str
    bom: bool = False
    newline: str = "\n"  # "\r\n" when every line break of the file was CRLF

    @classmethod
    def decode(cls, data: bytes) -> NoteText:
        """UTF-8 bytes → NoteText (invalid bytes are replaced; callers refuse such notes before editing).

        A file is taken as CRLF only if it has at least one CRLF and no bare LF; then its text is normalised
        to LF for editing and :meth:`encode` restores CRLF everywhere. A stray CR before a CRLF (``\r\r\n``)
        makes it LF-style instead, kept as is: normalised, it would still hold a CRLF that :meth:`with_text`
        takes for a line break, and the stray CR would be lost on the next write.
        """
        text = data.decode("utf-8", errors="replace")
        bom = text.startswith(BOM)
        if bom:
            text = text[1:]
        crlf = text.count("\r\n")
        if crlf and crlf == text.count("\n") and "\r\r\n" not in text:
            return cls(text.replace("\r\n", "\n"), bom, "\r\n")
        return cls(text, bom, "\n")

    def with_text(self, text: str) -> NoteText:
        """The same BOM and line-ending style around new ``text`` (given with ``\\n`` or CRLF breaks)."""
        return NoteText(text.replace("\r\n", "\n") if self.newline == "\r\n" else text, self.bom, self.newline)

    def encode(self) -> bytes:
        """Back to bytes with the original BOM and line endings."""
        text = self.text.replace("\n", "\r\n") if self.newline == "\r\n" else self.text
        return ((BOM if self.bom else "") + text).encode("utf-8")


def append(note: NoteText, content: str) -> NoteText:
    """``content`` added at the end, joined by exactly one line break (none added to an empty note)."""
    text = note.text
    content = content.replace("\r\n", "\n") if note.newline == "\r\n" else content
    if text and not text.endswith("\n"):
        text += "\n"
    return NoteText(text + content, note.bom, note.newline)


def replace_exact(
    note: NoteText,
    find: str,
    replace: str,
    expected_count: int | None = 1,
    protected: Sequence[tuple[int, int]] = (),
) -> tuple[NoteText, int]:
    """Replace every occurrence of the literal ``find`` by the literal ``replace``.

    Args:
        expected_count: how many occurrences there must be (``None``: any number ≥ 1). A mismatch changes
            nothing: the caller's picture of the note is wrong.
        protected: character spans of ``note.text`` (the secrets) that no occurrence may touch: an occurrence
            overlapping one does not count and is left alone, so a guess at a hidden secret behaves exactly
            like text that is not there.

    Returns:
        ``(new note, occurrences replaced)``.

    Raises:
        EditError: ``invalid_argument`` (empty ``find``), ``not_found`` (0 occurrences) or ``count_mismatch``.
    """
    if note.newline == "\r\n":
        find, replace = find.replace("\r\n", "\n"), replace.replace("\r\n", "\n")
    if not find:
        raise EditError("invalid_argument", "the text to find is empty")
    text, starts, pos = note.text, [], note.text.find(find)
    while pos >= 0:
        end = pos + len(find)
        if not any(s < end and pos < e for s, e in protected):
            starts.append(pos)
        pos = text.find(find, end)
    if not starts:
        raise EditError("not_found", "the text to replace does not occur in the note (it must match exactly)")
    if expected_count is not None and len(starts) != expected_count:
        raise EditError(
            "count_mismatch",
            f"the text occurs {len(starts)} times, not {expected_count}: give more context or the count",
        )
    out: list[str] = []
    last = 0
    for start in starts:
        out += (text[last:start], replace)
        last = start + len(find)
    out.append(text[last:])
    return NoteText("".join(out), note.bom, note.newline), len(starts)


def heading_section(text: str, heading: str) -> tuple[int, int, int]:
    """Where the section under ``heading`` is: ``(heading line index, first body line, end line)`` (0-based,
    end exclusive). The section runs to the next heading of the same or a higher level, or the end. Headings
    are the note parser's (``markdown.parse_note``, obsidian.md §8), so a ``#`` line in fenced code or in the
    frontmatter is not one. ``heading`` may carry its ``#`` marks.

    Raises:
        EditError: ``not_found`` or ``ambiguous`` (the heading text occurs more than once).
    """
    want = heading.strip().lstrip("#").strip()
    headings = parse_note(text).headings
    heads = [(h.line - 1, h.level) for h in headings]
    found = [(h.line - 1, h.level) for h in headings if h.text == want]
    if not found:
        raise EditError("not_found", f"no heading {want!r} in the note")
    if len(found) > 1:
        raise EditError("ambiguous", f"the heading {want!r} occurs {len(found)} times")
    start, level = found[0]
    end = next((i for i, lv in heads if i > start and lv <= level), text.count("\n") + 1)
    return start, start + 1, end


def replace_section(note: NoteText, heading: str, content: str) -> NoteText:
    """The body under ``heading`` (up to the next heading of the same or higher level) replaced by
    ``content``; the heading line itself and everything outside the section stay as they are. Blank lines
    around the old body (after the heading, before the next heading) are kept, and so is the note's final
    line break.

    Raises:
        EditError: see :func:`heading_section`.
    """
    final_break = note.text.endswith("\n")
    lines = (note.text[:-1] if final_break else note.text).split("\n")
    _, body_start, end = heading_section("\n".join(lines), heading)
    new_body = content.replace("\r\n", "\n").strip("\n").split("\n") if content.strip("\n") else []
    lead = 0
    while body_start + lead < end and not lines[body_start + lead].strip():
        lead += 1
    trail = 0
    while end - trail - 1 >= body_start + lead and not lines[end - trail - 1].strip():
        trail += 1
    body = lines[body_start : body_start + lead] + new_body + lines[end - trail : end]
    text = "\n".join(lines[:body_start] + body + lines[end:])
    return NoteText(text + ("\n" if final_break else ""), note.bom, note.newline)
