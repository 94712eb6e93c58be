"""The web app (issue 11): the page and its built files are served under a strict CSP-friendly layout, and in
a real Chromium (Debian's, driven by Playwright; skipped with a reason where either is missing) a person
opens a note from the tree, follows a wikilink, searches with escaped highlighted snippets, and sees a refused
request (HTTP 429 ``rate_limited``, with its retry time) instead of a silent failure."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import httpx2
import pytest

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def test_the_page_loads_only_its_own_built_files(live_server, small_vault) -> None:
    server = live_server({"notes": small_vault}, auth_enabled=False)
    page = httpx2.get(f"{server.url}/").text
    assert '<script type="module" src="/static/app.js"></script>' in page
    assert '<link rel="stylesheet" href="/static/app.css">' in page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), "no inline script"
    assert "<style" not in page and "style=" not in page, "no inline style"
    assert "http://" not in page and "https://" not in page, "nothing from another origin"
    js = httpx2.get(f"{server.url}/static/app.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    chunks = re.findall(r'"\./(chunks/[\w.-]+\.js)"', js.text)
    assert chunks, "the markdown renderer is a lazily loaded chunk"
    for chunk in chunks:
        assert httpx2.get(f"{server.url}/static/{chunk}").status_code == 200
    assert httpx2.get(f"{server.url}/static/app.css").status_code == 200


def _browser():
    """Playwright's sync API, or a skip with the reason (a failure under OBSIGATE_REQUIRE_BROWSER=1, as in CI)."""
    missing = pytest.fail if os.environ.get("OBSIGATE_REQUIRE_BROWSER") == "1" else pytest.skip
    try:
        from playwright import sync_api
    except ImportError:
        missing("playwright is not installed (pip install playwright)")
    if CHROMIUM is None:
        missing("chromium is not installed (apt-get install -y chromium)")
    return sync_api


@pytest.fixture
def chromium_page():
    sync_api = _browser()
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and "status of 429" not in m.text and errors.append(m.text))
        yield page, errors
        browser.close()


