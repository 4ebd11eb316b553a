"""A GBrain-compatible MCP HTTP server for tests, benchmarks and ``hermes-gbrain demo``.

Stdlib only, but for ``snowballstemmer`` (Postgres' English stemmer, for the lexical arms)
and ``pyyaml`` (frontmatter read as GBrain's js-yaml reads it). It reproduces GBrain
0.46.28's wire behaviour (OAuth ``/token``, stateless ``/mcp`` with SSE replies, scopes, tool
result envelopes, search row fields) over an SQLite page store, and adds fault knobs so
client code can be tested against every failure it must survive::

    with Emulator() as emu:
        client_id, secret = emu.register_client("reader")
        emu.knobs.latency_s = 0.2
        ...
"""

from hermes_gbrain.emulator.app import Emulator
from hermes_gbrain.emulator.faults import Knobs, RecordedRequest

__all__ = ["Emulator", "Knobs", "RecordedRequest"]
