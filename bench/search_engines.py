"""Measure SQLite FTS5 against tantivy on the same synthetic vault (the ObsiGate engine decision).

Usage (from the repository root, ~3 minutes on 2 cores for 10k notes)::

    python -m bench.search_engines                       # 10k notes, seed 42, JSON + table on stdout
    python -m bench.search_engines --notes 2000 --reps 20 # quicker
    python -m bench.search_engines --vaultindex           # also measure obsigate.domain.index.vault_index.VaultIndex

For each engine, two fresh child processes (so RSS figures are not polluted by the other engine):

* ``build``: read the vault (not timed), index every note, commit; reports build seconds, on-disk size and
  peak RSS (``ru_maxrss``).
* ``serve``: open the index, run each query ``--reps`` times warm (top 20 **with snippets** and the exact
  match count), then single-note updates until visible to the next query, then a 50-note batch; reports
  p50/p95 per query, update latency p50/p95, RSS before opening, after serving and peak.

Engines:

* ``fts5``   — ``notes(id, path, title, body)`` + external-content FTS5 ``(title, body)`` with
  ``unicode61 remove_diacritics 2``; ``ORDER BY rank`` with ``bm25(5, 1)``, ``snippet()``, ``count(*)``.
* ``fts5cap`` — same database; mitigation for frequent terms: when the rarest query term is in more than
  ``CAP`` notes, only the first ``CAP`` matches (rowid order) plus all title matches are ranked, snippets are
  computed for the 20 shown; the exact total still comes from ``count(*)``.
* ``tantivy`` — fields ``key`` (raw), ``title``/``body`` (stored, analyzer simple → remove_long(40) →
  lowercase → ascii_fold), ``tags`` (raw); term queries built programmatically (title boost 5) → no query
  parser; ``SnippetGenerator`` (200 chars); updates = delete_by_term + add + commit + reload.

Queries: a rare planted word, a very common word, a mid-frequency word, an accent-folded word, a two-word
phrase (exact phrase), the same two words as AND, a three-word natural query (AND, with accent folding).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import sqlite3
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out"

QUERIES: list[tuple[str, str, str]] = [
    # (label, kind, text)  kind: "and" = conjunction of terms, "phrase" = exact phrase
    ("rare (planted word)", "and", "zanzibarite"),
    ("common ('the')", "and", "the"),
    ("mid ('database')", "and", "database"),
    ("accent ('procedure'→procédure)", "and", "procedure"),
    ('2-word phrase "action items"', "phrase", "action items"),
    ("2 words AND (action items)", "and", "action items"),
    ("3-word natural (database backup procedure)", "and", "database backup procedure"),
    ("2 common words AND (the of)", "and", "the of"),
]
CAP = 1000


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    k = min(len(xs) - 1, max(0, round(p / 100 * (len(xs) - 1))))
    return xs[k]


def _dir_mb(p: Path) -> float:
    if p.is_file():
        return p.stat().st_size / 2**20
    return sum(f.stat().st_size for f in p.rglob("*") if f.is_file()) / 2**20


def load_vault(root: Path) -> list[tuple[str, str, str]]:
    """Return ``[(path, title, text)]`` for every non-hidden ``.md`` file, sorted by path."""
    out = []
    for dp, dns, fns in os.walk(root):
        dns[:] = sorted(d for d in dns if not d.startswith("."))
        for fn in sorted(fns):
            if fn.startswith(".") or not fn.lower().endswith(".md"):
                continue
            full = Path(dp) / fn
            rel = full.relative_to(root).as_posix()
            out.append((rel, fn[:-3], full.read_text("utf-8")))
    return out


def _fold(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).lower()


_WORD = re.compile(r"[^\W_]+")

# ---------------------------------------------------------------------------------------------- FTS5


class Fts5:
    name = "fts5"

    def __init__(self, path: Path, capped: bool = False) -> None:
        self.path = path / "fts5.sqlite3"
        self.capped = capped
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")

    def create(self) -> None:
        self.db.executescript(
            """
            CREATE TABLE notes(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, title TEXT, body TEXT);
            CREATE VIRTUAL TABLE notes_fts USING fts5(title, body, content='notes', content_rowid='id',
                tokenize='unicode61 remove_diacritics 2');
            CREATE VIRTUAL TABLE notes_vocab USING fts5vocab(notes_fts, 'row');
            """
        )

    def build(self, notes: list[tuple[str, str, str]]) -> dict:
        t = time.perf_counter()
        self.db.execute("BEGIN")
        for i, (path, title, body) in enumerate(notes, 1):
            self.db.execute("INSERT INTO notes(id, path, title, body) VALUES (?,?,?,?)", (i, path, title, body))
            self.db.execute("INSERT INTO notes_fts(rowid, title, body) VALUES (?,?,?)", (i, title, body))
        self.db.execute("COMMIT")
        built = time.perf_counter() - t
        t = time.perf_counter()
        self.db.execute("INSERT INTO notes_fts(notes_fts) VALUES ('optimize')")
        return {"build_s": built, "optimize_s": time.perf_counter() - t}

    @staticmethod
    def match_expr(text: str, kind: str) -> str:
        toks = [t.replace('"', '""') for t in text.split()]
        if kind == "phrase":
            return '"' + " ".join(toks) + '"'
        return " AND ".join(f'"{t}"' for t in toks)

    def search(self, text: str, kind: str, limit: int = 20) -> tuple[int, list[tuple[str, str]]]:
        q = self.match_expr(text, kind)
        total = self.db.execute("SELECT count(*) FROM notes_fts WHERE notes_fts MATCH ?", (q,)).fetchone()[0]
        if self.capped:
            dfs = [
                (self.db.execute("SELECT doc FROM notes_vocab WHERE term = ?", (w,)).fetchone() or (0,))[0]
                for w in _WORD.findall(_fold(text))
            ]
            if dfs and min(dfs) > CAP:
                return total, self._search_capped(q, limit)
        rows = self.db.execute(
            "SELECT n.path, s.snip FROM (SELECT rowid AS id, rank, "
            "snippet(notes_fts, 1, '<mark>', '</mark>', '…', 24) AS snip FROM notes_fts "
            "WHERE notes_fts MATCH ? AND rank MATCH 'bm25(5.0, 1.0)' ORDER BY rank LIMIT ?) s "
            "JOIN notes n ON n.id = s.id ORDER BY s.rank",
            (q, limit),
        ).fetchall()
        return total, rows

    def _search_capped(self, q: str, limit: int) -> list[tuple[str, str]]:
        cand = dict(
            self.db.execute(
                "SELECT rowid, bm25(notes_fts, 5.0, 1.0) FROM notes_fts WHERE notes_fts MATCH ? LIMIT ?", (q, CAP)
            ).fetchall()
        )
        cand.update(
            self.db.execute(
                "SELECT rowid, bm25(notes_fts, 5.0, 1.0) FROM notes_fts WHERE notes_fts MATCH ? LIMIT ?",
                ("{title} : (" + q + ")", CAP),
            ).fetchall()
        )
        top = sorted(cand, key=cand.__getitem__)[:limit]
        if not top:
            return []
        marks = ",".join("?" * len(top))
        snips = dict(
            self.db.execute(
                f"SELECT rowid, snippet(notes_fts, 1, '<mark>', '</mark>', '…', 24) FROM notes_fts "
                f"WHERE notes_fts MATCH ? AND rowid IN ({marks})",
                (q, *top),
            ).fetchall()
        )
        paths = dict(self.db.execute(f"SELECT id, path FROM notes WHERE id IN ({marks})", top).fetchall())
        return [(paths[i], snips.get(i, "")) for i in top]

    def update(self, path: str, title: str, body: str) -> None:
        self.db.execute("BEGIN")
        row = self.db.execute("SELECT id, title, body FROM notes WHERE path = ?", (path,)).fetchone()
        self.db.execute(
            "INSERT INTO notes_fts(notes_fts, rowid, title, body) VALUES ('delete', ?, ?, ?)", (row[0], row[1], row[2])
        )
        self.db.execute("UPDATE notes SET title = ?, body = ? WHERE id = ?", (title, body, row[0]))
        self.db.execute("INSERT INTO notes_fts(rowid, title, body) VALUES (?,?,?)", (row[0], title, body))
        self.db.execute("COMMIT")

    def update_many(self, items: list[tuple[str, str, str]]) -> None:
        self.db.execute("BEGIN")
        for path, title, body in items:
            row = self.db.execute("SELECT id, title, body FROM notes WHERE path = ?", (path,)).fetchone()
            self.db.execute(
                "INSERT INTO notes_fts(notes_fts, rowid, title, body) VALUES ('delete', ?, ?, ?)",
                (row[0], row[1], row[2]),
            )
            self.db.execute("UPDATE notes SET title = ?, body = ? WHERE id = ?", (title, body, row[0]))
            self.db.execute("INSERT INTO notes_fts(rowid, title, body) VALUES (?,?,?)", (row[0], title, body))
        self.db.execute("COMMIT")

    def size_mb(self) -> float:
        return sum(_dir_mb(p) for p in self.path.parent.glob("fts5.sqlite3*"))


# ------------------------------------------------------------------------------------------- tantivy


class Tantivy:
    name = "tantivy"

    def __init__(self, path: Path, create: bool = False, heap_mb: int = 128, threads: int = 0) -> None:
        import tantivy as tv

        self.tv = tv
        self.dir = path / "tantivy"
        sb = tv.SchemaBuilder()
        sb.add_text_field("key", stored=True, tokenizer_name="raw")
        sb.add_text_field("title", stored=True, tokenizer_name="fold")
        sb.add_text_field("body", stored=True, tokenizer_name="fold")
        self.schema = sb.build()
        if create:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir.mkdir(parents=True)
        self.index = tv.Index(self.schema, path=str(self.dir))
        self.an = (
            tv.TextAnalyzerBuilder(tv.Tokenizer.simple())
            .filter(tv.Filter.remove_long(40))
            .filter(tv.Filter.lowercase())
            .filter(tv.Filter.ascii_fold())
            .build()
        )
        self.index.register_tokenizer("fold", self.an)
        self.index.config_reader("Manual")
        self.writer = self.index.writer(heap_mb * 1_000_000, threads)

    def build(self, notes: list[tuple[str, str, str]]) -> dict:
        tv = self.tv
        t = time.perf_counter()
        for path, title, body in notes:
            self.writer.add_document(tv.Document(key=path, title=title, body=body))
        self.writer.commit()
        built = time.perf_counter() - t
        t = time.perf_counter()
        self.writer.wait_merging_threads()
        return {"build_s": built, "merge_wait_s": time.perf_counter() - t}

    def _query(self, text: str, kind: str):
        tv = self.tv
        query, occur = tv.Query, tv.Occur
        if kind == "phrase":
            words = self.an.analyze(text)
            return query.boolean_query(
                [
                    (occur.Should, query.boost_query(query.phrase_query(self.schema, "title", words), 5.0)),
                    (occur.Should, query.phrase_query(self.schema, "body", words)),
                ]
            )
        musts = []
        for tok in text.split():
            words = self.an.analyze(tok)
            if not words:
                continue
            if len(words) == 1:
                tq, bq = (query.term_query(self.schema, f, words[0]) for f in ("title", "body"))
            else:
                tq, bq = (query.phrase_query(self.schema, f, words) for f in ("title", "body"))
            musts.append(
                (occur.Must, query.boolean_query([(occur.Should, query.boost_query(tq, 5.0)), (occur.Should, bq)]))
            )
        return query.boolean_query(musts)

    def search(self, text: str, kind: str, limit: int = 20) -> tuple[int, list[tuple[str, str]]]:
        q = self._query(text, kind)
        s = self.index.searcher()
        res = s.search(q, limit, count=True)
        gen = self.tv.SnippetGenerator.create(s, q, self.schema, "body")
        gen.set_max_num_chars(200)
        out = []
        for _score, addr in res.hits:
            doc = s.doc(addr)
            sn = gen.snippet_from_doc(doc)
            out.append((doc.get_first("key"), _mark(sn.fragment(), [(h.start, h.end) for h in sn.highlighted()])))
        return res.count, out

    def update(self, path: str, title: str, body: str) -> None:
        self.writer.delete_documents_by_term("key", path)
        self.writer.add_document(self.tv.Document(key=path, title=title, body=body))
        self.writer.commit()
        self.index.reload()

    def update_many(self, items: list[tuple[str, str, str]]) -> None:
        for path, title, body in items:
            self.writer.delete_documents_by_term("key", path)
            self.writer.add_document(self.tv.Document(key=path, title=title, body=body))
        self.writer.commit()
        self.index.reload()

    def size_mb(self) -> float:
        return _dir_mb(self.dir)


def _mark(fragment: str, ranges: list[tuple[int, int]]) -> str:
    """Wrap UTF-8 byte ranges of ``fragment`` in <mark>…</mark> (tantivy reports byte offsets)."""
    b = fragment.encode("utf-8")
    out, pos = [], 0
    for a, z in ranges:
        out.append(b[pos:a].decode("utf-8", "replace"))
        out.append("<mark>" + b[a:z].decode("utf-8", "replace") + "</mark>")
        pos = z
    out.append(b[pos:].decode("utf-8", "replace"))
    return "".join(out)


# ------------------------------------------------------------------------------------------- workers


def _open(engine: str, work: Path, create: bool):
    if engine == "tantivy":
        return Tantivy(work, create=create)
    if create:
        for p in work.glob("fts5.sqlite3*"):
            p.unlink()
    return Fts5(work, capped=(engine == "fts5cap"))


def worker_build(engine: str, vault: Path, work: Path) -> dict:
    notes = load_vault(vault)
    rss0 = _rss_mb()
    e = _open(engine, work, create=True)
    if engine.startswith("fts5"):
        e.create()
    r = e.build(notes)
    r.update(notes=len(notes), size_mb=e.size_mb(), rss_before_mb=rss0, peak_rss_mb=_peak_mb())
    return r


def worker_serve(engine: str, vault: Path, work: Path, reps: int) -> dict:
    notes = load_vault(vault)  # kept for the update phase; its memory is counted in rss_before
    rss0 = _rss_mb()
    t = time.perf_counter()
    e = _open(engine, work, create=False)
    first = e.search("zanzibarite", "and")
    open_first_ms = (time.perf_counter() - t) * 1000
    out: dict = {"open_first_query_ms": open_first_ms, "queries": {}}
    for label, kind, text in QUERIES:
        lat = []
        total, rows = e.search(text, kind)
        for _ in range(reps):
            t = time.perf_counter()
            e.search(text, kind)
            lat.append((time.perf_counter() - t) * 1000)
        out["queries"][label] = {
            "text": text,
            "kind": kind,
            "total": total,
            "p50_ms": _pct(lat, 50),
            "p95_ms": _pct(lat, 95),
            "sample": rows[0] if rows else None,
        }
    out["rss_after_queries_mb"] = _rss_mb()
    # single-note update → visible to the next query
    lat = []
    for i in range(30):
        path, title, body = notes[(i * 331) % len(notes)]
        word = f"updmark{i}x"
        t = time.perf_counter()
        e.update(path, title, body + f"\n{word}\n")
        total, rows = e.search(word, "and")
        lat.append((time.perf_counter() - t) * 1000)
        assert total == 1 and rows[0][0] == path, (engine, word, total, rows[:1])
    out["update_visible_p50_ms"] = _pct(lat, 50)
    out["update_visible_p95_ms"] = _pct(lat, 95)
    batch = [(p, ti, b + "\nbatchmark\n") for p, ti, b in notes[5:55]]
    t = time.perf_counter()
    e.update_many(batch)
    total, _ = e.search("batchmark", "and")
    out["batch50_visible_ms"] = (time.perf_counter() - t) * 1000
    assert total == 50
    out.update(rss_before_mb=rss0, rss_end_mb=_rss_mb(), peak_rss_mb=_peak_mb(), first_hit=first[1][:1])
    return out


VI_QUERIES: list[tuple[str, str]] = [
    ("rare (planted word)", "zanzibarite"),
    ("common ('the')", "the"),
    ("mid ('database')", "database"),
    ("accent ('procedure'→procédure)", "procedure"),
    ("2 words (action items)", "action items"),
    ("3-word natural (database backup procedure)", "database backup procedure"),
    ("2 common words (the of)", "the of"),
    ("prefix ('kube'→kubernetes)", "kube"),
    ("tag filter (report, tag=project)", "report"),
]


def worker_vi_build(vault_dir: Path, work: Path) -> dict:
    """obsigate's real pipeline: Indexer.refresh_all (walk, read, parse_note, VaultIndex) from scratch."""
    from obsigate.domain.index.vault_index import VaultIndex
    from obsigate.domain.index.watcher import Indexer
    from obsigate.domain.vault import Vault

    d = work / "vi"
    shutil.rmtree(d, ignore_errors=True)
    rss0 = _rss_mb()
    t = time.perf_counter()
    ix = VaultIndex(d / "index.sqlite3")
    stats = Indexer(ix, {"bench": Vault("bench", vault_dir)}).refresh_all()
    built = time.perf_counter() - t
    ix.close()
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "build_s": built,
        "cpu_s_main_process": me.ru_utime + me.ru_stime,
        "cpu_s_parse_workers": kids.ru_utime + kids.ru_stime,
        "stats": stats,
        "size_mb": _dir_mb(d),
        "sqlite_mb": sum(_dir_mb(p) for p in d.glob("index.sqlite3*")),
        "tantivy_mb": _dir_mb(d / "index.tantivy"),
        "rss_before_mb": rss0,
        "peak_rss_mb": _peak_mb(),
        "worker_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    }


