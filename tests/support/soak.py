"""The soak: one process, real hermes-agent ``MemoryManager``s, many chats, random faults.

A multiplexed gateway in miniature: three profiles, each with its own emulator (its own
brain and credentials), every call made under the profile's secret scope and home
override with multiplexing on (``reference/hermes.md`` §7), while the launch
environment holds another profile's secrets that must never be used. Chats take turns
on worker threads, in random order; now and then a chat is reset (``/new``), undone
(``/undo``) or shut down and reopened, and the emulators inject faults at random
(latency past the deadline, drips, 5xx, 401s, token expiry, redirects, oversized and
malformed bodies, a non-ASCII session header, server restarts, writes applied after the
client gave up on them). One profile writes.

Each chat asks about a page of its own, a different one after each reset, so a pointer
to another chat's, another profile's or a previous session's page is caught. Every log
record, every exception Hermes caught, and every file under the profile homes is
searched for the secrets, tokens and user messages used (the leak scan).

``bench/soak.py`` runs it at full size and prints the figures against their targets;
``tests/integration/test_soak.py`` runs a few-second version in the suite.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import random
import re
import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hermes_gbrain.emulator import Emulator
from support.hermes_driver import MemoryManagerDriver, load_provider
from support.hermes_home import HermesHome, clear_hermes_caches, make_hermes_home
from support.pointer_env import fresh_process_state, make_profile

FAULTS = (
    "latency",
    "drip",
    "5xx",
    "401",
    "token-expiry",
    "redirect",
    "oversized",
    "malformed",
    "bad-header",
    "restart",
    "slow-apply",
)
_CITE = re.compile(r"\[[A-Za-z0-9._-]+:([a-z0-9][a-z0-9._/-]*)\]")


@dataclass
class SoakConfig:
    sessions: int = 50
    turns: int = 10_000
    workers: int = 16
    seed: int = 1
    deadline_s: float = 1.0
    """The profiles' MCP deadline (``gbrain_memory.json`` ``timeout``): faults go past it."""
    fault_every: int = 40
    """A fault starts every this many turns, on one profile, for ``fault_turns`` turns."""
    fault_turns: int = 25
    reset_rate: float = 0.01
    undo_rate: float = 0.01
    shutdown_rate: float = 0.01
    write_rate: float = 0.05
    samples: int = 3
    """Resource samples (start, middle(s), end)."""


@dataclass
class SoakResult:
    turns: int = 0
    seconds: float = 0.0
    hermes_errors: list[str] = field(default_factory=list)
    prefetch_s: list[float] = field(default_factory=list)
    pointer_blocks: int = 0
    wrong_session: int = 0
    wrong_profile: int = 0
    handed_twice: int = 0
    writes_acked: int = 0
    writes_landed: int = 0
    writes_pending: int = 0
    writes_failed: int = 0
    lost_states: list[str] = field(default_factory=list)
    writes_lost: int = 0
    writes_duplicated: int = 0
    resources: list[tuple[str, int, float, int]] = field(default_factory=list)
    mints: dict[str, int] = field(default_factory=dict)
    faults: Counter[str] = field(default_factory=Counter)
    resets: int = 0
    undos: int = 0
    shutdowns: int = 0
    stop_s: float = 0.0
    leaks: list[str] = field(default_factory=list)

    def percentile(self, q: float) -> float:
        if not self.prefetch_s:
            return 0.0
        ordered = sorted(self.prefetch_s)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def prefetch_p50(self) -> float:
        return statistics.median(self.prefetch_s) if self.prefetch_s else 0.0


def resources() -> tuple[int, float, int]:
    """Threads, RSS (MiB) and open file descriptors of this process now."""
    rss = 0.0
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024.0
    except OSError:
        pass
    try:
        fds = len(os.listdir("/proc/self/fd"))
    except OSError:
        fds = -1
    return threading.active_count(), rss, fds


