"""Property: the path guard never lets a path out of a vault (issue 20, robustness suite).

Paths are generated with ``..`` in every spelling an attacker tries (plain, ``%2e%2e``, double-encoded
``%252e``, backslashes, fullwidth and one-dot-leader dots and solidi, overlong UTF-8, NUL), in NFC/NFD/NFKC
forms, case-folded, absolute (the real absolute path of the outside file too); and before each example
symlinks and hard links are made *inside* the vault, pointing outside (a file, a folder, the vault's own
hidden ``.obsidian`` folder, a sibling ``vault-evil`` folder, a dangling target where a write would create a
file), and a hard link from outside *to* a vault note (an in-place write would show through it).

Reads, raw reads, listings, creates, edits, appends, renames, moves, deletes and a propose→apply whose file
is swapped for a symlink in between run through the one door (``call_tool``, REST's confirmed mode and MCP's
propose/apply); a sample runs through the REST API of a real server on loopback with raw request bytes
(percent-encoded once and twice, since Starlette decodes once). Whatever happens: no answer carries a byte
of an outside file or of a hidden one, no byte outside the vault (or in its hidden folder) changes and
nothing appears there, and every refusal is a catalogued code (``path_outside_vault``, ``not_found``, ...),
never ``internal_error`` nor a 5xx. A plain ``..`` climb and every link met on the way are refused with
``path_outside_vault`` exactly.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import pytest
from hypothesis import HealthCheck, Phase, event, example, given, settings
from hypothesis import strategies as st

from obsigate.auth.principal import ANONYMOUS
from obsigate.bootstrap import build_runtime
from obsigate.config import load_settings
from obsigate.tools.api import ServiceError, ToolContext, call_tool
from obsigate.tools.context import ToolRuntime

OUT_MARK = "OUTSIDE-7f3a"  # in every file outside the vault: no answer may carry it
HIDDEN_MARK = "HIDDEN-c41e"  # in the vault's hidden files: never served either
NOTES = {
    "a.md": "# A\nplain note a\n",
    "Caf\u00e9.md": "# Café\nan accented name\n",
    "Sub/b.md": "# B\nnested [[a]]\n",
    "Sub/Deep/c.md": "c\n",
    "vault-evil.md": "an inside note whose name starts like the sibling folder\n",
}
HIDDEN = {".obsidian/app.json": f'{{"key": "{HIDDEN_MARK}"}}', ".trash/old.md": f"old {HIDDEN_MARK}\n"}
OUTSIDE = {
    "outside/secret.md": f"{OUT_MARK} secret\n",
    "outside/dir/n.md": f"{OUT_MARK} in a folder\n",
    "vault-evil/x.md": f"{OUT_MARK} sibling with the vault's name as prefix\n",
}
#: No explain phase: it reruns a failing case hundreds of times on a 2-core machine; shrinking is enough.
PHASES = [Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink]
#: Codes a refused path may carry: each a catalogued, documented answer (never internal_error).
REFUSALS = {
    "path_outside_vault", "not_found", "invalid_argument", "is_a_directory", "not_a_directory", "not_a_file",
    "invalid_name", "exists", "unsafe_name", "directory_not_empty", "hidden_entries", "conflict", "not_text",
    "too_large",
}  # fmt: skip

# --- the attacker's alphabet -----------------------------------------------------------------------

DOTDOT = [
    "..", ".%2e", "%2e.", "%2e%2e", "%2E%2E", "%252e%252e", "%25%32%65%25%32%65", "..%2f", "%2e%2e%2f", "..%5c",
    "..\\", "\\..", "\uff0e\uff0e", "\u2025", "\uff0e.", "..\uff0f", "\ufe52\ufe52", "%c0%ae%c0%ae", "%c0%af",
    "%e0%80%ae", "\xc0\xae\xc0\xae", "..\x00", "...", ". .", ".. ", "..;", "%u002e%u002e", "&#46;&#46;",
    ".\u0307.", "\u2024\u2024", "..%00", "..%2500",
]  # fmt: skip
NAMES = [
    "a.md", "A.MD", "Sub", "sub", "SUB", "b.md", "Deep", "c.md", "Caf\u00e9.md", "Cafe\u0301.md", "CAF\u00c9.md",
    "vault-evil.md", "vault-evil", "x.md", "outside", "secret.md", "dir", "n.md", "new.md", ".obsidian",
    "app.json", ".trash", "old.md", "ln.md", "lndir", "lnhid", "lnevil", "hl.md", "dangle.md", "swap.md",
    "con", "NUL.md", "\u212a.md", "\ufb03.md", "\u0130.md", "a.md\u200b", "a.md ", ".", "", "~",
]  # fmt: skip
SEPS = ["/", "/", "/", "\\", "//", "%2f", "%2F", "%5c", "\uff0f", "\u2215", "\u29f8", "\ufe68", "/./"]
PREFIXES = ["", "", "", "/", "~/", "./", "C:\\", "C:/", "\\\\?\\", "\\\\server\\share\\", "file:///", "//", "%2f"]
SUFFIXES = ["", "", "", "\x00", "\x00.md", "%00", "/", "/.", ".", " ", "::$DATA", "%20"]
FORMS: list[Callable[[str], str]] = [
    lambda s: s,
    lambda s: unicodedata.normalize("NFC", s),
    lambda s: unicodedata.normalize("NFD", s),
    lambda s: unicodedata.normalize("NFKC", s),
    str.upper,
    str.lower,
    str.casefold,
]


PLAIN = ["a.md", "Sub", "b.md", "Deep", "c.md", "Caf\u00e9.md", "Cafe\u0301.md", "ln.md", "lndir", "lnhid",
         "lnevil", "hl.md", "dangle.md", "new.md", "n.md", "app.json", "secret.md", "x.md", "vault-evil.md"]  # fmt: skip
#: Plain spellings of names in the vault and of the links made in it: the paths that do reach something.
plain_paths = st.lists(st.sampled_from(PLAIN), min_size=1, max_size=3).map("/".join)


@st.composite
def garbled_paths(draw: st.DrawFn) -> str:
    """One path: prefix, segments (``..`` spellings, known names, random text) joined by separator
    spellings, suffix, then a Unicode form or a case mapping of the whole."""
    segments = draw(
        st.lists(
            st.one_of(
                st.sampled_from(DOTDOT),
                st.sampled_from(NAMES),
                st.text(st.sampled_from("ab.%/\\\x00\uff0e\u0301 ~2e5cf"), max_size=5),
            ),
            min_size=1,
            max_size=5,
        )
    )
    out = draw(st.sampled_from(PREFIXES)) + segments[0]
    for seg in segments[1:]:
        out += draw(st.sampled_from(SEPS)) + seg
    out += draw(st.sampled_from(SUFFIXES))
    return draw(st.sampled_from(FORMS))(out)


attack_paths = st.one_of(plain_paths, garbled_paths())


#: Links made inside the vault before an example's operations: (vault-relative name, kind).
LINKS = ["ln.md", "Sub/ln.md", "lndir", "Sub/lndir", "lnhid", "lnevil", "hl.md", "Sub/hl.md", "dangle.md",
         "Sub/Deep", "a.md"]  # fmt: skip
LINK_KINDS = ["to-file", "to-dir", "to-hidden", "to-evil", "relative-up", "hard", "dangling", "to-inside"]

# --- the world: a vault between outside files, one runtime for the whole module ---------------------


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


class World:
    """``base/{vault, outside, vault-evil, data}`` and a real runtime over ``vault`` (data dir outside it)."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.vault = base / "vault"
        self.vault.mkdir()
        _write(base, OUTSIDE)
        self.reset()
        data = base / "data"
        self.rt: ToolRuntime = build_runtime(
            load_settings(data_dir=data, vaults={"notes": {"path": str(self.vault)}}, tool_rate_limit=1_000_000), data
        )
        self.rt.limiter = None  # thousands of calls in a few seconds: the rate limit is another test's subject
        self.rt.workspace.indexer.refresh_all()
        self.outside_before = self.outside_state()

    def reset(self) -> None:
        """The vault's content back to the baseline (the folder itself is kept: its inode is pinned)."""
        for entry in os.listdir(self.vault):
            path = self.vault / entry
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            else:
                path.unlink()
        _write(self.vault, NOTES | HIDDEN)
        # a hard link from outside to a vault note: refused as a whole (its other name may be anything)
        alias = self.base / "outside" / "alias-of-c.md"
        alias.unlink(missing_ok=True)
        os.link(self.vault / "Sub" / "Deep" / "c.md", alias)

    def outside_state(self) -> dict[str, bytes | str]:
        """Every entry under ``base`` but the vault's visible files and the data dir: bytes of files, target
        of links, ``dir`` for folders (the vault's hidden folders are part of it: never served, never changed)."""
        state: dict[str, bytes | str] = {}
        for dirpath, dirnames, filenames in os.walk(self.base):
            here = Path(dirpath)
            rel_dir = here.relative_to(self.base)
            if rel_dir.parts[:1] == ("data",):
                dirnames[:] = []
                continue
            in_vault = rel_dir.parts[:1] == ("vault",)
            hidden = any(p.startswith(".") for p in rel_dir.parts[1:2])
            for name in dirnames + filenames:
                path = here / name
                key = str(path.relative_to(self.base))
                if in_vault and not hidden and not name.startswith("."):
                    continue  # the vault's own visible entries may change
                if path.is_symlink():
                    state[key] = "->" + os.readlink(path)
                elif path.is_dir():
                    state[key] = "dir"
                else:
                    state[key] = path.read_bytes()
        return state

    def make_links(self, links: list[tuple[str, str]]) -> list[str]:
        """Make each ``(name, kind)`` link inside the vault (replacing what is there); returns the names made."""
        made = []
        for name, kind in links:
            at = self.vault / name
            if at.is_dir() and not at.is_symlink():
                shutil.rmtree(at)
            elif os.path.lexists(at):
                at.unlink()
            at.parent.mkdir(parents=True, exist_ok=True)
            depth = name.count("/") + 1
            if kind == "hard":
                os.link(self.base / "outside" / "secret.md", at)
            else:
                target = {
                    "to-file": self.base / "outside" / "secret.md",
                    "to-dir": self.base / "outside" / "dir",
                    "to-hidden": self.vault / ".obsidian",
                    "to-evil": self.base / "vault-evil",
                    "relative-up": Path("../" * depth + "outside/secret.md"),
                    "dangling": self.base / "outside" / "created-through-a-link.md",
                    "to-inside": self.vault / "Sub" / "b.md",
                }[kind]
                at.symlink_to(target)
            made.append(name)
        return made


