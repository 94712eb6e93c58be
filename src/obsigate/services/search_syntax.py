"""Search with Obsidian's operators (``tag:``, ``path:``, ``line:(…)``, ``"phrases"``, ``-x``, ``OR``, ``/re/`` …).

The query is parsed by :mod:`obsigate.domain.search_query`; this module plans and runs it:

1. **narrow** with the index: the tree becomes a :mod:`obsigate.domain.index.narrow` spec (words that must
   occur, phrases, tags, paths chosen from the file list by ``file:``/``path:``), which gives a superset of
   the matching notes and their indexed text in one pass;
2. **check** each candidate exactly on that text (redacted, as every search sees it) until
   :data:`TIME_BUDGET_S`, then rank and cut a page.

Semantics (Obsidian help "Search", ``obsidian-app.md`` §5): a bare word matches inside words, any case, in the
note's text or its name (file stem); ``"…"`` is a whole-word phrase; ``/…/`` a regular expression (Python
syntax, ``^``/``$`` at line ends, any case unless ``match-case:``); ``file:`` the file name with extension,
``path:`` the vault path, ``content:`` the text only; ``tag:#a`` the tag ``a`` or a nested ``a/…``;
``line:``, ``section:`` (heading to next heading), ``task:``/``task-todo:``/``task-done:`` (a task item: any,
status ``[ ]``, any other status) make their sub-query hold within one of those; ``match-case:`` and
``ignore-case:`` set case for their sub-query. Only notes are searched (attachments are found by
``search_paths``). Left out, refused with ``invalid_query``: ``block:`` and ``[property]`` (the index keeps no
frontmatter values to check them against).

Hits whose name holds a positive term come first, then by path (Obsidian's default order); the snippet, made
for the page's hits only, is the text around the first positive match, as plain text with ``<mark>`` highlights.
"""

from __future__ import annotations

import bisect
import itertools
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import regex as rx

from obsigate.domain.index.narrow import Spec
from obsigate.domain.index.sqlite_store import tag_key
from obsigate.domain.search_query import And, Node, Not, Op, Or, Prop, QuerySyntaxError, Term, parse
from obsigate.domain.vault import note_title
from obsigate.services.errors import BadRequest
from obsigate.services.search_advanced import snippet as window
from obsigate.services.search_args import compile_query
from obsigate.services.snippet_text import plain
from obsigate.services.workspace import Workspace

__all__ = ["Found", "Scan", "parse_query", "run"]

TIME_BUDGET_S = 2.0
REGEX_NOTE_TIMEOUT_S = 0.25
SPANS_PER_TERM = 20
UNSUPPORTED = {"block": "block: (one Markdown block) is not supported; use line: or section:"}
MAX_LOCATED = 200  # matches of a required term used to pick the lines/sections to check; more: check them all
_HEADING = re.compile(r"^#{1,6}[ \t]", re.MULTILINE)  # the standard re: several times faster here than regex
_TASK_LINE = re.compile(r"[ \t>]*(?:[-*+]|\d+[.)])[ \t]+\[(.)\][ \t]?(.*)")


def _regex_problem(pattern: str) -> str | None:
    try:
        compile_query(pattern, regex=True, case_sensitive=False, whole_word=False)
    except BadRequest as exc:
        return exc.message.removeprefix("invalid regular expression: ")
    return None


def _refuse_unsupported(node: Node, text: str) -> None:
    if isinstance(node, Prop):
        raise BadRequest(
            f"property search [{node.name}] is not supported yet",
            code="invalid_query",
            details={"position": max(0, text.find("[")), "query": text},
        )
    if isinstance(node, Op) and node.name in UNSUPPORTED:
        raise BadRequest(
            UNSUPPORTED[node.name],
            code="invalid_query",
            details={"position": max(0, text.lower().find(node.name + ":")), "query": text},
        )
    for child in _children(node):
        _refuse_unsupported(child, text)


def _children(node: Node) -> tuple[Node, ...]:
    if isinstance(node, (And, Or)):
        return node.children
    if isinstance(node, (Not, Op)):
        return (node.child,)
    if isinstance(node, Prop) and node.value is not None:
        return (node.value,)
    return ()


