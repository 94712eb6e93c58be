"""What the breaker found after the symlink race was closed (issue 16), each on the real parts: a vault folder
swapped for a symlink to the data dir, a hard link to an outside file, a folder deeper than the walk sees
being deleted, AWS secret keys alone on a line in every Markdown dress, Windows device names."""

from __future__ import annotations

import os
from pathlib import Path

import httpx2
import pytest
from support import write_tree

from obsigate.domain.redaction import redact_text
from obsigate.domain.storage import vault_fs
from obsigate.domain.vault import Vault, iter_files
from obsigate.services.errors import BadRequest
from obsigate.services.paths import check_new_name


@pytest.fixture
def server(live_server, tmp_path: Path):
    vault = write_tree(tmp_path / "vault", {"Home.md": "# Home\n", "Notes/a.md": "a\n"})
    data = tmp_path / "data"
    srv = live_server({"notes": vault}, data_dir=data, auth_enabled=False)
    srv.vault, srv.data = vault, data
    return srv


def test_a_vault_folder_swapped_for_a_symlink_is_refused_not_followed(server, tmp_path: Path) -> None:
    """F1: the root was opened by name each time, so a vault folder replaced by a symlink to the data dir served
    ``jwt_secret``. The root's identity is pinned when the vault is declared."""
    api, vault = f"{server.url}/api", server.vault
    assert httpx2.get(f"{api}/file/notes/raw", params={"path": "Home.md"}).status_code == 200
    secret = (server.data / "jwt_secret").read_text().strip()
    os.rename(vault, tmp_path / "vault.real")
    os.symlink(server.data, vault)
    try:
        for route in ("/file/notes/raw", "/file/notes/source", "/file/notes"):
            r = httpx2.get(f"{api}{route}", params={"path": "jwt_secret"})
            assert secret not in r.text and r.json()["code"] == "path_outside_vault", (route, r.text)
        r = httpx2.post(f"{api}/file/notes/append", json={"path": "jwt_secret", "content": "x"})
        assert r.json()["code"] == "path_outside_vault"
    finally:
        vault.unlink()
        os.rename(tmp_path / "vault.real", vault)
    assert (server.data / "jwt_secret").read_text().strip() == secret
    assert httpx2.get(f"{api}/file/notes/raw", params={"path": "Home.md"}).status_code == 200  # the same folder again


def test_a_hard_link_to_an_outside_file_is_neither_listed_nor_read(server, tmp_path: Path) -> None:
    """F2: a hard link is another name of the same file; the other name may be the data dir's key."""
    outside = write_tree(tmp_path / "outside", {"secret.md": "OUTSIDE-MARKER\n"})
    os.link(outside / "secret.md", server.vault / "linked.md")
    api = f"{server.url}/api"
    for route in ("/file/notes/raw", "/file/notes/source", "/file/notes"):
        r = httpx2.get(f"{api}{route}", params={"path": "linked.md"})
        assert "OUTSIDE-MARKER" not in r.text and r.json()["code"] == "path_outside_vault", (route, r.text)
    assert "linked.md" not in {e.path for e in iter_files(Vault("v", server.vault))}
    assert (outside / "secret.md").read_text() == "OUTSIDE-MARKER\n"


def test_a_folder_deeper_than_the_walk_sees_is_not_deleted_unseen(server) -> None:
    """F4: the walk stopped at 64 folders and rmtree removed the rest with no backup."""
    deep = server.vault / "deep70" / Path(*["d"] * 70)
    deep.mkdir(parents=True)
    (deep / "bottom.md").write_text("keep me\n")
    r = httpx2.delete(f"{server.url}/api/directory/notes", params={"path": "deep70", "recursive": "true"})
    assert (r.status_code, r.json()["code"]) == (400, "invalid_argument"), r.text
    assert (deep / "bottom.md").read_text() == "keep me\n"
    with pytest.raises(vault_fs.TooDeep):
        list(vault_fs.walk(server.vault, "deep70", strict=True))


@pytest.mark.parametrize("line", [
    "> {k}", "> > {k}", "1. {k}", "12) {k}", "| {k} |", '"{k}"', "'{k}'", "`{k}`", "{k} # prod", "{k} // prod",
    "- {k}", "  * {k}",
])  # fmt: skip
def test_a_bare_aws_secret_key_in_any_markdown_dress_is_redacted(line: str) -> None:
    """F5: blockquotes, numbered lists, table cells, quotes and trailing comments let the key through."""
    key = "wJa1rXUtnFEMI/K7MDENG/bPxRfiCY9a8b7c6dXX"
    out = redact_text(f"# Keys\n\n{line.format(k=key)}\n")
    assert key not in out and "[REDACTED:aws-secret-key]" in out


@pytest.mark.parametrize("name", ["CON.md", "nul.md", "Com1", "lpt9.txt", "aux"])
def test_windows_device_names_are_not_new_names(tmp_path: Path, name: str) -> None:
    vault = Vault("v", write_tree(tmp_path / "v", {"a.md": "a"}))
    with pytest.raises(BadRequest) as info:
        check_new_name(vault, name)
    assert info.value.code == "invalid_name"
    check_new_name(vault, "Console.md")  # only the device names themselves
