"""Bases: the expression language and the views, on the worked examples of obsidian-app.md §1.9.

The vault is a plain dict (an :class:`Env` of facts); link resolution is Obsidian's shortest-path rule reduced to
"a file whose name matches", which is all the examples need.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from obsigate.domain.bases.evaluate import Evaluator
from obsigate.domain.bases.expr import ExprError, parse
from obsigate.domain.bases.query import run_view
from obsigate.domain.bases.spec import BaseSpecError, base_blocks, parse_base
from obsigate.domain.bases.values import BaseEvalError, Date, Duration, FileFacts, LinkRef, parse_date, parse_duration

NOW = datetime(2026, 12, 3, 12, 0, 0)
T0 = int(datetime(2026, 11, 1).timestamp() * 1e9)


def _note(path: str, props: dict, tags: tuple[str, ...] = (), links: tuple[LinkRef, ...] = (), mtime_ns: int = T0):
    return FileFacts(path, 100, mtime_ns, mtime_ns, props, tags, links)


class DictEnv:
    """The example vault of §1.9."""

    def __init__(self) -> None:
        fm = lambda a: (LinkRef(a),)  # noqa: E731 — a frontmatter link counts as a link of the note
        self.files = {
            f.path: f
            for f in [
                _note("Books/Dune.md", {"tags": ["book", "scifi"], "author": "[[Frank Herbert]]", "year": 1965,
                                        "rating": 5, "status": "read"}, ("book", "scifi"), fm("Frank Herbert")),
                _note("Books/Emma.md", {"tags": ["book"], "author": "[[Jane Austen]]", "year": 1815, "rating": 4,
                                        "status": "reading"}, ("book",), fm("Jane Austen")),
                _note("Books/Old/Ulysses.md", {"tags": ["book/classic"], "author": "[[James Joyce]]", "year": 1922,
                                               "rating": 3, "status": "read"}, ("book/classic",), fm("James Joyce")),
                _note("Books/Template.md", {"tags": ["book"]}, ("book",)),
                _note("Articles/Attention.md", {"tags": ["article"], "year": 2017, "rating": 5}, ("article",)),
                _note("Frank Herbert.md", {}, (), (LinkRef("Dune"),)),
                FileFacts("cover.png", 2048, T0, T0),
            ]
        }  # fmt: skip

    def file(self, path: str) -> FileFacts | None:
        return self.files.get(path)

    def resolve(self, target: str, source: str) -> str | None:
        want = target.lower().removesuffix(".md")
        for p in self.files:
            if p.lower().removesuffix(".md") == want or p.rsplit("/", 1)[-1].lower().removesuffix(".md") == want:
                return p
        return None

    def tags(self, path: str) -> tuple[str, ...]:
        f = self.files.get(path)
        return f.tags if f else ()

    def links(self, path: str) -> tuple[LinkRef, ...]:
        f = self.files.get(path)
        return f.links if f else ()

    def backlinks(self, path: str) -> list[str]:
        return sorted(p for p, f in self.files.items() if any(self.resolve(lk.target, p) == path for lk in f.links))


def _run(yaml: str, this: str | None, view: int = 0, env: DictEnv | None = None) -> dict:
    env = env or DictEnv()
    spec = parse_base(yaml)
    ev = Evaluator(env, this, spec.formulas, NOW)
    return run_view(spec, spec.views[view], ev, sorted(env.files), 1000)


def _names(result: dict) -> list[str]:
    return [r["path"] for g in result["groups"] for r in g["rows"]]


EXAMPLE_1 = """
filters:
  and:
    - file.hasTag("book")
    - '!file.name.contains("Template")'
formulas:
  stars: '"★".repeat(rating)'
properties:
  formula.stars:
    displayName: Stars
views:
  - type: table
    name: By year
    order: [file.name, author, year, formula.stars]
    sort:
      - property: year
        direction: ASC
"""


def test_example_1_filter_formula_sort() -> None:
    out = _run(EXAMPLE_1, "Books.base")
    assert _names(out) == ["Books/Emma.md", "Books/Old/Ulysses.md", "Books/Dune.md"]
    assert [c["label"] for c in out["columns"]] == ["file name", "author", "year", "Stars"]
    emma, _, dune = out["groups"][0]["rows"]
    assert emma["cells"][0] == {"$": "link", "path": "Books/Emma.md", "text": "Emma"}
    assert emma["cells"][1] == {"$": "link", "path": None, "text": "Jane Austen"}  # unresolved link
    assert dune["cells"][1] == {"$": "link", "path": "Frank Herbert.md", "text": "Frank Herbert"}
    assert [r["cells"][3] for r in out["groups"][0]["rows"]] == ["★★★★", "★★★", "★★★★★"]
    assert out["total"] == 3 and out["errors"] == []


EXAMPLE_2 = """
filters: 'file.inFolder("Books") && file.ext == "md"'
views:
  - type: table
    name: Good reads
    filters:
      and:
        - file.hasProperty("rating")
        - 'rating >= 4'
    groupBy:
      property: note.status
      direction: DESC
    order: [file.name, rating]
    summaries:
      note.rating: Average
