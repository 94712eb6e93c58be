"""Black-box: the built wheel, installed into a fresh venv outside the checkout, serves the demo vault.

What ``pipx install`` / ``uvx`` do with the wheel, offline and bounded: the tracked files of ``src/obsigate`` (with
``pyproject.toml`` and ``README.md``) are copied to a temp folder and built there with this venv's setuptools
(``pip wheel --no-build-isolation --no-index``: no download, nothing written into the checkout); a new venv
gets the wheel (``pip install --no-deps --no-index``) and, for its dependencies, this venv's installed packages
through a ``.pth`` line pointing at a folder of links to them, obsigate's own (the editable install of the
checkout) left out. ``pip check`` then proves the wheel's declared requirements are met by what the fresh venv
sees, and every run is started with no ``PYTHONPATH`` from a folder outside the checkout, so ``obsigate`` can
only come from the wheel (checked). The installed program then runs ``obsigate serve --demo`` on a free
loopback port and is asked over HTTP (health, a note, the web page and its assets, a write) and over MCP
with the official SDK client.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import anyio
import httpx2
import pytest
from support import REPO, free_port

pytestmark = pytest.mark.e2e

PACKAGE = REPO / "src" / "obsigate"


@dataclass(frozen=True)
class Installed:
    """The fresh venv with the wheel in it: its interpreter, its ``obsigate`` script, where the package landed,
    the environment to run them in (no PYTHONPATH, a private HOME and XDG_DATA_HOME) and a scratch folder."""

    python: Path
    script: Path
    package: Path
    env: dict[str, str]
    home: Path


def tracked_files() -> list[str]:
    """The package's files as git knows them (relative to the repo), else every file but bytecode."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--", "src/obsigate", "pyproject.toml", "README.md"],
            cwd=REPO, capture_output=True, check=True, timeout=30,
        ).stdout  # fmt: skip
        names = [n for n in out.decode().split("\0") if n]
    except (OSError, subprocess.SubprocessError):
        names = []
    if not names:  # not a git checkout (an unpacked archive): what is on disk
        names = ["pyproject.toml", "README.md"] + [
            p.relative_to(REPO).as_posix() for p in PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts
        ]
    return sorted(n for n in names if (REPO / n).is_file())  # a tracked file deleted in the work tree is not built


def run(cmd: list[str | Path], *, env: dict[str, str] | None = None, cwd: Path, timeout: float) -> str:
    """Run ``cmd`` to its end; its output, or a failed test that shows it."""
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} exited {r.returncode}:\n{r.stdout}\n{r.stderr}"
    return r.stdout


def borrowed_site(into: Path) -> Path:
    """A folder of links to this venv's installed distributions, obsigate's own (and every .pth file, which
    is where an editable install lives) left out: the fresh venv's dependencies, without a download."""
    site = Path(sysconfig.get_paths()["purelib"])
    into.mkdir()
    for entry in site.iterdir():
        name = entry.name.lower()
        if name.endswith(".pth") or name.startswith(("obsigate", "__editable__")) or name == "__pycache__":
            continue
        (into / entry.name).symlink_to(entry)
    return into


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """Build the wheel from the tracked sources and install it into a fresh venv (see the module's docstring)."""
    root = tmp_path_factory.mktemp("wheel")
    stage, dist, venv, home = root / "stage", root / "dist", root / "venv", root / "home"
    for name in tracked_files():
        (stage / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, stage / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith(("OBSIGATE_", "PIP_"))}
    env |= {"HOME": str(home), "XDG_DATA_HOME": str(home / "share"), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    home.mkdir()
    pip = [sys.executable, "-m", "pip"]
    run(
        [*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", dist, stage],
        env=env,
        cwd=root,
        timeout=120,
    )
    [wheel] = dist.glob("obsigate-*-py3-none-any.whl")
    run([sys.executable, "-m", "venv", "--without-pip", venv], env=env, cwd=root, timeout=60)
    python = venv / "bin" / "python"
    fresh_site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], env=env, cwd=root, timeout=30).strip())  # fmt: skip
    (fresh_site / "obsigate-test-deps.pth").write_text(f"{borrowed_site(root / 'deps')}\n")
    run([*pip, "--python", python, "install", "--no-deps", "--no-index", wheel], env=env, cwd=root, timeout=120)
    where = run([python, "-c", "import obsigate; print(obsigate.__file__)"], env=env, cwd=root, timeout=30).strip()
    package = Path(where).parent
    assert package == fresh_site / "obsigate", f"obsigate imported from {where}, not from the fresh venv"
    return Installed(python, venv / "bin" / "obsigate", package, env, home)


def test_the_wheel_carries_every_file_of_the_package(installed: Installed) -> None:
    """Code, the web bundle, the services' TOML and the demo vault (its hidden .obsidian/ and .trash/ too),
    byte for byte as in the checkout; and the wheel's declared requirements are all met."""
    names = [n for n in tracked_files() if n.startswith("src/obsigate/")]
    missing = [n for n in names if not (installed.package / n.removeprefix("src/obsigate/")).is_file()]
    assert missing == [], f"not in the installed wheel: {missing[:20]}"
    differ = [
        n
        for n in names
        if (installed.package / n.removeprefix("src/obsigate/")).read_bytes() != (REPO / n).read_bytes()
    ]
    assert differ == []
    assert {"demo_vault/.obsidian/app.json", "demo_vault/.trash/Old idea.md", "web/static/app.js"} <= {
        n.removeprefix("src/obsigate/") for n in names
    }
    check = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(installed.python), "check"],
        env=installed.env, cwd=installed.home, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    ours = [line for line in check.stdout.splitlines() if line.lower().startswith("obsigate ")]
    assert ours == [], check.stdout


