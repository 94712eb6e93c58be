"""Properties of links and renames (issue 20, robustness suite).

- The markdown parser (``domain/markdown``: blocks, inline links, tags, frontmatter) never crashes on any
  text, markdown-shaped or not, and what it reports stays inside the text (lines, spans).
- A link rewrite round-trips: ``plan_link_updates`` for A→B, then for B→A, gives every note back byte for
  byte when its links are written the way the rewriter writes them (Obsidian's "shortest" wikilink, the vault
  path of a markdown link, a relative link relative); written any other way, every link still reaches the same
  file after the round trip and a second round trip changes nothing.
- Through the tool layer (``rename_file``/``move_path`` on an indexed vault, as REST runs them): renaming a
  linked note A→B→A leaves every file of the vault byte-identical.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st
from robust.world import World, world_in

from obsigate.domain.links.resolve import LinkResolver
from obsigate.domain.links.rewrite import _relative, affected_names, plan_link_updates  # how it spells a relative link
from obsigate.domain.markdown.inline import link_spans
from obsigate.domain.markdown.note import parse_note

PHASES = [Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink]  # no explain phase: slow on 2 cores

# --- 1. the parser never crashes -------------------------------------------------------------------

TOKENS = [
    "[[", "]]", "![[", "[", "]", "(", ")", "<", ">", "|", "\\|", "#", "#tag", "^", "^b1", "\\", "`", "``", "```",
    "~~~", "%%", "$$", "\n", "\r\n", "\r", "\n\n", "---\n", "- ", "* ", "1. ", "> ", "    ", "\t", "  ", "%20", "%",
    "%E2%82", ".md", "A", "b c", "\u00e9", "e\u0301", "\u00a0", ":", '"', "'", "tags:", "aliases: [", "[x](", "](",
    "http://x", "<a href=", "<!--", "-->", "| a | b |\n|---|---|\n", "\ufeff", "\u2028", "\x00", "\ud7ff", "\U0001f600",
]  # fmt: skip
markdownish = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=6)), max_size=60).map("".join)


@settings(max_examples=300, deadline=None, derandomize=True, phases=PHASES)
@given(text=st.one_of(markdownish, st.text(max_size=200), markdownish.map(lambda t: "---\n" + t)))
@example(text="---\na: [[[x]]]\n---\n[[a|b]](c)")
@example(text="> [x](<a\n> b.md>)")
def test_the_parser_never_crashes(text: str) -> None:
    parsed = parse_note(text)
    n_lines = text.count("\n") + 1
    for link in parsed.links:
        assert 1 <= link.line <= n_lines, link
    for span in link_spans(text):
        assert 0 <= span.start < span.end <= len(text)
        assert text[span.start : span.end].endswith(("]]", ")", ">")), text[span.start : span.end]


# --- 2. a rewrite round-trips ----------------------------------------------------------------------

#: (A's path, B's path): a rename in place, a move to another folder, names with spaces, accents, parentheses.
RENAMES = [
    ("Alpha.md", "Beta.md"),
    ("Folder/Alpha.md", "Folder/Beta.md"),
    ("Folder/Alpha.md", "Alpha.md"),
    ("Alpha.md", "Sub/Deep/Alpha.md"),
    ("Folder/Al pha.md", "Other/Be ta.md"),
    ("Caf\u00e9.md", "Folder/Th\u00e9.md"),
    ("Folder/a(1).md", "Folder/b(2).md"),
    ("pic.png", "img/pic2.png"),
]
#: Other files of the vault, that links come from and go to.
OTHERS = ["Folder/Sib.md", "Notes/N1.md", "Notes/N2.md", "Top.md", "Sub/Note.md"]
#: A second "Alpha": bare names become ambiguous. Only with free spellings: a link that still reaches its file
#: is never rewritten, and which file an ambiguous bare name reaches depends on the linking note's folder, so
#: ``[[Folder/Alpha]]`` in ``Folder/`` comes back as the equally working ``[[Alpha]]`` (obsidian.md §7, §10).
AMBIGUOUS = "Other/Alpha.md"
FILLER = ["", "text ", "\n", "# Heading\n", "- item ", "`code [[Alpha]]` ", "```\n[[Alpha]]\n```\n", "%% [[x]] %%",
          "#tag ", "> quoted ", "| a | b |\n", "\r\n", "[[Missing]] ", "[x](http://example.com) "]  # fmt: skip


def _shortest(path: str, files: set[str]) -> str:
    """The wikilink path Obsidian's "shortest" mode writes for ``path`` (obsidian.md §7 link generation)."""
    name = path.rsplit("/", 1)[-1]
    stem = name[:-3] if name.lower().endswith(".md") else name
    same = [f for f in files if f.rsplit("/", 1)[-1].lower() == name.lower()]
    if len(same) == 1:
        return stem
    return path[:-3] if path.lower().endswith(".md") else path


