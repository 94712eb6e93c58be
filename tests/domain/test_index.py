"""VaultIndex on a real SQLite file and a real tantivy index: ranking, snippets, hostile queries, tags,
diacritics, paging, deletes, persistence, crash recovery, concurrency."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from obsigate.domain.index.vault_index import IndexBusyError, SearchPage, TagCount, VaultIndex
from obsigate.domain.markdown.note import parse_note

HOSTILE = [
    "don't",
    "C++",
    "status: done",
    "a-b",
    '"unclosed',
    "NEAR",
    "AND",
    "OR",
    "NOT",
    "*",
    "^",
    "(",
    ")",
    "",
    "   ",
    "\t\n",
    "title:",
    "body:foo",
    "a AND",
    "+x -y",
    "~",
    "[1 TO 5]",
    "\\",
    '""',
    "x" * 5000,
    "{",
    "é*",
    "a\x00b",
    "<mark>",
    "\u200b",
    "🎉",
    "'",
    "-",
    "NEAR(a b)",
    "foo^2",
    "/regex/",
    "a:b:c",
    "((((",
    "*kube*",
]


@pytest.fixture
def ix(tmp_path: Path) -> Iterator[VaultIndex]:
    index = VaultIndex(tmp_path / "index.sqlite3", commit_interval=0.1)
    yield index
    index.close()


def add(ix: VaultIndex, path: str, text: str, vault: str = "v", mtime_ns: int = 1) -> None:
    ix.upsert_note(vault, path, text, parse_note(text), size=len(text.encode()), mtime_ns=mtime_ns)


def paths(page: SearchPage) -> list[str]:
    return [h.path for h in page.hits]


@pytest.fixture(params=["overlay", "committed"])
def mode(request: pytest.FixtureRequest) -> str:
    """Each search test runs twice: right after the writes (overlay) and after the full-text commit."""
    return request.param


def settle(ix: VaultIndex, mode: str) -> None:
    if mode == "committed":
        assert ix.flush()


def test_title_match_ranks_above_body_only(ix: VaultIndex, mode: str) -> None:
    add(ix, "notes/Kubernetes.md", "# Setup\nHow we run the cluster. Nothing else here, just some words.\n")
    add(ix, "body.md", "kubernetes kubernetes kubernetes is mentioned a lot in this body about kubernetes.\n")
    add(ix, "other.md", "nothing relevant\n")
    settle(ix, mode)
    page = ix.search("kubernetes", vaults=["v"])
    assert paths(page) == ["notes/Kubernetes.md", "body.md"] and page.total == 2
    assert page.hits[0].title == "Kubernetes" and page.hits[0].score > page.hits[1].score


def test_alias_and_heading_matches_count(ix: VaultIndex, mode: str) -> None:
    add(ix, "a.md", "---\naliases: [Quokka Plan]\n---\nplain text\n")
    add(ix, "b.md", "## Quokka habitat\nplain text\n")
    add(ix, "c.md", "a quokka appears once in a long body of text that goes on and on and on\n")
    settle(ix, mode)
    assert paths(ix.search("quokka", vaults=["v"])) == ["a.md", "b.md", "c.md"]


def test_snippet_has_marks_and_is_clipped(ix: VaultIndex, mode: str) -> None:
    filler = " ".join(f"word{i}" for i in range(3000))  # one huge line, ~27 KB
    add(ix, "huge.md", f"{filler} needle {filler}\n")
    add(ix, "short.md", "A <b>needle</b> & co.\n")
    settle(ix, mode)
    page = ix.search("NEEDLE", vaults=["v"])
    assert page.total == 2
    for hit in page.hits:
        assert "<mark>needle</mark>" in hit.snippet, hit
        assert len(hit.snippet) <= 260 and len(hit.snippet.split()) <= 45, hit.snippet
    huge = next(h for h in page.hits if h.path == "huge.md")
    assert huge.snippet.startswith("…") and huge.snippet.endswith("…")
    short = next(h for h in page.hits if h.path == "short.md")
    assert "<b>" in short.snippet and "&amp;" not in short.snippet  # plain text, not HTML-escaped


def test_snippet_without_body_match_is_the_start_of_the_body(ix: VaultIndex, mode: str) -> None:
    add(ix, "Zebra.md", "First line of the note.\nSecond line.\n")
    settle(ix, mode)
    [hit] = ix.search("zebra", vaults=["v"]).hits
    assert hit.snippet == "First line of the note. Second line."


@pytest.mark.parametrize("query", HOSTILE)
def test_hostile_queries_never_raise(ix: VaultIndex, query: str) -> None:
    add(ix, "a.md", "don't stop C++ status: done a-b NEAR AND kubernetes 🎉\n")
    page = ix.search(query, vaults=["v"])
    assert isinstance(page, SearchPage) and page.total == len(page.hits) <= 1
    ix.flush()
    page = ix.search(query, vaults=["v"])
    assert page.total == len(page.hits) <= 1


def test_hostile_queries_are_terms(ix: VaultIndex, mode: str) -> None:
    add(ix, "a.md", "don't stop. Use C++ here. status: done. a-b testing. NEAR the AND gate.\n")
    add(ix, "b.md", "do not, a b c, status unknown\n")
    settle(ix, mode)
    for q, expected in [
        ("don't", ["a.md"]),
        ("status: done", ["a.md"]),
        ("a-b", ["a.md"]),  # phrase "a b": b.md has "a b c" too
        ("NEAR AND", ["a.md"]),
        ('"unclosed', []),
        ("", []),
        ("   ", []),
        ("*", []),
    ]:
        got = paths(ix.search(q, vaults=["v"]))
        if q == "a-b":
            assert "a.md" in got, q
        else:
            assert got == expected, q


def test_all_words_must_match(ix: VaultIndex, mode: str) -> None:
    add(ix, "both.md", "alpha and omega\n")
    add(ix, "one.md", "alpha only\n")
    settle(ix, mode)
    assert paths(ix.search("alpha omega", vaults=["v"])) == ["both.md"]
    assert ix.search("alpha zzzunknown", vaults=["v"]).total == 0


def test_diacritics_and_case_insensitive(ix: VaultIndex, mode: str) -> None:
    add(ix, "fr.md", "La procédure de déploiement. Straße.\n")
    add(ix, "en.md", "The PROCEDURE for deployment.\n")
    settle(ix, mode)
    assert sorted(paths(ix.search("procedure", vaults=["v"]))) == ["en.md", "fr.md"]
    assert sorted(paths(ix.search("Procédure", vaults=["v"]))) == ["en.md", "fr.md"]
    assert paths(ix.search("DEPLOIEMENT", vaults=["v"])) == ["fr.md"]
    assert paths(ix.search("strasse", vaults=["v"])) == ["fr.md"]
    hit = ix.search("deploiement", vaults=["v"]).hits[0]
    assert "<mark>déploiement</mark>" in hit.snippet
    nfd = "proce\u0301dure"  # decomposed input is normalised
    assert sorted(paths(ix.search(nfd, vaults=["v"]))) == ["en.md", "fr.md"]


def test_word_prefix(ix: VaultIndex, mode: str) -> None:
    add(ix, "k.md", "We deploy on kubernetes clusters.\n")
    add(ix, "exact.md", "kube is short for it.\n")
    settle(ix, mode)
    page = ix.search("kube", vaults=["v"])
    assert paths(page) == ["exact.md", "k.md"]  # the exact word ranks first
    assert "<mark>kubernetes</mark>" in page.hits[1].snippet
    assert ix.search("ku", vaults=["v"]).total == 0  # prefixes need 3 characters


def test_tag_filter_is_nested_and_case_insensitive(ix: VaultIndex, mode: str) -> None:
    add(ix, "ab.md", "report #Project/Alpha\n")
    add(ix, "a.md", "---\ntags: [project]\n---\nreport\n")
    add(ix, "other.md", "report #projectx #other/project\n")
    add(ix, "none.md", "report\n")
    settle(ix, mode)
    assert sorted(paths(ix.search("report", vaults=["v"], tag="project"))) == ["a.md", "ab.md"]
    assert paths(ix.search("report", vaults=["v"], tag="#PROJECT/alpha")) == ["ab.md"]
    assert paths(ix.search("report", vaults=["v"], tag="project/alp")) == []
    assert ix.search("report", vaults=["v"], tag="projectx").total == 1
    assert ix.search("report", vaults=["v"], tag="").total == 4  # blank = no filter
    assert ix.search("report", vaults=["v"], tag="project").hits[0].tags in (("Project/Alpha",), ("project",))


def test_limit_offset_total(ix: VaultIndex, mode: str) -> None:
    for i in range(30):
        add(ix, f"n{i:02d}.md", "shared word " + "pad " * i + "\n")
    add(ix, "x.md", "unrelated\n")
    settle(ix, mode)
    seen: list[str] = []
    for offset in range(0, 30, 7):
        page = ix.search("shared", vaults=["v"], limit=7, offset=offset)
        assert page.total == 30
        seen += paths(page)
    assert len(seen) == 30 and len(set(seen)) == 30
    assert ix.search("shared", vaults=["v"], limit=5, offset=40) == SearchPage([], 30)
    assert ix.search("shared", vaults=["v"], limit=0).total == 30
    with pytest.raises(ValueError):
        ix.search("shared", vaults=["v"], limit=-1)


def test_vault_scoping(ix: VaultIndex, mode: str) -> None:
    add(ix, "a.md", "common word", vault="one")
    add(ix, "b.md", "common word", vault="two")
    settle(ix, mode)
    assert ix.search("common", vaults=[]) == SearchPage([], 0)
    assert [(h.vault, h.path) for h in ix.search("common", vaults=["two"]).hits] == [("two", "b.md")]
    assert ix.search("common", vaults=["one", "two"]).total == 2
    assert ix.search("common", vaults=["three"]).total == 0


def test_update_replaces_and_delete_removes(ix: VaultIndex, mode: str) -> None:
    add(ix, "a.md", "old content alpha\n")
    add(ix, "b.md", "alpha too\n")
    settle(ix, mode)
    add(ix, "a.md", "new content beta\n", mtime_ns=2)
    assert paths(ix.search("alpha", vaults=["v"])) == ["b.md"]  # visible at once, before any commit
    assert paths(ix.search("beta", vaults=["v"])) == ["a.md"]
    ix.delete("v", "b.md")
    assert ix.search("alpha", vaults=["v"]).total == 0
    ix.delete("v", "missing.md")  # no-op
    ix.flush()
    assert ix.search("alpha", vaults=["v"]).total == 0 and paths(ix.search("beta", vaults=["v"])) == ["a.md"]
    assert ix.file_states("v") == {"a.md": (len("new content beta\n"), 2)}
    assert ix.note_count("v") == 1 and ix.note_count() == 1


def test_attachment_is_listed_not_searchable(ix: VaultIndex) -> None:
    add(ix, "doc.md", "findme #t\n")
    ix.upsert_file("v", "pic.png", size=10, mtime_ns=5)
    assert ix.search("findme", vaults=["v"]).total == 1
    ix.upsert_file("v", "doc.md", size=3, mtime_ns=6)  # e.g. the note became undecodable
    assert ix.search("findme", vaults=["v"]).total == 0
    ix.flush()
    assert ix.search("findme", vaults=["v"]).total == 0
    assert ix.file_states("v") == {"doc.md": (3, 6), "pic.png": (10, 5)}
    assert ix.note_count("v") == 0 and ix.file_count("v") == 2 and ix.list_tags(vaults=["v"]) == []


def test_list_tags_counts_nested_parents_once_per_note(ix: VaultIndex) -> None:
    add(ix, "1.md", "#work/meeting #Work/review #work\n")
    add(ix, "2.md", "---\ntags: [work/meeting]\n---\n#idea\n")
    add(ix, "3.md", "#WORK #idea", vault="w")
    assert ix.list_tags(vaults=["v"]) == [
        TagCount("work", 2),
        TagCount("work/meeting", 2),
        TagCount("idea", 1),
        TagCount("Work/review", 1),
    ]
    tags = {t.tag.lower(): t.count for t in ix.list_tags(vaults=["v", "w"])}
    assert tags["work"] == 3 and tags["idea"] == 2
    assert ix.list_tags(vaults=[]) == []
    hit = ix.search("work", vaults=["v"], tag="work/meeting", limit=5)
    assert sorted(paths(hit)) == ["1.md", "2.md"]


def test_diagnostics_replaced_on_reindex_and_removed_on_delete(ix: VaultIndex) -> None:
    add(ix, "a.md", "text")
    ix.record_diagnostic("v", "a.md", "invalid_frontmatter", "bad yaml")
    ix.record_diagnostic("v", "a.md", "invalid_frontmatter", "bad yaml again")
    ix.record_diagnostic("w", "b.md", "invalid_utf8", "byte 3")
    d = ix.diagnostics()
    assert [(x["vault"], x["path"], x["code"], x["message"]) for x in d] == [
        ("v", "a.md", "invalid_frontmatter", "bad yaml again"),
        ("w", "b.md", "invalid_utf8", "byte 3"),
    ]
    assert ix.diagnostic_count() == 2 and len(ix.diagnostics("w")) == 1 and len(ix.diagnostics(limit=1)) == 1
    add(ix, "a.md", "fixed")
    assert [x["path"] for x in ix.diagnostics()] == ["b.md"]
    ix.delete("w", "b.md")
    assert ix.diagnostics() == []


def test_delete_vault(ix: VaultIndex, mode: str) -> None:
    add(ix, "a.md", "gone soon #t", vault="old")
    add(ix, "a.md", "gone soon #t", vault="keep")
    settle(ix, mode)
    ix.delete_vault("old")
    assert [h.vault for h in ix.search("gone", vaults=["old", "keep"]).hits] == ["keep"]
    add(ix, "new.md", "gone soon again", vault="old")  # re-indexing the vault right after works
    assert [h.path for h in ix.search("gone", vaults=["old"]).hits] == ["new.md"]
    ix.flush()
    assert [h.path for h in ix.search("gone", vaults=["old"]).hits] == ["new.md"]
    assert ix.vault_names() == ["keep", "old"] and ix.file_states("old") == {"new.md": (15, 1)}


def test_batch_writes_become_visible_after_commit(ix: VaultIndex) -> None:
    with ix.batch():
        for i in range(300):
            add(ix, f"n{i}.md", f"batched note {i}\n")
    assert ix.flush()
    assert ix.search("batched", vaults=["v"]).total == 300 and ix.note_count() == 300


def test_persistence_across_reopen(tmp_path: Path) -> None:
    db = tmp_path / "data" / "index.sqlite3"
    ix = VaultIndex(db)
    add(ix, "Plan.md", "---\ntags: [p/q]\n---\nthe persistent plan\n")
    ix.upsert_file("v", "pic.png", size=4, mtime_ns=9)
    ix.record_diagnostic("v", "Plan.md", "invalid_frontmatter", "x")
    ix.close()
    ix.close()  # idempotent
    with pytest.raises(RuntimeError):
        ix.search("plan", vaults=["v"])
    ix = VaultIndex(db)
    try:
        page = ix.search("persistent", vaults=["v"])
        assert paths(page) == ["Plan.md"] and page.hits[0].tags == ("p/q",)
        size = len("---\ntags: [p/q]\n---\nthe persistent plan\n")
        assert ix.file_states("v") == {"Plan.md": (size, 1), "pic.png": (4, 9)}
        assert ix.list_tags(vaults=["v"]) == [TagCount("p", 1), TagCount("p/q", 1)]
        assert len(ix.diagnostics()) == 1
        assert (db.parent / "index.tantivy").is_dir()
    finally:
        ix.close()


def test_second_open_is_refused(tmp_path: Path) -> None:
    ix = VaultIndex(tmp_path / "index.sqlite3")
    try:
        with pytest.raises(IndexBusyError):
            VaultIndex(tmp_path / "index.sqlite3")
    finally:
        ix.close()


def test_lost_full_text_index_marks_notes_stale(tmp_path: Path) -> None:
    import shutil

    ix = VaultIndex(tmp_path / "index.sqlite3")
    add(ix, "a.md", "text")
    ix.upsert_file("v", "p.png", size=1, mtime_ns=1)
    ix.close()
    shutil.rmtree(tmp_path / "index.tantivy")
    ix = VaultIndex(tmp_path / "index.sqlite3")
    try:
        assert ix.file_states("v") == {"a.md": (-1, 1), "p.png": (1, 1)}  # the note will be re-indexed
    finally:
        ix.close()


CRASH = """
import os, sys
from pathlib import Path
from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.markdown.note import parse_note
ix = VaultIndex(Path(sys.argv[1]), commit_interval=3600)
text = "written just before a crash"
ix.upsert_note("v", "late.md", text, parse_note(text), size=len(text), mtime_ns=7)
assert ix.search("crash", vaults=["v"]).total == 1
os._exit(0)  # no close(): the full-text commit never happens
"""


def test_crash_before_full_text_commit_is_recovered(tmp_path: Path) -> None:
    db = tmp_path / "index.sqlite3"
    ix = VaultIndex(db)
    add(ix, "early.md", "committed long before")
    ix.close()
    subprocess.run([sys.executable, "-c", CRASH, str(db)], check=True, timeout=60)
    ix = VaultIndex(db)
    try:
        states = ix.file_states("v")
        assert states["late.md"] == (-1, 7) and states["early.md"][0] > 0  # late.md gets re-indexed
        assert ix.search("committed", vaults=["v"]).total == 1
    finally:
        ix.close()


def test_concurrent_searches_and_writes(ix: VaultIndex) -> None:
    errors: list[BaseException] = []
    stop = threading.Event()

    def reader() -> None:
        try:
            while not stop.is_set():
                page = ix.search("concurrent", vaults=["v"], limit=5)
                assert page.total >= len(page.hits)
                ix.list_tags(vaults=["v"])
        except BaseException as exc:  # noqa: BLE001 — any failure of the thread is reported below  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for i in range(200):
        add(ix, f"c{i % 50}.md", f"concurrent write {i} #t{i % 7}\n", mtime_ns=i)
    stop.set()
    for t in threads:
        t.join()
    assert not errors
    assert ix.search("concurrent", vaults=["v"]).total == 50
    ix.flush()
    assert ix.search("concurrent", vaults=["v"]).total == 50


def test_note_texts_see_committed_and_pending_writes(ix: VaultIndex, mode: str) -> None:
    add(ix, "a.md", "---\ntags: [Greek]\n---\nalpha body\n")
    add(ix, "b.md", "beta body\n")
    add(ix, "c.md", "gamma body\n")
    add(ix, "w.md", "other vault\n", vault="w")
    settle(ix, mode)
    add(ix, "b.md", "beta edited\n")  # pending in the overlay while a commit may be running
    ix.delete("v", "c.md")
    assert {p: (b, t) for p, b, t in ix.note_texts("v")} == {
        "a.md": ("alpha body\n", ("Greek",)),
        "b.md": ("beta edited\n", ()),
    }
    assert [p for p, _, _ in ix.note_texts("v", ["a.md", "c.md", "zz.md"])] == ["a.md"]
    assert list(ix.note_texts("v", [])) == []
    ix.flush()
    assert {p: b for p, b, _ in ix.note_texts("v")} == {"a.md": "alpha body\n", "b.md": "beta edited\n"}
    assert [p for p, _, _ in ix.note_texts("w")] == ["w.md"]
    ix.delete_vault("w")
    assert list(ix.note_texts("w")) == []
