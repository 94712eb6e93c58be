"""The benchmark harness (``make bench``) runs end to end on a tiny vault: every phase, real parts, no mocks.

It checks the harness still works, not the figures (they mean nothing at 60 notes)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support import REPO

if str(REPO) not in sys.path:  # bench/ is a top-level package of the repository, not installed
    sys.path.insert(0, str(REPO))

from bench import harness


@pytest.mark.slow  # ≈ 10 s: three Python processes and a server start
def test_every_phase_runs_on_a_tiny_vault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.json"
    argv = [
        "--notes",
        "60",
        "--reps",
        "2",
        "--writes",
        "2",
        "--calls",
        "5",
        "--inits",
        "2",
        "--clients",
        "2",
        "--sustain",
        "0.3",
        "--dir",
        str(tmp_path),
        "--out",
        str(out),
    ]
    assert harness.main(argv) == 0, capsys.readouterr().err

    r = json.loads(out.read_text())
    assert r["errors"] == {}
    assert r["vault"]["notes"] == 60 and len(r["vault"]["hubs"]) == 6
    assert r["build"]["stats"]["indexed"] == 60
    queries = r["serve"]["queries"]
    assert queries["planted word 'zanzibarite'"]["total"] == r["vault"]["planted"]["zanzibarite"]
    assert queries["'the' (every note)"]["total"] == 60
    if r["serve"]["backlinks"] is not None:  # VaultIndex.backlinks
        hub = r["vault"]["hubs"][0]
        assert r["serve"]["backlinks"]["hubs"][hub["path"]]["total"] >= hub["linkers"]
    assert r["serve"]["own_write_upsert"]["n"] == 2 and r["serve"]["external_edit"]["n"] == 2
    assert r["grep"]["queries"]["planted word 'zanzibarite'"]["grep"]["files"] == r["vault"]["planted"]["zanzibarite"]
    assert r["mcp"]["read_file"]["n"] == 5 and r["mcp"]["sustained"]["calls"] > 0
    assert r["mcp"]["sustained"]["errors"] == 0 and r["mcp"]["server_status_mb"]["VmHWM"] > 0
    table = capsys.readouterr().out
    assert "MCP tools/call read_file p50" in table and "≤ 5 ms" in table
    # the vault was left as generated (the write phases restore every note they touched)
    vault = tmp_path / "vault-60-42-hubs10"
    assert not [p for p in vault.rglob("*.md") if "ownwrite" in p.read_text() or "extedit" in p.read_text()]
