"""Canvas files in a real Chromium (issue 19 item 4): a hand-made JSON Canvas 1.0 file opens as a board with its
groups, text cards rendered as markdown, note cards (title and start of the note; a click opens it), an image,
a link card that fetches nothing, edges with their arrows and labels; it pans, zooms and fits by pointer, wheel
and keyboard; a broken canvas says why; editing the canvas or a note on it redraws the board."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import LiveServer
from support import SMALL_VAULT, free_port, write_tree

from obsigate.config import load_settings

SHARED = Path(__file__).resolve().parents[3] / "shared" / "vaults"  # ../shared/vaults from the repo root


def png(width: int = 4, height: int = 3) -> bytes:
    """A real (tiny, red) PNG, so the browser decodes it."""
    raw = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


BOARD = {
    "nodes": [
        {
            "id": "t1",
            "type": "text",
            "text": "# Idea\nSee [[Ideas]] and **bold** text.",
            "x": 0,
            "y": 0,
            "width": 260,
            "height": 140,
        },
        {"id": "g1", "type": "group", "label": "Plan", "color": "4", "x": -40, "y": -60, "width": 700, "height": 300},
        {
            "id": "f1",
            "type": "file",
            "file": "Projects/Plan.md",
            "subpath": "#Budget",
            "x": 340,
            "y": 0,
            "width": 280,
            "height": 200,
            "color": "#ff8800",
        },
        {"id": "i1", "type": "file", "file": "Attachments/red.png", "x": 0, "y": 320, "width": 200, "height": 150},
        {
            "id": "l1",
            "type": "link",
            "url": "https://example.com/page",
            "x": 340,
            "y": 320,
            "width": 280,
            "height": 100,
            "color": "6",
        },
        {"id": "m1", "type": "file", "file": "Nowhere.md", "x": 700, "y": 320, "width": 200, "height": 100},
        {"id": "bad", "type": "text", "x": 0, "y": 0},
    ],
    "edges": [
        {
            "id": "e1",
            "fromNode": "t1",
            "fromSide": "right",
            "toNode": "f1",
            "toSide": "left",
            "label": "costs",
            "color": "1",
        },
        {"id": "e2", "fromNode": "t1", "toNode": "i1", "fromEnd": "arrow", "toEnd": "none"},
        {"id": "e3", "fromNode": "t1", "toNode": "ghost"},
    ],
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One ObsiGate (auth off) over the small vault plus a board, a broken canvas and an image."""
    root = tmp_path_factory.mktemp("canvas")
    files: dict[str, str | bytes] = {
        **SMALL_VAULT,
        "Boards/Plan.canvas": json.dumps(BOARD, indent="\t"),
        "Boards/Broken.canvas": '{"nodes": [ {"id": "x", ',
        "Boards/Odd.canvas": '{"nodes": {"id": "x"}}',
        "Attachments/red.png": png(),
    }
    vault = write_tree(root / "vault", files)
    settings = load_settings(
        data_dir=root / "data", port=free_port(), vaults={"notes": {"path": str(vault)}}, auth_enabled=False
    )
    live = LiveServer(settings).start()
    live.wait_ready()
    try:
        yield live.url, vault
    finally:
        live.stop()


def _ready(page: Any) -> Any:
    return page.wait_for_selector("#canvas-board[data-state=ready], #canvas-board[data-state=error]")


def _zoom(page: Any) -> float:
    return float(page.get_attribute("#canvas-board", "data-zoom"))


def _origin(page: Any) -> dict[str, float]:
    return page.eval_on_selector(
        ".canvas-node[data-id=t1]", "n => { const r = n.getBoundingClientRect(); return {x: r.x, y: r.y}; }"
    )


