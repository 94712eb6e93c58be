"""search_paths: fuzzy path/title matching and its ranking."""

from __future__ import annotations

import pytest

from obsigate.services.paths_search import path_score


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