class _Capture(logging.Handler):
    """Every log record of the process, formatted, to a file (kept off the heap so the
    soak measures the package's memory, not its own), plus Hermes' caught provider errors."""

    def __init__(self, path: Path) -> None:
        super().__init__(logging.DEBUG)
        self.path = path
        self._file = path.open("a", encoding="utf-8", errors="backslashreplace")
        self.provider_errors: list[str] = []
        self._lock2 = threading.Lock()

    def close(self) -> None:
        with self._lock2:
            self._file.close()
        super().close()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:  # a record that cannot format is itself a finding
            text = f"<unformattable {record.msg!r}>"
        if record.exc_info and record.exc_info[1] is not None:
            text += f" | {record.exc_info[1]!r}"
        with self._lock2:
            if not self._file.closed:
                self._file.write(f"{record.name}: {text}\n")
            if record.name.startswith("agent.memory") and (
                "failed" in text or "timed out" in text or "Traceback" in text
            ):
                self.provider_errors.append(text)


@dataclass
class _Tally:
    """What the emulators' request logs showed, drained as the soak goes (the log itself
    keeps every request; left alone it would be the process's biggest growth)."""

    bearers: set[str] = field(default_factory=set)
    searches: Counter[tuple[str, int]] = field(default_factory=Counter)
    puts: Counter[str] = field(default_factory=Counter)
    mints: Counter[str] = field(default_factory=Counter)

    def drain(self, profile: SoakProfile) -> None:
        emu = profile.emu
        with emu._log_lock:
            requests, emu.requests = emu.requests, []
        for request in requests:
            if request.method == "POST" and request.path == "/token":
                self.mints[profile.name] += 1
            bearer = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
            if bearer:
                self.bearers.add(bearer)
            args = request.arguments or {}
            if request.tool == "put_page" and request.status == 200:
                self.puts[str(args.get("slug"))] += 1
            query = args.get("query") or args.get("message")
            if request.tool and isinstance(query, str) and request.status == 200:
                match = re.search(rf"zq{profile.name}(\d{{3}})", query)
                if match:
                    self.searches[(profile.name, int(match.group(1)))] += 1


@dataclass
class SoakProfile:
    name: str
    home: HermesHome
    emu: Emulator
    env: dict[str, str]
    provider: str
    writes: bool

    def page(self, chat: int, epoch: int) -> str:
        return f"soak/{self.name}-c{chat:03d}-e{epoch % 2}"

    def word(self, chat: int, epoch: int) -> str:
        return f"zq{self.name}{chat:03d}{'ab'[epoch % 2]}"


@contextmanager
def profile_scope(profile: SoakProfile) -> Iterator[None]:
    from agent.secret_scope import build_profile_secret_scope, reset_secret_scope, set_secret_scope
    from hermes_constants import reset_hermes_home_override, set_hermes_home_override

    home_token = set_hermes_home_override(str(profile.home.path))
    scope_token = set_secret_scope(build_profile_secret_scope(profile.home.path))
    try:
        yield
    finally:
        reset_secret_scope(scope_token)
        reset_hermes_home_override(home_token)


class _Chat:
    """One conversation: a driver on a profile, its epoch (bumped by each reset)."""

    def __init__(self, index: int, profile: SoakProfile, serial: Iterator[int]) -> None:
        self.index = index
        self.profile = profile
        self.epoch = 0
        self._serial = serial
        self.lock = threading.Lock()
        self.driver = self._open()

    def _open(self) -> MemoryManagerDriver:
        session = f"{self.profile.name}-chat{self.index}-{next(self._serial)}"
        with profile_scope(self.profile):
            return MemoryManagerDriver(
                load_provider(self.profile.provider),
                session_id=session,
                init_kwargs={"hermes_home": str(self.profile.home.path), "platform": "telegram"},
                flush_timeout=10.0,
            )

    def reopen(self) -> None:
        with profile_scope(self.profile):
            self.driver.close()
        self.epoch += 1
        self.driver = self._open()

    def reset(self) -> None:
        """``/new``: a new session id on the same agent."""
        new = f"{self.profile.name}-chat{self.index}-{next(self._serial)}"
        with profile_scope(self.profile):
            self.driver.manager.on_session_switch(
                new, parent_session_id=self.driver.session_id, reset=True, reason="new_session"
            )
        self.driver.session_id = new
        self.driver.history.clear()
        self.driver.turns.clear()
        self.epoch += 1

    def undo(self) -> None:
        """``/undo``: the same session, the transcript cut back by one turn."""
        with profile_scope(self.profile):
            self.driver.manager.on_session_switch(self.driver.session_id, rewound=True)
        del self.driver.history[-2:]


