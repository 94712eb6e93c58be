"""Obsidian's search syntax: a recursive-descent parser to an AST, and the printer that writes it back.

Grammar (Obsidian help, "Search"; ``/work/shared/reference/obsidian-app.md`` §5), loosest to tightest::

    query    := or EOF
    or       := and ( "OR" and )*              # upper-case OR only; the lowest precedence
    and      := unary unary*                   # juxtaposition = AND
    unary    := "-" unary | primary            # -term, -"phrase", -op:x, -(group)
    primary  := "(" or ")" | '"' phrase '"' | "/" regex "/" | "[" prop [":" or] "]" | op ":" operand | word
    operand  := "(" or ")" | '"' phrase '"' | "/" regex "/" | word | (nothing: matches everything)

A ``word`` runs to the next space, parenthesis or double quote (and ``]`` inside ``[…]``); it starts with
neither ``-`` (negation) nor ``/`` (a regex). ``op:`` is one of :data:`OPERATORS`, any case (``TAG:`` =
``tag:``); an unknown ``name:`` is part of a plain word (``http://x``). Inside quotes ``\\"`` and ``\\\\``
escape; inside a regex ``\\/`` is a slash (the pattern is kept as written, so ``\\/`` stays ``\\/``).

Errors are :class:`QuerySyntaxError` with the 0-based character offset of the fault: unbalanced parentheses
or brackets, an unterminated quote or regex, an empty regex, ``OR`` with nothing on one side, nesting deeper
than :data:`MAX_DEPTH`. Nothing else is ever raised, whatever the text (the property tests check it).

Parsing never looks at notes: what each node matches is the search service's business
(``services/search_syntax.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = [
    "OPERATORS",
    "And",
    "Node",
    "Not",
    "Op",
    "Or",
    "Prop",
    "QuerySyntaxError",
    "Term",
    "is_plain",
    "parse",
    "to_text",
]

#: Operator names, lower case. ``block`` and ``content`` are parsed; what the service supports is its own list.
OPERATORS = frozenset(
    {"file", "path", "content", "tag", "line", "block", "section", "task", "task-todo", "task-done",
     "match-case", "ignore-case"}
)  # fmt: skip
MAX_DEPTH = 32  # nested groups/negations/operators: beyond it the query is refused, not the stack overflowed
_STOP = frozenset(' \t\r\n\f\v()"')


class QuerySyntaxError(ValueError):
    """The query does not parse: ``message`` says why, ``position`` where (0-based offset into the query)."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} (at character {position + 1})")
        self.message = message
        self.position = position


@dataclass(frozen=True, slots=True)
class Term:
    """A leaf: ``kind`` ``"word"`` (substring, any case), ``"phrase"`` (quoted: whole words, ``""`` = anything)
    or ``"regex"`` (the pattern between the slashes, as written)."""

    text: str
    kind: str = "word"


@dataclass(frozen=True, slots=True)
class Not:
    child: Node