def worker_vi_serve(vault_dir: Path, work: Path, reps: int) -> dict:
    from obsigate.domain.index.vault_index import VaultIndex
    from obsigate.domain.index.watcher import Indexer
    from obsigate.domain.vault import Vault

    d = work / "vi"
    rss0 = _rss_mb()
    t = time.perf_counter()
    ix = VaultIndex(d / "index.sqlite3")
    first = ix.search("zanzibarite", vaults=["bench"])
    out: dict = {"open_first_query_ms": (time.perf_counter() - t) * 1000, "queries": {}}

    def run_queries(label_suffix: str = "") -> None:
        for label, text in VI_QUERIES:
            tag = "project" if "tag filter" in label else None
            page = ix.search(text, vaults=["bench"], tag=tag)
            lat = []
            for _ in range(reps):
                t0 = time.perf_counter()
                ix.search(text, vaults=["bench"], tag=tag)
                lat.append((time.perf_counter() - t0) * 1000)
            out["queries"][label + label_suffix] = {
                "text": text,
                "total": page.total,
                "p50_ms": _pct(lat, 50),
                "p95_ms": _pct(lat, 95),
                "max_ms": max(lat),
                "sample": (page.hits[0].path, page.hits[0].snippet) if page.hits else None,
            }

    run_queries()
    out["rss_after_queries_mb"] = _rss_mb()
    # own write → visible: write the file, Indexer.refresh_path (stat, read, parse, upsert), then search.
    # 60 writes 50 ms apart, so the background full-text commits (every ~1 s) happen in between.
    vault = Vault("bench", vault_dir)
    indexer = Indexer(ix, {"bench": vault})
    notes = sorted(p for p in vault_dir.rglob("*.md") if "/." not in str(p))
    lat = []
    originals: dict[Path, bytes] = {}
    for i in range(60):
        p = notes[(i * 331) % len(notes)]
        rel = p.relative_to(vault_dir).as_posix()
        word = f"ownwrite{i}x"
        originals.setdefault(p, p.read_bytes())
        p.write_text(p.read_text("utf-8") + f"\n{word}\n", "utf-8")
        t0 = time.perf_counter()
        indexer.refresh_path("bench", rel)
        page = ix.search(word, vaults=["bench"])
        lat.append((time.perf_counter() - t0) * 1000)
        assert page.total == 1 and page.hits[0].path == rel, (word, page)
        time.sleep(0.05)
    out["own_write_visible_p50_ms"] = _pct(lat, 50)
    out["own_write_visible_p95_ms"] = _pct(lat, 95)
    out["own_write_visible_max_ms"] = max(lat)
    for p, data in originals.items():  # leave the generated vault as it was
        p.write_bytes(data)
        indexer.refresh_path("bench", p.relative_to(vault_dir).as_posix())
    t0 = time.perf_counter()
    ix.flush()
    out["flush_after_writes_ms"] = (time.perf_counter() - t0) * 1000
    ix.close()
    # worst case: queries while 60 edited notes sit in the overlay (commits held back on purpose; 64 overlay
    # notes trigger a commit)
    ix = VaultIndex(d / "index.sqlite3", commit_interval=3600)
    indexer = Indexer(ix, {"bench": vault})
    for i in range(60):
        p = notes[(i * 97) % len(notes)]
        indexer.refresh_path("bench", p.relative_to(vault_dir).as_posix())
    run_queries(" [60 notes in overlay]")
    ix.close()
    out.update(rss_before_mb=rss0, rss_end_mb=_rss_mb(), peak_rss_mb=_peak_mb(), first_hit=first.hits[:1])
    return out


