"""Tokens of tool schemas offered per session: compact vs EXPOSE=all vs the server's tools/list.

Counts the JSON of the ``tools`` array a model request would carry
(``[{"type": "function", "function": schema}, …]``). Tokens are estimated at 4
characters per token (the usual rule of thumb for English and JSON with OpenAI-style
tokenizers): no tokenizer with bundled vocabularies ships with Hermes, and this
benchmark never downloads one. The server is the bundled emulator (admin client,
so its whole catalog), or a recorded ``tools/list`` JSON array given with
``--tools-list FILE`` (for example GBrain 0.46.28's 115-tool admin list).

"Reachable" counts server tools the model can call: every tool, in all three
modes, because ``gbrain_call`` reaches anything ``gbrain_tools`` lists.

Run: ``python bench/tool_schemas.py [--tools-list FILE]``. Target: compact <= 1,000
tokens with 100% of the server's tools reachable.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.mcp import ToolCatalog, ToolSpec
from hermes_gbrain.settings import Settings
from hermes_gbrain.toolbridge.schemas import offered_schemas

CHARS_PER_TOKEN = 4
TARGET_TOKENS = 1_000


def tokens(schemas: list[dict[str, Any]]) -> int:
    wire = [{"type": "function", "function": s} for s in schemas]
    text = json.dumps(wire, ensure_ascii=False, separators=(",", ":"))
    return -(-len(text) // CHARS_PER_TOKEN)


def direct(specs: list[ToolSpec]) -> list[dict[str, Any]]:
    """The server's tools as a direct MCP integration would hand them to the model."""
    return [
        {"name": s.name, "description": s.description, "parameters": dict(s.input_schema)}
        for s in specs
    ]


def emulator_specs() -> tuple[str, list[ToolSpec]]:
    with tempfile.TemporaryDirectory() as home, Emulator() as emu:
        client_id, secret = emu.register_client("bench-admin", scopes="admin")
        settings = Settings(
            hermes_home=home,
            mcp_url=emu.mcp_url,
            client_id=client_id,
            client_secret=secret,
            allow_http=True,
        )
        catalog = open_brain(settings, scope=None).catalog(refresh=True)
        return "emulator (admin)", list(catalog.tools.values())


def recorded_specs(path: Path) -> tuple[str, list[ToolSpec]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    catalog = ToolCatalog.parse({"tools": data})
    return f"recorded {path.name}", list(catalog.tools.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools-list", type=Path, help="a recorded tools/list JSON array")
    args = parser.parse_args(argv)
    label, specs = recorded_specs(args.tools_list) if args.tools_list else emulator_specs()
    total = len(specs)
    full = tokens(direct(specs))
    rows = [
        ("compact, read", offered_schemas(mode="read", expose="compact", tools=specs)),
        ("compact, write", offered_schemas(mode="write", expose="compact", tools=specs)),
        ("EXPOSE=all, write", offered_schemas(mode="write", expose="all", tools=specs)),
    ]
    print(f"server: {label}, {total} tools; tokens ~ chars/{CHARS_PER_TOKEN}")
    print(f"{'mode':<20}{'schemas':>8}{'tokens':>8}{'vs full':>9}{'reachable':>12}")
    compact_tokens = 0
    for name, schemas in rows:
        count = tokens(schemas)
        if name == "compact, write":
            compact_tokens = count
        print(f"{name:<20}{len(schemas):>8}{count:>8}{count / full:>8.1%} {total:>5}/{total} 100%")
    print(f"{'server tools/list':<20}{total:>8}{full:>8}{1:>8.1%} {total:>5}/{total} 100%")
    ok = compact_tokens <= TARGET_TOKENS
    print(
        f"compact (write) is {full / compact_tokens:.1f}x smaller than the full list; "
        f"target <= {TARGET_TOKENS} tokens: {'met' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