@pytest.fixture(scope="module")
def world() -> Iterator[World]:
    with tempfile.TemporaryDirectory(prefix="obsigate-props-") as tmp:
        w = World(Path(os.path.realpath(tmp)))
        try:
            yield w
        finally:
            w.rt.workspace.index.close()


# --- checks ----------------------------------------------------------------------------------------


def _call(world: World, name: str, args: dict[str, Any], mode: str = "rest") -> dict[str, Any] | ServiceError:
    ctx = ToolContext(ANONYMOUS, world.rt, mode=mode, confirmed=mode == "rest")
    try:
        return anyio.run(call_tool, ctx, name, args)
    except ServiceError as exc:
        return exc


def _reached_without_links(world: World, rel: str) -> Path:
    """The vault entry ``rel`` names (NFC-matched per folder as vault_fs does), asserting that no component
    is a symlink and none is hidden."""
    cur = world.vault
    for seg in rel.split("/"):
        assert not seg.startswith(".") and seg != "", rel
        names = [n for n in os.listdir(cur) if unicodedata.normalize("NFC", n) == unicodedata.normalize("NFC", seg)]
        assert names, f"{rel}: {seg} not found"
        cur = cur / (seg if seg in names else names[0])
        assert not cur.is_symlink(), f"{rel} went through the symlink {cur}"
    return cur


