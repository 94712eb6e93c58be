"""query_base through the tool layer (real index, real files): a hand-made vault with obsidian-app.md §1.9's
worked examples, and the real bases of ../shared/vaults (kepano's category pages, the Tasks docs' base)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from support import SHARED_VAULTS, write_tree

from obsigate.auth.principal import ANONYMOUS
from obsigate.domain.index.vault_index import VaultIndex
from obsigate.domain.index.watcher import Indexer
from obsigate.domain.vault import Vault
from obsigate.services.workspace import Workspace
from obsigate.tools.api import ServiceError, ToolContext, ToolRuntime, call_tool

BOOKS_BASE = """filters:
  and:
    - file.hasTag("book")
    - '!file.name.contains("Template")'
formulas:
  stars: '"★".repeat(rating)'
properties:
  formula.stars:
    displayName: Stars
views:
  - type: table
    name: By year
    order: [file.name, author, year, formula.stars]
    sort:
      - property: year
        direction: ASC
  - type: cards
    name: Shelf
    order: [file.name]
    image: cover
"""

FILES = {
    "Books/Dune.md": '---\ntags: [book, scifi]\nauthor: "[[Frank Herbert]]"\nyear: 1965\nrating: 5\nstatus: read\n'
    "cover: cover.png\napi_key: sk-live-0123456789abcdef0123\n---\n# Dune\n",
    "Books/Emma.md": '---\ntags: [book]\nauthor: "[[Jane Austen]]"\nyear: 1815\nrating: 4\nstatus: reading\n---\n',
    "Books/Old/Ulysses.md": '---\ntags: [book/classic]\nauthor: "[[James Joyce]]"\nyear: 1922\nrating: 3\n---\n',
    "Books/Template.md": "---\ntags: [book]\n---\n",
    "Articles/Attention.md": "---\ntags: [article]\nyear: 2017\nrating: 5\n---\n",
    "Frank Herbert.md": "Wrote [[Dune]].\n\n```base\nfilters:\n  or:\n    - 'list(author).contains(this)'\n"
    "    - 'this.file.hasLink(file)'\nviews:\n  - type: list\n    name: Works\n    order: [file.name, year]\n```\n",
    "Books.base": BOOKS_BASE,
    "Broken.base": "views: [unclosed\n",
    "cover.png": b"\x89PNG\r\n\x1a\n",
}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolContext]:
    vaults = {"lib": Vault("lib", write_tree(tmp_path_factory.mktemp("lib"), FILES))}
    if SHARED_VAULTS.is_dir():
        for name, folder in (("tasks", "obsidian-tasks-docs"), ("kepano", "kepano-obsidian")):
            vaults[name] = Vault(name, Path(os.path.realpath(SHARED_VAULTS / folder)))
    index = VaultIndex(tmp_path_factory.mktemp("idx") / "index.sqlite3")
    indexer = Indexer(index, vaults)
    indexer.refresh_all()
    yield ToolContext(ANONYMOUS, ToolRuntime(workspace=Workspace(vaults=vaults, index=index, indexer=indexer)))
    index.close()


def call(ctx: ToolContext, **args) -> dict:
    return anyio.run(call_tool, ctx, "query_base", args)


def rows(result: dict) -> list[str]:
    return [r["path"] for g in result["view"]["groups"] for r in g["rows"]]


def test_a_base_file_runs_its_first_view(ctx: ToolContext) -> None:
    out = call(ctx, vault="lib", path="Books.base")
    assert out["this"] == "Books.base" and [v["name"] for v in out["views"]] == ["By year", "Shelf"]
    assert rows(out) == ["Books/Emma.md", "Books/Old/Ulysses.md", "Books/Dune.md"]
    dune = out["view"]["groups"][0]["rows"][2]["cells"]
    assert dune == [
        {"$": "link", "path": "Books/Dune.md", "text": "Dune"},
        {"$": "link", "path": "Frank Herbert.md", "text": "Frank Herbert"},
        1965,
        "★★★★★",
    ]
    assert [c["label"] for c in out["view"]["columns"]] == ["file name", "author", "year", "Stars"]
    assert out["version"] and not out["truncated"]


def test_cards_view_images_and_redaction(ctx: ToolContext) -> None:
    out = call(ctx, vault="lib", path="Books.base", view="Shelf")
    assert out["view"]["shown_as"] == "cards" and out["view"]["shown"] == 3 and out["view"]["total"] == 3
    by_path = {r["path"]: r for g in out["view"]["groups"] for r in g["rows"]}
    assert by_path["Books/Dune.md"]["image"] == "cover.png"
    secret = call(ctx, vault="lib", path="Books.base", this="Books/Dune.md")
    assert "sk-live" not in str(secret)  # frontmatter is read redacted, like every read


def test_a_code_block_sees_its_note_as_this(ctx: ToolContext) -> None:
    out = call(ctx, vault="lib", path="Frank Herbert.md")
    assert out["this"] == "Frank Herbert.md" and out["view"]["shown_as"] == "list"
    assert rows(out) == ["Books/Dune.md"]


def test_bad_bases_are_clear_errors(ctx: ToolContext) -> None:
    cases = [
        ({"path": "Broken.base"}, "invalid_base"),
        ({"path": "Books.base", "view": "Nope"}, "not_found"),
        ({"path": "Frank Herbert.md", "block": 3}, "not_found"),
        ({"path": "Books/Dune.md"}, "not_found"),  # a note without a base block
        ({"path": "Missing.base"}, "not_found"),
        ({"path": "Books.base", "this": "Nobody.md"}, "not_found"),
        ({"path": "../x.base"}, "path_outside_vault"),
    ]
    for args, code in cases:
        with pytest.raises(ServiceError) as err:
            call(ctx, vault="lib", **args)
        assert err.value.code == code, args


shared = pytest.mark.skipif(not SHARED_VAULTS.is_dir(), reason="../shared/vaults is not present")


@shared
def test_kepano_category_page_embeds(ctx: ToolContext) -> None:
    books = call(ctx, vault="kepano", path="Templates/Bases/Books.base", this="Categories/Books.md")
    # categories contains [[Books]], minus the template (grep '"[[Books]]"' finds these three files)
    assert rows(books) == ["References/Out of Control.md", "References/The Machine Stops.md"]
    assert [c["label"] for c in books["view"]["columns"]][:3] == ["Name", "Author", "length"]
    author = call(
        ctx, vault="kepano", path="Templates/Bases/Books.base", view="Author", this="References/Kevin Kelly.md"
    )
    assert rows(author) == ["References/Out of Control.md"]
    for base in sorted((SHARED_VAULTS / "kepano-obsidian/Templates/Bases").glob("*.base")):
        out = call(ctx, vault="kepano", path=f"Templates/Bases/{base.name}")
        for view in out["views"][1:]:
            call(ctx, vault="kepano", path=f"Templates/Bases/{base.name}", view=view["name"])  # every view runs
        assert out["view"]["errors"] == [], base.name


@shared
def test_tasks_docs_base_groups_by_folder(ctx: ToolContext) -> None:
    out = call(ctx, vault="tasks", path="docs pages.base")
    view = out["view"]
    keys = [g["key"] for g in view["groups"]]
    assert view["grouped"] and keys[:3] == ["Advanced", "Editing", "Getting Started"]
    assert keys == sorted(keys, key=lambda k: (k is None, (k or "").casefold()))
    paths = rows(out)
    assert paths and all(p.endswith(".md") and not p.startswith("_meta/templates/") for p in paths)
    assert view["total"] == len(paths) and [c["id"] for c in view["columns"]] == ["file.name", "file.tags", "note.tags"]
