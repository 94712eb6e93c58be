"""A start that recovers interrupted changes says what it did, one console line per change (issue 16 item 5):
which vault, which change, which paths were rolled back, which were kept and why. Here the interrupted changes
are journal entries left without their ``commit`` (what a killed process leaves, see
``domain/storage/journal.py``); ``tests/e2e/test_kill.py`` kills a real ``obsigate serve`` mid-change and reads
the restarted server's stderr."""

from __future__ import annotations

import hashlib
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from support import write_tree

from obsigate.bootstrap import build_runtime, recovery_line
from obsigate.config import load_settings
from obsigate.domain.storage.journal import ChangeJournal, Recovered


def interrupted_changes(vault: Path, data: Path) -> None:
    """Two changes cut short in vault ``notes``: a create whose file landed (rolled back at the next start),
    and an edit whose file someone changed afterwards, while the server was down (kept: their edit wins)."""
    journal = ChangeJournal(data)
    create = journal.begin("notes", "create_file")
    create.intend({"op": "write", "path": "Fresh.md", "after": hashlib.sha256(b"# Fresh\n").hexdigest()})
    (vault / "Fresh.md").write_bytes(b"# Fresh\n")
    edit = journal.begin("notes", "edit_file")
    old, ours = (vault / "Plan.md").read_bytes(), b"# Plan\nours\n"
    edit.intend({"op": "write", "path": "Plan.md", "before_sha256": hashlib.sha256(old).hexdigest(),
                 "after": hashlib.sha256(ours).hexdigest()})  # fmt: skip
    (vault / "Plan.md").write_bytes(ours)
    (vault / "Plan.md").write_bytes(b"# Plan\ntheirs, typed in Obsidian\n")


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "notes", {"Plan.md": "# Plan\n", "Home.md": "# Home\n"})


def test_the_start_logs_one_line_per_recovered_change(
    vault: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    interrupted_changes(vault, data)
    caplog.set_level(logging.INFO, logger="obsigate")
    runtime = build_runtime(load_settings(data_dir=data, vaults={"notes": {"path": str(vault)}}), data)
    runtime.workspace.index.close()
    assert not (vault / "Fresh.md").exists()  # rolled back
    assert (vault / "Plan.md").read_bytes() == b"# Plan\ntheirs, typed in Obsidian\n"  # kept
    lines = {r.getMessage(): r.levelno for r in caplog.records if r.name == "obsigate.startup"}
    assert lines == {
        "change recovery: vault 'notes': rolled back create_file (interrupted: the process stopped before it "
        "finished): Fresh.md": logging.INFO,
        "change recovery: vault 'notes': edit_file was interrupted (the process stopped before it finished); nothing "
        "rolled back; kept as they are, changed by someone else since (their edit wins): Plan.md": logging.WARNING,
    }
    caplog.clear()
    build_runtime(load_settings(data_dir=data, vaults={"notes": {"path": str(vault)}}), data).workspace.index.close()
    assert not [r for r in caplog.records if r.name == "obsigate.startup"]  # nothing left: a clean start is silent


def test_a_long_change_names_its_first_paths_and_how_many_more() -> None:
    change = Recovered("abc123", "notes", "replace_in_files", [f"Daily {i}.md" for i in range(25)] + ["Daily 0.md"])
    line = recovery_line(change)
    assert line.startswith("change recovery: vault 'notes': rolled back replace_in_files (interrupted")
    assert "Daily 9.md" in line and "Daily 10.md" not in line
    assert line.endswith("and 15 more (all in the tool journal, change abc123)")  # 25 distinct paths, 10 shown
    assert recovery_line(Recovered("x", "notes", "create_file", ["a\nb.md"])).endswith(": a\\nb.md")  # one line
    assert recovery_line(Recovered("y", "notes", "move_path", [])) == (
        "change recovery: vault 'notes': move_path was interrupted before its first step (the process stopped): "
        "nothing to put back"
    )
    assert recovery_line(Recovered("0f1e", "", "", [])) == (  # killed while writing the entry's first line
        "change recovery: journal entry 0f1e was cut before its first record: nothing to put back"
    )


def test_obsigate_prints_the_recovery_on_stderr(vault: Path, tmp_path: Path) -> None:
    """The command as a user runs it (``index rebuild`` runs the same start-up recovery as ``serve``)."""
    data = tmp_path / "data"
    interrupted_changes(vault, data)
    r = subprocess.run(
        [sys.executable, "-m", "obsigate", "index", "rebuild", "--vault", f"notes={vault}", "--data-dir", str(data)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    printed = [line for line in r.stderr.splitlines() if "change recovery:" in line]
    assert len(printed) == 2, r.stderr
    assert any(
        " INFO obsigate.startup: change recovery: vault 'notes': rolled back create_file" in p
        and p.endswith(": Fresh.md")
        for p in printed
    )
    assert any(" WARNING obsigate.startup: " in p and p.endswith("(their edit wins): Plan.md") for p in printed)
