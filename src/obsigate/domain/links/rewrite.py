"""Link rewriting for rename and move: every link keeps resolving to the same file, as Obsidian does it.

Rules: ``shared/reference/obsidian.md`` §10 (what a rename rewrites and how), §7 (resolution and link
generation), §4–§6 (link syntax), §3 (frontmatter links), §12.4–§12.5 (edit only the link text, by span).

The algorithm is generic, which is what guarantees that nothing breaks: resolve every link of every
candidate note against the vault before the move (``R0``) and after it (``R1``). A link that resolved to
file ``f`` must resolve to ``moves.get(f, f)`` afterwards; if it already does (a bare ``[[Name]]`` of a
note moved to another folder) it is left alone, otherwise it is rewritten so that it does: a wikilink with
the shortest form (§7 "Link generation"), a markdown link with the vault path, a relative link relative.
Unresolved links are never touched (§10). The same rule covers the less obvious cases: a rename that makes
a bare name ambiguous (the link gets its path, §13 case 18), a rename onto a name other links already use
for another file (those links get the other file's path), and the relative links inside a moved note.

Only what the parser itself reports as a link is a candidate, located with the parser's own scan
(:func:`obsigate.domain.markdown.inline.recording_inline_runs`), so links in code are never seen and links in
``%% comments %%`` are (§4). Every rewrite replaces only the link path (and a display text equal to the
old file name) inside the link's span; the rest of the file, CRLF line endings and a BOM included, is kept
byte for byte. Each rewritten link is checked by parsing it again, and each rewritten note by parsing the
whole new text and resolving every link: a note that would lose a link raises :class:`LinkRewriteError`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

from obsigate.domain.links.resolve import LinkResolver, lookup_names
from obsigate.domain.markdown.frontmatter import iter_string_values, split_frontmatter
from obsigate.domain.markdown.inline import InlineRun, link_spans, recording_inline_runs
from obsigate.domain.markdown.link_syntax import FRONTMATTER, Link, wikilink
from obsigate.domain.markdown.note import ParsedNote, parse_note

__all__ = ["LinkEdit", "LinkRewriteError", "NoteUpdate", "affected_names", "plan_link_updates"]

_BOM = "\ufeff"


@dataclass(frozen=True)
class LinkEdit:
    """One rewritten link: its 1-based file ``line`` and its markup before and after.

    ``old``/``new`` are the link's whole markup (``"![[Old#^b1|alias]]"``, ``"[t](<a b.md> \\"x\\")"``,
    ``"[[Old]]"`` for a frontmatter link); a markdown link that spans lines keeps its ``\\n``.
    """

    line: int
    old: str
    new: str


@dataclass(frozen=True)
class NoteUpdate:
    """The new full ``text`` of a note whose links change, under its ``path`` after the move, with every edit."""

    path: str
    text: str
    edits: tuple[LinkEdit, ...]


class LinkRewriteError(ValueError):
    """A link cannot be kept pointing at its file (the new path cannot be written as a link, obsidian.md §4:
    ``# | ^ [[ ]]`` in names), or a rewritten note would not parse back to the same links. Nothing is planned."""


def affected_names(moves: Mapping[str, str]) -> set[str]:
    """link_name keys of links that the moves may affect: lookup_names of every old and new path.

    A link can only resolve to a file whose :func:`~obsigate.domain.links.resolve.lookup_names` hold its
    :func:`~obsigate.domain.links.resolve.link_name` (obsidian.md §7 steps 2–3), so outside the moved notes only
    links under these keys can change target: those to a moved file, and those whose bare name a moved file
    now shadows (§10 "Renames that create duplicate names", §13 cases 18–19).
    """
    names: set[str] = set()
    for old, new in moves.items():
        names.update(lookup_names(old))
        names.update(lookup_names(new))
    return names


def plan_link_updates(files: Iterable[str], moves: Mapping[str, str], notes: Mapping[str, str]) -> list[NoteUpdate]:
    """files: every vault file path BEFORE the move (vault-relative POSIX, NFC); moves: {old path: new path}
    (a folder rename gives one entry per file below it); notes: {path before the move: full text} for every
    note whose links may change — the caller passes the notes that have a link whose link_name is in
    affected_names(moves), plus every moved note (a moved note's relative links change meaning).
    Returns only notes whose text changes, with every edit.

    Obsidian's rename behaviour (obsidian.md §10): every link, embed, markdown link and quoted frontmatter
    link that resolved to a moved file is rewritten to reach it at its new path, keeping its kind, ``!``,
    subpath (``#Heading``, ``#^block``), display text (renamed when it equals the old file name) and, for
    markdown links, ``.md``, the ``<…>`` form and the title; spaces become ``%20``. A wikilink gets the
    shortest path that resolves (§7 "Link generation": the bare name when it is unique, else the vault
    path), a markdown link the vault path; a link written relative (``./``, ``../``) stays relative and a
    ``/``-absolute one absolute. A link that keeps resolving to its file is untouched (so is every
    unresolved link, and the table escape ``\\|``).

    Results are sorted by new path. Raises :class:`LinkRewriteError` when a link cannot be kept (see there)
    and ``ValueError`` when two files would end up on one path.
    """
    before = set(files) | set(moves)
    after = _apply_moves(before, moves)
    planner = _Planner(moves, LinkResolver(before), LinkResolver(after), after)
    updates = []
    for source, text in notes.items():
        update = planner.note(source, text)
        if update is not None:
            updates.append(update)
    updates.sort(key=lambda u: u.path)
    return updates


def _apply_moves(before: set[str], moves: Mapping[str, str]) -> set[str]:
    after: set[str] = set()
    for path in sorted(before):
        new = moves.get(path, path)
        if new in after:
            raise ValueError(f"two files would be moved to {new!r}")
        after.add(new)
    return after


def _basename(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _is_note(path: str) -> bool:
    return path.lower().endswith(".md")


def _stem(path: str) -> str:
    name = _basename(path)
    return name[:-3] if _is_note(name) else name


def _strip_range(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` narrowed to ``text[start:end].strip()``."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# --- where each link is ----------------------------------------------------------------------------

_WIKI, _MD, _FM = "wiki", "md", "fm"


@dataclass(frozen=True, slots=True)
class _Site:
    """A link located in the LF-normalised text: whole markup, link path and display text (offsets), and
    the markup as the parser saw it (``seen``: without the ``>`` markers and indentation of continuation
    lines) with the same two ranges relative to it (``local_path``, ``local_display``)."""

    link: Link
    start: int
    end: int
    path: tuple[int, int]
    display: tuple[int, int] | None
    seen: str
    local_path: tuple[int, int]
    local_display: tuple[int, int] | None
    form: str  # _WIKI, _MD or _FM
    angle: bool = False  # markdown <dest> form
    quote: str = ""  # frontmatter: the YAML quote around the value ('"', "'" or "" for a block scalar)


def _wiki_ranges(text: str, lo: int, hi: int) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """Path and display ranges of wikilink content ``text[lo:hi]`` (§4: first ``|`` unless leading, table
    escape ``\\|``, first ``#``)."""
    pipe = text.find("|", lo, hi)
    display = None
    if pipe > lo:
        linktext_end = pipe - 1 if text[pipe - 1] == "\\" else pipe
        display = _strip_range(text, pipe + 1, hi)
    else:
        linktext_end = hi
    cut = text.find("#", lo, linktext_end)
    return _strip_range(text, lo, linktext_end if cut == -1 else cut), display


def _dest_path_end(text: str, lo: int, hi: int) -> int:
    """End of the link path in a raw markdown destination: the first ``#`` or ``\\#`` (§6: split after
    unescaping; ``%23`` stays encoded)."""
    i = lo
    while i < hi:
        ch = text[i]
        if ch == "\\" and i + 1 < hi:
            if text[i + 1] == "#":
                return i
            i += 2
            continue
        if ch == "#":
            return i
        i += 1
    return hi


class _Locator:
    """Offsets of file lines in the normalised text, to place the parser's runs and frontmatter values."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for line in self.lines[:-1]:
            self.starts.append(self.starts[-1] + len(line) + 1)

    def body_sites(self, runs: list[InlineRun]) -> list[_Site]:
        sites: list[_Site] = []
        for run in runs:
            if not run.spans:
                continue
            parts = run.text.split("\n")
            offsets = [0]
            for part in parts[:-1]:
                offsets.append(offsets[-1] + len(part) + 1)
            bases = []
            for k, part in enumerate(parts):
                file_line = self.lines[run.line - 1 + k]
                if not file_line.endswith(part):
                    raise LinkRewriteError(f"line {run.line + k}: the parser's text is not a suffix of the line")
                bases.append(self.starts[run.line - 1 + k] + len(file_line) - len(part))

            def at(offset: int, offsets: list[int] = offsets, bases: list[int] = bases) -> int:
                k = bisect_right(offsets, offset) - 1
                return bases[k] + offset - offsets[k]

            text = run.text
            for span in run.spans:
                if span.dest is None:
                    path, display = _wiki_ranges(text, *span.inner)
                    form, angle = _WIKI, False
                else:
                    d_lo, d_hi = span.dest
                    path = _strip_range(text, d_lo, _dest_path_end(text, d_lo, d_hi))
                    label = _strip_range(text, *span.inner)
                    display = label if label[0] < label[1] else None
                    form, angle = _MD, d_lo > 0 and text[d_lo - 1] == "<"
                base = span.start
                sites.append(
                    _Site(
                        span.link,
                        at(span.start),
                        at(span.end),
                        (at(path[0]), at(path[1])),
                        None if display is None else (at(display[0]), at(display[1])),
                        text[span.start : span.end],
                        (path[0] - base, path[1] - base),
                        None if display is None else (display[0] - base, display[1] - base),
                        form,
                        angle=angle,
                    )
                )
        return sites

    def line_of(self, offset: int) -> int:
        return bisect_right(self.starts, offset)

    def frontmatter_sites(self, parsed: ParsedNote) -> tuple[list[_Site], list[Link]]:
        """§3 quoted frontmatter links, found the way the parser numbers their lines (first occurrence of
        the value from the previous one on), but only where the value is a whole scalar; and the links
        whose value is not written as is (YAML escapes, folding), which cannot be located."""
        links = [lk for lk in parsed.links if lk.kind == FRONTMATTER]
        if not links:
            return [], []
        source, _, _ = split_frontmatter(self.text)
        if source is None:
            return [], links
        values = []
        for _, value in iter_string_values(parsed.frontmatter):
            inner = value[2:-2]
            if (
                value.startswith("[[")
                and value.endswith("]]")
                and "[[" not in inner
                and "]]" not in inner
                and wikilink(inner, False, 0, FRONTMATTER) is not None
            ):
                values.append(value)
        if len(values) != len(links):
            raise LinkRewriteError("frontmatter links do not match the parser's")
        sites = []
        lost = []
        claimed: set[int] = set()
        cursor = 0
        for value, link in zip(values, links, strict=True):
            at = self._find_value(source, value, cursor, claimed)
            if at is None:
                lost.append(link)  # written with YAML escapes or folded: its text is not the value
                continue
            claimed.add(at)
            cursor = at + len(value)
            start = 4 + at  # the source starts after "---\n"
            path, display = _wiki_ranges(value, 2, len(value) - 2)
            prev = source[at - 1] if at else ""
            quote = prev if prev in "\"'" else ""
            sites.append(
                _Site(
                    link,
                    start,
                    start + len(value),
                    (start + path[0], start + path[1]),
                    None if display is None else (start + display[0], start + display[1]),
                    value,
                    path,
                    display,
                    _FM,
                    quote=quote,
                )
            )
        return sites, lost

    @staticmethod
    def _find_value(source: str, value: str, cursor: int, claimed: set[int]) -> int | None:
        for origin in (cursor, 0):
            at = source.find(value, origin)
            while at != -1:
                if at not in claimed and _whole_scalar(source, at, at + len(value)):
                    return at
                at = source.find(value, at + 1)
        return None


def _whole_scalar(source: str, start: int, end: int) -> bool:
    prev = source[start - 1] if start else ""
    nxt = source[end] if end < len(source) else ""
    if prev in ("'", '"'):
        return nxt == prev
    line_start = source.rfind("\n", 0, start) + 1
    line_end = source.find("\n", end)
    line_end = len(source) if line_end == -1 else line_end
    return not source[line_start:start].strip() and not source[end:line_end].strip()  # block scalar line


# --- writing a link path ---------------------------------------------------------------------------


def _md_encode(path: str, angle: bool, parens: bool) -> str:
    """A link path as a markdown destination that JS ``decodeURI`` turns back into it (§6): ``%20`` for
    spaces (kept in the ``<…>`` form), ``%25``, ``%5C`` and control characters always."""
    out = []
    for ch in path:
        if ch == "%":
            out.append("%25")
        elif ch == " " and not angle:
            out.append("%20")
        elif ch == "\\" or ord(ch) < 0x20 or ch == "\x7f" or (angle and ch in "<>") or (parens and ch in "()"):
            out.append("".join(f"%{b:02X}" for b in ch.encode()))
        else:
            out.append(ch)
    return "".join(out)


def _yaml_escape(text: str, quote: str) -> str:
    if quote == '"':
        return text.replace("\\", "\\\\").replace('"', '\\"')
    if quote == "'":
        return text.replace("'", "''")
    return text


def _yaml_unescape(text: str, quote: str) -> str:
    if quote == '"':
        out, i = [], 0
        while i < len(text):
            if text[i] == "\\" and i + 1 < len(text):
                out.append(text[i + 1])
                i += 2
            else:
                out.append(text[i])
                i += 1
        return "".join(out)
    if quote == "'":
        return text.replace("''", "'")
    return text


def _relative(source: str, target: str) -> str:
    """``target`` as a ``./`` or ``../`` path from the folder of ``source`` (§7 "relative")."""
    src = source.split("/")[:-1]
    dst = target.split("/")
    common = 0
    while common < len(src) and common < len(dst) - 1 and src[common] == dst[common]:
        common += 1
    ups = len(src) - common
    rest = "/".join(dst[common:])
    return "../" * ups + rest if ups else "./" + rest


def _splice(text: str, base: int, edits: list[tuple[int, int, str]]) -> str:
    """``text`` (which starts at offset ``base``) with non-overlapping ``(start, end, new)`` edits applied."""
    out = []
    last = 0
    for start, end, new in sorted(edits):
        out.append(text[last : start - base])
        out.append(new)
        last = end - base
    out.append(text[last:])
    return "".join(out)


class _Planner:
    def __init__(self, moves: Mapping[str, str], r0: LinkResolver, r1: LinkResolver, after: set[str]) -> None:
        self.moves = moves
        self.r0 = r0
        self.r1 = r1
        self.names: dict[str, list[str]] = defaultdict(list)
        for path in after:
            self.names[_basename(path).lower()].append(path)

    def expected(self, link: Link, source: str) -> str | None:
        dest = self.r0.resolve(link.target, source)
        return None if dest is None else self.moves.get(dest, dest)

    def note(self, s0: str, raw: str) -> NoteUpdate | None:
        s1 = self.moves.get(s0, s0)
        bom = raw.startswith(_BOM)
        raw_lines = (raw[1:] if bom else raw).split("\n")
        crlf = [line.endswith("\r") for line in raw_lines[:-1]] + [False]
        text = "\n".join(line[:-1] if cr else line for line, cr in zip(raw_lines, crlf, strict=True))
        # The parser is given the note as stored: its own CRLF step gives the lines of ``text`` exactly. Given
        # ``text``, it would strip a second CR from a line that ended in "\r\r\n" and see other lines.
        with recording_inline_runs() as runs:
            parsed = parse_note(raw)
        locator = _Locator(text)
        fm_sites, lost = locator.frontmatter_sites(parsed)
        for link in lost:
            dest0 = self.r0.resolve(link.target, s0)
            if dest0 is not None and self.r1.resolve(link.target, s1) != self.moves.get(dest0, dest0):
                raise LinkRewriteError(f"{s0}: frontmatter link {link.key} to {dest0!r} is written with YAML escapes")
        sites = fm_sites + locator.body_sites(runs)
        body_links = [lk for lk in parsed.links if lk.kind != FRONTMATTER]
        if [s.link for s in sites if s.form != _FM] != body_links:
            raise LinkRewriteError(f"{s0}: the parser's link positions do not match its links")

        edits: list[tuple[int, int, str, bool]] = []  # (start, end, new, optional)
        rewritten: list[_Site] = []
        for site in sites:
            dest0 = self.r0.resolve(site.link.target, s0)
            if dest0 is None:
                continue  # unresolved links are never touched (§10)
            expected = self.moves.get(dest0, dest0)
            if self.r1.resolve(site.link.target, s1) == expected:
                continue  # still reaching its file
            found = self.rewrite(site, dest0, expected, s1)
            if found is None:
                raise LinkRewriteError(
                    f"{s0} line {site.link.line}: {text[site.start : site.end]!r} cannot be written to reach "
                    f"{expected!r} (obsidian.md §4: # | ^ [[ ]] break links)"
                )
            edits.extend(found)
            rewritten.append(site)
        if not edits:
            return None
        applied = _without_overlaps(edits)
        new_text = _splice(text, 0, applied)
        link_edits = tuple(
            LinkEdit(
                locator.line_of(site.start),
                text[site.start : site.end],
                _splice(text[site.start : site.end], site.start, [e for e in applied if site.start <= e[0] < site.end]),
            )
            for site in sorted(rewritten, key=lambda s: s.start)
        )
        out_lines = new_text.split("\n")
        if len(out_lines) != len(crlf):
            raise LinkRewriteError(f"{s0}: a rewrite changed the line count")
        out = (_BOM if bom else "") + "\n".join(
            line + "\r" if cr else line for line, cr in zip(out_lines, crlf, strict=True)
        )
        self.check(parsed, out, s0, s1)  # the text as it will be stored, parsed as the index will parse it
        return NoteUpdate(s1, out, link_edits)

    def rewrite(self, site: _Site, dest0: str, expected: str, s1: str) -> list[tuple[int, int, str, bool]] | None:
        """Edits that make ``site`` reach ``expected`` from ``s1``: the first link path form that parses back
        to the same link (kind, ``!``, subpath, display) and resolves there under R1."""
        link = site.link
        new_display = None
        if site.display is not None and link.display is not None:
            old0, old1 = _basename(dest0), _basename(expected)
            if link.display == old0 and old0 != old1:
                new_display = old1  # §10: display text equal to the old file name is renamed too
            elif _is_note(dest0) and link.display == _stem(dest0) and _stem(dest0) != _stem(expected):
                new_display = _stem(expected)
        for path in self.forms(link.target, expected, s1, markdown=site.form == _MD):
            for written in self.spellings(path, site):
                for display in (new_display, None) if new_display is not None else (None,):
                    edits = [(site.path[0], site.path[1], written, False)]
                    local = [(site.local_path[0], site.local_path[1], written)]
                    if display is not None and site.display is not None and site.local_display is not None:
                        written_display = _yaml_escape(display, site.quote) if site.form == _FM else display
                        edits.append((site.display[0], site.display[1], written_display, True))
                        local.append((site.local_display[0], site.local_display[1], written_display))
                    candidate = _splice(site.seen, 0, local)
                    want = display if display is not None else link.display
                    if self.parses_to(candidate, site, want, expected, s1):
                        return edits
        return None

    def forms(self, target: str, expected: str, s1: str, markdown: bool) -> list[str]:
        """Link paths for ``expected``, preferred first. A link written relative (``./``, ``../``) stays
        relative and a ``/``-absolute one absolute. Otherwise a wikilink gets §7's "shortest" (the bare name
        when it is unique, else the vault path) and a markdown link the vault path. Wikilinks drop ``.md``,
        markdown links keep it (§6, §10); attachments always keep their extension. ``/`` + the vault path is
        the last resort: it always resolves (§7 step 6)."""
        full = expected
        short = expected[:-3] if _is_note(expected) else expected
        first, second = (full, short) if markdown else (short, full)
        forms: list[str] = []
        if target.startswith(("./", "../")):
            forms += [_relative(s1, first), _relative(s1, second)]
        if target.startswith("/"):
            forms += ["/" + first, "/" + second]
        if not markdown:
            forms += [name for name in (_basename(first), _basename(second)) if self.unique(name, expected)]
        forms += [first, second, "/" + first, "/" + second]
        return list(dict.fromkeys(forms))

    def unique(self, name: str, expected: str) -> bool:
        """§7 ``fileToLinktext`` "shortest": a bare name only when looking it up gives exactly that file
        (one candidate, or a root file whose path is the name)."""
        key = name.lower()
        candidates = self.names.get(key, []) if "." in key else []
        if not candidates:
            key += ".md"
            candidates = self.names.get(key, [])
        return bool(candidates) and (len(candidates) == 1 or expected.lower() == key)

    @staticmethod
    def spellings(path: str, site: _Site) -> list[str]:
        if site.form == _FM:
            return [_yaml_escape(path, site.quote)]
        if site.form == _WIKI:
            return [path]
        return list(dict.fromkeys([_md_encode(path, site.angle, False), _md_encode(path, site.angle, True)]))

    def parses_to(self, markup: str, site: _Site, display: str | None, expected: str, s1: str) -> bool:
        old = site.link
        if site.form == _FM:
            value = _yaml_unescape(markup, site.quote)
            inner = value[2:-2]
            if not (value.startswith("[[") and value.endswith("]]")) or "[[" in inner or "]]" in inner:
                return False
            new = wikilink(inner, False, old.line, FRONTMATTER)
        else:
            new = next((s.link for s in link_spans(markup) if s.start == 0 and s.end == len(markup)), None)
        return (
            new is not None
            and new.kind == old.kind
            and new.embed == old.embed
            and new.subpath == old.subpath
            and new.display == display
            and self.r1.resolve(new.target, s1) == expected
        )

    def check(self, parsed: ParsedNote, new_text: str, s0: str, s1: str) -> None:
        """The rewritten note parses to the same links, each reaching its file at its new path (§10)."""
        again = parse_note(new_text).links
        if len(again) != len(parsed.links):
            raise LinkRewriteError(f"{s0}: rewriting changed the number of links ({len(parsed.links)}→{len(again)})")
        for old, new in zip(parsed.links, again, strict=True):
            same_shape = (old.kind, old.embed, old.subpath) == (new.kind, new.embed, new.subpath)
            if old.kind != FRONTMATTER:  # a frontmatter link's line is where its value is first found
                same_shape = same_shape and old.line == new.line
            expected = self.expected(old, s0)
            reaches = new.target == old.target if expected is None else self.r1.resolve(new.target, s1) == expected
            if not (same_shape and reaches):
                raise LinkRewriteError(f"{s0} line {old.line}: a rewritten link no longer parses the same")


def _without_overlaps(edits: list[tuple[int, int, str, bool]]) -> list[tuple[int, int, str]]:
    """Sorted edits; an optional one (a display rename) that overlaps another is dropped. Only a markdown
    link nested in another's label (``[![img](a.png)](b.md)``) can overlap."""
    required = sorted(e for e in edits if not e[3])
    for a, b in pairwise(required):
        if b[0] < a[1]:
            raise LinkRewriteError("overlapping link rewrites")
    kept = [e[:3] for e in required]
    for start, end, new, optional in edits:
        if optional and not any(start < e[1] and e[0] < end for e in kept):
            kept.append((start, end, new))
    return sorted(kept)
