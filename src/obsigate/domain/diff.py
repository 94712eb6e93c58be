"""Line diffs whose cost stays near-linear on real notes, in the unified format of ``difflib.unified_diff``.

``difflib.unified_diff`` is quadratic when two long texts differ in many scattered places (60 000 lines with
every seventh line changed: over five minutes). Here the common head and tail are cut first, then the
middle is split on *anchors*, lines that occur exactly once on each side, kept in order by a longest
increasing subsequence (the "patience diff" idea), and only the small gaps between anchors go to
``difflib.SequenceMatcher``. A gap still too large for it (no unique line to split on, over
``MAX_GAP_CELLS`` line pairs), or any gap once ``MAX_TOTAL_CELLS`` pairs were compared in one diff, is shown
as a plain replacement: correct, just not minimal. So one diff costs about a second at most.

:func:`redacted_diff` is the form a caller is shown (backup diffs, write proposals): bytes decoded, every
secret redacted on both sides, sizes bounded, output cut to a character budget.
"""

from __future__ import annotations

import bisect
import difflib
import json
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath

from obsigate.domain.redaction import redact_text
from obsigate.domain.vault import is_note

__all__ = [
    "MAX_DIFF_CHARS",
    "MAX_DIFF_INPUT_BYTES",
    "MAX_GAP_CELLS",
    "MAX_TOTAL_CELLS",
    "line_opcodes",
    "redacted_diff",
    "unified_diff",
]

MAX_DIFF_CHARS = 200_000  # characters of redacted_diff output, then a truncation note
MAX_DIFF_INPUT_BYTES = 4_000_000  # larger sides are not compared line by line
MAX_GAP_CELLS = 1_000_000  # len(a) * len(b) of a gap compared with difflib (~0.1 s at worst)
MAX_TOTAL_CELLS = 10_000_000  # all gaps of one diff together (~1 s at worst)
_MAX_DEPTH = 40
_TEXT_SUFFIXES = {".md", ".txt", ".canvas", ".base", ".json", ".csv", ".yaml", ".yml"}

Opcode = tuple[str, int, int, int, int]


def _common_ends(a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int) -> tuple[int, int]:
    head = 0
    while alo + head < ahi and blo + head < bhi and a[alo + head] == b[blo + head]:
        head += 1
    tail = 0
    while ahi - tail > alo + head and bhi - tail > blo + head and a[ahi - 1 - tail] == b[bhi - 1 - tail]:
        tail += 1
    return head, tail


def _anchors(a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int) -> list[tuple[int, int]]:
    """Pairs (i, j) of lines unique on both sides, increasing in both i and j (longest such chain)."""
    count_a: dict[str, int] = {}
    for i in range(alo, ahi):
        count_a[a[i]] = count_a.get(a[i], 0) + 1
    where_b: dict[str, int] = {}
    count_b: dict[str, int] = {}
    for j in range(blo, bhi):
        line = b[j]
        if count_a.get(line) == 1:
            count_b[line] = count_b.get(line, 0) + 1
            where_b[line] = j
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi) if count_a[a[i]] == 1 and count_b.get(a[i]) == 1]
    if not pairs:
        return []
    # longest increasing subsequence on j (pairs are already sorted by i)
    tails: list[int] = []  # tails[k] = smallest j ending a chain of length k+1
    tail_idx: list[int] = []
    prev = [-1] * len(pairs)
    for idx, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_idx.append(idx)
        else:
            tails[k] = j
            tail_idx[k] = idx
        prev[idx] = tail_idx[k - 1] if k else -1
    chain = []
    idx = tail_idx[-1]
    while idx != -1:
        chain.append(pairs[idx])
        idx = prev[idx]
    chain.reverse()
    return chain


def _gap(
    a: Sequence[str],
    b: Sequence[str],
    alo: int,
    ahi: int,
    blo: int,
    bhi: int,
    depth: int,
    out: list[Opcode],
    budget: list[int],
) -> None:
    head, tail = _common_ends(a, b, alo, ahi, blo, bhi)
    if head:
        out.append(("equal", alo, alo + head, blo, blo + head))
    mid_a, mid_b = (alo + head, ahi - tail), (blo + head, bhi - tail)
    _middle(a, b, mid_a[0], mid_a[1], mid_b[0], mid_b[1], depth, out, budget)
    if tail:
        out.append(("equal", ahi - tail, ahi, bhi - tail, bhi))


