"""The editor's menu (frontend/src/editor/aiactions.js) offers exactly the server's text actions
(agent/text_actions.py ACTIONS), in the same order, each with the same field and placement."""

from __future__ import annotations

import re
from pathlib import Path

from obsigate.agent.text_actions import ACTIONS

FRONT = Path(__file__).resolve().parents[2] / "frontend" / "src" / "editor" / "aiactions.js"


def test_the_menu_mirrors_the_server_table() -> None:
    table = FRONT.read_text().split("export const ACTIONS = [", 1)[1].split("]", 1)[0]
    rows = re.findall(r"\{ id: \"(\w+)\"(?:, (needs|placement): \"(\w+)\")? \}", table)
    front = [(i, v if kind == "needs" else None, v if kind == "placement" else "replace") for i, kind, v in rows]
    assert front == [(a.id, a.needs, a.placement) for a in ACTIONS.values()]
