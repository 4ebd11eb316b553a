"""Our client's overhead over a bare keep-alive httpx POST, measured in one run.

N sequential searches against the bundled emulator, interleaved: one through
``GBrain.search`` (hardened transport, auth cache, SSE parse, row filtering), one as a
bare ``httpx.Client.post`` of the same JSON-RPC body with the same token. Prints both
medians and their ratio. Target: ratio <= 1.15 (``--check``: exit 1 when missed).

    .venv/bin/python bench/transport_overhead.py [--n 500] [--check]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time

import httpx

from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.settings import load_settings
from targets import Targets, add_check_flag

QUERY = "hybrid search"
ARGS = {"query": QUERY, "limit": 5, "snippet_chars": 1}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500, help="searches per client (default 500)")
    add_check_flag(parser)
    args = parser.parse_args()
    n = args.n

    with tempfile.TemporaryDirectory() as home, Emulator() as emu:
        env = emu.client_env("bench", scopes="read")
        brain = open_brain(load_settings(env.get, hermes_home=home), scope="read")
        token = emu.mint_token(
            env["GBRAIN_MCP_CLIENT_ID"], env["GBRAIN_MCP_CLIENT_SECRET"], scope="read"
        )
        body = json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "tools/call",
                "params": {"name": "search", "arguments": ARGS},
            }
        ).encode()
        headers = {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        bare = httpx.Client(trust_env=False)
        # Warm both paths: token mint, tools/list, connection set-up.
        for _ in range(20):
            brain.search(QUERY, limit=5, snippet_chars=1, lean=False)
            bare.post(emu.mcp_url, content=body, headers=headers).read()

        ours: list[float] = []
        base: list[float] = []
        for _ in range(n):
            t0 = time.perf_counter()
            rows = brain.search(QUERY, limit=5, snippet_chars=1, lean=False).rows
            t1 = time.perf_counter()
            response = bare.post(emu.mcp_url, content=body, headers=headers)
            response.read()
            t2 = time.perf_counter()
            assert rows and response.status_code == 200
            ours.append(t1 - t0)
            base.append(t2 - t1)
        bare.close()

    med_ours = statistics.median(ours)
    med_base = statistics.median(base)
    print(f"searches per client:        {n}")
    print(f"bare httpx keep-alive POST: median {med_base * 1000:.3f} ms")
    print(f"hermes-gbrain GBrain.search: median {med_ours * 1000:.3f} ms")
    targets = Targets()
    ratio = med_ours / med_base
    targets.record("overhead ratio (ours/bare)", f"{ratio:.3f}", "<= 1.15", ratio <= 1.15)
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