def _build(root: Path, config: SoakConfig) -> list[SoakProfile]:
    profiles = []
    for name, provider, writes in (("a", "gbrain", True), ("b", "gbrain", False),
                                   ("c", "gbrain-pointer", False)):  # fmt: skip
        emu = Emulator().start()
        home = make_hermes_home(root / f"profile-{name}")
        extra = {"GBRAIN_TOOLS": "write"} if writes else {}
        made = make_profile(home, emu, name=provider, **extra)
        env = dict(made.env)
        env["GBRAIN_BRIEFING"] = "on" if name != "c" else "off"
        if writes:
            env.update(emu.client_env(f"writer-{name}", scopes="read write"))
        home.write_env(env)
        (home.path / "gbrain_memory.json").write_text(json.dumps({"timeout": config.deadline_s}))
        profile = SoakProfile(name, home, emu, env, provider, writes)
        for chat in range(config.sessions):
            for epoch in (0, 1):
                word = profile.word(chat, epoch)
                emu.store.put_page(
                    profile.page(chat, epoch),
                    # Only the chat's own word: no other chat's message can match this page.
                    f"---\ntitle: {word}\ntype: note\n---\n# {word}\n\n{word}.\n",
                )
        profiles.append(profile)
    return profiles


def _fault(emu: Emulator, kind: str, deadline_s: float) -> None:
    knobs = emu.knobs
    if kind == "latency":
        knobs.latency_s = deadline_s + 0.5
    elif kind == "drip":
        knobs.drip_interval_s = deadline_s / 4
    elif kind == "5xx":
        knobs.status = 503
    elif kind == "401":
        knobs.force_401 = 3
    elif kind == "token-expiry":
        emu.expire_all_tokens()
    elif kind == "redirect":
        knobs.redirect_to = "http://127.0.0.1:9/elsewhere"
    elif kind == "oversized":
        knobs.oversized_bytes = 2_000_000
    elif kind == "malformed":
        knobs.malformed_json = True
    elif kind == "bad-header":
        knobs.session_id = "sessi\u00f3n-\u00fc"
    elif kind == "restart":
        emu.stop()
        emu.start()
    elif kind == "slow-apply":  # writes land after the client gave up on them
        knobs.apply_delay_s = {"put_page": deadline_s + 0.5}


