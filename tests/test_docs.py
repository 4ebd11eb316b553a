"""The README cannot drift: its walk-through runs word for word, and its variables,
commands and flags are exactly the ones the code has."""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hermes_gbrain.commands.main import _parser
from hermes_gbrain.commands.setup import EMULATOR_DIR, EMULATOR_PID
from hermes_gbrain.emulator.cli import _parser as emulator_parser
from hermes_gbrain.files import data_dir
from hermes_gbrain.recall.digest import read_digest
from support.hermes_cli import CLI_TEST_TIMEOUT_S, child_env, model_config
from support.hermes_home import HermesHome
from support.stub_model import StubModel

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
_VARIABLE = re.compile(r"\b(?:GBRAIN|MCP_GBRAIN)_[A-Z0-9_]*[A-Z0-9]\b")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_COMMAND = re.compile(r"hermes-gbrain ([a-z][a-z-]*)")
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z-]*")


def _section(title: str) -> str:
    start = README.index(f"## {title}\n")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else None]


def walkthrough_commands() -> list[str]:
    """Every line of the ```sh blocks of "Use it with your Hermes", in order."""
    text = _section("Use it with your Hermes")
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


@pytest.mark.hermes
def _fresh_venv(target: Path) -> Path:
    """A virtual environment whose ``pip install .`` lands in it alone.

    It sees the test environment's packages through a ``.pth`` line (so the package's
    dependencies and pip itself are there without a download), and its own
    site-packages come first: the ``hermes-gbrain`` that ``pip install .`` puts in its
    ``bin/`` runs the freshly built copy, not the development install.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(target)], check=True)
    outer = next(p for p in sys.path if p.endswith("site-packages"))
    inner = next((target / "lib").glob("python3*/site-packages"))
    (inner / "dev-env.pth").write_text(outer + "\n", encoding="utf-8")
    pip = target / "bin" / "pip"
    pip.write_text(
        f"#!{target / 'bin' / 'python'}\n"
        "import sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n",
        encoding="utf-8",
    )
    pip.chmod(0o755)
    return target


@pytest.mark.timeout(CLI_TEST_TIMEOUT_S)
@pytest.mark.xdist_group("default-port")  # takes the emulator's default port
def test_walkthrough_runs_word_for_word_to_a_hermes_turn_with_digest_and_briefing(
    hermes_home: HermesHome, stub_model: StubModel, tmp_path: Path
) -> None:
    commands = walkthrough_commands()
    assert commands[0] == "pip install ."
    assert any(c.startswith("hermes -z ") for c in commands)
    home = hermes_home.path
    hermes_home.write_config("", extra={"model": model_config(stub_model)})  # "your Hermes"
    venv = _fresh_venv(tmp_path / "venv")
    env = child_env(home, {"PIP_QUIET": "1", "PIP_NO_INPUT": "1"})
    path = [str(venv / "bin"), str(Path(sys.executable).parent), env.get("PATH", "")]
    env["PATH"] = os.pathsep.join(path)
    outputs: dict[str, str] = {}
    before = 0
    try:
        for command in commands:
            if command.startswith("hermes -z "):
                before = len(stub_model.requests)
            done = subprocess.run(
                ["bash", "-c", command],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=180,
                check=False,
                stdin=subprocess.DEVNULL,
            )
            assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
            outputs[command] = done.stdout
    finally:
        pid_file = data_dir(home) / EMULATOR_DIR / EMULATOR_PID
        if pid_file.is_file():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text().strip()), signal.SIGTERM)
    chats = [r for r in stub_model.requests[before:] if "messages" in r]
    assert chats, "hermes -z made no model request"
    messages = chats[0]["messages"]
    digest = read_digest(home)
    assert digest is not None and digest["line"] in messages[0]["content"]
    users = [m["content"] for m in messages if m["role"] == "user"]
    assert "[default:people/maya-okafor]" in str(users[-1])
    assert "Maya Okafor is the CEO" in str(users[-1])  # the briefing's summary
    assert any("doctor: all good" in out for out in outputs.values())
    installed = venv / "bin" / "hermes-gbrain"  # pip install . put the command there
    assert installed.is_file() and str(venv) in installed.read_text(encoding="utf-8")


def _code_variables() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "src").rglob("*.py"):
        found |= set(_VARIABLE.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_variable_is_documented_and_every_documented_one_exists() -> None:
    in_code = _code_variables()
    in_readme = set(_VARIABLE.findall(README))
    assert sorted(in_code - in_readme) == [], "used in src/ but not in README.md"
    assert sorted(in_readme - in_code) == [], "in README.md but read nowhere in src/"


_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "bench" / "RELEVANCE.md"]
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_variables_in_the_other_docs_exist_in_the_code() -> None:
    in_code = _code_variables()
    for doc in _DOCS[1:]:
        found = set(_VARIABLE.findall(doc.read_text(encoding="utf-8")))
        assert sorted(found - in_code) == [], f"{doc.name} names variables read nowhere in src/"


def _anchors(doc: Path) -> set[str]:
    """GitHub's anchors for a file's headings: lowercased, punctuation dropped, spaces as -."""
    text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.DOTALL)
    heads = re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", head.strip().lower()).replace(" ", "-") for head in heads}


def test_every_link_between_the_docs_reaches_a_file_and_a_heading() -> None:
    for doc in _DOCS:
        text = re.sub(r"```.*?```", "", doc.read_text(encoding="utf-8"), flags=re.DOTALL)
        for target in _LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue  # another site
            path, _, anchor = target.partition("#")
            linked = (doc.parent / path).resolve() if path else doc
            assert linked.exists(), f"{doc.name} links to a missing {target}"
            if anchor:
                assert anchor in _anchors(linked), f"{doc.name} links to a missing {target}"


def _global_flags() -> set[str]:
    """Flags of ``hermes-gbrain`` itself (``--debug``, ``--version``), accepted everywhere."""
    return {
        option
        for action in _parser()._actions
        for option in action.option_strings
        if option.startswith("--") and option != "--help"
    }


def _commands() -> dict[str, set[str]]:
    """Subcommand → its own long flags (the emulator's come from its own parser)."""
    parser = _parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found: dict[str, set[str]] = {}
    for name, cmd in sub.choices.items():
        source = emulator_parser() if name == "emulator" else cmd
        found[name] = {
            option
            for action in source._actions
            for option in action.option_strings
            if option.startswith("--") and option != "--help"
        }
    return found


def _documented_uses() -> list[str]:
    """Code spans and code-block lines that run ``hermes-gbrain``."""
    uses = [span for span in _CODE_SPAN.findall(README) if "hermes-gbrain " in span]
    for block in re.findall(r"```[a-z]*\n(.*?)```", README, flags=re.DOTALL):
        uses += [line for line in block.splitlines() if "hermes-gbrain " in line]
    return uses


def test_every_command_and_flag_is_documented_and_every_documented_one_exists() -> None:
    commands = _commands()
    everywhere = _global_flags()
    uses = _documented_uses()
    for flag in everywhere:
        assert f"`{flag}`" in README or f"hermes-gbrain {flag}" in README, flag
    for name, flags in commands.items():
        mine = [use for use in uses if re.search(rf"hermes-gbrain {name}\b", use)]
        assert mine, f"`hermes-gbrain {name}` is not documented"
        shown = {flag for use in mine for flag in _FLAG.findall(use)}
        assert sorted(flags - everywhere - shown) == [], f"undocumented flags of {name}"
    for use in uses:
        for match in _COMMAND.finditer(use):
            name = match.group(1)
            assert name in commands, f"README documents a command that does not exist: {use}"
            rest = use[match.end() :].split("hermes-gbrain ", 1)[0].split("#", 1)[0]
            unknown = set(_FLAG.findall(rest)) - commands[name] - everywhere
            assert not unknown, f"README shows flags {name} does not have: {use}"