@dataclass(frozen=True, slots=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Or:
    children: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Op:
    """``name:child`` with ``name`` lower case, one of :data:`OPERATORS`."""

    name: str
    child: Node


@dataclass(frozen=True, slots=True)
class Prop:
    """``[name]`` (the note has the property) or ``[name:value]`` (``value`` a sub-query on its values)."""

    name: str
    value: Node | None = None


Node = Term | Not | And | Or | Op | Prop


class _Parser:
    def __init__(self, text: str, check_regex: Callable[[str], str | None] | None) -> None:
        self.s = text
        self.i = 0
        self.depth = 0
        self.brackets = 0  # open [property: …] around the current position: ']' then ends words
        self.check_regex = check_regex

    # -- lexing helpers
    def skip_ws(self) -> None:
        while self.i < len(self.s) and self.s[self.i].isspace():
            self.i += 1

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def ends_word(self, c: str) -> bool:
        return c in _STOP or (c == "]" and self.brackets > 0)

    def at_or(self) -> bool:
        """An upper-case ``OR`` standing alone here (followed by a space, ``)``, ``]`` or the end)."""
        if not self.s.startswith("OR", self.i):
            return False
        nxt = self.s[self.i + 2 : self.i + 3]
        return not nxt or self.ends_word(nxt)

    def at_end_of_group(self) -> bool:
        c = self.peek()
        return not c or c == ")" or (c == "]" and self.brackets > 0)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise QuerySyntaxError(f"the query nests deeper than {MAX_DEPTH} levels", self.i)

    # -- grammar
    def parse_or(self) -> Node:
        start = self.i
        parts = [self.parse_and(start)]
        while self.at_or():
            pos = self.i
            self.i += 2
            self.skip_ws()
            if self.at_end_of_group() or self.at_or():
                raise QuerySyntaxError("OR needs a search term after it", pos)
            parts.append(self.parse_and(pos))
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def parse_and(self, or_pos: int) -> Node:
        self.skip_ws()
        if self.at_or():
            raise QuerySyntaxError("OR needs a search term before it", self.i)
        parts: list[Node] = []
        while not self.at_end_of_group() and not self.at_or():
            parts.append(self.parse_unary())
            self.skip_ws()
        if not parts and self.peek() == ")":
            raise QuerySyntaxError("unbalanced parenthesis: ')' without '('", self.i)
        if not parts:
            raise QuerySyntaxError("empty group: put a search term inside the parentheses", or_pos)
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def parse_unary(self) -> Node:
        nxt = self.s[self.i + 1 : self.i + 2]
        if self.peek() == "-" and nxt and (nxt in '"(' or not self.ends_word(nxt)):  # '-' alone is a word
            self.i += 1
            self.enter()
            node = Not(self.parse_unary())
            self.depth -= 1
            return node
        return self.parse_primary()

    def parse_group(self) -> Node:
        """``( or )`` with the cursor on ``(``."""
        open_at = self.i
        self.i += 1
        self.enter()
        self.skip_ws()
        if self.peek() == ")":
            raise QuerySyntaxError("empty parentheses", open_at)
        if not self.peek():
            raise QuerySyntaxError("unbalanced parenthesis: this '(' is never closed", open_at)
        node = self.parse_or()
        if self.peek() != ")":
            raise QuerySyntaxError("unbalanced parenthesis: this '(' is never closed", open_at)
        self.i += 1
        self.depth -= 1
        return node

    def parse_primary(self) -> Node:
        c = self.peek()
        if c == "(":
            return self.parse_group()
        if c == ")":
            raise QuerySyntaxError("unbalanced parenthesis: ')' without '('", self.i)
        if c == '"':
            return self.parse_phrase()
        if c == "/":
            return self.parse_regex()
        if c == "[":
            return self.parse_prop()
        return self.parse_word_or_op()

    def parse_phrase(self) -> Term:
        open_at = self.i
        self.i += 1
        out: list[str] = []
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == "\\" and self.s[self.i + 1 : self.i + 2] in ('"', "\\"):
                out.append(self.s[self.i + 1])
                self.i += 2
                continue
            if c == '"':
                self.i += 1
                return Term("".join(out), "phrase")
            out.append(c)
            self.i += 1
        raise QuerySyntaxError("unterminated quote: this '\"' is never closed", open_at)

    def parse_regex(self) -> Term:
        open_at = self.i
        j = self.i + 1
        while j < len(self.s):
            if self.s[j] == "\\":
                j += 2
                continue
            if self.s[j] == "/":
                pattern = self.s[self.i + 1 : j]
                if not pattern:
                    raise QuerySyntaxError("empty regular expression '//'", open_at)
                if self.check_regex is not None and (problem := self.check_regex(pattern)) is not None:
                    raise QuerySyntaxError(f"invalid regular expression: {problem}", open_at)
                self.i = j + 1
                return Term(pattern, "regex")
            j += 1
        raise QuerySyntaxError("unterminated regular expression: this '/' is never closed", open_at)

    def parse_prop(self) -> Prop:
        open_at = self.i
        self.i += 1
        j = self.i
        while j < len(self.s) and self.s[j] not in ":]":
            j += 1
        name = self.s[self.i : j].strip()
        if j >= len(self.s):
            raise QuerySyntaxError("unbalanced bracket: this '[' is never closed", open_at)
        if not name or any(ch in name for ch in '[()"'):
            raise QuerySyntaxError("a property name goes inside the brackets: [name] or [name:value]", open_at)
        self.i = j
        value: Node | None = None
        if self.s[j] == ":":
            self.i += 1
            self.brackets += 1
            self.enter()
            self.skip_ws()
            value = Term("", "phrase") if self.peek() == "]" else self.parse_or()
            self.depth -= 1
            self.brackets -= 1
        if self.peek() != "]":
            raise QuerySyntaxError("unbalanced bracket: this '[' is never closed", open_at)
        self.i += 1
        return Prop(name, value)

    def parse_word_or_op(self) -> Node:
        start = self.i
        while self.i < len(self.s) and not self.ends_word(self.s[self.i]):
            if self.s[self.i] == ":" and self.s[start : self.i].lower() in OPERATORS:
                name = self.s[start : self.i].lower()
                self.i += 1
                self.enter()
                node = Op(name, self.parse_operand())
                self.depth -= 1
                return node
            self.i += 1
        return Term(self.s[start : self.i])

    def parse_operand(self) -> Node:
        c = self.peek()
        if not c or c.isspace() or c == ")" or (c == "]" and self.brackets > 0):
            return Term("", "phrase")  # 'task:' alone = every task (as task:"")
        if c == "(":
            return self.parse_group()
        if c == '"':
            return self.parse_phrase()
        if c == "/":
            return self.parse_regex()
        start = self.i
        while self.i < len(self.s) and not self.ends_word(self.s[self.i]):
            self.i += 1
        return Term(self.s[start : self.i])


def parse(text: str, *, check_regex: Callable[[str], str | None] | None = None) -> Node | None:
    """``text`` → its AST, or ``None`` for a blank query.

    ``check_regex(pattern)`` is called on each ``/regex/``; a string it returns is the reason the pattern is
    refused (raised as :class:`QuerySyntaxError` at the regex's opening slash).

    Raises:
        QuerySyntaxError: the text does not parse (see the module docstring); ``position`` is the offending
            character's 0-based offset.
    """
    p = _Parser(text, check_regex)
    p.skip_ws()
    if p.i >= len(text):
        return None
    node = p.parse_or()
    if p.i < len(text):  # only a stray ')' stops parse_or before the end
        raise QuerySyntaxError("unbalanced parenthesis: ')' without '('", p.i)
    return node


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _atom(node: Node) -> str:
    """``node`` as something ``-``, ``op:`` or a juxtaposition can take without changing its meaning."""
    if isinstance(node, (And, Or)):
        return f"({to_text(node)})"
    return to_text(node)


def to_text(node: Node) -> str:
    """The query text of ``node``: :func:`parse` gives ``node`` back (for any tree :func:`parse` can return)."""
    if isinstance(node, Term):
        if node.kind == "phrase":
            return _quote(node.text)
        if node.kind == "regex":
            return f"/{node.text}/"
        return node.text
    if isinstance(node, Not):
        return "-" + _atom(node.child)
    if isinstance(node, And):
        return " ".join(_atom(c) for c in node.children)
    if isinstance(node, Or):
        return " OR ".join(f"({to_text(c)})" if isinstance(c, Or) else to_text(c) for c in node.children)
    if isinstance(node, Op):
        child = node.child
        inner = f"({to_text(child)})" if not isinstance(child, Term) else to_text(child)
        return f"{node.name}:{inner}"
    value = "" if node.value is None else ":" + to_text(node.value)
    return f"[{node.name}{value}]"


def is_plain(node: Node | None) -> bool:
    """True when ``node`` is only bare words joined by AND (what the ranked full-text index answers as is)."""
    if isinstance(node, Term):
        return node.kind == "word"
    if isinstance(node, And):
        return all(isinstance(c, Term) and c.kind == "word" for c in node.children)
    return False
