"""The ``obsigate`` command run in this process (Typer's ``CliRunner``), seen as a user sees a real run.

A subprocess costs ~1.8 s of start-up per call; the CLI tests run the real ``obsigate.cli.app`` in process
instead (a few smoke tests in ``tests/test_cli.py`` still start the real program). What a run shares with
the test process, and how it is kept apart:
- the environment: ``env`` is set for the run only and restored after it (``None`` removes a variable);
- stdin, stdout and stderr: the runner's own, so a command sees a pipe, not a terminal, as under a subprocess;
- an exception that escapes the command: exit status 1 and its traceback on stderr, as Python prints it;
- the ``obsigate`` logger, which ``serve`` and ``index rebuild`` give a console handler on the run's stderr
  once per process: put back as it was after each run, so the next run gets a handler on its own stderr.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from obsigate.cli import app

_ANSI = re.compile(r"\x1b\[[0-9;]*m")  # colours, had the CLI's console been created on a terminal


@dataclass(frozen=True, slots=True)
class Ran:
    """One run of the command: its exit status and what it printed on stdout and on stderr."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str, data: Path, stdin: str | None = None, env: Mapping[str, str | None] | None = None) -> Ran:
    """Run ``obsigate ARGS --data-dir DATA`` in process, ``stdin`` piped in (none: empty), ``env`` set for the
    run (``None`` removes a variable). Never raises for the command's own failures: they are in the result."""
    with restored_logging():
        result = CliRunner().invoke(app, [*args, "--data-dir", str(data)], input=stdin, env=dict(env or {}))
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(result.exception))  # what Python prints on a crash
    return Ran(result.exit_code, _ANSI.sub("", result.stdout), _ANSI.sub("", stderr))


@contextmanager
def restored_logging() -> Iterator[None]:
    """Inside, the ``obsigate`` logger may be given handlers and a level (``console_logging``); after, as before."""
    logger = logging.getLogger("obsigate")
    handlers, level = list(logger.handlers), logger.level
    try:
        yield
    finally:
        logger.handlers[:] = handlers
        logger.setLevel(level)
