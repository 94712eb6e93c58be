"""Obsidian's link resolution, on the Cases of shared/reference/obsidian.md §13."""

from __future__ import annotations

import pytest

from obsigate.domain.links.resolve import LinkResolver

VAULT = ["Note.md", "a/Note.md", "ab/Note.md", "a/x.md", "b/y.md", "pic.png", "My.Note.md", "Report.pdf"]


@pytest.fixture
def resolver() -> LinkResolver:
    return LinkResolver(VAULT)


@pytest.mark.parametrize(
    ("link", "source", "expected"),
    [
        ("Note", "b/y.md", "Note.md"),  # case 1: root file whose path equals the bare link
        ("Note", "a/x.md", "Note.md"),  # case 2: exact root path beats folder preference
        ("b/Note", "a/x.md", "ab/Note.md"),  # case 3: plain string-suffix quirk
        ("b/Note", "Note.md", "ab/Note.md"),
        ("/Note", "a/x.md", "Note.md"),  # case 4: vault-absolute form
        ("/x", "b/y.md", None),
        ("NOTE.MD", "Note.md", "Note.md"),  # case 5: case-insensitive, with .md
        ("pic", "a/x.md", None),  # case 6: attachments need their extension
        ("pic.png", "a/x.md", "pic.png"),
        ("My.Note", "a/x.md", "My.Note.md"),  # case 7: "my.note" misses, "my.note.md" hits
        ("My%23Note.md", "a/x.md", None),  # %23 stays encoded for markdown links (decodeURI)
        ("Report .pdf", "a/x.md", None),  # case 8
        ("Report.pdf", "a/x.md", "Report.pdf"),
        ("a/Note", "b/y.md", "a/Note.md"),
        ("x", "b/y.md", "a/x.md"),  # unique name anywhere
        ("../a/x", "b/y.md", "a/x.md"),  # relative to the source folder
        ("./y", "b/y.md", "b/y.md"),
        ("../../../a/x", "b/y.md", "a/x.md"),  # above the root clamps to the root
        ("", "a/x.md", "a/x.md"),  # [[#Heading]] is the note itself
        ("c/Note", "a/x.md", None),  # a wrong folder is unresolved even though the name exists
    ],
)
def test_cases(resolver: LinkResolver, link: str, source: str, expected: str | None) -> None:
    assert resolver.resolve(link, source) == expected


def test_without_a_root_copy_the_source_folder_wins_then_the_shortest(resolver: LinkResolver) -> None:
    resolver.remove("Note.md")  # case 2, second half
    assert resolver.resolve("Note", "a/x.md") == "a/Note.md"
    assert resolver.resolve("Note", "b/y.md") == "a/Note.md"  # no folder match: shortest path first


def test_a_new_root_note_retargets_bare_links(resolver: LinkResolver) -> None:
    resolver.remove("Note.md")
    assert resolver.resolve("Note", "ab/z.md") == "ab/Note.md"
    resolver.add("Note.md")  # case 19: the exact root path wins from every folder
    assert resolver.resolve("Note", "ab/z.md") == "Note.md"


def test_report_pdf_prefers_the_attachment_over_a_note_named_like_it() -> None:
    resolver = LinkResolver(["Report.pdf", "Report.pdf.md"])
    assert resolver.resolve("Report.pdf", "x.md") == "Report.pdf"


def test_nfd_link_text_matches_an_nfc_file_name() -> None:
    resolver = LinkResolver(["Notes/Caf\u00e9.md"])
    assert resolver.resolve("Cafe\u0301", "x.md") == "Notes/Caf\u00e9.md"