def _check_answer(world: World, op: str, out: dict[str, Any] | ServiceError) -> None:
    if isinstance(out, ServiceError):
        assert out.code in REFUSALS, (op, out.code, out.message)
        text = json.dumps({"m": out.message, "h": out.hint, "d": out.details}, ensure_ascii=False)
    else:
        text = json.dumps(out, ensure_ascii=False)
    assert OUT_MARK not in text and HIDDEN_MARK not in text, (op, text[:300])
    if isinstance(out, ServiceError):
        return
    if op in ("read_file", "read_file_raw") and out.get("offset") == 0 and not out.get("truncated"):
        disk = _reached_without_links(world, out["path"])
        assert disk.read_text(encoding="utf-8") == out["content"]
    for change in out.get("changes", []):
        for rel in (change["path"], change.get("to")):
            if (
                rel
                and change["action"] not in ("delete",)
                and not (change["action"] == "move" and rel == change["path"])
            ):
                _reached_without_links(world, rel)


OPS = ["read_file", "read_file_raw", "list_directory", "create_file", "edit_file", "append_to_file",
       "delete_file", "rename_file", "move_path", "swap_between_propose_and_apply"]  # fmt: skip


def _run_op(world: World, op: str, path: str, other: str) -> str:
    """Run ``op`` on ``path`` (``other``: a second generated path, used as new name or destination);
    returns the refusal code or ``"ok"``."""
    vault = {"vault": "notes"}
    if op == "swap_between_propose_and_apply":
        swapped = world.vault / "swapped.md"  # a name no generated path spells
        swapped.unlink(missing_ok=True)  # a link from an earlier swap: never write through it here
        swapped.write_text("theirs\n")
        proposal = _call(world, "propose_edit_file", vault | {"path": "swapped.md", "content": "mine\n"}, mode="mcp")
        assert not isinstance(proposal, ServiceError), proposal
        world.make_links([("swapped.md", "to-file")])  # now a symlink to an outside file
        out = _call(world, "apply_edit_file", {"confirmation_token": proposal["confirmation_token"]}, mode="mcp")
        assert isinstance(out, ServiceError) and out.code in ("conflict", "path_outside_vault"), out
        _check_answer(world, op, out)
        return out.code
    args: dict[str, Any] = {
        "read_file": {"path": path},
        "read_file_raw": {"path": path},
        "list_directory": {"path": path},
        "create_file": {"path": path, "content": "created\n"},
        "edit_file": {"path": path, "content": "edited\n"},
        "append_to_file": {"path": path, "content": "appended\n"},
        "delete_file": {"path": path},
        "rename_file": {"path": path, "new_name": other},
        "move_path": {"source_path": path, "destination_dir": other},
    }[op]
    out = _call(world, op, vault | args)
    _check_answer(world, op, out)
    code = out.code if isinstance(out, ServiceError) else "ok"
    event(f"{op}: {code}")  # --hypothesis-show-statistics: both sides are reached (answers and refusals)
    return code


