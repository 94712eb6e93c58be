"""Obsidian Bases in the web app (issue 19 item 4), one server and one page: a .base file as a sortable table, its
view switcher (cards), a live refresh when a note changes, a ```base block (list) whose links open notes, and
kepano's category page embedding its base (../shared/vaults, when present). By keyboard where a person would."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from support import SHARED_VAULTS, write_tree

BOOKS = """filters:
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
    order: [file.name, author, year, formula.stars, read]
    sort:
      - property: year
        direction: ASC
  - type: cards
    name: Shelf
    order: [file.name, year]
    image: cover
"""

FILES = {
    "Books.base": BOOKS,
    "Books/Dune.md": '---\ntags: [book]\nauthor: "[[Frank Herbert]]"\nyear: 1965\nrating: 5\nread: true\ncover: cover.png\n---\n',
    "Books/Emma.md": "---\ntags: [book]\nyear: 1815\nrating: 4\n---\n",
    "Books/Template.md": "---\ntags: [book]\n---\n",
    "Frank Herbert.md": "# Frank Herbert\n\n```base\nfilters: 'list(author).contains(this)'\nviews:\n  - type: list\n"
    "    order: [file.name, year]\n```\n",
    "Shelf.md": "# Shelf\n\n![[Books.base#Shelf]]\n",
    "Typo.base": "filters: 'year > ('\nviews:\n  - type: table\n",
    "cover.png": bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360f8cf000000030101001817e3a40000000049454e44ae426082"
    ),
}


def _rows(page: Any, scope: str = "#main") -> list[str]:
    return page.eval_on_selector_all(
        f"{scope} .base-table tbody tr:not(.base-group) td:first-child", "els => els.map(e => e.textContent)"
    )


def test_bases_in_the_web_app(page: Any, live_server, tmp_path: Path) -> None:
    vaults: dict[str, Path] = {"notes": write_tree(tmp_path / "lib", FILES)}
    kepano = SHARED_VAULTS / "kepano-obsidian"
    if kepano.is_dir():
        vaults["kepano"] = Path(os.path.realpath(kepano))
    server = live_server(vaults, auth_enabled=False)
    page.goto(f"{server.url}/#/v/notes/{quote('Books.base')}", wait_until="networkidle")
    page.wait_for_selector(".base-table")
    assert page.inner_text("#note-title") == "Books"
    heads = page.eval_on_selector_all(".base-table thead button", "els => els.map(e => e.textContent)")
    assert heads == ["file name", "author", "year", "Stars", "read"]
    assert _rows(page) == ["Emma", "Dune"]  # the file's sort: year ascending; the template filtered out
    assert page.get_attribute(".base-table tbody tr:nth-child(2) input[type=checkbox]", "aria-label") == "read: yes"
    assert page.inner_text(".base-count") == "2 results"

    year = page.locator(".base-table thead button", has_text="year")
    year.focus()
    page.keyboard.press("Enter")  # ascending by year (as the file already shows)
    page.keyboard.press("Enter")  # then descending
    assert page.get_attribute(".base-table thead th:nth-child(3)", "aria-sort") == "descending"
    assert _rows(page) == ["Dune", "Emma"]
    assert page.evaluate("document.activeElement.textContent") == "year"  # focus kept through the redraw

    page.focus(".base-switch")
    page.select_option(".base-switch", "Shelf")
    page.wait_for_selector(".base-card")
    assert page.locator(".base-card").count() == 2
    assert page.get_attribute(".base-card img.base-card-image", "src").endswith("path=cover.png")
    page.reload()  # the chosen view comes back
    page.wait_for_selector(".base-card")
    assert page.input_value(".base-switch") == "Shelf"
    page.select_option(".base-switch", "By year")
    page.wait_for_selector(".base-table")

    (Path(vaults["notes"]) / "Books/New.md").write_text("---\ntags: [book]\nyear: 2001\nrating: 2\n---\n")
    page.wait_for_function("() => document.querySelectorAll('.base-table tbody tr').length === 3", timeout=20_000)
    assert _rows(page) == ["Emma", "Dune", "New"]  # live: the poll saw the index change

    page.goto(f"{server.url}/#/v/notes/{quote('Frank Herbert.md')}", wait_until="networkidle")
    page.wait_for_selector(".embed-base .base-list li")
    assert page.inner_text(".embed-base .base-list").strip() == "Dune · 1965"
    page.locator(".embed-base .base-list a", has_text="Dune").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#note-title')?.textContent === 'Dune'")

    page.goto(f"{server.url}/#/v/notes/{quote('Shelf.md')}", wait_until="networkidle")
    page.wait_for_selector(".embed-base .base-card")  # ![[Books.base#Shelf]] shows that view
    assert page.input_value(".embed-base .base-switch") == "Shelf"

    page.watch.expect("400")  # a filter that does not parse: one message for the view, not one per file
    page.goto(f"{server.url}/#/v/notes/{quote('Typo.base')}", wait_until="networkidle")
    page.wait_for_selector(".base-view [role=alert] >> text=This base cannot be shown")
    assert "does not parse" in page.inner_text(".base-view [role=alert]")

    if "kepano" in vaults:
        page.goto(f"{server.url}/#/v/kepano/{quote('Categories/Books.md')}", wait_until="networkidle")
        page.wait_for_selector(".embed-base .base-table tbody tr")
        assert _rows(page, ".embed-base") == ["Out of Control", "The Machine Stops"]
