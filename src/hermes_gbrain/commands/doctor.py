"""``hermes-gbrain doctor``: is every link from this profile to the brain in place?

One line per check — ``pass``, ``warn`` or ``fail`` — and, for anything short of a
pass, the fix. The chain, in order: which settings were found and which source won
(secrets never shown), the URL policy, the server, the token (minted, and its scopes
against what ``GBRAIN_TOOLS`` needs), tool discovery (refreshed here, so the next
Hermes session offers the right schemas), a timed search, the plugin folder and
whether the Python that runs ``hermes`` can import this package, ``memory.provider``
(or the hook plugin enabled), the digest and its age, the cron job that refreshes
it, the write outbox, the Hermes version with the newer-Hermes features it has, and
GBrain also loaded as an MCP server. ``--json`` prints the same as one object. The
exit status is 1 when any check fails.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TextIO, TypeVar

from .. import __version__, advice
from ..api import GBrain
from ..auth import clear_token_cache
from ..connect import credential_for, open_brain
from ..errors import (
    AuthError,
    ConfigError,
    DeadlineError,
    GBrainError,
    HTTPStatusError,
    RefusedError,
    TooLargeError,
    TransportError,
)
from ..files import data_dir, private_key, redirected, sweep_temp_files
from ..recall.digest import load_digest_config
from ..settings import (
    DEFAULT_MCP_URL,
    LEGACY_JSON,
    Lookup,
    Settings,
    UnreadableSettings,
    cli_lookup,
    default_hermes_home,
    flag_not_off,
    load_settings,
    read_dotenv,
    read_legacy_json,
)
from ..text import one_line
from ..toolbridge.discovery import discover, save_discovery
from ..toolbridge.outbox import DB_NAME
from ..transport import shared_transport
from ..urls import is_loopback_host, shown_url
from ..writeback.ledger import DB_NAME as LEDGER_NAME
from .install import HOOK_NAME, MARKER
from .report import (
    FAIL,
    PASS,
    WARN,
    Check,
    Report,
    add_health,
    digest_age,
    ledger_status,
    outbox_counts,
    wiring,
)
from .status import PROBE_QUERY

__all__ = ["Check", "DoctorReport", "run_doctor", "settings_origin"]

IMPORT_PROBE_TIMEOUT_S = 20.0
SETUP = "hermes-gbrain setup"


DoctorReport = Report
"""The report ``doctor`` fills (the model it shares with ``status``)."""


# -- settings -------------------------------------------------------------------------------

_URL_NAMES = ("GBRAIN_MCP_URL", "MCP_GBRAIN_URL")


def settings_origin(hermes_home: Path, environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """Where each connection setting came from: ``environment``, ``.env``,
    ``gbrain_memory.json`` or ``default`` (names only, never values)."""
    env = os.environ if environ is None else environ
    dotenv = read_dotenv(hermes_home / ".env")
    legacy, _ = read_legacy_json(hermes_home)

    def origin(name: str) -> str | None:
        if (env.get(name) or "").strip():
            return "environment"
        if (dotenv.get(name) or "").strip():
            return ".env"
        return None

    found: dict[str, str] = {}
    for name in _URL_NAMES:
        where = origin(name)
        if where:
            found["url"] = f"{name} from {where}"
            break
    else:
        found["url"] = f"url from {LEGACY_JSON}" if legacy.get("url") else "default"
    for name in (
        "GBRAIN_MCP_ACCESS_TOKEN",
        "GBRAIN_MCP_CLIENT_ID",
        "MCP_GBRAIN_API_KEY",
    ):
        where = origin(name)
        if where:
            found["credential"] = f"{name} from {where}"
            break
    else:
        found["credential"] = f"api_token from {LEGACY_JSON}" if legacy.get("api_token") else ""
    return found


def _redacted_id(client_id: str) -> str:
    return client_id if len(client_id) <= 16 else client_id[:14] + "…"


def _settings_check(settings: Settings, home: Path, report: DoctorReport) -> bool:
    origin = settings_origin(home)
    _, legacy_problem = read_legacy_json(home)
    if legacy_problem:
        report.add("settings", WARN, f"{legacy_problem}; ignored", f"fix or remove {LEGACY_JSON}")
    if settings.auth_mode == "none":
        problem = (
            "GBRAIN_MCP_CLIENT_ID and GBRAIN_MCP_CLIENT_SECRET must be set together"
            if settings.client_id or settings.client_secret
            else "no GBrain credential"
        )
        report.add(
            "settings",
            FAIL,
            f"{problem} (looked in the environment, {home}/.env)",
            f"`{SETUP} --hermes-home {home}`, or put GBRAIN_MCP_CLIENT_ID and "
            "GBRAIN_MCP_CLIENT_SECRET in the profile's .env (`hermes-gbrain grant-help`)",
        )
        return False
    dotenv = read_dotenv(home / ".env")
    differs = [
        name
        for name in (
            "GBRAIN_MCP_URL",
            "GBRAIN_MCP_CLIENT_ID",
            "GBRAIN_MCP_CLIENT_SECRET",
            "GBRAIN_MCP_ACCESS_TOKEN",
            "GBRAIN_TOOLS",
        )
        if (os.environ.get(name) or "").strip()
        and (dotenv.get(name) or "").strip()
        and os.environ[name].strip() != dotenv[name].strip()
    ]
    if differs:
        report.add(
            "settings",
            WARN,
            f"{', '.join(differs)} differ between this shell's environment and the profile's "
            ".env: these checks use the environment, Hermes loads .env over it",
            "unset them in the shell (or make them the same)",
        )
    env_file = home / ".env"
    if env_file.is_file() and env_file.stat().st_mode & 0o077:
        report.add(
            "settings",
            WARN,
            f"{env_file} can be read by other users (mode {env_file.stat().st_mode & 0o777:o})",
            f"`chmod 600 {env_file}`",
        )
    # The credential's own problems (the URL has its own line below).
    credential_problem = dataclasses.replace(settings, mcp_url=DEFAULT_MCP_URL).problem()
    if credential_problem:
        report.add(
            "settings",
            FAIL,
            credential_problem,
            "copy the value again into the profile's .env (`hermes-gbrain setup` asks for it)",
        )
        return False
    if settings.auth_mode == "oauth":
        who = f"OAuth client {_redacted_id(settings.client_id or '')} (secret set)"
    else:
        who = "static bearer token (set)"
    report.add(
        "settings",
        PASS,
        f"{who} via {origin['credential']}; URL via {origin['url']}; tools {settings.tools}",
    )
    return True


def _url_check(settings: Settings, report: DoctorReport) -> bool:
    try:
        endpoint = settings.endpoint
    except ConfigError as exc:
        fix = "use an https:// URL"
        if "http" in str(exc):
            fix += (
                ", or set GBRAIN_POINTER_ALLOW_HTTP=1 to accept plain http to that host "
                "(the token then travels in clear)"
            )
        report.add("url", FAIL, f"{shown_url(settings.mcp_url)}: {exc}", fix)
        return False
    scheme = endpoint.mcp_url.split(":", 1)[0]
    note = "loopback" if scheme == "http" and _loopback(endpoint.mcp_url) else scheme
    if scheme == "http" and note != "loopback":
        report.add(
            "url",
            WARN,
            f"{endpoint.mcp_url}: plain http to a remote host (allowed by "
            "GBRAIN_POINTER_ALLOW_HTTP)",
            "serve GBrain over https",
        )
    else:
        report.add("url", PASS, f"{endpoint.mcp_url} ({note}); token URL {endpoint.token_url}")
    return True


def _loopback(url: str) -> bool:
    from urllib.parse import urlsplit  # noqa: PLC0415

    return is_loopback_host(urlsplit(url).hostname or "")


# -- the server -----------------------------------------------------------------------------

_UNREACHABLE = (TransportError, DeadlineError, RefusedError, TooLargeError)


def _server_fix(settings: Settings) -> str:
    return advice.server_fix(settings)


def _server_and_token(settings: Settings, report: DoctorReport) -> bool:
    """POST /token (OAuth) is the first contact: it tells reachability and the secret."""
    if settings.auth_mode != "oauth":
        report.add("token", PASS, "static bearer: nothing to mint (checked by the next step)")
        return True
    # A fresh mint, never the profile's shared token: reaching /token and the secret
    # being accepted are what this step reports.
    credential = credential_for(settings, shared_transport(), shared=False)
    started = time.perf_counter()
    try:
        credential.bearer()
    except AuthError as exc:
        report.add("server", PASS, "answered /token")
        why = advice.explain(exc, settings)
        report.add("token", FAIL, why.what, why.fix)
        return False
    except HTTPStatusError as exc:
        report.add("server", FAIL, str(exc), _server_fix(settings))
        return False
    except _UNREACHABLE as exc:
        report.add(
            "server",
            FAIL,
            f"cannot reach {settings.endpoint.token_url}: {exc}",
            _server_fix(settings),
        )
        return False
    except GBrainError as exc:
        report.add("token", FAIL, str(exc), _server_fix(settings))
        return False
    elapsed = (time.perf_counter() - started) * 1000
    report.add("server", PASS, f"answered /token in {elapsed:.0f} ms")
    granted = getattr(credential, "granted_scope", None)
    report.add("token", PASS, f"minted (granted scopes: {granted or 'none reported'})")
    return True


def _needs(settings: Settings) -> str:
    writes = settings.tools == "write" or settings.writeback == "memory"
    return "read write" if writes else "read"


def _discovery(settings: Settings, brain: GBrain, report: DoctorReport) -> bool:
    try:
        found = discover(brain, settings)
    except AuthError as exc:
        why = advice.explain(exc, settings)
        report.add("tools", FAIL, why.what, why.fix)
        return False
    except _UNREACHABLE as exc:
        report.add(
            "server",
            FAIL,
            f"cannot reach {shown_url(settings.mcp_url)}: {exc}",
            _server_fix(settings),
        )
        return False
    except GBrainError as exc:
        report.add("tools", FAIL, str(exc), _server_fix(settings))
        return False
    if not any(c.name == "server" for c in report.checks):
        report.add("server", PASS, "answered tools/list")
    scopes = " ".join(found.scopes) or "none"
    if not found.scopes or ("read" not in found.scopes and "admin" not in found.scopes):
        report.add(
            "scopes",
            FAIL,
            f"granted: {scopes}; needed: {_needs(settings)}",
            "register a client with `--scopes read` (`hermes-gbrain grant-help`)",
        )
    elif settings.tools == "write" and not found.can_write:
        report.add(
            "scopes",
            FAIL,
            f"granted: {scopes}; GBRAIN_TOOLS=write needs read write",
            "register a client with `--scopes read write` and use its pair "
            "(`hermes-gbrain grant-help`), or set GBRAIN_TOOLS=read",
        )
    elif settings.writeback == "memory" and not (
        found.can_write and found.catalog().has("remember")
    ):
        report.add(
            "scopes",
            FAIL,
            f"granted: {scopes}; GBRAIN_WRITEBACK=memory needs read write (and `remember`)",
            "register a client with `--scopes read write` and use its pair "
            "(`hermes-gbrain grant-help`), or unset GBRAIN_WRITEBACK",
        )
    else:
        report.add("scopes", PASS, f"granted: {scopes}; needed: {_needs(settings)}")
    try:
        save_discovery(settings.hermes_home, found)
        report.add(
            "tools", PASS, f"{len(found.tools)} tools offered; refreshed gbrain/discovery.json"
        )
    except OSError as exc:
        report.add(
            "tools",
            FAIL,
            f"cannot write gbrain/discovery.json ({type(exc).__name__})",
            f"make {data_dir(settings.hermes_home)} writable",
        )
    if found.catalog().has("search") or found.catalog().has("query"):
        _search(brain, report, on_emulator=advice.on_own_emulator(settings))
    return True


def _search(brain: GBrain, report: DoctorReport, *, on_emulator: bool = False) -> None:
    started = time.perf_counter()
    try:
        result = brain.search(PROBE_QUERY, limit=1, snippet_chars=1)
    except GBrainError as exc:
        report.add("search", FAIL, str(exc), "see the server's log")
        return
    elapsed = (time.perf_counter() - started) * 1000
    stages = [s for s in result.degraded if s != "keyword_zero"]
    if stages and on_emulator:  # the bundled emulator never has embeddings: nothing to fix
        report.add(
            "search", PASS, f"answered in {elapsed:.0f} ms (the emulator: keyword search only)"
        )
    elif stages:
        report.add(
            "search",
            WARN,
            f"answered in {elapsed:.0f} ms, degraded: {', '.join(stages[:5])}",
            "give GBrain an embedding provider for semantic search",
        )
    else:
        report.add("search", PASS, f"answered in {elapsed:.0f} ms")


# -- the profile ----------------------------------------------------------------------------


def _hermes_python() -> tuple[str | None, str]:
    """The interpreter of the ``hermes`` on PATH (else the one beside this Python)."""
    found = shutil.which("hermes") or str(Path(sys.executable).with_name("hermes"))
    script = Path(found)
    if not script.is_file():
        return None, ""
    try:
        with open(script, "rb") as handle:
            first = handle.readline(512).decode("utf-8", "replace").strip()
            second = handle.readline(512).decode("utf-8", "replace").strip()
    except OSError:
        return None, str(script)
    candidates = [first[2:].strip()] if first.startswith("#!") else []
    exec_form = "'" * 3 + "exec' "  # pip's form for interpreter paths too long for #!
    if second.startswith(exec_form):
        candidates.append(second[len(exec_form) :])
    for candidate in candidates:
        words = candidate.split()
        if words and Path(words[0]).name.startswith("python"):
            return words[0], str(script)
    return None, str(script)


def _import_probe(module: str) -> tuple[str, str, str]:
    """(status, detail, fix) for importing ``module`` in the Python that runs Hermes."""
    python, script = _hermes_python()
    if python is None:
        return (
            WARN,
            "no `hermes` command found on PATH (or it is not a Python script)",
            "install hermes-agent, or put its bin folder on PATH",
        )
    return _probe(python, script, module)


@functools.lru_cache(maxsize=8)
def _probe(python: str, script: str, module: str) -> tuple[str, str, str]:
    """One interpreter start per process and module: the answer cannot change meanwhile
    for a successful import, and a failure is fixed by installing, then running again."""
    code = f"import hermes_gbrain, {module}; print(hermes_gbrain.__version__)"
    try:
        done = subprocess.run(  # noqa: S603 - a fixed interpreter and argument list
            [python, "-c", code],
            capture_output=True,
            text=True,
            timeout=IMPORT_PROBE_TIMEOUT_S,
            check=False,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return WARN, f"could not run {python} ({type(exc).__name__})", ""
    if done.returncode != 0:
        return (
            FAIL,
            f"the Python that runs {script} cannot import {module}",
            f"install hermes-gbrain into it: `{python} -m pip install .` from a clone "
            "(or the wheel from `make dist`)",
        )
    version = done.stdout.strip()
    if version != __version__:
        return (
            WARN,
            f"{script} imports hermes-gbrain {one_line(version, 40)}, this is {__version__}",
            f"`{python} -m pip install .` from this version",
        )
    return PASS, f"importable by {script} (hermes-gbrain {version})", ""


def _hook_entry_point() -> bool:
    from importlib.metadata import entry_points  # noqa: PLC0415

    return any(ep.name == HOOK_NAME for ep in entry_points(group="hermes_agent.plugins"))


def _mode(home: Path, report: DoctorReport) -> str | None:
    """``gbrain``/``gbrain-pointer`` (provider), ``hook``, or None (not wired)."""
    from ..adapters.profile_config import HermesMissing  # noqa: PLC0415 - imports Hermes

    try:
        wired = wiring(home)
    except HermesMissing as exc:
        report.add("memory", FAIL, str(exc), "install hermes-gbrain beside Hermes")
        return None
    provider = wired.provider
    if wired.mode and wired.mode == provider:
        report.add("memory", PASS, f"memory.provider is {provider}")
        return provider
    if wired.mode == "hook":
        other = provider or "the built-in memory only"
        report.add("memory", PASS, f"hook mode: {HOOK_NAME} enabled beside {other}")
        return "hook"
    detail = f"memory.provider is {provider!r}" if provider else "memory.provider is unset"
    report.add(
        "memory",
        FAIL,
        f"{detail} and {HOOK_NAME} is not enabled: Hermes will not use GBrain",
        "`hermes config set memory.provider gbrain` (or `hermes plugins enable gbrain-hook` "
        f"beside another provider), or `{SETUP}`",
    )
    return None


def _plugin(home: Path, mode: str | None, report: DoctorReport) -> None:
    name = HOOK_NAME if mode == "hook" else mode or "gbrain"
    folder = home / "plugins" / name
    init = folder / "__init__.py"
    if not init.is_file() and mode == "hook" and _hook_entry_point():
        report.add(
            "plugin", PASS, f"{HOOK_NAME} found through its hermes_agent.plugins entry point"
        )
    elif not init.is_file():
        report.add(
            "plugin",
            FAIL,
            f"no plugin folder {folder}",
            f"`hermes-gbrain install --name {name} --hermes-home {home}`",
        )
    else:
        marker = folder / MARKER
        written = marker.read_text("utf-8", "replace").split() if marker.is_file() else []
        if written[1:2] and written[1] != __version__:
            report.add(
                "plugin",
                WARN,
                f"{folder} was written by hermes-gbrain {one_line(written[1], 40)}",
                f"`hermes-gbrain install --name {name} --hermes-home {home}`",
            )
        else:
            report.add("plugin", PASS, f"{folder}")
    module = "hermes_gbrain.adapters.hook" if mode == "hook" else "hermes_gbrain.adapters.provider"
    status, detail, fix = _import_probe(module)
    report.add("import", status, detail, fix)


def _digest(home: Path, lookup: Lookup, mode: str | None, report: DoctorReport) -> None:
    if mode == "gbrain-pointer" or not flag_not_off(lookup("GBRAIN_DIGEST")):
        report.add("digest", PASS, "not used (gbrain-pointer preset, or GBRAIN_DIGEST=off)")
        return
    config = load_digest_config(lookup)
    found = digest_age(home)
    fix = advice.command(home, "digest")
    if found is None:
        report.add("digest", FAIL, "no digest: the system prompt gets no brain summary", fix)
        return
    line, hours = found
    if hours is None:
        report.add("digest", FAIL, "the digest file has no valid build time", fix)
        return
    if hours > config.max_age_hours:
        report.add(
            "digest",
            FAIL,
            f"{hours:.0f} h old, older than GBRAIN_DIGEST_MAX_AGE_HOURS "
            f"({config.max_age_hours:g}): not used",
            fix + " (and `--install-cron` to keep it fresh)",
        )
        return
    report.add("digest", PASS, f"{len(line)} characters, {hours:.1f} h old")


def _cron(home: Path, mode: str | None, report: DoctorReport) -> None:
    if mode == "gbrain-pointer":
        return
    from .cron import cron_installed  # noqa: PLC0415 - imports Hermes

    fix = f"`hermes-gbrain digest --install-cron --hermes-home {home}`"
    try:
        job, script = cron_installed(home)
    except Exception as exc:  # Hermes missing or its cron store unreadable: a finding
        report.add("cron", WARN, f"cannot read Hermes' cron jobs ({type(exc).__name__})", fix)
        return
    if job and script:
        report.add("cron", PASS, "digest refresh job installed (runs when cron ticks)")
    elif job:
        report.add("cron", FAIL, "the cron job is there but its script is missing", fix)
    else:
        report.add("cron", WARN, "no cron job: the digest goes stale after its max age", fix)


def _outbox(home: Path, report: DoctorReport) -> None:
    try:
        found = outbox_counts(home)
    except Exception as exc:  # a broken database file is a finding, not a crash
        report.add(
            "outbox",
            FAIL,
            f"cannot open the write outbox ({type(exc).__name__})",
            f"move {data_dir(home) / DB_NAME} aside",
        )
        return
    if found is None:
        report.add("outbox", PASS, "no queued writes (no outbox yet)")
        return
    counts, status = found
    line = ", ".join(f"{n} {k}" for k, n in counts.items())
    failed, superseded = counts.get("failed", 0), counts.get("superseded", 0)
    report.add(
        "outbox",
        WARN if failed or superseded else PASS,
        line,
        "see the writes below: failed ones were retried with backoff until they gave up; "
        "superseded ones were not sent because the page changed first",
    )
    for op_id, slug, error in status.recent_failures:
        report.add("outbox", WARN, f"failed {op_id} {slug}: {one_line(error, 160)}")
    for op_id, slug, _ in getattr(status, "recent_superseded", ()):
        report.add(
            "outbox",
            WARN,
            f"superseded {op_id} {one_line(slug, 160)}: not written, the page changed after it "
            "was queued (the newer version was kept)",
        )


def _writeback(home: Path, settings: Settings, mode: str | None, report: DoctorReport) -> None:
    """Memory write-back: on or off, where it can run, and its ledger's counts."""
    if settings.writeback != "memory":
        report.add("writeback", PASS, "off: Hermes' memory tool writes stay in Hermes only")
        return
    retire = "on" if settings.writeback_retire else "off (facts of removed entries stay)"
    if mode != "gbrain":
        report.add(
            "writeback",
            WARN,
            "GBRAIN_WRITEBACK=memory needs the gbrain memory provider; "
            f"{mode or 'no GBrain provider'} does not see Hermes' memory writes",
            "`hermes config set memory.provider gbrain`, or unset GBRAIN_WRITEBACK",
        )
    try:
        status = ledger_status(home)
    except Exception as exc:
        report.add(
            "writeback",
            FAIL,
            f"cannot open the write-back ledger ({type(exc).__name__})",
            f"move {data_dir(home) / LEDGER_NAME} aside",
        )
        return
    if status is None:
        report.add("writeback", PASS, f"on (retire: {retire}); nothing mirrored yet")
        return
    line = (
        f"on (retire: {retire}); {status.mirrored} entries mirrored; operations: "
        f"{status.pending} pending, {status.inflight} inflight, {status.delivered} delivered, "
        f"{status.failed} failed, {status.skipped} skipped"
    )
    if status.kept_active:
        line += f"; {status.kept_active} facts of replaced or removed entries left active"
    report.add(
        "writeback",
        WARN if status.failed else PASS,
        line,
        "failed operations were retried with backoff until they gave up (reasons below)",
    )
    for op_id, action, error in status.recent_failures:
        report.add("writeback", WARN, f"failed {op_id} {action}: {one_line(error, 160)}")