def _child(args: list[str], module: str = "bench.search_engines") -> dict:
    """Run ``python -m <module> <args>`` in a fresh process; return the JSON object on its last stdout line."""
    r = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise SystemExit(f"child {args} failed:\n{r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def machine() -> dict:
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "cpus": os.cpu_count(),
        "platform": platform.platform(),
        "tantivy": _tantivy_version(),
        "loadavg_at_start": os.getloadavg(),  # other work on the machine inflates latencies
    }


def _tantivy_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tantivy")
    except PackageNotFoundError:  # pragma: no cover
        return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.search_engines", description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--reps", type=int, default=40)
    ap.add_argument("--engines", default="fts5,tantivy")
    ap.add_argument("--vaultindex", action="store_true", help="also measure obsigate's Indexer + VaultIndex")
    ap.add_argument("--skip-engines", action="store_true", help="only the VaultIndex measurement")
    ap.add_argument("--worker", choices=["build", "serve", "vi-build", "vi-serve"], help=argparse.SUPPRESS)
    ap.add_argument("--engine", help=argparse.SUPPRESS)
    ap.add_argument("--vault", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)

    if a.worker:
        a.work.mkdir(parents=True, exist_ok=True)
        if a.worker == "build":
            r = worker_build(a.engine, a.vault, a.work)
        elif a.worker == "serve":
            r = worker_serve(a.engine, a.vault, a.work, a.reps)
        elif a.worker == "vi-build":
            r = worker_vi_build(a.vault, a.work)
        else:
            r = worker_vi_serve(a.vault, a.work, a.reps)
        print(json.dumps(r, default=str))
        return 0

    from bench.genvault import generate

    vault = OUT / f"vault-{a.notes}-{a.seed}"
    if not (vault / ".genvault.json").exists():
        t = time.perf_counter()
        generate(vault, notes=a.notes, seed=a.seed)
        print(f"# generated {vault} in {time.perf_counter() - t:.1f}s", file=sys.stderr)
    report: dict = {"machine": machine(), "vault": json.loads((vault / ".genvault.json").read_text()), "engines": {}}
    work = OUT / f"work-{a.notes}-{a.seed}"
    for engine in [] if a.skip_engines else a.engines.split(","):
        common = ["--engine", engine, "--vault", str(vault), "--work", str(work), "--reps", str(a.reps)]
        print(f"# {engine}: build", file=sys.stderr)
        b = _child(["--worker", "build", *common])
        print(f"# {engine}: serve", file=sys.stderr)
        s = _child(["--worker", "serve", *common])
        report["engines"][engine] = {"build": b, "serve": s}
        if engine == "fts5":
            print("# fts5cap: serve", file=sys.stderr)
            # the updates above changed the db; rebuild for a clean comparison
            _child(["--worker", "build", *common])
            s2 = _child(["--worker", "serve", *[c if c != "fts5" else "fts5cap" for c in common]])
            report["engines"]["fts5cap"] = {"build": b, "serve": s2}
    if a.vaultindex:
        common = ["--vault", str(vault), "--work", str(work), "--reps", str(a.reps)]
        print("# VaultIndex: build", file=sys.stderr)
        b = _child(["--worker", "vi-build", *common])
        print("# VaultIndex: serve", file=sys.stderr)
        s = _child(["--worker", "vi-serve", *common])
        report["vaultindex"] = {"build": b, "serve": s}
    report["machine"]["loadavg_at_end"] = os.getloadavg()
    name = f"search_engines-{a.notes}-{a.seed}{'-vi' if a.skip_engines else ''}.json"
    (OUT / name).write_text(json.dumps(report, indent=1, default=str))
    if report["engines"]:
        print_table(report)
    if a.vaultindex:
        print_vi(report["vaultindex"])
    return 0