def parse_query(text: str) -> Node | None:
    """``text`` → its tree (``None`` if blank), regexes checked.

    Raises:
        BadRequest (code ``invalid_query``): the text does not parse, a regex is invalid, or it uses an operator
            left out (``block:``, ``[property]``); ``details`` carries ``position`` (0-based) and ``query``.
    """
    try:
        node = parse(text, check_regex=_regex_problem)
    except QuerySyntaxError as exc:
        marker = text + "\n" + " " * exc.position + "^"
        raise BadRequest(
            str(exc),
            code="invalid_query",
            hint=f"check the query where ^ points:\n{marker}",
            details={"position": exc.position, "query": text},
        ) from None
    if node is not None:
        _refuse_unsupported(node, text)
    return node


# ------------------------------------------------------------------------------------------ one note


@dataclass(slots=True)
class _Note:
    path: str
    body: str
    tags: tuple[str, ...]
    title: str = ""
    name: str = ""
    _cache: dict[str, Any] = field(default_factory=dict)

    def parts(self, kind: str) -> list[Any]:
        """The note's lines, sections (heading to next heading) or tasks (as (status, text)), computed once."""
        got = self._cache.get(kind)
        if got is None:
            if kind == "line":
                got = self.body.split("\n")
                self._cache["line@"] = [0, *itertools.accumulate(len(line) + 1 for line in got[:-1])]
            elif kind == "section":
                cuts = [0, *(m.start() for m in _HEADING.finditer(self.body) if m.start()), len(self.body)]
                got = [self.body[a:z] for a, z in itertools.pairwise(cuts)]
                self._cache["section@"] = cuts[:-1]
            else:
                got = [m.groups() for line in self.parts("line") if "[" in line and (m := _TASK_LINE.match(line))]
            self._cache[kind] = got
        return got

    def starts(self, kind: str) -> list[int]:
        """Offsets in the text where each of :meth:`parts` ``kind`` (``line`` or ``section``) starts."""
        self.parts(kind)
        starts: list[int] = self._cache[kind + "@"]
        return starts

    def tag_keys(self) -> set[str]:
        """The note's tag keys, nested parents included (``a/b`` → ``a/b``, ``a``)."""
        keys: set[str] | None = self._cache.get("tags")
        if keys is not None:
            return keys
        keys = self._cache["tags"] = set()
        for t in self.tags:
            k = tag_key(t)
            keys.add(k)
            while "/" in k:
                k = k.rsplit("/", 1)[0]
                keys.add(k)
        return keys


class _Matcher:
    """Compiled patterns of a tree's terms, per case: built on first use, reused for every note."""

    def __init__(self, deadline: float) -> None:
        self.patterns: dict[tuple[Term, bool], rx.Pattern[str]] = {}
        self.deadline = deadline

    def pattern(self, term: Term, case: bool) -> rx.Pattern[str]:
        key = (term, case)
        p = self.patterns.get(key)
        if p is None:
            p = compile_query(
                term.text, regex=term.kind == "regex", case_sensitive=case, whole_word=term.kind == "phrase"
            )
            self.patterns[key] = p
        return p

    def term(self, term: Term, texts: Sequence[str], case: bool) -> bool:
        if term.kind == "phrase" and not term.text:
            return True
        p = self.pattern(term, case)
        if term.kind == "regex":
            timeout = max(0.01, min(REGEX_NOTE_TIMEOUT_S, self.deadline - time.monotonic()))
            return any(p.search(t, timeout=timeout) for t in texts)
        return any(p.search(t) for t in texts)

    def tag(self, node: Node, keys: set[str], case: bool) -> bool:
        """``tag:`` sub-query: a term is a tag (``#`` optional) matching the tag or a nested one."""
        if isinstance(node, Term):
            k = tag_key(node.text)
            return not k or k in keys
        if isinstance(node, Not):
            return not self.tag(node.child, keys, case)
        if isinstance(node, And):
            return all(self.tag(c, keys, case) for c in node.children)
        if isinstance(node, Or):
            return any(self.tag(c, keys, case) for c in node.children)
        return self.match(node, None, _Note("", "", ()), case)  # an operator inside tag:(…): checked on nothing

    def located(self, child: Node, note: _Note, kind: str) -> list[str]:
        """The lines or sections of ``note`` where ``child`` may hold: those holding a match of a term it requires
        (found once in the whole text, then placed by offset), or all of them when it requires none."""
        parts = note.parts(kind)
        req = _required(child)
        if req is None or len(parts) < 2:
            return parts
        hits = [
            h.start()
            for _, h in zip(range(MAX_LOCATED + 1), self.pattern(req, False).finditer(note.body), strict=False)
        ]
        if len(hits) > MAX_LOCATED:
            return parts
        starts = note.starts(kind)
        return [parts[i] for i in sorted({bisect.bisect_right(starts, at) - 1 for at in hits})]

    def match(self, node: Node, texts: Sequence[str] | None, note: _Note, case: bool) -> bool:
        """Does ``node`` hold for ``note``? ``texts``: where a term looks (``None``: the name and the text)."""
        if isinstance(node, Term):
            return self.term(node, (note.title, note.body) if texts is None else texts, case)
        if isinstance(node, Not):
            return not self.match(node.child, texts, note, case)
        if isinstance(node, And):
            return all(self.match(c, texts, note, case) for c in node.children)
        if isinstance(node, Or):
            return any(self.match(c, texts, note, case) for c in node.children)
        assert isinstance(node, Op)  # Prop is refused by parse_query
        child, name = node.child, node.name
        if name == "file":
            return self.match(child, (note.name,), note, case)
        if name == "path":
            return self.match(child, (note.path,), note, case)
        if name == "content":
            return self.match(child, (note.body,), note, case)
        if name == "tag":
            return self.tag(child, note.tag_keys(), case)
        if name in ("match-case", "ignore-case"):
            return self.match(child, texts, note, name == "match-case")
        if name in ("line", "section"):
            return any(self.match(child, (part,), note, case) for part in self.located(child, note, name))
        req = _required(child)
        if req is not None and not self.pattern(req, False).search(note.body):
            return False  # what a task must hold is nowhere in the note
        done = {"task": None, "task-todo": False, "task-done": True}[name]
        return any(
            self.match(child, (text,), note, case)
            for status, text in note.parts("task")
            if done is None or (status != " ") == done
        )


