"""Link rewriting on rename / move follows Obsidian: `shared/reference/obsidian.md` §10 (and §3–§7, §12, §13).

Everything runs through the real parser and resolver; nothing is mocked. The last tests rename notes and
folders of the shared `obsidian-tasks-docs` vault in memory (the vault itself is only read).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from obsigate.domain.links.resolve import LinkResolver, link_name
from obsigate.domain.links.rewrite import (
    LinkEdit,
    LinkRewriteError,
    NoteUpdate,
    affected_names,
    plan_link_updates,
)
from obsigate.domain.markdown.inline import link_spans, recording_inline_runs
from obsigate.domain.markdown.note import parse_note
from obsigate.domain.vault import Vault, is_note, iter_files

FENCE = "```"
TASKS = Path(__file__).resolve().parents[2] / ".." / "shared" / "vaults" / "obsidian-tasks-docs"


def rewrite(files: list[str], moves: dict[str, str], notes: dict[str, str]) -> dict[str, str]:
    """New text per note (new path) after the moves; notes that do not change keep their text."""
    out = {moves.get(p, p): t for p, t in notes.items()}
    for update in plan_link_updates(files, moves, notes):
        out[update.path] = update.text
    return out


def one(files: list[str], moves: dict[str, str], source: str, text: str) -> str:
    return rewrite(files, moves, {source: text})[moves.get(source, source)]


# --- every inbound form (§10, §13 case 17) --------------------------------------------------------

VAULT = ["Note.md", "x.md", "sub/y.md", "pic.png", "Other.md"]
RENAME = {"Note.md": "Home.md"}


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("[[Note]]", "[[Home]]"),
        ("[[Note|Start]]", "[[Home|Start]]"),  # alias kept
        ("[[Note#Intro]]", "[[Home#Intro]]"),  # heading
        ("[[Note#Intro#Sub|x]]", "[[Home#Intro#Sub|x]]"),  # nested heading chain
        ("[[Note#^b1]]", "[[Home#^b1]]"),  # block
        ("![[Note#^b1]]", "![[Home#^b1]]"),  # embed keeps its '!'
        ("![[Note|300]]", "![[Home|300]]"),
        ("[[note]]", "[[Home]]"),  # case-insensitive match, regenerated name
        ("[[NOTE.md]]", "[[Home]]"),  # wikilinks are regenerated without .md (§7 generation)
        ("[[ Note | Start ]]", "[[ Home | Start ]]"),  # spacing kept byte for byte
        ("[[Note|Note]]", "[[Home|Home]]"),  # display equal to the old name is renamed (§10, RN 1.2.1)
        ("[[Note|note]]", "[[Home|note]]"),  # only an exact match is
        ("[[/Note]]", "[[/Home]]"),  # vault-absolute stays absolute
        ("%% [[Note]] %%", "%% [[Home]] %%"),  # links in %% comments are links (§4)
        ("> quoted [[Note]]", "> quoted [[Home]]"),
        ("> [!note] Callout [[Note]]\n> body [[Note|b]]", "> [!note] Callout [[Home]]\n> body [[Home|b]]"),
        ("- [ ] task [[Note]] 📅 2024-01-01", "- [ ] task [[Home]] 📅 2024-01-01"),
        ("  - nested [[Note]]", "  - nested [[Home]]"),
        ("# Heading [[Note]]", "# Heading [[Home]]"),
        ("[[Note]] and [[Note]]", "[[Home]] and [[Home]]"),
        ("para\nsecond line [[Note]]\nthird", "para\nsecond line [[Home]]\nthird"),
        ("[Note](Note.md)", "[Home](Home.md)"),  # markdown display equal to the old name
        ("[text](Note.md)", "[text](Home.md)"),
        ("[text](Note)", "[text](Home.md)"),  # generated markdown links keep .md (§6)
        ("[t](Note.md#Intro)", "[t](Home.md#Intro)"),
        ('[t](Note.md "a title")', '[t](Home.md "a title")'),
        ("[t](Note.md 'a title')", "[t](Home.md 'a title')"),
        ("[t](Note.md (a title))", "[t](Home.md (a title))"),
        ("[t](<Note.md>)", "[t](<Home.md>)"),  # <…> form kept
        ('[t](<Note.md#Intro> "x")', '[t](<Home.md#Intro> "x")'),
        ("[t](./Note.md)", "[t](./Home.md)"),  # relative stays relative
        ("![alt](Note.md)", "![alt](Home.md)"),
        ("[two\nlines](Note.md)", "[two\nlines](Home.md)"),  # a markdown link may span lines
        ("[t](\nNote.md)", "[t](\nHome.md)"),
        ("| a | b |\n|---|---|\n| [[Note\\|N]] | [[Note]] |", "| a | b |\n|---|---|\n| [[Home\\|N]] | [[Home]] |"),
        ("[![Note](pic.png)](Note.md)", "[![Note](pic.png)](Home.md)"),  # image nested in a link
        ("[[Note]][[Other]]", "[[Home]][[Other]]"),
        ("> first\n> second [[Note]] [t](Note.md)", "> first\n> second [[Home]] [t](Home.md)"),
        ("> [a\n> b](Note.md)", "> [a\n> b](Home.md)"),  # a link across quoted lines
        ("- item\n  continued [[Note]]\n\t- tab [[Note|x]]", "- item\n  continued [[Home]]\n\t- tab [[Home|x]]"),
        ("1. one\n   > > deep [[Note#H|h]]", "1. one\n   > > deep [[Home#H|h]]"),
    ],
)
def test_every_inbound_form_is_rewritten(before: str, after: str) -> None:
    assert one(VAULT, RENAME, "x.md", before) == after


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("[t](../Note.md)", "[t](../Home.md)"),
        ("[t](../Note.md#H)", "[t](../Home.md#H)"),
        ("[[../Note]]", "[[../Home]]"),
        ("[[Note]]", "[[Home]]"),
    ],
)
def test_relative_links_from_a_subfolder(before: str, after: str) -> None:
    assert one(VAULT, RENAME, "sub/y.md", before) == after


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ('---\nup: "[[Note]]"\n---\nbody', '---\nup: "[[Home]]"\n---\nbody'),  # §13 case 17
        ("---\nup: '[[Note|Start]]'\n---\n", "---\nup: '[[Home|Start]]'\n---\n"),
        (
            '---\nrelated:\n  - "[[Note#H]]"\n  - "[[Other]]"\n---\n',
            '---\nrelated:\n  - "[[Home#H]]"\n  - "[[Other]]"\n---\n',
        ),
        ('---\nrelated: ["[[Other]]", "[[Note]]"]\n---\n', '---\nrelated: ["[[Other]]", "[[Home]]"]\n---\n'),
        ('---\nnest:\n  deep:\n    up: "[[Note|Note]]"\n---\n', '---\nnest:\n  deep:\n    up: "[[Home|Home]]"\n---\n'),
        ('---\na: "[[Note]]"\nb: "[[Note]]"\n---\n', '---\na: "[[Home]]"\nb: "[[Home]]"\n---\n'),
        ('---\nnote: "see [[Note]]"\nup: "[[Note]]"\n---\n', '---\nnote: "see [[Note]]"\nup: "[[Home]]"\n---\n'),
        ("---\nup: [[Note]]\n---\n", None),  # unquoted: a nested YAML list, not a link (§3, case 13)
        # invalid YAML: no properties, so no frontmatter link; the block is still no body text (§3)
        ('---\ntitle: "x\nup: "[[Note]]"\n---\n[[Note]]', '---\ntitle: "x\nup: "[[Note]]"\n---\n[[Home]]'),
    ],
)
def test_frontmatter_links(before: str, after: str | None) -> None:
    assert one(VAULT, RENAME, "x.md", before) == (before if after is None else after)


def test_a_frontmatter_link_written_with_yaml_escapes_cannot_be_rewritten_and_is_refused() -> None:
    text = '---\nup: "[[No\\u0074e]]"\n---\n'  # the value is "[[Note]]", but not where the file says so
    assert [lk.target for lk in parse_note(text).links] == ["Note"]
    with pytest.raises(LinkRewriteError, match="YAML escapes"):
        plan_link_updates(VAULT, RENAME, {"x.md": text})
    assert plan_link_updates(VAULT, {"Other.md": "O.md"}, {"x.md": text}) == []  # not concerned: fine


def test_frontmatter_value_gets_yaml_escapes() -> None:
    text = "---\na: '[[Note]]'\nb: \"[[Note]]\"\n---\n[[Note]]"
    out = one(VAULT, {"Note.md": "Bob's note.md"}, "x.md", text)
    assert out == "---\na: '[[Bob''s note]]'\nb: \"[[Bob's note]]\"\n---\n[[Bob's note]]"
    assert [lk.target for lk in parse_note(out).links] == ["Bob's note"] * 3


# --- links that must not change --------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        f"{FENCE}\n[[Note]] [t](Note.md)\n{FENCE}",  # fenced code
        "    [[Note]] indented code",
        "`[[Note]]` and ``[t](Note.md)``",  # inline code
        "a `code\n[[Note]]` spanning lines",  # a code span across lines of one paragraph
        "$[[Note]]$ and $$[[Note]]$$",  # math
        "<!-- [[Note]] -->",
        "<div>\n[[Note]]\n</div>",  # HTML block
        "\\[[Note]] an escaped bracket is no wikilink",
        "[[Nope]] [t](Nope.md) [[pic]] [[c/Note]] [x](Note%23.md)",  # unresolved: never touched (§10)
        "[[#Intro]] [t](#Intro)",  # same-note links (§10, RN 0.12.0)
        "[[Other]] [t](https://example.com/Note.md) [m](mailto:Note)",
    ],
)
def test_untouched(text: str) -> None:
    assert one(VAULT, RENAME, "x.md", text) == text


def test_code_and_real_link_on_the_same_line() -> None:
    text = "`[[Note]]` [[Note]] ``[[Note]]`` [t](Note.md) `[t](Note.md)`"
    assert one(VAULT, RENAME, "x.md", text) == "`[[Note]]` [[Home]] ``[[Note]]`` [t](Home.md) `[t](Note.md)`"


def test_notes_without_changes_are_not_returned() -> None:
    notes = {"x.md": "[[Other]] [[Nope]]", "Other.md": "plain", "sub/y.md": "[[Note]]"}
    updates = plan_link_updates(VAULT, RENAME, notes)
    assert [u.path for u in updates] == ["sub/y.md"]


def test_a_move_that_keeps_bare_names_unique_changes_nothing() -> None:
    notes = {"x.md": "[[Note]] [t](Note.md) ![[pic.png]]", "Note.md": "[[#Intro]] [[Other]] [[x]]"}
    assert plan_link_updates(VAULT, {"Note.md": "deep/er/Note.md"}, notes) == []


# --- the update record ------------------------------------------------------------------------------


def test_update_carries_new_path_and_every_edit() -> None:
    notes = {"Note.md": '---\nup: "[[Note]]"\n---\n# Note\n[[Note|Note]] [[Other]]\n![x](Note.md)\n'}
    [update] = plan_link_updates(VAULT, RENAME, notes)
    assert update == NoteUpdate(
        "Home.md",
        '---\nup: "[[Home]]"\n---\n# Note\n[[Home|Home]] [[Other]]\n![x](Home.md)\n',
        (
            LinkEdit(2, "[[Note]]", "[[Home]]"),
            LinkEdit(5, "[[Note|Note]]", "[[Home|Home]]"),
            LinkEdit(6, "![x](Note.md)", "![x](Home.md)"),
        ),
    )


def test_crlf_bom_and_trailing_whitespace_are_preserved() -> None:
    text = '\ufeff---\r\nup: "[[Note]]"\r\ntags: [a]  \r\n---\r\n# T  \r\n\r\n[[Note]] \t\r\n[t](Note.md)\r\nlast\r'
    expected = text.replace("[[Note]]", "[[Home]]").replace("(Note.md)", "(Home.md)")
    [update] = plan_link_updates(VAULT, RENAME, {"x.md": text})
    assert update.text == expected
    assert [e.line for e in update.edits] == [2, 7, 8]


def test_mixed_line_endings_are_preserved() -> None:
    text = "[[Note]]\r\nb [[Note]]\nc\r\n[[Note]]"
    assert one(VAULT, RENAME, "x.md", text) == "[[Home]]\r\nb [[Home]]\nc\r\n[[Home]]"


# --- names ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("new", "before", "after"),
    [
        ("My Home.md", "[[Note]] [t](Note.md) [u](<Note.md>)", "[[My Home]] [t](My%20Home.md) [u](<My Home.md>)"),
        ("100% done.md", "[t](Note.md) [[Note]]", "[t](100%25%20done.md) [[100% done]]"),
        ("a (b.md", "[t](Note.md)", "[t](a%20%28b.md)"),  # an unbalanced paren is encoded
        ("Café.md", "[[Note]] [t](Note.md)", "[[Café]] [t](Café.md)"),
        # a wikilink gets the shortest form, a markdown link the vault path (§7 generation, §10)
        ("deep/My Home.md", "[t](Note.md) [[Note|Note]]", "[t](deep/My%20Home.md) [[My Home|My Home]]"),
    ],
)
def test_new_names_are_written_so_they_resolve(new: str, before: str, after: str) -> None:
    assert one(VAULT, {"Note.md": new}, "x.md", before) == after


def test_names_full_of_regex_characters() -> None:
    old, new = "C++ (draft) v1.2.md", "dir.*/C++ (final) v2.0 {1}+.md"
    files = [old, "x.md", "a+b/x (1).md"]
    text = (
        "[[C++ (draft) v1.2]] [[C++ (draft) v1.2#H.*|C++ (draft) v1.2]] ![[C++ (draft) v1.2.md]]\n"
        "[c](C++%20(draft)%20v1.2.md) [c](<C++ (draft) v1.2.md>) [[C++ (draft) v1]] `[[C++ (draft) v1.2]]`"
    )
    out = one(files, {old: new}, "a+b/x (1).md", text)
    assert out == (
        "[[C++ (final) v2.0 {1}+]] [[C++ (final) v2.0 {1}+#H.*|C++ (final) v2.0 {1}+]] ![[C++ (final) v2.0 {1}+]]\n"
        "[c](dir.*/C++%20(final)%20v2.0%20{1}+.md) [c](<dir.*/C++ (final) v2.0 {1}+.md>) [[C++ (draft) v1]] "
        "`[[C++ (draft) v1.2]]`"
    )
    resolver = LinkResolver([new, "x.md", "a+b/x (1).md"])
    assert {resolver.resolve(lk.target, "a+b/x (1).md") for lk in parse_note(out).links} == {new, None}


@pytest.mark.parametrize("new", ["C# notes.md", "a]].md", "pipe|name.md"])
def test_a_name_no_link_can_reach_is_refused(new: str) -> None:
    # §4: # | ]] in a name break links; Obsidian warns and breaks them, we refuse to plan the rename.
    with pytest.raises(LinkRewriteError):
        plan_link_updates(VAULT, {"Note.md": new}, {"x.md": "[[Note]]"})


def test_a_rewrite_that_would_break_the_surrounding_markup_is_refused() -> None:
    # "[[a`b]]" parses alone, but its backtick pairs with the code span after it: the whole-note check sees it
    with pytest.raises(LinkRewriteError, match="number of links"):
        plan_link_updates(VAULT, {"Note.md": "a`b.md"}, {"x.md": "[[Note]] and `code`"})
    assert one(VAULT, {"Note.md": "a`b.md"}, "x.md", "[[Note]] alone") == "[[a`b]] alone"


def test_moving_onto_an_existing_path_is_refused() -> None:
    with pytest.raises(ValueError, match=r"Other\.md"):
        plan_link_updates(VAULT, {"Note.md": "Other.md"}, {"x.md": "[[Note]]"})


def test_attachments_keep_their_extension_and_display_width() -> None:
    text = "![[pic.png]] ![[pic.png|200]] ![[pic.png|pic.png]] ![](pic.png) ![pic.png](./pic.png) [[pic]]"
    out = one(VAULT, {"pic.png": "img/photo.png"}, "x.md", text)
    assert out == (
        "![[photo.png]] ![[photo.png|200]] ![[photo.png|photo.png]] ![](img/photo.png) ![photo.png](./img/photo.png) [[pic]]"
    )


# --- folders, ambiguity, collisions (§10, §13 case 18) ------------------------------------------------


def test_folder_rename() -> None:
    files = ["a/One.md", "a/Two.md", "a/sub/Three.md", "b/One.md", "x.md", "a/img.png"]
    moves = {p: "c/" + p[2:] for p in files if p.startswith("a/")}
    notes = {
        "x.md": "[[a/One]] [[One]] [[Two]] [[a/sub/Three|3]] [t](a/Two.md) [u](./a/sub/Three.md) ![[a/img.png]]",
        "a/sub/Three.md": "[t](../Two.md) [u](../../x.md) [[One]] ![i](../img.png)",
        "a/Two.md": "[[One]] [[b/One]] [v](sub/Three.md)",
    }
    out = rewrite(files, moves, notes)
    # "One" from the root picked a/One.md (equal lengths, first in order); b/One.md would win now
    # wikilinks are regenerated in the shortest form (§7), markdown links keep the vault path
    assert out["x.md"] == "[[c/One]] [[c/One]] [[Two]] [[Three|3]] [t](c/Two.md) [u](./c/sub/Three.md) ![[img.png]]"
    # relative links inside the moved folder still hold; [[One]] reached a/One.md only by path order
    assert out["c/sub/Three.md"] == "[t](../Two.md) [u](../../x.md) [[c/One]] ![i](../img.png)"
    assert out["c/Two.md"] == notes["a/Two.md"]  # same-folder [[One]] wins; sub/Three.md is a suffix of c/sub/…


def test_moving_into_a_subfolder_rewrites_the_moved_notes_relative_links() -> None:
    files = ["Note.md", "pic.png", "y.md", "z/w.md"]
    notes = {"Note.md": "[x](./pic.png) [y](y.md) [w](z/w.md) [[y]] [[#Intro]] [[Note#Intro]] [u](../y.md)"}
    out = rewrite(files, {"Note.md": "deep/er/Note.md"}, notes)
    assert out == {
        "deep/er/Note.md": "[x](../../pic.png) [y](y.md) [w](z/w.md) [[y]] [[#Intro]] [[Note#Intro]] [u](../../y.md)"
    }


def test_case_18_a_bare_name_that_becomes_ambiguous_gets_its_path() -> None:
    files = ["Note.md", "a/Note.md", "x.md", "archive/z.md", "a/q.md"]
    notes = {
        "x.md": "[[Note]] [[a/Note]] [t](Note.md) [[Note|N]]",
        "a/q.md": "[[Note]] [[/Note]]",  # root Note.md won over the folder's own copy (exact path first)
        "archive/z.md": "[[Note]]",  # after the move the same-folder copy wins: still right, untouched
    }
    out = rewrite(files, {"Note.md": "archive/Note.md"}, notes)
    assert out["x.md"] == "[[archive/Note]] [[a/Note]] [t](archive/Note.md) [[archive/Note|N]]"
    assert out["a/q.md"] == "[[archive/Note]] [[/archive/Note]]"
    assert out["archive/z.md"] == "[[Note]]"


def test_a_new_name_colliding_with_a_bare_link_target_rewrites_those_links_with_their_path() -> None:
    files = ["x/Foo.md", "y/Bar.md", "src.md", "z/src.md", "z/Foo2.md"]
    notes = {"src.md": "[[Bar]] [[Foo]] [b](Bar.md)", "z/src.md": "[[Bar]]"}
    out = rewrite(files, {"x/Foo.md": "Bar.md"}, notes)
    # a root Bar.md now wins every bare [[Bar]] (§7 step 6, case 19): the old target keeps its links by path
    assert out["src.md"] == "[[y/Bar]] [[Bar]] [b](y/Bar.md)"
    assert out["z/src.md"] == "[[y/Bar]]"
    out = rewrite(files, {"x/Foo.md": "z/Bar.md"}, notes)  # into z/: only z's own notes prefer it
    assert out == {"src.md": "[[Bar]] [[z/Bar]] [b](Bar.md)", "z/src.md": "[[y/Bar]]"}  # y/ < z/: root keeps y


def test_swapping_two_names() -> None:
    files = ["A.md", "B.md", "x.md"]
    out = rewrite(files, {"A.md": "B.md", "B.md": "A.md"}, {"x.md": "[[A]] [[B|B]] [a](A.md)"})
    assert out["x.md"] == "[[B]] [[A|A]] [a](B.md)"


def test_affected_names() -> None:
    moves = {"a/Note.md": "b/Home.md", "pic.png": "img/pic.png"}
    assert affected_names(moves) == {"note.md", "note", "home.md", "home", "pic.png"}


# --- the span recorder the rewriter relies on --------------------------------------------------------


def test_link_spans_cover_the_markup() -> None:
    text = 'a [[X|y]] `[[no]]` [t](<a b.md> "t") ![i](p.png) [[Z\\|w]]'
    got = [
        (text[s.start : s.end], text[s.inner[0] : s.inner[1]], s.dest and text[s.dest[0] : s.dest[1]])
        for s in link_spans(text)
    ]
    assert got == [
        ("[[X|y]]", "X|y", None),
        ('[t](<a b.md> "t")', "t", "a b.md"),
        ("![i](p.png)", "i", "p.png"),
        ("[[Z\\|w]]", "Z\\|w", None),
    ]


def test_recording_does_not_change_the_parse() -> None:
    text = '---\nup: "[[A]]"\n---\n> [[B]] `[[C]]`\n\n| [[D\\|d]] |\n|---|\n\n[e](E.md)\n#tag'
    with recording_inline_runs() as runs:
        recorded = parse_note(text)
    assert recorded == parse_note(text)
    assert [s.link for run in runs for s in run.spans] == list(recorded.links[1:])


# --- a real vault: obsidian-tasks-docs (read only) ------------------------------------------------------


@pytest.fixture(scope="module")
def tasks_vault() -> tuple[list[str], dict[str, str]]:
    if not TASKS.is_dir():
        pytest.skip("shared vaults not present")
    root = TASKS.resolve()
    files = [entry.path for entry in iter_files(Vault("tasks", root))]
    texts = {p: (root / p).read_bytes().decode("utf-8") for p in files if is_note(p)}
    return files, texts


def _most_linked(files: list[str], texts: dict[str, str]) -> str:
    resolver = LinkResolver(files)
    counts: dict[str, int] = {}
    for path, text in texts.items():
        for lk in parse_note(text).links:
            dest = resolver.resolve(lk.target, path)
            if dest is not None and is_note(dest):
                counts[dest] = counts.get(dest, 0) + 1
    return max(counts, key=lambda p: counts[p])


def _most_relative(texts: dict[str, str]) -> str:
    def relative(path: str) -> int:
        return sum(lk.target.startswith(("./", "../")) for lk in parse_note(texts[path]).links)

    return max(sorted(texts), key=relative)


def _folder_moves(files: list[str], old: str, new: str) -> dict[str, str]:
    return {p: new + p[len(old) :] for p in files if p.startswith(old + "/")}


SCENARIOS = {
    "rename the most linked note to a regex-character name": lambda f, t: {
        (hub := _most_linked(f, t)): hub.rsplit("/", 1)[0] + "/Filters (C++ draft) v1.2 [old].md"
    },
    "move the note with the most relative links into a deeper folder": lambda f, t: {
        (src := _most_relative(t)): "Archive/2024/" + src
    },
    "rename the images folder": lambda f, t: _folder_moves(f, "images", "assets/Images & media"),
    "rename and nest a folder of notes": lambda f, t: _folder_moves(f, "Getting Started", "Start/Getting started (v2)"),
    "collide: a root note takes a heavily linked bare name": lambda f, t: {
        "Quick Reference.md": _most_linked(f, t).rsplit("/", 1)[-1]
    },
}


def _apply_edits(text: str, edits: tuple[LinkEdit, ...]) -> str:
    """Replay the reported edits on the old text, each on its line (single-line links)."""
    lines = text.split("\n")
    cursor: dict[int, int] = {}
    for edit in edits:
        i = edit.line - 1
        at = lines[i].index(edit.old, cursor.get(i, 0))
        lines[i] = lines[i][:at] + edit.new + lines[i][at + len(edit.old) :]
        cursor[i] = at + len(edit.new)
    return "\n".join(lines)


@pytest.mark.parametrize("scenario", list(SCENARIOS))
def test_tasks_docs_every_link_keeps_its_file(tasks_vault: tuple[list[str], dict[str, str]], scenario: str) -> None:
    files, texts = tasks_vault
    moves = SCENARIOS[scenario](files, texts)
    assert moves and all(old in files for old in moves)
    names = affected_names(moves)
    # the caller's selection: notes with a link under an affected name, plus every moved note
    candidates = {
        p: t for p, t in texts.items() if p in moves or any(link_name(lk.target) in names for lk in parse_note(t).links)
    }
    updates = plan_link_updates(files, moves, candidates)
    assert updates, scenario

    new_texts = {moves.get(p, p): t for p, t in texts.items()}
    for update in updates:
        new_texts[update.path] = update.text
    r0 = LinkResolver(files)
    r1 = LinkResolver(moves.get(p, p) for p in files)
    total_edits = 0
    for s0, old_text in texts.items():
        s1 = moves.get(s0, s0)
        old_links = parse_note(old_text).links
        new_links = parse_note(new_texts[s1]).links
        assert len(new_links) == len(old_links), s0
        changed = 0
        for old, new in zip(old_links, new_links, strict=True):
            dest = r0.resolve(old.target, s0)
            if dest is None:  # unresolved before: untouched
                assert new == old
                continue
            assert r1.resolve(new.target, s1) == moves.get(dest, dest), (s0, old)
            assert (new.kind, new.embed, new.subpath, new.line) == (old.kind, old.embed, old.subpath, old.line)
            changed += (new.target, new.display) != (old.target, old.display)
        total_edits += changed
        if new_texts[s1] != old_text:
            [update] = [u for u in updates if u.path == s1]
            assert len(update.edits) == changed, s0  # the reported count is the real change
            assert _apply_edits(old_text, update.edits) == update.text
            assert all(e.old != e.new for e in update.edits)
        else:
            assert changed == 0 and s1 not in {u.path for u in updates}
    assert total_edits == sum(len(u.edits) for u in updates) > 0
