"""services.recent: humanize_age at its boundaries, and list_recent over a real index of real files."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import SMALL_VAULT, write_tree

from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.vault import Vault
from obsigate.services.errors import BadRequest
from obsigate.services.recent import humanize_age, list_recent
from obsigate.services.workspace import Workspace, iso_utc

MIN, HOUR, DAY = 60, 3600, 86400
NOW = 1_700_000_000.0  # a fixed "now" in the past, for ages (2023-11-14)

# --- humanize_age ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (-10 * DAY, "in the future"),
        (-61, "in the future"),
        (-60, "just now"),  # clock skew up to a minute is tolerated
        (-1, "just now"),
        (0, "just now"),
        (59.9, "just now"),
        (60, "1 minute ago"),
        (119, "1 minute ago"),
        (120, "2 minutes ago"),
        (HOUR - 1, "59 minutes ago"),
        (HOUR, "1 hour ago"),
        (2 * HOUR - 1, "1 hour ago"),
        (2 * HOUR, "2 hours ago"),
        (DAY - 1, "23 hours ago"),
        (DAY, "yesterday"),
        (2 * DAY - 1, "yesterday"),
        (2 * DAY, "2 days ago"),
        (4 * DAY + 5 * HOUR, "4 days ago"),
        (30 * DAY - 1, "29 days ago"),
        (30 * DAY, "1 month ago"),
        (60 * DAY - 1, "1 month ago"),
        (60 * DAY, "2 months ago"),
        (364 * DAY, "12 months ago"),
        (365 * DAY, "1 year ago"),
        (2 * 365 * DAY - 1, "1 year ago"),
        (2 * 365 * DAY, "2 years ago"),
        (40 * 365 * DAY, "40 years ago"),
    ],
)
def test_humanize_age_boundaries(seconds: float, text: str) -> None:
    assert humanize_age(seconds) == text


def test_iso_utc() -> None:
    assert iso_utc(0) == "1970-01-01T00:00:00+00:00"
    assert iso_utc(1_700_000_000 * 10**9 + 999_999_999) == "2023-11-14T22:13:20+00:00"


# --- list_recent over real files ------------------------------------------------------------------

#: SMALL_VAULT's visible files, newest first, and their age in seconds before NOW.
AGES = {
    "Ideas.md": 5 * MIN,
    "Projects/Plan.md": 3 * HOUR,
    "Home.md": 30 * HOUR,
    "Attachments/pic.png": 4 * DAY,
    "Projects/Secret.md": 70 * DAY,
}


def set_mtime(path: Path, epoch_s: float) -> None:
    os.utime(path, ns=(int(epoch_s * 1e9), int(epoch_s * 1e9)))


@pytest.fixture
def ws(tmp_path: Path) -> Iterator[Workspace]:
    """Vault ``notes`` (SMALL_VAULT, mtimes from AGES before NOW) and ``other`` (one note, newest of all)."""
    notes = write_tree(tmp_path / "notes", SMALL_VAULT)
    for rel, age in AGES.items():
        set_mtime(notes / rel, NOW - age)
    other = write_tree(tmp_path / "other", {"Private.md": "# Private\n"})
    set_mtime(other / "Private.md", NOW - 10)
    vaults = {"notes": Vault("notes", notes), "other": Vault("other", other)}
    index = VaultIndex(tmp_path / "index.sqlite3")
    Indexer(index, vaults).refresh_all()
    yield Workspace(vaults=vaults, index=index)
    index.close()


def test_newest_first_with_iso_times_and_ages(ws: Workspace) -> None:
    out = list_recent(ws, ["notes"], now=NOW).model_dump()
    assert [f["path"] for f in out["files"]] == list(AGES)
    assert [f["age"] for f in out["files"]] == [
        "5 minutes ago",
        "3 hours ago",
        "yesterday",
        "4 days ago",
        "2 months ago",
    ]
    first = out["files"][0]
    assert first == {
        "vault": "notes",
        "path": "Ideas.md",
        "title": "Ideas",
        "is_note": True,
        "size": len(SMALL_VAULT["Ideas.md"].encode()),
        "modified": iso_utc(int((NOW - 5 * MIN) * 1e9)),
        "created": iso_utc(int((NOW - 5 * MIN) * 1e9)),  # Linux: ctime capped at the mtime set in the past
        "age": "5 minutes ago",
    }
    assert first["modified"].endswith("+00:00")
    pic = next(f for f in out["files"] if f["path"] == "Attachments/pic.png")
    assert pic["title"] == "pic.png" and pic["is_note"] is False  # attachments are listed too
    assert (out["total"], out["offset"], out["truncated"], out["next_offset"]) == (5, 0, False, None)
    # no warning: the field is there (a model), and null
    assert out["index"] == {"state": "ready", "complete": True} and out["warning"] is None
    assert out["mode"] == "modified"


def test_paging_covers_every_file_once(ws: Workspace) -> None:
    seen, offset, pages = [], 0, 0
    while offset is not None:
        page = list_recent(ws, ["notes"], limit=2, offset=offset, now=NOW).model_dump()
        assert page["total"] == 5 and page["offset"] == offset
        assert page["truncated"] is (page["next_offset"] is not None)
        seen += [f["path"] for f in page["files"]]
        offset, pages = page["next_offset"], pages + 1
    assert seen == list(AGES) and pages == 3
    past_end = list_recent(ws, ["notes"], offset=50).model_dump()
    assert past_end["files"] == [] and past_end["total"] == 5 and past_end["next_offset"] is None


def test_every_accessible_vault_by_default_and_one_on_request(ws: Workspace) -> None:
    both = list_recent(ws, list(ws.vaults), now=NOW).model_dump()
    assert [(f["vault"], f["path"]) for f in both["files"][:2]] == [("other", "Private.md"), ("notes", "Ideas.md")]
    assert both["total"] == 6
    only = list_recent(ws, ["other"], now=NOW).model_dump()
    assert [f["path"] for f in only["files"]] == ["Private.md"] and only["total"] == 1


def test_only_the_vaults_in_scope(ws: Workspace) -> None:
    # the grant checks that choose the scope are the tool layer's: tests/tools/test_list_recent.py
    mine = list_recent(ws, ["notes"], now=NOW).model_dump()
    assert {f["vault"] for f in mine["files"]} == {"notes"} and mine["total"] == 5
    nothing = list_recent(ws, []).model_dump()
    assert nothing["files"] == [] and nothing["total"] == 0 and nothing["truncated"] is False


@pytest.mark.parametrize(
    "kwargs", [{"mode": "accessed"}, {"mode": ""}, {"limit": 0}, {"limit": 101}, {"offset": -1}, {"offset": 10_000_001}]
)
def test_bad_arguments(ws: Workspace, kwargs: dict) -> None:
    with pytest.raises(BadRequest):
        list_recent(ws, list(ws.vaults), **kwargs)


def test_created_mode_differs_from_modified_on_real_files(tmp_path: Path) -> None:
    """``first.md`` is created before ``second.md`` but modified later (mtime set ahead): ``modified`` puts
    it first, ``created`` second. Holds with birth times (macOS, BSD) and with Linux's ctime rule, where a
    file's creation time is its last inode change (here the utime call), capped at its mtime."""
    root = tmp_path / "v"
    root.mkdir()
    now = time.time()
    (root / "first.md").write_text("# First\n")
    set_mtime(root / "first.md", now + 2 * DAY)
    time.sleep(0.05)  # past the kernel's coarse timestamp tick
    (root / "second.md").write_text("# Second\n")
    set_mtime(root / "second.md", now + 1 * DAY)
    (root / "old.md").write_text("# Old\n")
    set_mtime(root / "old.md", now - 3 * DAY)
    vaults = {"v": Vault("v", root)}
    index = VaultIndex(tmp_path / "index.sqlite3")
    try:
        Indexer(index, vaults).refresh_all()
        ws = Workspace(vaults=vaults, index=index)
        modified = list_recent(ws, list(ws.vaults), mode="modified", now=now).model_dump()
        created = list_recent(ws, list(ws.vaults), mode="created", now=now).model_dump()
    finally:
        index.close()
    assert [f["path"] for f in modified["files"]] == ["first.md", "second.md", "old.md"]
    assert [f["path"] for f in created["files"]] == ["second.md", "first.md", "old.md"]
    assert modified["files"][0]["age"] == "in the future"  # a clock far ahead is not "just now"
    assert created["files"][0]["age"] == "just now"  # the age follows the chosen mode
    assert [f["age"] for f in modified["files"]][-1] == [f["age"] for f in created["files"]][-1] == "3 days ago"
    assert created["mode"] == "created"
    for f in created["files"]:
        assert f["created"] <= f["modified"]


