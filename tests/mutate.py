"""Flip each safety check once and show the test suite catching it (``make mutate``).

Every mutation below switches off one check listed in ``docs/reliability.md``. The
script copies ``src``, ``tests`` and ``pyproject.toml`` into a temporary directory,
applies one mutation at a time there (the working tree is never touched), runs the
tests that guard that check, and reports *caught* (a test failed) or *survived* (all
passed: the suite would not notice the check going missing). Exit status 1 if any
mutation survives or a mutation no longer applies (its code changed).

    .venv/bin/python tests/mutate.py [--list] [NAME ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = "src/hermes_gbrain"


@dataclass(frozen=True)
class Mutation:
    name: str
    """Short name, as listed in docs/reliability.md."""
    path: str
    before: str
    """Exact text that must occur once in ``path``."""
    after: str
    tests: tuple[str, ...]


MUTATIONS: tuple[Mutation, ...] = (
    Mutation(
        "redirect refusal",
        f"{PKG}/transport.py",
        "if 300 <= status < 400:",
        "if False:",
        ("tests/unit/test_transport.py", "tests/unit/test_auth.py"),
    ),
    Mutation(
        "byte cap (declared length)",
        f"{PKG}/transport.py",
        "if size > cap:",
        "if False:",
        ("tests/unit/test_transport.py",),
    ),
    Mutation(
        "byte cap (body read)",
        f"{PKG}/transport.py",
        "if len(body) > cap:",
        "if False:",
        ("tests/unit/test_transport.py",),
    ),
    Mutation(
        "request body cap",
        f"{PKG}/transport.py",
        "if len(content) > self._max_request_bytes:",
        "if False:",
        ("tests/unit/test_transport.py",),
    ),
    Mutation(
        "request deadline (socket operations)",
        f"{PKG}/transport.py",
        'deadline: float | None = getattr(_deadline, "at", None)',
        "deadline: float | None = None",
        ("tests/unit/test_transport.py",),
    ),
    Mutation(
        "call deadline (mint + retry share one)",
        f"{PKG}/transport.py",
        "if outer is not None and outer[0] < deadline:",
        "if False:",
        ("tests/integration/test_hardening.py",),
    ),
    Mutation(
        "call deadline (catalog + search share one)",
        f"{PKG}/api.py",
        "from .transport import call_deadline\n",
        "from contextlib import nullcontext as call_deadline\n",
        ("tests/integration/test_hardening.py",),
    ),
    Mutation(
        "call deadline (tool-call retry shares it)",
        f"{PKG}/toolbridge/bridge.py",
        "with call_deadline(brain.mcp.deadline_s):  # the retry shares the call's deadline",
        "if True:",
        ("tests/unit/test_hostile_inputs.py",),
    ),
    Mutation(
        "compressed-body refusal",
        f"{PKG}/transport.py",
        "if encoding not in _IDENTITY:",
        "if False:",
        ("tests/unit/test_transport.py",),
    ),
    Mutation(
        "header-value check",
        f"{PKG}/transport.py",
        "if not _header_ok(value):",
        "if False:",
        ("tests/unit/test_hostile_inputs.py",),
    ),
    Mutation(
        "session-id check",
        f"{PKG}/mcp.py",
        "if session and len(session) <= MAX_SESSION_ID and _visible_ascii(session):",
        "if session:",
        ("tests/unit/test_hostile_inputs.py", "tests/unit/test_mcp.py"),
    ),
    Mutation(
        "strict JSON (no NaN/Infinity)",
        f"{PKG}/jsontext.py",
        "json.loads(data, parse_constant=_no_constant, parse_float=_finite)",
        "json.loads(data)",
        ("tests/unit/test_hostile_inputs.py",),
    ),
    Mutation(
        "JSON depth bound",
        f"{PKG}/jsontext.py",
        "    except RecursionError:",
        "    except ZeroDivisionError:",
        ("tests/unit/test_hostile_inputs.py",),
    ),
    Mutation(
        "typed errors at the MCP boundary",
        f"{PKG}/mcp.py",
        "    except Exception as exc:\n        raise ProtocolError(",
        "    except ZeroDivisionError as exc:\n        raise ProtocolError(",
        ("tests/unit/test_hostile_inputs.py", "tests/unit/test_discovery_hardening.py"),
    ),
    Mutation(
        "catalog drops deep schemas",
        f"{PKG}/mcp.py",
        "if isinstance(schema, dict) and jsontext.depth_over(schema, MAX_SCHEMA_DEPTH):",
        "if False:",
        ("tests/unit/test_hostile_inputs.py", "tests/unit/test_discovery_hardening.py"),
    ),
    Mutation(
        "single-flight tools/list",
        f"{PKG}/mcp.py",
        "lock = _fetch_lock(self._catalog_key)",
        "lock = threading.Lock()",
        ("tests/unit/test_hostile_inputs.py",),
    ),
    Mutation(
        "non-finite scores dropped",
        f"{PKG}/api.py",
        "return number if math.isfinite(number) else None",
        "return number",
        ("tests/unit/test_hostile_inputs.py",),
    ),
    Mutation(
        "429 back-off survives junk Retry-After",
        f"{PKG}/auth.py",
        "        if math.isfinite(number):\n            return max(number, 0.0)",
        "        if True:\n            return max(number, 0.0)",
        ("tests/unit/test_auth.py",),
    ),
    Mutation(
        "token-cache key (secret)",
        f"{PKG}/auth.py",
        'keyed_hash("oauth", namespace, token_url, client_id, client_secret, scope or "")',
        'keyed_hash("oauth", namespace, token_url, client_id, scope or "")',
        ("tests/unit/test_auth.py",),
    ),
    Mutation(
        "token-cache key (profile)",
        f"{PKG}/connect.py",
        "            namespace=settings.hermes_home,\n",
        '            namespace="",\n',
        ("tests/unit/test_isolation_keys.py",),
    ),
    Mutation(
        "discovery-cache key (secret)",
        f"{PKG}/toolbridge/discovery.py",
        '        settings.client_secret or "",\n',
        '        "",\n',
        ("tests/unit/test_discovery_hardening.py", "tests/unit/test_toolbridge.py"),
    ),
    Mutation(
        "discovery refresh never dies",
        f"{PKG}/toolbridge/session.py",
        "except Exception as exc:  # a background thread must never print a traceback",
        "except ZeroDivisionError as exc:",
        ("tests/unit/test_discovery_hardening.py",),
    ),
    Mutation(
        "discovery cache never raises",
        f"{PKG}/toolbridge/discovery.py",
        "except Exception:  # a damaged or hostile file is a cache miss, never a crash",
        "except ZeroDivisionError:",
        ("tests/unit/test_discovery_hardening.py",),
    ),
    Mutation(
        "credential must be visible ASCII",
        f"{PKG}/settings.py",
        "if value is not None and not _visible_ascii(value):",
        "if False:",
        ("tests/unit/test_settings.py", "tests/integration/test_hardening.py"),
    ),
    Mutation(
        "injection screen",
        f"{PKG}/recall/screen.py",
        "return any(_matches(form) for form in screen_forms(title))",
        "return False",
        ("tests/unit/test_screen.py",),
    ),
    Mutation(
        "screen on normalised text",
        f"{PKG}/recall/screen.py",
        "return any(_matches(form) for form in screen_forms(title))",
        "return _SCREEN.search(title) is not None",
        ("tests/unit/test_screen.py",),
    ),
    Mutation(
        "look-alike letters read as Latin",
        f"{PKG}/recall/screen.py",
        '    folded = _unmarked(unicodedata.normalize("NFKC", text)).translate(LOOKALIKES)\n'
        "    folded = _unmarked(folded.casefold().translate(LOOKALIKES)).translate(_PUNCT)\n",
        '    folded = _unmarked(unicodedata.normalize("NFKC", text))\n'
        "    folded = _unmarked(folded.casefold()).translate(_PUNCT)\n",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "combining marks stripped",
        f"{PKG}/recall/screen.py",
        'return "".join(ch for ch in decomposed if not unicodedata.category(ch).startswith("M"))',
        "return text",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "leet read as letters",
        f"{PKG}/recall/screen.py",
        "        if _leet(flat):",
        "        if False:",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "spaced-out letters joined",
        f"{PKG}/recall/screen.py",
        '_RUN = re.compile(r"(?<![^\\W_])[^\\W_](?:[\\s.\\-_*·•|/+~,:]{1,3}[^\\W_]){3,}'
        '(?![^\\W_])")',
        '_RUN = re.compile(r"(?!)")',
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "squashed phrases",
        f"{PKG}/recall/screen.py",
        '_SCREEN.search(form) or _SQUASHED.search(_NOT_WORD.sub("", form)) or _spaced_out(form)',
        "_SCREEN.search(form) or _spaced_out(form)",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "reversed text read",
        f"{PKG}/recall/screen.py",
        "    if _BIDI.search(text):",
        "    if False:",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "line breaks kept for role markers",
        f"{PKG}/recall/screen.py",
        '        if "\\n" in folded:\n            forms.append(folded)\n',
        "",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "markup removed",
        f"{PKG}/text.py",
        "    flat = strip_markup(lines)\n",
        "    return one_line(lines, cap)\n",
        ("tests/unit/test_text.py", "tests/unit/test_screen_corpus.py"),
    ),
    Mutation(
        "references: slug alphabet",
        f"{PKG}/text.py",
        "if not all(_slug_char(ch, False) for ch in segment[1:]):",
        "if False:",
        ("tests/unit/test_text.py", "tests/unit/test_screen_corpus.py"),
    ),
    Mutation(
        "references: source id alphabet",
        f"{PKG}/recall/screen.py",
        "source, page = safe_source_id(source_id), prompt_slug(slug, screen=False)",
        "source, page = str(source_id), prompt_slug(slug, screen=False)",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "references: slug shape",
        f"{PKG}/recall/screen.py",
        "if page is None or not _shapely(page):",
        "if page is None:",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "references: words screened",
        f"{PKG}/recall/screen.py",
        'if screen and looks_like_instructions(f"{_words(source)} : {_words(page)}"):',
        "if False:",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "fact subject and id checked",
        f"{PKG}/recall/facts.py",
        "        if fact.entity_slug and prompt_slug(fact.entity_slug) is None:",
        "        if False:",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "server error code checked",
        f"{PKG}/toolbridge/bridge.py",
        "code = server_code(exc.code)",
        "code = exc.code",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "server error message screened",
        f"{PKG}/toolbridge/bridge.py",
        "detail = server_text(exc.detail, 300)",
        "detail = one_line(exc.detail, 300)",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "server notes screened",
        f"{PKG}/toolbridge/bridge.py",
        "line = server_text(note, 200)",
        "line = one_line(note, 200)",
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "tool answers withhold unsafe references",
        f"{PKG}/toolbridge/bridge.py",
        '"ref": prompt_ref(row.source_id, row.slug) or _REF_WITHHELD,',
        '"ref": f"[{row.source_id}:{row.slug}]",',
        ("tests/unit/test_screen_corpus.py",),
    ),
    Mutation(
        "invisible characters removed, not spaced",
        f"{PKG}/text.py",
        '        return ""  # format (zero-width, bidi), surrogate, private, unassigned: nothing',
        '        return " "',
        ("tests/unit/test_screen.py", "tests/unit/test_text.py"),
    ),
    Mutation(
        "pointer title screen",
        f"{PKG}/recall/pointers.py",
        "title = prompt_line(row.title, TITLE_CAP, screen=screen)",
        "title = prompt_line(row.title, TITLE_CAP, screen=False)",
        ("tests/unit/test_screen.py", "tests/unit/test_pointers_format.py"),
    ),
    Mutation(
        "briefing title screen",
        f"{PKG}/recall/rowwords.py",
        "    if prompt_line(row.title, TITLE_CAP) is None:",
        "    if False:",
        ("tests/unit/test_screen.py", "tests/unit/test_briefing.py", "tests/unit/test_gate.py"),
    ),
    Mutation(
        "digest title screen",
        f"{PKG}/recall/digest.py",
        'name = prompt_line(ref.title or ref.slug.rsplit("/", 1)[-1], 4 * NAME_CAP)',
        'name = prompt_line(ref.title or ref.slug.rsplit("/", 1)[-1], 4 * NAME_CAP, screen=False)',
        ("tests/integration/test_hardening.py",),
    ),
    Mutation(
        "state folders: links refused",
        f"{PKG}/files.py",
        "    refuse_redirect(folder)\n    folder.mkdir(parents=True, exist_ok=True)",
        "    folder.mkdir(parents=True, exist_ok=True)",
        ("tests/unit/test_state_files.py",),
    ),
    Mutation(
        "state files: links refused (SQLite)",
        f"{PKG}/files.py",
        "        refuse_redirect(sidecar)  # SQLite would follow a planted link\n"
        "        _narrow(sidecar, missing_ok=True)"
        "  # never opened: another connection may use it\n",
        "",
        ("tests/unit/test_state_files.py",),
    ),
    Mutation(
        "state files: links refused (writes)",
        f"{PKG}/files.py",
        "        private_dir(target.parent)\n        refuse_redirect(target)\n",
        "        private_dir(target.parent)\n",
        ("tests/unit/test_state_files.py",),
    ),
    Mutation(
        "state files: links refused (reads)",
        f"{PKG}/files.py",
        "    refuse_redirect(target)\n"
        '    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)',
        '    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)',
        ("tests/unit/test_state_files.py",),
    ),
    Mutation(
        "stale temporary files swept",
        f"{PKG}/files.py",
        "    _sweep_now_and_then(target.parent)\n",
        "",
        ("tests/unit/test_state_files.py",),
    ),
    Mutation(
        "damaged key replaced",
        f"{PKG}/files.py",
        "    if info is not None and stat.S_ISDIR(info.st_mode):",
        "    if False:",
        ("tests/unit/test_state_files.py",),
    ),
    Mutation(
        "doctor names state links",
        f"{PKG}/commands/doctor.py",
        "    links = redirected(home)",
        "    links: list[Path] = []",
        ("tests/unit/test_state_files.py",),
    ),
    Mutation(
        "hook fails open",
        f"{PKG}/adapters/hook.py",
        "        except Exception as exc:  # fail open; never message text in logs",
        "        except ZeroDivisionError as exc:",
        ("tests/unit/test_isolation_keys.py",),
    ),
    Mutation(
        "CLI errors in one line",
        f"{PKG}/commands/main.py",
        "    except Exception as exc:\n        if args.debug:",
        "    except GBrainError as exc:\n        if args.debug:",
        ("tests/integration/test_hardening.py",),
    ),
    Mutation(
        "connection bulkhead",
        f"{PKG}/transport.py",
        "bulkhead = (_origin(url), share)",
        'bulkhead = ("", "")',
        ("tests/unit/test_bulkheads.py",),
    ),
    Mutation(
        "pointer worker bulkhead",
        f"{PKG}/recall/pointers.py",
        "if self._busy.get(share, 0) >= self._per_share:",
        "if False:",
        ("tests/unit/test_pointers_engine.py",),
    ),
    Mutation(
        "briefing bulkhead",
        f"{PKG}/recall/briefing.py",
        'share = getattr(search, "share", "")',
        'share = ""',
        ("tests/unit/test_briefing.py",),
    ),
    Mutation(
        "store keeps waiting results",
        f"{PKG}/recall/pointers.py",
        "                if not self._spare:\n"
        "                    return None  # every session holds a result or a search: keep them\n"
        "                spare, _ = self._spare.popitem(last=False)\n",
        "                spare, _ = self._slots.popitem(last=False)\n"
        "                self._slots[spare] = _Slot()\n",
        ("tests/unit/test_pointers_engine.py",),
    ),
    Mutation(
        "no send while one may still land",
        f"{PKG}/rowqueue.py",
        'sql = f"COALESCE({self.table}.settle_until,0)<=? AND NOT {self._blocker}"',
        'sql = f"0<=? AND NOT {self._blocker}"',
        ("tests/unit/test_toolbridge.py", "tests/integration/test_write_safety.py"),
    ),
    Mutation(
        "settle mark on disk before the send",
        f"{PKG}/toolbridge/outbox.py",
        "if not self.outbox.sending(entry.op_id, self._deadline_s):",
        "if False:",
        ("tests/unit/test_toolbridge.py", "tests/integration/test_write_safety.py"),
    ),
    Mutation(
        "an unclear send keeps its mark",
        f"{PKG}/toolbridge/outbox.py",
        "settled = not (sending and may_still_land(exc))",
        "settled = True",
        ("tests/unit/test_toolbridge.py",),
    ),
    Mutation(
        "one write per page at a time, in order",
        f"{PKG}/rowqueue.py",
        "f\" ((b.id<{table}.id AND b.state IN ('pending','inflight'))\"",
        "f\" ((b.id<{table}.id AND b.state IN ('none'))\"",
        ("tests/unit/test_toolbridge.py", "tests/integration/test_write_safety.py"),
    ),
    Mutation(
        "a page waits for every send that may still land",
        f"{PKG}/rowqueue.py",
        'f" OR COALESCE(b.settle_until,0)>?))"',
        'f" OR COALESCE(b.settle_until,0)>?+1e12))"',
        ("tests/unit/test_toolbridge.py",),
    ),
    Mutation(
        "a failed pass gives its row back",
        f"{PKG}/rowqueue.py",
        "return sum(self.release(op_id) for op_id in held)",
        "return 0",
        ("tests/unit/test_toolbridge.py", "tests/unit/test_writeback.py"),
    ),
    Mutation(
        "a failed pass does not end the worker",
        f"{PKG}/rowqueue.py",
        "                    if self._stop.is_set():\n                        return\n",
        "                    return\n",
        ("tests/unit/test_toolbridge.py",),
    ),
    Mutation(
        "a holder gone in this process frees its rows",
        f"{PKG}/rowqueue.py",
        "return owner not in _live_owners",
        "return False",
        ("tests/unit/test_toolbridge.py",),
    ),
    Mutation(
        "our newer write is not someone else's edit",
        f"{PKG}/toolbridge/outbox.py",
        "elif any(now.holds(text) for text in self.outbox.others(entry)):",
        "elif False:",
        ("tests/unit/test_toolbridge.py",),
    ),
    Mutation(
        "write-back waits for a send that may still land",
        f"{PKG}/writeback/mirror.py",
        "settled = not (self._sending and may_still_land(exc))",
        "settled = True",
        ("tests/unit/test_writeback.py",),
    ),
    Mutation(
        "a write that would replace takes two steps",
        f"{PKG}/toolbridge/bridge.py",
        "if tool in schemas.REPLACING_TOOLS and (confirm or self._replaces(tool, arguments)):",
        "if False:",
        ("tests/integration/test_write_tools.py",),
    ),
    Mutation(
        "page read again after asking",
        f"{PKG}/toolbridge/bridge.py",
        "return self.approve is not None and self._state(slug, source) != before",
        "return False",
        ("tests/integration/test_write_tools.py",),
    ),
    Mutation(
        "one deadline per tool call",
        f"{PKG}/toolbridge/bridge.py",
        "return self.settings.timeout_s or MCP_DEADLINE_S",
        "return 1e9",
        ("tests/integration/test_write_tools.py",),
    ),
    Mutation(
        "a hung tools/list leaves the call its share",
        f"{PKG}/toolbridge/bridge.py",
        "with call_deadline(deadline_left(self.budget_s) / 2):",
        "with call_deadline(self.budget_s):",
        ("tests/integration/test_write_tools.py",),
    ),
    Mutation(
        "write-back retires only with the user's setting",
        f"{PKG}/writeback/ledger.py",
        "            if prior is not None and retire:",
        "            if prior is not None:",
        ("tests/unit/test_writeback.py", "tests/integration/test_memory_writeback.py"),
    ),
    Mutation(
        "write-back never from subagent or cron",
        f"{PKG}/adapters/memorywire.py",
        "        if not gate.allowed:",
        "        if False:",
        ("tests/integration/test_memory_writeback.py",),
    ),
    Mutation(
        "write-back looks before it re-sends",
        f"{PKG}/writeback/mirror.py",
        "        found = self._find(brain, op)",
        "        found = None",
        ("tests/integration/test_memory_writeback.py",),
    ),
    Mutation(
        "write-back retires only its own facts",
        f"{PKG}/writeback/mirror.py",
        "        if not op.owned:",
        "        if False:",
        ("tests/unit/test_writeback.py",),
    ),
    Mutation(
        "briefing fact screen",
        f"{PKG}/recall/facts.py",
        "        text = prompt_line(fact.fact, FACT_CHARS)\n        if fact.id in seen",
        "        text = prompt_line(fact.fact, FACT_CHARS, screen=False)\n"
        "        if fact.id in seen",
        ("tests/unit/test_writeback.py", "tests/unit/test_screen_corpus.py"),
    ),
    Mutation(
        "memory-off notice once",
        f"{PKG}/recall/health.py",
        "if failure is not None and not self._told_down:",
        "if failure is not None:",
        ("tests/unit/test_health.py",),
    ),
    Mutation(
        "last turn keeps no summary",
        f"{PKG}/recall/health.py",
        'one_line(found["title"], _TITLE_CAP),',
        "one_line(found.string, _TEXT_CAP),",
        ("tests/unit/test_health.py",),
    ),
    Mutation(
        "doctor creates nothing",
        f"{PKG}/commands/doctor.py",
        "    if home.is_dir():\n        return True",
        "    if True:\n        return True",
        ("tests/integration/test_fix_messages.py",),
    ),
    Mutation(
        "port probe as the server binds",
        f"{PKG}/emulator/cli.py",
        "probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)",
        "pass",
        ("tests/emulator/test_emulator_port.py",),
    ),
    Mutation(
        "token file: only the owner's private file",
        f"{PKG}/files.py",
        "or stat.S_IMODE(info.st_mode) & 0o077\n",
        "\n",
        ("tests/unit/test_token_file.py",),
    ),
    Mutation(
        "token file: keyed by the credential",
        f"{PKG}/tokenfile.py",
        "if not isinstance(key, str) or not hmac.compare_digest(key, self.key):",
        "if not isinstance(key, str):",
        ("tests/unit/test_token_file.py",),
    ),
    Mutation(
        "token file: a refused token is never reused",
        f"{PKG}/auth.py",
        "if not record.token or record.token == slot.rejected or record.refresh_at <= wall:",
        "if not record.token or record.refresh_at <= wall:",
        ("tests/unit/test_token_file.py",),
    ),
    Mutation(
        "mint wait keeps the caller's deadline",
        f"{PKG}/auth.py",
        "wait = deadline_left(self._deadline_s + 1.0)\n        if not slot.lock.acquire(",
        "wait = self._deadline_s + 1.0\n        if not slot.lock.acquire(",
        ("tests/unit/test_token_file.py",),
    ),
    Mutation(
        "briefing claimed by one process",
        f"{PKG}/adapters/layers.py",
        "if not shared_log().claim_briefing(config.home, session):",
        "if False:",
        ("tests/integration/test_briefing_processes.py",),
    ),
    Mutation(
        "a failing pairs search stays quiet",
        f"{PKG}/api.py",
        "                except Exception:  # quiet: no traceback from the helper thread\n",
        "                except ZeroDivisionError:  # quiet: no traceback from the helper thread\n",
        ("tests/unit/test_api.py",),
    ),
    Mutation(
        "pairs rows left out on a hybrid brain",
        f"{PKG}/api.py",
        "if all(r.cosine is None for r in found.rows):",
        "if True:",
        ("tests/unit/test_api.py",),
    ),
)


def _copy_tree(target: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    shutil.copytree(ROOT / "src", target / "src", ignore=ignore)
    shutil.copytree(ROOT / "tests", target / "tests", ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", target / "pyproject.toml")


def _env(tree: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree / "src"), env.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _pytest(tree: Path, tests: tuple[str, ...]) -> int:
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests]
    done = subprocess.run(  # noqa: PLW1510 - the return code is the answer
        command, cwd=tree, env=_env(tree), capture_output=True, text=True
    )
    return done.returncode


def run(selected: list[Mutation]) -> int:
    failures = 0
    with tempfile.TemporaryDirectory(prefix="hermes-gbrain-mutate-") as tmp:
        tree = Path(tmp)
        _copy_tree(tree)
        probe = subprocess.run(
            [sys.executable, "-c", "import hermes_gbrain; print(hermes_gbrain.__file__)"],
            env=_env(tree),
            capture_output=True,
            text=True,
            check=True,
        )
        if not probe.stdout.strip().startswith(str(tree)):
            print("the mutated copy is not the one imported; refusing to report")
            return 2
        print(f"{'check':<44} {'result':<9} {'time':>6}  tests")
        for mutation in selected:
            path = tree / mutation.path
            original = path.read_text(encoding="utf-8")
            if original.count(mutation.before) != 1:
                print(f"{mutation.name:<44} {'STALE':<9} {'':>6}  (code changed; update me)")
                failures += 1
                continue
            path.write_text(original.replace(mutation.before, mutation.after), encoding="utf-8")
            started = time.monotonic()
            try:
                code = _pytest(tree, mutation.tests)
            finally:
                path.write_text(original, encoding="utf-8")
            took = time.monotonic() - started
            result = {0: "SURVIVED", 1: "caught"}.get(code, f"error {code}")
            failures += result != "caught"
            print(f"{mutation.name:<44} {result:<9} {took:5.1f}s  {' '.join(mutation.tests)}")
    caught = len(selected) - failures
    print(f"\n{caught}/{len(selected)} mutations caught")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="only mutations whose name contains one of these")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    args = parser.parse_args(argv)
    if args.list:
        for mutation in MUTATIONS:
            print(f"{mutation.name:<44} {mutation.path}")
        return 0
    selected = [m for m in MUTATIONS if not args.names or any(n in m.name for n in args.names)]
    return run(selected)


if __name__ == "__main__":
    sys.exit(main())
