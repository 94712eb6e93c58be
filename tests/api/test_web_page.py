"""The web page shows a refused request (e.g. HTTP 429 ``rate_limited``) instead of stopping silently (issue 9).

The served ``app.js`` runs in Node (when installed) against a live server, with a tiny fake DOM."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import httpx2
import pytest

HARNESS = Path(__file__).parent / "js" / "run_page.mjs"
NODE = shutil.which("node")


def test_the_script_handles_non_ok_responses(live_server, small_vault) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=False)
    page = httpx2.get(f"{server.url}/").text
    script = httpx2.get(f"{server.url}/app.js").text
    assert 'id="error"' in page and 'role="alert"' in page
    assert "!res.ok" in script and "showError" in script and "body.code" in script


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_rate_limited_search_is_shown_in_the_page(live_server, small_vault, tmp_path: Path) -> None:
    # Two tool calls per window: the page's vault list and the first search; the second search gets 429.
    server = live_server({"notes": small_vault}, auth_enabled=False, tool_rate_limit=2, tool_rate_window=60)
    script = tmp_path / "app.mjs"
    script.write_text(httpx2.get(f"{server.url}/app.js").text, encoding="utf-8")
    done = subprocess.run(
        [NODE, str(HARNESS), server.url, str(script), "2"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    first, second = out["seen"]
    assert first["hidden"] and first["count"].endswith("notes")  # the first search went through
    assert not second["hidden"] and second["error"].startswith("rate_limited: "), out
    assert second["hits"] == 0 and second["count"] == ""  # no stale hits under the error
    assert out["unhandled"] == []
