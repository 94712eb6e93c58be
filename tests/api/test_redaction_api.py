"""Issue 16, item 5: the redaction findings, through the REST API of a real server on loopback.

1. A file or folder name holding an AWS key id (``AKIA….png``, ``AKIA…/note.md``, ``…_old.md``) is redacted
   in every result that shows a path, and a path shown redacted opens, lists, saves and creates what it
   stands for (``services/redacted_paths.py``).
2. Reads give no hash of a file's secrets: ``sha256`` is of the file as served, ``version`` a keyed HMAC that
   still changes when only a secret does.
3. A bare AWS secret access key alone on its line is redacted.
4. A link written after a secret-named label (``**Secrets**: [[Vault setup]]``) is a link, not a secret.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import httpx2
import pytest
from support import write_tree

K = "AKIAQWERTYUIOPASDF23"  # an AWS access key id: AKIA + 16 of base32
K2 = "AKIAZZZZYYYYXXXXWWW7"
R = "[REDACTED:aws-access-key]"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK3h8qLmN0"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
KEYS = (
    f"# Keys\n\n**Secrets**: [[Vault setup]]\n**Tokens**: [[Rotation checklist]]\n\nThe deploy pair, as IAM handed it out:\n\n{K}\n{AWS_SECRET}\n\n"
    "password: Weak-pw1\n"
)
VAULT = {
    f"{K}/note.md": "# Folder note\nhello tidepool, see [[Vault setup]]\n",
    f"{K}.png": PNG,
    f"Notes/{K}_old.md": "plain tidepool\n",
    "Embeds.md": f"# Embeds\n![[{K}.png]] and [[{K}/note]] tidepool\n",
    "Keys.md": KEYS,
    "Vault setup.md": "# Vault setup\nHow secrets are kept.\n",
    "Rotation checklist.md": "# Rotation checklist\n",
}


@pytest.fixture
def server(live_server, tmp_path: Path):
    vault = write_tree(tmp_path / "vault", VAULT)
    return live_server({"notes": vault}, auth_enabled=False, data_dir=tmp_path / "data"), vault


def get(url: str, route: str, **params) -> httpx2.Response:
    r = httpx2.get(f"{url}{route}", params=params)
    assert r.status_code == 200, (route, r.text)
    return r


# --- 1. names ------------------------------------------------------------------------------------------


def test_a_name_holding_a_key_id_is_redacted_wherever_a_path_is_shown(server) -> None:
    live, _ = server
    u = live.url
    shown = {
        "list_directory": get(u, "/api/browse/notes").text,
        "list_all_files": get(u, "/api/vault/notes/files").text,
        "read_file": get(u, "/api/file/notes", path="Embeds.md").text,
        "read_file_raw": get(u, "/api/file/notes/source", path="Embeds.md").text,
        "download": get(u, "/api/file/notes/raw", path="Embeds.md").text,
        "search": get(u, "/api/search", q="tidepool").text,
        "search_advanced": get(u, "/api/search/advanced", q="tidepool").text,
        "search_paths": get(u, "/api/tree-search", q="note").text,
        "graph": get(u, "/api/graph/notes").text,
        "graph_export": get(u, "/api/graph/notes/export").text,
        "backlinks": get(u, "/api/backlinks/notes", path="Vault setup.md").text,
        "recent": get(u, "/api/recent").text,
    }
    for mode in ("directory", "files"):
        body = {"vault": "notes", "mode": mode, "include_content": True} | (
            {"files": ["Embeds.md"]} if mode == "files" else {}
        )
        r = httpx2.post(f"{u}/api/ai/bookslm/context", json=body)
        assert r.status_code == 200, r.text
        shown[f"context:{mode}"] = r.text
    for what, text in shown.items():
        assert K not in text, what
    # and each shows the name, redacted, where the file is
    assert f"{R}/note.md" in shown["list_all_files"] and f"Notes/{R}_old.md" in shown["list_all_files"]
    assert f"![[{R}.png]]" in shown["read_file"] and f"{R}/note.md" in shown["backlinks"]
    assert f"{R}/note.md" in shown["search"] and f"{R}.png" in shown["context:directory"]


def test_a_path_shown_redacted_opens_what_it_stands_for(server) -> None:
    """The web app (and an agent) only ever has the redacted name: it must reach the file with it."""
    live, vault = server
    u = live.url
    entries = get(u, "/api/browse/notes").json()["entries"]
    folder = next(e["path"] for e in entries if e["type"] == "dir" and R in e["path"])
    assert folder == R
    inside = get(u, "/api/browse/notes", path=folder).json()
    assert inside["path"] == R and [e["path"] for e in inside["entries"]] == [f"{R}/note.md"]
    note = get(u, "/api/file/notes", path=f"{R}/note.md").json()
    assert note["path"] == f"{R}/note.md" and "hello tidepool" in note["content"]
    assert get(u, "/api/file/notes/raw", path=f"{R}.png").content == PNG  # what the app's <img> loads
    by_real_path = get(u, "/api/file/notes", path=f"{K}/note.md").json()  # a link holding the real path
    assert by_real_path["path"] == f"{R}/note.md" and by_real_path["version"] == note["version"]

    # the editor: source, then save with the version it read, all by the redacted path
    src = get(u, "/api/file/notes/source", path=f"{R}/note.md").json()
    saved = httpx2.post(
        f"{u}/api/file/notes/save",
        json={"path": f"{R}/note.md", "content": src["content"].replace("hello", "goodbye"), "version": src["version"]},
    )
    assert saved.status_code == 200 and K not in saved.text, saved.text
    assert (vault / K / "note.md").read_text() == "# Folder note\ngoodbye tidepool, see [[Vault setup]]\n"
    stale = httpx2.post(
        f"{u}/api/file/notes/save", json={"path": f"{R}/note.md", "content": "lost\n", "version": src["version"]}
    )
    assert stale.status_code == 409 and stale.json()["code"] == "conflict" and K not in stale.text
    assert stale.json()["details"]["changed"] == [f"{R}/note.md"]  # an error shows names as results do

    # a new note in the folder lands in the real folder; the history of the note is found by its shown path
    made = httpx2.post(f"{u}/api/file/notes", json={"path": f"{R}/new.md", "content": "# New\n"})
    assert made.status_code == 200 and made.json()["changes"][0]["path"] == f"{R}/new.md", made.text
    assert (vault / K / "new.md").read_text() == "# New\n" and not (vault / R).exists()
    versions = get(u, "/api/file/notes/backups", path=f"{R}/note.md").json()["versions"]
    assert len(versions) == 1


def test_names_are_redacted_in_dict_keys_and_cannot_be_searched_letter_by_letter(server) -> None:
    live, vault = server
    u = live.url
    renamed = httpx2.post(f"{u}/api/file/notes/rename", json={"path": "Vault setup.md", "new_name": "Vault how-to"})
    assert renamed.status_code == 200, renamed.text
    assert K not in renamed.text  # details.links_updated is keyed by the paths of the notes it rewrote
    assert renamed.json()["details"]["links_updated"] == {f"{R}/note.md": 1, "Keys.md": 1}
    assert "[[Vault how-to]]" in (vault / K / "note.md").read_text()
    # the quick switcher matches what it shows: the key id is not a way to find (or probe) the name
    assert get(u, "/api/tree-search", q=K[:6]).json()["hits"] == []
    found = get(u, "/api/tree-search", q="REDACTED note").json()["hits"]
    assert found[0]["path"] == f"{R}/note.md" and K not in json.dumps(found)
    missing = httpx2.get(f"{u}/api/file/notes", params={"path": f"{K}/nothing.md"})
    assert missing.status_code == 404 and K not in missing.text and R in missing.json()["message"]


def test_a_redacted_path_that_stands_for_two_files_is_refused(live_server, tmp_path: Path) -> None:
    vault = write_tree(tmp_path / "vault", {f"A/{K}.md": "one\n", f"A/{K2}.md": "two\n"})
    live = live_server({"notes": vault}, auth_enabled=False)
    listed = [f["path"] for f in get(live.url, "/api/vault/notes/files").json()["files"]]
    assert listed == [f"A/{R}.md", f"A/{R}.md"]
    r = httpx2.get(f"{live.url}/api/file/notes", params={"path": f"A/{R}.md"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_argument" and "rename" in r.json()["hint"]
    assert K not in r.text and K2 not in r.text


# --- 2. hashes -----------------------------------------------------------------------------------------


def test_reads_give_no_hash_of_the_secrets_and_a_changed_secret_is_still_a_conflict(
    server, live_server, tmp_path
) -> None:
    live, vault = server
    u = live.url
    raw = (vault / "Keys.md").read_bytes()
    read = get(u, "/api/file/notes", path="Keys.md").json()
    src = get(u, "/api/file/notes/source", path="Keys.md").json()
    plain = hashlib.sha256(raw).hexdigest()
    assert plain not in json.dumps(read) and plain not in json.dumps(src)
    assert "Weak-pw1" not in src["content"] and src["sha256"] == hashlib.sha256(src["content"].encode()).hexdigest()
    assert read["sha256"] == src["sha256"] and read["version"] == src["version"] != src["sha256"]

    # only the password changes on disk: what a reader sees is the same, the version is not
    (vault / "Keys.md").write_bytes(raw.replace(b"Weak-pw1", b"Weak-pw2"))
    again = get(u, "/api/file/notes/source", path="Keys.md").json()
    assert again["content"] == src["content"] and again["sha256"] == src["sha256"]
    assert again["version"] != src["version"]
    r = httpx2.post(f"{u}/api/file/notes/save", json={"path": "Keys.md", "content": src["content"] + "more\n",
                                                     "version": src["version"]})  # fmt: skip
    assert r.status_code == 409 and r.json()["code"] == "conflict"
    assert (vault / "Keys.md").read_bytes() == raw.replace(b"Weak-pw1", b"Weak-pw2")
    r = httpx2.post(f"{u}/api/file/notes/save", json={"path": "Keys.md", "content": again["content"] + "more\n",
                                                     "version": again["version"]})  # fmt: skip
    assert r.status_code == 200 and (vault / "Keys.md").read_text().endswith("password: Weak-pw2\nmore\n")

    # a backup's listing gives its keyed version, the one read_file gave for those bytes
    backups = get(u, "/api/file/notes/backups", path="Keys.md").json()["versions"]
    assert [b["file_version"] for b in backups] == [again["version"]]
    listed = json.dumps(backups)
    assert hashlib.sha256(raw.replace(b"Weak-pw1", b"Weak-pw2")).hexdigest() not in listed

    # the version key lives in the data dir: the same bytes keep their version across a restart
    now = get(u, "/api/file/notes/source", path="Keys.md").json()["version"]
    live.stop()
    restarted = live_server({"notes": vault}, auth_enabled=False, data_dir=tmp_path / "data")
    assert get(restarted.url, "/api/file/notes/source", path="Keys.md").json()["version"] == now


# --- 3 and 4. rules --------------------------------------------------------------------------------------


def _every_read_of_keys(u: str) -> list[str]:
    return [
        get(u, "/api/file/notes", path="Keys.md").text,
        get(u, "/api/file/notes/source", path="Keys.md").text,
        get(u, "/api/file/notes/raw", path="Keys.md").text,
        httpx2.post(
            f"{u}/api/ai/bookslm/context",  # what the assistant sends its provider
            json={"vault": "notes", "mode": "files", "files": ["Keys.md"], "include_content": True},
        ).text,
    ]


def test_a_bare_aws_secret_alone_on_its_line_is_redacted(server) -> None:
    live, _ = server
    for text in _every_read_of_keys(live.url):
        assert AWS_SECRET not in text and "Weak-pw1" not in text and K not in text
        assert "[REDACTED:aws-secret-key]" in text
    raw = get(live.url, "/api/file/notes/raw", path="Keys.md").text
    assert f"\n{R}\n[REDACTED:aws-secret-key]\n" in raw  # the pair, each on its line
    hits = get(live.url, "/api/search", q="deploy pair").json()["hits"]
    assert [h["path"] for h in hits] == ["Keys.md"] and AWS_SECRET not in json.dumps(hits)


def test_a_link_after_a_secret_label_is_kept(server) -> None:
    live, _ = server
    u = live.url
    for text in _every_read_of_keys(u):
        assert "**Secrets**: [[Vault setup]]" in text and "**Tokens**: [[Rotation checklist]]" in text
    hits = {h["path"]: h["snippet"] for h in get(u, "/api/search", q="Tokens Rotation").json()["hits"]}
    assert "<mark>Rotation</mark> checklist" in hits["Keys.md"]  # snippets are plain text: the link shows as its name
    note = get(u, "/api/file/notes", path="Keys.md").json()
    assert [(lk["target"], lk["resolved"]) for lk in note["links"]] == [
        ("Vault setup", "Vault setup.md"),
        ("Rotation checklist", "Rotation checklist.md"),
    ]
    # the index held the line redacted, so the checklist had lost this backlink
    back = get(u, "/api/backlinks/notes", path="Rotation checklist.md").json()["backlinks"]
    assert [(b["path"], b["links"][0]["context"]) for b in back] == [("Keys.md", "**Tokens**: [[Rotation checklist]]")]
