"""Run the real ``hermes`` command line (hermes-agent 0.19.0, or newer) as a user would.

Each call is a new process, exactly like ``hermes -z "…"`` or
``hermes chat -Q -q "…" --resume SESSION`` typed in a shell: plugin discovery, the
memory provider, ``.env`` loading and session storage are Hermes' own. The model is
the loopback :class:`~support.stub_model.StubModel` (configured as a ``custom``
OpenAI-compatible endpoint in the profile's ``config.yaml``), so a test reads the
exact requests the model received.

The child's environment is the test process's minus every ``GBRAIN_*``/``HERMES_*``
/``MCP_GBRAIN_*`` variable, so only the profile's own ``.env`` configures it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from support.hermes_flavor import on_pinned_hermes
from support.stub_model import StubModel

RUN_TIMEOUT_S = 120.0
CLI_TEST_TIMEOUT_S = 300.0
"""The hang guard of a test that runs several ``hermes`` processes (5-20 s each on a busy
machine); the suite's 60 s guard is for tests that stay in one process."""
_SESSION_LINE = re.compile(r"^session_id:\s*(\S+)\s*$", re.MULTILINE)
_SCRUBBED_PREFIXES = ("GBRAIN_", "HERMES_", "MCP_GBRAIN_")


def hermes_executable() -> str:
    """The ``hermes`` script installed beside the running interpreter."""
    beside = Path(sys.executable).with_name("hermes")
    found = str(beside) if beside.is_file() else shutil.which("hermes")
    if not found:
        raise RuntimeError("the hermes command is not installed (pip install -e '.[dev]')")
    return found


def model_config(model: StubModel) -> dict[str, Any]:
    """The ``model`` block of ``config.yaml`` that points Hermes at the stub model.

    Use it as ``home.write_config("gbrain", extra={"model": model_config(stub_model)})``.
    """
    return {"provider": "custom", "base_url": model.base_url, "default": "stub-model"}


@dataclass(frozen=True)
class CliRun:
    """One finished ``hermes`` process and the conversation requests it sent the model."""

    returncode: int
    stdout: str
    stderr: str
    requests: list[dict[str, Any]]

    @property
    def session_id(self) -> str | None:
        """The ``session_id: …`` line ``hermes chat -Q`` prints on exit."""
        found = _SESSION_LINE.findall(self.stdout + "\n" + self.stderr)
        return found[-1] if found else None

    def user_messages(self, index: int = -1) -> list[str]:
        """The text of every user message in one model request (default: the last)."""
        messages = self.requests[index]["messages"]
        return [_text(m.get("content")) for m in messages if m.get("role") == "user"]

    def last_user_message(self, index: int = -1) -> str:
        """What the model received as the current user turn (memory blocks included)."""
        return self.user_messages(index)[-1]

    def system_prompt(self, index: int = -1) -> str:
        messages = self.requests[index]["messages"]
        return _text(messages[0].get("content")) if messages[0].get("role") == "system" else ""


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


def child_env(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_SCRUBBED_PREFIXES)}
    env.update({"HERMES_HOME": str(home), "OPENAI_API_KEY": "sk-stub", "NO_COLOR": "1"})
    env.update(extra or {})
    return env


# Newer Hermes (the fork ``make test-newer`` installs) ships a native observability
# library whose thread calls into Python while the interpreter finalizes; Python 3.11
# ends such a thread with ``pthread_exit`` and the process dies with SIGSEGV *after* it
# has answered and run every exit handler (seen in a core dump; it happens with no memory
# provider at all, more often under load). The fork guards its own ``-z`` mode against
# this class of crash by leaving with ``os._exit`` once its cleanup ran; ``chat -q`` has
# no such guard. So on that fork only, the child runs Hermes' own entry point and then
# does what a normal exit does up to finalization: wait for non-daemon threads, run the
# ``atexit`` handlers (our provider's shutdown among them), flush, ``os._exit``. On the
# pinned 0.19.0 the ``hermes`` script runs untouched, so a crash of ours at exit still
# fails the suite there.
_EXIT_BEFORE_FINALIZATION = """
import atexit, logging, os, sys, threading
from hermes_cli.main import main
sys.argv[0] = "hermes"
try:
    code = main()
except SystemExit as done:
    code = done.code
threading._shutdown()
atexit._run_exitfuncs()
if code is not None and not isinstance(code, int):
    print(code, file=sys.stderr)
    code = 1
for stream in (sys.stdout, sys.stderr):
    stream.flush()
logging.shutdown()
os._exit(code or 0)
"""


def _hermes_command() -> list[str]:
    script = hermes_executable()
    if on_pinned_hermes():
        return [script]
    python = Path(script).with_name("python")
    return [str(python if python.is_file() else sys.executable), "-c", _EXIT_BEFORE_FINALIZATION]


def run_hermes(
    home: Path,
    model: StubModel,
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = RUN_TIMEOUT_S,
) -> CliRun:
    """Run ``hermes ARGS`` for the profile at ``home``; return its output and new requests."""
    before = len(model.requests)
    done = subprocess.run(
        [*_hermes_command(), *args],
        env=child_env(home, env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    chats = [r for r in model.requests[before:] if is_conversation_request(r)]
    return CliRun(done.returncode, done.stdout, done.stderr, chats)


def is_conversation_request(request: object) -> bool:
    """A request of the conversation itself, not a side task Hermes runs on the same model.

    Newer Hermes names a new session with one more request after the turn, asking for
    structured output (``response_format``); the conversation never does.
    """
    return isinstance(request, dict) and "messages" in request and "response_format" not in request


def oneshot(home: Path, model: StubModel, prompt: str, **kwargs: Any) -> CliRun:
    """``hermes -z PROMPT``: one turn, one process."""
    return run_hermes(home, model, ["-z", prompt], **kwargs)


def chat_query(
    home: Path, model: StubModel, prompt: str, *, resume: str | None = None, **kwargs: Any
) -> CliRun:
    """``hermes chat -Q -q PROMPT [--resume SESSION]``: one turn of a resumable session."""
    args = ["chat", "-Q", "-q", prompt]
    if resume:
        args += ["--resume", resume]
    return run_hermes(home, model, args, **kwargs)
