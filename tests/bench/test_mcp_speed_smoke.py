"""The MCP speed benchmark (``python -m bench.mcp_speed``, ``make bench-mcp``) runs end to end on a small scale:
a bare SDK server and real ``obsigate serve`` / ``obsigate mcp stdio`` processes, raw JSON-RPC, no mocks.

It checks the script still works and reports every figure beside its floor, not the figures (a few calls on a
loaded machine mean nothing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import REPO


@pytest.mark.slow  # ≈ 20-40 s: five server processes, 2×20 calls over HTTP and over stdio, 1.5 s of writes
def test_every_phase_reports_its_figure_beside_the_floor(tmp_path: Path) -> None:
    out = tmp_path / "mcp-speed.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    argv = ["--rounds", "1", "--calls", "20", "--notes", "300", "--probe-every", "0.02", "--writers", "2"]
    argv += ["--write-seconds", "1.5", "--vaults", str(tmp_path / "vaults"), "--out", str(out)]
    proc = subprocess.run([sys.executable, "-m", "bench.mcp_speed", *argv], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=240)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]

    r = json.loads(out.read_text())
    for phase in ("read", "stdio"):  # the same calls against ObsiGate and the floor, alternating
        assert r[phase]["obsigate_read_file"]["p50"] > 0 and r[phase]["bare_echo"]["p50"] > 0
        assert r[phase]["rounds"][0]["obsigate_read_file"]["n"] == 20 == r[phase]["rounds"][0]["bare_echo"]["n"]
        assert r[phase]["obsigate_cpu_ms_per_call"] >= 0
    build = r["build"]
    assert build["notes"] == 300 and build["server_index"]["state"] == "ready"
    assert build["ready"]["og_initialize"]["n"] == 30 == build["ready"]["bare_health"]["n"]
    writes = r["writes"]
    assert writes["writer"]["applied"] > 0 and writes["during"]["og_health"]["n"] > 0
    assert writes["during"]["bare_health"]["n"] == writes["during"]["og_health"]["n"]
    report = proc.stdout
    for line in ("(a) tools/call p50", "(b) initialize during", "(c) /api/health during", "(c) /api/health under",
                 "(d) stdio read_file"):  # fmt: skip
        assert line in report, report
