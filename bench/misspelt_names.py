"""Names typed with a slip: does the gate still find the person's or company's page?

Every person and company of the large benchmark brain whose title has two words or more
is asked about twice, "what do we know about <name>?": once spelt right and once with
one slip in one word of five letters or more (two letters swapped, one left out, one
doubled or one changed; drawn with a fixed seed, so every run asks the same). Both go
through the provider's retrieval (``relevance.PROVIDER_RETRIEVAL``) and its gate, on the
keyword-only emulator. Measured as the share of messages whose page is among the three
shown, beside the same messages with the mending of slips turned off (the baseline, in
the same run). The messages are generated, not written by a user: the labelled sets of
``relevance.py`` measure the gate as a whole; this isolates one rule.

Targets: misspelt names found >= 0.9; names spelt right found 1.00 (the mending takes
nothing away).

    .venv/bin/python bench/misspelt_names.py [--check]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from unittest import mock

from hermes_gbrain.api import SearchRow
from hermes_gbrain.emulator import large_brain
from hermes_gbrain.recall import readings
from hermes_gbrain.recall.gate import Gate
from hermes_gbrain.recall.named import TitleMatcher
from hermes_gbrain.recall.words import SLIP_MIN
from relevance import gate, provider_on_large_brain
from targets import Targets, add_check_flag

SEED = 5
FOUND_TARGET = 0.9


def _title(content: str) -> str:
    for line in content.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def _slip(word: str, rnd: random.Random) -> str:
    i = rnd.randrange(1, len(word) - 1)
    kind = rnd.choice(("swap", "drop", "double", "change"))
    if kind == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if kind == "drop":
        return word[:i] + word[i + 1 :]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    return word[:i] + rnd.choice("aeiounrst") + word[i + 1 :]


def messages() -> list[tuple[str, str, str]]:
    """(right, misspelt, slug) for every two-word-or-longer name of the brain."""
    rnd = random.Random(SEED)
    out: list[tuple[str, str, str]] = []
    for _, slug, content in large_brain.pages():
        title = _title(content)
        names = title.split()
        if not slug.startswith(("people/", "companies/")) or len(names) < 2:
            continue
        long = [i for i, w in enumerate(names) if len(w) >= SLIP_MIN and w.isalpha()]
        if not long:
            continue
        slipped = list(names)
        i = rnd.choice(long)
        slipped[i] = _slip(names[i], rnd)
        if slipped[i].lower() == names[i].lower():
            continue
        ask = "what do we know about {}?"
        out.append((ask.format(title), ask.format(" ".join(slipped)), slug))
    return out


Retrieve = Callable[[str, Sequence[str], Sequence[str]], Sequence[SearchRow]]


def found(asked: list[tuple[str, str]], retrieve: Retrieve, rules: Gate) -> float:
    hits = sum(
        slug in [r.slug for r in gate(retrieve(m, [], []), m, gate=rules, limit=3)]
        for m, slug in asked
    )
    return hits / max(len(asked), 1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    add_check_flag(parser)
    args = parser.parse_args(argv)
    asked = messages()
    right = [(r, slug) for r, _, slug in asked]
    wrong = [(w, slug) for _, w, slug in asked]
    with provider_on_large_brain() as (retrieve, rules):
        mended, spelt = found(wrong, retrieve, rules), found(right, retrieve, rules)
        with (
            mock.patch.object(readings, "_mended", lambda row, wanted, message, read: wanted),
            mock.patch.object(TitleMatcher, "_misspelt", lambda self, message, wanted: []),
        ):
            baseline = found(wrong, retrieve, rules)
    print(f"Names asked about on the large brain (keyword-only): {len(asked)}, each twice")
    print(f"  misspelt, slips not mended (baseline): {baseline:.2f}")
    targets = Targets()
    targets.record(
        "misspelt names found", f"{mended:.2f}", f">= {FOUND_TARGET}", mended >= FOUND_TARGET
    )
    targets.record("names spelt right found", f"{spelt:.2f}", "= 1.00", spelt == 1.0)
    return targets.finish(args.check)


if __name__ == "__main__":
    sys.exit(main())