def _middle(
    a: Sequence[str],
    b: Sequence[str],
    alo: int,
    ahi: int,
    blo: int,
    bhi: int,
    depth: int,
    out: list[Opcode],
    budget: list[int],
) -> None:
    if alo == ahi and blo == bhi:
        return
    if alo == ahi:
        out.append(("insert", alo, alo, blo, bhi))
        return
    if blo == bhi:
        out.append(("delete", alo, ahi, blo, blo))
        return
    anchors = _anchors(a, b, alo, ahi, blo, bhi) if depth < _MAX_DEPTH else []
    if anchors:
        i0, j0 = alo, blo
        for i, j in anchors:
            _gap(a, b, i0, i, j0, j, depth + 1, out, budget)
            out.append(("equal", i, i + 1, j, j + 1))
            i0, j0 = i + 1, j + 1
        _gap(a, b, i0, ahi, j0, bhi, depth + 1, out, budget)
        return
    cells = (ahi - alo) * (bhi - blo)
    if cells <= MAX_GAP_CELLS and cells <= budget[0]:
        budget[0] -= cells
        # autojunk as in difflib.unified_diff: lines repeated everywhere (blank lines) do not anchor a match
        matcher = difflib.SequenceMatcher(None, a[alo:ahi], b[blo:bhi])
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            out.append((tag, alo + i1, alo + i2, blo + j1, blo + j2))
        return
    out.append(("replace", alo, ahi, blo, bhi))


def line_opcodes(a: Sequence[str], b: Sequence[str], *, max_cells: int = MAX_TOTAL_CELLS) -> list[Opcode]:
    """Edit script from ``a`` to ``b`` as ``difflib.SequenceMatcher.get_opcodes`` gives it: ``(tag, i1, i2,
    j1, j2)`` with tag ``equal``/``replace``/``delete``/``insert``, covering both sequences in order, with
    adjacent opcodes of one tag merged. ``a == b`` → one ``equal`` (or nothing when both are empty).
    ``max_cells`` bounds the pairs compared by ``SequenceMatcher`` in all gaps together (see the module).
    Any sequences of strings work: lines, or the tokens of a line."""
    raw: list[Opcode] = []
    _gap(a, b, 0, len(a), 0, len(b), 0, raw, [max_cells])
    merged: list[Opcode] = []
    for op in raw:
        if op[1] == op[2] and op[3] == op[4]:
            continue
        if merged:
            tag, i1, i2, j1, j2 = merged[-1]
            both_changes = tag != "equal" and op[0] != "equal"
            if (tag == op[0] or both_changes) and i2 == op[1] and j2 == op[3]:
                new_tag = tag if tag == op[0] else "replace"
                merged[-1] = (new_tag, i1, op[2], j1, op[4])
                continue
        merged.append(op)
    return merged


def _grouped(ops: list[Opcode], n: int) -> Iterator[list[Opcode]]:
    """Hunks with ``n`` lines of context, as ``SequenceMatcher.get_grouped_opcodes`` makes them."""
    codes = list(ops) or [("equal", 0, 1, 0, 1)]
    if codes[0][0] == "equal":
        tag, i1, i2, j1, j2 = codes[0]
        codes[0] = tag, max(i1, i2 - n), i2, max(j1, j2 - n), j2
    if codes[-1][0] == "equal":
        tag, i1, i2, j1, j2 = codes[-1]
        codes[-1] = tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)
    nn = n + n
    group: list[Opcode] = []
    for tag, i1, i2, j1, j2 in codes:
        if tag == "equal" and i2 - i1 > nn:
            group.append((tag, i1, min(i2, i1 + n), j1, min(j2, j1 + n)))
            yield group
            group = []
            i1, j1 = max(i1, i2 - n), max(j1, j2 - n)
        group.append((tag, i1, i2, j1, j2))
    if group and not (len(group) == 1 and group[0][0] == "equal"):
        yield group


def _range(start: int, stop: int) -> str:
    beginning, length = start + 1, stop - start
    if length == 1:
        return f"{beginning}"
    if not length:
        beginning -= 1
    return f"{beginning},{length}"


