"""``hermes-gbrain``: the one command-line entry point.

Commands read settings the way the provider does: the process environment first,
then the profile's ``.env`` under ``--hermes-home`` (default ``$HERMES_HOME``, else
``~/.hermes``). Errors print one line (never a secret) and exit non-zero; ``--debug`` adds the
traceback.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from .. import __version__
from ..advice import explain
from ..errors import ConfigError, GBrainError
from ..settings import (
    HOME_FIX,
    Settings,
    cli_lookup,
    default_hermes_home,
    home_problem,
    load_settings,
)

__all__ = ["main"]

_DEBUG = "on failure, print the full traceback (it may show settings and server text)"
EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def _settings(args: argparse.Namespace) -> Settings:
    home = Path(args.hermes_home).expanduser() if args.hermes_home else default_hermes_home()
    return load_settings(cli_lookup(home), hermes_home=home)


SEARCH_MAX_LIMIT = 50


def _search_limit(value: str) -> int:
    """``--limit``: a whole number from 1 to ``SEARCH_MAX_LIMIT``."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {value!r}") from None
    if not 1 <= number <= SEARCH_MAX_LIMIT:
        raise argparse.ArgumentTypeError(f"must be from 1 to {SEARCH_MAX_LIMIT}, not {number}")
    return number


def _cmd_search(args: argparse.Namespace) -> int:
    from ..connect import open_brain
    from ..errors import ToolError
    from ..text import one_line

    settings = _settings(args)
    brain = open_brain(settings, scope="read")
    try:
        result = brain.search(
            args.query,
            limit=args.limit,
            snippet_chars=1,
            source_id=args.source or settings.source,
        )
    except ToolError as exc:
        # The server's message and hint (e.g. "Readable sources: …") are its own text:
        # untrusted, so shown as one sanitised, capped line each.
        print(f"hermes-gbrain search: {exc}", file=sys.stderr)
        for text in (exc.detail, exc.hint):
            line = one_line(text, 200)
            if line:
                print(f"  server says: {line}", file=sys.stderr)
        return EXIT_FAILED
    if not result.rows:
        print("no results")
        return EXIT_OK
    for row in result.rows:
        score = "" if row.score is None else f"{row.score:6.3f}  "
        print(f"{score}[{row.source_id}:{row.slug}] {one_line(row.title)}")
    return EXIT_OK


def _cmd_emulator(args: argparse.Namespace) -> int:
    from ..emulator.cli import run

    return run(args.emulator_args)


def _cmd_install(args: argparse.Namespace) -> int:
    from .install import install, uninstall

    home = Path(args.hermes_home).expanduser() if args.hermes_home else default_hermes_home()
    if args.uninstall:
        result = uninstall(args.name, home)
        print(f"removed {len(result.changed)} file(s) from {result.directory}")
        return EXIT_OK
    result = install(args.name, home)
    state = "written" if result.changed else "already up to date"
    print(f"{result.directory}: {state}")
    if args.name == "gbrain-hook":
        print(f"enable it with: hermes plugins enable {args.name}")
    else:
        print(f"select it with: hermes config set memory.provider {args.name}")
    return EXIT_OK


def _cmd_digest(args: argparse.Namespace) -> int:
    from .digest import run

    return run(args)


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(out=sys.stdout)


def _home(args: argparse.Namespace) -> Path:
    return Path(args.hermes_home).expanduser() if args.hermes_home else default_hermes_home()


def _cmd_doctor(args: argparse.Namespace) -> int:
    from .doctor import run_doctor

    return run_doctor(_home(args), sys.stdout, as_json=args.json)


def _cmd_setup(args: argparse.Namespace) -> int:
    from .setup import run_setup

    return run_setup(args, _home(args))


def _cmd_status(args: argparse.Namespace) -> int:
    from .status import run_status

    return run_status(_home(args), sys.stdout, last_turn=args.last_turn)


def _cmd_grant_help(args: argparse.Namespace) -> int:
    from .grant_help import run_grant_help

    return run_grant_help(_home(args), sys.stdout, url=args.url)


