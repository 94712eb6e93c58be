"""Evaluate Bases expressions over the files of a vault (obsidian-app.md §1.3–1.6).

Names in an expression: ``file`` (the row's file), ``note`` (its frontmatter), ``formula`` (the base's
formulas, computed once per row), ``this`` (the file the base is shown for, §1.6), ``value``/``index``/``acc``
inside ``filter``/``map``/``reduce``, ``values`` in a summary; any other name is a note property
(``price`` ≡ ``note.price``), ``null`` when the note has none.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

import regex as rx

from obsigate.domain.bases import functions as fn
from obsigate.domain.bases.expr import ExprError, Node, parse
from obsigate.domain.bases.values import (
    BaseEvalError,
    Date,
    Duration,
    Env,
    FileFacts,
    FileRef,
    Link,
    Regex,
    Rendered,
    RowRef,
    add_duration,
    as_date,
    compare,
    equal,
    parse_date,
    parse_duration,
    ref_path,
    relative,
    to_string,
    truthy,
    typed_props,
)

MAX_STEPS = 200_000  # evaluation steps per row: a runaway formula (huge lists, deep recursion) is an error


class _Formulas:
    """The ``formula`` namespace of one row."""

    __slots__ = ("row",)

    def __init__(self, row: str | None) -> None:
        self.row = row


class Evaluator:
    """Evaluates expressions of one base for any row.

    Args:
        env: the vault's files (:class:`~.values.Env`).
        this: path of the file the base is shown for (``this``), or None.
        formulas: the base's ``formulas`` (name → expression text).
        now: the current local time (``now()``, ``today()``), fixed for one query.
        types: the vault's property types (name → ``text``, ``number``, ``date``...: ``.obsidian/types.json``).
    """

    def __init__(
        self, env: Env, this: str | None, formulas: dict[str, str], now: datetime, types: dict[str, str] | None = None
    ) -> None:
        self.env = env
        self.types = types or {}
        self.this = this
        self.formulas = formulas
        self.now = now
        self._props: dict[str, dict[str, Any]] = {}
        self._formula_cache: dict[tuple[str | None, str], Any] = {}
        self._active: set[tuple[str | None, str]] = set()
        self._steps = 0

    # ------------------------------------------------------------------------------------ entry points

    def run(self, src: str, row: str | None, local: dict[str, Any] | None = None) -> Any:
        """The value of expression ``src`` for the file at ``row``.

        Raises:
            BaseEvalError: the expression does not parse, or fails for this row.
        """
        try:
            node = parse(src)
        except ExprError as exc:
            raise BaseEvalError(f"syntax error: {exc}") from None
        self._steps = 0
        try:
            return self.eval(node, row, local or {})
        except RecursionError:
            raise BaseEvalError("expression nested too deeply") from None

    def formula(self, name: str, row: str | None) -> Any:
        """``formula.<name>`` for ``row`` (computed once; a formula that refers to itself is an error).

        Raises:
            BaseEvalError: no such formula, a cycle, or the formula fails.
        """
        key = (row, name)
        if key in self._formula_cache:
            hit = self._formula_cache[key]
            if isinstance(hit, BaseEvalError):
                raise hit
            return hit
        src = self.formulas.get(name)
        if src is None:
            raise BaseEvalError(f"no formula named {name!r}")
        if key in self._active:
            raise BaseEvalError(f"formula {name!r} refers to itself")
        self._active.add(key)
        steps = self._steps
        try:
            value = self.eval(parse(str(src)), row, {})
        except ExprError as exc:
            err = BaseEvalError(f"formula {name!r}: syntax error: {exc}")
            self._formula_cache[key] = err
            raise err from None
        except BaseEvalError as exc:
            self._formula_cache[key] = exc
            raise
        finally:
            self._active.discard(key)
            self._steps = max(self._steps, steps)
        self._formula_cache[key] = value
        return value

    def props(self, path: str | None) -> dict[str, Any]:
        """The typed frontmatter of ``path`` (links resolved from that note, ISO strings as dates)."""
        if path is None:
            return {}
        hit = self._props.get(path)
        if hit is None:
            facts = self.env.file(path)
            raw = facts.props if facts else {}
            hit = typed_props(raw, self.types, lambda target: self.env.resolve(target, path))
            self._props[path] = hit
        return hit

    # ------------------------------------------------------------------------------------ the walk

    def eval(self, node: Node, row: str | None, local: dict[str, Any]) -> Any:
        """Evaluate a parsed node (see :mod:`.expr` for the node kinds)."""
        self._steps += 1
        if self._steps > MAX_STEPS:
            raise BaseEvalError("expression too costly to evaluate")
        kind = node[0]
        if kind == "lit":
            return node[1]
        if kind == "id":
            return self.name(node[1], row, local)
        if kind == "member":
            return self.member(self.eval(node[1], row, local), node[2])
        if kind == "index":
            return self.index(self.eval(node[1], row, local), self.eval(node[2], row, local))
        if kind == "call":
            return self.call(node[1], node[2], row, local)
        if kind == "un":
            v = self.eval(node[2], row, local)
            if node[1] == "!":
                return not truthy(v)
            if v is None:
                return None
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise BaseEvalError(f"unary {node[1]} needs a number")
            return -v if node[1] == "-" else v
        if kind == "bin":
            return self.binary(node, row, local)
        if kind == "list":
            return [self.eval(x, row, local) for x in node[1]]
        if kind == "obj":
            return {k: self.eval(x, row, local) for k, x in node[1]}
        if kind == "regex":
            return _regex(node[1], node[2])
        raise BaseEvalError(f"unknown expression node {kind!r}")

    def name(self, name: str, row: str | None, local: dict[str, Any]) -> Any:
        """What a bare name means (see the module docstring)."""
        if name in local:
            return local[name]
        if name == "file":
            if row is None:
                raise BaseEvalError("'file' has no meaning here")
            return FileRef(row)
        if name == "note":
            return self.props(row)
        if name == "formula":
            return _Formulas(row)
        if name == "this":
            return RowRef(self.this) if self.this else None
        return self.props(row).get(name)

    def index(self, v: Any, key: Any) -> Any:
        """``v[key]``: list position (0-based, negative from the end), object or property key."""
        if v is None:
            return None
        if isinstance(v, list | str) and isinstance(key, int | float) and not isinstance(key, bool):
            i = int(key)
            return v[i] if -len(v) <= i < len(v) else None
        if isinstance(key, str):
            return self.member(v, key)
        raise BaseEvalError(f"cannot index {to_string(v)!r} with {to_string(key)!r}")

    def member(self, v: Any, name: str) -> Any:
        """``v.name``: a formula, a file or date field, an object key, ``length``."""
        if isinstance(v, _Formulas):
            return self.formula(name, v.row)
        if isinstance(v, RowRef):
            if name == "file":
                return FileRef(v.path)
            if name == "note":
                return self.props(v.path)
            if name == "formula":
                return _Formulas(v.path)
            return self.props(v.path).get(name)
        if isinstance(v, FileRef):
            return self.file_field(v.path, name)
        if isinstance(v, dict):
            return v.get(name)
        if v is None:
            return None
        if name == "length" and isinstance(v, str | list):
            return len(v)
        if isinstance(v, Date) and name in fn.DATE_FIELDS:
            return fn.DATE_FIELDS[name](v.dt)
        if isinstance(v, Duration) and name in fn.DURATION_FIELDS:
            return v.total_ms / fn.DURATION_FIELDS[name]
        if isinstance(v, Link) and name in ("path", "display"):
            return getattr(v, name)
        raise BaseEvalError(f"{to_string(v)!r} has no field {name!r}")

    # ------------------------------------------------------------------------------------ files

    def facts(self, path: str) -> FileFacts:
        """The facts of ``path``.

        Raises:
            BaseEvalError: the file is not in the vault.
        """
        f = self.env.file(path)
        if f is None:
            raise BaseEvalError(f"no file {path!r}")
        return f

    def links_of(self, path: str, *, embeds: bool | None = None) -> list[Link]:
        """The links written in ``path`` (only embeds, or only non-embeds, or all), resolved from it."""
        return [
            Link(lk.target, None, self.env.resolve(lk.target, path))
            for lk in self.env.links(path)
            if embeds is None or lk.embed == embeds
        ]

    def file_field(self, path: str, name: str) -> Any:
        """``file.<name>`` (obsidian-app.md §1.4)."""
        base = path.rsplit("/", 1)[-1]
        if name == "name":
            return base
        if name == "basename":
            return base.rsplit(".", 1)[0] if "." in base[1:] else base
        if name == "path":
            return path
        if name == "folder":
            return path.rsplit("/", 1)[0] if "/" in path else ""
        if name == "ext":
            return base.rsplit(".", 1)[1] if "." in base[1:] else ""
        if name == "file":
            return FileRef(path)
        if name == "properties":
            return self.props(path)
        if name == "links":
            return self.links_of(path)
        if name == "embeds":
            return self.links_of(path, embeds=True)
        if name == "backlinks":
            return [FileRef(p) for p in self.env.backlinks(path)]
        facts = self.facts(path)
        if name == "size":
            return facts.size
        if name == "mtime":
            return Date(datetime.fromtimestamp(facts.mtime_ns / 1e9))
        if name == "ctime":
            return Date(datetime.fromtimestamp((facts.ctime_ns or facts.mtime_ns) / 1e9))
        if name == "tags":
            return fn.TagList(self.env.tags(path))
        raise BaseEvalError(f"file has no property {name!r}")

    def target_path(self, v: Any, row: str | None) -> str | None:
        """The file a ``hasLink``/``linksTo`` argument names: a file, a link, ``this`` or a path string."""
        p = ref_path(v)
        if p is not None or isinstance(v, Link):
            return p
        if isinstance(v, str):
            return self.env.resolve(v, row or "") or v
        return None

    def file_method(self, path: str, name: str, args: list[Any]) -> Any:
        """``asLink``, ``hasLink``, ``hasProperty``, ``hasTag``, ``inFolder`` (§1.4)."""
        if name == "asLink":
            base = path.rsplit("/", 1)[-1].removesuffix(".md")
            return Link(base, to_string(args[0]) if args else None, path)
        if name == "hasLink":
            want = self.target_path(args[0], path) if args else None
            return want is not None and any(lk.path == want for lk in self.links_of(path))
        if name == "hasProperty":
            return bool(args) and to_string(args[0]) in self.props(path)
        if name == "hasTag":
            tags = fn.TagList(self.env.tags(path))
            return any(fn.LIST["contains"](tags, a) for a in args)
        if name == "inFolder":
            folder = to_string(args[0]).strip("/") if args else ""
            return folder == "" or path.startswith(folder + "/")
        return fn.call_method(to_string(FileRef(path)), name, args) if name in fn.STRING else self._no_method(name)

    @staticmethod
    def _no_method(name: str) -> Any:
        raise BaseEvalError(f"{name}() is not a method of files")

    # ------------------------------------------------------------------------------------ calls

    def call(self, callee: Node, arg_nodes: tuple[Node, ...], row: str | None, local: dict[str, Any]) -> Any:
        """A global function or a method call; ``if``, ``filter``, ``map`` and ``reduce`` take their arguments
        unevaluated."""
        if callee[0] == "id":
            name = callee[1]
            if name == "if":
                if not arg_nodes:
                    raise BaseEvalError("if() needs a condition")
                cond = truthy(self.eval(arg_nodes[0], row, local))
                pick = arg_nodes[1] if cond else (arg_nodes[2] if len(arg_nodes) > 2 else None)
                return self.eval(pick, row, local) if pick is not None and len(arg_nodes) > 1 else None
            return self.global_fn(name, [self.eval(a, row, local) for a in arg_nodes], row)
        recv = self.eval(callee[1], row, local)
        name = callee[2]
        if name in ("filter", "map", "reduce") and isinstance(recv, list):
            return self.lambda_method(recv, name, arg_nodes, row, local)
        args = [self.eval(a, row, local) for a in arg_nodes]
        if isinstance(recv, RowRef):
            recv = FileRef(recv.path)
        if isinstance(recv, FileRef):
            return self.file_method(recv.path, name, args)
        if isinstance(recv, Link) and name == "asFile":
            return FileRef(recv.path) if recv.path else None
        if isinstance(recv, Link) and name == "linksTo":
            return bool(args) and recv.path is not None and recv.path == self.target_path(args[0], row)
        if isinstance(recv, Date) and name == "relative":
            return relative(recv, self.now)
        if recv is None and name not in ("isEmpty", "isTruthy", "isType", "toString"):
            return None  # a missing property: the call is empty too, not an error
        return fn.call_method(recv, name, args)

    def lambda_method(
        self, items: list[Any], name: str, arg_nodes: tuple[Node, ...], row: str | None, local: dict[str, Any]
    ) -> Any:
        """``filter(expr)``, ``map(expr)``, ``reduce(expr, init)`` with ``value``, ``index`` and ``acc``."""
        if not arg_nodes:
            raise BaseEvalError(f"{name}() needs an expression")
        body = arg_nodes[0]
        if name == "reduce":
            acc = self.eval(arg_nodes[1], row, local) if len(arg_nodes) > 1 else None
            for i, v in enumerate(items):
                acc = self.eval(body, row, {**local, "value": v, "index": i, "acc": acc})
            return acc
        out = []
        for i, v in enumerate(items):
            r = self.eval(body, row, {**local, "value": v, "index": i})
            if name == "map":
                out.append(r)
            elif truthy(r):
                out.append(v)
        return out

    def global_fn(self, name: str, args: list[Any], row: str | None) -> Any:
        """The global functions of obsidian-app.md §1.5."""
        first = args[0] if args else None
        if name == "now":
            return Date(self.now)
        if name == "today":
            return Date(self.now.replace(hour=0, minute=0, second=0, microsecond=0), time=False)
        if name == "date":
            d = as_date(first)
            if d is None:
                raise BaseEvalError(f"date(): {to_string(first)!r} is not a date")
            return d
        if name == "duration":
            dur = first if isinstance(first, Duration) else parse_duration(to_string(first))
            if dur is None:
                raise BaseEvalError(f"duration(): {to_string(first)!r} is not a duration")
            return dur
        if name == "list":
            return first if isinstance(first, list) else ([] if first is None else [first])
        if name == "link":
            if isinstance(first, FileRef | RowRef):
                return Link(to_string(FileRef(first.path)), to_string(args[1]) if len(args) > 1 else None, first.path)
            target = to_string(first)
            source = self.this or row or ""
            return Link(target, to_string(args[1]) if len(args) > 1 else None, self.env.resolve(target, source))
        if name == "file":
            p = self.target_path(first, row)
            return FileRef(p) if p and self.env.file(p) else None
        if name == "number":
            return fn.number_of(first)
        if name in ("min", "max"):
            return fn.min_max(args, -1 if name == "min" else 1)
        if name == "random":
            return random.random()
        if name == "escapeHTML":
            return fn.escape_html(first)
        if name in ("html", "icon", "image"):
            return Rendered(name, ref_path(first) or to_string(first))
        raise BaseEvalError(f"{name}() is not a supported function")

    # ------------------------------------------------------------------------------------ operators

    def binary(self, node: Node, row: str | None, local: dict[str, Any]) -> Any:
        """``&& ||`` (short-circuit, JavaScript's value), comparisons and arithmetic."""
        op = node[1]
        left = self.eval(node[2], row, local)
        if op == "&&":
            return self.eval(node[3], row, local) if truthy(left) else left
        if op == "||":
            return left if truthy(left) else self.eval(node[3], row, local)
        right = self.eval(node[3], row, local)
        if op == "==":
            return equal(left, right)
        if op == "!=":
            return not equal(left, right)
        if op in ("<", "<=", ">", ">="):
            c = compare(left, right)
            if c is None:
                return False
            return {"<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}[op]
        return arithmetic(op, left, right)


def arithmetic(op: str, a: Any, b: Any) -> Any:
    """``+ - * / %`` (obsidian-app.md §1.3): numbers; ``+`` joins strings and lists; dates and durations.

    Raises:
        BaseEvalError: ``"text" * 2`` and other type mismatches.
    """
    if a is None or b is None:
        if op == "+" and (isinstance(a, str) or isinstance(b, str)):
            return to_string(a) + to_string(b)
        return None
    if isinstance(a, Date):
        if isinstance(b, Date) or (op == "-" and isinstance(b, str) and parse_date(b) is not None):
            if op != "-":
                raise BaseEvalError("dates can only be subtracted from each other")
            other = b if isinstance(b, Date) else parse_date(b)
            assert other is not None
            return Duration(0, (a.dt - other.dt).total_seconds() * 1000)
        dur = b if isinstance(b, Duration) else parse_duration(to_string(b)) if isinstance(b, str) else None
        if dur is not None and op in ("+", "-"):
            return add_duration(a, dur, 1 if op == "+" else -1)
    if isinstance(a, str) and isinstance(b, Date) and op == "-":
        da = parse_date(a)
        if da is not None:
            return arithmetic(op, da, b)
    if isinstance(a, Duration) and isinstance(b, int | float) and not isinstance(b, bool) and op in ("*", "/"):
        f = b if op == "*" else (1 / b if b else float("inf"))
        return Duration(0, a.total_ms * f)
    if isinstance(a, Duration) and isinstance(b, Duration) and op in ("+", "-"):
        s = 1 if op == "+" else -1
        return Duration(a.months + s * b.months, a.ms + s * b.ms)
    if op == "+":
        if isinstance(a, list) or isinstance(b, list):
            return (a if isinstance(a, list) else [a]) + (b if isinstance(b, list) else [b])
        if isinstance(a, str) or isinstance(b, str) or isinstance(a, Link) or isinstance(b, Link):
            return to_string(a) + to_string(b)
    if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, int | float) or not isinstance(b, int | float):
        raise BaseEvalError(f"cannot compute {to_string(a)!r} {op} {to_string(b)!r}")
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        return a / b if b else (float("nan") if a == 0 else float("inf") if a > 0 else float("-inf"))
    if op == "%":
        if b == 0:
            return float("nan")
        return a - b * int(a / b)  # JavaScript's remainder keeps the dividend's sign
    raise BaseEvalError(f"unknown operator {op}")


def _regex(pattern: str, flags: str) -> Regex:
    f = rx.V0
    if "i" in flags:
        f |= rx.IGNORECASE
    if "m" in flags:
        f |= rx.MULTILINE
    if "s" in flags:
        f |= rx.DOTALL
    try:
        return Regex(rx.compile(pattern, f), "g" in flags)
    except rx.error as exc:
        raise BaseEvalError(f"bad regular expression: {exc}") from None


__all__ = ["Evaluator", "arithmetic", "compare", "equal", "truthy"]
