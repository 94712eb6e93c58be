"""Property: a proposal's diff is the change it makes (issue 20, robustness suite).

The unified diff ``domain/diff.py`` writes (near-linear, patience anchors, difflib for small gaps, a plain
replacement past its budget) is applied with a strict patch routine written here (every context and removed
line must match, every hunk header must count its lines): applied to the old lines it must give the new
lines, for any pair of texts, any context width, and through the real propose→apply flow of ``edit_file``
(whole content, find/replace) and ``append_to_file``, where the file written is then compared too.

Lines are what the diff sees (``str.splitlines``): line endings, a byte-order mark and the final line break
are not part of a unified diff, and ``redacted_diff`` says so in a one-line note when they are all that changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st
from robust.world import World, world_in

from obsigate.domain.diff import line_opcodes, redacted_diff, unified_diff
from obsigate.domain.redaction import redact_text
from obsigate.tools.api import ServiceError

PHASES = [Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink]  # no explain phase: slow on 2 cores
_HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class PatchError(AssertionError):
    """The diff does not apply to the text it claims to start from."""


def apply_patch(old: list[str], diff_lines: list[str]) -> list[str]:
    """``old`` with the unified diff ``diff_lines`` (lines without breaks) applied, strictly: hunks in order,
    every context (`` ``) and removed (``-``) line equal to the old line at its place, the counts of each
    ``@@ -s,l +s,l @@`` header equal to the hunk's lines, and the new start consistent with what came before.

    Raises:
        PatchError: anything that does not match.
    """
    lines = list(diff_lines)
    if not lines:
        return list(old)
    if not (lines[0].startswith("--- ") and lines[1].startswith("+++ ")):
        raise PatchError(f"no file header: {lines[:2]!r}")
    out: list[str] = []
    pos = 0  # next old line not yet copied
    i = 2
    while i < len(lines):
        m = _HUNK.fullmatch(lines[i])
        if m is None:
            raise PatchError(f"expected a hunk header, got {lines[i]!r}")
        a_start, a_len = int(m[1]), 1 if m[2] is None else int(m[2])
        b_start, b_len = int(m[3]), 1 if m[4] is None else int(m[4])
        a0 = a_start - 1 if a_len else a_start  # an empty side names the line before it
        b0 = b_start - 1 if b_len else b_start
        if a0 < pos:
            raise PatchError(f"hunk {lines[i]!r} overlaps the previous one")
        out.extend(old[pos:a0])
        if len(out) != b0:
            raise PatchError(f"hunk {lines[i]!r}: the new side starts at {b0}, the patched text is at {len(out)}")
        pos = a0
        seen_a = seen_b = 0
        i += 1
        while i < len(lines) and not lines[i].startswith("@@"):
            tag, body = lines[i][:1], lines[i][1:]
            if tag in (" ", "-"):
                if pos >= len(old) or old[pos] != body:
                    raise PatchError(f"line {pos + 1}: diff says {body!r}, text has {old[pos : pos + 1]!r}")
                pos += 1
                seen_a += 1
                if tag == " ":
                    out.append(body)
                    seen_b += 1
            elif tag == "+":
                out.append(body)
                seen_b += 1
            else:
                raise PatchError(f"unknown diff line {lines[i]!r}")
            i += 1
        if (seen_a, seen_b) != (a_len, b_len):
            raise PatchError(f"hunk header says {(a_len, b_len)}, the hunk has {(seen_a, seen_b)}")
    out.extend(old[pos:])
    return out


# --- generated texts -------------------------------------------------------------------------------

#: Few distinct lines, so that texts repeat lines (no unique anchors) as well as share unique ones.
LINE = st.one_of(
    st.sampled_from(["", "a", "b", "c", "# Title", "- [ ] task", "- [x] done", "```", "> quote", "  indented"]),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8),
)
line_lists = st.lists(LINE, max_size=30)


@st.composite
def edited(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """An old list of lines and a new one: independent, or the old one with a few edits (the usual case)."""
    old = draw(line_lists)
    if draw(st.booleans()):
        return old, draw(line_lists)
    new = list(old)
    for _ in range(draw(st.integers(0, 5))):
        at = draw(st.integers(0, len(new)))
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        if kind == "insert" or not new:
            new[at:at] = draw(st.lists(LINE, min_size=1, max_size=3))
        elif kind == "delete":
            del new[min(at, len(new) - 1)]
        else:
            new[min(at, len(new) - 1)] = draw(LINE)
    return old, new


def _lines(texts: list[str]) -> list[str]:
    """The diff's view of a list of line texts: joined and split again (a text line may hold ``\\r``...)."""
    return "\n".join(texts).splitlines()