def test_created_mode_uses_the_recorded_creation_time(tmp_path: Path) -> None:
    """With creation times as an OS with birth times records them (set through the index directly)."""
    index = VaultIndex(tmp_path / "index.sqlite3")
    try:
        ns = int(NOW * 1e9)
        for path, mtime_s, created_s in [("a.md", 10, 900), ("b.md", 20, 100), ("c.png", 30, 300)]:
            index.upsert_file("v", path, size=1, mtime_ns=ns - mtime_s * 10**9, created_ns=ns - created_s * 10**9)
        index.flush()
        ws = Workspace(vaults={"v": Vault("v", tmp_path)}, index=index)
        modified = list_recent(ws, list(ws.vaults), now=NOW).model_dump()
        created = list_recent(ws, list(ws.vaults), mode="created", now=NOW).model_dump()
    finally:
        index.close()
    assert [f["path"] for f in modified["files"]] == ["a.md", "b.md", "c.png"]
    assert [f["path"] for f in created["files"]] == ["b.md", "c.png", "a.md"]
    assert [f["age"] for f in created["files"]] == ["1 minute ago", "5 minutes ago", "15 minutes ago"]
    assert created["files"][0]["created"] == iso_utc(ns - 100 * 10**9)
    assert created["files"][0]["modified"] == iso_utc(ns - 20 * 10**9)


def test_warns_while_the_index_is_building(ws: Workspace) -> None:
    class Building:
        state = "indexing"

    ws.indexer = Building()  # type: ignore[assignment]
    out = list_recent(ws, list(ws.vaults), now=NOW).model_dump()
    assert out["index"] == {"state": "indexing", "complete": False} and "may be missing" in out["warning"]
