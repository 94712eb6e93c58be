"""Put secrets back under the ``[REDACTED:<rule>]`` markers of an edited text, never where they would show.

A client edits the redacted text it was shown (the web editor's source, an agent's ``read_file_raw``);
writing that text back as is would replace every secret of the note by its marker, so
:func:`restore_secrets` puts each secret back. Two rules keep that safe:

* **Identity, not position.** A marker gets the secret that stood at its place in the redacted original,
  found by aligning the two texts: lines first (:func:`~obsigate.domain.diff.line_opcodes`, near-linear),
  then a line moved whole, then the tokens of the changed stretches (the same diff, bounded). Both ways
  (forward and backward), so where identical lines let the diff choose, the choice is seen. A marker that
  aligns with no marker of the original (typed anew, copied, moved into changed text), or with different
  secrets either way, is refused, never guessed.
* **A secret goes back only where it stays hidden.** In the written text each restored secret must still
  be covered by a secret span of its rule (:func:`~obsigate.domain.redaction.secret_spans`), and no
  restored secret may show in what a later read returns: the whole text redacted
  (:func:`~obsigate.domain.redaction.redact_text`: raw reads, diffs, history) and every field of
  :func:`~obsigate.domain.redaction.redact_note` (frontmatter, links, tags, headings, the indexed body that
  search snippets come from). A marker glued to text (``Zz[REDACTED:…]``) breaks the word boundary its
  rule needs, so such a write is refused whole: :class:`SecretMarkerError`.
"""

from __future__ import annotations

import bisect
import dataclasses
import re
from collections.abc import Iterator
from typing import Any

from obsigate.domain.diff import line_opcodes
from obsigate.domain.markdown.note import ParsedNote, parse_note
from obsigate.domain.redaction import redact_note, redact_text, secret_spans

__all__ = ["MARKER", "MAX_TOKEN_CELLS", "SecretMarkerError", "restore_secrets"]

MARKER = re.compile(r"\[REDACTED:([a-z0-9-]+)\]")
# a marker is one token, so markers pair with markers; words, blank runs and single signs are the others
_TOKEN = re.compile(r"\[REDACTED:[a-z0-9-]+\]|\w+|\s+|[^\w\s]")
MAX_TOKEN_CELLS = 2_000_000  # token pairs SequenceMatcher may compare in one changed stretch (~0.2 s)
_MAX_TOTAL_CELLS = 5_000_000  # ... and in all the stretches of one write: about half a second at worst


class SecretMarkerError(ValueError):
    """A marker whose secret cannot go back: it aligns with no marker of the original, or the secret would be
    readable where it lands. ``code`` is the stable error code, ``rule`` the marker's rule, ``line`` its
    1-based line in the edited text."""

    code = "secret_marker_altered"

    def __init__(self, message: str, *, rule: str, line: int) -> None:
        super().__init__(message)
        self.rule = rule
        self.line = line


def _redacted(original: str) -> tuple[str, dict[int, tuple[str, str]]]:
    """``redact_text(original)`` and ``{offset of each marker in it: (rule, the secret it hides)}``."""
    out: list[str] = []
    secret_at: dict[int, tuple[str, str]] = {}
    pos = size = 0
    for start, end, rule in secret_spans(original):
        out.append(original[pos:start])
        size += start - pos
        secret_at[size] = (rule, original[start:end])
        marker = f"[REDACTED:{rule}]"
        out.append(marker)
        size += len(marker)
        pos = end
    out.append(original[pos:])
    return "".join(out), secret_at


class _Lines:
    """A text cut in lines: comparison keys (a trailing CR dropped, so a CRLF copy aligns with its LF
    original), where each line starts, and where its markers start."""

    def __init__(self, text: str) -> None:
        raw = text.split("\n")
        self.keys = [ln[:-1] if ln.endswith("\r") else ln for ln in raw]
        self.starts = [0]
        for ln in raw:
            self.starts.append(self.starts[-1] + len(ln) + 1)  # one past the end: a sentinel
        self.marks = [m.start() for m in MARKER.finditer(text)]
        self.text = text

    def marks_in(self, lo: int, hi: int) -> list[int]:
        """Marker offsets on lines ``lo`` to ``hi`` (exclusive)."""
        a, z = self.starts[lo], self.starts[hi]
        return self.marks[bisect.bisect_left(self.marks, a) : bisect.bisect_left(self.marks, z)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset) - 1


def _opcodes(a: list[str], b: list[str], backward: bool, max_cells: int) -> list[tuple[str, int, int, int, int]]:
    """:func:`line_opcodes` of ``a`` and ``b``, or of both reversed (``backward``: a run of equal items is then
    matched from its end) with the indices put back in forward terms."""
    if not backward:
        return line_opcodes(a, b, max_cells=max_cells)
    n, m = len(a), len(b)
    return [
        (t, n - i2, n - i1, m - j2, m - j1) for t, i1, i2, j1, j2 in line_opcodes(a[::-1], b[::-1], max_cells=max_cells)
    ]


