"""Load (issue 20): 50 concurrent MCP sessions × 100 mixed operations against one real ``obsigate serve``.

Each session is the official SDK client (``mcp.client.streamable_http``) on its own HTTP connection pool; half
speak 2025-11-25 (``initialize`` + ``Mcp-Session-Id``), half 2026-07-28. The operations: reads, searches,
backlinks, propose+apply appends to four SHARED notes (each append carries a unique marker), and renames of the
session's own topic note, which every shared note and the index link to (so renames rewrite the very notes the
appends change). At the end: no 5xx, no protocol error, every applied marker on disk exactly once and no other,
every link resolving to a note that exists and none to a renamed-away name, the server's backlinks agreeing;
the p95 latency of each operation kind is printed (docs/benchmarks.md records a run).
"""

from __future__ import annotations

import os
import random
import re
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from robust.serving import Server, serve
from support import alice_token, write_tree

pytestmark = pytest.mark.anyio

SESSIONS = 50
OPERATIONS = 100
SHARED = 4
HUBS = 25
#: Sessions whose topic a shared log links too (a rename of theirs conflicts with any append to that log made
#: between its propose and its apply, and is proposed again).
ON_LOGS = 8
#: Operation kinds and their weights in a session's mix: mostly reads, as an agent's session is. Every write
#: (propose + apply) costs ~90 ms of serialised disk syncs on the 2-core CI machine (confirmation store, backup,
#: change journal, the file), which bounds how many fit the test's ~60 s.
MIX = {"read": 40, "search": 25, "backlinks": 12, "list": 8, "append": 10, "rename": 5}
#: How often a session proposes a rename again after ``conflict`` (a linking note changed between its propose
#: and apply: the rename is refused whole, never half-applied), before counting it as not done.
RENAME_TRIES = 8
WIKILINK = re.compile(r"\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def topic(session: int, version: int) -> str:
    return f"Topic-{session:02d}-v{version}"


def linked_from(s: int) -> set[str]:
    """The notes linking session ``s``'s topic: its hub (two sessions' topics each) and, for the first
    :data:`ON_LOGS` sessions, a shared log too, so their renames rewrite a note the appends change."""
    return {f"Hubs/Hub-{s % HUBS}.md"} | ({f"Shared/Log-{s % SHARED}.md"} if s < ON_LOGS else set())


def build_vault(root: Path) -> Path:
    """Four shared logs, 50 topics, 25 hubs linking them (see :func:`linked_from`), and 100 filler notes for
    the searches to wade through."""
    files: dict[str, str] = {}
    for k in range(SHARED):
        links = " ".join(f"[[{topic(s, 0)}]]" for s in range(ON_LOGS) if s % SHARED == k)
        files[f"Shared/Log-{k}.md"] = f"# Log {k}\n\nTopics: {links}\n\n## Entries\n"
    for h in range(HUBS):
        links = "".join(f"- [[{topic(s, 0)}|topic {s}]]\n" for s in range(SESSIONS) if s % HUBS == h)
        files[f"Hubs/Hub-{h}.md"] = f"# Hub {h}\n\n{links}"
    for s in range(SESSIONS):
        files[f"Topics/{topic(s, 0)}.md"] = (
            f"# Topic {s}\n\nTidepool sensor {s} readings. Back to [[Hub-{s % HUBS}]].\n"
        )
    for i in range(100):
        files[f"Filler/Note-{i:03d}.md"] = f"# Note {i}\n\nBuoy {i} drifts near the tidepool; salinity {i % 7}.\n"
    return write_tree(root, files)


@dataclass
class Tally:
    """What every session saw, for the checks at the end."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: Counter[int] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    applied: dict[str, int] = field(default_factory=dict)  # marker → shared log it was appended to
    refused: set[str] = field(default_factory=set)  # markers whose apply failed (must be nowhere)
    renames: Counter[str] = field(default_factory=Counter)  # done / conflict retries / gave up
    versions: dict[int, int] = field(default_factory=dict)  # session → its topic's current version


async def timed(tally: Tally, kind: str, client: Client, tool: str, args: dict[str, Any]) -> Any:
    t0 = time.perf_counter()
    result = await client.call_tool(tool, args)
    tally.latencies[kind].append(time.perf_counter() - t0)
    return result


def error_code(result: Any) -> str | None:
    return result.meta["obsigate/error"]["code"] if result.is_error else None


async def run_session(served: Server, token: str, s: int, tally: Tally) -> None:
    """One client: ``OPERATIONS`` operations drawn from :data:`MIX` (seeded by ``s``)."""
    rng = random.Random(s)
    kinds = rng.choices(list(MIX), weights=list(MIX.values()), k=OPERATIONS)
    mode = "legacy" if s % 2 == 0 else "2026-07-28"

    async def seen(response: httpx2.Response) -> None:
        tally.statuses[response.status_code] += 1

    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=60, event_hooks={"response": [seen]}
    )
    version = 0
    async with http, Client(streamable_http_client(f"{served.url}/mcp", http_client=http), mode=mode) as client:
        for i, kind in enumerate(kinds):
            mine = f"Topics/{topic(s, version)}.md"
            if kind == "read":
                path = rng.choice([mine, f"Shared/Log-{rng.randrange(SHARED)}.md", f"Hubs/Hub-{s % HUBS}.md"])
                result = await timed(tally, kind, client, "read_file", {"vault": "notes", "path": path})
            elif kind == "search":
                q = rng.choice(["tidepool", "salinity", f"sensor {s}", "buoy drifts", f"M{s:02d}"])
                result = await timed(tally, kind, client, "search_fulltext", {"q": q, "vault": "notes", "limit": 10})
            elif kind == "backlinks":
                result = await timed(tally, kind, client, "get_backlinks", {"vault": "notes", "path": mine})
            elif kind == "list":
                result = await timed(tally, kind, client, "list_directory", {"vault": "notes", "path": "Topics"})
            elif kind == "append":
                result = await append(tally, client, s, i, rng.randrange(SHARED))
            else:
                result, version = await rename(tally, client, s, version)
            if result is not None and result.is_error:
                tally.failures.append(f"session {s} op {i} {kind}: {result.content[0].text}")
    tally.versions[s] = version


async def append(tally: Tally, client: Client, s: int, i: int, k: int) -> Any:
    """Propose and apply one append of a unique marker line to shared log ``k``."""
    marker = f"M{s:02d}-{i:03d}"
    args = {"vault": "notes", "path": f"Shared/Log-{k}.md", "content": f"- entry {marker}\n"}
    proposal = await timed(tally, "propose_append", client, "propose_append_to_file", args)
    if proposal.is_error:
        tally.refused.add(marker)
        return proposal
    token = proposal.structured_content["confirmation_token"]
    applied = await timed(tally, "apply_append", client, "apply_append_to_file", {"confirmation_token": token})
    if applied.is_error:
        tally.refused.add(marker)
    else:
        tally.applied[marker] = k
    return applied


async def rename(tally: Tally, client: Client, s: int, version: int) -> tuple[Any, int]:
    """Rename the session's topic to its next version (links rewritten), proposing again after a conflict."""
    args = {"vault": "notes", "path": f"Topics/{topic(s, version)}.md", "new_name": topic(s, version + 1)}
    for _ in range(RENAME_TRIES):
        proposal = await timed(tally, "propose_rename", client, "propose_rename_file", args)
        if proposal.is_error:
            return proposal, version
        token = proposal.structured_content["confirmation_token"]
        applied = await timed(tally, "apply_rename", client, "apply_rename_file", {"confirmation_token": token})
        if error_code(applied) != "conflict":
            if not applied.is_error:
                tally.renames["done"] += 1
                return applied, version + 1
            return applied, version
        tally.renames["conflict"] += 1
    tally.renames["gave up"] += 1
    return None, version


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system, s) process ``pid`` has used so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


