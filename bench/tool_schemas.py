"""Tokens of tool schemas offered per session: compact vs EXPOSE=all vs the server's tools/list.

Counts the JSON of the ``tools`` array a model request would carry
(``[{"type": "function", "function": schema}, …]``). Tokens are estimated at 4
characters per token (the usual rule of thumb for English and JSON with OpenAI-style
tokenizers): no tokenizer with bundled vocabularies ships with Hermes, and this
benchmark never downloads one. The server is the bundled emulator (admin client,
so its whole catalog), or a recorded ``tools/list`` JSON array given with
``--tools-list FILE`` (for example GBrain 0.46.28's 115-tool admin list).

"Reachable" is measured, not assumed: for each server tool, the real ``ToolBridge``
of that mode is driven the way a model would (its own ``gbrain_<name>`` schema if
offered, else ``gbrain_call``) with minimal arguments built from the tool's schema,
against a recording fake server; the tool counts when the bridge sent its
``tools/call`` or answered that the arguments need fixing (it would send once they
are valid). A destructive tool is previewed, then confirmed with the token the preview
returned, as a model would. ``put_page`` and ``delete_page`` count when their queued
and two-step compact tools are offered. Tools the mode refuses are unreachable by
design: writes in ``read`` mode, administrative tools outside ``admin`` mode.

Run: ``python bench/tool_schemas.py [--tools-list FILE] [--check]``. Targets: compact
(write) <= 1,000 tokens; every tool the mode allows reachable (read: the read tools;
write: read and write tools; admin: all).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from hermes_gbrain.api import GBrain
from hermes_gbrain.auth import StaticToken
from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.mcp import MCPClient, ToolCatalog, ToolSpec, clear_catalog_cache
from hermes_gbrain.settings import Settings
from hermes_gbrain.toolbridge.bridge import ToolBridge
from hermes_gbrain.toolbridge.discovery import Discovery
from hermes_gbrain.toolbridge.schemas import (
    KNOWN_READ_TOOLS,
    exposed_name,
    offered_schemas,
    tool_class,
)
from hermes_gbrain.toolbridge.session import write_gate
from hermes_gbrain.transport import Transport
from targets import Targets, add_check_flag

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


def sample(schema: Any) -> Any:
    """A minimal value of the schema's declared type (first enum value, minimum size)."""
    if not isinstance(schema, dict):
        return "x"
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return enum[0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    if kind in ("integer", "number"):
        low = schema.get("minimum")
        return low if isinstance(low, int | float) and not isinstance(low, bool) else 1
    if kind == "boolean":
        return False
    if kind == "array":
        return [sample(schema.get("items"))] * int(schema.get("minItems") or 0)
    if kind == "object":
        return arguments(schema)
    return "x" * max(1, int(schema.get("minLength") or 1))


def arguments(schema: Any) -> dict[str, Any]:
    props = schema.get("properties") if isinstance(schema, dict) else None
    required = schema.get("required") if isinstance(schema, dict) else None
    if not isinstance(props, dict) or not isinstance(required, list):
        return {}
    return {name: sample(props.get(name)) for name in required if isinstance(name, str)}


class Recorder:
    """A fake GBrain that lists ``specs`` and records every tool call it is sent."""

    def __init__(self, specs: list[ToolSpec]) -> None:
        self.tools = [
            {"name": s.name, "description": s.description, "inputSchema": dict(s.input_schema)}
            for s in specs
        ]
        self.called: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        message = json.loads(request.read())
        if "id" not in message:
            return httpx.Response(202)
        result: dict[str, Any] = {}
        if message.get("method") == "tools/list":
            result = {"tools": self.tools}
        elif message.get("method") == "tools/call":
            self.called.append(message["params"]["name"])
            result = {"content": [{"type": "text", "text": "{}"}]}
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        body = f"event: message\ndata: {json.dumps(reply)}\n\n".encode()
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)


def reachable(specs: list[ToolSpec], mode: str, expose: str, home: str) -> int:
    """How many server tools this mode's real bridge actually sends (see the docstring)."""
    clear_catalog_cache()
    offered = {s["name"] for s in offered_schemas(mode=mode, expose=expose, tools=specs)}
    recorder = Recorder(specs)
    transport = Transport(transport=httpx.MockTransport(recorder))
    brain = GBrain(
        MCPClient(url="http://bench.test/mcp", credential=StaticToken("b"), transport=transport)
    )
    settings = Settings(hermes_home=home, access_token="b", tools=mode, tools_expose=expose)
    bridge = ToolBridge(
        settings=settings,
        gate=write_gate(mode, "primary", "cli"),
        brain=lambda write: brain,
        discovery=Discovery(key="", tools=tuple(specs), scopes=("read", "write", "admin")),
    )
    count = 0
    for spec in specs:
        if spec.name in ("put_page", "delete_page"):
            count += exposed_name(spec.name) in offered
            continue
        args = arguments(spec.input_schema)
        if exposed_name(spec.name) in offered:
            answer = bridge.handle(exposed_name(spec.name), args)
        elif "gbrain_call" in offered:
            call = {"tool": spec.name, "arguments": args}
            answer = bridge.handle("gbrain_call", call)
            token = json.loads(answer).get("confirm")
            if isinstance(token, str):  # a destructive tool's preview: confirm it
                answer = bridge.handle("gbrain_call", {**call, "confirm": token})
        else:
            continue
        fixable = f"invalid arguments for {spec.name}" in answer
        count += spec.name in recorder.called or fixable
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools-list", type=Path, help="a recorded tools/list JSON array")
    add_check_flag(parser)
    args = parser.parse_args(argv)
    label, specs = recorded_specs(args.tools_list) if args.tools_list else emulator_specs()
    total = len(specs)
    reads = sum(1 for s in specs if s.name in KNOWN_READ_TOOLS)
    writes = reads + sum(1 for s in specs if tool_class(s.name) == "write")
    full = tokens(direct(specs))
    rows = [
        ("compact, read", "read", "compact", reads),
        ("compact, write", "write", "compact", writes),
        ("compact, admin", "admin", "compact", total),
        ("EXPOSE=all, write", "write", "all", writes),
    ]
    targets = Targets()
    print(f"server: {label}, {total} tools ({reads} read); tokens ~ chars/{CHARS_PER_TOKEN}")
    print(f"{'mode':<20}{'schemas':>8}{'tokens':>8}{'vs full':>9}{'reachable':>16}")
    compact_tokens = 0
    measured: list[tuple[str, int, int]] = []
    with tempfile.TemporaryDirectory() as home:
        for name, mode, expose, allowed in rows:
            schemas = offered_schemas(mode=mode, expose=expose, tools=specs)
            count = tokens(schemas)
            if name == "compact, write":
                compact_tokens = count
            got = reachable(specs, mode, expose, home)
            measured.append((name, got, allowed))
            share = got / total if total else 1.0
            print(
                f"{name:<20}{len(schemas):>8}{count:>8}{count / full:>8.1%} "
                f"{got:>6}/{total} {share:>5.0%}"
            )
    print(f"{'server tools/list':<20}{total:>8}{full:>8}{1:>8.1%}")
    targets.record(
        "compact (write) tokens",
        f"{compact_tokens} ({full / compact_tokens:.1f}x smaller than the full list)",
        f"<= {TARGET_TOKENS}",
        compact_tokens <= TARGET_TOKENS,
    )
    for name, got, allowed in measured:
        targets.record(f"reachable, {name}", f"{got}/{total}", f"{allowed}", got >= allowed)
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