def _cmd_import_memory(args: argparse.Namespace) -> int:
    from .import_memory import run

    return run(args)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hermes-gbrain",
        description="GBrain as the long-term memory of Hermes Agent.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument("--debug", action="store_true", help=_DEBUG)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(
        name: str, help_text: str, handler: Callable[[argparse.Namespace], int]
    ) -> argparse.ArgumentParser:
        cmd = sub.add_parser(name, help=help_text, description=help_text)
        cmd.set_defaults(handler=handler)
        cmd.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG)
        return cmd

    search = add("search", "Search the brain with this profile's settings.", _cmd_search)
    search.add_argument("query", help="what to search for")
    search.add_argument(
        "--limit",
        type=_search_limit,
        default=5,
        help=f"rows to show, 1-{SEARCH_MAX_LIMIT} (default 5)",
    )
    search.add_argument("--source", help="only this GBrain source id")
    search.add_argument(
        "--hermes-home", help="profile directory (default $HERMES_HOME, else ~/.hermes)"
    )

    emulator = add(
        "emulator",
        "Run the bundled GBrain-compatible server (see `hermes-gbrain emulator --help`).",
        _cmd_emulator,
    )
    emulator.add_argument("emulator_args", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)

    inst = add("install", "Install the Hermes memory provider shim into a profile.", _cmd_install)
    inst.add_argument(
        "--name",
        choices=("gbrain", "gbrain-pointer", "gbrain-hook"),
        default="gbrain",
        help="provider name (gbrain-pointer: the read-only pointer preset; "
        "gbrain-hook: the briefing hook beside another memory provider)",
    )
    inst.add_argument(
        "--hermes-home", help="profile directory (default $HERMES_HOME, else ~/.hermes)"
    )
    inst.add_argument("--uninstall", action="store_true", help="remove only what install wrote")

    add("demo", "Run the demo against the bundled emulator and sample brain.", _cmd_demo)
    home_help = "profile directory (default $HERMES_HOME, else ~/.hermes)"
    doctor = add(
        "doctor",
        "Check every link from the profile to the brain; each problem comes with its fix.",
        _cmd_doctor,
    )
    doctor.add_argument("--hermes-home", help=home_help)
    doctor.add_argument("--json", action="store_true", help="print one JSON object")

    from .setup import add_arguments as setup_arguments

    setup_arguments(add("setup", "Take a Hermes profile from nothing to using GBrain.", _cmd_setup))
    status = add(
        "status",
        "One screen: layers on or off, memory health in Hermes, digest, search, outbox.",
        _cmd_status,
    )
    status.add_argument("--hermes-home", help=home_help)
    status.add_argument(
        "--last-turn",
        action="store_true",
        help="also show what reached the model on the last turn (titles and slugs only)",
    )
    grant = add(
        "grant-help",
        "How to create a GBrain client for this profile, and where its id and secret go.",
        _cmd_grant_help,
    )
    grant.add_argument("--hermes-home", help=home_help)
    grant.add_argument("--url", help="the GBrain MCP URL (default: the profile's)")
    from .digest import add_arguments as digest_arguments

    digest_help = "Build the brain digest (or schedule it, or send it to Mnemosyne)."
    digest_arguments(add("digest", digest_help, _cmd_digest))
    from .import_memory import add_arguments as import_arguments

    import_help = "Remember each entry of the profile's MEMORY.md and USER.md in GBrain, once."
    import_arguments(add("import-memory", import_help, _cmd_import_memory))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; return its exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["emulator"]:
        # The emulator owns its flags (including --help); hand them over untouched.
        from ..emulator.cli import run

        return run(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    if hasattr(args, "hermes_home"):
        problem = home_problem(_home(args))
        if problem:
            print(f"hermes-gbrain {args.command}: {problem}; {HOME_FIX}", file=sys.stderr)
            return EXIT_FAILED
    try:
        return handler(args)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if args.debug:
            traceback.print_exc()
        print(f"hermes-gbrain {args.command}: {_explained(exc, args)}", file=sys.stderr)
        return EXIT_FAILED


def _explained(exc: BaseException, args: argparse.Namespace) -> str:
    """A failure talking to the profile's brain, or a setting it cannot use, names the
    URL or setting and the fix (``advice``); setup's own refusals and anything else are
    one line as ``_one_line_error`` makes it."""
    plain = isinstance(exc, ConfigError) and (args.command == "setup" or "fix" in str(exc))
    if isinstance(exc, GBrainError) and not plain:
        try:
            settings = _settings(args) if hasattr(args, "hermes_home") else None
        except Exception:
            settings = None
        if settings is not None:
            found = explain(exc, settings)
            return " ".join(f"{found.what}; fix: {found.fix}".split())
    return _one_line_error(exc)


def _one_line_error(exc: BaseException) -> str:
    """Our own errors say what failed and never carry a secret; any other error is
    named by class only, since its text may quote a token or a setting."""
    if isinstance(exc, GBrainError):
        return " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, OSError) and exc.strerror:
        return f"{exc.strerror} ({type(exc).__name__})"
    return f"unexpected {type(exc).__name__} (run with --debug for the traceback)"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
