"""The before/after door benchmark (``python -m bench.door_compare``) runs end to end in its quick mode: the
reference tree unpacked from git, one worker per tree, real apps and the official MCP client, no mocks.

It checks the script still works, not the figures (20 calls on a loaded machine mean nothing)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support import REPO

if str(REPO) not in sys.path:  # bench/ is a top-level package of the repository, not installed
    sys.path.insert(0, str(REPO))

from bench import door_compare


def test_percentiles_are_nearest_rank() -> None:
    samples = [float(x) for x in range(1, 101)]
    expected = {"n": 100, "p50": 50.0, "p95": 95.0, "mean": 50.5, "min": 1.0, "max": 100.0}
    assert door_compare.summarise(samples) == expected
    assert door_compare.percentile([3.0], 95) == 3.0


def test_ratios_are_current_over_ref() -> None:
    ref = {"call_tool_read_file": {"p50": 2.0, "p95": 4.0, "mean": 2.5}}
    cur = {"call_tool_read_file": {"p50": 1.0, "p95": 6.0, "mean": 2.5}}
    rows = door_compare.compare(ref, cur)
    assert rows["call_tool_read_file"]["ratio"] == {"p50": 0.5, "p95": 1.5, "mean": 1.0}
    row = "| call_tool read_file (in process) | 2.000 | 1.000 | 0.50 | 4.000 | 6.000 | 1.50 |"
    assert row in door_compare.markdown_table(rows)


@pytest.mark.slow  # ≈ 6-9 s: two worker processes, each building a 60-note index
def test_quick_run_measures_both_trees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    known = subprocess.run(["git", "-C", str(REPO), "cat-file", "-e", f"{door_compare.DEFAULT_REF}^{{commit}}"])
    if known.returncode != 0:
        pytest.skip(f"reference commit {door_compare.DEFAULT_REF} not in this clone")
    out = tmp_path / "door.json"
    assert door_compare.main(["--quick", "--notes", "60", "--out", str(out)]) == 0

    report = json.loads(out.read_text())
    assert set(report["comparison"]) == set(door_compare.IN_PROCESS_ONLY)
    for row in report["comparison"].values():
        assert all(row[tree]["p50"] > 0 for tree in ("ref", "current")) and row["ratio"]["p50"] > 0
    (ref,), (cur,) = report["runs"]["ref"], report["runs"]["current"]
    assert ref["obsigate"].endswith("/ref/src") and cur["obsigate"].endswith("/current/src")  # each tree its own code
    assert len(report["current"]["head"]) == 40 and len(report["ref"]["commit"]) == 40
    assert ref["notes"] == cur["notes"] == 60 and ref["results"]["call_tool_read_file"]["n"] == 20
    assert report["machine"]["uname_a"] and len(report["loadavg"]["start"]) == 3
    assert "| MCP propose+apply create_file (in process) |" in capsys.readouterr().out
