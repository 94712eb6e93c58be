"""The tool journal's speed (issue 21 item 3): appends per second with concurrent writer threads (the chain
checked intact after), and the time ``verify`` takes over 100k rows.

Usage (from the repository root)::

    python -m bench.journal_speed                      # 4 writers x 2,000 appends, verify over 100k rows
    python -m bench.journal_speed --writers 4 --appends 500 --rows 10000 --out bench/out/journal.json

Each append is what the door writes for a ``read_file`` call: summarised arguments, the salted digests of the
raw arguments and of a 2 KB result, one ``BEGIN IMMEDIATE`` transaction (read the last hash, insert), a signed
checkpoint every 1,000 rows. The verify database is filled in one process with the same rows, then checked
whole (chain, checkpoints, head). Both run in a fresh temporary data dir, removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from obsigate.domain.storage.tool_journal import JournalEntry, ToolJournal

RESULT = {"vault": "notes", "path": "Home.md", "content": "x" * 2048, "version": "v" * 32}


def _entry(n: int, writer: int) -> JournalEntry:
    args = {"vault": "notes", "path": f"Notes/{n}.md"}
    return JournalEntry(
        user=f"user{writer}", auth_kind="jwt", front="mcp", tool="read_file", action="ai_tool_call", outcome="ok",
        conversation=f"session{writer}", turn=f"rpc-{n}", args=args, raw_args=args, result=RESULT, duration_ms=1.2,
    )  # fmt: skip


def appends(writers: int, per_writer: int, folder: Path) -> dict[str, Any]:
    """``writers`` threads each appending ``per_writer`` rows at once; appends/s over the wall time."""
    journal = ToolJournal(folder)
    latencies: list[float] = []
    lock = threading.Lock()
    start = threading.Barrier(writers + 1)

    def write(w: int) -> None:
        mine = []
        start.wait()
        for n in range(per_writer):
            t0 = time.perf_counter()
            journal.append(_entry(n, w))
            mine.append(time.perf_counter() - t0)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    report = journal.verify()
    journal.close()
    total = writers * per_writer
    latencies.sort()
    return {
        "writers": writers,
        "appends": total,
        "seconds": round(wall, 3),
        "appends_per_s": round(total / wall),
        "p50_ms": round(statistics.median(latencies) * 1000, 3),
        "p95_ms": round(latencies[int(len(latencies) * 0.95)] * 1000, 3),
        "chain_intact": report.ok and report.rows == total == report.last_seq,
    }


def verify_time(rows: int, folder: Path) -> dict[str, Any]:
    """Fill a journal with ``rows`` rows (one writer), then time a whole ``verify``."""
    journal = ToolJournal(folder)
    t0 = time.perf_counter()
    for n in range(rows):
        journal.append(_entry(n, n % 4))
    filled = time.perf_counter() - t0
    journal.close()
    journal = ToolJournal(folder)
    t0 = time.perf_counter()
    report = journal.verify()
    seconds = time.perf_counter() - t0
    journal.close(sign=False)
    return {
        "rows": rows,
        "fill_seconds": round(filled, 2),
        "verify_seconds": round(seconds, 2),
        "ok": report.ok,
        "db_mb": round((folder / "journal.sqlite3").stat().st_size / 1e6, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--appends", type=int, default=2000, help="per writer")
    parser.add_argument("--rows", type=int, default=100_000, help="rows of the verify run")
    parser.add_argument("--out", type=Path)
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="obsigate-journal-") as tmp:
        result = {
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.python_version()}",
            "appends": appends(opts.writers, opts.appends, Path(tmp) / "a"),
            "verify": verify_time(opts.rows, Path(tmp) / "v"),
        }
    text = json.dumps(result, indent=2)
    print(text)
    if opts.out:
        opts.out.parent.mkdir(parents=True, exist_ok=True)
        opts.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
