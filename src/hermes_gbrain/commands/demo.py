"""``hermes-gbrain demo``: per-turn recall through real Hermes, against the bundled emulator.

It starts the emulator on a free loopback port with its sample brain, registers a
read-only OAuth client, installs the ``gbrain`` provider shim into a throw-away
Hermes home, loads it through Hermes' own discovery, and drives five turns through
Hermes' real ``MemoryManager``. For each turn it prints the user message and the
exact memory block the model would receive: pointers about that very message
(searched when Hermes shows it, waited for within the budget), the briefing on the
first real turn, nothing on a trivial turn, and no page the session saw lately.
Hermes is imported only inside ``run_demo``; the client stack below works without it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, TextIO

from ..connect import open_brain
from ..emulator import Emulator
from ..errors import GBrainError
from ..recall.digest import build_digest, write_digest
from ..recall.pairs import pair_query
from ..recall.pointers import shared_engine
from ..settings import load_settings
from ..text import one_line
from .install import install

__all__ = ["DEMO_TURNS", "run_demo"]

BRIEF_MARK = " — "  # a briefing line: "- Title [source:slug] — summary"

DEMO_TURNS = (
    "Who is Maya Okafor and what is she working on?",
    "ok",
    "How is the Driftwood Sync project going?",
    "Remind me what we decided about the on-device store.",
    "Is Maya Okafor still leading Driftwood Sync?",
)


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


def _drive(home: Path, out: TextIO) -> None:
    """Load the provider through Hermes discovery and run the scripted turns."""
    # Hermes is imported here only: the layers below must work without it.
    from agent.memory_manager import MemoryManager  # noqa: PLC0415
    from agent.turn_context import compose_user_api_content  # noqa: PLC0415
    from plugins.memory import load_memory_provider  # noqa: PLC0415

    from ..adapters import compat  # noqa: PLC0415

    provider = load_memory_provider("gbrain")
    if provider is None:
        raise GBrainError("Hermes could not load the installed gbrain provider")
    manager = MemoryManager()
    manager.add_provider(provider)
    manager.initialize_all(
        session_id="demo", platform="cli", agent_context="primary", hermes_home=str(home)
    )
    prompt = manager.build_system_prompt()
    print("\n── system prompt block (the digest, fixed for the whole session):", file=out)
    print(_indent(prompt) if prompt else "    (none)", file=out)
    history: list[dict[str, Any]] = []
    for number, user in enumerate(DEMO_TURNS, start=1):
        manager.on_turn_start(number, user)
        # Newer Hermes (the one with is_trivial_prompt) never asks for memory on a trivial
        # message, nor searches for it after the turn; 0.19.0 asks on every message.
        gated = compat.HAS_TRIVIAL_PROMPT and compat.is_trivial_prompt(user)
        context = "" if gated else (manager.prefetch_all(user) or "")
        sent = compose_user_api_content(user, context, "") or user
        print(f"\n── turn {number} ─ user: {user}", file=out)
        if context:
            source = (
                "the briefing and pointers, both searched for this message"
                if BRIEF_MARK in context
                else "pointers searched for this message; pages shown in the last 5 turns left out"
            )
            print(f"  appended by Hermes to the message ({source}):", file=out)
            print(_indent(sent[len(user) :].strip("\n")), file=out)
        elif compat.is_trivial_prompt(user):
            print("  no memory block (trivial message: no search)", file=out)
        else:
            print("  no memory block (nothing relevant the session has not just seen)", file=out)
        print(f"  bytes sent as the user message: {len(sent.encode())}", file=out)
        reply = f"(assistant reply {number})"
        history += [{"role": "user", "content": user}, {"role": "assistant", "content": reply}]
        manager.sync_all(user, reply, session_id="demo", messages=list(history))
        if not gated:
            manager.queue_prefetch_all(user, session_id="demo")
        manager.flush_pending(timeout=5)
        shared_engine().wait_idle(5)
    manager.on_session_end(history)
    manager.shutdown_all()


def run_demo(out: TextIO) -> int:
    """Run the demo, writing to ``out``; returns an exit status."""
    with tempfile.TemporaryDirectory(prefix="hermes-gbrain-demo-") as tmp, Emulator() as emu:
        home = Path(tmp)
        env = emu.client_env("demo-reader", scopes="read")
        settings = load_settings(env.get, hermes_home=home)
        print(f"GBrain emulator with its sample brain at {emu.mcp_url}", file=out)
        try:
            identity = open_brain(settings, scope="read").get_brain_identity()
        except GBrainError as exc:
            print(f"demo failed: {exc}", file=out)
            return 1
        print(
            f"brain: {identity.get('page_count')} pages, {identity.get('chunk_count')} chunks; "
            f"settings: {settings!r}",
            file=out,
        )
        # A throw-away profile: the shim Hermes discovers, settings in its .env.
        install("gbrain", home)
        (home / ".env").write_text("".join(f"{k}={v}\n" for k, v in env.items()))
        (home / "config.yaml").write_text("memory:\n  provider: gbrain\n")
        digest = build_digest(open_brain(settings, scope="read"), hermes_home=home)
        write_digest(home, digest)  # what `hermes-gbrain digest` (or its cron job) does
        print(f"digest built ({len(digest.line)} chars) into gbrain/digest.json", file=out)
        previous = os.environ.get("HERMES_HOME")
        os.environ["HERMES_HOME"] = str(home)
        try:
            print("\nFive turns through Hermes' MemoryManager with the gbrain provider:", file=out)
            _drive(home, out)
        except (GBrainError, ImportError) as exc:
            print(f"demo failed: {type(exc).__name__}: {one_line(str(exc))}", file=out)
            return 1
        finally:
            if previous is None:
                os.environ.pop("HERMES_HOME", None)
            else:
                os.environ["HERMES_HOME"] = previous
        pairs = {pair_query(user) for user in DEMO_TURNS}
        queries = [
            str((r.arguments or {}).get("query"))
            for r in emu.requests
            if r.tool in ("search", "query")
        ]
        paired = sum(1 for q in queries if q in pairs)
        print(
            f"\nsearches sent: {len(queries) - paired} for the messages (one per real turn, "
            "the first shared by the briefing and the pointers; none for the trivial one) "
            f"and {paired} for their word pairs (a keyword-only brain); "
            f"token requests: {emu.token_requests} (one mint, reused)",
            file=out,
        )
    return 0