@settings(max_examples=60, deadline=None, derandomize=True, phases=PHASES, suppress_health_check=[HealthCheck.too_slow])
@given(
    links=st.lists(st.tuples(st.sampled_from(LINKS), st.sampled_from(LINK_KINDS)), max_size=4),
    ops=st.lists(st.tuples(st.sampled_from(OPS), attack_paths, attack_paths), min_size=1, max_size=6),
)
@example(links=[("ln.md", "to-file")], ops=[("read_file", "ln.md", ""), ("edit_file", "ln.md", "")])
@example(links=[("hl.md", "hard")], ops=[("append_to_file", "hl.md", ""), ("read_file_raw", "hl.md", "")])
@example(links=[("dangle.md", "dangling")], ops=[("create_file", "dangle.md", ""), ("edit_file", "dangle.md", "")])
@example(links=[("lndir", "to-dir")], ops=[("list_directory", "lndir", ""), ("create_file", "lndir/new.md", "")])
@example(links=[("lnhid", "to-hidden")], ops=[("read_file", "lnhid/app.json", ""), ("move_path", "a.md", "lnhid")])
@example(links=[], ops=[("edit_file", "a.md", ""), ("append_to_file", "a.md", ""), ("rename_file", "a.md", "z")])
@example(links=[], ops=[("swap_between_propose_and_apply", "", "")])
def test_no_path_leaves_the_vault(world: World, links: list[tuple[str, str]], ops: list[tuple[str, str, str]]) -> None:
    world.reset()
    made = world.make_links(links)
    try:
        for op, path, other in ops:
            _run_op(world, op, path, other)
        assert world.outside_state() == world.outside_before, made
    finally:
        world.reset()


