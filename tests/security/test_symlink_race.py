"""The symlink race of issue 16, as an attacker with write access to a vault folder runs it: a thread flips
notes between regular files and symlinks to outside files (one of them the data dir's JWT secret) and a
folder between a real folder and a symlink to an outside folder, about once a millisecond, while reads, raw
downloads, sources, edits, appends, renames, deletes and restores run through REST, MCP (the official SDK
client), the assistant's context and the assistant itself (a scripted model over HTTP that reads the flipping
notes: what it is sent is checked too), all against a real server on loopback.

Before the fix, 20 s of this returned outside bytes 8-48 times per read route and overwrote the outside file.
Now: 0 outside bytes in any answer, the outside files byte-identical, and both sides of the race really
reached (answers served and symlinks refused), so the flipper was not idle. Bounded: ``OBSIGATE_RACE_SECONDS``
per phase (default 5; four phases).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from fakes import openai_replies as o
from fakes.llm_server import FakeLLM, use_fake
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from support import alice_token, write_tree

PHASE_S = float(os.environ.get("OBSIGATE_RACE_SECONDS", "5"))
FLIPPED = ["Race/Flip0.md", "Race/Flip1.md", "Race/Flip2.md", "Race/Flip3.md"]
REGULAR = b"# Flip\n\nregular body hello\n"


def _swap_in(root: Path, rel: str, make: Callable[[Path], None]) -> None:
    tmp = root / "Race" / f".flip-{secrets.token_hex(4)}"
    try:
        make(tmp)
        os.replace(tmp, root / rel)
    except OSError:  # the server renamed or deleted the entry meanwhile: next round
        tmp.unlink(missing_ok=True)


def _flip_dir(root: Path, outside_dir: Path, to_link: bool) -> None:
    folder, held = root / "Race" / "Dir", root / "Race" / ".Dir-held"
    try:
        if to_link and folder.is_dir() and not folder.is_symlink():
            os.rename(folder, held)
            os.symlink(outside_dir, folder)
        elif not to_link and folder.is_symlink():
            folder.unlink()
            os.rename(held, folder)
    except OSError:
        pass


def flip(root: Path, targets: dict[str, Path], outside_dir: Path, stop: Any, flips: Any) -> None:
    """The attacker, in a process of its own (no GIL shared with the server): swaps each of ``targets``
    between a regular file and a symlink to its outside target, and ``Race/Dir`` between a folder and a
    symlink to ``outside_dir``, every ~0.5 ms, until ``stop`` is set; ``flips`` counts the rounds."""
    while not stop.is_set():
        for rel, target in targets.items():
            _swap_in(root, rel, lambda tmp, target=target: os.symlink(target, tmp))
        _flip_dir(root, outside_dir, True)
        time.sleep(0.0005)
        for rel in targets:
            _swap_in(root, rel, lambda tmp: tmp.write_bytes(REGULAR))
        _flip_dir(root, outside_dir, False)
        time.sleep(0.0005)
        flips.value += 1
    _flip_dir(root, outside_dir, False)


class Flipper:
    """Runs :func:`flip` in a spawned process (``Flip0`` → the JWT secret, the other notes → an outside note)."""

    def __init__(self, root: Path, outside_note: Path, outside_dir: Path, secret: Path) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.stop, self._flips = ctx.Event(), ctx.Value("l", 0)
        targets = {rel: (secret if i == 0 else outside_note) for i, rel in enumerate(FLIPPED)}
        self.proc = ctx.Process(target=flip, args=(root, targets, outside_dir, self.stop, self._flips), daemon=True)

    @property
    def flips(self) -> int:
        return int(self._flips.value)

    def start(self) -> None:
        self.proc.start()

    def finish(self) -> None:
        self.stop.set()
        self.proc.join(timeout=10)


@pytest.fixture
def arena(live_server: Any, tmp_path: Path, fake: FakeLLM, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """A server with auth on (so the data dir holds a JWT secret) whose assistant talks to the scripted fake
    provider, the flipping vault, the outside files."""
    use_fake(monkeypatch, fake)
    marker = f"OUTSIDE-{secrets.token_hex(8)}"
    outside = write_tree(tmp_path / "outside", {"note.md": f"# {marker}\n", "dir/x.md": f"{marker} in a folder\n"})
    vault = write_tree(tmp_path / "vault", {rel: REGULAR.decode() for rel in FLIPPED} | {
        "Race/Dir/x.md": "# x\n\nregular body hello\n", "Home.md": "# Home\n"})  # fmt: skip
    data = tmp_path / "data"
    token = alice_token(data)
    server = live_server(
        {"notes": vault}, data_dir=data, tool_rate_limit=1_000_000, web_rate_limit=1_000_000, agent_rate_limit=1_000_000
    )
    secret = data / "jwt_secret"
    before = {p: p.read_bytes() for p in [*outside.rglob("*"), secret] if p.is_file()}
    flipper = Flipper(vault, outside / "note.md", outside / "dir", secret)
    yield {"server": server, "token": token, "vault": vault, "flipper": flipper, "outside": outside, "fake": fake,
           "before": before, "leaks": [marker, secret.read_text().strip()]}  # fmt: skip
    flipper.finish()


class Tally:
    """Every answer's status/code, and any answer that carried an outside byte."""

    def __init__(self, leaks: list[str]) -> None:
        self.leaks, self.counts, self.escaped = leaks, Counter[str](), []
        self.lock = threading.Lock()

    def see(self, what: str, status: int | str, text: str) -> None:
        with self.lock:
            self.counts[f"{what} {status}"] += 1
            if any(leak in text for leak in self.leaks):
                self.escaped.append((what, status, text[:200]))

    def total(self) -> int:
        return sum(self.counts.values())


