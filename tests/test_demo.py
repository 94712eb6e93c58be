"""The demo vault: the user's copy that ``serve --demo`` makes of the packaged one (obsigate/demo.py), and the
``--demo`` flag in process. The installed wheel serving it is tests/e2e/test_wheel.py."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from cli_runner import run_cli as run
from support import DEMO_VAULT, free_port, uvicorn_thread, write_tree

from obsigate.demo import DemoVaultError, default_demo_dir, packaged_demo_vault, prepare_demo_vault


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (hidden ones too) by its relative path, with its bytes."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_the_packaged_vault_is_the_repos_demo_vault() -> None:
    packaged = packaged_demo_vault()
    assert isinstance(packaged, Path) and packaged.resolve() == DEMO_VAULT.resolve()
    files = tree(DEMO_VAULT)
    assert {"Home.md", ".obsidian/app.json", ".trash/Old idea.md", "Attachments/tidepool.png"} <= set(files)


def test_the_first_run_copies_every_file(tmp_path: Path) -> None:
    dest = tmp_path / "share" / "obsigate" / "demo-vault"  # parents made as needed
    got = prepare_demo_vault(dest)
    assert got == dest and got.is_absolute()
    assert tree(got) == tree(DEMO_VAULT)
    assert [p.name for p in dest.parent.iterdir()] == ["demo-vault"]  # no staging folder left behind


def test_a_relative_dest_comes_back_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert prepare_demo_vault(Path("demo")) == tmp_path / "demo"


def test_a_later_run_keeps_the_users_edits(tmp_path: Path) -> None:
    dest = prepare_demo_vault(tmp_path / "demo-vault")
    (dest / "Home.md").write_text("# My home\n", encoding="utf-8")
    (dest / "Glossary.md").unlink()
    (dest / "Mine.md").write_text("# Mine\n", encoding="utf-8")
    before = tree(dest)
    assert prepare_demo_vault(dest) == dest
    assert tree(dest) == before  # nothing restored, nothing overwritten, nothing removed


def test_a_file_in_the_way_is_a_clear_error(tmp_path: Path) -> None:
    dest = tmp_path / "demo-vault"
    dest.write_text("not a folder")
    with pytest.raises(DemoVaultError, match="exists and is not a folder") as caught:
        prepare_demo_vault(dest)
    assert str(dest) in str(caught.value) and dest.read_text() == "not a folder"


def test_a_copy_that_fails_leaves_nothing_half_made(tmp_path: Path) -> None:
    """A source file that cannot be read (a dangling link) stops the copy: no vault, no staging folder."""
    source = tmp_path / "source"
    (source / "sub").mkdir(parents=True)
    (source / "a.md").write_text("# a\n")
    (source / "sub" / "gone.md").symlink_to(tmp_path / "nowhere.md")
    out = tmp_path / "out"
    out.mkdir()
    with pytest.raises(DemoVaultError, match="cannot copy the demo vault") as caught:
        prepare_demo_vault(out / "demo-vault", source=source)
    assert str(out / "demo-vault") in str(caught.value)
    assert list(out.iterdir()) == []


def test_a_missing_packaged_vault_says_to_reinstall(tmp_path: Path) -> None:
    with pytest.raises(DemoVaultError, match="reinstall"):
        prepare_demo_vault(tmp_path / "demo-vault", source=tmp_path / "not-there")
    assert not (tmp_path / "demo-vault").exists()


def test_two_runs_at_once_make_one_whole_copy(tmp_path: Path) -> None:
    dest = tmp_path / "demo-vault"
    start = threading.Barrier(4)
    results: list[Path | BaseException] = []

    def one() -> None:
        start.wait(timeout=10)
        try:
            results.append(prepare_demo_vault(dest))
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            results.append(exc)

    threads = [threading.Thread(target=one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert results == [dest] * 4
    assert tree(dest) == tree(DEMO_VAULT)
    assert [p.name for p in tmp_path.iterdir()] == ["demo-vault"]


def test_the_default_place_is_the_users_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if os.name != "posix" or os.uname().sysname != "Linux":
        pytest.skip("XDG_DATA_HOME is the Linux rule; macOS and Windows have their own folders")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_demo_dir() == tmp_path / "xdg" / "obsigate" / "demo-vault"
    assert prepare_demo_vault() == tmp_path / "xdg" / "obsigate" / "demo-vault"


# --- serve --demo, in process (uvicorn.run stands in for listening: it receives the app and returns) ----------


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """What ``serve`` served: ``uvicorn.run`` is replaced by a real uvicorn in a thread (``uvicorn_thread``) that
    answers a few requests on the port ``serve`` chose, records them, then stops, so ``serve`` returns."""
    import uvicorn

    seen: list[dict[str, Any]] = []

    def serve_a_little(app: Any, *, host: str, port: int, **_kw: Any) -> None:
        url = f"http://{host}:{port}"
        with uvicorn_thread(app, port):
            seen.append(
                {
                    "vaults": httpx2.get(f"{url}/api/vaults", timeout=10).json(),
                    "home": httpx2.get(f"{url}/api/file/demo", params={"path": "Home.md"}, timeout=10),
                }
            )

    monkeypatch.setattr(uvicorn, "run", serve_a_little)
    yield seen


@pytest.mark.parametrize("mine", [False, True], ids=["alone", "beside-a-vault"])
def test_serve_demo_serves_the_copy_as_vault_demo(tmp_path: Path, served: list[dict[str, Any]], mine: bool) -> None:
    demo = tmp_path / "demo-vault"
    vaults = ["--vault", f"mine={write_tree(tmp_path / 'mine', {'Mine.md': '# Mine'})}"] if mine else []
    r = run(
        "serve", "--demo", "--demo-dir", str(demo), *vaults, "--no-auth", "--port", str(free_port()),
        data=tmp_path / "data",
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert f"Demo: {demo}" in r.stdout and "serving " in r.stdout
    assert tree(demo) == tree(DEMO_VAULT)
    [seen] = served
    assert sorted(v["name"] for v in seen["vaults"]["vaults"]) == (["demo", "mine"] if mine else ["demo"])
    assert seen["home"].status_code == 200 and seen["home"].json()["path"] == "Home.md"


def test_serve_demo_beside_a_vault_named_demo_is_refused(tmp_path: Path, served: list[dict[str, Any]]) -> None:
    vault = tmp_path / "mine"
    vault.mkdir()
    r = run(
        "serve", "--demo", "--demo-dir", str(tmp_path / "demo-vault"), "--vault", f"demo={vault}", "--no-auth",
        "--port", str(free_port()), data=tmp_path / "data",
    )  # fmt: skip
    assert r.returncode == 2 and "already declared" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "demo-vault").exists() and served == []


def test_a_refused_serve_demo_copies_nothing(tmp_path: Path, served: list[dict[str, Any]]) -> None:
    """No auth on a public bind is refused as without --demo, before any copy is made."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        for args in (("--host", "0.0.0.0"), ("--port", str(busy.getsockname()[1]))):
            r = run(
                "serve", "--demo", "--demo-dir", str(tmp_path / "demo-vault"), "--no-auth", *args, data=tmp_path / "d"
            )
            assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert not (tmp_path / "demo-vault").exists() and served == []


