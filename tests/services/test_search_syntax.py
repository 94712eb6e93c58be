"""Obsidian's search operators through the search tool, on a real indexed vault: the reference corpus of
``obsidian-app.md`` §5 (its table of queries and expected notes), errors with their position, plain-text
snippets, and the shared vaults (expectations counted from the files themselves)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import SHARED_VAULTS, write_tree

from obsigate.auth.principal import ANONYMOUS
from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.vault import Vault
from obsigate.services.workspace import Workspace
from obsigate.tools.api import ServiceError, ToolContext, ToolRuntime, call_tool

CORPUS = {
    "Meetings/2024-01-05 Work sync.md": "Meeting with Bob about work.\n- [ ] call Alice\n- [x] email Bob\n#work\n",
    "Personal/Meetup.md": "Personal meetup in the park. #personal\n",
    "Ideas.md": "---\nstatus: Draft\n---\nWork ideas\n\n## Cats\ndog and cat\n",
    "Notes/Links.md": "See **[[Projects/Plan|the plan]]** and ==highlighted== `code` ^blk1\n\n# Birds\nno cat here\n",
}
SYNC, MEETUP, IDEAS, LINKS = "2024-01-05 Work sync", "Meetup", "Ideas", "Links"


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolContext]:
    tmp = tmp_path_factory.mktemp("syntax")
    vaults = {"corpus": Vault("corpus", write_tree(tmp / "corpus", CORPUS))}
    if SHARED_VAULTS.is_dir():
        vaults["tasks"] = Vault("tasks", Path(os.path.realpath(SHARED_VAULTS / "obsidian-tasks-docs")))
    index = VaultIndex(tmp / "index.sqlite3")
    Indexer(index, vaults).refresh_all()
    yield ToolContext(ANONYMOUS, ToolRuntime(workspace=Workspace(vaults=vaults, index=index)))
    index.close()


def search(ctx: ToolContext, q: str, vault: str = "corpus", **kw) -> dict:
    return anyio.run(call_tool, ctx, "search_fulltext", {"q": q, "vault": vault, "limit": 100, **kw})


def titles(ctx: ToolContext, q: str) -> set[str]:
    return {h["title"] for h in search(ctx, q)["hits"]}


@pytest.mark.parametrize(
    ("q", "expected"),
    [
        ("meeting work", {SYNC}),
        ("meeting OR meetup", {SYNC, MEETUP}),
        ("meeting work OR meetup personal", {SYNC, MEETUP}),
        ("meet", {SYNC, MEETUP}),  # inside words
        ('"meet"', set()),  # a phrase is whole words
        ('"meetup in the"', {MEETUP}),
        ("meetup -work", {MEETUP}),
        ("meeting -(bob alice)", set()),
        ("tag:#work", {SYNC}),
        ("tag:personal", {MEETUP}),
        ("-tag:#work park", {MEETUP}),
        ("task-todo:call", {SYNC}),
        ("task-done:call", set()),
        ("task-done:email", {SYNC}),
        ('task:""', {SYNC}),
        ("line:(dog cat)", {IDEAS}),
        ("line:(meeting alice)", set()),  # on two lines
        ("section:(dog cat)", {IDEAS}),
        ("section:(cat plan)", set()),  # "cat" is under # Birds, the plan link before it
        ("path:Meetings", {SYNC}),
        ("file:2024", {SYNC}),
        ("file:.md cats", {IDEAS}),
        ("path:/\\d{4}-\\d{2}-\\d{2}/", {SYNC}),
        ("content:2024", set()),  # the date is only in the name
        ("/^dog and/", {IDEAS}),
        ("match-case:bob", set()),
        ("match-case:Bob", {SYNC}),
        ("TAG:WORK", {SYNC}),
        ("work OR tag:personal", {SYNC, MEETUP, IDEAS}),
    ],
)
def test_reference_corpus(ctx: ToolContext, q: str, expected: set[str]) -> None:
    assert titles(ctx, q) == expected


def test_plain_words_keep_the_ranked_index(ctx: ToolContext) -> None:
    out = search(ctx, "ideas")
    assert [h["title"] for h in out["hits"]] == [IDEAS]
    assert out["total"] == 1


def test_snippets_are_plain_text_with_the_match_marked(ctx: ToolContext) -> None:
    [hit] = search(ctx, '"highlighted" OR missing-word')["hits"]
    assert (
        hit["snippet"] == "See the plan and <mark>highlighted</mark> code Birds no cat here"
    )  # no **, [[…]], ==, `, ^blk1, #
    [hit] = search(ctx, "highlighted")["hits"]  # the ranked path too
    assert "**" not in hit["snippet"] and "[[" not in hit["snippet"] and "<mark>highlighted</mark>" in hit["snippet"]


def test_the_tag_argument_still_filters(ctx: ToolContext) -> None:
    assert {h["title"] for h in search(ctx, "meet OR cat", tag="personal")["hits"]} == {MEETUP}


@pytest.mark.parametrize(
    ("q", "position"),
    [
        ("(meeting work", 0),
        ('work "bob', 5),
        ("a /(b/", 2),
        ("meeting OR", 8),
        ("x)", 1),
        ("[status]", 0),
        ("block:(a)", 0),
    ],
)
def test_errors_are_invalid_query_with_the_position(ctx: ToolContext, q: str, position: int) -> None:
    with pytest.raises(ServiceError) as err:
        search(ctx, q)
    assert err.value.code == "invalid_query"
    assert err.value.http_status == 400
    assert err.value.details["position"] == position


@pytest.mark.skipif(not SHARED_VAULTS.is_dir(), reason="../shared/vaults is not present")
def test_shared_vault_matches_a_count_from_the_files(ctx: ToolContext) -> None:
    root = SHARED_VAULTS / "obsidian-tasks-docs"
    started = {p.relative_to(root).as_posix() for p in (root / "Getting Started").rglob("*.md")}
    out = anyio.run(call_tool, ctx, "search_fulltext", {"q": 'path:"Getting Started"', "vault": "tasks", "limit": 100})
    assert {h["path"] for h in out["hits"]} == started
    # a tag and a phrase, both checked against the raw files
    out = anyio.run(
        call_tool,
        ctx,
        "search_fulltext",
        {"q": 'tag:#feature/statuses "custom statuses"', "vault": "tasks", "limit": 100},
    )
    assert out["total"] > 0
    for h in out["hits"]:
        text = (root / h["path"]).read_text(encoding="utf-8").lower()
        assert "#feature/statuses" in text and "custom statuses" in text
    with_both = sum(
        1
        for p in root.rglob("*.md")
        if "#feature/statuses" in (t := p.read_text(encoding="utf-8").lower()) and "custom statuses" in t
    )
    assert out["total"] == with_both


_PIECES = st.sampled_from(
    ["meeting", "bob", " ", " ", "OR", "-", "(", ")", '"', "/", "\\", "[", "]", "tag:", "path:", "line:", "task-done:",
     "section:", "match-case:", "block:", "#work", "a", ".*", "(?P<", "{9999}", "é", "\n"]
)  # fmt: skip


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(st.lists(_PIECES, max_size=12).map("".join), st.text(max_size=40)))
def test_any_query_answers_or_says_invalid_query(ctx: ToolContext, q: str) -> None:
    try:
        out = search(ctx, q)
    except ServiceError as exc:
        assert exc.code == "invalid_query", (q, exc.code, exc)
        assert 0 <= exc.details["position"] <= len(q)
    else:
        assert out["total"] == len(out["hits"])  # the corpus is smaller than a page
        assert {h["path"] for h in out["hits"]} <= set(CORPUS)