"""


def test_example_2_view_filter_group_summary() -> None:
    out = _run(EXAMPLE_2, "Books.base")
    assert out["grouped"] is True
    assert [(g["key"], [r["path"] for r in g["rows"]]) for g in out["groups"]] == [
        ("reading", ["Books/Emma.md"]),
        ("read", ["Books/Dune.md"]),
    ]
    assert [g["summaries"] for g in out["groups"]] == [{"note.rating": 4}, {"note.rating": 5}]
    assert out["summaries"] == {"note.rating": 4.5}


EXAMPLE_3 = """
filters:
  or:
    - 'list(author).contains(this)'
    - 'this.file.hasLink(file)'
views:
  - type: list
    name: Works
    order: [file.name, year]
"""


def test_example_3_this_embedded_and_standalone() -> None:
    embedded = _run(EXAMPLE_3, "Frank Herbert.md")
    assert _names(embedded) == ["Books/Dune.md"]
    assert embedded["shown_as"] == "list"
    assert embedded["groups"][0]["rows"][0]["cells"][1] == 1965
    assert _names(_run(EXAMPLE_3, "Works.base")) == []


def test_not_is_none_of() -> None:
    out = _run('filters:\n  not: [file.hasTag("book"), file.inFolder("Articles")]\n', None)
    assert _names(out) == ["cover.png", "Frank Herbert.md"]


def test_recently_modified_and_unsupported_function_per_cell() -> None:
    env = DictEnv()
    env.files["Books/Dune.md"].mtime_ns = int(datetime(2026, 12, 1).timestamp() * 1e9)
    out = _run('filters: file.mtime > now() - "1 week"\n', None, env=env)
    assert _names(out) == ["Books/Dune.md"]
    yaml = "formulas:\n  bad: nosuch(year)\nviews:\n  - type: table\n    order: [file.name, formula.bad]\n"
    out = _run(yaml + "filters: file.ext == 'md'\n", None)
    cell = out["groups"][0]["rows"][0]["cells"][1]
    assert cell == {"$": "error", "v": "nosuch() is not a supported function"}
    assert out["errors"] == ["nosuch() is not a supported function"]


def test_filter_error_excludes_the_row_and_is_reported() -> None:
    out = _run("filters: 'not(year)'\n", None)
    assert _names(out) == [] and out["filter_errors"] == 7
    assert out["errors"] == ["not() is not a supported function"]


def _ev(src: str, row: str | None = "Books/Dune.md", this: str | None = "Frank Herbert.md"):
    return Evaluator(DictEnv(), this, {"twice": "rating * 2", "loop": "formula.loop"}, NOW).run(src, row)


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ('"Hello World".contains("world")', True),  # case-insensitive (RN 1.9.1)
        ("file.tags.contains('book')", True),
        ('file.hasTag("#BOOK")', True),
        ("file.name", "Dune.md"),
        ("file.basename", "Dune"),
        ("file.folder", "Books"),
        ("file.ext", "md"),
        ("formula.twice + 1", 11),
        ("note.rating", 5),
        ('note["year"] - 1900', 65),
        ("[1, 2] + [3]", [1, 2, 3]),
        ("'a' + 1", "a1"),
        ("(2.5).round()", 3),
        ("(2.567).round(2)", 2.57),
        ("(10).toFixed(2)", "10.00"),
        ("5.isEmpty()", False),
        ("-7 % 3", -1),
        ("[3, 1, 2].sort()", [1, 2, 3]),
        ("[1, 2, 2, 3].unique().length", 3),
        ("[1, 2, 3].filter(value > 1).map(value * 10)", [20, 30]),
        ("[1, 2, 3].reduce(acc + value, 0)", 6),
        ('"a,b,c".split(",")', ["a", "b", "c"]),
        ('"aXbX".replace("X", "-")', "a-b-"),
        ('"abab".replace(/(a)b/g, "$1")', "aa"),
        ('/ab+c/.matches("xabbcx")', True),
        ("if(rating > 4, 'great', 'ok')", "great"),
        ("if(false, 1)", None),
        ("list('x')", ["x"]),
        ("max(1, 5, 3)", 5),
        ("min([4, 2])", 2),
        ('number("12")', 12),
        ("number(true)", 1),
        ('date("2024-01-05").year', 2024),
        ('date("2024-01-31") + "1M"', Date(datetime(2024, 2, 29), time=False)),
        ('(date("2024-01-10") - date("2024-01-01")).days', 9),
        ('date("2024-03-05 14:30:00").format("dddd Do MMMM YYYY, HH:mm")', "Tuesday 5th March 2024, 14:30"),
        ('date("2024-03-05").format("YYYY-[W]WW")', "2024-W10"),
        ("today() == date('2026-12-03')", True),
        ('duration("1d") * 2', Duration(0, 2 * 86_400_000)),
        ('date("2024-01-01") < "2024-02-01"', True),
        ("author == link('Frank Herbert')", True),
        ("list(author).contains(this)", True),
        ("file.hasLink(this)", True),
        ("this.file.hasLink(file)", True),
        ('file.hasLink("Frank Herbert")', True),
        ("link('Frank Herbert').asFile().path", "Frank Herbert.md"),
        ("file.backlinks.length", 1),
        ("missing", None),
        ("missing.contains('x')", None),
        ("missing.isEmpty()", True),
        ("'x'.isType('string')", True),
        ("(1 / 0).toString()", "∞"),
    ],
)
def test_expressions(src: str, want: object) -> None:
    assert _ev(src) == want


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ('"text" * 2', "cannot compute"),  # RN 1.9.9
        ("nosuch()", "not a supported function"),
        ("formula.loop", "refers to itself"),
        ("rating.lower()", "not a method of number"),
        ("(", "syntax error"),
        ("file.nope", "no property"),
    ],
)
def test_errors_are_values_not_crashes(src: str, message: str) -> None:
    with pytest.raises(BaseEvalError, match=message):
        _ev(src)


def test_property_types_from_types_json() -> None:
    env = DictEnv()
    env.files["Books/Dune.md"].props.update({"n": "12", "done": "true", "day": "2024-01-05", "code": "2024-01-05",
                                             "who": "[[Frank Herbert]]"})  # fmt: skip
    types = {"n": "number", "done": "checkbox", "code": "text", "who": "multitext", "year": "text"}
    ev = Evaluator(env, None, {}, NOW, types)
    run = lambda src: ev.run(src, "Books/Dune.md")  # noqa: E731
    assert run("n + 1") == 13 and run("done") is True and run("year") == 1965
    assert run("day.year") == 2024  # untyped: a date string is a date
    assert run("code") == "2024-01-05"  # typed text: stays a string
    assert run("who.length") == 1 and run("who[0].asFile().path") == "Frank Herbert.md"


def test_dates_and_durations_parse() -> None:
    assert parse_date("20240105") == Date(datetime(2024, 1, 5), time=False)
    assert parse_date("202401051230") == Date(datetime(2024, 1, 5, 12, 30))
    assert parse_date("2024-13-01") is None
    assert parse_duration("1M") == Duration(1, 0)
    assert parse_duration("2m") == Duration(0, 120_000)  # m = minute, M = month
    assert parse_duration("1 day") == Duration(0, 86_400_000)
    assert parse_duration("soon") is None


def test_spec_history_and_blocks() -> None:
    spec = parse_base("views:\n\t- type: cards\n\t  group_by: status\n\t  sort:\n\t\t- column: year\n")
    view = spec.views[0]
    assert (view.type, view.group and view.group.prop, view.sort[0].prop) == ("cards", "note.status", "note.year")
    with pytest.raises(BaseSpecError):
        parse_base("views: {a: 1}\n")
    with pytest.raises(BaseSpecError):
        parse_base("filters: [unclosed\n")
    text = "# x\n\n```base\nviews:\n  - type: table\n```\n\n~~~~base\nfilters: 'x'\n~~~~\n"
    assert base_blocks(text) == ["views:\n  - type: table", "filters: 'x'"]


@given(st.text(max_size=60))
def test_parser_never_crashes(src: str) -> None:
    try:
        parse(src)
    except ExprError:
        pass


@given(st.text(alphabet="ab()[].!-+*/%<>=&|'\"0123456789 ,", max_size=40))
def test_evaluator_raises_only_eval_errors(src: str) -> None:
    try:
        _ev(src)
    except BaseEvalError:
        pass


def test_a_filter_or_formula_that_does_not_parse_is_the_views_one_error() -> None:
    from obsigate.domain.bases.query import check_view

    spec = parse_base("filters: 'year > (' \nviews:\n  - type: table\n    name: All\n")
    with pytest.raises(BaseSpecError, match=r"the base's filters: 'year > \(' does not parse"):
        check_view(spec, spec.views[0])
    spec = parse_base("views:\n  - type: table\n    name: Old\n    filters:\n      and: ['year < 1900', 'x ==']\n")
    with pytest.raises(BaseSpecError, match="the filters of view 'Old'"):
        check_view(spec, spec.views[0])
    spec = parse_base("formulas:\n  f: 'rating *'\nviews:\n  - type: table\n")
    with pytest.raises(BaseSpecError, match="formula 'f'"):
        check_view(spec, spec.views[0])
    spec = parse_base("filters:\n  any: ['year > 1']\nviews:\n  - type: table\n")
    with pytest.raises(BaseSpecError, match="unknown filter key 'any'"):
        check_view(spec, spec.views[0])
    spec = parse_base("filters: 'not(year)'\nformulas:\n  g: nosuch(1)\nviews:\n  - type: table\n")
    check_view(spec, spec.views[0])  # parses: failing for a row is the row's error, as before
