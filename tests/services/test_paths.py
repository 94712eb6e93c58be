"""The path guard against every traversal trick in shared/reference/security.md §1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from obsigate.domain.vault import Vault
from obsigate.services.errors import BadRequest, PathOutsideVault
from obsigate.services.files import note_text
from obsigate.services.paths import SafePath, check_new_name, kind_of, resolve_safe_path


@pytest.fixture
def vault(tmp_path: Path) -> Vault:
    root = tmp_path / "notes"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "a.md").write_text("a")
    (tmp_path / "notes-evil").mkdir()
    (tmp_path / "notes-evil" / "x.md").write_text("evil")
    (tmp_path / "outside.md").write_text("outside")
    return Vault(name="v", root=Path(os.path.realpath(root)))


@pytest.mark.parametrize(
    "raw",
    [
        "../outside.md",
        "sub/../../outside.md",
        "..",
        "/etc/passwd",
        "~/x.md",
        "C:\\Windows\\x.md",
        "sub\\..\\..\\outside.md",
        "a\x00b.md",
        ".obsidian/app.json",
        "sub/.git/config",
        ".trash/Old.md",
        "../notes-evil/x.md",
    ],
)
def test_rejects_paths_leaving_the_vault(vault: Vault, raw: str) -> None:
    with pytest.raises(PathOutsideVault) as info:
        resolve_safe_path(vault, raw)
    assert info.value.code == "path_outside_vault"


@pytest.mark.parametrize("raw", ["", "   ", "a\u202eb.md", "a\u200bb.md", "x" * 2000, "a/" * 40 + "b.md", 42, None])
def test_rejects_malformed_paths(vault: Vault, raw: object) -> None:
    with pytest.raises(BadRequest):
        resolve_safe_path(vault, raw)


def test_normalises_harmless_spellings(vault: Vault) -> None:
    assert resolve_safe_path(vault, "./sub//a.md").rel == "sub/a.md"
    assert resolve_safe_path(vault, "sub/a.md") == SafePath(vault, "sub/a.md")
    # a drive-like name is a folder name here: every open starts from the vault root's descriptor
    assert resolve_safe_path(vault, "C:/x.md").rel == "C:/x.md"
    assert resolve_safe_path(vault, "", allow_root=True).rel == ""
    # NFD input becomes NFC, the form Obsidian compares (obsidian.md §12)
    assert resolve_safe_path(vault, "Cafe\u0301.md").rel == "Caf\u00e9.md"


def test_every_symlink_is_refused_when_used(vault: Vault, tmp_path: Path) -> None:
    """The string policy cannot see a symlink; every use of the path walks it without following one."""
    (vault.root / "escape.md").symlink_to(tmp_path / "outside.md")
    (vault.root / "door").symlink_to(tmp_path / "notes-evil", target_is_directory=True)
    (vault.root / "alias.md").symlink_to(vault.root / "sub" / "a.md")  # inside: refused too
    (vault.root / ".obsidian").mkdir()
    (vault.root / ".obsidian" / "secret.md").write_text("plugin key")
    (vault.root / "hidlink.md").symlink_to(vault.root / ".obsidian" / "secret.md")
    (vault.root / "hidtrash").symlink_to(vault.root / ".obsidian", target_is_directory=True)
    for raw in ("escape.md", "door/x.md", "alias.md", "hidlink.md", "hidtrash/secret.md"):
        assert resolve_safe_path(vault, raw).rel == raw
        with pytest.raises(PathOutsideVault):
            note_text(vault, raw)
        with pytest.raises(PathOutsideVault):
            kind_of(vault, raw)
    assert kind_of(vault, "sub/a.md") == "file" and kind_of(vault, "sub") == "dir" and kind_of(vault, "no.md") is None


def test_walker_and_guard_agree_on_names(vault: Vault) -> None:
    """Names Windows reserves are served on Linux (issue 16); names no path can spell are neither listed
    nor accepted; a symlink is never listed."""
    from obsigate.domain.vault import iter_files

    for name in ("colon:name.md", 'q?"<a|b>*.md', " lead.md", "trail.md ", "dot.", "ok.md"):
        (vault.root / name).write_text("x")
    (vault.root / "hidlink.md").symlink_to(vault.root / "sub" / "a.md")
    listed = {e.path for e in iter_files(vault)}
    assert listed == {"sub/a.md", "ok.md", "colon:name.md", 'q?"<a|b>*.md'}
    for name in ("colon:name.md", 'q?"<a|b>*.md'):
        assert note_text(vault, name) == "x"
    for name in (" lead.md", "trail.md ", "dot."):
        with pytest.raises(BadRequest):
            resolve_safe_path(vault, name)


def test_new_names_must_be_portable(vault: Vault) -> None:
    (vault.root / "odd:dir").mkdir()
    check_new_name(vault, "odd:dir/new.md")  # an existing folder's name is not new
    for rel in ("a:b.md", "sub/what?.md", "new|dir/x.md"):
        with pytest.raises(BadRequest) as info:
            check_new_name(vault, rel)
        assert info.value.code == "invalid_name"