def _hermes(report: DoctorReport) -> None:
    from ..adapters.profile_config import hermes_distribution, hermes_features  # noqa: PLC0415

    found = hermes_distribution()
    if found is None:
        report.add("hermes", WARN, "hermes-agent is not installed in this Python", "")
        return
    installed = " ".join(found)  # "hermes-agent 0.19.0", or a fork's own name
    if not default_hermes_home().is_dir():
        # Importing Hermes creates its home folder; doctor never creates what it checks.
        absent = default_hermes_home()
        report.add("hermes", PASS, f"{installed}; features not checked (no {absent})")
        return
    try:
        features = hermes_features()
    except ImportError:
        report.add("hermes", WARN, f"{installed}, but it cannot be imported", "")
        return
    active = [name for name, on in features.items() if on]
    missing = [name for name, on in features.items() if not on]
    detail = f"{installed}; active: {', '.join(active) or 'none'}"
    if missing:
        detail += f"; local fallbacks for: {', '.join(missing)}"
    report.add("hermes", PASS, detail)


def _mcp_servers(home: Path, settings: Settings, report: DoctorReport) -> None:
    from ..adapters.profile_config import HermesMissing, mcp_servers  # noqa: PLC0415

    try:
        servers = mcp_servers(home)
    except HermesMissing:
        return
    ours = settings.mcp_url.rstrip("/")
    duplicates = []
    for name, entry in servers.items():
        url = str(entry.get("url") or "").rstrip("/")
        command = " ".join(str(part) for part in [entry.get("command"), *(entry.get("args") or [])])
        if "gbrain" in name.lower() or url == ours or "gbrain" in command.lower():
            duplicates.append(name)
    if duplicates:
        report.add(
            "mcp",
            WARN,
            f"GBrain is also an MCP server in config.yaml ({', '.join(duplicates)}): every "
            "GBrain tool schema is loaded again beside the gbrain_* tools",
            " ; ".join(f"`hermes mcp remove {name}`" for name in duplicates),
        )
    else:
        report.add("mcp", PASS, "GBrain is not also loaded as an MCP server")


