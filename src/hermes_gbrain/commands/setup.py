"""``hermes-gbrain setup``: take a Hermes profile from nothing to using GBrain.

Steps, each harmless to repeat: find the connection (flags, else ``GBRAIN_MCP_*`` in
the environment, else the profile's ``.env``, else ask), check it against the server
before anything is written, write the profile's ``.env`` (mode 0600, other lines
kept), install the plugin folder, select it through Hermes' own config code
(``memory.provider``, or the hook plugin beside another provider), build the digest,
offer the cron job that refreshes it, and end with ``doctor``.

``--emulator`` wires the profile to a local emulator for trying things out: the one
it started earlier for this profile (data in ``$HERMES_HOME/gbrain/emulator/``) when
that still answers, else a new one started in the background (port 3131 when free)
that keeps serving after setup returns; its process id is in ``emulator.pid`` there.
"""

from __future__ import annotations

import argparse
import contextlib
import getpass
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO

from ..advice import explain
from ..connect import open_brain
from ..errors import (
    AuthError,
    ConfigError,
    DeadlineError,
    GBrainError,
    TransportError,
)
from ..files import data_dir, write_atomic
from ..settings import (
    DEFAULT_MCP_URL,
    MAX_DOTENV_BYTES,
    TOOL_MODES,
    Settings,
    cli_lookup,
    default_hermes_home,
    flag_on,
    load_settings,
    read_dotenv,
)
from ..urls import shown_url

__all__ = [
    "CONNECTION_KEYS",
    "EMULATOR_DIR",
    "add_arguments",
    "emulator_connection",
    "run_setup",
    "update_dotenv",
]

CONNECTION_KEYS = (
    "GBRAIN_MCP_URL",
    "GBRAIN_MCP_CLIENT_ID",
    "GBRAIN_MCP_CLIENT_SECRET",
    "GBRAIN_MCP_ACCESS_TOKEN",
)
EMULATOR_DIR = "emulator"
EMULATOR_ENV = "profile.env"
EMULATOR_PID = "emulator.pid"
EMULATOR_START_S = 20.0
EMULATOR_STOP_S = 5.0
_KEY_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=")
_SAFE_VALUE = re.compile(r"[^\s'\"#\\`$]+")


def add_arguments(cmd: argparse.ArgumentParser) -> None:
    """The ``setup`` command's flags."""
    cmd.add_argument(
        "--hermes-home", help="profile directory (default $HERMES_HOME, else ~/.hermes)"
    )
    cmd.add_argument("--url", help="the GBrain MCP URL, e.g. https://brain.example.com/mcp")
    cmd.add_argument("--client-id", help="OAuth client id (gbrain_cl_…)")
    cmd.add_argument(
        "--client-secret",
        help="OAuth client secret; prefer GBRAIN_MCP_CLIENT_SECRET in the environment "
        "or the prompt (a flag is visible to other users of this machine)",
    )
    cmd.add_argument(
        "--access-token", help="a static bearer instead of a client (GBRAIN_MCP_ACCESS_TOKEN)"
    )
    cmd.add_argument(
        "--emulator",
        action="store_true",
        help="wire the profile to a local emulator (started in the background if needed)",
    )
    cmd.add_argument(
        "--non-interactive",
        action="store_true",
        help="never ask: take everything from flags, the environment and the profile",
    )
    cmd.add_argument(
        "--mode",
        choices=("auto", "provider", "hook"),
        default="auto",
        help="provider: memory.provider gbrain; hook: the gbrain-hook plugin beside "
        "another provider; auto (default): provider unless another one is selected",
    )
    cmd.add_argument("--tools", choices=TOOL_MODES, help="set GBRAIN_TOOLS in the profile")
    cmd.add_argument(
        "--no-cron", action="store_true", help="do not install the digest refresh cron job"
    )
    cmd.add_argument(
        "--allow-http",
        action="store_true",
        help="accept plain http to a non-loopback host (sets GBRAIN_POINTER_ALLOW_HTTP=1)",
    )