def print_vi(r: dict) -> None:
    b, s = r["build"], r["serve"]
    print("\nobsigate Indexer.refresh_all + VaultIndex (SQLite metadata + tantivy full text + overlay)")
    print(
        f"build {b['build_s']:.1f} s (CPU: main process {b.get('cpu_s_main_process', 0):.1f} s incl. tantivy "
        f"threads, parse workers {b.get('cpu_s_parse_workers', 0):.1f} s), stats {b['stats']}"
    )
    print(
        f"disk {b['size_mb']:.0f} MB (sqlite {b['sqlite_mb']:.0f}, tantivy {b['tantivy_mb']:.0f}); "
        f"build peak RSS {b['peak_rss_mb']:.0f} MB "
        f"(+ parse worker process {b.get('worker_peak_rss_mb', 0):.0f} MB)"
    )
    print(
        f"serve RSS before/after queries/peak {s['rss_before_mb']:.0f}/{s['rss_after_queries_mb']:.0f}/"
        f"{s['peak_rss_mb']:.0f} MB; open+first query {s['open_first_query_ms']:.1f} ms"
    )
    for label, q in s["queries"].items():
        print(
            f"  {label:<60} p50 {q['p50_ms']:6.2f}  p95 {q['p95_ms']:6.2f}  max {q['max_ms']:6.2f} ms  "
            f"total {q['total']}"
        )
    print(
        f"own write visible (refresh_path + search) p50 {s['own_write_visible_p50_ms']:.1f} "
        f"p95 {s['own_write_visible_p95_ms']:.1f} max {s['own_write_visible_max_ms']:.1f} ms; "
        f"flush {s['flush_after_writes_ms']:.0f} ms"
    )