def test_a_canvas_board_renders_moves_and_stays_live(page: Any, served: tuple[str, Path]) -> None:
    url, vault = served
    page.watch.expect("404 (Not Found)")  # the card of Nowhere.md: read_file says not_found, as it should
    page.goto(f"{url}/#/v/notes/Boards/Plan.canvas")
    board = _ready(page)
    assert board.get_attribute("data-state") == "ready"
    assert board.get_attribute("data-nodes") == "6" and board.get_attribute("data-edges") == "2"
    assert "2 item(s)" in page.inner_text(".canvas-status")  # the text node without text; the edge to "ghost"
    # z-order: the group is drawn first although listed second; then the edges' layer, then the cards
    order = page.eval_on_selector_all(".canvas-world > *", "ns => ns.map(n => n.dataset.id || n.getAttribute('class'))")
    assert order[0] == "g1" and order[1] == "canvas-edges" and order.index("t1") > 1
    assert page.inner_text(".canvas-group-label") == "Plan"
    # a text card: markdown through the app's renderer, its [[link]] resolved by the server's index
    assert page.inner_text(".canvas-node[data-id=t1] h1") == "Idea"
    assert page.get_attribute(".canvas-node[data-id=t1] a.internal-link", "data-path") == "Ideas.md"
    assert page.inner_text(".canvas-node[data-id=t1] strong") == "bold"
    # a note card narrowed to its heading; an image; a link card that is only a link; a missing note
    assert page.inner_text(".canvas-node[data-id=f1] .canvas-card-title") == "Plan > Budget"
    assert "budget for the tidepool buoy" in page.inner_text(".canvas-node[data-id=f1] .markdown-body")
    assert page.eval_on_selector(".canvas-node[data-id=i1] img", "i => i.complete && i.naturalWidth") == 4
    assert page.inner_text(".canvas-node[data-id=l1] .canvas-card-title") == "example.com"
    assert page.get_attribute(".canvas-node[data-id=l1] a", "rel") == "noopener noreferrer"
    assert "does not exist" in page.inner_text(".canvas-node[data-id=m1]")
    # edges: the first ends in an arrow, the second starts with one; the label sits on the curve
    assert page.eval_on_selector_all(".canvas-edge[data-id=e1] .canvas-arrow", "a => a.length") == 1
    assert page.eval_on_selector_all(".canvas-edge[data-id=e2] .canvas-arrow", "a => a.length") == 1
    assert page.inner_text(".canvas-edge-label") == "costs"
    # colours: preset 4 is the theme's variable, a hex stays itself
    assert (
        page.eval_on_selector(".canvas-node[data-id=g1]", "n => n.style.getPropertyValue('--c')") == "var(--canvas-4)"
    )
    assert page.eval_on_selector(".canvas-node[data-id=f1]", "n => n.style.getPropertyValue('--c')") == "#ff8800"

    # keyboard: focus the board; arrows pan, + and - zoom, 0 fits again
    fitted = _zoom(page)
    page.focus("#canvas-board")
    before = _origin(page)
    page.keyboard.press("ArrowRight")
    assert _origin(page)["x"] < before["x"]
    page.keyboard.press("+")
    assert _zoom(page) == pytest.approx(min(4, fitted * 1.25), rel=1e-3)
    page.keyboard.press("-")
    page.keyboard.press("-")
    assert _zoom(page) < fitted
    page.keyboard.press("0")
    assert _zoom(page) == pytest.approx(fitted, rel=1e-3)
    # pointer: a drag on the background pans; the wheel zooms; a drag ending on a card opens nothing
    box = board.bounding_box()
    start = _origin(page)
    page.mouse.move(box["x"] + 10, box["y"] + box["height"] - 10)
    page.mouse.down()
    page.mouse.move(box["x"] + 60, box["y"] + box["height"] - 40, steps=4)
    page.mouse.up()
    moved = _origin(page)
    assert (moved["x"] - start["x"], moved["y"] - start["y"]) == pytest.approx((50, -30), abs=1)
    page.mouse.wheel(0, -200)
    page.wait_for_function("(z) => Number(document.querySelector('#canvas-board').dataset.zoom) > z", arg=fitted)

    # live: a note on a card changes, then the canvas itself: the board is drawn again, the camera kept
    zoom = _zoom(page)
    plan = vault / "Projects" / "Plan.md"
    plan.write_text(plan.read_text().replace("is small", "is now generous"), encoding="utf-8")
    page.wait_for_function(
        "() => document.querySelector('.canvas-node[data-id=f1]').innerText.includes('now generous')", timeout=15_000
    )
    changed = json.loads(json.dumps(BOARD))
    changed["nodes"][0]["text"] = "# Changed idea"
    (vault / "Boards" / "Plan.canvas").write_text(json.dumps(changed), encoding="utf-8")
    page.wait_for_function(
        "() => document.querySelector('.canvas-node[data-id=t1] h1')?.textContent === 'Changed idea'", timeout=15_000
    )
    assert _zoom(page) == pytest.approx(zoom)

    # a click on a note card opens the note
    page.focus("#canvas-board")
    page.keyboard.press("0")
    page.click(".canvas-node[data-id=f1] .markdown-body")
    page.wait_for_selector(".note-title >> text=Plan")
    assert page.url.endswith("#/v/notes/Projects/Plan.md?h=Budget")

    # broken files say why, never a blank board
    for name, words in (("Broken", "not valid JSON"), ("Odd", "not a JSON Canvas file")):
        page.goto(f"{url}/#/v/notes/Boards/{name}.canvas")
        _ready(page)
        page.wait_for_selector("#canvas-board[data-state=error]")
        assert "This canvas cannot be shown." in page.inner_text("[role=alert]")
        assert words in page.inner_text("[role=alert]")


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared vaults are not here (../shared/vaults)")
def test_the_shared_vaults_canvases_open() -> None:
    """Every .canvas of the shared vaults parses as JSON Canvas (the board's own reading is in model.js; this
    checks the files it would meet are canvases at all). None today: the test then checks nothing more."""
    for path in sorted(SHARED.rglob("*.canvas")):
        data = json.loads(path.read_text(encoding="utf-8") or "{}")
        assert isinstance(data.get("nodes", []), list) and isinstance(data.get("edges", []), list), path
