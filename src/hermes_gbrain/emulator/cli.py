"""``hermes-gbrain emulator``: run the emulator in the foreground and print credentials."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType

from hermes_gbrain.emulator.app import Emulator


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hermes-gbrain emulator",
        description="Serve a GBrain-compatible brain on loopback for demos and tests.",
    )
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0 = any free)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--data", metavar="DIR", help="keep the brain and clients in DIR")
    parser.add_argument(
        "--write-client", action="store_true", help="also register a read+write client"
    )
    parser.add_argument(
        "--lean", action="store_true", help="act like newer GBrain (lean search rows)"
    )
    parser.add_argument(
        "--strict-params",
        choices=("ignore", "warn", "reject"),
        default="warn",
        help="what to do with undeclared tool arguments",
    )
    parser.add_argument("--no-seed", action="store_true", help="start with an empty brain")
    parser.add_argument(
        "--brain",
        choices=("sample", "large"),
        default="sample",
        help="seeded brain: the 31-page sample (default) or the ~300-page benchmark brain",
    )
    return parser


def run(argv: list[str] | None = None) -> int:
    """Start, print ``GBRAIN_MCP_*`` lines, serve until SIGINT/SIGTERM, return 0."""
    args = _parser().parse_args(argv)
    emulator = Emulator(
        data_dir=args.data,
        strict_params=args.strict_params,
        lean=args.lean,
        seed=not args.no_seed,
        port=args.port,
        host=args.host,
        brain=args.brain,
    )
    done = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        done.set()

    previous = {
        sig: signal.signal(sig, _stop)
        for sig in (signal.SIGINT, signal.SIGTERM)
        if threading.current_thread() is threading.main_thread()
    }
    try:
        emulator.start()
        suffix = emulator.port
        reader = emulator.client_env(f"emulator-reader-{suffix}", "read")
        lines = [f"{name}={value}" for name, value in reader.items()]
        if args.write_client:
            write_id, write_secret = emulator.register_client(
                f"emulator-writer-{suffix}", "read write"
            )
            lines += [
                f"GBRAIN_MCP_WRITE_CLIENT_ID={write_id}",
                f"GBRAIN_MCP_WRITE_CLIENT_SECRET={write_secret}",
            ]
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        while not done.wait(0.5):
            pass
    finally:
        emulator.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