@pytest.fixture
def loaded(tmp_path: Path) -> Iterator[tuple[Server, str, Path]]:
    vault = build_vault(tmp_path / "notes")
    token = alice_token(tmp_path / "data", vaults=["notes"])
    with serve({"notes": vault}, tmp_path / "data", auth=True) as served:
        yield served, token, vault


async def test_fifty_sessions_of_mixed_operations(loaded: tuple[Server, str, Path]) -> None:
    served, token, vault = loaded
    tally = Tally()
    t0, cpu0, server_cpu0 = time.monotonic(), time.process_time(), cpu_seconds(served.proc.pid)
    with anyio.fail_after(300):
        async with anyio.create_task_group() as group:
            for s in range(SESSIONS):
                group.start_soon(run_session, served, token, s, tally)
    seconds, cpu = time.monotonic() - t0, time.process_time() - cpu0
    server_cpu = cpu_seconds(served.proc.pid) - server_cpu0

    lines = [
        f"{SESSIONS} sessions × {OPERATIONS} operations in {seconds:.1f} s (CPU: clients {cpu:.1f} s, server"
        f" {server_cpu:.1f} s); renames {dict(tally.renames)}"
    ]
    for kind, values in sorted(tally.latencies.items()):
        ms = [v * 1000 for v in values]
        lines.append(f"  {kind:15s} n={len(ms):5d}  p50={statistics.median(ms):7.1f} ms  p95={p95(ms):7.1f} ms")
    print("\n" + "\n".join(lines))

    # 0 5xx; every operation answered as asked (a rename conflict retried is not a failure; see RENAME_TRIES)
    assert not [code for code in tally.statuses if code >= 500], tally.statuses
    assert tally.failures == [], tally.failures[:20]
    assert len(tally.versions) == SESSIONS
    assert tally.renames["done"] > 0 and tally.renames["gave up"] <= tally.renames["done"] // 4, tally.renames

    # 0 lost, 0 doubled appends: each applied marker once, in the log it was appended to; a refused one nowhere
    logs = {k: (vault / f"Shared/Log-{k}.md").read_text(encoding="utf-8") for k in range(SHARED)}
    found = Counter(m for text in logs.values() for m in re.findall(r"M\d\d-\d\d\d", text))
    assert set(found) == set(tally.applied) and set(found.values()) <= {1}, found - Counter(tally.applied)
    for marker, k in tally.applied.items():
        assert f"- entry {marker}\n" in logs[k], marker
    assert not tally.refused & set(found)

    # links consistent: every topic under its last name only, every link resolving, none to an old name
    topics = sorted(p.stem for p in (vault / "Topics").glob("*.md"))
    assert topics == sorted(topic(s, v) for s, v in tally.versions.items())
    names = {p.stem for p in vault.rglob("*.md")}
    for note in vault.rglob("*.md"):
        targets = set(WIKILINK.findall(note.read_text(encoding="utf-8")))
        assert targets <= names, (note.name, targets - names)
    for s, v in tally.versions.items():
        assert f"[[{topic(s, v)}|topic {s}]]" in (vault / f"Hubs/Hub-{s % HUBS}.md").read_text(encoding="utf-8")
        assert (f"[[{topic(s, v)}]]" in logs[s % SHARED]) is (s < ON_LOGS)

    # the server agrees: each topic's backlinks are the notes linking it
    async with (
        httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30) as http,
        Client(streamable_http_client(f"{served.url}/mcp", http_client=http), mode="2026-07-28") as client,
    ):
        for s, v in tally.versions.items():
            result = await client.call_tool("get_backlinks", {"vault": "notes", "path": f"Topics/{topic(s, v)}.md"})
            linking = {b["path"] for b in result.structured_content["backlinks"]}
            assert linking == linked_from(s), (s, v, linking)
    printed = served.printed()
    assert " ERROR " not in printed and "Traceback" not in printed, printed[-5000:]
