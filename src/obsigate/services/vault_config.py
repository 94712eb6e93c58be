"""The vault's own Obsidian settings (its ``.obsidian/`` files), read for the web app: link format, line breaks,
daily notes, templates, bookmarks, property types, graph groups. Parsing and defaults: ``domain.obsidian_config``."""

from __future__ import annotations

from typing import Any

from obsigate.domain import obsidian_config as cfg
from obsigate.domain.storage import vault_fs
from obsigate.domain.vault import Vault
from obsigate.services.results import Result


class VaultConfigResult(Result):
    """See :func:`obsigate.domain.obsidian_config.parse_config` for every field."""

    vault: str
    config_dir: str
    app: dict[str, Any]
    daily_notes: dict[str, Any]
    templates: dict[str, Any]
    bookmarks: list[dict[str, Any]]
    property_types: dict[str, str]
    graph_groups: list[dict[str, Any]]
    problems: list[str]


def _read(vault: Vault, name: str, problems: list[str]) -> bytes | None:
    rel = f"{cfg.CONFIG_DIR}/{name}"
    try:
        return vault_fs.read_file(vault.root, rel, max_bytes=cfg.MAX_FILE_BYTES)[0]
    except vault_fs.FileTooLarge:
        problems.append(f"{name}: over {cfg.MAX_FILE_BYTES} bytes, ignored")
    except vault_fs.OutsideVault:
        problems.append(f"{name}: a symlink, ignored")
    except OSError:  # absent (the usual case: Obsidian writes only what differs from its defaults), unreadable
        pass
    return None


def vault_config(vault: Vault) -> VaultConfigResult:
    """The vault's settings with Obsidian's defaults for whatever its config folder does not say (a vault with
    no ``.obsidian/`` gets every default). Never raises for a missing or malformed file: see ``problems``."""
    read_problems: list[str] = []
    files = {name: _read(vault, name, read_problems) for name in cfg.FILES}
    parsed = cfg.parse_config(files)
    parsed["problems"] = read_problems + parsed["problems"]
    return VaultConfigResult(vault=vault.name, config_dir=cfg.CONFIG_DIR, **parsed)
