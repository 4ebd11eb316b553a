"""``hermes-gbrain demo``: the whole client stack against the bundled emulator.

It starts the emulator on a free loopback port with its sample brain, registers a
read-only OAuth client, mints a token through ``/token`` like a real install would,
and runs a few searches, printing the rows the recall layers would work from.
"""

from __future__ import annotations

import tempfile
from typing import TextIO

from .connect import open_brain
from .emulator import Emulator
from .errors import GBrainError
from .settings import load_settings
from .text import one_line

__all__ = ["DEMO_QUERIES", "run_demo"]

DEMO_QUERIES = (
    "Who leads the search rewrite?",
    "hybrid search",
    "what's the weather like today",
)


def _table(rows: list[tuple[str, str, str, str]], out: TextIO) -> None:
    headers = ("score", "source:slug", "type", "title")
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True))
    print(line, file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)), file=out)


def run_demo(out: TextIO) -> int:
    """Run the demo, writing to ``out``; returns an exit status."""
    with tempfile.TemporaryDirectory(prefix="hermes-gbrain-demo-") as home, Emulator() as emu:
        client_id, secret = emu.register_client("demo-reader", scopes="read")
        env = {
            "GBRAIN_MCP_URL": emu.mcp_url,
            "GBRAIN_MCP_CLIENT_ID": client_id,
            "GBRAIN_MCP_CLIENT_SECRET": secret,
        }
        settings = load_settings(env.get, hermes_home=home)
        print(f"GBrain emulator with its sample brain at {emu.mcp_url}", file=out)
        print(f"settings: {settings!r}", file=out)
        try:
            brain = open_brain(settings, scope="read")
            identity = brain.get_brain_identity()
            print(
                f"brain: {identity.get('page_count')} pages, "
                f"{identity.get('chunk_count')} chunks, engine {identity.get('engine')}",
                file=out,
            )
            for query in DEMO_QUERIES:
                result = brain.search(query, limit=5, snippet_chars=1)
                print(f"\nsearch: {query!r}", file=out)
                if not result.rows:
                    print("  (no rows: nothing in the brain looks relevant)", file=out)
                    continue
                rows = [
                    (
                        "" if r.score is None else f"{r.score:.3f}",
                        f"{r.source_id}:{r.slug}",
                        r.type or "",
                        one_line(r.title, 60),
                    )
                    for r in result.rows
                ]
                _table(rows, out)
        except GBrainError as exc:
            print(f"demo failed: {exc}", file=out)
            return 1
        print(f"\ntoken requests made: {emu.token_requests} (one mint, reused)", file=out)
    return 0