def _code(r: httpx2.Response) -> str:
    try:
        return str(r.json().get("code") or r.status_code)
    except (ValueError, AttributeError):
        return str(r.status_code)


def _hammer(seconds: float, jobs: list[Callable[[int], None]]) -> None:
    """Run each job in its own thread, over and over (``job(i)``, i = the round), for ``seconds``."""
    stop = time.monotonic() + seconds
    errors: list[BaseException] = []

    def loop(job: Callable[[int], None]) -> None:
        i = 0
        try:
            while time.monotonic() < stop:
                job(i)
                i += 1
        except BaseException as exc:  # noqa: BLE001 — reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=loop, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_no_byte_leaves_the_vault_and_nothing_outside_changes(arena: dict[str, Any]) -> None:
    server, flipper, tally = arena["server"], arena["flipper"], Tally(arena["leaks"])
    url, auth = f"{server.url}/api", {"Authorization": f"Bearer {arena['token']}"}
    flipper.start()

    def rest(method: str, route: str, what: str, **kw: Any) -> Callable[[int], None]:
        client = httpx2.Client(headers=auth, timeout=30)

        def job(i: int) -> None:
            args = {k: (v(i) if callable(v) else v) for k, v in kw.items()}
            r = client.request(method, f"{url}{route}", **args)
            assert r.status_code < 500 or _code(r) == "write_failed", (what, r.status_code, r.text[:300])
            tally.see(what, _code(r) if r.status_code >= 400 else r.status_code, r.text)

        return job

    # phase 1: every read route of REST and the assistant's context, on files and through the folder
    reads = []
    for path in ("Race/Flip0.md", "Race/Flip1.md", "Race/Dir/x.md"):
        reads += [rest("GET", "/file/notes", "read", params={"path": path}),
                  rest("GET", "/file/notes/raw", "raw", params={"path": path}),
                  rest("GET", "/file/notes/source", "source", params={"path": path})]  # fmt: skip
    reads.append(rest("POST", "/ai/bookslm/context", "context", json={
        "mode": "files", "vault": "notes", "files": ["Race/Flip0.md", "Race/Flip3.md", "Race/Dir/x.md"],
        "include_content": True}))  # fmt: skip
    _hammer(PHASE_S, reads)

    # phase 2: every write route: edit, append, rename, delete, restore (and reads of what they leave)
    def restore(i: int) -> None:
        versions = httpx2.get(f"{url}/file/notes/backups", params={"path": "Race/Flip2.md"}, headers=auth).json()
        if versions.get("versions"):
            r = httpx2.post(f"{url}/file/notes/restore", headers=auth,
                            json={"path": "Race/Flip2.md", "version": versions["versions"][0]["version"]})  # fmt: skip
            assert r.status_code < 500 or _code(r) == "write_failed", r.text
            tally.see("restore", _code(r) if r.status_code >= 400 else r.status_code, r.text)

    _hammer(PHASE_S, [
        rest("PATCH", "/file/notes", "edit", json={"path": "Race/Flip0.md", "find": "hello", "replace": "PWNED"}),
        rest("PATCH", "/file/notes", "edit", json={"path": "Race/Dir/x.md", "find": "hello", "replace": "PWNED"}),
        rest("POST", "/file/notes/append", "append", json={"path": "Race/Flip1.md", "content": "PWNED"}),
        rest("POST", "/file/notes/append", "append", json={"path": "Race/Dir/x.md", "content": "PWNED"}),
        rest("POST", "/file/notes/rename", "rename", json=lambda i: {"path": "Race/Flip3.md", "new_name": f"Moved {i}"}),
        rest("DELETE", "/file/notes", "delete", params={"path": "Race/Flip2.md"}),
        restore,
        rest("GET", "/file/notes/raw", "raw", params={"path": "Race/Flip2.md"}),
    ])  # fmt: skip

    # phase 3: MCP through the official SDK client over the socket: reads, raw reads, propose + apply
    async def mcp() -> None:
        stop = time.monotonic() + PHASE_S
        async with (
            httpx2.AsyncClient(headers=auth, timeout=30) as http,
            Client(streamable_http_client(f"{server.url}/mcp", http_client=http), mode="legacy") as client,
        ):

            async def call(name: str, args: dict[str, Any]) -> dict[str, Any] | None:
                result = await client.call_tool(name, args)
                text = json.dumps(result.model_dump(mode="json"), ensure_ascii=False)
                code = (result.meta or {}).get("obsigate/error", {}).get("code", "error") if result.is_error else "ok"
                tally.see(f"mcp {name}", code, text)
                return None if result.is_error else result.structured_content

            async def worker(path: str) -> None:
                while time.monotonic() < stop:
                    await call("read_file", {"vault": "notes", "path": path})
                    await call("read_file_raw", {"vault": "notes", "path": path})
                    for tool, args in (("edit_file", {"find": "hello", "replace": "PWNED"}),
                                       ("append_to_file", {"content": "PWNED"})):  # fmt: skip
                        proposal = await call(f"propose_{tool}", {"vault": "notes", "path": path, **args})
                        if proposal is not None:
                            await call(f"apply_{tool}", {"confirmation_token": proposal["confirmation_token"]})

            async with anyio.create_task_group() as tg:
                for path in ("Race/Flip0.md", "Race/Flip1.md", "Race/Dir/x.md"):
                    tg.start_soon(worker, path)

    anyio.run(mcp)

    # phase 4: the in-app assistant: a model that reads the flipping notes (what it is sent is checked too)
    fake, stop = arena["fake"], time.monotonic() + PHASE_S
    agent = httpx2.Client(headers=auth, timeout=60)
    while time.monotonic() < stop:
        fake.add(o.stream_tool_calls([(f"c{i}", tool, {"vault": "notes", "path": path}) for i, (tool, path) in enumerate(
                     [("read_file", "Race/Flip0.md"), ("read_file", "Race/Flip1.md"), ("read_file", "Race/Dir/x.md"),
                      ("read_file_raw", "Race/Flip0.md")])]),
                 o.stream_text(["read."]))  # fmt: skip
        r = agent.post(f"{url}/ai/bookslm/agent", json={"message": "read the race notes", "vault": "notes"})
        assert r.status_code == 200, r.text[:300]
        tally.see("agent", "run", r.text)
    for request in fake.requests:  # every tool result the model was sent
        tally.see("sent to the model", "request", json.dumps(request.json, ensure_ascii=False))
    flipper.finish()

    outside_now = {p: p.read_bytes() for p in [*arena["outside"].rglob("*")] if p.is_file()}
    report = f"{tally.total()} requests raced against {flipper.flips} flip rounds: {dict(sorted(tally.counts.items()))}"
    print(report)
    assert tally.escaped == [], f"outside bytes served: {tally.escaped[:5]}; {report}"
    assert {p: b for p, b in arena["before"].items() if p in outside_now or p.name == "jwt_secret"} == {
        p: (p.read_bytes()) for p in arena["before"]}, "an outside file changed"  # fmt: skip
    assert set(outside_now) == {p for p in arena["before"] if p.name != "jwt_secret"}, "a file appeared outside"
    # both sides of the race were reached: answers served, and symlinks met and refused
    for what in ("read", "raw", "source", "mcp read_file"):
        assert tally.counts[f"{what} 200" if not what.startswith("mcp") else f"{what} ok"] > 0, report
        assert tally.counts[f"{what} path_outside_vault"] > 0, report
    assert tally.counts["edit 200"] + tally.counts["append 200"] > 0, report
    assert tally.counts["agent run"] > 0 and tally.counts["sent to the model request"] > 0, report
    assert flipper.flips > 100, report  # ~1 ms a round on an idle machine; fewer under load, still racing