# ------------------------------------------------------------------------------------------ planning


def _by_metadata(node: Node) -> bool:
    """True when ``node`` is decided by the path alone (``file:``/``path:`` and their combinations)."""
    if isinstance(node, Op):
        return node.name in ("file", "path")
    if isinstance(node, (And, Or)):
        return all(_by_metadata(c) for c in node.children)
    if isinstance(node, Not):
        return _by_metadata(node.child)
    return False


def _spec(node: Node, paths: Callable[[Node], frozenset[str]]) -> Spec | None:
    """The narrowing spec of ``node`` (a superset of its notes), or ``None`` when it cannot narrow."""
    if _by_metadata(node):
        return ("paths", paths(node))
    if isinstance(node, Term):
        if node.kind == "regex" or not node.text:
            return None
        return ("phrase" if node.kind == "phrase" else "sub", node.text)
    if isinstance(node, (And, Or)):
        specs = [_spec(c, paths) for c in node.children]
        if isinstance(node, Or) and any(s is None for s in specs):
            return None
        kept = [s for s in specs if s is not None]
        return (("and" if isinstance(node, And) else "or"), kept) if kept else None
    if isinstance(node, Op):
        if node.name == "tag" and isinstance(node.child, Term) and tag_key(node.child.text):
            return ("tag", tag_key(node.child.text))
        if node.name in ("line", "section", "task", "task-todo", "task-done", "content", "match-case", "ignore-case"):
            return _spec(node.child, paths)
    return None  # Not, tag:(…)


def _required(node: Node) -> Term | None:
    """A word or phrase (on one line) that must occur wherever ``node`` holds, or ``None``. Its case-insensitive
    match is a superset of any cased one, so ``match-case:`` keeps it."""
    if isinstance(node, Term):
        return node if node.kind != "regex" and node.text and "\n" not in node.text else None
    if isinstance(node, And):
        return next((r for c in node.children if (r := _required(c)) is not None), None)
    if isinstance(node, Op) and node.name in ("match-case", "ignore-case", "content"):
        return _required(node.child)
    return None


def _positive_terms(node: Node, out: list[Term]) -> list[Term]:
    """Terms whose matches in the text are worth showing: not under ``-``, nor about the name, path or tags."""
    if isinstance(node, Term):
        if node.text:
            out.append(node)
    elif isinstance(node, (And, Or)):
        for c in node.children:
            _positive_terms(c, out)
    elif isinstance(node, Op) and node.name not in ("file", "path", "tag"):
        _positive_terms(node.child, out)
    return out


