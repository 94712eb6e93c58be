"""search_advanced on real indexed vaults: every filter, match modes, sorting, paging, limits and permissions."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import anyio
import pytest
from support import write_tree

from obsigate.auth.principal import ANONYMOUS, Principal
from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.vault import Vault
from obsigate.services import search_advanced as adv
from obsigate.services import search_args
from obsigate.services.errors import BadRequest
from obsigate.services.workspace import Workspace
from obsigate.tools.api import ServiceError, ToolContext, ToolRuntime, call_tool

SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"
NOTES = {
    "Home.md": "---\ntags: [home]\n---\n# Home\n\nWelcome to the Field Station.\n",
    "Projects/Plan.md": "# Plan\n\nThe budget for the tidepool buoy is small. #project/sensors\nBudget review on Friday.\n",
    "Projects/Budget 2024.md": "# Budget 2024\n\nbudgetary limits; the Budget is final. #project/finance\n",
    "Archive/Old plan.md": "# Old plan\n\nAn old budget, replaced. #archive\n",
    "Daily/2024-05-01.md": "Met the budgeteer about TODO items.\nTODO: call Sam\nRoute a -> b\n",
    "Secret.md": f'# Keys\n\nbudget api_key = "{SECRET}" budget\n',
    "Cafe.md": "Le cafe\u0301 est bon.\n",  # NFD on disk
    "Huge.md": "lorem " * 40_000 + "needle " + "x" * 100_000 + "\n",
    "Attachments/pic.png": b"\x89PNG\r\n\x1a\n" + b"\x00" * 32,
}
OTHER = {"Private.md": "# Private\n\nThe budget of the other vault.\n"}
OLD = datetime(2020, 1, 15, tzinfo=UTC).timestamp()


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    """Vaults ``notes`` and ``other``, indexed (shared by the module's tests: none writes); ``Archive/Old plan.md``
    last modified 2020-01-15, the other notes of ``notes`` one minute apart (Plan newest)."""
    tmp_path = tmp_path_factory.mktemp("search_advanced")
    notes = write_tree(tmp_path / "notes", NOTES)
    order = [
        "Home.md",
        "Daily/2024-05-01.md",
        "Secret.md",
        "Cafe.md",
        "Huge.md",
        "Projects/Budget 2024.md",
        "Projects/Plan.md",
    ]
    base = time.time() - 3600
    for i, rel in enumerate(order):
        os.utime(notes / rel, (base + 60 * i, base + 60 * i))
    os.utime(notes / "Archive/Old plan.md", (OLD, OLD))
    other = write_tree(tmp_path / "other", OTHER)
    vaults = {"notes": Vault("notes", notes), "other": Vault("other", other)}
    index = VaultIndex(tmp_path / "index.sqlite3")
    Indexer(index, vaults).refresh_all()
    yield Workspace(vaults=vaults, index=index)  # no indexer: the index counts as complete
    index.close()


def search(ws: Workspace, vaults: list[str] | None = None, **kw) -> dict:
    """search_advanced over ``vaults`` (default: every vault), or over the one ``vault`` given, as the tool layer
    scopes a call."""
    vault = kw.pop("vault", None)
    return adv.search_advanced(
        ws, [vault] if vault else list(ws.vaults) if vaults is None else vaults, **kw
    ).model_dump()


def paths(out: dict) -> list[str]:
    return [h["path"] for h in out["hits"]]


def error_code(ws: Workspace, **kw) -> str:
    with pytest.raises(BadRequest) as info:
        search(ws, **kw)
    return info.value.code


# ------------------------------------------------------------------------------------------- matching


def test_literal_is_case_insensitive_and_counts_matches(ws: Workspace) -> None:
    out = search(ws, q="budget", vault="notes")
    counts = {h["path"]: h["matches"] for h in out["hits"]}
    assert counts == {
        "Projects/Plan.md": 2, "Projects/Budget 2024.md": 3, "Archive/Old plan.md": 1, "Daily/2024-05-01.md": 1,
        "Secret.md": 2,
    }  # fmt: skip
    assert out["total"] == 5 and out["sort"] == "relevance" and out["timed_out"] is False and out["warning"] is None
    plan = next(h for h in out["hits"] if h["path"] == "Projects/Plan.md")
    assert (
        plan["title"] == "Plan"
        and plan["tags"] == ["project/sensors"]
        and plan["size"] == len(NOTES["Projects/Plan.md"])
    )
    assert "The <mark>budget</mark> for the tidepool" in plan["snippet"]
    assert plan["modified"].endswith("+00:00") and plan["created"] <= plan["modified"]


def test_case_sensitive(ws: Workspace) -> None:
    out = search(ws, q="Budget", case_sensitive=True, vault="notes")
    assert {h["path"]: h["matches"] for h in out["hits"]} == {"Projects/Plan.md": 1, "Projects/Budget 2024.md": 2}
    assert search(ws, q="FIELD STATION", case_sensitive=True)["total"] == 0
    assert paths(search(ws, q="FIELD STATION")) == ["Home.md"]


def test_whole_word(ws: Workspace) -> None:
    out = search(ws, q="budget", whole_word=True, vault="notes")
    counts = {h["path"]: h["matches"] for h in out["hits"]}
    assert "Daily/2024-05-01.md" not in counts  # only 'budgeteer' there
    assert counts["Projects/Budget 2024.md"] == 2  # not 'budgetary'
    assert paths(search(ws, q="budgeteer", whole_word=True)) == ["Daily/2024-05-01.md"]


def test_literal_text_is_not_query_syntax(ws: Workspace) -> None:
    assert paths(search(ws, q="a -> b")) == ["Daily/2024-05-01.md"]
    assert paths(search(ws, q="->")) == ["Daily/2024-05-01.md"]  # no indexable word: scanned
    assert search(ws, q="budget OR tidepool")["total"] == 0
    assert paths(search(ws, q="café")) == ["Cafe.md"]  # NFD note, NFC query


def test_literal_matches_inside_words_unless_whole_word(ws: Workspace) -> None:
    assert search(ws, q="udget", vault="notes")["total"] == 5  # as Obsidian's search: a substring
    assert search(ws, q="udget", regex=True, vault="notes")["total"] == 5
    assert search(ws, q="udget", whole_word=True, vault="notes")["total"] == 0
    assert paths(search(ws, q="budget", whole_word=True, vault="notes", sort="path")) == [
        "Archive/Old plan.md",
        "Projects/Budget 2024.md",
        "Projects/Plan.md",
        "Secret.md",
    ]  # not "budgeteer"


def test_regex(ws: Workspace) -> None:
    out = search(ws, q=r"TODO:?\s+\w+", regex=True)
    assert paths(out) == ["Daily/2024-05-01.md"] and out["hits"][0]["matches"] == 2
    assert out["sort"] == "path" and "<mark>TODO items</mark>" in out["hits"][0]["snippet"]
    assert search(ws, q=r"^TODO: call", regex=True)["total"] == 1  # ^ at line starts
    assert search(ws, q=r"todo: call", regex=True, case_sensitive=True)["total"] == 0
    assert search(ws, q=r"zebra\d+", regex=True)["total"] == 0
    assert search(ws, q=r"budget\w*", regex=True, whole_word=True, vault="notes")["total"] == 5
    assert search(ws, q=r"budge", regex=True, whole_word=True)["total"] == 0
    relevance = search(ws, q="budget", regex=True, sort="relevance", vault="notes")
    assert paths(relevance)[0] == "Projects/Budget 2024.md"  # most matches first


def test_secrets_are_never_found_nor_shown(ws: Workspace) -> None:
    out = search(ws, q="api_key")
    assert paths(out) == ["Secret.md"]
    assert SECRET not in out["hits"][0]["snippet"] and "[REDACTED:" in out["hits"][0]["snippet"]
    assert search(ws, q="sk-proj")["total"] == 0
    assert search(ws, q=r"sk-proj-\w+", regex=True)["total"] == 0
    listed = search(ws, include_paths=["Secret.md"])
    assert SECRET not in listed["hits"][0]["snippet"] and "[REDACTED:" in listed["hits"][0]["snippet"]


def test_huge_one_line_note_gives_a_clipped_snippet(ws: Workspace) -> None:
    hit = search(ws, q="needle")["hits"][0]
    assert hit["path"] == "Huge.md" and "<mark>needle</mark>" in hit["snippet"]
    assert len(hit["snippet"]) <= adv.SNIPPET_CHARS + 20


def test_hostile_regex_ends_in_bounded_time(tmp_path: Path) -> None:
    vault = write_tree(tmp_path / "v", {"Evil.md": "a" * 30_000 + "b\n", "Fine.md": "aaa\n"})
    index = VaultIndex(tmp_path / "i.sqlite3")
    try:
        Indexer(index, {"v": Vault("v", vault)}).refresh_all()
        ws = Workspace(vaults={"v": Vault("v", vault)}, index=index)
        started = time.monotonic()
        out = search(ws, q=r"(a+)+$", regex=True)
        assert time.monotonic() - started < 10
        assert out["timed_out"] is True and out["truncated"] is True and "took longer" in out["warning"]
        assert paths(out) == ["Fine.md"]  # the other notes are still searched
    finally:
        index.close()


# ------------------------------------------------------------------------------------------- filters


def test_include_and_exclude_paths(ws: Workspace) -> None:
    assert paths(search(ws, q="budget", include_paths=["Projects/**"], sort="path")) == [
        "Projects/Budget 2024.md",
        "Projects/Plan.md",
    ]
    assert paths(search(ws, q="budget", include_paths=["projects/p*"])) == ["Projects/Plan.md"]  # case-insensitive
    assert paths(search(ws, q="budget", include_paths=["*.md"], vault="notes")) == ["Secret.md"]  # * stays in a folder
    assert paths(search(ws, q="budget", include_paths=["**/*plan*"], sort="path")) == [
        "Archive/Old plan.md",
        "Projects/Plan.md",
    ]
    out = search(ws, q="budget", exclude_paths=["Archive/**", "Daily/**"], vault="notes")
    assert sorted(paths(out)) == ["Projects/Budget 2024.md", "Projects/Plan.md", "Secret.md"]
    assert search(ws, q="budget", include_paths=["Nowhere/**"])["total"] == 0


def test_tag(ws: Workspace) -> None:
    assert sorted(paths(search(ws, q="budget", tag="project"))) == ["Projects/Budget 2024.md", "Projects/Plan.md"]
    assert sorted(paths(search(ws, tag="#Project"))) == ["Projects/Budget 2024.md", "Projects/Plan.md"]  # no q
    assert paths(search(ws, q="budget", tag="project/finance")) == ["Projects/Budget 2024.md"]
    assert paths(search(ws, q="budget", regex=True, tag="project/finance")) == ["Projects/Budget 2024.md"]
    assert search(ws, q="budget", tag="proj")["total"] == 0  # a tag, not a prefix
    assert paths(search(ws, tag="home")) == ["Home.md"]  # frontmatter tags count


def test_modified_range(ws: Workspace) -> None:
    assert paths(search(ws, q="budget", modified={"before": "2021-01-01"})) == ["Archive/Old plan.md"]
    assert "Archive/Old plan.md" not in paths(search(ws, q="budget", modified={"after": "2021-01-01"}))
    assert search(ws, modified={"after": "2020-01-15"})["total"] == 9  # every note of both vaults
    exact = {"after": "2020-01-15T00:00:00Z", "before": "2020-01-15T00:00:01+00:00"}
    assert paths(search(ws, modified=exact)) == ["Archive/Old plan.md"]  # after is inclusive
    assert search(ws, modified={"before": "2020-01-15"})["total"] == 0  # before is exclusive
    assert paths(search(ws, modified={"after": "2020-01-14T18:00:00-05:00", "before": "2020-01-16"})) == [
        "Archive/Old plan.md"
    ]


def test_created_range(ws: Workspace) -> None:
    # Linux has no birth time: created is the inode change time capped at the modification time
    assert paths(search(ws, created={"before": "2021-01-01"})) == ["Archive/Old plan.md"]
    assert "Archive/Old plan.md" not in paths(search(ws, q="budget", created={"after": "2021-01-01"}))
    assert search(ws, q="budget", created={"after": "2999-01-01"})["total"] == 0


def test_size_range(ws: Workspace) -> None:
    n = len(NOTES["Projects/Plan.md"].encode())
    assert paths(search(ws, q="budget", size={"min": n, "max": n})) == ["Projects/Plan.md"]
    assert paths(search(ws, size={"min": 200_000})) == ["Huge.md"]
    assert search(ws, q="budget", size={"max": 10})["total"] == 0


def test_sorts(ws: Workspace) -> None:
    notes = {"vault": "notes", "include_paths": ["**"]}
    assert paths(search(ws, **notes, sort="modified"))[:3] == ["Projects/Plan.md", "Projects/Budget 2024.md", "Huge.md"]
    assert paths(search(ws, **notes, sort="modified"))[-1] == "Archive/Old plan.md"
    assert paths(search(ws, **notes, sort="created"))[-1] == "Archive/Old plan.md"
    assert paths(search(ws, **notes, sort="size"))[0] == "Huge.md"
    by_path = paths(search(ws, **notes))
    assert by_path == sorted(by_path, key=str.casefold) and "Attachments/pic.png" not in by_path  # notes only
    assert paths(search(ws, q="budget for the tidepool")) == ["Projects/Plan.md"]


def test_paging(ws: Workspace) -> None:
    first = search(ws, q="budget", vault="notes", limit=2)
    assert (first["total"], first["offset"], first["next_offset"], first["truncated"]) == (5, 0, 2, True)
    second = search(ws, q="budget", vault="notes", limit=2, offset=2)
    last = search(ws, q="budget", vault="notes", limit=2, offset=4)
    assert (last["next_offset"], last["truncated"], len(last["hits"])) == (None, False, 1)
    assert len(set(paths(first) + paths(second) + paths(last))) == 5
    assert search(ws, q="budget", offset=50)["hits"] == []


def test_whole_word_scan_when_the_index_matches_too_many(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    narrowed = search(ws, q="budget", whole_word=True, vault="notes")
    monkeypatch.setattr(adv, "MAX_INDEX_CANDIDATES", 2)  # too many index hits: every passing note is scanned
    assert search(ws, q="budget", whole_word=True, vault="notes") == narrowed


def test_partial_results_say_so(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(adv, "TIME_BUDGET_S", 0.0)
    late = search(ws, q="budget", regex=True)
    assert late["timed_out"] is True and late["total"] == 0 and "stopped after" in late["warning"]


# ------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"q": "("}, "invalid_regex"),
        ({"q": "[z-a]"}, "invalid_regex"),
        ({"q": "(a{1000}){1000}"}, "invalid_regex"),  # would take seconds to compile
        ({"q": "a{1000000}"}, "invalid_regex"),
        ({"q": "a)|(b", "whole_word": True}, "invalid_regex"),  # must not slot into the whole-word wrapper
    ],
)
def test_bad_regex(ws: Workspace, kw: dict, code: str) -> None:
    assert error_code(ws, regex=True, **kw) == code


def test_bounded_repeats_still_compile(ws: Workspace) -> None:
    assert search(ws, q=r"\d{4}-\d{2}-\d{2}|.{0,200}budget.{0,200}|[{}]{2}", regex=True)["total"] >= 1


@pytest.mark.parametrize(
    "globs",
    [
        ["*.md"] * (search_args.MAX_GLOBS + 1),
        ["a" * (search_args.MAX_GLOB_CHARS + 1)],
        ["{a,b}" * 12],  # 4096 expansions
        ["{" * 50 + "a,b" + "}" * 50 + "{c,d}" * 9],
        [""],
        "Projects/**",  # a string, not a list
    ],
)
def test_hostile_globs_are_refused(ws: Workspace, globs) -> None:
    assert error_code(ws, q="budget", include_paths=globs) == "invalid_glob"
    assert error_code(ws, q="budget", exclude_paths=globs) == "invalid_glob"


def test_backtracking_glob_is_fast(ws: Workspace) -> None:
    started = time.monotonic()
    out = search(ws, q="budget", include_paths=["*a" * 60 + "*z", "**/" * 40 + "x"])
    assert out["total"] == 0 and time.monotonic() - started < 5


@pytest.mark.parametrize(
    "kw",
    [
        {"q": ""},
        {"q": "", "regex": True, "tag": "project"},
        {"q": "x" * 501},
        {"q": "x", "sort": "random"},
        {"q": "x", "limit": 0},
        {"q": "x", "offset": 10_001},
        {"q": "x", "modified": {"after": "2024-13-01"}},
        {"q": "x", "created": {"before": "yesterday"}},
        {"q": "x", "created": {"after": "2024-05-02", "before": "2024-05-01"}},
        {"q": "x", "created": {"since": "2024-05-01"}},
        {"q": "x", "size": {"min": 10, "max": 5}},
        {"q": "x", "size": {"min": -1}},
        {"q": "x", "size": {"min": "big"}},
    ],
)
def test_bad_arguments(ws: Workspace, kw: dict) -> None:
    assert error_code(ws, **kw) == "invalid_argument"


# ------------------------------------------------------------------------------------------- permissions and the tool


def test_vault_permissions(ws: Workspace) -> None:
    assert "other" in {h["vault"] for h in search(ws, q="budget")["hits"]}
    limited = search(ws, ["notes"], q="budget")
    assert {h["vault"] for h in limited["hits"]} == {"notes"}
    assert search(ws, ["notes"], q="other vault")["total"] == 0
    assert search(ws, ["notes"], q="other", regex=True)["total"] == 0
    # a vault outside the caller's grants is refused by the tool layer (vault_access_denied): test_the_tool


def test_the_tool(ws: Workspace, tmp_path: Path) -> None:
    runtime = ToolRuntime(workspace=ws)

    def call(principal: Principal, args: dict) -> dict:
        return anyio.run(call_tool, ToolContext(principal, runtime, mode="mcp"), "search_advanced", args)

    out = call(
        ANONYMOUS,
        {"q": "budget", "include_paths": ["Projects/**"], "modified": {"after": "2021-01-01"}, "size": {"min": 1}},
    )
    assert sorted(paths(out)) == ["Projects/Budget 2024.md", "Projects/Plan.md"]
    assert set(out["hits"][0]) == {
        "vault",
        "path",
        "title",
        "snippet",
        "matches",
        "size",
        "modified",
        "created",
        "tags",
    }
    alice = Principal(name="alice", is_admin=False, vaults=frozenset({"notes"}), auth_kind="jwt")
    assert {h["vault"] for h in call(alice, {"q": "budget"})["hits"]} == {"notes"}
    for principal, args, code in [
        (alice, {"q": "budget", "vault": "other"}, "vault_access_denied"),
        (ANONYMOUS, {"q": "(", "regex": True}, "invalid_regex"),
        (ANONYMOUS, {"q": "x", "created": {"after": "2024-05-01", "until": "x"}}, "invalid_argument"),
        (ANONYMOUS, {"q": "x", "include_paths": ["*"] * 21}, "invalid_argument"),
        (ANONYMOUS, {"q": "x", "include_paths": ["{a,b}" * 12]}, "invalid_glob"),
        (ANONYMOUS, {"q": "x", "modified": {"before": "not a date"}}, "invalid_argument"),
    ]:
        with pytest.raises(ServiceError) as info:
            call(principal, args)
        assert info.value.code == code, args
