"""Properties of ``domain/storage/vault_fs.py`` over generated trees: random folders, files and symlinks (to
outside files and folders, to inside ones, relative ones climbing with ``..``, dangling ones, loops), and
random paths into them (``..``, ``.``, empty segments, NFD spellings, names through links).

Whatever the layout and the path: a read returns only bytes of a regular file reached through real folders
inside the root; a write changes nothing outside and lands on a regular file inside; the walk lists nothing
behind a symlink. Outside files carry a marker that no answer may contain.
"""

from __future__ import annotations

import os
import stat
import tempfile
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from obsigate.domain.storage import vault_fs

MARKER = b"OUTSIDE-MARKER"
NAMES = ["a", "b", "Caf\u00e9", "n.md"]  # é: its NFD spelling is generated for paths too
KINDS = ["dir", "file", "link-out-file", "link-out-dir", "link-in", "link-up", "dangling", "link-self"]

layout = st.lists(st.tuples(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3), st.sampled_from(KINDS)),
                  min_size=1, max_size=12)  # fmt: skip
segment = st.sampled_from([*NAMES, "Cafe\u0301", "..", ".", "", "x"])
rel_path = st.lists(segment, min_size=1, max_size=4).map("/".join)


def _build(base: Path, entries: list[tuple[list[str], str]]) -> Path:
    root, outside = base / "vault", base / "outside"
    (outside / "dir").mkdir(parents=True)
    (outside / "secret.md").write_bytes(MARKER + b" file")
    (outside / "dir" / "n.md").write_bytes(MARKER + b" in a folder")
    root.mkdir()
    for segs, kind in entries:
        parent = root.joinpath(*segs[:-1])
        try:
            parent.mkdir(parents=True, exist_ok=True)
            target = parent / segs[-1]
            if os.path.lexists(target):
                continue
            if kind == "dir":
                target.mkdir()
            elif kind == "file":
                target.write_bytes(b"inside " + "/".join(segs).encode())
            elif kind == "link-out-file":
                target.symlink_to(outside / "secret.md")
            elif kind == "link-out-dir":
                target.symlink_to(outside / "dir", target_is_directory=True)
            elif kind == "link-in":
                target.symlink_to(root)
            elif kind == "link-up":
                target.symlink_to("../" * len(segs) + "outside/secret.md")
            elif kind == "dangling":
                target.symlink_to(base / "nowhere")
            else:
                target.symlink_to(target)
        except OSError:  # a file where a folder was asked: that entry is skipped
            continue
    return root


def _reached_without_links(root: Path, rel: str) -> Path:
    """The on-disk entry ``rel`` names, asserting that no component on the way (nor the leaf) is a symlink."""
    cur = root
    for seg in (s for s in rel.split("/") if s not in ("", ".")):
        assert seg != ".."
        match = [n for n in os.listdir(cur) if unicodedata.normalize("NFC", n) == unicodedata.normalize("NFC", seg)]
        cur = cur / (seg if seg in match else match[0])
        assert not stat.S_ISLNK(os.lstat(cur).st_mode), f"{rel} went through the symlink {cur}"
    return cur


def _outside_state(base: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in (base / "outside").rglob("*") if p.is_file() and not p.is_symlink()}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries=layout, paths=st.lists(rel_path, min_size=1, max_size=6), data=st.binary(max_size=32))
def test_no_path_escapes_whatever_the_layout(
    entries: list[tuple[list[str], str]], paths: list[str], data: bytes
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = _build(base, entries)
        outside = _outside_state(base)
        for rel in paths:
            try:
                body, st_ = vault_fs.read_file(root, rel)
            except OSError:
                pass
            else:
                assert MARKER not in body
                assert stat.S_ISREG(st_.st_mode)
                assert _reached_without_links(root, rel).read_bytes() == body
            try:
                found = vault_fs.kind(root, rel)
            except OSError:
                found = None
            assert found in (None, "file", "dir", "symlink", "other")
            try:
                vault_fs.write_file(root, rel, data)
            except OSError:
                pass
            else:
                leaf = _reached_without_links(root, rel)
                assert leaf.read_bytes() == data
        for disk, st_ in vault_fs.walk(root):
            _reached_without_links(root, disk.rsplit("/", 1)[0] if "/" in disk else "")
            if stat.S_ISREG(st_.st_mode):
                assert MARKER not in (root / disk).read_bytes()
        assert _outside_state(base) == outside


@settings(max_examples=60, deadline=None)
@given(entries=layout, src=rel_path, dst=rel_path)
def test_renames_and_removals_never_touch_the_outside(entries: list[tuple[list[str], str]], src: str, dst: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        root = _build(base, entries)
        outside = _outside_state(base)
        for op in (lambda: vault_fs.rename(root, src, dst), lambda: vault_fs.remove_tree(root, dst),
                   lambda: vault_fs.make_folder(root, src), lambda: vault_fs.remove_file(root, src)):  # fmt: skip
            try:
                op()
            except OSError:
                pass
        assert _outside_state(base) == outside
        assert (base / "outside" / "dir").is_dir() and not (base / "outside" / "dir").is_symlink()