def _strict_csp(page, base: str) -> None:
    """Serve the page with the strict policy the server will send (a violation shows up as a console error)."""

    def handle(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": STRICT_CSP})

    page.route(lambda url: url.split("#")[0].rstrip("/") == base, handle)


def test_tree_note_wikilink_and_search_in_chromium(live_server, small_vault, chromium_page) -> None:
    page, errors = chromium_page
    server = live_server({"notes": small_vault}, auth_enabled=False)
    _strict_csp(page, server.url)
    page.goto(f"{server.url}/")
    page.locator('[role="treeitem"][data-path="Home.md"] .tree-row').click()
    page.wait_for_selector(".markdown-body")
    assert page.url.endswith("#/v/notes/Home.md")
    assert page.locator('[role="treeitem"][data-path="Home.md"]').get_attribute("aria-current") == "page"
    assert page.locator(".properties").inner_text().count("Start") == 1  # frontmatter as properties
    page.get_by_role("link", name="the plan").click()  # [[Projects/Plan|the plan]], resolved by the server
    page.wait_for_selector(".note-title:text('Plan')")
    assert page.url.endswith("#/v/notes/Projects/Plan.md")
    assert page.locator('[role="treeitem"][data-path="Projects/Plan.md"]').get_attribute("aria-current") == "page"
    page.go_back()
    page.wait_for_selector(".note-title:text('Home')")

    page.fill("#search", "tidepool")
    page.wait_for_selector(".search-hit")
    marks = page.locator(".hit-snippet mark").all_inner_texts()
    assert marks and all(m.lower().startswith("tidepool") for m in marks)
    assert "<mark>" not in page.locator(".search-hits").inner_text()
    page.locator(".hit-title").first.click()
    match = page.wait_for_selector(".markdown-body mark.find-match")  # opened at the match
    assert match.inner_text().lower() == "tidepool"
    assert "#/v/notes/" in page.url
    page.keyboard.press("Control+o")  # quick switcher, fuzzy over paths and titles
    page.keyboard.type("pla")
    page.wait_for_selector(".switcher-list[data-query='pla'] .switcher-item")  # not the recent notes shown first
    page.keyboard.press("Enter")
    page.wait_for_selector(".note-title:text('Plan')")
    assert page.url.endswith("#/v/notes/Projects/Plan.md")
    assert errors == []


def test_a_rate_limited_search_is_shown_with_its_retry_time(live_server, small_vault, chromium_page) -> None:
    page, errors = chromium_page
    # A tiny web budget (the page's own, OBSIGATE_WEB_RATE_LIMIT): the page's first calls (vaults, the folder listing, the first search) go through,
    # then searches typed one after another are refused with 429.
    server = live_server({"notes": small_vault}, auth_enabled=False, web_rate_limit=3, tool_rate_window=60)
    page.goto(f"{server.url}/#/search?q=tidepool")
    page.wait_for_selector(".search-status:text('result')")
    for word in ("budget", "sensor", "buoy", "plan"):
        page.fill("#search", word)
        page.wait_for_timeout(400)
        if page.locator(".toast").count():
            break
    toast = page.wait_for_selector(".toast[role='alert']")
    text = toast.inner_text()
    assert "rate_limited" in text and re.search(r"\d+ s", text), text
    assert errors == []


HOSTILE = """# Hostile

<script>window.__pwned = 1</script>
<img src=x onerror="window.__pwned = 2">
<svg><script>window.__pwned = 3</script></svg>
<a href="javascript:window.__pwned = 4">html link</a>

[md link](javascript:window.__pwned=5) and [[Target|a wikilink]] and ![[missing.png]]

![tracker](https://example.com/pixel.png)

> [!warning] Careful <b onmouseover="window.__pwned = 6">bold</b>

```python
def f():  # <img src=x onerror="window.__pwned = 7">
    return "</code><script>window.__pwned = 8</script>"
```
"""


def test_a_hostile_note_renders_inert(live_server, tmp_path, chromium_page) -> None:
    page, errors = chromium_page
    vault = tmp_path / "hostile"
    vault.mkdir()
    (vault / "Hostile.md").write_text(HOSTILE, encoding="utf-8")
    (vault / "Target.md").write_text("# Target\n", encoding="utf-8")
    server = live_server({"v": vault}, auth_enabled=False)
    _strict_csp(page, server.url)
    page.goto(f"{server.url}/#/v/v/Hostile.md")
    page.wait_for_selector(".markdown-body .callout")
    page.wait_for_selector(".markdown-body code.hljs .hljs-keyword")  # highlighted, still inert
    page.hover(".callout")
    page.wait_for_timeout(300)
    body = page.locator(".markdown-body")
    assert page.evaluate("window.__pwned") is None
    assert body.locator("script, iframe, object, embed, [onerror], [onmouseover], [style]").count() == 0
    hrefs = body.locator("a").evaluate_all("links => links.map(a => a.getAttribute('href') || '')")
    assert not [h for h in hrefs if h.lower().startswith("javascript:")], hrefs
    # inline HTML is rendered sanitised, as Obsidian does (issue 19): the scripts are gone, not shown as text
    assert "__pwned = 1" not in body.inner_text() and body.locator("b", has_text="bold").count() == 1
    assert body.locator("a.internal-link", has_text="a wikilink").get_attribute("href") == "#/v/v/Target.md"
    assert body.locator(".embed-missing").count() == 1  # the unresolved embed is marked, not fetched
    # a remote image becomes a link: nothing loads from elsewhere; the HTML <img src=x> is a vault path
    srcs = body.locator("img").evaluate_all("imgs => imgs.map(i => i.getAttribute('src'))")
    assert srcs and all(s.startswith("/api/file/v/raw") for s in srcs), srcs
    assert body.locator("a.remote-image").get_attribute("href") == "https://example.com/pixel.png"
    # the only error: the browser's log of <img src=x> not found in the vault (a 404 from loopback)
    assert [e for e in errors if "status of 404" not in e] == []


def test_sign_in_and_session_expiry_keep_the_place(live_server, small_vault, chromium_page) -> None:
    """The sign-in flow against the session contract (POST/DELETE /api/auth/session, cookie), mocked in the
    browser over an auth-off server: login -> the note in the URL; a later 401 -> the form again, then back to
    the same note; sign out -> the form."""
    page, errors = chromium_page
    server = live_server({"notes": small_vault}, auth_enabled=False)
    state = {"signed_in": False, "expire_next_file": False, "posted": None}

    def health(route):
        response = route.fetch()
        route.fulfill(response=response, json={**response.json(), "auth": True})

    def me(route):
        if state["signed_in"]:
            route.fulfill(json={"name": "ana", "is_admin": False, "vaults": ["notes"], "auth_kind": "session"})
        else:
            route.fulfill(status=401, json={"code": "unauthenticated", "message": "sign in first"})

    def session(route):
        request = route.request
        if request.method == "POST":
            state["posted"] = (request.headers.get("content-type"), request.post_data_json)
            if request.post_data_json == {"username": "ana", "password": "right"}:
                state["signed_in"] = True
                route.fulfill(json={"user": {"name": "ana", "is_admin": False, "vaults": ["notes"]}})
            else:
                route.fulfill(status=401, json={"code": "unauthenticated", "message": "bad credentials"})
        else:
            state["signed_in"] = False
            route.fulfill(status=204, body="")

    def file(route):
        if state["expire_next_file"]:
            state["expire_next_file"] = False
            state["signed_in"] = False
            route.fulfill(status=401, json={"code": "unauthenticated", "message": "session expired"})
        else:
            route.continue_()

    page.route("**/api/health", health)
    page.route("**/api/auth/me", me)
    page.route("**/api/auth/session", session)
    page.route("**/api/file/**", file)
    page.goto(f"{server.url}/#/v/notes/Ideas.md")
    page.wait_for_selector("form.login-card")
    page.fill("#login-user", "ana")
    page.fill("#login-pass", "wrong")
    page.click("form.login-card button[type=submit]")
    page.wait_for_selector(".login-error:not([hidden])")
    page.fill("#login-pass", "right")
    page.click("form.login-card button[type=submit]")
    page.wait_for_selector(".note-title:text('Ideas')")
    assert state["posted"] == ("application/json", {"username": "ana", "password": "right"})
    assert page.evaluate("Object.keys(localStorage).filter(k => /token|session/i.test(k))") == []

    state["expire_next_file"] = True
    page.locator('[role="treeitem"][data-path="Home.md"] .tree-row').click()
    page.wait_for_selector("form.login-card .notice")  # "your session has ended"
    assert page.url.endswith("#/v/notes/Home.md")
    page.fill("#login-user", "ana")
    page.fill("#login-pass", "right")
    page.click("form.login-card button[type=submit]")
    page.wait_for_selector(".markdown-body h1:text('Home')")

    page.get_by_role("button", name="Sign out").click()
    page.wait_for_selector("form.login-card")
    assert not state["signed_in"]
    assert [e for e in errors if "status of 401" not in e] == []


def test_a_long_note_is_shown_whole(live_server, tmp_path, chromium_page) -> None:
    page, errors = chromium_page
    vault = tmp_path / "long"
    vault.mkdir()
    paragraphs = [f"Paragraph {i} about tide pools and [[Other]]." for i in range(400)]
    (vault / "Long.md").write_text("# Long\n\n" + "\n\n".join(paragraphs) + "\n\nTHE END\n", encoding="utf-8")
    (vault / "Other.md").write_text("# Other\n", encoding="utf-8")
    server = live_server({"v": vault}, auth_enabled=False, max_tool_read_bytes=4096)
    page.goto(f"{server.url}/#/v/v/Long.md")
    page.wait_for_selector(".markdown-body p:text('THE END')")
    assert page.locator(".markdown-body a.internal-link").count() == 400
    assert errors == []


def test_fr_en_switch_is_kept_and_tags_page_searches(live_server, small_vault, chromium_page) -> None:
    page, errors = chromium_page
    server = live_server({"notes": small_vault}, auth_enabled=False)
    page.goto(f"{server.url}/#/v/notes/Home.md")
    page.wait_for_selector(".markdown-body")
    assert page.get_by_role("button", name="Sign out").count() == 0  # auth off: no sign-out
    page.get_by_role("combobox", name="Language").select_option("fr")
    page.wait_for_selector(".pane-heading:text('Fichiers')")
    assert page.get_by_role("searchbox", name="Rechercher dans les notes").count() == 1
    page.reload()
    page.wait_for_selector(".markdown-body")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.get_by_role("combobox", name="Langue").input_value() == "fr"
    page.get_by_role("link", name="Tags", exact=True).click()
    page.wait_for_selector(".main-pane .tt-link")  # the nested tags tree (issue 19)
    page.locator(".main-pane .tt-link", has_text="dashboard").click()
    page.wait_for_selector(".search-hit")
    assert "Home" in page.locator(".hit-title").all_inner_texts()
    page.get_by_role("combobox", name="Langue").select_option("en")
    page.wait_for_selector(".pane-heading:text('Files')")
    assert errors == []


def test_the_tree_works_with_the_keyboard(live_server, small_vault, chromium_page) -> None:
    page, errors = chromium_page
    server = live_server({"notes": small_vault}, auth_enabled=False)
    page.goto(f"{server.url}/")
    page.wait_for_selector('[role="treeitem"]')
    page.locator('[role="treeitem"][tabindex="0"]').focus()  # one tab stop for the whole tree
    focused = lambda: page.evaluate("document.activeElement.dataset.path")  # noqa: E731
    assert focused() == "Attachments"
    page.keyboard.press("ArrowDown")
    assert focused() == "Projects"
    page.keyboard.press("ArrowRight")  # opens the folder
    page.wait_for_selector('[role="treeitem"][data-path="Projects/Plan.md"]')
    page.keyboard.press("ArrowDown")
    assert focused() == "Projects/Plan.md"
    page.keyboard.press("Enter")
    page.wait_for_selector(".note-title:text('Plan')")
    assert page.url.endswith("#/v/notes/Projects/Plan.md")
    page.keyboard.press("ArrowLeft")  # to the parent folder
    assert focused() == "Projects"
    assert errors == []


def test_an_unresolved_link_offers_to_create_the_note(live_server, tmp_path, chromium_page) -> None:
    page, errors = chromium_page
    vault = tmp_path / "create"
    vault.mkdir()
    (vault / "Start.md").write_text("# Start\n\nSee [[Ideas/New Idea]] and [[Other]].\n", encoding="utf-8")
    (vault / "Other.md").write_text("# Other\n", encoding="utf-8")
    server = live_server({"v": vault}, auth_enabled=False)
    page.goto(f"{server.url}/#/v/v/Start.md")
    page.wait_for_selector(".markdown-body")
    page.locator("a.is-unresolved", has_text="Ideas/New Idea").click()
    dialog = page.get_by_role("dialog", name="Create a note")
    assert "Ideas/New Idea.md" in dialog.inner_text()
    dialog.get_by_role("button", name="Cancel").click()
    assert not (vault / "Ideas" / "New Idea.md").exists()
    page.locator("a.is-unresolved", has_text="Ideas/New Idea").click()
    page.get_by_role("dialog", name="Create a note").get_by_role("button", name="Create").click()
    page.wait_for_selector(".note-title:text('New Idea')")
    assert (vault / "Ideas" / "New Idea.md").read_text(encoding="utf-8") == "# New Idea\n"
    page.wait_for_selector('[role="treeitem"][data-path="Ideas/New Idea.md"][aria-current="page"]')
    page.go_back()
    page.wait_for_selector(".markdown-body a.internal-link:not(.is-unresolved):text('Ideas/New Idea')")  # resolved now
    assert errors == []


def test_a_csv_file_is_a_sortable_table(live_server, tmp_path, chromium_page) -> None:
    page, errors = chromium_page
    vault = tmp_path / "csv"
    vault.mkdir()
    (vault / "data.csv").write_text('name,count\nb,10\n"a, quoted",9\nc,100\n', encoding="utf-8")
    server = live_server({"v": vault}, auth_enabled=False)
    page.goto(f"{server.url}/#/v/v/data.csv")
    page.wait_for_selector(".csv-table")
    assert page.locator(".csv-table tbody tr").count() == 3
    page.get_by_role("columnheader", name="count").click()
    assert page.locator(".csv-table tbody td:first-child").all_inner_texts() == ["a, quoted", "b", "c"]
    page.get_by_role("columnheader", name="count").press("Enter")
    assert page.locator(".csv-table tbody td:first-child").all_inner_texts() == ["c", "b", "a, quoted"]
    assert page.get_by_role("link", name="Download").get_attribute("href") == "/api/file/v/raw?path=data.csv"
    assert errors == []


def test_the_vault_switcher(live_server, small_vault, tmp_path, chromium_page) -> None:
    page, errors = chromium_page
    other = tmp_path / "other"
    other.mkdir()
    (other / "Only Here.md").write_text("# Only here\n", encoding="utf-8")
    server = live_server({"notes": small_vault, "other": other}, auth_enabled=False)
    page.goto(f"{server.url}/#/v/notes/Home.md")
    page.wait_for_selector(".markdown-body")
    page.get_by_role("combobox", name="Vault").select_option("other")
    page.wait_for_selector('[role="treeitem"][data-path="Only Here.md"]')
    assert page.url.endswith("#/v/other")
    assert page.locator("#tree").get_attribute("aria-label") == "Files of other"  # (the bookmarks are a tree too)
    page.locator('[role="treeitem"][data-path="Only Here.md"] .tree-row').click()
    page.wait_for_selector(".markdown-body h1:text('Only here')")
    page.go_back()
    page.go_back()
    page.wait_for_selector('[role="treeitem"][data-path="Home.md"][aria-current="page"]')
    assert page.get_by_role("combobox", name="Vault").input_value() == "notes"
    assert errors == []
