"""``hermes-gbrain emulator``: run the emulator in the foreground and print credentials.

Port: 3131 by default, the port of the default ``GBRAIN_MCP_URL``, so a profile with no
URL set finds it; when 3131 is taken, any free port (the printed URL says which).

Credentials: a read client, and with ``--write-client`` a read+write client too. With
``--data DIR`` they are kept in ``DIR/clients.env`` (owner-only) and reused on the next
start while the brain still accepts them, so restarts print the same lines instead of
piling up new clients. ``--env-file PATH`` writes lines a profile's ``.env`` can take as
they are (see ``profile_lines``).
"""

from __future__ import annotations

import argparse
import errno
import signal
import socket
import sys
import threading
from pathlib import Path
from types import FrameType

from hermes_gbrain.emulator import generated_brain
from hermes_gbrain.emulator.app import Emulator
from hermes_gbrain.files import write_atomic
from hermes_gbrain.settings import read_dotenv

__all__ = ["CLIENTS_FILE", "DEFAULT_PORT", "choose_port", "listen", "profile_lines", "run"]

DEFAULT_PORT = 3131
CLIENTS_FILE = "clients.env"
_READ = ("GBRAIN_MCP_CLIENT_ID", "GBRAIN_MCP_CLIENT_SECRET")
_WRITE = ("GBRAIN_MCP_WRITE_CLIENT_ID", "GBRAIN_MCP_WRITE_CLIENT_SECRET")


def _brain(value: str) -> str:
    if value in ("sample", "large") or generated_brain.size_of(value) is not None:
        return value
    raise argparse.ArgumentTypeError(
        f"choose sample, large or generated:N (1-{generated_brain.MAX_PAGES}), not {value!r}"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hermes-gbrain emulator",
        description="Serve a GBrain-compatible brain on loopback for demos and tests.",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=f"port to listen on (default {DEFAULT_PORT} when free, else any; 0 = any free)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument(
        "--data", metavar="DIR", help="keep the brain and its clients in DIR across restarts"
    )
    parser.add_argument(
        "--write-client", action="store_true", help="also register a read+write client"
    )
    parser.add_argument(
        "--env-file",
        metavar="PATH",
        help="also write ready-to-use profile lines to PATH (mode 0600)",
    )
    parser.add_argument(
        "--lean", action="store_true", help="act like newer GBrain (lean search rows)"
    )
    parser.add_argument(
        "--hybrid",
        action="store_true",
        help="search with a vector arm too, like GBrain with an embedding provider",
    )
    parser.add_argument(
        "--strict-params",
        choices=("ignore", "warn", "reject"),
        default="warn",
        help="what to do with undeclared tool arguments (default warn)",
    )
    parser.add_argument("--no-seed", action="store_true", help="start with an empty brain")
    parser.add_argument(
        "--distance-ms",
        type=_milliseconds,
        default=0,
        metavar="N",
        help="put the brain N ms away: every request waits N ms, each new connection once more",
    )
    parser.add_argument(
        "--brain",
        type=_brain,
        default="sample",
        help="seeded brain: sample (31 pages, default), large (~300-page benchmark brain) or "
        "generated:N (N synthetic pages, for scale benchmarks)",
    )
    return parser


