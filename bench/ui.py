"""Web app speed (issue 11 targets), in Debian's Chromium driven by Playwright, on a seeded synthetic vault.

Usage::

    python -m bench.ui [--notes 10000] [--seed 42] [--runs 20]       # or: make bench-ui

Measures, against a real ``obsigate serve`` on loopback (its tool rate limit lifted, as in ``bench.harness``):

* first load of a note page: JavaScript the page fetched (raw and gzip -9 of the files under ``/static``),
  and the time from navigation to the note's text painted;
* opening a note from inside the app (``location.hash`` set → the new note's text painted, next animation
  frame), over ``--runs`` random notes;
* quick switcher: last keystroke → the list shows the hits for the full query (debounce included).

Targets: ≤ 400 KB JS gzipped on first load, ≤ 150 ms to open a note, ≤ 100 ms quick-switcher results.
Prints a JSON report and writes it to ``bench/out/ui-<notes>.json``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx2

from bench.harness import free_port, note_paths, obsigate_cmd

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "obsigate" / "web" / "static"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
VAULT = "bench"


def href(path: str) -> str:
    return f"#/v/{VAULT}/" + "/".join(quote(p, safe="") for p in path.split("/"))


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return round(s[min(len(s) - 1, int(q * len(s)))], 1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.ui", description=__doc__.splitlines()[0])
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
    data = work / "ui-server-data"
    shutil.rmtree(data, ignore_errors=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "OBSIGATE_TOOL_RATE_LIMIT": "1000000000"}
    cmd = [*obsigate_cmd(), "serve", "--vault", f"{VAULT}={vault}", "--no-auth", "--data-dir", str(data), "--port", str(port)]
    log = open(work / "ui-server.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
    report: dict = {"notes": a.notes, "seed": a.seed, "runs": a.runs}
    try:
        t0 = time.perf_counter()
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with {proc.returncode}")
            try:
                if httpx2.get(f"{base}/api/health", timeout=5).json()["index"]["state"] == "ready":
                    break
            except httpx2.HTTPError:
                pass
            if time.perf_counter() - t0 > 600:
                raise RuntimeError("index not ready after 600 s")
            time.sleep(0.5)
        report["index_ready_s"] = round(time.perf_counter() - t0, 1)
        paths = note_paths(vault)
        rng = random.Random(a.seed)
        sample = rng.sample(paths, a.runs + 1)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            fetched: list[str] = []
            page.on("response", lambda r: fetched.append(r.url))
            t = time.perf_counter()
            page.goto(f"{base}/{href(sample[0])}")
            page.wait_for_selector(".markdown-body > *")
            page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
            report["first_load_ms"] = round((time.perf_counter() - t) * 1000, 1)
            js_raw = js_gz = 0
            files = []
            for url in fetched:
                rel = url.split(base, 1)[-1].split("?")[0]
                if rel.startswith("/static/") and rel.endswith(".js"):
                    body = (STATIC / rel[len("/static/"):]).read_bytes()
                    js_raw += len(body)
                    js_gz += len(gzip.compress(body, 9))
                    files.append(rel)
            report["first_load_js"] = {"files": files, "raw_kb": round(js_raw / 1024, 1), "gzip_kb": round(js_gz / 1024, 1)}
            page.wait_for_timeout(500)
            opens = []
            for path in sample[1:]:
                ms = page.evaluate(
                    """async (h) => {
                        const before = document.querySelector('.markdown-body');
                        const t0 = performance.now();
                        location.hash = h;
                        await new Promise((resolve) => {
                            const tick = () => {
                                const b = document.querySelector('.markdown-body');
                                if (b && b !== before && b.childElementCount) resolve(); else requestAnimationFrame(tick);
                            };
                            tick();
                        });
                        await new Promise((r) => requestAnimationFrame(() => r()));
                        return performance.now() - t0;
                    }""",
                    href(path),
                )
                opens.append(ms)
                page.wait_for_timeout(100)
            report["open_note_ms"] = {"p50": pct(opens, 0.5), "p95": pct(opens, 0.95), "max": round(max(opens), 1)}
            switches = []
            for path in sample[1:]:
                title = path.rsplit("/", 1)[-1][:-3]
                query = title[: max(3, min(8, len(title)))]
                page.keyboard.press("Control+o")
                page.wait_for_selector(".switcher[open]")
                page.keyboard.type(query[:-1])
                page.wait_for_timeout(150)
                ms = page.evaluate(
                    """async (q) => {
                        const input = document.querySelector('.switcher-input');
                        const list = document.querySelector('.switcher-list');
                        const before = list.firstElementChild;
                        const t0 = performance.now();
                        input.value = q;
                        input.dispatchEvent(new Event('input'));
                        await new Promise((resolve) => {
                            const obs = new MutationObserver(() => { if (list.firstElementChild !== before) { obs.disconnect(); resolve(); } });
                            obs.observe(list, { childList: true });
                        });
                        await new Promise((r) => requestAnimationFrame(() => r()));
                        return performance.now() - t0;
                    }""",
                    query,
                )
                switches.append(ms)
                page.keyboard.press("Escape")
            report["quick_switcher_ms"] = {"p50": pct(switches, 0.5), "p95": pct(switches, 0.95), "max": round(max(switches), 1)}
            browser.close()
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()
    report["targets"] = {
        "first_load_js_gzip_kb<=400": report["first_load_js"]["gzip_kb"] <= 400,
        "open_note_p50_ms<=150": report["open_note_ms"]["p50"] <= 150,
        "quick_switcher_p50_ms<=100": report["quick_switcher_ms"]["p50"] <= 100,
    }
    (work / f"ui-{a.notes}.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
