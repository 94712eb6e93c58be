"""search_paths: fuzzy path/title matching and its ranking."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from obsigate.services.paths_search import _Candidate, _joined, _Table, folded_score, path_score


@pytest.mark.parametrize(
    ("path", "words", "matches"),
    [
        ("Projects/Plan.md", ["plan"], True),
        ("Projects/Plan.md", ["proj", "plan"], True),
        ("Projects/Plan.md", ["prjpln"], True),  # letters in order, with gaps
        ("Projects/Plan.md", ["nalp"], False),  # out of order
        ("Projects/Plan.md", ["plan", "zebra"], False),  # every word must match
    ],
)
def test_path_score_matches(path: str, words: list[str], matches: bool) -> None:
    assert (path_score(path, words) is not None) is matches


def test_title_matches_rank_above_folder_and_scattered_matches() -> None:
    title = path_score("Notes/Budget.md", ["budget"])
    folder = path_score("Budget/Notes.md", ["budget"])
    scattered = path_score("Bundle/Gadget.md", ["budget"])
    assert title > folder > scattered


def _table_of(paths: list[str], aliases: dict[int, list[str]]) -> _Table:
    from obsigate.domain.text import fold

    cands = [
        _Candidate(
            p,
            fold(p),
            fold(p).rsplit("/", 1)[-1].removesuffix(".md"),
            tuple(aliases.get(i, ())),
            tuple(fold(a) for a in aliases.get(i, ())),
        )
        for i, p in enumerate(paths)
    ]
    owner = [i for i, c in enumerate(cands) for _ in c.folded_aliases]
    text, starts = _joined([c.full for c in cands])
    atext, astarts = _joined([a for c in cands for a in c.folded_aliases])
    return _Table(cands, text, starts, atext, astarts, owner)


@given(
    paths=st.lists(st.text(alphabet="abcé/ .-", min_size=1, max_size=12), min_size=1, max_size=30),
    word=st.text(alphabet="abce/ .-", min_size=1, max_size=4).filter(lambda w: w.strip() == w and " " not in w),
    alias_at=st.integers(min_value=0, max_value=29),
)
def test_the_joined_table_finds_exactly_what_scoring_accepts(paths: list[str], word: str, alias_at: int) -> None:
    """The one-regex prefilter over the joined paths keeps exactly the paths :func:`folded_score` would score,
    plus the notes with an alias holding the word (issue 19: the switcher's per-keystroke cost at 10k notes)."""
    aliases = {alias_at % len(paths): ["xx" + word + "yy"]}
    table = _table_of(paths, aliases)
    brute = {i for i, c in enumerate(table.cands) if folded_score(c.full, c.name, len(c.path), [word]) is not None}
    brute |= {i for i, c in enumerate(table.cands) if any(word in a for a in c.folded_aliases)}
    assert table.lines(word) == brute
