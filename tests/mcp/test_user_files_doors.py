"""The file space through every door of the real app (issue 21 item 2): REST (upload, list, record, bytes,
delete), MCP tools over the official SDK client and MCP ``resources/read``. The isolation matrix: bob asking for
alice's ``file_id`` gets ``not_found`` at every door and learns nothing; forged ids likewise; the caps answer
``file_too_large`` and ``quota_exceeded`` with nothing stored; a deleted canary is found nowhere in the data dir."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi import FastAPI
from mcp import MCPError
from mcp_types import BlobResourceContents, TextResourceContents
from support import journal_records

from obsigate.mcp.server import ERROR_META_KEY

from .conftest import Gateway, running

pytestmark = pytest.mark.anyio

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)
TEXT = b"alice's marmalade recipe: oranges, sugar, patience\n"
FORGED = [
    "../jwt_secret",
    "..",
    "U_alice_C_none_T_1800000000000000_AAAAAAAAAAAAAAAAAAAAAA",
    "U_alice_C_none_T_1800000000000000_AAAAAAAAAAAAAAAAAAAAA/",
    "%00",
]


@pytest.fixture
async def gw(make_app: Callable[..., FastAPI], vaults: dict[str, Path]) -> AsyncIterator[Gateway]:
    """The real app with auth on, alice (notes), bob (other), carol (no vault); small file-space limits."""
    app = make_app(vaults, files_max_bytes=4096, files_quota_bytes=10_000)
    async with running(app):
        gw = Gateway(app)
        users, tokens = gw.auth.users, gw.auth.tokens
        for name, grants in (("alice", ["notes"]), ("bob", ["other"]), ("carol", [])):
            gw.tokens[name] = tokens.issue(users.add_user(name, None, vaults=grants))
        await gw.wait_indexed()
        yield gw


async def upload(gw: Gateway, who: str, data: bytes, name: str = "a.txt", **form: str) -> Any:
    async with gw.http(gw.tokens[who]) as http:
        return await http.post("/api/files", files={"file": (name, data, "image/png")}, data=form)


def error_code(result: Any) -> str:
    assert result.is_error, result.content
    return result.meta[ERROR_META_KEY]["code"]


async def test_upload_list_read_and_download_by_the_owner(gw: Gateway) -> None:
    text = await upload(gw, "alice", TEXT, "recipe.png", conversation="conv-9")  # a .png that is text
    assert text.status_code == 201, text.text
    rec = text.json()
    assert rec["mime_type"] == "text/plain" and rec["name"] == "recipe.png" and rec["origin"] == "upload"
    assert rec["file_id"].startswith("U_alice_C_conv-9_T_") and rec["expires_at"] is not None
    png = (await upload(gw, "alice", PNG, "dot.bin")).json()
    assert png["mime_type"] == "image/png" and png["expires_at"] is None
    async with gw.http(gw.tokens["alice"]) as http:
        listed = (await http.get("/api/files")).json()
        assert [f["file_id"] for f in listed["files"]] == [png["file_id"], rec["file_id"]]
        assert listed["total"] == 2 and listed["used_bytes"] == len(TEXT) + len(PNG) and listed["quota_bytes"] == 10_000
        info = (await http.get(f"/api/files/{png['file_id']}")).json()
        assert info["sha256"] == hashlib.sha256(PNG).hexdigest() and info["uri"] == f"obsigate://files/{png['file_id']}"
        shown = await http.get(f"/api/files/{png['file_id']}/content")
        assert shown.content == PNG and shown.headers["content-type"] == "image/png"
        assert shown.headers["x-content-type-options"] == "nosniff"
        assert shown.headers["content-disposition"].startswith("inline;")
        assert "sandbox" in shown.headers["content-security-policy"]
        forced = await http.get(f"/api/files/{png['file_id']}/content", params={"download": "true"})
        assert forced.headers["content-disposition"].startswith("attachment;")
    async with gw.client(gw.tokens["alice"], "auto") as client:
        listed_mcp = await client.call_tool("list_user_files", {})
        assert {f["file_id"] for f in listed_mcp.structured_content["files"]} == {rec["file_id"], png["file_id"]}
        read = await client.call_tool("read_user_file", {"file_id": rec["file_id"]})
        assert read.structured_content["content"] == TEXT.decode() and read.structured_content["encoding"] == "utf-8"
        binary = await client.call_tool("read_user_file", {"file_id": png["file_id"]})
        assert binary.structured_content["content"] == "" and "image/png" in binary.structured_content["notice"]
        blob = (await client.read_resource(f"obsigate://files/{png['file_id']}")).contents[0]
        assert isinstance(blob, BlobResourceContents) and blob.mime_type == "image/png"
        assert hashlib.sha256(base64.b64decode(blob.blob)).hexdigest() == hashlib.sha256(PNG).hexdigest()
        doc = (await client.read_resource(f"obsigate://files/{rec['file_id']}")).contents[0]
        assert isinstance(doc, TextResourceContents) and doc.text == TEXT.decode()
        templates = (await client.list_resource_templates()).resource_templates
        assert "obsigate://files/{file_id}" in [t.uri_template for t in templates]


async def test_another_user_gets_not_found_at_every_door(gw: Gateway) -> None:
    alice = (await upload(gw, "alice", TEXT, "secret.txt")).json()["file_id"]
    png = (await upload(gw, "alice", PNG, "dot.png")).json()["file_id"]
    leaks: list[str] = []
    for who in ("bob", "carol"):
        async with gw.http(gw.tokens[who]) as http:
            for file_id in (alice, png):
                answers = [
                    await http.get(f"/api/files/{file_id}"),
                    await http.get(f"/api/files/{file_id}/content"),
                    await http.get(f"/api/files/{file_id}/content", params={"download": "true"}),
                    await http.delete(f"/api/files/{file_id}"),
                ]
                for answer in answers:
                    assert (answer.status_code, answer.json()["code"]) == (404, "not_found"), answer.text
                    leaks += [answer.text] if "marmalade" in answer.text or "secret.txt" in answer.text else []
            assert (await http.get("/api/files")).json()["files"] == []
        async with gw.client(gw.tokens[who], "auto") as client:
            assert {"list_user_files", "read_user_file"} <= {t.name for t in (await client.list_tools()).tools}
            for file_id in (alice, png):
                refused = await client.call_tool("read_user_file", {"file_id": file_id})
                assert error_code(refused) == "not_found"
                leaks += [str(refused.content)] if "marmalade" in str(refused.content) else []
                with pytest.raises(MCPError) as resource:
                    await client.read_resource(f"obsigate://files/{file_id}")
                assert resource.value.error.code == -32602 and resource.value.error.data["code"] == "not_found"
            assert (await client.call_tool("list_user_files", {})).structured_content["files"] == []
    assert leaks == []
    async with gw.http(gw.tokens["alice"]) as http:  # nothing of alice's was touched
        assert (await http.get(f"/api/files/{alice}/content")).content == TEXT
        assert (await http.get("/api/files")).json()["total"] == 2


async def test_forged_ids_are_not_found(gw: Gateway) -> None:
    await upload(gw, "alice", TEXT)
    async with gw.http(gw.tokens["alice"]) as http:
        for forged in FORGED:
            for answer in (
                # a trailing %2F is a trailing slash: redirected to the id without it, then refused the same
                await http.get(f"/api/files/{quote(forged, safe='')}", follow_redirects=True),
                await http.get(f"/api/files/{quote(forged, safe='')}/content", follow_redirects=True),
            ):
                assert answer.status_code == 404 and answer.json()["code"] == "not_found", (forged, answer.text)
    async with gw.client(gw.tokens["alice"], "auto") as client:
        for forged in FORGED:
            assert error_code(await client.call_tool("read_user_file", {"file_id": forged})) == "not_found"
            with pytest.raises(MCPError):
                await client.read_resource(f"obsigate://files/{quote(forged, safe='')}")


async def test_an_overlong_or_empty_id_is_invalid_argument(gw: Gateway) -> None:
    """docs/files.md: over 200 characters (or empty, where a door can send it) is ``invalid_argument``; a
    malformed id of 200 or fewer is ``not_found``."""
    long_id = "U_alice_" + "x" * 193
    async with gw.http(gw.tokens["alice"]) as http:
        for url in (f"/api/files/{long_id}", f"/api/files/{long_id}/content"):
            answer = await http.get(url)
            assert (answer.status_code, answer.json()["code"]) == (400, "invalid_argument"), answer.text
        assert (await http.get(f"/api/files/{long_id[:200]}")).json()["code"] == "not_found"
    async with gw.client(gw.tokens["alice"], "auto") as client:
        for file_id in (long_id, ""):
            assert error_code(await client.call_tool("read_user_file", {"file_id": file_id})) == "invalid_argument"
        assert error_code(await client.call_tool("read_user_file", {"file_id": long_id[:200]})) == "not_found"
        for file_id, code in ((long_id, "invalid_argument"), (long_id[:200], "not_found")):
            with pytest.raises(MCPError) as caught:
                await client.read_resource(f"obsigate://files/{file_id}")
            assert (caught.value.error.data or {}).get("code") == code, caught.value.error


async def test_caps_and_quota_store_nothing(gw: Gateway, tmp_path: Path) -> None:
    folder = tmp_path / "data" / "users" / "alice" / "files"
    big = await upload(gw, "alice", b"x" * 4097)
    assert (big.status_code, big.json()["code"]) == (413, "file_too_large")
    huge = await upload(gw, "alice", b"x" * 200_000)  # over the upload route's own body cap
    assert (huge.status_code, huge.json()["code"]) == (413, "file_too_large")
    for _ in range(2):
        assert (await upload(gw, "alice", b"y" * 4000)).status_code == 201
    full = await upload(gw, "alice", b"z" * 3000)
    assert (full.status_code, full.json()["code"]) == (507, "quota_exceeded")
    assert len(list(folder.iterdir())) == 2
    async with gw.http(gw.tokens["alice"]) as http:
        assert (await http.get("/api/files")).json()["used_bytes"] == 8000
        as_json = await http.post("/api/files", json={"name": "a", "content": "eA=="})
        assert as_json.status_code in (400, 422)


@pytest.mark.parametrize("conversation", ["../x", "a\x00b", "c" * 300, "c" * 200, "c" * 65, "a/b", "a b", "é"])
async def test_an_upload_with_a_malformed_conversation_is_refused(
    gw: Gateway, tmp_path: Path, conversation: str
) -> None:
    refused = await upload(gw, "alice", TEXT, conversation=conversation)
    assert (refused.status_code, refused.json()["code"]) == (400, "invalid_argument"), refused.text
    folder = tmp_path / "data" / "users" / "alice" / "files"
    assert not folder.exists() or list(folder.iterdir()) == []
    async with gw.http(gw.tokens["alice"]) as http:
        assert (await http.get("/api/files")).json()["total"] == 0


async def test_an_upload_with_a_real_conversation_id_is_kept(gw: Gateway) -> None:
    for cid in ("0123456789abcdef0123456789abcdef", "stdio-0123456789ab", "a_b-C" * 12 + "x" * 4):
        ok = await upload(gw, "alice", TEXT, conversation=cid)
        assert ok.status_code == 201, ok.text
        assert ok.json()["conversation"] == cid


async def test_a_browser_upload_needs_the_upload_header(gw: Gateway) -> None:
    """With the session cookie (ambient), a multipart body is accepted only with X-ObsiGate-Upload."""
    session = gw.auth.tokens.issue(gw.auth.users.get_user("alice"), extra_claims={"web_session": True})
    cookies = {"obsigate_session": session}
    async with gw.http() as http:
        files = {"file": ("a.txt", b"hello", "text/plain")}
        bare = await http.post("/api/files", files=files, cookies=cookies)
        assert (bare.status_code, bare.json()["code"]) == (400, "unsupported_media_type")
        ok = await http.post("/api/files", files=files, cookies=cookies, headers={"X-ObsiGate-Upload": "1"})
        assert ok.status_code == 201, ok.text
        foreign = await http.post(
            "/api/files",
            files=files,
            cookies=cookies,
            headers={"X-ObsiGate-Upload": "1", "Origin": "https://evil.test"},
        )
        assert (foreign.status_code, foreign.json()["code"]) == (403, "forbidden_origin")


async def test_delete_leaves_no_canary_in_the_data_dir(gw: Gateway, tmp_path: Path) -> None:
    canary = b"CANARY-0b5e-heron-in-the-reeds"
    rec = (await upload(gw, "alice", b"start " + canary + b" end", "plain.txt")).json()
    async with gw.http(gw.tokens["alice"]) as http:
        assert canary in (await http.get(f"/api/files/{rec['file_id']}/content")).content
        gone = await http.delete(f"/api/files/{rec['file_id']}")
        assert gone.status_code == 200 and gone.json()["file_id"] == rec["file_id"]
        assert (await http.get(f"/api/files/{rec['file_id']}")).status_code == 404
    gw.runtime.files.checkpoint()
    found = [p for p in (tmp_path / "data").rglob("*") if p.is_file() and canary in p.read_bytes()]
    assert found == []
    journal = journal_records(tmp_path / "data")
    assert {"upload_user_file", "download_user_file", "delete_user_file"} <= {r["tool"] for r in journal}


async def test_files_survive_a_restart(make_app: Callable[..., FastAPI], vaults: dict[str, Path]) -> None:
    """Auth off (the anonymous owner): a script's multipart upload carries X-ObsiGate-Upload; after a restart on
    the same data dir the file is still there, bytes and record."""
    upload_header = {"X-ObsiGate-Upload": "1"}
    first = make_app(vaults, auth_enabled=False)
    async with running(first):
        async with Gateway(first).http(headers=upload_header) as http:
            rec = (await http.post("/api/files", files={"file": ("dot.png", PNG, "image/png")})).json()
    again = make_app(vaults, auth_enabled=False)
    async with running(again):
        async with Gateway(again).http() as http:
            assert (await http.get(f"/api/files/{rec['file_id']}")).json()["sha256"] == rec["sha256"]
            assert (await http.get(f"/api/files/{rec['file_id']}/content")).content == PNG
