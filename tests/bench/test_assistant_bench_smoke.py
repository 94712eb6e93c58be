"""The assistant benchmark (``python -m bench.assistant``) runs end to end in its quick mode: the fake provider
of the tests, a real ``obsigate serve`` subprocess, chat and agent over SSE, 20 concurrent streams.

It checks the script still works and reports every figure, not the figures (a quick run on a loaded machine
means nothing)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support import REPO


@pytest.mark.slow  # ≈ 10-20 s: a server start, a few dozen SSE requests, 20 concurrent streams
def test_quick_run_reports_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "assistant.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    proc = subprocess.run([sys.executable, "-m", "bench.assistant", "--quick", "--out", str(out)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]

    report = json.loads(out.read_text())
    stats = {"n", "p50", "p95", "mean", "min", "max"}
    ttft = report["ttft"]
    for key in ("direct", "obsigate", "added", "obsigate_request_to_provider_request"):
        assert set(ttft[key]) == stats and ttft[key]["n"] == ttft["rounds"]
    agent = report["agent"]
    assert agent["read_step_overhead"]["n"] == agent["runs"] * agent["steps"]
    assert agent["provider_turn"]["n"] == agent["runs"] * (agent["steps"] + 1)
    steps = ("request_to_first_model_request", "last_reply_to_done", "propose_step", "approve_to_next_model_request")
    for key in steps:
        assert set(agent[key]) == stats
    rss = report["rss"]
    assert rss["streams"] == rss["completed"] == 20
    assert {"idle_mib", "peak_mib", "delta_mib", "after_mib"} <= set(rss) and rss["idle_mib"] > 0
    assert report["server_exit_code"] == 0 and report["machine"]["cpus"] and len(report["loadavg"]["start"]) == 3
    assert "| TTFT added by ObsiGate" in proc.stdout and "| RSS, 20 concurrent streams" in proc.stdout
