"""A conversation's copy of an image from the file space goes when the file goes (``AgentStore.forget_file``,
``forget_missing``): on delete through the hook, and for a file that expired while no hook listened (the
start-up sweep runs before the assistant is built), when the assistant starts. Real SQLite, a real FileSpace."""

from __future__ import annotations

from pathlib import Path

import pytest

from obsigate.agent.store import AgentStore
from obsigate.services.errors import NotFound
from obsigate.services.user_files import FileSpace

GIF = b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xfe\x06canary\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"


def test_an_expired_files_copy_goes_when_the_assistant_starts(tmp_path: Path) -> None:
    now = [1_800_000_000.0]
    files = FileSpace(tmp_path / "data", ttl_s=60, clock=lambda: now[0])
    store = AgentStore(tmp_path / "assistant.sqlite3")
    try:
        rec = files.put("alice", GIF, name="a.gif", conversation="c1", origin="upload")
        kept = files.put("alice", GIF + b"\x00", name="b.gif", origin="upload")  # no conversation: kept
        cid = store.create_conversation("alice", title="t", mode="chat", vault=None, provider="p", model="m")
        store.put_image("alice", cid, "sha-a", "image/gif", GIF, file_id=rec.file_id)
        store.put_image("alice", cid, "sha-b", "image/gif", GIF + b"\x00", file_id=kept.file_id)
        now[0] += 61
        assert files.sweep() == 1  # the start-up sweep: no hook registered yet
        assert store.forget_missing(files.exists) == 1
        with pytest.raises(NotFound):
            store.image("alice", cid, "sha-a")
        assert store.image("alice", cid, "sha-b")[1] == GIF + b"\x00"
        assert store.forget_missing(files.exists) == 0
        # from now on the hook: a delete drops the copy at once
        files.on_delete(store.forget_file)
        files.delete("alice", kept.file_id)
        with pytest.raises(NotFound):
            store.image("alice", cid, "sha-b")
    finally:
        store.close()
        files.close()
    assert not any(b"canary" in p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
