"""Where the digest reaches the model: provider, hook mode, and a Mnemosyne entry.

Builds the digest of the emulator's sample brain, then reports per setup how often
the model sees it over the 50 first-turn messages of ``bench/relevance.py`` and what
it costs (characters / 4 as tokens, as ``bench/tool_schemas.py`` does):

* ``gbrain`` provider: the system prompt of every request (read once per session);
* hook mode: the first turn's user message, once per session (then replayed as history);
* Mnemosyne (``--to mnemosyne``): the entry is only injected by Mnemosyne's own recall,
  which needs the message to share words with it. Measured with the real provider
  (``mnemosyne-hermes`` 0.7.6) when it is installed (``make test-mnemosyne`` builds
  ``.venv-mnemosyne``): fresh, 30 days old, and 30 days old at the importance the
  previous release stored (0.6, the baseline); skipped otherwise.

Target: the digest reaches every session in the provider and hook setups; the
Mnemosyne figure is reported, not targeted (Mnemosyne offers no every-turn memory).

    MNEMOSYNE_NO_EMBEDDINGS=1 .venv-mnemosyne/bin/python bench/digest_reach.py [--check]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hermes_gbrain.connect import open_brain
from hermes_gbrain.emulator import Emulator
from hermes_gbrain.recall.digest import (
    DIGEST_HEADER,
    DIGEST_SCOPE,
    Digest,
    build_digest,
    format_digest_block,
    write_digest,
)
from hermes_gbrain.settings import load_settings
from relevance import QUERIES
from targets import Targets, add_check_flag


def _tokens(text: str) -> int:
    return round(len(text) / 4)


def _mnemosyne(line: str) -> tuple[int, int, int] | None:
    """Messages whose Mnemosyne recall shows the entry: fresh, 30 days old, and 30 days
    old with the previous release's importance (0.6)."""
    os.environ.setdefault("MNEMOSYNE_NO_EMBEDDINGS", "1")
    try:
        import mnemosyne_hermes  # type: ignore[import-not-found]
        from mnemosyne import Mnemosyne  # type: ignore[import-not-found]
    except ImportError:
        return None
    from hermes_gbrain.commands.mnemosyne_sink import SESSION_ID, store_in_mnemosyne

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "hermes-home"
        home.mkdir()
        (home / "config.yaml").write_text("memory:\n  provider: mnemosyne\n", "utf-8")
        stored = store_in_mnemosyne(home, line)
        provider = mnemosyne_hermes.MnemosyneMemoryProvider()
        provider.initialize("bench", hermes_home=str(home), agent_identity="default")
        try:

            def hits() -> int:
                return sum(
                    stored.memory_id and "GBrain digest" in provider.prefetch(q, session_id="bench")
                    for _, q, _ in QUERIES
                )

            fresh = hits()
            old = (datetime.now(UTC) - timedelta(days=30)).isoformat()
            memory = Mnemosyne(session_id=SESSION_ID, db_path=stored.db_path)
            memory.beam.update_working(stored.memory_id, timestamp=old)
            aged = hits()
            memory.beam.update_working(stored.memory_id, importance=0.6)
            before = hits()
        finally:
            provider.shutdown()
    return fresh, aged, before


def _hook_and_provider(env: dict[str, str], digest: Digest) -> tuple[int, int, int]:
    """(provider sessions, hook sessions, hook digest blocks on later turns) over QUERIES."""
    from hermes_gbrain.adapters.hook import GBrainHook
    from hermes_gbrain.adapters.layers import digest_block, read_layers

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        lines = {**env, "GBRAIN_POINTER_ALLOW_HTTP": "1", "GBRAIN_TOOLS": "off"}
        (home / ".env").write_text("".join(f"{k}={v}\n" for k, v in lines.items()), "utf-8")
        write_digest(home, digest)
        os.environ["HERMES_HOME"] = str(home)
        provider = sum(bool(digest_block(str(home), read_layers(str(home)))) for _ in QUERIES)
        hook = GBrainHook()
        first = later = 0
        for number, (_, message, _) in enumerate(QUERIES):
            session = f"bench-{number}"
            opening = hook.pre_llm_call(
                session_id=session, user_message=message, is_first_turn=True
            )
            first += DIGEST_HEADER in (opening or {}).get("context", "")
            history = [{"role": "user", "content": message}, {"role": "assistant", "content": "ok"}]
            follow = hook.pre_llm_call(
                session_id=session,
                user_message="And what else?",
                conversation_history=history,
                is_first_turn=False,
            )
            later += DIGEST_HEADER in (follow or {}).get("context", "")
    return provider, first, later


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_check_flag(parser)
    args = parser.parse_args(argv)
    targets = Targets()
    with Emulator() as emu, tempfile.TemporaryDirectory(prefix="hermes-gbrain-bench-") as home:
        env = emu.client_env("bench-digest", scopes="read")
        settings = load_settings(env.get, hermes_home=home)
        digest = build_digest(open_brain(settings, scope=DIGEST_SCOPE))
        provider, hook, repeats = _hook_and_provider(env, digest)
    block = format_digest_block(digest.line)
    n = len(QUERIES)
    print(
        f"Digest of the sample brain: {len(digest.line)} characters, block {_tokens(block)} tokens"
    )
    print(f"{'setup':<30} {'sessions reached':>17}  where")
    print(f"{'gbrain provider':<30} {f'{provider}/{n}':>17}  system prompt, every request")
    print(f"{'hook mode (gbrain-hook)':<30} {f'{hook}/{n}':>17}  first user message only", end="")
    print(f" (later turns: {repeats}/{n})")
    targets.record("provider sessions reached", f"{provider}/{n}", f"{n}/{n}", provider == n)
    targets.record("hook sessions reached", f"{hook}/{n}", f"{n}/{n}", hook == n)
    found = _mnemosyne(digest.line)
    if found is None:
        print("Mnemosyne entry: skipped (mnemosyne-hermes not installed; make test-mnemosyne)")
        return targets.finish(args.check)
    fresh, aged, before = found
    where = "recalled when the message shares its words"
    print(f"{'Mnemosyne entry, fresh':<30} {f'{fresh}/{n}':>17}  {where}")
    print(f"{'Mnemosyne entry, 30 days old':<30} {f'{aged}/{n}':>17}  {where}")
    print(f"{'  same, importance 0.6 (before)':<30} {f'{before}/{n}':>17}  {where}")
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
