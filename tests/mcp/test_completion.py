"""The pure ranking behind completion/complete paths (the HTTP behaviour is in test_prompts.py)."""

from __future__ import annotations

import pytest

from obsigate.tools.kinds.completion import rank_paths

PATHS = ["Projects/Plan.md", "Plans/Old.md", "Home.md", "Archive/Projects/Plan B.md", "Projects/Secret.md", "Plan.md"]


@pytest.mark.parametrize(
    ("typed", "ranked"),
    [
        (
            "",
            [
                "Home.md",
                "Plan.md",
                "Plans/Old.md",
                "Projects/Plan.md",
                "Projects/Secret.md",
                "Archive/Projects/Plan B.md",
            ],
        ),
        # starts with the value (shallow first) → last part starts with it → forgiving matches
        ("plan", ["Plan.md", "Plans/Old.md", "Projects/Plan.md", "Archive/Projects/Plan B.md"]),
        ("PROJECTS/", ["Projects/Plan.md", "Projects/Secret.md", "Archive/Projects/Plan B.md"]),
        ("/Home", ["Home.md"]),  # a leading slash is ignored
        ("p", ["Plan.md", "Plans/Old.md", "Projects/Plan.md", "Projects/Secret.md", "Archive/Projects/Plan B.md"]),
        ("prj scr", ["Projects/Secret.md"]),  # every word's letters, in order
        ("zebra", []),
    ],
)
def test_rank_paths(typed: str, ranked: list[str]) -> None:
    assert rank_paths(PATHS, typed) == ranked
