"""The graph view in a real Chromium (issue 11 item 6): a note's local graph and its depth, a click on a node
opens the note, the whole vault's graph, the tag filter, the node list for keyboards, the theme."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support import write_tree

# Home → Ideas ⇄ (Deep, Deeper), Deep → Deeper and an unresolved [[Someday]]: each depth of Home's local
# graph adds nodes.
CHAIN = {
    "Ideas.md": "# Ideas\n\nA tidepool sensor network. #project/sensors\nMore in [[Deep]].\n",
    "Deep.md": "# Deep\n\nSee [[Deeper]] and [[Someday]].\n",
    "Deeper.md": "# Deeper\n\nThe bottom, back to [[Ideas]]. #project\n",
}


@pytest.fixture
def graph_server(live_server, web_vault: Path, tmp_path: Path) -> Any:
    write_tree(web_vault, CHAIN)
    return live_server({"notes": web_vault}, auth_enabled=False, data_dir=tmp_path / "graph-data")


def _settled(page: Any) -> dict[str, str]:
    """Wait for the graph to be drawn and laid out; its node and link counts."""
    view = page.wait_for_selector(".graph-view[data-state=ready][data-layout=done]", timeout=30_000)
    return {"nodes": view.get_attribute("data-nodes"), "links": view.get_attribute("data-links")}


def _choose(page: Any, select: str, value: str) -> dict[str, str]:
    """Pick ``value`` in a control of the graph and wait for the graph it leads to (a new view, new route)."""
    old = page.query_selector(".graph-view")
    page.select_option(select, value)
    page.wait_for_function("(el) => !el.isConnected", arg=old)
    return _settled(page)


def _click_node(page: Any, path: str) -> None:
    """Click where the node of ``path`` is drawn (sigma picks the node under the pointer on its canvas)."""
    canvas = page.locator("#graph-canvas")
    box = canvas.bounding_box()
    at = canvas.evaluate("(c, p) => c.graphPositionOf(p)", path)
    page.mouse.move(box["x"] + at["x"], box["y"] + at["y"])
    page.wait_for_timeout(150)  # sigma reads what is under the pointer asynchronously (a GPU read)
    page.mouse.click(box["x"] + at["x"], box["y"] + at["y"])


def test_local_graph_depth_and_a_click_opens_the_note(page: Any, graph_server: Any) -> None:
    page.goto(f"{graph_server.url}/#/graph?v=notes&p=Home.md")
    assert _settled(page) == {"nodes": "3", "links": "2"}  # Home, Plan, Ideas (Plan ↔ Home is one line)
    assert page.text_content("#graph-title") == "Local graph: Home"
    assert page.text_content("#graph-status") == "3 notes, 2 links"
    assert page.get_attribute("#graph-scope-local", "aria-current") == "page"
    assert _choose(page, "#graph-depth", "2")["nodes"] == "5"  # + Deep, Deeper
    assert page.url.endswith("#/graph?v=notes&p=Home.md&d=2")
    assert _choose(page, "#graph-depth", "3") == {"nodes": "6", "links": "6"}  # + Someday, not created yet
    _click_node(page, "Projects/Plan.md")
    page.wait_for_url("**/#/v/notes/Projects/Plan.md")
    page.wait_for_selector(".markdown-body >> text=The budget for the tidepool buoy is small.")
    assert page.watch.problems() == []


def test_whole_vault_graph_the_tag_filter_and_the_node_list(page: Any, graph_server: Any) -> None:
    page.goto(f"{graph_server.url}/#/graph?v=notes")
    assert _settled(page) == {"nodes": "7", "links": "6"}  # 6 notes (orphan Secret too) + Someday
    assert page.text_content("#graph-title") == "Graph of notes"
    assert page.get_attribute("#graph-scope-vault", "aria-current") == "page"
    assert page.get_attribute("#graph-depth", "disabled") == ""  # depth is for local graphs
    page.wait_for_selector("#graph-tag option[value='project']", state="attached")
    tagged = _choose(page, "#graph-tag", "project")  # nested: project/sensors counts too
    assert tagged == {"nodes": "3", "links": "1"}  # Ideas, Plan, Deeper: only Deeper → Ideas is inside the tag
    assert page.url.endswith("#/graph?v=notes&t=project")
    assert _choose(page, "#graph-tag", "")["nodes"] == "7"
    page.click("#graph-list summary")  # the nodes as links, for keyboards and screen readers
    page.fill("#graph-filter", "deep")
    rows = page.locator("#graph-rows a")
    assert rows.all_text_contents() == ["Deep", "Deeper"]
    rows.first.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/#/v/notes/Deep.md")
    assert page.watch.problems() == []


def test_the_graph_follows_the_theme_and_the_language(page: Any, graph_server: Any) -> None:
    page.goto(f"{graph_server.url}/#/graph?v=notes&p=Deep.md&s=vault")
    _settled(page)
    assert page.get_attribute("#graph-scope-vault", "aria-current") == "page"
    assert page.is_visible(".graph-legend [data-kind=center]")  # the note it came from is marked
    page.click("#theme-btn")  # system → light → dark: sigma is rebuilt in the new colours, same graph
    page.click("#theme-btn")
    assert page.get_attribute("html", "data-theme") == "dark"
    page.wait_for_timeout(300)
    _click_node(page, "Deeper.md")  # still drawn and answering after the rebuild
    page.wait_for_url("**/#/v/notes/Deeper.md")
    page.go_back()
    _settled(page)
    page.select_option("#lang-select", "fr")
    page.wait_for_selector("#graph-title >> text=Graphe de notes")
    assert (
        page.text_content("#graph-scope-local") == "Local"
        and page.text_content("#graph-scope-vault") == "Tout le vault"
    )
    assert page.watch.problems() == []


def test_signed_in_the_graph_is_the_persons_vault(page: Any, web_server: Any, alice: dict[str, str]) -> None:
    page.watch.expect("401")  # the page asks who is there before signing in
    page.goto(f"{web_server.url}/#/graph?v=notes")
    page.fill("#login-user", alice["username"])
    page.fill("#login-pass", alice["password"])
    page.click("form button[type=submit]")
    assert _settled(page)["nodes"] == "4"  # the small vault: Home, Ideas, Plan, Secret (cookie session, mode web)
    assert page.watch.problems() == []


def test_search_switches_and_groups_kept_for_the_vault(page: Any, graph_server: Any) -> None:
    """Issue 19 item 6: the search box lights what it matches, the switches hide orphans and notes not created
    yet, groups colour notes by query and come back on the next visit; the picture moves from the keyboard."""
    page.goto(f"{graph_server.url}/#/graph?v=notes")
    _settled(page)
    display = page.locator("#graph-display")
    page.fill("#graph-search", "deep")
    page.wait_for_selector("#graph-display[data-matches='2']")
    assert page.text_content("#graph-search-count") == "2 matching"
    page.fill("#graph-search", "/(/")  # a broken regex is said, as the search box says it, not "0 matching"
    page.wait_for_selector("#graph-search-count.is-error >> text=Not a valid regular expression /(/")
    page.fill("#graph-search", "tag:#project -file:deeper")  # the server says which notes carry the tag
    page.wait_for_selector("#graph-display[data-matches='2']")  # Ideas, Plan (nested project/sensors)
    page.click("#graph-options summary")
    page.uncheck("#graph-show-orphans")  # Projects/Secret.md links nowhere and nothing links to it
    assert display.get_attribute("data-hidden") == "1"
    page.uncheck("#graph-show-unresolved")  # + Someday
    assert display.get_attribute("data-hidden") == "2"
    page.check("#graph-show-orphans")
    page.check("#graph-show-unresolved")
    page.click("#graph-add-group")  # focus goes to the new group's query
    page.keyboard.type("tag:#project")
    page.wait_for_selector("#graph-display[data-grouped='3']")  # Ideas, Plan, Deeper
    page.fill("#graph-groups li:first-child input[type=color]", "#08b94e")
    page.wait_for_function("() => (localStorage.getItem('obsigate.graph.groups:notes') || '').includes('#08b94e')")
    # the picture answers the keyboard: + zooms about the centre, 0 fits again
    before = page.evaluate("() => document.querySelector('#graph-canvas').graphPositionOf('Deep.md')")
    page.focus("#graph-canvas")
    page.keyboard.press("+")
    after = page.evaluate("() => document.querySelector('#graph-canvas').graphPositionOf('Deep.md')")
    assert after != before
    page.keyboard.press("0")
    assert page.evaluate("() => document.querySelector('#graph-canvas').graphPositionOf('Deep.md')") == pytest.approx(
        before, abs=1
    )
    page.reload()  # the groups are the vault's, kept in this browser
    _settled(page)
    page.wait_for_selector("#graph-display[data-grouped='3']")
    assert page.input_value("#graph-groups .graph-group-query") == "tag:#project"
    assert page.input_value("#graph-groups input[type=color]") == "#08b94e"
    assert page.watch.problems() == []
