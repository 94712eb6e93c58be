"""Writing back a redacted note over REST, on a real server: the editor's save and PATCH (edit_file) put each
secret back where its marker stands, and refuse (``secret_marker_altered``, nothing written) a marker glued
to text, which would have made its secret readable by every later read."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

SK1 = "sk-proj-" + "A1b2C3d4E5" * 4
SK2 = "sk-proj-" + "Z9y8X7w6V5" * 4
NOTE = f"---\ntitle: Keys\n---\n# Keys\nintro\nit: {SK1}\nbackup: {SK2}\npassword: Hunter2Secret!x\nend\n"
M = "[REDACTED:openai-api-key]"


@pytest.fixture
def server(live_server, tmp_path: Path):
    vault = tmp_path / "secrets-vault"
    vault.mkdir()
    (vault / "Keys.md").write_text(NOTE)
    return live_server({"notes": vault}, auth_enabled=False, tool_rate_limit=10_000), vault


def source(url: str) -> dict:
    """What the web editor opens: the whole text, redacted, and its version."""
    r = httpx2.get(f"{url}/api/file/notes/source", params={"path": "Keys.md"})
    assert r.status_code == 200
    return r.json()


def save(url: str, content: str, version: str) -> httpx2.Response:
    return httpx2.post(f"{url}/api/file/notes/save", json={"path": "Keys.md", "content": content, "version": version})


def patch(url: str, content: str) -> httpx2.Response:
    return httpx2.patch(f"{url}/api/file/notes", json={"path": "Keys.md", "content": content})


def test_the_editor_flow_keeps_every_secret(server) -> None:
    live, vault = server
    opened = source(live.url)
    assert SK1 not in opened["content"] and "Hunter2" not in opened["content"] and opened["content"].count(M) == 2
    r = save(live.url, opened["content"].replace("intro", "An introduction"), opened["version"])
    assert r.status_code == 200
    assert (vault / "Keys.md").read_text() == NOTE.replace("intro", "An introduction")
    read = httpx2.get(f"{live.url}/api/file/notes", params={"path": "Keys.md"}).text
    assert SK1 not in read and SK2 not in read and "Hunter2" not in read


@pytest.mark.parametrize("write", ["save", "patch"])
def test_a_glued_marker_is_refused_and_nothing_is_written(server, write: str) -> None:
    """The reported attack: ``Zz[REDACTED:…]Zz`` came back as ``Zzsk-…Zz``, which no rule redacts, so
    read_file, search snippets, diffs and history then showed the key in clear."""
    live, vault = server
    opened = source(live.url)
    glued = opened["content"].replace(f"it: {M}", f"it: Zz{M}Zz")
    r = save(live.url, glued, opened["version"]) if write == "save" else patch(live.url, glued)
    body = r.json()
    assert (r.status_code, body["code"]) == (400, "secret_marker_altered")
    assert body["details"] == {"rule": "openai-api-key", "line": 6} and SK1 not in r.text and body["hint"]
    assert (vault / "Keys.md").read_text() == NOTE
    assert httpx2.get(f"{live.url}/api/file/notes/backups", params={"path": "Keys.md"}).json()["versions"] == []
    hits = httpx2.get(f"{live.url}/api/search", params={"q": "Zzsk"}).json()["hits"]
    assert hits == [] and SK1 not in source(live.url)["content"]


@pytest.mark.parametrize("write", ["save", "patch"])
def test_deleting_the_first_marker_line_keeps_the_second_secret_in_its_place(server, write: str) -> None:
    """By rank the remaining marker got the FIRST secret and the second one was lost."""
    live, vault = server
    opened = source(live.url)
    edited = opened["content"].replace(f"it: {M}\n", "")
    r = save(live.url, edited, opened["version"]) if write == "save" else patch(live.url, edited)
    assert r.status_code == 200, r.text
    assert (vault / "Keys.md").read_text() == NOTE.replace(f"it: {SK1}\n", "")
    assert f"backup: {SK2}\n" in (vault / "Keys.md").read_text() and SK1 not in (vault / "Keys.md").read_text()


@pytest.mark.parametrize(
    ("find", "replace"),
    [("it: ", "it: Zz"), ("password: ", "note: "), ("\nbackup: ", "\nbackupZ")],
)
def test_a_find_replace_that_would_uncover_a_secret_is_refused(server, find: str, replace: str) -> None:
    """find/replace never matches a secret, but text next to one can change so its rule no longer sees it."""
    (s, vault) = server
    r = httpx2.patch(f"{s.url}/api/file/notes", json={"path": "Keys.md", "find": find, "replace": replace})
    assert r.status_code == 400 and r.json()["code"] == "secret_marker_altered", r.text
    assert (vault / "Keys.md").read_text() == NOTE


def test_replace_in_files_that_would_uncover_a_secret_is_refused(server) -> None:
    (s, vault) = server
    r = httpx2.post(f"{s.url}/api/search/replace", json={"vault": "notes", "find": "it: ", "replace": "it: Zz"})
    assert r.status_code == 400 and r.json()["code"] == "secret_marker_altered", r.text
    assert r.json()["details"]["path"] == "Keys.md" and (vault / "Keys.md").read_text() == NOTE


def test_a_find_replace_beside_no_secret_still_works(server) -> None:
    (s, vault) = server
    r = httpx2.patch(f"{s.url}/api/file/notes", json={"path": "Keys.md", "find": "intro", "replace": "preface"})
    assert r.status_code == 200, r.text
    assert (vault / "Keys.md").read_text() == NOTE.replace("intro", "preface")


def test_a_regex_cannot_probe_a_secret_through_the_match_count(server) -> None:
    """The pattern runs on what a reader sees: a lookahead into a secret counts the same whatever it holds."""
    (s, _) = server

    def count(guess: str) -> int:
        r = httpx2.post(
            f"{s.url}/api/search/replace",
            json={
                "vault": "notes",
                "find": f"it: (?={guess})",
                "replace": "it: ",
                "regex": True,
                "case_sensitive": True,
                "dry_run": True,
            },
        )
        assert r.status_code in (200, 404), r.text
        return r.json().get("details", {}).get("total", 0) if r.status_code == 200 else 0

    assert count("s") == count("x") == count(r"\[") - 1 == 0  # only the marker, never the secret, is seen


@pytest.mark.parametrize(
    ("text", "find", "replace"),
    [
        ('passphrase: "tremendous horse battery staple"\n', ': "', ": "),  # the quoted value would shrink
        ("db: https://bob:hunter2hunter2:final@host.example/x\n", "//bob:", "//bob"),  # the user info would too
    ],
)
def test_an_edit_that_would_uncover_part_of_a_secret_is_refused(server, text: str, find: str, replace: str) -> None:
    (s, vault) = server
    made = httpx2.post(f"{s.url}/api/file/notes", json={"path": "Part.md", "content": text})  # indexed at once
    assert made.status_code == 200, made.text
    r = httpx2.patch(f"{s.url}/api/file/notes", json={"path": "Part.md", "find": find, "replace": replace})
    assert r.status_code == 400 and r.json()["code"] == "secret_marker_altered", r.text
    assert (vault / "Part.md").read_text() == text
    r = httpx2.post(
        f"{s.url}/api/search/replace",
        json={"vault": "notes", "find": find, "replace": replace, "include_paths": ["Part.md"]},
    )
    assert r.status_code == 400 and r.json()["code"] == "secret_marker_altered", r.text
    assert (vault / "Part.md").read_text() == text


FRONT = (
    "---\ntitle: Deploy\npassphrase: tremendous horse battery staple\nsecrets:\n  db: hunter2hunter2zz\n"
    "  more:\n    - second value here\nprivate_key: |\n  block line one\n  block line two\ntags: [ops]\n---\n# Deploy\n"
)
HIDDEN = ("tremendous horse", "hunter2hunter2zz", "second value here", "block line one", "block line two")


def test_secret_named_frontmatter_values_are_hidden_in_every_read(server) -> None:
    """read_file hides them by key (parsed frontmatter); the raw text, the editor's source and the assistant's
    context must hide them as well, and an editor's save must put them back."""
    (s, vault) = server
    made = httpx2.post(f"{s.url}/api/file/notes", json={"path": "Deploy.md", "content": FRONT})
    assert made.status_code == 200, made.text
    reads = [
        httpx2.get(f"{s.url}/api/file/notes", params={"path": "Deploy.md"}).text,
        httpx2.get(f"{s.url}/api/file/notes/source", params={"path": "Deploy.md"}).text,
        httpx2.get(f"{s.url}/api/file/notes/raw", params={"path": "Deploy.md"}).text,
    ]
    context = httpx2.post(
        f"{s.url}/api/ai/bookslm/context",
        json={"vault": "notes", "mode": "files", "files": ["Deploy.md"], "include_content": True},
    )
    assert context.status_code == 200 and "title: Deploy" in context.text, context.text  # what a model is sent
    for text in [*reads, context.text]:
        assert not any(h in text for h in HIDDEN), text
    src = httpx2.get(f"{s.url}/api/file/notes/source", params={"path": "Deploy.md"}).json()
    saved = httpx2.post(
        f"{s.url}/api/file/notes/save",
        json={
            "path": "Deploy.md",
            "content": src["content"].replace("# Deploy", "# Deploy now"),
            "version": src["version"],
        },
    )
    assert saved.status_code == 200, saved.text
    assert (vault / "Deploy.md").read_text() == FRONT.replace("# Deploy", "# Deploy now")