def print_table(report: dict) -> None:
    eng = report["engines"]
    names = list(eng)
    print(f"machine: {report['machine']}")
    print(f"vault: {report['vault']}")
    row = lambda k, f: print(f"{k:<48}" + "".join(f"{f(eng[n]):>18}" for n in names))  # noqa: E731
    print(f"{'':<48}" + "".join(f"{n:>18}" for n in names))
    row("build s", lambda e: f"{e['build']['build_s']:.2f}")
    row("on disk MB", lambda e: f"{e['build']['size_mb']:.1f}")
    row("build peak RSS MB", lambda e: f"{e['build']['peak_rss_mb']:.0f}")
    row(
        "serve RSS before/after MB",
        lambda e: f"{e['serve']['rss_before_mb']:.0f}/{e['serve']['rss_after_queries_mb']:.0f}",
    )
    row("open + first query ms", lambda e: f"{e['serve']['open_first_query_ms']:.1f}")
    for label, _, _ in QUERIES:
        row(
            label[:47],
            lambda e, label=label: "{p50:.2f}/{p95:.2f} ({t})".format(
                p50=e["serve"]["queries"][label]["p50_ms"],
                p95=e["serve"]["queries"][label]["p95_ms"],
                t=e["serve"]["queries"][label]["total"],
            ),
        )
    row(
        "update visible p50/p95 ms",
        lambda e: f"{e['serve']['update_visible_p50_ms']:.1f}/{e['serve']['update_visible_p95_ms']:.1f}",
    )
    row("50-note batch visible ms", lambda e: f"{e['serve']['batch50_visible_ms']:.1f}")


if __name__ == "__main__":
    sys.exit(main())