def _profile_exists(home: Path, report: Report) -> bool:
    """The profile checks read Hermes' files through Hermes' code, which creates the
    folders it reads: run them only on a profile that exists, so ``doctor`` never
    makes what it checks."""
    if home.is_dir():
        return True
    report.add(
        "profile",
        FAIL,
        f"{home} is not a Hermes profile folder (it does not exist)",
        f"create and wire it: {advice.command(home, 'setup')}, or pass --hermes-home the "
        "profile you use (`hermes profile list` shows them)",
    )
    return False


T = TypeVar("T")


def _state(home: Path, report: DoctorReport) -> None:
    """No symbolic link from the ``gbrain`` folder down (state is never used through one),
    no temporary files left by killed writes (removed here), a sound per-profile key."""
    links = redirected(home)
    if links:
        shown = ", ".join(str(p) for p in links[:5]) + (" …" if len(links) > 5 else "")
        report.add(
            "state",
            FAIL,
            f"symbolic link where hermes-gbrain keeps its state: {shown}; "
            "nothing is written or opened through it",
            f"replace it with a real {'folder' if links[0] == data_dir(home) else 'file'}"
            f" (remove the link; hermes-gbrain makes what it needs): rm {links[0]}",
        )
        return
    folder = data_dir(home)
    swept = sum(sweep_temp_files(f) for f in (folder, folder / "sessions"))
    salt = folder / ".salt"
    sound = not salt.exists() or (salt.is_file() and salt.stat().st_size == 32)
    detail = "no links; " + (f"removed {swept} stale temporary files" if swept else "tidy")
    if not sound:
        private_key(salt)  # replaced like any damaged cache: what it keyed misses once
        detail += "; replaced a damaged key (gbrain/.salt)"
    report.add("state", PASS, detail)


