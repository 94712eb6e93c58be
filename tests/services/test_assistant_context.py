"""The assistant's context service over a real vault on disk and a real index: modes, @-mentions, caps and
their reports, redaction, hidden files, the path guard and the mtime cache."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import SMALL_VAULT, write_tree

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.vault import Vault
from obsigate.services import assistant_context as ac
from obsigate.services.assistant_context import ContextCache, collect_context
from obsigate.services.errors import BadRequest, NotFound, PathOutsideVault
from obsigate.services.workspace import Limits, Workspace

TEXT_FILES = ["Home.md", "Ideas.md", "Projects/Plan.md", "Projects/Secret.md"]


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    root = write_tree(
        tmp_path / "vault", {**SMALL_VAULT, "Projects/Sub/Deep.md": "# Deep\n", "Projects/.hidden.md": "x"}
    )
    vaults = {"notes": Vault("notes", root.resolve())}
    index = VaultIndex(tmp_path / "index.sqlite3")
    Indexer(index, vaults).refresh_all()
    yield Workspace(vaults=vaults, index=index)
    index.close()


def vault(ws: Workspace) -> Vault:
    return ws.vaults["notes"]


def with_limits(ws: Workspace, **caps: int) -> Workspace:
    return dataclasses.replace(ws, limits=dataclasses.replace(Limits(), **caps))


def test_directory_mode_reads_the_text_files_of_the_folder_and_draws_its_tree(ws: Workspace) -> None:
    c = collect_context(ws, vault(ws), mode="directory", cache=ContextCache())
    assert [f.path for f in c.files] == [
        *TEXT_FILES[:2],
        "Projects/Plan.md",
        "Projects/Secret.md",
        "Projects/Sub/Deep.md",
    ]
    assert [(s.path, s.reason) for s in c.skipped] == [("Attachments/pic.png", "not_text")]
    assert c.tree == (
        "notes/\n  Attachments/\n    pic.png\n  Home.md\n  Ideas.md\n  Projects/\n    Plan.md\n    Secret.md\n"
        "    Sub/\n      Deep.md"
    )
    assert c.total_chars == sum(f.chars for f in c.files) and not c.truncated
    assert c.limits == {"max_files": 200, "max_total_chars": 200_000, "max_file_chars": 30_000}
    home = (vault(ws).root / "Home.md").read_text()
    assert c.files[0].content == home and c.files[0].chars == len(home) == c.files[0].full_chars

    sub = collect_context(ws, vault(ws), mode="directory", directory="Projects", cache=ContextCache())
    assert [f.path for f in sub.files] == ["Projects/Plan.md", "Projects/Secret.md", "Projects/Sub/Deep.md"]
    assert sub.directory == "Projects" and sub.tree == "Projects/\n  Plan.md\n  Secret.md\n  Sub/\n    Deep.md"


def test_hidden_entries_never_enter_the_context(ws: Workspace) -> None:
    c = collect_context(ws, vault(ws), mode="directory", extra_directories=["Projects"], cache=ContextCache())
    text = str(c.to_dict())
    assert ".obsidian" not in text and ".trash" not in text and ".hidden" not in text and "Old tidepool" not in text
    for hidden in (".obsidian/app.json", "Projects/.hidden.md", ".trash/Old.md"):
        with pytest.raises(PathOutsideVault):
            collect_context(ws, vault(ws), mode="files", files=[hidden], cache=ContextCache())
    with pytest.raises(PathOutsideVault):
        collect_context(ws, vault(ws), mode="directory", directory=".obsidian", cache=ContextCache())


def test_files_mode_reads_exactly_the_files_named_in_order(ws: Workspace) -> None:
    c = collect_context(ws, vault(ws), mode="files", files=["Projects/Plan.md", "Home.md"], cache=ContextCache())
    assert [f.path for f in c.files] == ["Projects/Plan.md", "Home.md"] and c.tree is None and c.skipped == []


def test_general_mode_has_no_files_only_the_vaults_and_the_top_level_tree(ws: Workspace) -> None:
    bare = collect_context(ws, None, mode="general", vaults=["notes", "other"])
    assert bare.files == [] and bare.tree is None and bare.vaults == ["notes", "other"] and bare.vault is None
    c = collect_context(ws, vault(ws), mode="general", vaults=["notes"], cache=ContextCache())
    assert c.files == [] and c.tree == "notes/\n  Attachments/ (1 file)\n  Projects/ (3 files)\n  Home.md\n  Ideas.md"


def test_mentions_merge_into_any_mode_once_each_named_files_first(ws: Workspace) -> None:
    c = collect_context(
        ws, vault(ws), mode="directory", directory="Projects/Sub",
        extra_files=["Ideas.md", "Projects/Sub/Deep.md", "Ideas.md"], extra_directories=["Projects", "Projects/Sub"],
        cache=ContextCache(),
    )  # fmt: skip
    assert [f.path for f in c.files] == ["Ideas.md", "Projects/Sub/Deep.md", "Projects/Plan.md", "Projects/Secret.md"]
    g = collect_context(ws, vault(ws), mode="general", extra_files=["Home.md"], cache=ContextCache())
    assert [f.path for f in g.files] == ["Home.md"] and g.tree is not None
    f = collect_context(
        ws, vault(ws), mode="files", files=["Home.md"], extra_files=["./Home.md", "Ideas.md"], cache=ContextCache()
    )
    assert [x.path for x in f.files] == ["Home.md", "Ideas.md"]


def test_missing_mentions_are_skipped_but_a_missing_folder_of_directory_mode_is_an_error(ws: Workspace) -> None:
    c = collect_context(
        ws, vault(ws), mode="files", files=["Home.md", "Gone.md", "Projects", "Attachments/pic.png"],
        extra_directories=["Nowhere"], cache=ContextCache(),
    )  # fmt: skip
    assert [f.path for f in c.files] == ["Home.md"]
    assert {(s.path, s.reason) for s in c.skipped} == {
        ("Gone.md", "not_found"), ("Projects", "is_a_directory"), ("Attachments/pic.png", "not_text"), ("Nowhere", "not_found")
    }  # fmt: skip
    assert not c.truncated  # nothing was cut by a cap
    with pytest.raises(NotFound):
        collect_context(ws, vault(ws), mode="directory", directory="Nowhere", cache=ContextCache())


@pytest.mark.parametrize("bad", ["../outside.md", "/etc/passwd", "Projects/../../x.md", "a\\b.md"])
def test_paths_leaving_the_vault_are_refused_before_anything_is_read(ws: Workspace, bad: str) -> None:
    cache = ContextCache()
    for kwargs in ({"mode": "files", "files": ["Home.md", bad]}, {"mode": "general", "extra_files": [bad]},
                   {"mode": "directory", "extra_directories": [bad]}):  # fmt: skip
        with pytest.raises(PathOutsideVault):
            collect_context(ws, vault(ws), cache=cache, **kwargs)
    assert cache.hits == cache.misses == 0  # refused first: no file was read


def test_a_symlink_out_of_the_vault_is_refused(ws: Workspace, tmp_path: Path) -> None:
    (tmp_path / "outside.md").write_text("api secret outside\n")
    os.symlink(tmp_path / "outside.md", vault(ws).root / "Link.md")
    c = collect_context(ws, vault(ws), mode="files", files=["Link.md", "Home.md"], cache=ContextCache())
    assert [f.path for f in c.files] == ["Home.md"]
    assert [(s.path, s.reason) for s in c.skipped] == [("Link.md", "path_outside_vault")]
    assert "api secret outside" not in repr(c)


def test_secrets_are_redacted(ws: Workspace) -> None:
    c = collect_context(ws, vault(ws), mode="files", files=["Projects/Secret.md"], cache=ContextCache())
    assert "sk-proj-abcdefghij" not in c.files[0].content and "[REDACTED:openai-api-key]" in c.files[0].content


def test_bad_arguments(ws: Workspace) -> None:
    for kwargs in ({"mode": "chat"}, {"mode": "files"}, {"mode": "general", "directory": "Projects"},
                   {"mode": "directory", "files": ["Home.md"]}):  # fmt: skip
        with pytest.raises(BadRequest) as err:
            collect_context(ws, vault(ws), cache=ContextCache(), **kwargs)
        assert err.value.code == "invalid_argument"
    with pytest.raises(BadRequest):
        collect_context(ws, None, mode="general", extra_files=["Home.md"])


def test_a_file_over_the_per_file_cap_is_cut_with_a_marker(ws: Workspace) -> None:
    small = with_limits(ws, context_max_file_chars=20)
    c = collect_context(small, vault(ws), mode="files", files=["Home.md", "Projects/Sub/Deep.md"], cache=ContextCache())
    home, deep = c.files
    full = (vault(ws).root / "Home.md").read_text()
    assert home.truncated and home.chars == 20 and home.full_chars == len(full)
    assert home.content == full[:20] + f"\n[... truncated: 20 of {len(full)} characters shown]"
    assert not deep.truncated and deep.content == "# Deep\n"
    assert c.truncated and c.total_chars == 20 + 7


def test_the_total_cap_cuts_the_file_that_reaches_it_and_skips_the_rest(ws: Workspace) -> None:
    home = len((vault(ws).root / "Home.md").read_text())
    capped = with_limits(ws, context_max_total_chars=home + 10)
    c = collect_context(
        capped, vault(ws), mode="files", files=["Home.md", "Ideas.md", "Projects/Plan.md"], cache=ContextCache()
    )
    assert [(f.path, f.chars, f.truncated) for f in c.files] == [("Home.md", home, False), ("Ideas.md", 10, True)]
    assert [(s.path, s.reason) for s in c.skipped] == [("Projects/Plan.md", "total_chars")]
    assert c.total_chars == home + 10 and c.truncated


def test_the_file_count_cap_skips_the_rest_and_says_so(ws: Workspace) -> None:
    c = collect_context(with_limits(ws, context_max_files=2), vault(ws), mode="directory", cache=ContextCache())
    assert [f.path for f in c.files] == ["Home.md", "Ideas.md"] and c.truncated
    assert [(s.path, s.reason) for s in c.skipped] == [
        ("Attachments/pic.png", "not_text"), ("Projects/Plan.md", "too_many_files"),
        ("Projects/Secret.md", "too_many_files"), ("Projects/Sub/Deep.md", "too_many_files"),
    ]  # fmt: skip


def test_big_folders_bound_the_tree_and_the_skipped_list(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "big", {f"n/{i:04d}.md": "x" for i in range(600)})
    vaults = {"big": Vault("big", root.resolve())}
    index = VaultIndex(tmp_path / "big.sqlite3")
    try:
        Indexer(index, vaults).refresh_all()
        ws = Workspace(vaults=vaults, index=index)
        c = collect_context(ws, vaults["big"], mode="directory", cache=ContextCache())
    finally:
        index.close()
    assert len(c.files) == 200 and c.truncated
    assert len(c.skipped) == ac.MAX_SKIPPED_LISTED and c.skipped_more == 400 - ac.MAX_SKIPPED_LISTED
    lines = c.tree.splitlines()
    assert len(lines) == ac.TREE_MAX_LINES and lines[-1] == f"  ... {600 - (ac.TREE_MAX_LINES - 3)} more files"


def test_the_cache_serves_unchanged_files_and_rereads_changed_ones(ws: Workspace) -> None:
    cache = ContextCache()
    first = collect_context(ws, vault(ws), mode="files", files=["Home.md", "Ideas.md"], cache=cache)
    assert (cache.hits, cache.misses) == (0, 2)
    again = collect_context(ws, vault(ws), mode="files", files=["Home.md", "Ideas.md"], cache=cache)
    assert (cache.hits, cache.misses) == (2, 2) and again.files == first.files

    path = vault(ws).root / "Ideas.md"
    st = path.stat()
    path.write_text("# Ideas\n\nchanged, password = hunter2hunter2\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))  # a new mtime even on a coarse clock
    changed = collect_context(ws, vault(ws), mode="files", files=["Home.md", "Ideas.md"], cache=cache)
    assert (cache.hits, cache.misses) == (3, 3)
    assert "changed" in changed.files[1].content and "hunter2hunter2" not in changed.files[1].content


def test_cache_entries_expire_and_are_bounded(ws: Workspace) -> None:
    now = [0.0]
    cache = ContextCache(ttl_s=300, max_entries=2, clock=lambda: now[0])
    collect_context(ws, vault(ws), mode="files", files=["Home.md"], cache=cache)
    now[0] = 299.0
    collect_context(ws, vault(ws), mode="files", files=["Home.md"], cache=cache)
    assert (cache.hits, cache.misses) == (1, 1)
    now[0] = 301.0
    collect_context(ws, vault(ws), mode="files", files=["Home.md"], cache=cache)
    assert (cache.hits, cache.misses) == (1, 2)
    collect_context(ws, vault(ws), mode="files", files=["Ideas.md", "Projects/Plan.md", "Home.md"], cache=cache)
    assert cache.misses == 5 and len(cache._entries) == 2  # the least recently used entries were dropped


def test_the_cache_is_shared_safely_between_threads(ws: Workspace) -> None:
    from concurrent.futures import ThreadPoolExecutor

    cache = ContextCache(max_entries=3)  # smaller than the files read: evictions race with reads
    paths = [*TEXT_FILES, "Projects/Sub/Deep.md"]

    def one(_: int) -> list[str]:
        return [f.content for f in collect_context(ws, vault(ws), mode="files", files=paths, cache=cache).files]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(one, range(40)))
    assert all(r == results[0] for r in results) and len(results[0]) == 5
    assert cache.hits + cache.misses == 40 * 5 and len(cache._entries) <= 3