def _md_path(path: str, angle: bool) -> str:
    # the rewriter's first choice: balanced parentheses as they are (they parse), %-escapes for % and spaces
    return f"<{path}>" if angle else path.replace("%", "%25").replace(" ", "%20")


@st.composite
def canonical_link(draw: st.DrawFn, target: str, source: str, files: set[str], moved: str) -> str:
    """A link to ``target`` from ``source`` written the way the rewriter writes one."""
    name = target.rsplit("/", 1)[-1]
    stem = name[:-3] if name.endswith(".md") else name
    sub = draw(st.sampled_from(["", "#Heading", "#^b1"])) if target.endswith(".md") else ""
    display = draw(st.sampled_from(["", "see this", stem, name]))
    kinds = ["wiki", "embed", "md", "md-angle", "frontmatter"]
    # A relative link in the moved note itself is left alone on the way back when it still works (a ``..`` above
    # the root stays at the root, obsidian.md §7): it works, but is not the spelling it had.
    kind = draw(st.sampled_from(kinds if source == moved else [*kinds, "relative"]))
    if kind in ("wiki", "embed", "frontmatter"):
        inner = _shortest(target, files) + sub + (f"|{display}" if display else "")
        if kind == "frontmatter":
            return f'"[[{inner}]]"'
        return ("!" if kind == "embed" else "") + f"[[{inner}]]"
    if kind == "relative":
        return f"[{display}]({_md_path(_relative(source, target), False)}{sub})"
    return f"[{display}]({_md_path(target, kind == 'md-angle')}{sub})"


@st.composite
def vault_notes(draw: st.DrawFn, canonical: bool = True) -> tuple[str, str, dict[str, str], set[str]]:
    """``(A, B, {note path: text}, every file)``: notes (A itself too, if a note) linking to A and to others."""
    # Folder/Alpha → Alpha: on the way back, the root's vault path "Alpha.md" is also Folder/Alpha.md's unique
    # name, so it still works and is kept: only free spellings are checked there
    a, b = draw(st.sampled_from(RENAMES if not canonical else [r for r in RENAMES if r[1] != "Alpha.md"]))
    files = {a, *OTHERS} | (set() if canonical else {AMBIGUOUS})
    notes: dict[str, str] = {}
    sources = [p for p in sorted(files) if p.endswith(".md")]
    for source in draw(st.lists(st.sampled_from(sources), min_size=1, max_size=4, unique=True)):
        body_parts: list[str] = []
        fm: list[str] = []
        for _ in range(draw(st.integers(1, 5))):
            # the moved note's links to itself: as its relative links, left alone on the way back when they work
            target = draw(st.sampled_from([a, a, a, "Folder/Sib.md", "Top.md"] if source != a or not canonical
                                          else ["Folder/Sib.md", "Top.md"]))  # fmt: skip
            if canonical:
                link = draw(canonical_link(target, source, files, a))
            else:  # any spelling that reaches the file: case, .md, folder path, relative, absolute
                stem = target[:-3] if target.endswith(".md") else target
                link = draw(st.sampled_from([f"[[{stem.lower()}]]", f"[[{target}]]", f"[[/{stem}]]",
                                             f"[x]({_md_path(stem, False)})", f"[[{stem.rsplit('/', 1)[-1].upper()}]]",
                                             f"![[{target}|{stem}]]"]))  # fmt: skip
            if link.startswith('"'):
                fm.append(f"rel{len(fm)}: {link}")
                continue
            body_parts += [draw(st.sampled_from(FILLER)), link, draw(st.sampled_from([" ", "\n", " and "]))]
        head = "---\n" + "\n".join(fm) + "\n---\n" if fm else ""
        text = head + "".join(body_parts)
        if draw(st.booleans()):
            text = text.replace("\n", "\r\n")
        notes[source] = text
    return a, b, notes, files


def _round(files: set[str], moves: dict[str, str], notes: dict[str, str]) -> tuple[set[str], dict[str, str]]:
    """Files and note texts after the moves, the notes' links rewritten by ``plan_link_updates``."""
    assert affected_names(moves)
    updates = {u.path: u.text for u in plan_link_updates(files, moves, notes)}  # every note is a candidate
    after = {moves.get(p, p): t for p, t in notes.items()}
    after.update(updates)
    return {moves.get(f, f) for f in files}, after