@settings(max_examples=30, deadline=None, derandomize=True, phases=PHASES)
@given(
    segs=st.lists(st.sampled_from(["a.md", "Sub", "Deep", "b.md", "x"]), max_size=3),
    ups=st.integers(min_value=1, max_value=4),
    tail=st.sampled_from(["outside/secret.md", "vault-evil/x.md", "vault/a.md", "data/jwt_secret", ""]),
    link=st.sampled_from(LINKS[:-1]),
    kind=st.sampled_from([k for k in LINK_KINDS if k != "to-inside"]),
)
def test_a_climb_or_a_link_is_path_outside_vault(
    world: World, segs: list[str], ups: int, tail: str, link: str, kind: str
) -> None:
    """The stable code: a plain ``..`` anywhere, and a symlink or hard link on the way, are ``path_outside_vault``
    for every read and write; never ``not_found`` (which would tell an attacker what exists)."""
    climb = "/".join([*segs, *[".."] * ups, tail]).strip("/")
    world.reset()
    world.make_links([(link, kind)])
    try:
        inner = {"to-dir": "/n.md", "to-evil": "/x.md", "to-hidden": "/app.json"}.get(kind, "")
        for path in (climb, link + inner):
            for op in ("read_file", "read_file_raw", "edit_file", "append_to_file", "delete_file"):
                code = _run_op(world, op, path, "")
                assert code == "path_outside_vault", (op, path, kind, code)
        assert world.outside_state() == world.outside_before
    finally:
        world.reset()


# --- the same through the REST API of a real server, raw request bytes --------------------------------


def _raw_request(port: int, method: str, target: str, body: bytes | None = None) -> tuple[int, bytes]:
    """One HTTP/1.1 request with ``target`` sent byte for byte (no client-side normalisation of ``..``)."""
    head = f"{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
    if body is not None:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head.encode("latin-1") + b"\r\n" + (body or b""))
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    raw = b"".join(chunks)
    status = int(raw.split(b" ", 2)[1])
    return status, raw.split(b"\r\n\r\n", 1)[1]


ENCODINGS: list[Callable[[str], str]] = [
    lambda p: quote(p, safe="/"),
    lambda p: quote(p, safe=""),
    lambda p: quote(p, safe="").replace(".", "%2e"),
    lambda p: quote(quote(p, safe=""), safe=""),  # decoded once by the server: '%2e%2e' stays literal
    lambda p: quote(p, safe="").replace("%2F", "%c0%af").replace(".", "%c0%ae"),  # overlong UTF-8
]


def test_rest_api_on_loopback_never_serves_outside_bytes(live_server: Callable[..., Any], tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path))
    vault = base / "vault"
    _write(vault, NOTES | HIDDEN)
    _write(base, OUTSIDE)
    (vault / "ln.md").symlink_to(base / "outside" / "secret.md")
    (vault / "lndir").symlink_to(base / "outside" / "dir")
    os.link(base / "outside" / "secret.md", vault / "hl.md")
    server = live_server({"notes": vault}, auth_enabled=False, data_dir=base / "data")
    port = server.settings.port
    before = {p: p.read_bytes() for p in (base / "outside").rglob("*") if p.is_file()}

    @settings(max_examples=40, deadline=None, derandomize=True, phases=PHASES, suppress_health_check=list(HealthCheck))
    @given(path=attack_paths, enc=st.sampled_from(ENCODINGS), route=st.integers(0, 4))
    @example(path="../outside/secret.md", enc=ENCODINGS[2], route=0)
    @example(path="ln.md", enc=ENCODINGS[0], route=1)
    @example(path="lndir/n.md", enc=ENCODINGS[1], route=3)
    @example(path="hl.md", enc=ENCODINGS[0], route=2)
    def attack(path: str, enc: Callable[[str], str], route: int) -> None:
        q = enc(path)
        if route == 0:
            status, body = _raw_request(port, "GET", f"/api/file/notes?path={q}")
        elif route == 1:
            status, body = _raw_request(port, "GET", f"/api/file/notes/raw?path={q}")
        elif route == 2:
            status, body = _raw_request(port, "GET", f"/api/file/notes/source?path={q}")
        elif route == 3:
            payload = json.dumps({"path": path, "content": "via rest\n"}).encode()
            status, body = _raw_request(port, "POST", "/api/file/notes/append", payload)
        else:
            status, body = _raw_request(port, "GET", f"/api/file/{quote(enc(path), safe='')}?path=a.md")
        assert status < 500, (path, route, body[:300])
        assert OUT_MARK.encode() not in body and HIDDEN_MARK.encode() not in body, (path, route)
        if status >= 400:
            error = json.loads(body)
            assert error["code"] in REFUSALS | {"vault_access_denied"}, (path, route, error)

    attack()
    assert {p: p.read_bytes() for p in (base / "outside").rglob("*") if p.is_file()} == before
    assert not (base / "outside" / "created-through-a-link.md").exists()