def _align(red: str, edited: str, *, backward: bool = False) -> dict[int, int]:
    """``{offset of a marker in edited: offset of the marker of red it stands for}`` for every marker of
    ``edited`` that aligns with one of ``red``; each marker of ``red`` is claimed at most once. ``backward``
    aligns the reversed sequences: where identical lines let a diff choose, it chooses the other way."""
    a, b = _Lines(red), _Lines(edited)
    ops = _opcodes(a.keys, b.keys, backward, _MAX_TOTAL_CELLS)
    found: dict[int, int] = {}
    claimed: set[int] = set()

    def pair(b_line: int, a_line: int) -> None:  # two equal lines: their markers pair in order
        shift = a.starts[a_line] - b.starts[b_line]
        for at in b.marks_in(b_line, b_line + 1):
            found[at] = at + shift
            claimed.add(at + shift)

    changed: list[tuple[int, int, int, int]] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag == "equal":
            for at in b.marks_in(j1, j2):
                if at not in found:
                    line = b.line_of(at)
                    pair(line, i1 + line - j1)
        elif b.marks_in(j1, j2):
            changed.append((i1, i2, j1, j2))
    if not changed:
        return found
    # a line moved whole (a list item dragged elsewhere): its key occurs once among the removed lines and once
    # among the added ones, so the pairing is not a guess
    removed: dict[str, list[int]] = {}
    for tag, i1, i2, _, _ in ops:
        if tag != "equal":
            for i in range(i1, i2):
                removed.setdefault(a.keys[i], []).append(i)
    added: dict[str, list[int]] = {}
    for _, _, j1, j2 in changed:
        for j in range(j1, j2):
            added.setdefault(b.keys[j], []).append(j)
    for key, js in added.items():
        if len(js) == 1 and len(removed.get(key, ())) == 1 and b.marks_in(js[0], js[0] + 1):
            pair(js[0], removed[key][0])
    # what is left: the tokens of each changed stretch against the original's (a marker kept in an edited line)
    budget = _MAX_TOTAL_CELLS
    for i1, i2, j1, j2 in changed:
        if budget <= 0:
            break  # the markers left stay unaligned, and the write is refused
        if all(at in found for at in b.marks_in(j1, j2)):
            continue
        ta = [(m.group(), m.start()) for m in _TOKEN.finditer(red, a.starts[i1], max(a.starts[i1], a.starts[i2] - 1))]
        tb = [
            (m.group(), m.start()) for m in _TOKEN.finditer(edited, b.starts[j1], max(b.starts[j1], b.starts[j2] - 1))
        ]
        cap = min(budget, MAX_TOKEN_CELLS)
        budget -= min(len(ta) * len(tb), cap)
        for tag, x1, x2, y1, _ in _opcodes([t for t, _ in ta], [t for t, _ in tb], backward, cap):
            if tag != "equal":
                continue
            for k in range(x2 - x1):
                (token, a_at), b_at = ta[x1 + k], tb[y1 + k][1]
                if token.startswith("[REDACTED:") and b_at not in found and a_at not in claimed:
                    found[b_at] = a_at
                    claimed.add(a_at)
    return found


