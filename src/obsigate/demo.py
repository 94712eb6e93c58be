"""The demo vault shipped inside the package, and the writable copy that ``obsigate serve --demo`` serves.

The packaged vault (``obsigate/demo_vault``, package data in the wheel) is never served in place: an installed
package's folder may be read-only, shared by every user of the interpreter and replaced on upgrade, and a vault
is written to (edits, backups' sources, the trash). ``--demo`` copies it once into a folder of the user's
(:func:`default_demo_dir`, or one given) and serves that copy; later runs reuse the copy as it is, so what the
user changed while trying ObsiGate stays, and a newer package never overwrites it (delete the folder to get the
current demo vault again).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import platformdirs

#: The vault name ``--demo`` serves the copy under (the name users are granted: ``--vaults demo``).
DEMO_VAULT_NAME = "demo"


class DemoVaultError(Exception):
    """The demo vault's copy cannot be made or used; the message says where and why."""


def packaged_demo_vault() -> Traversable:
    """The demo vault inside the installed package (read only: copy it, never serve it in place)."""
    return files("obsigate") / "demo_vault"


def default_demo_dir() -> Path:
    """Where ``--demo`` keeps its copy by default: ``demo-vault`` in the user's data folder
    (``$XDG_DATA_HOME/obsigate`` or ``~/.local/share/obsigate`` on Linux, ``~/Library/Application Support/obsigate``
    on macOS, ``%LOCALAPPDATA%\\obsigate`` on Windows). Not created here."""
    return platformdirs.user_data_path("obsigate", appauthor=False) / "demo-vault"


def prepare_demo_vault(dest: Path | None = None, source: Traversable | None = None) -> Path:
    """Make sure the copy of the demo vault exists at ``dest`` (default :func:`default_demo_dir`) and return it,
    absolute. A folder already there is reused untouched, whatever it holds (the user's edits are kept); only a
    missing one is made (mode 0700, the user's own notes): the whole of ``source`` (default :func:`packaged_demo_vault`) is copied into a temporary
    folder beside ``dest``, then renamed to it, so a run cut short or two runs at once never leave half a vault.

    Raises:
        DemoVaultError: ``dest`` exists but is not a folder, the packaged vault is missing, or the copy failed
            (no space, no permission): the message names the path and the cause.
    """
    dest = (dest if dest is not None else default_demo_dir()).expanduser().absolute()
    source = source if source is not None else packaged_demo_vault()
    if dest.is_dir():
        return dest
    if dest.exists() or dest.is_symlink():
        if dest.is_dir():  # another run renamed its copy into place between the two looks
            return dest
        raise DemoVaultError(f"demo vault {str(dest)!r} exists and is not a folder: move it away or pick another")
    if not source.is_dir():
        raise DemoVaultError(f"the packaged demo vault is missing ({source}): reinstall obsigate")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent))
    except OSError as exc:
        raise DemoVaultError(f"cannot create the demo vault in {str(dest.parent)!r}: {exc.strerror or exc}") from None
    try:
        _copy_tree(source, staging)
        os.rename(staging, dest)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        if dest.is_dir():  # another run made it first: theirs is as good as ours
            return dest
        raise DemoVaultError(f"cannot copy the demo vault to {str(dest)!r}: {exc.strerror or exc}") from None
    return dest


def _copy_tree(source: Traversable, target: Path) -> None:
    """Copy every file and folder under ``source`` into the existing folder ``target``. Works on any
    ``Traversable`` (a folder on disk, a zipped package), hence not ``shutil.copytree``."""
    for entry in source.iterdir():
        if entry.is_dir():
            sub = target / entry.name
            sub.mkdir()
            _copy_tree(entry, sub)
        else:
            (target / entry.name).write_bytes(entry.read_bytes())
