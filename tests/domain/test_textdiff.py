"""textdiff: a correct edit script on any input, difflib's format, and bounded time where difflib is quadratic."""

from __future__ import annotations

import difflib
import random
import time

from obsigate.domain.diff import line_opcodes, unified_diff


def _apply(a: list[str], b: list[str], ops: list[tuple[str, int, int, int, int]]) -> list[str]:
    out: list[str] = []
    i = j = 0
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (i, j), "opcodes must cover both sides in order"
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
            out += a[i1:i2]
        else:
            assert tag in ("replace", "delete", "insert")
            out += b[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    return out


def test_random_edits_always_rebuild_the_target() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        alphabet = rng.choice(["ab", "abc", "abcdefghij", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"])
        a = [rng.choice(alphabet) for _ in range(rng.randint(0, 40))]
        b = a[:]
        for _ in range(rng.randint(0, 8)):
            roll = rng.random()
            if roll < 0.3 and b:
                del b[rng.randrange(len(b))]
            elif roll < 0.6:
                b.insert(rng.randint(0, len(b)), rng.choice(alphabet))
            elif b:
                b[rng.randrange(len(b))] = rng.choice(alphabet)
        assert _apply(a, b, line_opcodes(a, b)) == b
        assert (list(unified_diff(a, b)) == []) == (a == b)


def test_same_output_as_difflib_on_ordinary_edits() -> None:
    a = [f"line {i}" for i in range(40)]
    b = [*a[:5], "inserted", *a[5:20], *a[21:33], "changed 33", *a[34:]]
    ours = list(unified_diff(a, b, "old", "new"))
    assert ours == list(difflib.unified_diff(a, b, "old", "new", lineterm=""))
    assert ours[:3] == ["--- old", "+++ new", "@@ -3,6 +3,7 @@"]
    assert list(unified_diff([], ["x"], "a", "b")) == ["--- a", "+++ b", "@@ -0,0 +1 @@", "+x"]
    assert list(unified_diff(["x"], [], "a", "b")) == ["--- a", "+++ b", "@@ -1 +0,0 @@", "-x"]
    assert list(unified_diff(a, a)) == []


def test_scattered_changes_in_a_long_note_stay_fast() -> None:
    """difflib needs over five minutes here (60 000 lines, every seventh changed)."""
    a = [f"line {i}" for i in range(60_000)]
    b = [line if i % 7 else f"changed {i}" for i, line in enumerate(a)]
    started = time.perf_counter()
    ops = line_opcodes(a, b)
    assert time.perf_counter() - started < 10
    assert _apply(a, b, ops) == b
    assert sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag != "equal") == len(range(0, 60_000, 7))


def test_no_unique_lines_to_anchor_on_is_still_bounded() -> None:
    rng = random.Random(9)
    a = [rng.choice(["", "- [ ] task", "---", "text"]) for _ in range(30_000)]
    b = [x if rng.random() > 0.1 else "text" for x in a]
    started = time.perf_counter()
    ops = line_opcodes(a, b)
    assert time.perf_counter() - started < 10
    assert _apply(a, b, ops) == b


def test_a_smaller_cell_budget_still_gives_a_correct_script() -> None:
    """``max_cells`` (restore_secrets' bound for each stretch) only makes the script less minimal."""
    rng = random.Random(5)
    a = [rng.choice("abc") for _ in range(300)]
    b = [x if rng.random() > 0.2 else "d" for x in a]
    for cells in (0, 100, 10_000_000):
        assert _apply(a, b, line_opcodes(a, b, max_cells=cells)) == b