def test_serve_demo_inside_the_data_dir_is_refused(tmp_path: Path, served: list[dict[str, Any]]) -> None:
    """The data dir's rule holds for the demo copy too: its secrets must not be readable as notes."""
    data = tmp_path / "data"
    r = run("serve", "--demo", "--demo-dir", str(data / "demo"), "--no-auth", "--port", str(free_port()), data=data)
    assert r.returncode == 2 and "overlaps vault 'demo'" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert served == []


def test_mcp_config_demo_passes_the_flag_on(tmp_path: Path) -> None:
    """The printed configuration says ``--demo`` (and the chosen ``--demo-dir``), not the copy's path: a client
    started from it makes the copy again if it was deleted."""
    demo = tmp_path / "demo-vault"
    r = run("mcp", "config", "--client", "cursor", "--demo", "--demo-dir", str(demo), "--no-auth", data=tmp_path / "d")
    assert r.returncode == 0, r.stderr
    args = json.loads(r.stdout)["mcpServers"]["obsigate"]["args"]
    assert "--vault" not in args and args[args.index("--demo-dir") + 1] == str(demo)
    assert "--demo" in args and "--no-auth" in args
    assert not demo.exists()  # made by the stdio server when the client starts it


def test_a_demo_dir_inside_a_declared_vault_is_refused(tmp_path: Path, served: list[dict[str, Any]]) -> None:
    mine = write_tree(tmp_path / "mine", {"Mine.md": "# Mine"})
    r = run(
        "serve", "--demo", "--demo-dir", str(mine / "demo"), "--vault", f"mine={mine}", "--no-auth",
        "--port", str(free_port()), data=tmp_path / "d",
    )  # fmt: skip
    assert r.returncode == 2 and "overlaps vault 'mine'" in r.stderr and not (mine / "demo").exists()
    assert served == []