@settings(max_examples=200, deadline=None, derandomize=True, phases=PHASES)
@given(pair=edited(), context=st.integers(0, 4))
@example(pair=(["a", "b", "a", "b"], ["b", "a", "b", "a"]), context=0)
@example(pair=(["x"] * 5, ["x"] * 3 + ["y"]), context=3)
@example(pair=([], ["a"]), context=3)
@example(pair=(["a"], []), context=0)
def test_the_unified_diff_applied_to_the_old_lines_gives_the_new(
    pair: tuple[list[str], list[str]], context: int
) -> None:
    old, new = (_lines(t) for t in pair)
    diff = list(unified_diff(old, new, "a/n.md", "b/n.md", n=context))
    assert apply_patch(old, diff) == new
    assert (diff == []) == (old == new)
    ops = line_opcodes(old, new)  # the edit script covers both sides, in order, without gaps
    ends = [(0, 0)] + [(o[2], o[4]) for o in ops]
    assert [(o[1], o[3]) for o in ops] == ends[:-1] and ends[-1] == (len(old), len(new))
    assert all(old[o[1] : o[2]] == new[o[3] : o[4]] for o in ops if o[0] == "equal")


@settings(max_examples=80, deadline=None, derandomize=True, phases=PHASES)
@given(pair=edited(), crlf=st.booleans(), bom=st.booleans(), final=st.booleans())
def test_the_redacted_diff_is_the_change_between_the_redacted_texts(
    pair: tuple[list[str], list[str]], crlf: bool, bom: bool, final: bool
) -> None:
    eol = "\r\n" if crlf else "\n"
    old_text, new_text = (("\ufeff" if bom else "") + eol.join(t) + (eol if final and t else "") for t in pair)
    diff, truncated = redacted_diff(old_text.encode(), new_text.encode(), path="n.md", old_label="a", new_label="b")
    assert not truncated
    old = redact_text(old_text.removeprefix("\ufeff"), keep_lines=True).splitlines()
    new = redact_text(new_text.removeprefix("\ufeff"), keep_lines=True).splitlines()
    patch = diff.split("\n")[:-1] if diff.startswith("--- ") else []  # else "" or the one-line note
    assert apply_patch(old, patch) == new


# --- through the real propose → apply flow ----------------------------------------------------------


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with world_in("obsigate-diff-", "mcp") as w:
        yield w


#: Note lines: no secrets (redaction is another test's subject), no NUL (a note is text).
NOTE_LINE = st.one_of(
    st.sampled_from(["", "a", "b", "# Title", "## Part", "- [ ] task", "text [[Link]] here", "```", "x = 1"]),
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=10),
)
note_lines = st.lists(NOTE_LINE, max_size=20)


@settings(max_examples=50, deadline=None, derandomize=True, phases=PHASES, suppress_health_check=[HealthCheck.too_slow])
@given(
    old=note_lines,
    new=note_lines,
    crlf=st.booleans(),
    how=st.sampled_from(["content", "find_replace", "append"]),
    n=st.integers(0, 10**6),
)
@example(old=["a", "b"], new=["a", "c"], crlf=True, how="content", n=0)
@example(old=["a"], new=["", "b"], crlf=False, how="append", n=0)
def test_propose_then_apply_writes_what_the_diff_shows(
    world: World, old: list[str], new: list[str], crlf: bool, how: str, n: int
) -> None:
    eol = "\r\n" if crlf else "\n"
    old_text = eol.join(old) + eol
    path = f"p{n}.md"
    (world.vault / path).write_bytes(old_text.encode())
    args: dict[str, Any] = {"vault": "notes", "path": path}
    if how == "content":
        args["content"] = "\n".join(new) + "\n"
    elif how == "append":
        args["content"] = "\n".join(new)
    else:
        lines = old_text.split(eol)
        find = next((line for line in lines if line and old_text.count(line) == 1), None)
        if find is None:
            event("find_replace: no line occurs once")
            return  # no line occurs once to replace: nothing to propose
        args |= {"find": find, "replace": "\n".join(new)}
    tool = "append_to_file" if how == "append" else "edit_file"
    try:
        proposal = world.call(f"propose_{tool}", args)
    except ServiceError as exc:
        assert exc.code in ("invalid_argument", "count_mismatch"), exc  # e.g. an edit that changes nothing
        event(f"{how}: {exc.code}")
        return
    event(f"{how}: proposed")
    assert len(proposal["diffs"]) <= 1 and all(c["path"] == path for c in proposal["diffs"])
    diff = "".join(c["diff"] or "" for c in proposal["diffs"])  # none: the change writes nothing new
    patch = diff.split("\n")[:-1] if diff.startswith("--- ") else []
    expected_lines = apply_patch(old_text.splitlines(), patch)
    world.call(f"apply_{tool}", {"confirmation_token": proposal["confirmation_token"]})
    written = (world.vault / path).read_bytes().decode("utf-8")
    assert written.splitlines() == expected_lines
    (world.vault / path).unlink()