@pytest.fixture(scope="module")
def demo_server(installed: Installed) -> Iterator[str]:
    """The installed ``obsigate serve --demo --no-auth`` on a free loopback port (its copy of the demo vault in
    the fresh HOME's data folder), until the module's tests are done; yields its base URL."""
    port = free_port()
    log = installed.home / "serve.log"
    data = installed.home / "data"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(installed.script), "serve", "--demo", "--no-auth", "--port", str(port), "--data-dir", str(data)],
            cwd=installed.home, env=installed.env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, f"no answer on {url}/api/health:\n{log.read_text()}"
            try:
                if httpx2.get(f"{url}/api/health", timeout=2).json()["index"]["state"] == "ready":
                    break
            except httpx2.TransportError:
                pass
            time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
    assert "Traceback" not in log.read_text(), log.read_text()


def test_serve_demo_answers_over_http(installed: Installed, demo_server: str) -> None:
    demo_copy = installed.home / "share" / "obsigate" / "demo-vault"  # XDG_DATA_HOME/obsigate/demo-vault
    assert (demo_copy / "Home.md").read_bytes() == (PACKAGE / "demo_vault" / "Home.md").read_bytes()
    vaults = httpx2.get(f"{demo_server}/api/vaults", timeout=10).json()["vaults"]
    assert [v["name"] for v in vaults] == ["demo"]
    note = httpx2.get(f"{demo_server}/api/file/demo", params={"path": "Home.md"}, timeout=10)
    title = next(
        line for line in (demo_copy / "Home.md").read_text(encoding="utf-8").splitlines() if line.startswith("# ")
    )
    assert note.status_code == 200 and note.json()["headings"][0]["text"] == title.removeprefix("# ")
    page = httpx2.get(f"{demo_server}/", timeout=10)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assets = re.findall(r'(?:src|href)="/static/([^"]+)"', page.text)
    assert "app.js" in assets
    for asset in assets:
        got = httpx2.get(f"{demo_server}/static/{asset}", timeout=10)
        assert got.status_code == 200 and got.content == (PACKAGE / "web" / "static" / asset).read_bytes(), asset


def test_writes_go_to_the_copy_never_into_the_package(installed: Installed, demo_server: str) -> None:
    r = httpx2.post(
        f"{demo_server}/api/file/demo", json={"path": "From the wheel.md", "content": "# Written\n"}, timeout=10
    )
    assert r.status_code == 200, r.text
    assert (installed.home / "share" / "obsigate" / "demo-vault" / "From the wheel.md").read_text() == "# Written\n"
    assert not (installed.package / "demo_vault" / "From the wheel.md").exists()


def test_serve_demo_answers_over_mcp(demo_server: str) -> None:
    """The official SDK client: initialize, the tool list, and read_file on the demo vault."""
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def session() -> tuple[str | None, set[str], dict]:
        async with (
            httpx2.AsyncClient(timeout=30) as http,
            Client(streamable_http_client(f"{demo_server}/mcp", http_client=http)) as client,
        ):
            tools = {t.name for t in (await client.list_tools()).tools}
            result = await client.call_tool("read_file", {"vault": "demo", "path": "Home.md"})
            return client.protocol_version, tools, result.structured_content or {}

    version, tools, home = anyio.run(session)
    assert version and {"read_file", "search_fulltext", "list_vaults"} <= tools
    assert "demo vault that ships with ObsiGate" in home["content"]


async def over_stdio(installed: Installed, log: Path, *args: str) -> tuple[set[str], dict, dict]:
    """The installed ``obsigate mcp stdio ARGS`` driven by the SDK's stdio client: the tool names, then
    ``list_vaults`` and ``read_file`` of the demo's Home.md (structured results); its stderr to ``log``."""
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=str(installed.script), args=["mcp", "stdio", *args], env=installed.env, cwd=installed.home
    )
    with log.open("w") as errlog, anyio.fail_after(60):
        async with Client(stdio_client(params, errlog=errlog)) as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            listed = await client.call_tool("list_vaults", {})
            home = await client.call_tool("read_file", {"vault": "demo", "path": "Home.md"})
            return tools, listed.structured_content or {}, home.structured_content or {}


@pytest.mark.parametrize("data", ["data-stdio", "data"], ids=["own-data-dir", "forwarded-to-serve"])
def test_mcp_stdio_demo_answers(installed: Installed, demo_server: str, data: str) -> None:
    """Its own data dir (this process indexes the demo copy), or the running ``serve --demo``'s: then every
    message is forwarded to that server, the one writer of its index."""
    args = ["--demo", "--no-auth", "--data-dir", str(installed.home / data)]
    log = installed.home / f"stdio-{data}.log"
    tools, listed, home = anyio.run(over_stdio, installed, log, *args)
    assert {"read_file", "search_fulltext", "list_vaults"} <= tools
    assert [v["name"] for v in listed["vaults"]] == ["demo"]
    assert "demo vault that ships with ObsiGate" in home["content"]
    forwarded = f"forwarding MCP to {demo_server}/mcp" in log.read_text()
    assert forwarded == (data == "data"), log.read_text()