# -- the profile's .env ---------------------------------------------------------------------


def update_dotenv(path: Path, values: Mapping[str, str], remove: tuple[str, ...] = ()) -> bool:
    """Set ``values`` and drop ``remove`` in a ``.env``, keeping every other line.

    A key set twice keeps its first line; new keys go at the end. The file is
    replaced atomically with mode 0600. Returns False when nothing changed.
    """
    for key, value in values.items():
        if not _SAFE_VALUE.fullmatch(value):
            raise ConfigError(f"{key} is empty or holds spaces, quotes or shell characters")
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raw = b""
    if len(raw) > MAX_DOTENV_BYTES:
        raise ConfigError(f"{path} is larger than 1 MiB; not touching it")
    try:
        old = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text; not touching it") from None
    lines: list[str] = []
    done: set[str] = set()
    for line in old.splitlines():
        match = _KEY_LINE.match(line)
        name = str(match.group(1)) if match else ""
        if name and (name in remove or (name in values and name in done)):
            continue
        if name in values:
            lines.append(f"{name}={values[name]}")
            done.add(name)
            continue
        lines.append(line)
    lines += [f"{key}={value}" for key, value in values.items() if key not in done]
    new = "\n".join(lines) + "\n"
    mode_ok = not path.exists() or (path.stat().st_mode & 0o777) == 0o600
    if new == old and mode_ok:
        return False
    write_atomic(path, new, mode=0o600)
    return True


# -- where the connection comes from --------------------------------------------------------


def _is_our_emulator(pid: int) -> bool:
    """Only a process whose command line runs our emulator is ever signalled: a pid
    on file may have been reused by something else since. Where ``/proc`` cannot
    say, the answer is no."""
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"hermes_gbrain.emulator" in cmdline


def _answers(values: Mapping[str, str], home: Path) -> bool:
    lookup: Callable[[str], str | None] = values.get
    settings = load_settings(lookup, hermes_home=home)
    if settings.problem():
        return False
    try:
        open_brain(settings, deadline_s=3.0).catalog(refresh=True)
    except GBrainError:
        return False
    return True


