"""Obsidian-exact reading view (issue 19 item 2, and item 1's tickable tasks and properties editor), in Chromium
against a real ObsiGate on loopback.

- A RENDERING CORPUS: Obsidian constructs (markdown in) with the DOM facts Obsidian's reading view gives them
  (``shared/reference/obsidian-app.md`` §4, ``obsidian.md``): one note per construct, all checked on one page.
- The journeys: ticking tasks (mouse and Space) saved through the save path, a concurrent edit giving the
  conflict choice instead of an overwrite; the typed properties editor (set, list chips, checkbox, add, rename,
  remove; unknown YAML and the body kept; invalid YAML shown as written); a `[[Note#^id]]` link scrolling to
  its block; backlink contexts as markdown; the hover preview (Esc closes it, focus stays on the link).
- Every note of the two shared vaults rendered with no console error and no raw `%%`, `<!--`, `^blockid` or
  `==highlight==` left in the text (skipped when ``../shared/vaults`` is absent).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from conftest import LiveServer
from support import free_port, write_tree

from obsigate.config import load_settings

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "vaults"

# name -> (markdown, [(selector, expected facts)]): facts are "count", "text" (substring of textContent),
# "no_text" (must not be in the note's text), "attr" ({name: value}; None = attribute absent).
CORPUS: dict[str, tuple[str, list[tuple[str, dict[str, Any]]]]] = {
    "table-br": (
        "| a | b |\n|---|--:|\n| x<br>y | z |\n",
        [
            ("td br", {"count": 1}),
            ("table", {"no_text": "<br>"}),
            ("td:nth-child(2)", {"attr": {"data-align": "right"}}),
        ],
    ),
    "inline-html": (
        'Press <kbd>Ctrl</kbd>, <u>under</u>, H<sub>2</sub>O, x<sup>2</sup>, <mark>hi</mark>, <span class="c">s</span>\n',
        [
            ("kbd", {"text": "Ctrl"}),
            ("u", {"text": "under"}),
            ("sub", {"text": "2"}),
            ("sup", {"text": "2"}),
            ("mark", {"text": "hi"}),
            ("span.c", {"text": "s"}),
            ("p", {"no_text": "<kbd>"}),
        ],
    ),
    "details": (
        "<details><summary>More</summary>\nhidden text\n</details>\n",
        [("details > summary", {"text": "More"}), ("details", {"text": "hidden text"})],
    ),
    "div": (
        '<div class="box">in a div, <a href="../Tasks.md">to Tasks</a></div>\n',
        [("div.box", {"text": "in a div"}), ("div.box a.internal-link", {"attr": {"data-path": "Tasks.md"}})],
    ),
    "scripts": (
        '<script>window.bad = 1</script>\n\n<img src="../pic.png" onerror="window.bad = 2" onload="window.bad = 4">\n\n'
        '<a href="javascript:window.bad=3">js</a> <button>b</button> <iframe src="/"></iframe>\n',
        [
            ("script", {"count": 0}),
            ("button", {"count": 0}),
            ("iframe", {"count": 0}),
            ("img", {"attr": {"onerror": None}}),
            ("a", {"attr": {"href": None}}),
        ],
    ),
    "html-img": (
        '<img src="../pic.png" alt="P"> <img src="https://example.org/x.png" alt="remote">\n',
        [("img[alt=P]", {"attr": {"src": "/api/file/notes/raw?path=pic.png"}}), ("a.remote-image", {"text": "remote"})],
    ),
    "comment-inline": ("before %%secret%% after\n", [("p", {"text": "before", "no_text": "secret"})]),
    "comment-block": ("%%\nblock secret\n\nstill secret\n%%\nvisible\n", [("p", {"count": 1, "text": "visible"})]),
    "comment-html": ("a <!-- hidden --> b\n\n<!--\nblock\n-->\nc\n", [("p", {"text": "a", "no_text": "hidden"})]),
    "comment-in-code": ("```\n%% kept %%\n<!-- kept -->\n```\n", [("pre code", {"text": "%% kept %%"})]),
    "line-breaks": ("one\ntwo\n", [("p br", {"count": 1})]),
    "highlight": (
        "some ==marked **bold**== text\n",
        [("mark", {"text": "marked bold"}), ("mark strong", {"count": 1})],
    ),
    "block-id": (
        "A paragraph ^para1\n\n- item ^item-2\n- other\n\n^list\n",
        [
            ("p[data-block-id=para1]", {"text": "A paragraph", "no_text": "^"}),
            ("li[data-block-id=item-2]", {"count": 1}),
            ("ul[data-block-id=list]", {"count": 1}),
        ],
    ),
    "tasks": (
        "- [ ] open\n- [x] done\n- [/] doing\n- [-] dropped\n- [>] later\n",
        [
            ("ul.contains-task-list > li.task-list-item", {"count": 5}),
            ("li[data-task='']", {"text": "open"}),
            ("li.is-checked[data-task=x]", {"text": "done"}),
            ("li[data-task='/'] input:checked", {"count": 1}),
            ("li[data-task='-']", {"text": "dropped"}),
            ("li[data-task='>']", {"text": "later"}),
        ],
    ),
    "callout": ("> [!tip] Title here\n> body\n", [(".callout[data-callout=tip]", {"text": "body"})]),
    "wikilinks": (
        "[[pic.png|x]] [[Tasks]] [[Tasks#^b1|alias]] [[Missing]] #tag/sub\n",
        [
            ("a.internal-link[data-path='Tasks.md']", {"count": 2}),
            ("a[data-subpath='^b1']", {"text": "alias"}),
            ("a.is-unresolved", {"text": "Missing"}),
            ("a.tag[data-tag='tag/sub']", {"count": 1}),
        ],
    ),
    "footnote": ("Text[^1].\n\n[^1]: The note.\n", [(".footnotes", {"text": "The note."}), ("sup", {"count": 1})]),
}

TASKS = "---\ntags: [a]\n---\n# Tasks\n\n- [ ] first\n- [x] second\n- [/] third ^b1\n"
PROPS = (
    "---\n# kept comment\ntitle: Old title\ntags:\n  - one\nrating: 3\ndone: false\ndue: 2024-05-01\n"
    "when: 2024-05-01T10:30:00\nodd: 2024-02-30\nnested:\n  deep: [1, 2]\n---\nBody stays [[Tasks]].\n"
)
FILLER = "".join(f"Filler paragraph {i} with enough words to take a line or two of the page.\n\n" for i in range(60))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """One ObsiGate (auth off) over a vault of the corpus notes and the journeys' notes, plus a vault whose
    .obsidian/app.json sets strictLineBreaks."""
    root = tmp_path_factory.mktemp("reading")
    files: dict[str, str | bytes] = {f"corpus/{name}.md": md for name, (md, _) in CORPUS.items()}
    files |= {
        "Tasks.md": TASKS,
        "Props.md": PROPS,
        "Broken.md": "---\na: [1\n---\nThe body.\n",
        "Blocks.md": f"# Blocks\n\n{FILLER}Target paragraph ^tgt\n",
        "Linker.md": "# Linker\n\nSee [[Blocks#^tgt]] and [[Tasks]] with ==style==.\n",
        "pic.png": b"\x89PNG\r\n\x1a\n",
        ".obsidian/types.json": '{"types": {"rating": "number", "due": "date"}}',
    }
    vault = write_tree(root / "vault", files)
    strict = write_tree(root / "strict", {"lines.md": "one\ntwo\n", ".obsidian/app.json": '{"strictLineBreaks": true}'})
    settings = load_settings(
        data_dir=root / "data",
        port=free_port(),
        vaults={"notes": {"path": str(vault)}, "strict": {"path": str(strict)}},
        auth_enabled=False,
    )
    live = LiveServer(settings).start()
    live.wait_ready()
    try:
        yield live.url, vault
    finally:
        live.stop()


def _open(page: Any, url: str, vault: str, path: str) -> None:
    page.evaluate("h => { location.hash = h; }", f"#/v/{vault}/{quote(path)}")
    title = path.rsplit("/", 1)[-1].removesuffix(".md")
    page.wait_for_function(
        "t => { const h = document.querySelector('#note-title'); const m = document.querySelector('#main');"
        " return h && h.textContent === t && !m.hasAttribute('aria-busy') && document.querySelector('.markdown-body'); }",
        arg=title,
    )


FACTS_JS = """([sel, noText]) => {
  const body = document.querySelector('.note .markdown-body');
  const nodes = [...body.querySelectorAll(sel)];
  return {count: nodes.length, text: nodes.map((n) => n.textContent).join('|'), bodyText: body.textContent,
          attrs: nodes.length ? Object.fromEntries([...nodes[0].attributes].map((a) => [a.name, a.value])) : {}};
}"""


def test_rendering_corpus(page: Any, served: tuple[str, Path]) -> None:
    url, _ = served
    page.goto(f"{url}/#/v/notes", wait_until="networkidle")
    failures: list[str] = []
    for name, (_md, facts) in CORPUS.items():
        _open(page, url, "notes", f"corpus/{name}.md")
        for selector, want in facts:
            got = page.evaluate(FACTS_JS, [selector, None])
            where = f"{name}: {selector}"
            if "count" in want and got["count"] != want["count"]:
                failures.append(f"{where}: {got['count']} nodes, want {want['count']}")
            elif "count" not in want and got["count"] == 0:
                failures.append(f"{where}: no node")
            if "text" in want and want["text"] not in got["text"]:
                failures.append(f"{where}: text {got['text']!r} lacks {want['text']!r}")
            if "no_text" in want and want["no_text"] in got["bodyText"]:
                failures.append(f"{where}: {want['no_text']!r} shown")
            for attr, value in want.get("attr", {}).items():
                if got["attrs"].get(attr) != value:
                    failures.append(f"{where}: [{attr}]={got['attrs'].get(attr)!r}, want {value!r}")
    assert page.evaluate("window.bad") is None  # no script of the notes ran
    _open(page, url, "strict", "lines.md")  # strictLineBreaks: a single newline is a space (CommonMark)
    assert page.evaluate(FACTS_JS, ["p br", None])["count"] == 0
    assert not failures, "\n".join(failures)


def _disk(vault: Path, name: str) -> str:
    return (vault / name).read_text(encoding="utf-8")


def _wait_disk(page: Any, vault: Path, name: str, pattern: str) -> str:
    for _ in range(100):
        text = _disk(vault, name)
        if re.search(pattern, text, re.M):
            return text
        page.wait_for_timeout(50)
    raise AssertionError(f"{name} never matched {pattern!r}:\n{_disk(vault, name)}")


def test_reading_journeys(page: Any, served: tuple[str, Path]) -> None:
    url, vault = served
    page.goto(f"{url}/#/v/notes/Tasks.md", wait_until="networkidle")
    page.wait_for_selector(".task-list-item-checkbox:not([disabled])")
    # a click ticks the first task; Space on the focused third one unticks it ([/] -> [ ])
    page.click("li[data-task=''] > input")
    _wait_disk(page, vault, "Tasks.md", r"^- \[x\] first$")
    page.wait_for_selector("li.is-checked[data-task=x]:has-text('first') > input:not([aria-busy])")
    page.focus("li[data-task='/'] > input")
    page.keyboard.press("Space")
    text = _wait_disk(page, vault, "Tasks.md", r"^- \[ \] third \^b1$")
    assert text.startswith("---\ntags: [a]\n---\n# Tasks\n")
    # a concurrent edit: the save is refused and the person chooses; applying keeps the other writer's line
    page.wait_for_selector("li[data-task='']:has-text('third') > input:not([aria-busy]):not(:checked)")
    (vault / "Tasks.md").write_text(text + "- [ ] added elsewhere\n", encoding="utf-8")
    page.click("li[data-task=x]:has-text('second') > input")
    page.wait_for_selector("dialog.confirm >> text=This note changed")
    page.click("dialog.confirm button:has-text('Apply to the latest version')")
    text = _wait_disk(page, vault, "Tasks.md", r"^- \[ \] second$")
    assert "- [ ] added elsewhere" in text and "- [x] first" in text

    # backlink contexts are markdown with live links; the hover preview shows the target's start
    page.wait_for_selector("#backlinks .backlink-context a.internal-link[data-path='Tasks.md']")
    assert "[[" not in page.inner_text("#backlinks .backlink-list")
    _open(page, url, "notes", "Linker.md")
    assert page.inner_text(".markdown-body mark") == "style"
    page.hover(".markdown-body a[data-path='Tasks.md']")
    page.wait_for_selector(".hover-popover:not([hidden]) >> text=first")
    assert page.get_attribute(".hover-popover", "aria-label") == "Preview of Tasks"
    page.focus(".markdown-body a[data-path='Tasks.md']")
    page.keyboard.press("Escape")
    page.wait_for_selector(".hover-popover", state="hidden")
    assert page.evaluate("document.activeElement.dataset.path") == "Tasks.md"
    # a note without properties shows no empty box; "Add file property" (Mod+;) opens one, Esc closes it again
    assert not page.is_visible(".properties-editor")
    page.keyboard.press("Control+;")
    page.keyboard.press("Escape")
    page.wait_for_selector(".properties-editor", state="hidden")
    assert page.evaluate("document.activeElement.id") == "note-title"
    page.keyboard.press("Control+;")
    page.keyboard.type("topic")
    page.keyboard.press("Enter")
    _wait_disk(page, vault, "Linker.md", r"^---\ntopic:\n---\n# Linker\n")
    # [[Blocks#^tgt]] opens the note scrolled to its block
    page.click(".markdown-body a[data-subpath='^tgt']")
    page.wait_for_selector("p[data-block-id=tgt].flash")
    assert page.evaluate("(() => { const r = document.querySelector('p[data-block-id=tgt]').getBoundingClientRect();"
                         " return r.top >= 0 && r.bottom <= innerHeight; })()")  # fmt: skip

    # the typed properties editor: every edit saved at once, the rest of the YAML and the body kept
    _open(page, url, "notes", "Props.md")
    editor = ".properties-editor"
    assert page.get_attribute(f"{editor} input[data-key=rating][data-role=value]", "type") == "number"
    assert page.get_attribute(f"{editor} input[data-key=due][data-role=value]", "type") == "date"
    assert page.get_attribute(f"{editor} input[data-key=when][data-role=value]", "type") == "datetime-local"
    page.fill(f"{editor} input[data-key=rating][data-role=value]", "5")
    page.keyboard.press("Enter")
    _wait_disk(page, vault, "Props.md", r"^rating: 5$")
    # a number no note can hold is refused with a message, the file keeps its value; an impossible date shows as text
    page.click(f"{editor} input[data-key=rating][data-role=value]", click_count=3)
    page.keyboard.type("1e400")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-key=rating][data-role=value]').validationMessage.startsWith('Not a number')"
    )
    page.wait_for_timeout(200)
    assert re.search(r"^rating: 5$", _disk(vault, "Props.md"), re.M)
    assert page.get_attribute(f"{editor} input[data-key=odd][data-role=value]", "type") == "text"
    assert page.input_value(f"{editor} input[data-key=odd][data-role=value]") == "2024-02-30"
    # narrow (a phone, a split pane): the key and value stack, a value keeps a readable width (not a letter a line)
    wide = page.viewport_size
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_function(
        "() => { const k = document.querySelector('[data-key=when][data-role=key]');"
        " const v = document.querySelector('[data-key=when][data-role=value]');"
        " return v.offsetTop > k.offsetTop && v.offsetWidth > 180; }"
    )
    page.set_viewport_size(wide)
    page.fill(f"{editor} input[data-key=tags][data-role=value]", "two")
    page.keyboard.press("Enter")
    _wait_disk(page, vault, "Props.md", r"^  - two$")
    page.click(f"{editor} input[data-key=done][data-role=value]")
    _wait_disk(page, vault, "Props.md", r"^done: true$")
    page.fill(f"{editor} input[data-key=title][data-role=key]", "name")
    page.keyboard.press("Enter")
    _wait_disk(page, vault, "Props.md", r"^name: Old title$")
    page.click(f"{editor} button[aria-label='Remove property due']")
    page.wait_for_function("() => !document.querySelector('[data-key=due]')")
    page.keyboard.press("Control+;")  # Obsidian's "Add file property" (markdown:add-metadata-property)
    page.keyboard.type("status")
    page.keyboard.press("Enter")
    text = _wait_disk(page, vault, "Props.md", r"^status:$")
    assert "due:" not in text
    assert text.startswith("---\n# kept comment\nname: Old title\n")
    assert "nested:\n  deep: [ 1, 2 ]\n" in text or "nested:\n  deep: [1, 2]\n" in text
    assert text.endswith("---\nBody stays [[Tasks]].\n")
    # invalid YAML: shown as written, with the reason, never an editor that could rewrite it
    _open(page, url, "notes", "Broken.md")
    page.wait_for_selector(".properties-source .properties-yaml >> text=a: [1")
    assert page.locator(".properties-editor").count() == 0
    assert "not valid YAML" in page.inner_text(".properties-source .notice")


# Opens each note in turn inside the page (one evaluate: no round trip per note) and collects, for each, the
# text outside code that still shows Obsidian markup the reading view must hide.
SWEEP_JS = r"""async (notes) => {
  const found = [];
  const ready = (title) => new Promise((resolve) => {
    const check = () => {
      const h = document.querySelector('#note-title');
      if (h && h.textContent === title && !document.querySelector('#main').hasAttribute('aria-busy')
          && document.querySelector('.note .markdown-body')) resolve();
      else requestAnimationFrame(check);
    };
    check();
  });
  for (const [vault, path] of notes) {
    location.hash = `#/v/${encodeURIComponent(vault)}/${path.split('/').map(encodeURIComponent).join('/')}`;
    await ready(path.split('/').pop().replace(/\.md$/, ''));
    const body = document.querySelector('.note .markdown-body');
    const walk = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      if (n.parentElement.closest('pre, code, .math, .mermaid-source, .embed-note')) continue;
      const s = n.data;
      if (s.includes('%%') || s.includes('<!--') || /(^|\s)\^[A-Za-z0-9-]+\s*$/.test(s)
          || /==[^=\s](?:[^=]*[^=\s])?==/.test(s)) found.push(`${vault}/${path}: ${s.trim().slice(0, 80)}`);
    }
  }
  return found;
}"""


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared vaults (../shared/vaults) are not here")
def test_shared_vaults_render_cleanly(page: Any, tmp_path: Path) -> None:
    vaults = {n: SHARED / n for n in ("obsidian-tasks-docs", "kepano-obsidian") if (SHARED / n).is_dir()}
    settings = load_settings(
        data_dir=tmp_path / "data",
        port=free_port(),
        vaults={n: {"path": str(p.resolve()), "read_only": True} for n, p in vaults.items()},
        auth_enabled=False,
    )
    notes = [
        [name, rel]
        for name, root in vaults.items()
        for rel in sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))
        if not any(part.startswith(".") for part in rel.split("/"))
    ]
    live = LiveServer(settings).start()
    try:
        live.wait_ready()
        page.goto(f"{live.url}/#/v/{next(iter(vaults))}", wait_until="networkidle")
        page.set_default_timeout(240_000)
        problems = page.evaluate(SWEEP_JS, notes)
        assert len(notes) > 100
        assert not problems, "\n".join(problems)
    finally:
        page.goto("about:blank")  # no request of the last note still in flight when its server stops
        live.stop()