def _guarded(name: str, report: DoctorReport, check: Callable[[], T]) -> T | None:
    """A check that breaks is a finding on its own line, never the end of the report."""
    try:
        return check()
    except Exception as exc:
        report.add(name, FAIL, f"the check itself failed ({type(exc).__name__})", "")
        return None


def run_doctor(
    hermes_home: Path,
    out: TextIO,
    *,
    as_json: bool = False,
    lookup: Lookup | None = None,
    brain_factory: Callable[[Settings], GBrain] | None = None,
) -> int:
    """Run every check, print the report (text or JSON), return 0 or 1."""
    clear_token_cache()  # mint afresh: the check is whether the server accepts the pair now
    report = DoctorReport()
    readable = True
    if lookup is None:
        try:
            lookup = cli_lookup(hermes_home)
        except UnreadableSettings as exc:  # the profile's checks still run
            report.add("settings", FAIL, exc.what, exc.fix)
            lookup, readable = cli_lookup(hermes_home, dotenv={}), False
    settings = load_settings(lookup, hermes_home=hermes_home)
    configured = readable and _settings_check(settings, hermes_home, report)
    connected = (
        readable
        and _url_check(settings, report)
        and configured
        and _server_and_token(settings, report)
    )
    if connected:
        try:
            factory = brain_factory or (lambda s: open_brain(s, scope=None))
            _discovery(settings, factory(settings), report)
        except ConfigError as exc:
            report.add("settings", FAIL, str(exc), SETUP)
    if _profile_exists(hermes_home, report):
        mode = _guarded("memory", report, lambda: _mode(hermes_home, report))
        _guarded("plugin", report, lambda: _plugin(hermes_home, mode, report))
        _guarded("digest", report, lambda: _digest(hermes_home, lookup, mode, report))
        _guarded("cron", report, lambda: _cron(hermes_home, mode, report))
        _guarded("outbox", report, lambda: _outbox(hermes_home, report))
        _guarded("state", report, lambda: _state(hermes_home, report))
        _guarded("writeback", report, lambda: _writeback(hermes_home, settings, mode, report))
        answers = any(c.name == "search" and c.status != FAIL for c in report.checks)
        _guarded("recall", report, lambda: add_health(hermes_home, report, answers_now=answers))
    _guarded("hermes", report, lambda: _hermes(report))
    if hermes_home.is_dir():
        _guarded("mcp", report, lambda: _mcp_servers(hermes_home, settings, report))
    if as_json:
        out.write(json.dumps(report.to_json(), indent=2) + "\n")
    else:
        report.print(out)
    return 1 if report.failed else 0