def emulator_connection(home: Path, *, write: bool, out: TextIO) -> dict[str, str]:
    """The connection to this profile's emulator, started in the background if needed."""
    folder = data_dir(home) / EMULATOR_DIR
    env_file = folder / EMULATOR_ENV
    pid_file = folder / EMULATOR_PID
    values = read_dotenv(env_file)
    has_write = values.get("GBRAIN_TOOLS") == "write"
    if values and (has_write or not write) and _answers(values, home):
        shown = shown_url(values["GBRAIN_MCP_URL"])
        print(f"emulator: using the one already serving at {shown}", file=out)
        return values
    if pid_file.is_file():  # ours, but not answering (or without a write client): replace it
        try:
            pid = int(pid_file.read_text().strip())
        except ValueError:
            pid = 0
        if pid > 0 and _is_our_emulator(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
            stopped_by = time.monotonic() + EMULATOR_STOP_S  # then its port is free again
            while _is_our_emulator(pid) and time.monotonic() < stopped_by:
                time.sleep(0.05)
    folder.mkdir(parents=True, exist_ok=True)
    env_file.unlink(missing_ok=True)
    # The same port as before when it is free, so the profile's URL stays; the brain and
    # its clients are in ``folder`` (``--data``), so the profile's credentials stay too.
    port = _port_of(values.get("GBRAIN_MCP_URL"))
    proc = _start_emulator(folder, write, port)
    if proc.poll() is not None and port is not None:  # that port is someone else's now
        proc = _start_emulator(folder, write, None)
    write_atomic(pid_file, f"{proc.pid}\n", mode=0o644)
    values = read_dotenv(env_file)
    shown = shown_url(values.get("GBRAIN_MCP_URL", ""))
    print(
        f"emulator: started at {shown} (pid {proc.pid}, data in "
        f"{folder}); stop it with `kill {proc.pid}`",
        file=out,
    )
    return values


def _port_of(url: str | None) -> int | None:
    from urllib.parse import urlsplit  # noqa: PLC0415

    try:
        return urlsplit(url).port if url else None
    except ValueError:
        return None


def _start_emulator(folder: Path, write: bool, port: int | None) -> subprocess.Popen[bytes]:
    """Start the profile's emulator in the background; returns once it wrote its lines
    (running) or exited (its port was taken: only when ``port`` was given)."""
    env_file = folder / EMULATOR_ENV
    command = [sys.executable, "-m", "hermes_gbrain.emulator", "--data", str(folder)]
    command += ["--env-file", str(env_file)] + (["--write-client"] if write else [])
    command += ["--port", str(port)] if port is not None else []
    with open(folder / "emulator.log", "ab") as log:
        proc = subprocess.Popen(  # noqa: S603 - this interpreter, fixed arguments
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,  # keeps serving after setup (and its terminal) ends
        )
    deadline = time.monotonic() + EMULATOR_START_S
    while not env_file.is_file():
        if proc.poll() is not None and port is not None:
            return proc
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise ConfigError(
                f"the emulator did not start; see {folder / 'emulator.log'}, then run "
                "`hermes-gbrain setup --emulator` again"
            )
        time.sleep(0.05)
    return proc


def _ask(prompt: str, default: str | None = None, *, secret: bool = False) -> str:
    shown = f"{prompt} [{default}]: " if default else f"{prompt}: "
    answer = (getpass.getpass(shown) if secret else input(shown)).strip()
    return answer or (default or "")


def _connection(args: argparse.Namespace, home: Path, interactive: bool) -> dict[str, str]:
    """URL and credential: flags, then the environment, then the profile, then asking."""
    env = os.environ
    profile = read_dotenv(home / ".env")

    def first(flag: str | None, name: str) -> str | None:
        for value in (flag, env.get(name), profile.get(name)):
            if value and value.strip():
                return value.strip()
        return None

    url = first(args.url, "GBRAIN_MCP_URL")
    if url is None and interactive:
        url = _ask("GBrain MCP URL", DEFAULT_MCP_URL)
    values = {"GBRAIN_MCP_URL": url or DEFAULT_MCP_URL}
    # The credential is one unit: the first source with a complete one wins.
    flags = {
        "GBRAIN_MCP_ACCESS_TOKEN": args.access_token,
        "GBRAIN_MCP_CLIENT_ID": args.client_id,
        "GBRAIN_MCP_CLIENT_SECRET": args.client_secret,
    }
    client_id = secret = None
    for source in (flags, env, profile):

        def get(name: str, source: Mapping[str, str | None] = source) -> str | None:
            value = source.get(name)
            return value.strip() if value and value.strip() else None

        if get("GBRAIN_MCP_ACCESS_TOKEN"):
            values["GBRAIN_MCP_ACCESS_TOKEN"] = get("GBRAIN_MCP_ACCESS_TOKEN") or ""
            return values
        client_id = client_id or get("GBRAIN_MCP_CLIENT_ID")
        secret = secret or get("GBRAIN_MCP_CLIENT_SECRET")
        if client_id and secret:
            break
    if interactive and not (client_id and secret):
        print("A GBrain client for this profile (`hermes-gbrain grant-help` shows how).")
        client_id = client_id or _ask("client id (gbrain_cl_…)")
        secret = secret or _ask("client secret (gbrain_cs_…, not shown)", secret=True)
    if not (client_id and secret):
        raise ConfigError(
            "no GBrain credential: pass --client-id/--client-secret (or --access-token), or "
            "set GBRAIN_MCP_CLIENT_ID and GBRAIN_MCP_CLIENT_SECRET (or GBRAIN_MCP_ACCESS_TOKEN); "
            "`hermes-gbrain grant-help` shows how to create a client"
        )
    values["GBRAIN_MCP_CLIENT_ID"] = client_id
    values["GBRAIN_MCP_CLIENT_SECRET"] = secret
    return values


def _check(values: Mapping[str, str], home: Path, allow_http: bool) -> Settings:
    """Refuse a connection that cannot work before anything is written."""

    def lookup(name: str) -> str | None:
        if name == "GBRAIN_POINTER_ALLOW_HTTP":
            return "1" if allow_http else None
        return values.get(name)

    settings = load_settings(lookup, hermes_home=home)
    problem = settings.problem()
    if problem:
        if "plain http" in problem:  # setup's own switch, not the variable it sets
            problem = (
                f"{shown_url(settings.mcp_url)}: plain http is allowed only to loopback hosts; "
                "use https, or pass --allow-http to accept the risk (the token then travels "
                "in clear)"
            )
        raise ConfigError(f"{problem}; nothing was written")
    try:
        open_brain(settings, scope=None).catalog(refresh=True)
    except GBrainError as exc:
        raise ConfigError(f"{_refusal(exc, settings)}; nothing was written") from None
    return settings


def _refusal(exc: GBrainError, settings: Settings) -> str:
    """Why the server refused, and the fix, in setup's terms (its flags, not the
    profile's files: nothing was written, so ``doctor`` would check something else)."""
    url = shown_url(settings.mcp_url)
    if isinstance(exc, AuthError):
        who = "the access token" if settings.auth_mode == "token" else "the client id or the secret"
        return (
            f"GBrain at {url} refused {who} ({exc}): it is wrong, or was revoked; fix: pass the "
            "pair `gbrain auth register-client` printed (--client-id, and the secret through "
            "GBRAIN_MCP_CLIENT_SECRET or the prompt); `hermes-gbrain grant-help --url "
            f"{url}` shows how to create one"
        )
    if isinstance(exc, TransportError | DeadlineError):
        return (
            f"cannot reach GBrain at {url} ({exc}); fix: start GBrain there (`gbrain serve "
            "--http`) or pass the right --url (to try things out: `hermes-gbrain setup "
            "--emulator`)"
        )
    found = explain(exc, settings)
    return f"{found.what}; fix: {found.fix}"


# -- the steps ------------------------------------------------------------------------------


def _choose_mode(args: argparse.Namespace, home: Path, interactive: bool, out: TextIO) -> str:
    from ..adapters.profile_config import memory_provider  # noqa: PLC0415 - imports Hermes

    current: str = memory_provider(home)
    if args.mode != "auto":
        return str(args.mode)
    if current in ("", "gbrain", "gbrain-pointer"):
        return "provider"
    if interactive:
        answer = _ask(
            f"memory.provider is {current!r}. Replace it with gbrain? "
            "(no: run GBrain beside it as a hook) [y/N]",
        )
        if answer.lower() in ("y", "yes"):
            return "provider"
    print(
        f"memory.provider is {current!r}: GBrain joins it as the {_hook()} plugin "
        "(briefing each first turn; `--mode provider` replaces it instead)",
        file=out,
    )
    return "hook"


def _hook() -> str:
    from .install import HOOK_NAME  # noqa: PLC0415

    return str(HOOK_NAME)


def _wire(mode: str, home: Path, out: TextIO) -> None:
    from ..adapters.profile_config import (  # noqa: PLC0415 - imports Hermes
        enable_plugin,
        set_memory_provider,
    )
    from .install import HOOK_NAME, install  # noqa: PLC0415

    name = HOOK_NAME if mode == "hook" else "gbrain"
    result = install(name, home)
    print(f"plugin: {result.directory} {'written' if result.changed else 'up to date'}", file=out)
    if mode == "hook":
        changed = enable_plugin(home, HOOK_NAME)
        print(f"plugins.enabled: {HOOK_NAME} {'added' if changed else 'already there'}", file=out)
    else:
        changed = set_memory_provider(home, name)
        print(f"memory.provider: {name} {'set' if changed else 'already set'}", file=out)


def _digest(settings: Settings, home: Path, out: TextIO) -> bool:
    """Build it as ``hermes-gbrain digest`` does; False when the profile turned it off."""
    from ..recall.digest import (  # noqa: PLC0415
        DIGEST_SCOPE,
        build_digest,
        load_digest_config,
        write_digest,
    )

    config = load_digest_config(cli_lookup(home))
    if not config.enabled:
        print("digest: off in this profile (GBRAIN_DIGEST=off)", file=out)
        return False
    brain = open_brain(settings, scope=DIGEST_SCOPE)
    digest = build_digest(brain, max_chars=config.max_chars, hermes_home=home)
    path = write_digest(home, digest)
    print(f"digest: {len(digest.line)} characters written to {path}", file=out)
    return True


def _cron(args: argparse.Namespace, home: Path, interactive: bool, out: TextIO) -> None:
    from .cron import cron_installed, install_cron  # noqa: PLC0415 - imports Hermes

    if args.no_cron:
        print("cron: skipped (--no-cron); the digest is used for 48 h after each build", file=out)
        return
    if all(cron_installed(home)):  # keep its interval and target as the user chose them
        print("cron: the digest refresh job is already installed", file=out)
        return
    if interactive:
        answer = _ask("Refresh the digest every 6 hours from a Hermes cron job? [Y/n]")
        if answer.lower() in ("n", "no"):
            print("cron: skipped", file=out)
            return
    result = install_cron(home, "6h")
    print(
        f"cron: job {result.job_id} refreshes the digest {result.schedule} "
        "(the gateway ticks cron; or run `hermes cron tick`)",
        file=out,
    )


def run_setup(
    args: argparse.Namespace,
    home: Path,
    out: TextIO | None = None,
    *,
    interactive: bool | None = None,
) -> int:
    """Run every step; returns ``doctor``'s exit status."""
    out = out or sys.stdout
    if interactive is None:
        interactive = not args.non_interactive and sys.stdin.isatty()
    home.mkdir(parents=True, exist_ok=True)
    if args.emulator:
        values = emulator_connection(home, write=args.tools == "write", out=out)
    else:
        values = _connection(args, home, interactive)
    allow_http = args.allow_http or flag_on(
        read_dotenv(home / ".env").get("GBRAIN_POINTER_ALLOW_HTTP")
    )
    settings = _check(values, home, allow_http)
    wanted = {k: v for k, v in values.items() if k in CONNECTION_KEYS}
    if args.tools:
        wanted["GBRAIN_TOOLS"] = args.tools
    elif values.get("GBRAIN_TOOLS"):
        wanted["GBRAIN_TOOLS"] = values["GBRAIN_TOOLS"]
    if args.allow_http:
        wanted["GBRAIN_POINTER_ALLOW_HTTP"] = "1"
    mode = _choose_mode(args, home, interactive, out)  # also: can this Python reach Hermes?
    stale = tuple(k for k in CONNECTION_KEYS if k not in wanted)
    changed = update_dotenv(home / ".env", wanted, stale)
    print(f".env: {home / '.env'} {'updated' if changed else 'unchanged'} (mode 0600)", file=out)
    _wire(mode, home, out)
    if _digest(settings, home, out):  # the system prompt's line, or the hook's first turn
        _cron(args, home, interactive, out)
    print("", file=out)
    from .doctor import run_doctor  # noqa: PLC0415

    status = run_doctor(home, out)
    if status == 0:
        prefix = "" if home == default_hermes_home() else f"HERMES_HOME={shlex.quote(str(home))} "
        print(f"\nready: start a session with `{prefix}hermes`", file=out)
    return status
