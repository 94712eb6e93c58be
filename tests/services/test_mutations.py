"""services.mutations on real vault folders, a real index and a real backup store."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from support import write_tree

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.storage.backups import BackupStore
from obsigate.domain.vault import Vault
from obsigate.services import mutation_exec
from obsigate.services import mutations as m
from obsigate.services.errors import ServiceError
from obsigate.services.workspace import Workspace

NOTES = {
    "Home.md": "---\ntitle: Home: the start\n---\n# Home\nSee [[Plan]] and [the plan](Projects/Plan.md).\n",
    "Projects/Plan.md": "# Plan\n## Budget\nsmall\n\n## Risks\nnone\n",
    "Projects/C++ (draft) v1.2.md": "links [[Plan#Budget|budget]] and ![[pic.png]]\n",
    "Daily/2024-05-01.md": "cost: 10 USD\n",
    "pic.png": b"\x89PNG\r\n\x1a\n",
}


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    root = write_tree(tmp_path / "v", NOTES)
    vaults = {"v": Vault("v", root), "ro": Vault("ro", write_tree(tmp_path / "ro", {"a.md": "x\n"}), read_only=True)}
    index = VaultIndex(tmp_path / "index.sqlite3")
    indexer = Indexer(index, vaults)
    indexer.refresh_all()
    yield Workspace(vaults=vaults, index=index, indexer=indexer, backups=BackupStore(tmp_path / "backups"))
    index.close()


def apply(ws: Workspace, op: str, **args: object) -> dict:
    """Apply the planner of write tool ``op``; the result as the REST/MCP result shows it."""
    return m.apply(ws, getattr(m, f"plan_{op}"), ws.get_vault("v", None), **args).model_dump(exclude_none=True)


def propose(ws: Workspace, op: str, **args: object) -> SimpleNamespace:
    """Propose write tool ``op``'s change; ``diffs`` as the propose_ result shows them, and ``reads``."""
    change = m.propose(ws, getattr(m, f"plan_{op}"), ws.get_vault("v", None), **args)
    return SimpleNamespace(diffs=[f.model_dump() for f in change.changes], reads=change.reads)


def code_of(ws: Workspace, op: str, vault: str = "v", **args: object) -> str:
    with pytest.raises(ServiceError) as info:
        m.apply(ws, getattr(m, f"plan_{op}"), ws.get_vault(vault, None), **args)
    return info.value.code


def read(ws: Workspace, rel: str) -> bytes:
    return (ws.vaults["v"].root / rel).read_bytes()


def test_create_never_overwrites_and_makes_folders(ws: Workspace) -> None:
    out = apply(ws, "create_file", path="New/Deep/Idea.md", content="# Idea\nnarwhal\n")
    assert out["changes"] == [{"path": "New/Deep/Idea.md", "action": "create"}] and out["backups"] == []
    assert read(ws, "New/Deep/Idea.md") == b"# Idea\nnarwhal\n"
    assert [h.path for h in ws.index.search("narwhal", vaults=["v"]).hits] == ["New/Deep/Idea.md"]  # indexed at once
    assert code_of(ws, "create_file", path="Home.md", content="x") == "exists"
    assert read(ws, "Home.md").startswith(b"---\ntitle")


