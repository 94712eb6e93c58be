"""The tool journal from REST, the web app and the CLI front on a real server, then read back by the
``obsigate journal`` commands: one ``call`` row per call (counted), a confirmed REST write preceded by its
``intent`` row, ``verify`` ok after a clean shutdown and failing (exit 1, the seq named) after an edit,
``tail``/``search``, and ``export`` as OTLP/JSON with the GenAI attribute names."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import anyio
import httpx2
from cli_runner import run_cli
from support import journal_records

from obsigate.auth.principal import ANONYMOUS
from obsigate.bootstrap import build_runtime, prepare_data_dir
from obsigate.config import load_settings
from obsigate.domain.storage.tool_journal import JOURNAL_FILE
from obsigate.tools.api import ToolContext, call_tool

WEB = {"Sec-Fetch-Site": "same-origin"}  # with auth off, the web app's own requests


def test_rest_web_and_cli_calls_are_journalled_and_read_back_by_the_cli(live_server, small_vault, tmp_path) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=False)
    data = server.settings.data_dir
    with httpx2.Client(base_url=server.url, timeout=10) as http:
        for q in ("tide", "buoy"):
            assert http.get("/api/search", params={"q": q}).status_code == 200
        for q in ("a", "b", "c"):
            assert http.get("/api/search", params={"q": q}, headers=WEB).status_code == 200
        made = http.post("/api/file/notes", json={"path": "Journal.md", "content": "# J\n"})
        assert made.status_code == 200, made.text
    server.stop()  # a clean shutdown signs the journal's tail

    settings = server.settings
    runtime = build_runtime(settings, data)  # the CLI front: `obsigate` commands run tools as mode "cli"
    try:
        anyio.run(call_tool, ToolContext(ANONYMOUS, runtime, mode="cli"), "list_vaults", {})
    finally:
        runtime.workspace.index.close()
        assert runtime.journal is not None
        runtime.journal.close()

    tailed = run_cli("journal", "tail", "-n", "100", "--json", data=data)
    assert tailed.returncode == 0, tailed.stderr
    rows = [json.loads(line) for line in tailed.stdout.splitlines()]
    fronts = [(r["front"], r["tool"]) for r in rows]
    assert fronts.count(("rest", "search_fulltext")) == 2 and fronts.count(("web", "search_fulltext")) == 3
    assert fronts.count(("rest", "create_file")) == 1 and fronts.count(("cli", "list_vaults")) == 1
    create = next(r for r in rows if r["tool"] == "create_file")
    (intent,) = journal_records(data, "intent")  # the confirmed write's proof, written before it ran
    assert intent["call_id"] == create["call_id"] and intent["outcome"] == "started" and create["outcome"] == "ok"
    assert intent["seq"] < create["seq"]

    verified = run_cli("journal", "verify", data=data)
    assert verified.returncode == 0 and verified.stdout.startswith("ok: "), verified.stderr
    kept = tmp_path / "journal.pub"  # the admin's copy of the public key, kept outside the data dir
    kept.write_bytes((data / "journal_signing.pub").read_bytes())
    verified = run_cli("journal", "verify", "--public-key", str(kept), "--json", data=data)
    assert verified.returncode == 0 and json.loads(verified.stdout)["ok"] is True, verified.stderr

    found = run_cli(
        "journal", "search", "--user", "anonymous", "--outcome", "ok", "--tool", "search_fulltext", data=data
    )
    assert found.returncode == 0 and len(found.stdout.splitlines()) == 5

    out = tmp_path / "otlp"
    exported = run_cli("journal", "export", "--format", "otlp-json", "--out", str(out), data=data)
    assert exported.returncode == 0, exported.stderr
    (path,) = [Path(p) for p in exported.stdout.split()]
    spans = json.loads(path.read_text())["resourceSpans"][0]["scopeSpans"][0]["spans"]
    by_name = {s["name"]: s for s in spans}
    span = by_name["execute_tool create_file"]
    attrs = {a["key"]: next(iter(a["value"].values())) for a in span["attributes"]}
    assert attrs["gen_ai.operation.name"] == "execute_tool" and attrs["gen_ai.tool.name"] == "create_file"
    assert attrs["gen_ai.tool.call.id"] == create["call_id"] and attrs["obsigate.front"] == "rest"
    assert len(span["traceId"]) == 32 and len(span["spanId"]) == 16 and span["status"]["code"] == 1
    assert int(span["endTimeUnixNano"]) >= int(span["startTimeUnixNano"]) > 0
    assert len(spans) == len(rows)  # a span per call; none for the intent row

    with sqlite3.connect(data / JOURNAL_FILE) as db:  # an edit by hand
        seq = db.execute(
            "SELECT seq FROM tool_journal WHERE tool = 'search_fulltext' AND front = 'web' LIMIT 1"
        ).fetchone()[0]
        db.execute("UPDATE tool_journal SET user = 'mallory' WHERE seq = ?", (seq,))
    failed = run_cli("journal", "verify", data=data)
    assert failed.returncode == 1 and f"at seq {seq}: edited" in failed.stderr, failed.stderr


def test_contents_are_kept_only_when_the_admin_enables_them(live_server, small_vault, tmp_path) -> None:
    plain = live_server({"notes": small_vault}, auth_enabled=False, data_dir=tmp_path / "plain")
    kept = live_server(
        {"notes": small_vault}, auth_enabled=False, data_dir=tmp_path / "kept", journal_keep_content=True
    )
    for server in (plain, kept):
        got = httpx2.get(f"{server.url}/api/file/notes", params={"path": "Ideas.md"}, timeout=10)
        assert got.status_code == 200
    (row,) = [r for r in journal_records(tmp_path / "plain") if r["tool"] == "read_file"]
    assert row["result_content"] is None and row["args_content"] is None and row["result_digest"]
    (row,) = [r for r in journal_records(tmp_path / "kept") if r["tool"] == "read_file"]
    assert "tidepool sensor" in row["result_content"] and json.loads(row["args_content"])["path"] == "Ideas.md"


def test_the_journal_commands_refuse_bad_input_and_create_nothing(small_vault: Path, tmp_path: Path) -> None:
    missing = tmp_path / "typo"
    for args in (("journal", "verify"), ("journal", "tail"), ("journal", "search", "--user", "x")):
        ran = run_cli(*args, data=missing)
        assert ran.returncode == 2 and "no tool journal" in ran.stderr, ran
    assert not missing.exists()  # a mistyped --data-dir is never created, let alone read as "ok"
    data = tmp_path / "data"
    settings = load_settings(vaults={"notes": {"path": str(small_vault)}}, data_dir=data, auth_enabled=False)
    runtime = build_runtime(settings, prepare_data_dir(data))  # a journal with one row
    anyio.run(call_tool, ToolContext(ANONYMOUS, runtime, mode="cli"), "list_vaults", {})
    runtime.journal.close()
    runtime.workspace.index.close()
    for since in ("garbage", "2026-13-45", "2026-12-04T10:00+99:00"):
        for args in (("journal", "search", "--since", since), ("journal", "export", "--out", str(tmp_path / "o"))):
            ran = run_cli(*args, *(("--since", since) if args[1] == "export" else ()), data=data)
            assert ran.returncode == 2 and "ISO 8601" in ran.stderr and "Traceback" not in ran.stderr, ran
    assert not (tmp_path / "o").exists()
    huge = run_cli("journal", "tail", "-n", "99999999999999999999", data=data)
    assert huge.returncode == 2 and "Traceback" not in huge.stderr, huge
    found = run_cli("journal", "search", "--since", "2000-01-01T01:00+01:00", "--json", data=data)  # an offset: UTC
    assert found.returncode == 0 and [json.loads(line)["tool"] for line in found.stdout.splitlines()] == ["list_vaults"]
