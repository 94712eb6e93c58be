"""The Bases expression language: tokenizer and a Pratt parser to a small tuple AST.

Syntax (obsidian-app.md §1.3, "JavaScript-like"): literals ``"s"`` ``'s'`` ``1`` ``2.5`` ``true`` ``false``
``null``, lists ``[a, b]``, objects ``{"k": v}``, regular expressions ``/ab+c/g``; member access ``a.b``,
``a["b c"]``, ``list[0]``; calls ``f(x)``, ``x.f()``; operators ``! -`` (unary), ``* / %``, ``+ -``,
``< <= > >=``, ``== !=``, ``&&``, ``||``. Precedence is not documented: JavaScript's is used (§1.3, UNVERIFIED).

AST nodes are tuples whose first item names the kind: ``("lit", v)``, ``("id", name)``, ``("list", items)``,
``("obj", ((key, node), ...))``, ``("regex", pattern, flags)``, ``("member", obj, name)``, ``("index", obj,
node)``, ``("call", callee, args)`` (callee an ``id`` or ``member`` node), ``("un", op, node)``,
``("bin", op, left, right)``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

Node = tuple[Any, ...]

MAX_EXPR_CHARS = 4_000
MAX_DEPTH = 64  # nesting of parentheses, lists and calls: a deeper expression is refused, never a RecursionError


class ExprError(ValueError):
    """An expression that cannot be parsed; the message says where (a 0-based character offset)."""


_TOKEN = re.compile(
    r"""\s*(?:
    (?P<num>\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<id>[^\W\d][\w]*)
  | (?P<op>&&|\|\||==|!=|>=|<=|[-+*/%!<>()\[\]{},.:?])
)""",
    re.VERBOSE,
)
_REGEX = re.compile(r"/((?:[^/\\\n]|\\.)+)/([a-z]*)")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "b": "\b", "f": "\f", "v": "\v"}

# binary operator -> (left binding power); all left-associative
_BINARY = {"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, "<=": 4, ">": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}
_UNARY_BP = 7


def _unescape(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", body[i + 2 : i + 6]):
                out.append(chr(int(body[i + 2 : i + 6], 16)))
                i += 6
                continue
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _tokens(src: str) -> list[tuple[str, Any, int]]:
    """``(kind, value, offset)`` tokens; a ``/`` where an operand is expected starts a regex literal."""
    out: list[tuple[str, Any, int]] = []
    pos = 0
    n = len(src)
    while True:
        while pos < n and src[pos].isspace():
            pos += 1
        if pos >= n:
            break
        operand_expected = not out or (out[-1][0] == "op" and out[-1][1] not in (")", "]", "}"))
        if src[pos] == "/" and operand_expected:
            m = _REGEX.match(src, pos)
            if not m:
                raise ExprError(f"unterminated regular expression at {pos}")
            out.append(("regex", (m.group(1), m.group(2)), pos))
            pos = m.end()
            continue
        m = _TOKEN.match(src, pos)
        if not m or m.end() == pos:
            raise ExprError(f"unexpected character {src[pos]!r} at {pos}")
        kind = m.lastgroup or "op"
        text = m.group(kind)
        start = m.start(kind)
        if kind == "num":
            out.append(("num", float(text) if any(c in text for c in ".eE") else int(text), start))
        elif kind == "str":
            out.append(("str", _unescape(text[1:-1]), start))
        else:
            out.append((kind, text, start))
        pos = m.end()
    out.append(("end", None, n))
    return out


class _Parser:
    def __init__(self, src: str) -> None:
        self.toks = _tokens(src)
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, Any, int]:
        return self.toks[self.i]

    def take(self) -> tuple[str, Any, int]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def expect(self, op: str) -> None:
        kind, value, at = self.take()
        if kind != "op" or value != op:
            shown = "end of expression" if kind == "end" else repr(value)
            raise ExprError(f"expected {op!r} at {at}, found {shown}")

    def expr(self, min_bp: int = 0) -> Node:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError("expression nested too deeply")
        left = self.prefix()
        while True:
            kind, value, _ = self.peek()
            if kind != "op":
                break
            bp = _BINARY.get(value)
            if bp is None or bp <= min_bp:
                break
            self.take()
            right = self.expr(bp)
            left = ("bin", value, left, right)
        self.depth -= 1
        return left

    def prefix(self) -> Node:
        kind, value, at = self.take()
        if kind == "op" and value in ("!", "-", "+"):
            return ("un", value, self.expr(_UNARY_BP))
        if kind == "num":
            node: Node = ("lit", value)
        elif kind == "str":
            node = ("lit", value)
        elif kind == "regex":
            node = ("regex", value[0], value[1])
        elif kind == "id":
            node = {"true": ("lit", True), "false": ("lit", False), "null": ("lit", None)}.get(value, ("id", value))
        elif kind == "op" and value == "(":
            node = self.expr()
            self.expect(")")
        elif kind == "op" and value == "[":
            node = ("list", tuple(self.items("]")))
        elif kind == "op" and value == "{":
            node = self.obj()
        else:
            shown = "end of expression" if kind == "end" else repr(value)
            raise ExprError(f"unexpected {shown} at {at}")
        return self.postfix(node)

    def items(self, close: str) -> list[Node]:
        out: list[Node] = []
        if self.peek()[:2] == ("op", close):
            self.take()
            return out
        while True:
            out.append(self.expr())
            kind, value, at = self.take()
            if kind == "op" and value == close:
                return out
            if kind != "op" or value != ",":
                raise ExprError(f"expected ',' or {close!r} at {at}")

    def obj(self) -> Node:
        pairs: list[tuple[str, Node]] = []
        if self.peek()[:2] == ("op", "}"):
            self.take()
            return ("obj", ())
        while True:
            kind, value, at = self.take()
            if kind not in ("str", "id", "num"):
                raise ExprError(f"expected an object key at {at}")
            self.expect(":")
            pairs.append((str(value), self.expr()))
            kind, value, at = self.take()
            if kind == "op" and value == "}":
                return ("obj", tuple(pairs))
            if kind != "op" or value != ",":
                raise ExprError(f"expected ',' or '}}' at {at}")

    def postfix(self, node: Node) -> Node:
        while True:
            kind, value, at = self.peek()
            if kind == "op" and value == ".":
                self.take()
                k2, name, at2 = self.take()
                if k2 != "id":
                    raise ExprError(f"expected a name after '.' at {at2}")
                node = ("member", node, name)
            elif kind == "op" and value == "[":
                self.take()
                idx = self.expr()
                self.expect("]")
                node = ("index", node, idx)
            elif kind == "op" and value == "(":
                if node[0] not in ("id", "member"):
                    raise ExprError(f"only functions and methods can be called (at {at})")
                self.take()
                node = ("call", node, tuple(self.items(")")))
            else:
                return node


@lru_cache(maxsize=2048)
def parse(src: str) -> Node:
    """Parse one expression. Cached: a base evaluates the same few expressions over every row.

    Raises:
        ExprError: empty, too long (over :data:`MAX_EXPR_CHARS`), too deep, or not valid syntax.
    """
    if not isinstance(src, str) or not src.strip():
        raise ExprError("empty expression")
    if len(src) > MAX_EXPR_CHARS:
        raise ExprError(f"expression over {MAX_EXPR_CHARS} characters")
    p = _Parser(src)
    node = p.expr()
    kind, value, at = p.peek()
    if kind != "end":
        raise ExprError(f"unexpected {value!r} at {at}")
    return node
