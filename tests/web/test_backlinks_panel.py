"""The side panel's links of a note: backlinks at once, unlinked mentions when the person opens them (the scan
of every note's text is asked for only then, as Obsidian does), outgoing links."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def test_unlinked_mentions_are_found_when_opened(page: Any, open_server: Any, web_vault: Path) -> None:
    (web_vault / "Kelp.md").write_text("# Kelp\n\nA brown alga.\n")
    (web_vault / "Diary.md").write_text("# Diary\n\nSaw some kelp at the point today.\n")
    (web_vault / "Linked.md").write_text("# Linked\n\nSee [[Kelp]].\n")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/backlinks/" in r.url else None)
    page.goto(f"{open_server.url}/#/v/notes/Kelp.md", wait_until="networkidle")
    page.wait_for_selector("#backlinks .backlink-list >> text=Linked.md")
    assert not any("unlinked=true" in u for u in asked)  # not scanned until asked
    page.click("#unlinked-mentions > summary")
    page.wait_for_selector("#unlinked-mentions summary >> text=Unlinked mentions (1)")
    assert "Saw some kelp at the point today." in page.inner_text("#unlinked-mentions")
    assert any("unlinked=true" in u for u in asked)