def test_two_parallel_creates_one_wins(ws: Workspace) -> None:
    results: list[str] = []

    def create(text: str) -> None:
        try:
            apply(ws, "create_file", path="race.md", content=text)
            results.append("ok")
        except ServiceError as exc:
            results.append(exc.code)

    threads = [threading.Thread(target=create, args=(t,)) for t in ("first\n", "second\n")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["exists", "ok"]
    assert read(ws, "race.md") in (b"first\n", b"second\n")


def test_ten_parallel_appends_all_land(ws: Workspace) -> None:
    threads = [
        threading.Thread(target=apply, args=(ws, "append_to_file"), kwargs={"path": "log.md", "content": f"line {i}\n"})
        for i in range(10)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = read(ws, "log.md").decode().splitlines()
    assert sorted(lines) == sorted(f"line {i}" for i in range(10))


def test_edit_forms_keep_the_rest_byte_for_byte(ws: Workspace) -> None:
    apply(ws, "edit_file", path="Home.md", find="See [[Plan]]", replace="Read [[Plan]]")
    assert (
        read(ws, "Home.md")
        == b"---\ntitle: Home: the start\n---\n# Home\nRead [[Plan]] and [the plan](Projects/Plan.md).\n"
    )
    apply(ws, "edit_file", path="Projects/Plan.md", heading="## Budget", content="large\n")
    assert read(ws, "Projects/Plan.md") == b"# Plan\n## Budget\nlarge\n\n## Risks\nnone\n"
    out = apply(ws, "edit_file", path="Daily/2024-05-01.md", find="10", replace="$1 \\1 $&")
    assert read(ws, "Daily/2024-05-01.md") == b"cost: $1 \\1 $& USD\n" and len(out["backups"]) == 1
    assert (
        code_of(ws, "edit_file", path="Daily/2024-05-01.md", find="U", replace="u", expected_count=2)
        == "count_mismatch"
    )
    assert code_of(ws, "edit_file", path="Nope.md", content="x") == "not_found"
    assert code_of(ws, "edit_file", path="pic.png", content="x") == "not_text"


def test_crlf_bom_note_round_trips_except_the_edit(ws: Workspace) -> None:
    raw = "\ufeff# T\r\nalpha\r\nbeta\r\n".encode()
    (ws.vaults["v"].root / "crlf.md").write_bytes(raw)
    apply(ws, "edit_file", path="crlf.md", find="alpha", replace="ALPHA\nmore")
    assert read(ws, "crlf.md") == "\ufeff# T\r\nALPHA\r\nmore\r\nbeta\r\n".encode()


def test_conflict_when_the_file_changed_after_the_proposal(ws: Workspace) -> None:
    proposal = propose(ws, "edit_file", path="Home.md", content="mine\n")
    assert "-See [[Plan]]" in proposal.diffs[0]["diff"] and "+mine" in proposal.diffs[0]["diff"]
    (ws.vaults["v"].root / "Home.md").write_text("edited elsewhere\n")
    with pytest.raises(ServiceError) as info:
        apply(ws, "edit_file", path="Home.md", content="mine\n", expected=proposal.reads)
    assert info.value.code == "conflict" and read(ws, "Home.md") == b"edited elsewhere\n"


def test_delete_keeps_a_backup_that_restores(ws: Workspace) -> None:
    out = apply(ws, "delete_file", path="Projects/Plan.md")
    assert not (ws.vaults["v"].root / "Projects/Plan.md").exists()
    assert out["details"]["backlinks"] == 2 and out["backups"][0]["path"] == "Projects/Plan.md"
    assert ws.index.search("risks", vaults=["v"]).total == 0
    apply(ws, "restore_backup", path="Projects/Plan.md", version=out["backups"][0]["version"])
    assert read(ws, "Projects/Plan.md") == NOTES["Projects/Plan.md"].encode()


def test_delete_directory_needs_recursive_and_backs_everything_up(ws: Workspace) -> None:
    assert code_of(ws, "delete_directory", path="Projects") == "directory_not_empty"
    (ws.vaults["v"].root / "Projects/.hidden").write_text("not served, so not deleted blindly\n")
    assert code_of(ws, "delete_directory", path="Projects", recursive=True) == "hidden_entries"
    (ws.vaults["v"].root / "Projects/.hidden").unlink()
    undecodable = ws.vaults["v"].root / "Projects" / os.fsdecode(b"na\xffme.md")  # never listed: never deleted unseen
    undecodable.write_text("x")
    assert code_of(ws, "delete_directory", path="Projects", recursive=True) == "hidden_entries"
    undecodable.unlink()
    out = apply(ws, "delete_directory", path="Projects", recursive=True)
    assert not (ws.vaults["v"].root / "Projects").exists()
    assert {b["path"] for b in out["backups"]} == {"Projects/Plan.md", "Projects/C++ (draft) v1.2.md"}


def test_rename_rewrites_every_inbound_link(ws: Workspace) -> None:
    out = apply(ws, "rename_file", path="Projects/Plan.md", new_name="Roadmap")
    root = ws.vaults["v"].root
    assert (root / "Projects/Roadmap.md").exists() and not (root / "Projects/Plan.md").exists()
    home = read(ws, "Home.md").decode()
    assert "[[Roadmap]]" in home and "(Projects/Roadmap.md)" in home
    assert "[[Roadmap#Budget|budget]]" in read(ws, "Projects/C++ (draft) v1.2.md").decode()
    assert out["details"]["links_total"] == 3 and set(out["details"]["links_updated"]) == {
        "Home.md",
        "Projects/C++ (draft) v1.2.md",
    }
    sources = {b.path for b in ws.index.backlinks("v", "Projects/Roadmap.md")[0]}
    assert sources == {"Home.md", "Projects/C++ (draft) v1.2.md"}


def test_move_and_rename_a_folder_keep_links(ws: Workspace) -> None:
    apply(ws, "create_directory", path="Archive")
    apply(ws, "move_path", source_path="Projects/C++ (draft) v1.2.md", destination_dir="Archive")
    moved = read(ws, "Archive/C++ (draft) v1.2.md").decode()
    assert "[[Plan#Budget|budget]]" in moved  # still resolves: Plan is unique
    apply(ws, "rename_directory", path="Projects", new_name="Work")
    assert "(Work/Plan.md)" in read(ws, "Home.md").decode()
    assert {b.path for b in ws.index.backlinks("v", "Work/Plan.md")[0]} == {"Home.md", "Archive/C++ (draft) v1.2.md"}
    assert code_of(ws, "move_path", source_path="Work", destination_dir="Work") == "invalid_argument"


def test_replace_in_files_literal_dry_run_and_counts(ws: Workspace) -> None:
    dry = apply(ws, "replace_in_files", find="plan", replace="$0", dry_run=True)
    assert dry["details"]["files"] == {"Home.md": 3, "Projects/C++ (draft) v1.2.md": 1, "Projects/Plan.md": 1}
    assert read(ws, "Home.md") == NOTES["Home.md"].encode()
    out = apply(
        ws,
        "replace_in_files",
        find="Plan",
        replace="$0",
        case_sensitive=True,
        whole_word=True,
        include_paths=["Home.md"],
    )
    assert out["details"]["total"] == 2 and b"[[$0]] and [the plan](Projects/$0.md)" in read(ws, "Home.md")


def test_read_only_vault_refuses_and_a_failed_step_rolls_back(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    assert code_of(ws, "create_file", vault="ro", path="b.md", content="x") == "vault_read_only"
    real = mutation_exec.vault_fs.write_file
    calls = {"n": 0}

    def failing(root: Path, rel: str, data: bytes, *, exclusive: bool = False) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("disk full")
        real(root, rel, data, exclusive=exclusive)

    monkeypatch.setattr(mutation_exec.vault_fs, "write_file", failing)
    with pytest.raises(ServiceError) as info:  # the disk's refusal is a catalogued answer, never a 500
        apply(ws, "rename_file", path="Projects/Plan.md", new_name="Roadmap")
    assert (info.value.code, info.value.http_status, info.value.details) == ("write_failed", 503, {})
    root = ws.vaults["v"].root
    assert (root / "Projects/Plan.md").exists() and not (root / "Projects/Roadmap.md").exists()
    assert read(ws, "Home.md") == NOTES["Home.md"].encode()
    assert read(ws, "Projects/C++ (draft) v1.2.md") == NOTES["Projects/C++ (draft) v1.2.md"].encode()


TASKS = Path(__file__).resolve().parents[2].parent / "shared" / "vaults" / "obsidian-tasks-docs"


@pytest.mark.skipif(not TASKS.is_dir(), reason="shared vaults not present")
def test_renaming_in_a_copy_of_tasks_docs_leaves_every_link_resolving(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "tasks"
    shutil.copytree(TASKS, root, ignore=shutil.ignore_patterns(".*"))
    vaults = {"t": Vault("t", root)}
    index = VaultIndex(tmp_path / "index.sqlite3")
    try:
        indexer = Indexer(index, vaults)
        indexer.refresh_all()
        ws = Workspace(vaults=vaults, index=index, indexer=indexer, backups=BackupStore(tmp_path / "backups"))

        def link_map() -> dict[tuple[str, int, str], str | None]:
            return {
                (r.path, i, o.target): o.resolved
                for r in index.file_records("t")
                if r.note
                for i, o in enumerate(index.outgoing_links("t", r.path))
            }

        # the most linked note, and a folder full of images
        target = max((r.path for r in index.file_records("t") if r.note), key=lambda p: index.backlinks("t", p)[1])
        before_sources = {b.path for b in index.backlinks("t", target, limit=1000)[0]}
        unresolved_before = sum(v is None for v in link_map().values())
        t = ws.get_vault("t", None)
        out = m.apply(ws, m.plan_rename_file, t, path=target, new_name="Renamed (C++ draft) v1.2").model_dump()
        new = (
            target.rsplit("/", 1)[0] + "/Renamed (C++ draft) v1.2.md"
            if "/" in target
            else "Renamed (C++ draft) v1.2.md"
        )
        assert out["details"]["links_total"] >= 20
        assert {b.path for b in index.backlinks("t", new, limit=1000)[0]} == before_sources
        m.apply(ws, m.plan_rename_directory, t, path="images", new_name="pictures")
        indexer.refresh_all()  # and a full rescan agrees with what the writes indexed
        assert sum(v is None for v in link_map().values()) == unresolved_before
        assert {b.path for b in index.backlinks("t", new, limit=1000)[0]} == before_sources
    finally:
        index.close()


SECRET_NOTE = (
    'intro\napi_key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH"\npassword: Hunter2Secret!x\n## Keys\nold\n'
)


def test_an_edit_of_the_redacted_text_never_writes_markers_over_secrets(ws: Workspace) -> None:
    from obsigate.domain.redaction import redact_text

    (ws.vaults["v"].root / "keys.md").write_text(SECRET_NOTE)
    shown = redact_text(SECRET_NOTE)  # what read_file_raw gave the agent
    proposal = propose(ws, "edit_file", path="keys.md", content=shown.replace("intro", "Intro"))
    assert "sk-proj" not in str(proposal.diffs) and "-intro" in proposal.diffs[0]["diff"]
    assert "-api_key" not in proposal.diffs[0]["diff"]  # the secret line is unchanged, and shown as such
    apply(ws, "edit_file", path="keys.md", content=shown.replace("intro", "Intro"))
    assert read(ws, "keys.md").decode() == SECRET_NOTE.replace("intro", "Intro")
    apply(ws, "edit_file", path="keys.md", heading="Keys", content="new\n")
    assert "Hunter2Secret!x" in read(ws, "keys.md").decode() and read(ws, "keys.md").endswith(b"## Keys\nnew\n")


def test_a_section_edit_puts_back_the_section_secrets_only_where_they_stay_hidden(ws: Workspace) -> None:
    """The heading path restores over the whole note: a marker of the section keeps its own secret, a marker
    glued to text or one that stands for nothing in the section is refused, and nothing is written."""
    from obsigate.domain.redaction import redact_text

    sk2 = "sk-proj-" + "Z9y8X7w6V5" * 4
    note = SECRET_NOTE + f"first: sk-proj-{'A' * 40}\nsecond: {sk2}\n"
    (ws.vaults["v"].root / "keys.md").write_text(note)
    section = redact_text(note).split("## Keys\n", 1)[1]  # what the agent read of the section
    apply(
        ws,
        "edit_file",
        path="keys.md",
        heading="Keys",
        content=section.replace("first: [REDACTED:openai-api-key]\n", ""),
    )
    assert read(ws, "keys.md").decode() == note.replace(f"first: sk-proj-{'A' * 40}\n", "")
    for bad in (
        "second: Zz[REDACTED:openai-api-key]\n",
        "second: [REDACTED:openai-api-key]\nthird: [REDACTED:openai-api-key]\n",
    ):
        with pytest.raises(ServiceError) as info:
            m.apply(
                ws, m.plan_edit_file, ws.get_vault("v", None), path="keys.md", heading="Keys", content="old\n" + bad
            )
        assert info.value.code == "secret_marker_altered" and info.value.details["rule"] == "openai-api-key"
        assert sk2 not in info.value.message
    assert read(ws, "keys.md").decode() == note.replace(f"first: sk-proj-{'A' * 40}\n", "")


def test_secrets_cannot_be_found_by_guessing(ws: Workspace) -> None:
    (ws.vaults["v"].root / "keys.md").write_text(SECRET_NOTE)
    assert code_of(ws, "edit_file", path="keys.md", find="Hunter2", replace="x") == "not_found"
    out = apply(
        ws, "replace_in_files", find=r"password: H", replace="x", regex=True, include_paths=["keys.md"], dry_run=True
    )
    assert out["details"]["total"] == 0
    out = apply(ws, "replace_in_files", find="sk-proj", replace="x", include_paths=["keys.md"])
    assert out["details"]["total"] == 0 and read(ws, "keys.md").decode() == SECRET_NOTE


def test_names_and_paths_that_cannot_work_are_refused_cleanly(ws: Workspace) -> None:
    assert code_of(ws, "create_file", path="Home.md/child.md", content="x") == "not_a_directory"
    assert code_of(ws, "create_directory", path="Home.md/sub") == "not_a_directory"
    assert code_of(ws, "create_file", path="folder/", content="x") == "invalid_argument"
    assert code_of(ws, "rename_file", path="Projects/Plan.md", new_name="Plan #1") == "unsafe_name"
    assert (ws.vaults["v"].root / "Projects/Plan.md").exists()


def test_a_heading_section_ends_at_the_next_heading_of_the_same_or_a_higher_level(ws: Workspace) -> None:
    """Issue 9 item 4: what edit_file's ``heading`` schema says (same *or higher*) is what it does."""
    from obsigate.tools.catalog.write import EditFileArgs

    assert "same or higher level" in (EditFileArgs.model_fields["heading"].description or "")
    (ws.vaults["v"].root / "levels.md").write_text("## A\na\n### Deeper\nd\n## B\nb\n")
    apply(ws, "edit_file", path="levels.md", heading="## A", content="new\n")  # the deeper heading is inside
    assert read(ws, "levels.md") == b"## A\nnew\n## B\nb\n"
    (ws.vaults["v"].root / "levels.md").write_text("## A\n### Deeper\nd\n# Top\nt\n")
    apply(ws, "edit_file", path="levels.md", heading="### Deeper", content="e\n")  # a higher heading ends it
    assert read(ws, "levels.md") == b"## A\n### Deeper\ne\n# Top\nt\n"


def test_an_apply_renders_no_diff_and_reads_each_rewritten_note_once_before_the_index(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rename that rewrites the notes linking to it: the apply computes no diff (a proposal shows them; the
    applied change drops them), and backs up the bytes its re-plan read under the lock instead of reading each
    note again; the index refresh is the only other read. The backups hold exactly the bytes before."""
    from obsigate.domain.storage import vault_fs

    diffs, reads = [], []
    real_diff, real_read = m.redacted_diff, vault_fs.read_file
    monkeypatch.setattr(m, "redacted_diff", lambda *a, **k: diffs.append(k["path"]) or real_diff(*a, **k))

    def counted(root: Path, rel: str, *a: object, **k: object) -> object:
        reads.append(rel)
        return real_read(root, rel, *a, **k)

    monkeypatch.setattr(vault_fs, "read_file", counted)
    before = {rel: read(ws, rel) for rel in ("Home.md", "Projects/C++ (draft) v1.2.md")}
    planned = propose(ws, "rename_file", path="Projects/Plan.md", new_name="Roadmap")
    assert sorted(diffs) == ["Home.md", "Projects/C++ (draft) v1.2.md"] and all("diff" in d for d in planned.diffs)
    diffs.clear(), reads.clear()

    done = apply(ws, "rename_file", path="Projects/Plan.md", new_name="Roadmap")
    assert diffs == [] and all("diff" not in c for c in done["changes"])
    for rel in before:  # the re-plan's read, then the index refresh's: none for the backup
        assert reads.count(rel) == 2, (rel, reads)
    saved = {b["path"]: ws.backups.read("v", b["path"], b["version"]) for b in done["backups"]}  # type: ignore[union-attr]
    assert {rel: saved[rel] for rel in before} == before
