"""The search-syntax parser (``domain/search_query.py``): Obsidian's grammar and precedence on the help's own
examples, errors that say where, and two properties over generated input: any text either parses or raises
:class:`QuerySyntaxError` (nothing else), and printing a tree then parsing it gives the same tree."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obsigate.domain.search_query import (
    MAX_DEPTH,
    And,
    Not,
    Op,
    Or,
    Prop,
    QuerySyntaxError,
    Term,
    is_plain,
    parse,
    to_text,
)

W = Term


@pytest.mark.parametrize(
    ("text", "tree"),
    [
        ("meeting work", And((W("meeting"), W("work")))),
        # OR is the loosest: (meeting ∧ work) ∨ (meetup ∧ personal)
        ("meeting work OR meetup personal", Or((And((W("meeting"), W("work"))), And((W("meetup"), W("personal")))))),
        ("meeting -(work meetup)", And((W("meeting"), Not(And((W("work"), W("meetup"))))))),
        ('"star wars"', W("star wars", "phrase")),
        ('"say \\"hi\\" \\\\o/"', W('say "hi" \\o/', "phrase")),
        ("/\\d{4}-\\d{2}/", W("\\d{4}-\\d{2}", "regex")),
        ("/a\\/b/", W("a\\/b", "regex")),
        ("tag:#work", Op("tag", W("#work"))),
        ("TAG:work", Op("tag", W("work"))),
        ('path:"Daily notes/2022-07"', Op("path", W("Daily notes/2022-07", "phrase"))),
        ("line:(dog cat)", Op("line", And((W("dog"), W("cat"))))),
        ("section:(H1 section:(Sub))", Op("section", And((W("H1"), Op("section", W("Sub")))))),
        ("task:", Op("task", W("", "phrase"))),
        ('task:""', Op("task", W("", "phrase"))),
        ("-line:(x)", Not(Op("line", W("x")))),
        ('file:("to be" OR -"2B")', Op("file", Or((W("to be", "phrase"), Not(W("2B", "phrase")))))),
        ("[status]", Prop("status")),
        ("[status:Draft OR Published]", Prop("status", Or((W("Draft"), W("Published"))))),
        ("http://example.com", W("http://example.com")),  # not an operator: one word
        ("a - b", And((W("a"), W("-"), W("b")))),
        ("meeting or work", And((W("meeting"), W("or"), W("work")))),  # only upper-case OR
        ("   ", None),
    ],
)
def test_grammar(text, tree):
    assert parse(text) == tree


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("(a b", 0, "never closed"),
        ("a b)", 3, "without"),
        ('x "open', 2, "quote"),
        ("x /abc", 2, "regular expression"),
        ("//", 0, "empty regular"),
        ("a OR", 2, "after"),
        ("OR a", 0, "before"),
        ("a ()", 2, "empty parentheses"),
        ("[status", 0, "bracket"),
        ("[]", 0, "property name"),
    ],
)
def test_errors_say_where(text, position, words):
    with pytest.raises(QuerySyntaxError) as err:
        parse(text)
    assert err.value.position == position
    assert words in err.value.message


def test_regex_checker_refuses_at_the_slash():
    with pytest.raises(QuerySyntaxError) as err:
        parse("a /(b/", check_regex=lambda p: "missing )" if p.count("(") != p.count(")") else None)
    assert err.value.position == 2 and "missing )" in err.value.message


def test_depth_is_capped():
    deep = "(" * (MAX_DEPTH + 5) + "a" + ")" * (MAX_DEPTH + 5)
    with pytest.raises(QuerySyntaxError, match="nests deeper"):
        parse(deep)
    with pytest.raises(QuerySyntaxError):
        parse("-" * (MAX_DEPTH + 5) + "a")


def test_is_plain():
    assert is_plain(parse("budget plan"))
    assert not is_plain(parse('"budget plan"'))
    assert not is_plain(parse("budget OR plan"))
    assert not is_plain(parse("tag:x"))


# ------------------------------------------------------------------------------------------ properties

_ALPHABET = st.sampled_from([*'ab -()"/\\[]:OR tag:path:line:task-todo:#.', "OR", "tag:", "-(", '"', "é"])
query_text = st.lists(_ALPHABET, max_size=30).map("".join)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(query_text, st.text(max_size=60)))
def test_any_text_parses_or_raises_the_stable_error(text):
    try:
        tree = parse(text)
    except QuerySyntaxError as exc:
        assert 0 <= exc.position <= len(text)
        return
    if tree is not None:
        assert parse(to_text(tree)) == tree


_word = st.text(alphabet="abcdéXY1.#_", min_size=1, max_size=6).filter(lambda w: w != "OR")
_leaf = st.one_of(
    _word.map(Term),
    st.text(alphabet='ab "\\/()', max_size=6).map(lambda s: Term(s, "phrase")),
    st.text(alphabet="ab.*+\\d", min_size=1, max_size=5).filter(lambda s: not s.endswith("\\")).map(lambda s: Term(s, "regex")),
)  # fmt: skip


def _grow(children):
    many = st.lists(children, min_size=2, max_size=3).map(tuple)
    return st.one_of(
        children.map(Not),
        many.map(And),
        many.map(Or),
        st.tuples(st.sampled_from(["tag", "path", "file", "line", "section", "task-done"]), children).map(lambda t: Op(*t)),
        st.tuples(_word, st.one_of(st.none(), children)).map(lambda t: Prop(*t)),
    )  # fmt: skip


trees = st.recursive(_leaf, _grow, max_leaves=12)


@settings(max_examples=400, deadline=None)
@given(trees)
def test_printing_then_parsing_gives_the_tree_back(tree):
    assert parse(to_text(tree)) == tree