def unified_diff(a: Sequence[str], b: Sequence[str], fromfile: str = "", tofile: str = "", n: int = 3) -> Iterator[str]:
    """Lines (without line breaks) of a unified diff from ``a`` to ``b`` (lists of lines without their
    breaks), as ``difflib.unified_diff(a, b, fromfile, tofile, n=n, lineterm="")`` would print them, but in
    near-linear time on typical inputs. Nothing is yielded when ``a == b``."""
    started = False
    for group in _grouped(line_opcodes(a, b), n):
        if not started:
            started = True
            yield f"--- {fromfile}"
            yield f"+++ {tofile}"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                for line in a[i1:i2]:
                    yield " " + line
                continue
            if tag in ("replace", "delete"):
                for line in a[i1:i2]:
                    yield "-" + line
            if tag in ("replace", "insert"):
                for line in b[j1:j2]:
                    yield "+" + line


def _as_text(data: bytes, path: str) -> str | None:
    """Text for diffing (lossy for a note or text file that is not valid UTF-8), ``None`` for a binary."""
    textual = is_note(path) or PurePosixPath(path).suffix.lower() in _TEXT_SUFFIXES
    if not textual and b"\x00" in data[:8192]:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("utf-8", errors="replace") if textual else None


def _size(data: bytes | None) -> str:
    return "absent" if data is None else f"{len(data)} bytes"


def redacted_diff(
    old: bytes | None,
    new: bytes | None,
    *,
    path: str,
    old_label: str,
    new_label: str,
    max_chars: int = MAX_DIFF_CHARS,
    context: int = 3,
) -> tuple[str, bool]:
    """Unified diff (:func:`unified_diff`: difflib's format, near-linear time; ``context`` lines) from ``old``
    to ``new`` with every secret redacted on both sides first (``domain.redaction.redact_text``), so no secret
    leaves through a diff.

    ``None`` stands for an absent file (every line added or removed). Text is decoded as UTF-8, lossily for
    notes and text files; a binary side gives a one-line note instead of a diff, as does a side larger than
    ``MAX_DIFF_INPUT_BYTES``. Identical content gives ``""``; content that differs only in line endings, a
    byte-order mark or the final line break gives a one-line note.

    Returns:
        ``(diff, truncated)``: the diff is cut to whole lines totalling at most ``max_chars`` characters
        once JSON-encoded (so it fits a tool result budget; plain text is never longer), followed by a note
        saying it was cut, and ``truncated`` is then true.
    """
    if old == new:
        return "", False
    if any(d is not None and len(d) > MAX_DIFF_INPUT_BYTES for d in (old, new)):
        note = (
            f"{path}: too large to compare line by line ({old_label}: {_size(old)}, {new_label}: {_size(new)}; "
            f"the limit is {MAX_DIFF_INPUT_BYTES} bytes)"
        )
        return note, False
    old_text = "" if old is None else _as_text(old, path)
    new_text = "" if new is None else _as_text(new, path)
    if old_text is None or new_text is None:
        return f"Binary file {path} differs ({old_label}: {_size(old)}, {new_label}: {_size(new)})", False
    a = redact_text(old_text, keep_lines=True).splitlines()
    b = redact_text(new_text, keep_lines=True).splitlines()
    lines = unified_diff(a, b, fromfile=old_label, tofile=new_label, n=context)
    out: list[str] = []
    used = 0
    truncated = False
    for line in lines:
        cost = _json_cost(line)
        if used + cost > max_chars:
            truncated = True
            break
        out.append(line)
        used += cost
    if not out:
        return (
            f"{path}: {old_label} and {new_label} differ only in line endings, byte-order mark or final line break",
            False,
        )
    text = "\n".join(out) + "\n"
    if truncated:
        return (
            text + f"… diff truncated at {max_chars} characters; compare narrower versions or read the backup\n",
            True,
        )
    return text, False


def _json_cost(line: str) -> int:
    """Characters ``line`` and its line break take inside a JSON string (``ensure_ascii=False``)."""
    if line.isprintable():  # no control characters: only quotes and backslashes are escaped
        return len(line) + 2 + line.count('"') + line.count("\\")
    return len(json.dumps(line, ensure_ascii=False))