def _strings(value: Any) -> Iterator[str]:
    """Every string inside a parsed note's fields (dict keys included)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from _strings(getattr(value, f.name))


def _fields(parsed: ParsedNote) -> str:
    """The redacted fields of a parsed note except its body, as one string: frontmatter (keys too), its
    error, tags, aliases, links, headings. They are small, so a substring search in them is cheap."""
    return "\x00".join(_strings(redact_note(dataclasses.replace(parsed, body=""))))


def restore_secrets(original: str, edited: str) -> str:
    """``edited`` with each ``[REDACTED:<rule>]`` marker put back to the secret it stands for in ``original``.

    Args:
        original: the file's text as stored (secrets in clear).
        edited: the new whole text, written over the redacted form of ``original`` (``redact_text``); an
            edit of a part (a heading's section) is given in its whole note, so every check sees the secrets
            in their final context.

    A marker aligned with a marker of the redacted original (see the module) gets that marker's secret; one
    that stood for no secret there (the note's own literal ``[REDACTED:…]`` text), or of a rule with no
    secret in ``original``, stays as written: it can reveal nothing.

    Returns:
        The text to write. Without markers in ``edited``, ``edited`` itself, at once.

    Raises:
        SecretMarkerError: a marker of a rule ``original`` holds secrets of aligns with none of them (new,
            copied, moved into changed text) or with different ones depending on how identical lines are
            paired, or a restored secret would not be redacted where it lands (glued to text, its
            ``password =`` name changed, joined to other text by YAML...). Nothing is returned: the caller
            writes nothing.
    """
    if "[REDACTED:" not in edited:
        return edited
    red, secret_at = _redacted(original)
    rules = {rule for rule, _ in secret_at.values()}
    if not any(m.group(1) in rules for m in MARKER.finditer(edited)):
        return edited  # only literal markers: nothing to put back
    # aligned both ways: where identical redacted lines let the alignment choose (two `key: [REDACTED:…]`
    # lines, one deleted), the two passes disagree, and the marker is refused rather than given either secret
    forward, backward = _align(red, edited), _align(red, edited, backward=True)
    out: list[str] = []
    placed: list[tuple[int, int, str, str, int]] = []  # (start, end in the result, rule, secret, marker line)
    pos = size = 0
    line, counted = 1, 0  # the marker's line, counted as the loop goes (not from the start for each marker)
    for m in MARKER.finditer(edited):
        line += edited.count("\n", counted, m.start())
        counted = m.start()
        rule, at, other = m.group(1), forward.get(m.start()), backward.get(m.start())
        if rule not in rules:
            continue  # a marker of a rule with no secret here: literal text, it can reveal nothing
        if at is None or other is None:
            raise SecretMarkerError(
                f"the [REDACTED:{rule}] marker on line {line} is not where a secret was: it was typed, copied "
                "or moved into changed text, so which secret it stands for cannot be told; nothing was written",
                rule=rule,
                line=line,
            )
        hit = secret_at.get(at)
        if hit != secret_at.get(other):
            raise SecretMarkerError(
                f"the [REDACTED:{rule}] marker on line {line} could stand for more than one secret (lines that "
                "read the same in the redacted note, with different secrets); nothing was written",
                rule=rule,
                line=line,
            )
        if hit is None:
            continue  # the original's own literal marker text: left as written
        out.append(edited[pos : m.start()])
        size += m.start() - pos
        placed.append((size, size + len(hit[1]), rule, hit[1], line))
        out.append(hit[1])
        size += len(hit[1])
        pos = m.end()
    out.append(edited[pos:])
    restored = "".join(out)
    if placed:
        _check_hidden(restored, edited, placed)
    return restored


def _check_hidden(restored: str, edited: str, placed: list[tuple[int, int, str, str, int]]) -> None:
    """Refuse (:class:`SecretMarkerError`) when a restored secret would show on a later read: the whole
    text redacted (raw reads, diffs, history), the redacted body (read_file, the index behind search
    snippets) and the note's redacted fields (frontmatter keys and values, links, tags, headings)."""

    def refuse(rule: str, line: int) -> SecretMarkerError:
        return SecretMarkerError(
            f"the [REDACTED:{rule}] marker on line {line} was changed or joined to other text, so its secret "
            "would no longer be redacted where it lands; nothing was written",
            rule=rule,
            line=line,
        )

    def check_covered(text: str, shift: int) -> None:  # each secret inside one span of its own rule
        spans = secret_spans(text)
        starts = [s for s, _, _ in spans]
        for start, end, rule, _, line in placed:
            if end <= shift:
                continue  # before this text (in the frontmatter): judged by the fields below
            k = bisect.bisect_right(starts, start - shift) - 1
            if start < shift or k < 0 or spans[k][1] < end - shift or spans[k][2] != rule:
                raise refuse(rule, line)

    check_covered(restored, 0)
    parsed = parse_note(restored)
    if parsed.body is not restored:  # a frontmatter block: the body alone is redacted for read_file and the index
        if restored.endswith(parsed.body):
            check_covered(parsed.body, len(restored) - len(parsed.body))
        else:  # CRLF or BOM normalised away: look for the secrets themselves
            body = redact_text(parsed.body)
            for _, _, rule, secret, line in placed:
                if secret in body:
                    raise refuse(rule, line)
    # fields are judged by what they show (YAML may join lines, a key is not redacted...), counted against the
    # edited text so a copy the writer typed in clear is not taken for a leak
    after = _fields(parsed)
    if not any(secret in after for _, _, _, secret, _ in placed):
        return
    before = _fields(parse_note(edited))
    for _, _, rule, secret, line in placed:
        if after.count(secret) > before.count(secret):
            raise refuse(rule, line)


def redacted_view(original: str) -> tuple[str, list[tuple[int, int]]]:
    """What a reader sees of ``original``, for edits that search it (``find``/``replace``, a regex replace):
    ``(the text with each secret replaced by its marker, the markers' (start, end) spans in it)``.

    Matching on this view, never on the secrets, is what keeps a pattern from probing one (a regex lookahead
    ``password=(?=c)`` counts the same whatever the password is); the edited view goes back through
    :func:`restore_secrets`, which refuses an edit that would leave any part of a secret readable.
    """
    red, secret_at = _redacted(original)
    return red, [(at, at + len(f"[REDACTED:{rule}]")) for at, (rule, _) in sorted(secret_at.items())]