# ------------------------------------------------------------------------------------------ running


@dataclass(slots=True)
class Found:
    """A matching note: ``score`` (higher first), ``snippet`` (plain text, ``<mark>`` highlights) and tags."""

    vault: str
    path: str
    score: float
    snippet: str
    tags: tuple[str, ...]


@dataclass(slots=True)
class Scan:
    """Every match (unsorted), and whether the time budget ran out first (then ``found`` is partial)."""

    found: list[Found]
    out_of_time: bool = False
    checked: int = 0


def _score(m: _Matcher, terms: list[Term], note: _Note) -> float:
    """5 per positive term found in the note's name: with the path order after it, the names that say it come
    first, then Obsidian's default order (file name A→Z). Counting matches in every text cost more than
    the check itself on a 10k vault."""
    score = 0.0
    for term in terms:
        try:
            if m.pattern(term, False).search(note.title, timeout=REGEX_NOTE_TIMEOUT_S):
                score += 5
        except TimeoutError:
            continue
    return score


def _snippet(m: _Matcher, terms: list[Term], body: str) -> str:
    """Plain text around the first positive match, the matches marked; the start of the text without one.
    Only for the hits of the page asked for (the markup rules cost ~0.3 ms a note)."""
    spans: list[tuple[int, int]] = []
    for term in terms:
        p = m.pattern(term, False)
        try:
            found = p.finditer(body, timeout=REGEX_NOTE_TIMEOUT_S) if term.kind == "regex" else p.finditer(body)
            spans += [
                hit.span() for _, hit in zip(range(SPANS_PER_TERM), found, strict=False) if hit.end() > hit.start()
            ]
        except TimeoutError:
            continue
    if not spans:
        lead = body[:400]
        return plain(window(lead, [(0, 0)])) if lead.strip() else ""
    spans.sort()
    merged = [spans[0]]
    for a, z in spans[1:]:
        if a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(z, merged[-1][1]))
        else:
            merged.append((a, z))
    return plain(window(body, merged))


def _notes(ws: Workspace, vault: str, where: Spec | None, tagged: set[str] | None) -> Iterator[_Note]:
    for path, body, tags in ws.index.note_texts(vault, tagged, where=where):
        name = path.rsplit("/", 1)[-1]
        yield _Note(path, body, tags, note_title(path), name)


def run(
    ws: Workspace, node: Node, vaults: Sequence[str], *, tag: str | None = None, offset: int = 0, limit: int = 20
) -> Scan:
    """Every note of ``vaults`` (names already in the caller's scope) matching ``node`` (from
    :func:`parse_query`), and ``tag`` when given, best first; the hits of ``found[offset:offset + limit]`` get
    their snippet. Stops after :data:`TIME_BUDGET_S` (``out_of_time``: ``found`` is then partial)."""
    deadline = time.monotonic() + TIME_BUDGET_S
    m = _Matcher(deadline)
    terms = _positive_terms(node, [])
    scan = Scan([])
    for vault in vaults:
        records: list[str] = []  # the vault's note paths, read on the first file:/path: (10k rows: ~0.1 s)

        def paths(sub: Node, vault: str = vault, records: list[str] = records) -> frozenset[str]:
            if not records:
                records += [r.path for r in ws.index.file_records(vault) if r.note]
            return frozenset(
                p for p in records if m.match(sub, None, _Note(p, "", (), note_title(p), p.rsplit("/", 1)[-1]), False)
            )

        tagged = ws.index.notes_with_tag(vault, tag) if tag else None  # the tag= filter, before the query's own
        for note in _notes(ws, vault, _spec(node, paths), tagged):
            if time.monotonic() >= deadline:
                scan.out_of_time = True
                break
            scan.checked += 1
            try:
                if m.match(node, None, note, False):
                    scan.found.append(Found(vault, note.path, _score(m, terms, note), "", note.tags))
            except TimeoutError:
                continue
        if scan.out_of_time:
            break
    scan.found.sort(key=lambda f: (-f.score, f.path.casefold(), f.path, f.vault))
    page = scan.found[offset : offset + limit]
    for vault in dict.fromkeys(f.vault for f in page):
        mine = {f.path: f for f in page if f.vault == vault}
        for path, body, _ in ws.index.note_texts(vault, mine):
            mine[path].snippet = _snippet(m, terms, body)
    return scan