def _milliseconds(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if not 0 <= number <= 10_000:
        raise argparse.ArgumentTypeError(f"a whole number of milliseconds, 0-10000, not {value!r}")
    return number


def _port_free(host: str, port: int) -> bool:
    """Whether the server could bind ``port`` now. The probe binds as the server does,
    with ``SO_REUSEADDR`` (``server.py``: ``allow_reuse_address``), so a port whose
    last connections are still in TIME_WAIT after a restart counts as free."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


def choose_port(host: str, requested: int | None, default: int = DEFAULT_PORT) -> int:
    """``requested`` when given; else ``default`` when free; else 0 (any free port)."""
    if requested is not None:
        return requested
    return default if _port_free(host, default) else 0


def listen(emulator: Emulator, *, any_port_instead: bool) -> None:
    """Start serving. The default port can be free when probed and taken a moment later,
    when another emulator starts at the same time (two profiles set up at once): then, if
    ``any_port_instead``, any free port, as when it was taken at the probe."""
    try:
        emulator.start()
    except OSError as exc:
        if not any_port_instead or exc.errno != errno.EADDRINUSE:
            raise
        print(f"port {emulator.port} was taken meanwhile; using a free port", file=sys.stderr)
        emulator.port = 0
        emulator.start()


def _works(emulator: Emulator, values: dict[str, str], names: tuple[str, str]) -> bool:
    client_id, secret = values.get(names[0]), values.get(names[1])
    if not client_id or not secret:
        return False
    try:
        emulator.mint_token(client_id, secret)
    except ValueError:
        return False
    return True


def _credentials(emulator: Emulator, data: str | None, write: bool) -> dict[str, str]:
    """The read (and write) pair: reused from ``DIR/clients.env`` when still valid."""
    kept = read_dotenv(Path(data) / CLIENTS_FILE) if data else {}
    values: dict[str, str] = {"GBRAIN_MCP_URL": emulator.mcp_url}
    if _works(emulator, kept, _READ):
        values.update({name: kept[name] for name in _READ})
    else:
        reader = emulator.register_client("emulator-reader", "read")
        values.update(dict(zip(_READ, reader, strict=True)))
    if write:
        if _works(emulator, kept, _WRITE):
            values.update({name: kept[name] for name in _WRITE})
        else:
            writer = emulator.register_client("emulator-writer", "read write")
            values.update(dict(zip(_WRITE, writer, strict=True)))
    elif _works(emulator, kept, _WRITE):  # keep an earlier write pair on file
        values.update({name: kept[name] for name in _WRITE})
    if data:
        stored = "".join(f"{k}={v}\n" for k, v in values.items() if k != "GBRAIN_MCP_URL")
        write_atomic(Path(data) / CLIENTS_FILE, stored)
    return values


def profile_lines(values: dict[str, str], write: bool) -> str:
    """What a profile's ``.env`` needs, under the names the profile reads.

    With a write client, its pair becomes ``GBRAIN_MCP_CLIENT_ID``/``_SECRET`` (a
    read+write client reads too) with ``GBRAIN_TOOLS=write``; the read pair is kept
    as a commented alternative.
    """
    url = f"GBRAIN_MCP_URL={values['GBRAIN_MCP_URL']}\n"
    read_pair = f"{_READ[0]}={values[_READ[0]]}\n{_READ[1]}={values[_READ[1]]}\n"
    if not write:
        return url + read_pair
    write_pair = f"{_READ[0]}={values[_WRITE[0]]}\n{_READ[1]}={values[_WRITE[1]]}\n"
    commented = "".join("# " + line + "\n" for line in read_pair.splitlines())
    return (
        url
        + "# the read+write client (it reads too); GBRAIN_TOOLS=write lets the model write\n"
        + write_pair
        + "GBRAIN_TOOLS=write\n"
        + "# or the read-only client instead:\n"
        + commented
    )


def run(argv: list[str] | None = None) -> int:
    """Start, print ``GBRAIN_MCP_*`` lines, serve until SIGINT/SIGTERM, return 0."""
    args = _parser().parse_args(argv)
    port = choose_port(args.host, args.port)
    if args.port is None and port == 0:
        print(f"port {DEFAULT_PORT} is taken; using a free port", file=sys.stderr)
    emulator = Emulator(
        data_dir=args.data,
        strict_params=args.strict_params,
        lean=args.lean,
        hybrid=args.hybrid,
        seed=not args.no_seed,
        port=port,
        host=args.host,
        brain=args.brain,
    )
    emulator.knobs.distance_s = args.distance_ms / 1000.0
    done = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        done.set()

    previous = {
        sig: signal.signal(sig, _stop)
        for sig in (signal.SIGINT, signal.SIGTERM)
        if threading.current_thread() is threading.main_thread()
    }
    try:
        try:
            listen(emulator, any_port_instead=args.port is None and port == DEFAULT_PORT)
        except OSError as exc:
            print(
                f"hermes-gbrain emulator: cannot listen on {args.host}:{port} ({exc.strerror})",
                file=sys.stderr,
            )
            return 1
        values = _credentials(emulator, args.data, args.write_client)
        if args.env_file:
            write_atomic(Path(args.env_file).expanduser(), profile_lines(values, args.write_client))
        shown = [k for k in ("GBRAIN_MCP_URL", *_READ) if k in values]
        if args.write_client:
            shown += list(_WRITE)
        sys.stdout.write("".join(f"{k}={values[k]}\n" for k in shown))
        sys.stdout.flush()
        if args.write_client and not args.env_file:
            print(
                "a profile reads the write pair as GBRAIN_MCP_CLIENT_ID/GBRAIN_MCP_CLIENT_SECRET "
                "(with GBRAIN_TOOLS=write); --env-file PATH writes those lines for you",
                file=sys.stderr,
            )
        while not done.wait(0.5):
            pass
    finally:
        emulator.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
