"""Edit in place (issue 19 item 1) in Chromium on the generated vault: how long Ctrl+E takes to put the cursor in
a Live Preview editor, and how long a keystroke takes to paint with Live Preview on.

    python -m bench.ui_liveedit [--notes 10000] [--seed 42] [--runs 20]

Same vault and server as ``bench.ui`` (run that first, or this generates the vault). Per note: open it in
reading view, then time ``Ctrl+E`` → the editor's content focused with Live Preview on (next animation
frame). The first run also loads the editor's chunk (reported apart as ``cold``). Then, in the largest
sampled note, one character typed → the next frame, over ``--runs`` keystrokes. Prints a JSON report and
writes ``bench/out/ui-liveedit-<notes>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import time

import httpx2

from bench.harness import free_port, note_paths, obsigate_cmd
from bench.ui import CHROMIUM, ROOT, VAULT, href, pct

OPEN_EDITOR = """async () => {
    const t0 = performance.now();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'e', code: 'KeyE', ctrlKey: true, bubbles: true }));
    await new Promise((resolve) => {
        const tick = () => (document.activeElement?.classList.contains('cm-content') && document.querySelector('.cm-lp'))
            ? resolve() : requestAnimationFrame(tick);
        tick();
    });
    await new Promise((r) => requestAnimationFrame(() => r()));
    return performance.now() - t0;
}"""


def main(argv: list[str] | None = None) -> int:
    """Run the measures; the report's shape is in the module docstring."""
    ap = argparse.ArgumentParser(prog="python -m bench.ui_liveedit", description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from bench.genvault import generate

    work = ROOT / "bench" / "out"
    vault = work / f"vault-{a.notes}-{a.seed}"
    if not (vault / ".genvault.json").exists():
        generate(vault, notes=a.notes, seed=a.seed, hubs=10)
    data = work / "ui-liveedit-data"
    shutil.rmtree(data, ignore_errors=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000000"}
    cmd = [
        *obsigate_cmd(),
        "serve",
        "--vault",
        f"{VAULT}={vault}",
        "--no-auth",
        "--data-dir",
        str(data),
        "--port",
        str(port),
    ]
    log = open(work / "ui-liveedit-server.log", "wb")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    report: dict = {"notes": a.notes, "seed": a.seed, "runs": a.runs}
    try:
        t0 = time.perf_counter()
        while True:
            try:
                if httpx2.get(f"{base}/api/health", timeout=5).json()["index"]["state"] == "ready":
                    break
            except httpx2.HTTPError:
                pass
            if time.perf_counter() - t0 > 600 or proc.poll() is not None:
                raise RuntimeError("server not ready")
            time.sleep(0.5)
        sample = random.Random(a.seed).sample(note_paths(vault), a.runs + 1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.add_init_script("localStorage.setItem('obsigate.editor.sourceMode', '0')")
            opens = []
            for path in sample:
                page.goto(f"{base}/{href(path)}")
                page.wait_for_selector("#edit-note")
                opens.append(page.evaluate(OPEN_EDITOR))
                page.click("#close-editor")
                page.wait_for_selector("#edit-note")
            report["ctrl_e_to_editor_ms"] = {
                "cold": round(opens[0], 1),
                "p50": pct(opens[1:], 0.5),
                "p95": pct(opens[1:], 0.95),
                "max": round(max(opens[1:]), 1),
            }
            biggest = max(sample, key=lambda q: (vault / q).stat().st_size)
            page.goto(f"{base}/{href(biggest)}")
            page.wait_for_selector("#edit-note")
            page.evaluate(OPEN_EDITOR)
            page.keyboard.press("Control+End")
            keys = []
            for _ in range(a.runs):
                keys.append(
                    page.evaluate(
                        """async () => {
                            const t0 = performance.now();
                            document.execCommand('insertText', false, 'x');
                            await new Promise((r) => requestAnimationFrame(() => r()));
                            return performance.now() - t0;
                        }"""
                    )
                )
            report["keystroke_to_paint_ms"] = {
                "note_bytes": (vault / biggest).stat().st_size,
                "p50": pct(keys, 0.5),
                "p95": pct(keys, 0.95),
                "max": round(max(keys), 1),
            }
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
    (work / f"ui-liveedit-{a.notes}.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