def _targets(files: set[str], notes: dict[str, str]) -> dict[str, list[tuple[Any, ...]]]:
    """Per note, each link's (kind, embed, subpath, file it reaches)."""
    resolver = LinkResolver(files)
    return {
        p: [(lk.kind, lk.embed, lk.subpath, resolver.resolve(lk.target, p)) for lk in parse_note(t).links]
        for p, t in notes.items()
    }


@settings(max_examples=150, deadline=None, derandomize=True, phases=PHASES)
@given(world=vault_notes())
def test_a_rewrite_then_its_inverse_gives_every_note_back(world: tuple[str, str, dict[str, str], set[str]]) -> None:
    a, b, notes, files = world
    files_b, notes_b = _round(files, {a: b}, notes)
    files_a, notes_a = _round(files_b, {b: a}, notes_b)
    assert files_a == files
    assert notes_a == notes
    event("links rewritten on the way" if notes_b != notes else "nothing to rewrite")


#: Found by this property: a line ending in "\r\r\n" (a stray CR before a CRLF) made every rename of a note it
#: links to fail with ``unsafe_name`` (the rewriter parsed its already CRLF-normalised text again).
STRAY_CR = ("Alpha.md", "Beta.md", {"Folder/Sib.md": "[[alpha]] \r\r\n[[alpha]] "},
            {"Alpha.md", "Folder/Sib.md", "Top.md", AMBIGUOUS})  # fmt: skip


@settings(max_examples=100, deadline=None, derandomize=True, phases=PHASES)
@given(world=vault_notes(canonical=False))
@example(world=STRAY_CR)
def test_any_spelling_reaches_the_same_file_after_a_round_trip(
    world: tuple[str, str, dict[str, str], set[str]],
) -> None:
    a, b, notes, files = world
    files_b, notes_b = _round(files, {a: b}, notes)
    _, notes_a = _round(files_b, {b: a}, notes_b)
    assert _targets(files, notes_a) == _targets(files, notes)
    _, notes_b2 = _round(files, {a: b}, notes_a)
    _, notes_a2 = _round(files_b, {b: a}, notes_b2)
    assert notes_a2 == notes_a  # one round trip writes the links in their canonical form: a second is a no-op


# --- 3. rename A→B→A through the tool layer ----------------------------------------------------------


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with world_in("obsigate-rename-", "rest") as w:
        yield w


def _relocate(world: World, src: str, dst: str) -> None:
    """Rename ``src`` to ``dst`` (same folder) or move it (another folder, same name) through the tool layer."""
    s_dir, s_name = src.rsplit("/", 1) if "/" in src else ("", src)
    d_dir, d_name = dst.rsplit("/", 1) if "/" in dst else ("", dst)
    if s_dir == d_dir:
        world.call("rename_file", {"vault": "notes", "path": src, "new_name": d_name})
    else:
        if d_dir:
            (world.vault / d_dir).mkdir(parents=True, exist_ok=True)
        world.call("move_path", {"vault": "notes", "source_path": src, "destination_dir": d_dir})
        if s_name != d_name:
            world.call("rename_file", {"vault": "notes", "path": f"{d_dir}/{s_name}" if d_dir else s_name,
                                       "new_name": d_name})  # fmt: skip


@settings(max_examples=15, deadline=None, derandomize=True, phases=PHASES, suppress_health_check=[HealthCheck.too_slow])
@given(state=vault_notes())
@example(state=("Alpha.md", "Beta.md", {"Folder/Sib.md": "[[Alpha]] \r\r\n![[Alpha]] "}, {"Alpha.md", "Folder/Sib.md"}))
def test_rename_there_and_back_leaves_every_note_byte_identical(
    world: World, state: tuple[str, str, dict[str, str], set[str]]
) -> None:
    a, b, notes, files = state
    world.clear()
    for path in files:
        (world.vault / path).parent.mkdir(parents=True, exist_ok=True)
        (world.vault / path).write_bytes(
            notes.get(path, f"# {path}\n").encode() if path.endswith(".md") else b"\x89PNG"
        )
    world.rt.workspace.indexer.refresh_all()
    before = world.snapshot()
    _relocate(world, a, b)
    moved = world.snapshot()
    assert b in moved and a not in moved
    _relocate(world, b, a)
    after = world.snapshot()
    assert after == before