def run_soak(
    root: Path, config: SoakConfig, progress: Callable[[str], None] | None = None
) -> SoakResult:
    """Run the soak under ``root`` (profile homes) and return what it saw."""
    from agent.secret_scope import set_multiplex_active

    rng = random.Random(config.seed)
    result = SoakResult()
    capture = _Capture(root / "soak-log.txt")
    tally = _Tally()
    root_logger = logging.getLogger()
    old_level = root_logger.level
    root_logger.addHandler(capture)
    root_logger.setLevel(logging.DEBUG)
    fresh_process_state()
    clear_hermes_caches()
    profiles = _build(root, config)
    launch = profiles[0]
    saved_env = {key: os.environ.get(key) for key in launch.env}
    os.environ.update(launch.env)  # the launch profile's secrets: never to be used by b or c
    set_multiplex_active(True)
    serial = iter(range(1, 10**9))
    messages: list[str] = []
    chats: list[_Chat] = []
    lock = threading.Lock()
    counter = iter(range(config.turns))
    active: dict[int, tuple[SoakProfile, str]] = {}
    acked: dict[str, str] = {}  # slug -> content of writes acknowledged to the model
    pointer_blocks_by_chat: Counter[tuple[str, int]] = Counter()
    root.mkdir(parents=True, exist_ok=True)
    sample_at = {int(config.turns * i / max(1, config.samples - 1)) for i in range(config.samples)}
    try:
        for index in range(config.sessions):
            profile = profiles[index % len(profiles)]
            chats.append(_Chat(index, profile, serial))
        gc.collect()
        result.resources.append(("start", *resources()))
        started = time.monotonic()

        def fault_step(turn: int) -> None:
            with lock:
                if turn % 100 == 0:
                    for profile in profiles:
                        tally.drain(profile)
                for at in [t for t in active if t <= turn]:
                    profile, kind = active.pop(at)
                    profile.emu.reset_knobs()
                if turn % config.fault_every == 0:
                    profile = rng.choice(profiles)
                    kind = rng.choice(FAULTS)
                    result.faults[kind] += 1
                    active[turn + config.fault_turns] = (profile, kind)
                    _fault(profile.emu, kind, config.deadline_s)

        def one(turn: int, chat: _Chat) -> None:
            roll = rng.random()
            profile = chat.profile
            if roll < config.reset_rate:
                chat.reset()
                result.resets += 1
                return
            roll -= config.reset_rate
            if roll < config.undo_rate and chat.driver.history:
                chat.undo()
                result.undos += 1
                return
            roll -= config.undo_rate
            if roll < config.shutdown_rate:
                chat.reopen()
                result.shutdowns += 1
                return
            word = profile.word(chat.index, chat.epoch)
            text = f"What do my notes say about the {word} project? umsg{turn:06d}"
            with lock:
                messages.append(text)
            began = time.monotonic()
            with profile_scope(profile):
                record = chat.driver.turn(text, flush=False)
                if profile.writes and rng.random() < config.write_rate:
                    slug = f"soak/w-{chat.index:03d}-{turn:06d}"
                    content = f"# Write {turn}\n\nWritten by chat {chat.index} at turn {turn}.\n"
                    answer = chat.driver.manager.handle_tool_call(
                        "gbrain_put_page", {"slug": slug, "content": content}
                    )
                    if json.loads(answer).get("queued") is True:
                        with lock:
                            acked[slug] = content
            elapsed = time.monotonic() - began
            prefetch = record.prefetch
            cited = _CITE.findall(prefetch)
            with lock:
                result.prefetch_s.append(elapsed)
                if cited:
                    result.pointer_blocks += 1
                    pointer_blocks_by_chat[(profile.name, chat.index)] += 1
                for slug in cited:
                    if not slug.startswith("soak/"):
                        continue  # a sample-brain page the query also matched
                    mine = profile.page(chat.index, chat.epoch)
                    if slug == mine:
                        continue
                    owner = slug.split("/", 1)[1].split("-", 1)[0]
                    if owner != profile.name:
                        result.wrong_profile += 1
                    elif slug.startswith(f"soak/{profile.name}-c{chat.index:03d}-"):
                        result.wrong_session += 1  # this chat's previous session
                    elif not slug.startswith("soak/w-"):
                        result.wrong_session += 1

        def worker() -> None:
            while True:
                with lock:
                    turn = next(counter, None)
                if turn is None:
                    return
                fault_step(turn)
                if turn in sample_at and turn:
                    result.resources.append((f"turn {turn}", *resources()))
                for _ in range(len(chats)):
                    chat = chats[rng.randrange(len(chats))]
                    if chat.lock.acquire(blocking=False):
                        break
                else:
                    continue
                try:
                    one(turn, chat)
                    with lock:
                        result.turns += 1
                finally:
                    chat.lock.release()
                if progress is not None and turn and turn % 1000 == 0:
                    progress(f"turn {turn}")

        threads = [threading.Thread(target=worker, name=f"soak-{i}") for i in range(config.workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        result.seconds = time.monotonic() - started
        for profile in profiles:
            profile.emu.reset_knobs()
            if not profile.emu._server:
                profile.emu.start()
        stop_began = time.monotonic()
        for chat in chats:
            with profile_scope(chat.profile):
                chat.driver.close()
        result.stop_s = time.monotonic() - stop_began
        fresh_process_state()
        gc.collect()
        result.resources.append(("end", *resources()))
        # The command line on each profile, as an operator would run it after the soak.
        set_multiplex_active(False)
        _restore(saved_env)
        cli_output = [_cli(profile, config.deadline_s) for profile in profiles]
        for profile in profiles:
            tally.drain(profile)
        # -- writes: every acknowledged write landed once, or is still queued on disk ---------
        writer = profiles[0]
        states = _outbox_states(writer.home.path)
        result.writes_acked = len(acked)
        for slug in acked:
            page = writer.emu.store.get(slug)
            if page is not None and f"at turn {int(slug[-6:])}." in page.compiled_truth:
                result.writes_landed += 1
            elif states.get(slug) in ("pending", "inflight"):
                # Still on disk: pending, or in flight when the drain bound passed (its
                # lease lapses and the next start sends it, checking the page first).
                result.writes_pending += 1
            elif states.get(slug) == "failed":
                result.writes_failed += 1  # refused for good, and reported to the model
            else:
                result.writes_lost += 1
                result.lost_states.append(states.get(slug, "absent"))
        result.writes_duplicated = sum(1 for count in tally.puts.values() if count > 1)
        # -- handed out twice: never more blocks for a chat than searches it caused ----------
        for chat_key, blocks in pointer_blocks_by_chat.items():
            result.handed_twice += max(0, blocks - tally.searches[chat_key])
        result.mints = {profile.name: tally.mints[profile.name] for profile in profiles}
        result.hermes_errors = list(capture.provider_errors)
        secrets = _secrets(profiles, tally.bearers)
        capture.close()
        result.leaks = leak_scan(
            [
                capture.path.read_text(encoding="utf-8"),
                *(repr(c.driver.provider) for c in chats),
                *cli_output,
            ],
            [p.home.path for p in profiles],
            secrets,
            messages,
            bearers=tally.bearers,
        )
    finally:
        set_multiplex_active(False)
        root_logger.removeHandler(capture)
        capture.close()
        root_logger.setLevel(old_level)
        _restore(saved_env)
        for profile in profiles:
            profile.emu.stop()
        fresh_process_state()
    return result


def _restore(saved: dict[str, str | None]) -> None:
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def _cli(profile: SoakProfile, deadline_s: float) -> str:
    """What ``status``, ``doctor`` and ``search`` print for the profile (stdout and stderr)."""
    import contextlib
    import io

    from hermes_gbrain.commands.main import main

    home = str(profile.home.path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        for argv in (
            ["status", "--hermes-home", home],
            ["doctor", "--hermes-home", home],
            ["search", profile.word(0, 0), "--hermes-home", home],
        ):
            with contextlib.suppress(SystemExit):
                main(argv)
    return out.getvalue()


def _outbox_states(home: Path) -> dict[str, str]:
    """Slug -> the outbox state of its last row (pending, failed, replaced, …)."""
    import sqlite3

    found: dict[str, str] = {}
    for path in home.rglob("outbox.sqlite3"):
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
                for slug, state in db.execute("SELECT slug, state FROM outbox ORDER BY id"):
                    found[str(slug)] = str(state)
        except sqlite3.Error:
            continue
    return found


def _secrets(profiles: list[SoakProfile], bearers: set[str]) -> list[str]:
    """Client secrets and every bearer the emulators saw (a token is a secret too)."""
    found = set(bearers)
    for profile in profiles:
        for key, value in profile.env.items():
            if key.endswith(("SECRET", "TOKEN")) and value:
                found.add(value)
    return sorted(found)


def leak_scan(
    lines: list[str],
    homes: list[Path],
    secrets: list[str],
    messages: list[str],
    bearers: Collection[str] = (),
) -> list[str]:
    """Where any secret or user message shows up: log records, reprs, files under the homes.

    A minted bearer in the profile's own token file (``gbrain/token-*.json``, 0600) is
    there by design, as the client secret is in ``.env``; anywhere else it is a leak."""
    needles = [(s, "secret") for s in secrets] + [
        (m.rsplit(" ", 1)[-1], "user message") for m in messages
    ]
    leaks: list[str] = []
    blob = "\n".join(lines)
    for needle, kind in needles:
        if needle and needle in blob:
            leaks.append(f"{kind} in a log record or repr")
    for home in homes:
        for path in home.rglob("*"):
            if not path.is_file() or path.name == ".env":
                continue  # the profile's own .env holds its secrets by design
            try:
                data = path.read_bytes()
            except OSError:
                continue
            token_file = path.name.startswith("token-") and path.suffix == ".json"
            for needle, kind in needles:
                if token_file and needle in bearers and path.stat().st_mode & 0o077 == 0:
                    continue
                if needle.encode() in data:
                    leaks.append(f"{kind} in {path.relative_to(home)}")
    return sorted(set(leaks))
