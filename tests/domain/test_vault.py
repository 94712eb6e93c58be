"""Vault walk: hidden entries, editor temp files, symlinks (never followed, wherever they point), NFC."""

from __future__ import annotations

import os
import unicodedata
from pathlib import Path

import pytest

from obsigate.domain.storage import vault_fs
from obsigate.domain.vault import (
    FileEntry,
    Vault,
    created_ns,
    decode_note,
    is_editor_temp,
    is_hidden,
    is_note,
    iter_files,
    walk,
)


def _tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")


def _paths(vault: Vault) -> list[str]:
    return [e.path for e in iter_files(vault)]


@pytest.mark.parametrize(
    ("path", "hidden"),
    [
        (".obsidian/app.json", True),
        ("a/.git/config", True),
        ("notes/.DS_Store", True),
        (".trash/Old.md", True),
        ("notes/a.md", False),
        ("a.b/c.md", False),
        ("notes/x.md.", False),
    ],
)
def test_is_hidden(path: str, hidden: bool) -> None:
    assert is_hidden(path) is hidden


@pytest.mark.parametrize(
    "name",
    [
        ".note.md.swp",
        "note.md.swo",
        "note.swx",
        "4913",
        "note.md~",
        ".#note.md",
        "#note.md#",
        "x.tmp",
        "X.TMP",
        ".goutputstream-ABC123",
        "big.zip.crdownload",
        "video.mp4.part",
        "~$report.docx",
        ".~lock.sheet.ods#",
        "Note.md.sb-1a2b3c4d-XyZ12a",
        "Note.md.sb-x",
        "a.md.kate-swp",
        "note.md___jb_tmp___",
        "sub/dir/x.tmp",
    ],
)
def test_editor_temp_names(name: str) -> None:
    assert is_editor_temp(name)


@pytest.mark.parametrize(
    "name",
    [
        "note.md",
        "4913.md",
        "tmp.md",
        "partial results.md",
        "movie.swf",
        "~notes.md",
        "lock.md",
        "a#b.md",
        "plan.sb-draft.md",
    ],
)
def test_not_editor_temp(name: str) -> None:
    assert not is_editor_temp(name)


def test_is_note() -> None:
    assert is_note("a/B.md") and is_note("X.MD")
    assert not is_note("a.markdown") and not is_note("md") and not is_note("a.mdx")


def test_decode_note_strips_bom_and_is_strict() -> None:
    assert decode_note("\ufeff# Titre é".encode()) == "# Titre é"
    assert decode_note(b"plain") == "plain"
    with pytest.raises(UnicodeDecodeError):
        decode_note(b"caf\xe9")  # latin-1


def test_vault_root_is_resolved(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (tmp_path / "link").symlink_to(real)
    v = Vault("v", tmp_path / "link" / ".." / "link")
    assert v.root == real.resolve() and v.root.is_absolute()
    assert Vault("v", real).root == real.resolve()


def test_walk_skips_hidden_and_temp_sorted_deterministic(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "b.md": "b",
            "a.md": "a",
            "Z.md": "z",
            "img/pic.png": "png",
            "sub/deep/n.md": "n",
            "sub/.hidden.md": "h",
            ".obsidian/app.json": "{}",
            ".trash/Old.md": "old",
            "sub/.git/config": "x",
            "note.md~": "backup",
            "4913": "",
            "x.tmp": "",
            ".#lock.md": "",
            "~$doc.docx": "",
            ".~lock.sheet.ods#": "",
            "Note.md.sb-1a2b3c4d-XyZ12a": "",
            "dl.crdownload": "",
            "video.part": "",
        },
    )
    v = Vault("v", tmp_path)
    got = _paths(v)
    assert got == ["Z.md", "a.md", "b.md", "img/pic.png", "sub/deep/n.md"]
    assert got == _paths(v)  # deterministic
    e = next(x for x in iter_files(v) if x.path == "a.md")
    st = (tmp_path / "a.md").stat()
    assert e == FileEntry("a.md", st.st_size, st.st_mtime_ns, created_ns(st))


def test_walk_skips_non_regular_files(tmp_path: Path) -> None:
    _tree(tmp_path, {"a.md": "a"})
    os.mkfifo(tmp_path / "pipe.md")
    assert _paths(Vault("v", tmp_path)) == ["a.md"]


def test_no_symlink_is_followed_or_listed(tmp_path: Path) -> None:
    root, outside = tmp_path / "vault", tmp_path / "outside"
    _tree(root, {"notes/real.md": "r", "other/inner.md": "i"})
    _tree(outside, {"secret.md": "s", "dir/s2.md": "s2"})
    (root / "link-file.md").symlink_to(root / "notes" / "real.md")  # inside: a link's target can change
    (root / "link-dir").symlink_to(root / "other")
    (root / "rel-link.md").symlink_to("notes/real.md")
    (root / "escape.md").symlink_to(outside / "secret.md")
    (root / "escape-dir").symlink_to(outside / "dir")
    (root / "sneaky.md").symlink_to("../outside/secret.md")
    (root / "dangling.md").symlink_to(root / "missing.md")
    (root / "other" / "up").symlink_to(root)  # a loop is no longer a case of its own
    assert _paths(Vault("v", root)) == ["notes/real.md", "other/inner.md"]


def test_nfd_names_are_reported_nfc_and_openable(tmp_path: Path) -> None:
    nfd = unicodedata.normalize("NFD", "Réunion.md")
    (tmp_path / "Café").mkdir()
    (tmp_path / "Café" / nfd).write_text("x", encoding="utf-8")
    (tmp_path / nfd).write_text("y", encoding="utf-8")
    v = Vault("v", tmp_path)
    got = {entry.path: disk for entry, disk in walk(v)}
    assert set(got) == {"Café/Réunion.md", "Réunion.md"}
    assert vault_fs.read_file(v.root, got["Réunion.md"])[0] == b"y"
    # the NFC spelling every API path uses finds the NFD name on disk
    assert vault_fs.read_file(v.root, "Réunion.md")[0] == b"y"
    assert vault_fs.read_file(v.root, "Café/Réunion.md")[0] == b"x"


def test_walk_under_a_folder(tmp_path: Path) -> None:
    _tree(tmp_path, {"a/x.md": "x", "a/b/y.md": "y", "c.md": "c", ".h/z.md": "z"})
    v = Vault("v", tmp_path)
    assert [e.path for e, _ in walk(v, "a")] == ["a/b/y.md", "a/x.md"]
    assert list(walk(v, "missing")) == [] and list(walk(v, ".h")) == [] and list(walk(v, "c.md")) == []


def test_unreadable_folder_is_skipped(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads every folder")
    _tree(tmp_path, {"ok.md": "a", "locked/x.md": "b"})
    (tmp_path / "locked").chmod(0)
    try:
        assert _paths(Vault("v", tmp_path)) == ["ok.md"]
    finally:
        (tmp_path / "locked").chmod(0o755)
