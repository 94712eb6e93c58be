"""Pure note edits: byte-exact outside the edit, CRLF and BOM kept, literal replacement, sections, appends."""

from __future__ import annotations

import pytest

from obsigate.domain.markdown.edit import EditError, NoteText, append, heading_section, replace_exact, replace_section

CRLF_BOM = (
    "\ufeff---\r\ntitle: a: b\r\n---\r\n# Top\r\nintro\r\n\r\n## Plan ##\r\nold 1\r\nold 2\r\n\r\n## Next\r\nkeep\r\n"
)


def test_crlf_bom_round_trips_byte_exact() -> None:
    raw = CRLF_BOM.encode()
    note = NoteText.decode(raw)
    assert note.bom and note.newline == "\r\n" and "\r" not in note.text
    assert note.encode() == raw


def test_mixed_line_endings_are_left_alone() -> None:
    raw = b"a\r\nb\nc\r\n"
    note = NoteText.decode(raw)
    assert note.newline == "\n" and note.encode() == raw
    assert append(note, "d").encode() == b"a\r\nb\nc\r\nd"


def test_section_replace_touches_only_the_section() -> None:
    note = NoteText.decode(CRLF_BOM.encode())
    out = replace_section(note, "Plan", "new line\n").encode()
    assert out == CRLF_BOM.replace("old 1\r\nold 2\r\n", "new line\r\n").encode()
    assert out.startswith("\ufeff---\r\ntitle: a: b\r\n---\r\n".encode())  # frontmatter bytes untouched


def test_section_runs_to_the_next_heading_of_same_or_higher_level_and_skips_fences() -> None:
    text = "# A\n## B\nb\n### C\nc\n```\n# not a heading\n```\n## D\nd\n"
    start, body, end = heading_section(text, "## B")
    assert (start, body, end) == (1, 2, 8)
    with pytest.raises(EditError) as info:
        heading_section("# X\n# X\n", "X")
    assert info.value.code == "ambiguous"
    with pytest.raises(EditError) as info:
        heading_section(text, "not a heading")
    assert info.value.code == "not_found"


@pytest.mark.parametrize("replacement", ["$&", "$1", "\\1", "\\g<0>", "&", "$$"])
def test_replacement_text_is_literal(replacement: str) -> None:
    note = NoteText.decode(b"cost: 10 USD\n")
    out, count = replace_exact(note, "10", replacement)
    assert count == 1 and out.encode() == f"cost: {replacement} USD\n".encode()


def test_expected_count_guards_the_edit() -> None:
    note = NoteText.decode(b"x x x\n")
    with pytest.raises(EditError) as info:
        replace_exact(note, "x", "y", 2)
    assert info.value.code == "count_mismatch"
    assert replace_exact(note, "x", "y", None)[1] == 3
    with pytest.raises(EditError) as info:
        replace_exact(note, "z", "y")
    assert info.value.code == "not_found"


@pytest.mark.parametrize(
    ("before", "content", "after"),
    [(b"a\n", "b", b"a\nb"), (b"a", "b\n", b"a\nb\n"), (b"", "b", b"b"), (b"a\r\n", "b\nc", b"a\r\nb\r\nc")],
)
def test_append_joins_with_exactly_one_line_break(before: bytes, content: str, after: bytes) -> None:
    assert append(NoteText.decode(before), content).encode() == after


def test_whole_content_keeps_the_files_style() -> None:
    note = NoteText.decode(CRLF_BOM.encode())
    assert note.with_text("one\ntwo\n").encode() == "\ufeffone\r\ntwo\r\n".encode()
