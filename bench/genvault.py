"""Seeded synthetic Obsidian vault generator (reproducible: same ``--seed`` and ``--notes`` → same bytes).

Usage::

    python -m bench.genvault OUT --notes 10000 --seed 42

What a generated vault looks like:

* ``N`` markdown notes in nested folders (depth 0-3: ``projects/alpha/``, ``journal/2024/03/``...).
* Note sizes drawn from a log-normal distribution (median ≈ 2 KB), clipped to 0.5-8 KB.
* Text = Zipf-distributed words (s = 1.07) over a vocabulary of common English words, technical terms,
  accented French words (``procédure``, ``déploiement``...) and ~30k seeded pseudo-words, plus a few
  fixed collocations (``action items``, ``database backup``...).
* 80 % of notes carry YAML frontmatter (tags, created, status, sometimes aliases; 0.3 % is invalid YAML),
  inline ``#tags`` from a nested tag vocabulary, ``[[wikilinks]]`` to other notes, ``##`` headings,
  bullet/task lists, occasional fenced code blocks.
* Planted words with a known document count (for benchmarks): ``zanzibarite`` in ``max(3, N/2000)`` notes.
* Optional hub notes (``--hubs H``, default 0): ``H`` notes with vault-unique titles that many notes link to,
  like a map-of-content or a person note, so backlink queries see realistic fan-in. Hub ``k`` (0-based) is
  linked by a ``See also [[Hub title]].`` line at the end of about ``20 % / (k + 1)`` of the other notes
  (hub 0 from ~2,000 notes at 10k, ~20,000 at 100k). The hub lines come from their own seeded generator and
  are appended after the note text, so a vault with hubs is the vault without hubs plus those lines.
* A hidden manifest ``.genvault.json`` (ignored by the vault walk) records seed, counts and planted words.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path

COMMON = (
    "the of and to a in is that for it as was with be by on not he this are or at from his but have "
    "an they which one you were all we her she there would their will when who him been has more if no "
    "out so said what up its about into than them can only other time new some could these two may "
    "first then do any like my now over such our man me even most made after also did many before must "
    "through back years where much your way well down should because each just those people how too "
    "little state good very make world still own see men work long get here between both life being under "
    "never day same another know while last might us great old year off come since against go came right "
    "used take three"
).split()

TECH = (
    "project meeting notes database server backup deployment release pipeline review design api client "
    "config cluster kubernetes postgres python rust docker network latency index query cache storage "
    "migration schema service endpoint token session user team sprint roadmap budget report metrics "
    "dashboard alert incident postmortem runbook checklist template draft summary decision action items "
    "task bug feature test coverage refactor module function library version upgrade security audit "
    "password encryption certificate firewall monitoring logging tracing performance benchmark memory "
    "thread process queue worker scheduler cron script shell terminal editor vault obsidian markdown "
    "link graph tag folder archive inbox journal daily weekly monthly quarterly goal habit reading book "
    "article paper idea research experiment hypothesis result analysis chart table spreadsheet invoice "
    "customer contract proposal interview hiring onboarding feedback retrospective planning estimate"
).split()

FRENCH = (
    (
        "procédure déploiement réunion équipe sécurité données problème système mémoire résumé café naïve "
        "élément créer modèle référence générale période intérêt qualité société stratégie théorie "
        "vérifier "
        "étape écrire année été élève numéro présentation développement bibliothèque mise_à_jour conformité "
        "prélèvement échéance reçu trésorerie hébergement sauvegarde restauration fenêtre clé côté château "
        "forêt hôpital île où déjà très après ça garçon français"
    )
    .replace("_", " ")
    .split()
)

COLLOCATIONS = (
    "action items",
    "next steps",
    "meeting notes",
    "database backup",
    "release plan",
    "code review",
    "backup procédure",
    "incident postmortem",
    "weekly review",
    "reading list",
)

TAG_ROOTS = ("project", "area", "status", "type", "topic", "person", "year")
TAG_LEAVES = (
    "alpha",
    "beta",
    "gamma",
    "delta",
    "health",
    "finance",
    "home",
    "work",
    "todo",
    "done",
    "waiting",
    "meeting",
    "idea",
    "reference",
    "kubernetes",
    "python",
    "rust",
    "café",
    "réunion",
    "2024",
    "2025",
)
FOLDERS = (
    "",
    "",
    "inbox",
    "projects/alpha",
    "projects/beta",
    "projects/gamma/specs",
    "areas/health",
    "areas/finance",
    "journal/2024/03",
    "journal/2025/11",
    "resources/books",
    "resources/articles",
    "archive/2023",
    "people",
    "meetings/weekly",
    "meetings/1on1/team",
)
SYLLABLES = (
    "ka to ri mu se na lo ve chi pra nel dor fin gal hum jor kel lum mor nis pol quin ros sul tav "
    "ur vin wex yal zor bri cla dre fla gro ple tri sto vra"
).split()

RARE_WORD = "zanzibarite"


def _pseudo_words(rng: random.Random, n: int) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < n:
        w = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))
        if w not in seen:
            seen.add(w)
            out.append(w)
    return out


def _vocabulary(rng: random.Random) -> tuple[list[str], list[float]]:
    """Return (words, cumulative Zipf weights); rank 1 = most frequent."""
    head = list(COMMON[:60])
    rest = list(COMMON[60:]) + list(TECH) + list(FRENCH)
    rng.shuffle(rest)
    words = head + rest + _pseudo_words(rng, 30_000)
    cum: list[float] = []
    total = 0.0
    for rank in range(1, len(words) + 1):
        total += 1.0 / rank**1.07
        cum.append(total)
    return words, cum


HUB_SHARE = 0.20  # hub k is linked from ~HUB_SHARE / (k + 1) of the notes


class _Gen:
    def __init__(self, seed: int, notes: int, hubs: int = 0) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.n = notes
        self.n_hubs = max(0, min(hubs, notes // 10))
        self.words, self.cum = _vocabulary(self.rng)
        self.tags = [f"{r}/{leaf}" for r in TAG_ROOTS for leaf in TAG_LEAVES] + list(TAG_LEAVES)
        self.titles: list[str] = []
        self.paths: list[str] = []
        self._plan()

    def _plan(self) -> None:
        rng = self.rng
        used: set[str] = set()
        for _i in range(self.n):
            k = rng.randint(1, 4)
            title = " ".join(self._words(k)).replace("/", " ").strip()
            title = title[:1].upper() + title[1:]
            base = title
            j = 2
            folder = rng.choice(FOLDERS)
            while (folder, title.lower()) in used:
                title = f"{base} {j}"
                j += 1
            used.add((folder, title.lower()))
            self.titles.append(title)
            self.paths.append(f"{folder}/{title}.md" if folder else f"{title}.md")
        step = max(1, self.n // max(3, self.n // 2000))
        self.rare_notes = sorted({(i * step + 7) % self.n for i in range(max(3, self.n // 2000))})
        self._plan_hubs()

    def _plan_hubs(self) -> None:
        """Pick the hub notes (vault-unique titles, so ``[[title]]`` resolves to them) with their own RNG."""
        self.hrng = random.Random(f"hubs:{self.seed}")
        self.hubs: list[int] = []
        if not self.n_hubs:
            return
        seen: dict[str, int] = {}
        for t in self.titles:
            seen[t.lower()] = seen.get(t.lower(), 0) + 1
        unique = [i for i, t in enumerate(self.titles) if seen[t.lower()] == 1 and "[" not in t and "|" not in t]
        self.hubs = self.hrng.sample(unique, self.n_hubs)
        self.hub_links = [0] * self.n_hubs

    def _hub_lines(self, i: int) -> list[str]:
        out = []
        for k, h in enumerate(self.hubs):
            if self.hrng.random() < HUB_SHARE / (k + 1) and h != i:
                out.append(f"See also [[{self.titles[h]}]].")
                self.hub_links[k] += 1
        return out

    def _words(self, k: int) -> list[str]:
        return self.rng.choices(self.words, cum_weights=self.cum, k=k)

    def _sentence(self) -> str:
        rng = self.rng
        ws = self._words(rng.randint(6, 18))
        if rng.random() < 0.25:
            ws.insert(rng.randrange(len(ws)), rng.choice(COLLOCATIONS))
        if rng.random() < 0.15:
            ws.insert(rng.randrange(len(ws)), "#" + rng.choice(self.tags))
        if rng.random() < 0.12:
            t = self.titles[rng.randrange(self.n)]
            ws.insert(rng.randrange(len(ws)), f"[[{t}]]" if rng.random() < 0.8 else f"[[{t}|{ws[0]}]]")
        s = " ".join(ws)
        return s[:1].upper() + s[1:] + rng.choice(".....?!;")

    def note(self, i: int) -> str:
        rng = self.rng
        target = int(min(8000, max(500, math.exp(rng.gauss(math.log(2000), 0.7)))))
        parts: list[str] = []
        if rng.random() < 0.8:
            fm = ["---"]
            if rng.random() < 0.003:
                fm.append("tags: [unclosed, list")
            else:
                tags = rng.sample(self.tags, rng.randint(0, 3))
                fm.append("tags: [" + ", ".join(tags) + "]")
            fm.append(f"created: 20{rng.randint(20, 26)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")
            fm.append("status: " + rng.choice(("draft", "done", "active", "waiting")))
            if rng.random() < 0.2:
                fm.append("aliases: [" + " ".join(self._words(2)).replace(",", "") + "]")
            fm.append("---")
            parts.append("\n".join(fm))
        if rng.random() < 0.5:
            parts.append(f"# {self.titles[i]}")
        size = sum(len(p) + 1 for p in parts)
        while size < target:
            r = rng.random()
            if r < 0.15:
                block = "## " + " ".join(self._words(rng.randint(1, 4))).capitalize()
            elif r < 0.3:
                block = "\n".join(
                    ("- [ ] " if rng.random() < 0.3 else "- ") + self._sentence() for _ in range(rng.randint(2, 6))
                )
            elif r < 0.34:
                block = (
                    "```python\n"
                    + "\n".join(
                        f"def {self.words[rng.randrange(200, 3000)]}(x):\n    return x + {rng.randint(0, 99)}"
                        for _ in range(rng.randint(1, 3))
                    )
                    + "\n```"
                )
            else:
                block = " ".join(self._sentence() for _ in range(rng.randint(2, 7)))
            parts.append(block)
            size += len(block) + 2
        if i in self._rare_set:
            parts.insert(len(parts) // 2 + 1, f"The {RARE_WORD} sample was filed here.")
        if self.hubs:  # after every draw from self.rng: the rest of the vault is unchanged by hubs
            parts += self._hub_lines(i)
        return "\n\n".join(parts) + "\n"

    def write(self, out: Path) -> dict:
        self._rare_set = set(self.rare_notes)
        out.mkdir(parents=True, exist_ok=True)
        total = 0
        for i, rel in enumerate(self.paths):
            text = self.note(i)
            p = out / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            data = text.encode("utf-8")
            p.write_bytes(data)
            total += len(data)
        manifest = {
            "notes": self.n,
            "bytes": total,
            "planted": {RARE_WORD: len(self.rare_notes)},
        }
        if self.hubs:
            # linkers = notes with a "See also" line to the hub; random sentence links add a few more
            manifest["hubs"] = [
                {"path": self.paths[h], "title": self.titles[h], "linkers": self.hub_links[k]}
                for k, h in enumerate(self.hubs)
            ]
        return manifest


def generate(out: Path, *, notes: int, seed: int, hubs: int = 0) -> dict:
    """Write a vault of ``notes`` notes under ``out`` and return its manifest (also stored as ``.genvault.json``).

    Deterministic for a given ``(notes, seed, hubs)``; ``hubs=0`` gives the same bytes as before hubs existed.
    ``out`` is created if needed; existing files with the same names are overwritten, other files are left
    alone.
    """
    g = _Gen(seed, notes, hubs)
    manifest = g.write(out)
    manifest["seed"] = seed
    (out / ".genvault.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.genvault", description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--hubs", type=int, default=0, help="hub notes many others link to (default 0)")
    a = ap.parse_args(argv)
    t = time.perf_counter()
    m = generate(a.out, notes=a.notes, seed=a.seed, hubs=a.hubs)
    print(json.dumps({**m, "seconds": round(time.perf_counter() - t, 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
