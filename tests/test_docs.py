"""Every setting is documented (Datasette's habit: docs and code cannot drift apart), and the README's
examples work."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

from support import DEMO_VAULT, REPO, alice_token

from obsigate.config import Settings


def test_every_setting_has_a_row_in_configuration_md() -> None:
    doc = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"| `{name}` |" in doc, name


def test_readme_quick_start_is_two_commands() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["make run", "make test"]


def test_readme_python_mcp_client_runs_against_a_server_with_auth(live_server, tmp_path: Path) -> None:
    """The README's Python MCP client, run as written (only its URL pointed at this test's server) with a
    token of a user granted the demo vault: it lists the tools and prints the start of Home.md."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    example = readme.split("**Python**", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    data = tmp_path / "data"
    token = alice_token(data, vaults=("demo",))
    server = live_server({"demo": DEMO_VAULT}, data_dir=data)
    script = example.replace("http://127.0.0.1:8000/mcp", f"{server.url}/mcp")
    assert script != example
    run = subprocess.run([sys.executable, "-c", script], env={**os.environ, "OBSIGATE_TOKEN": token},
                         capture_output=True, text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    tools, note = run.stdout.split("\n", 1)
    assert {"list_vaults", "read_file", "propose_edit_file"} <= set(ast.literal_eval(tools))
    heading = next(
        line for line in (DEMO_VAULT / "Home.md").read_text(encoding="utf-8").splitlines() if line.startswith("# ")
    )
    assert note.startswith(heading + "\n")  # the note's body (read_file gives the frontmatter apart)
    refused = subprocess.run([sys.executable, "-c", script], env={**os.environ, "OBSIGATE_TOKEN": "not-a-token"},
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert refused.returncode != 0  # with auth on, the token is what lets it in
