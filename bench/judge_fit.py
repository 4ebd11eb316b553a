"""Fit the gate's judge (``hermes_gbrain.recall.judge``) on the labelled relevance sets.

Runs the provider over ``bench/data/relevance.json`` on the keyword-only large brain with the
judge admitting nothing, and records, for every clean row not already shown, the judge's features
and whether the row is one of the turn's relevant pages. Then fits a logistic regression
(standardised features, an L2 penalty of 1, Newton's method) and prints the weights as
``src/hermes_gbrain/recall/judge_weights.py`` holds them, standardisation folded in.

``--upto SET`` fits on the sets up to that one (in ``relevance.SPLITS`` order) and reports,
for each threshold, what the judge adds on the sets after it: how the threshold was chosen
(``--upto sealed75``) and how each fit was measured blind (``--upto sealed99``, then sealed100
to sealed103; ``--upto sealed103``, then sealed104 to sealed107; ``--upto sealed107``, then
sealed108 to sealed111; ``--upto sealed111``, then sealed112 to sealed115; ``--upto sealed115``,
then sealed116 to sealed119; ``--upto sealed119``, then sealed120 to sealed123; ``--upto
sealed123``, then sealed124 to sealed127; ``--upto sealed127``, then sealed128 to sealed131;
``--upto sealed131``, then sealed132 to sealed135; ``--upto sealed135``, then sealed136 to
sealed139; ``--upto sealed139``, the committed fit, then sealed140 to sealed143, sealed144 to
sealed147, sealed148 to sealed151, sealed152 to sealed155 and sealed156 to sealed159; ``--upto
sealed99`` is the widest span read out of sample).
``--write`` rewrites the weights module; ``--check`` exits non-zero when the committed weights
differ from the fitted ones, and then prints what the committed weights give beside the fit's
table, so that the difference can be weighed. The fit is deterministic: the emulator's clock is
pinned (``CLOCK``), since its recency boost, like GBrain's, dates pages from the moment of the
search, and the rows' scores, and so the fit, would move from one day to the next. Needs numpy
(``make judge-fit``).

    .venv/bin/python bench/judge_fit.py [--upto sealed75] [--write | --check]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

import relevance as R
from hermes_gbrain.api import SearchRow
from hermes_gbrain.recall import gate, judge, judge_weights
from hermes_gbrain.recall.message import Message
from hermes_gbrain.recall.readings import Reading

WEIGHTS_FILE = Path(__file__).resolve().parents[1] / "src/hermes_gbrain/recall/judge_weights.py"
PENALTY = 1.0
CLOCK = datetime(2026, 12, 4, tzinfo=UTC)
"""The moment the emulator dates pages from while the fit reads its rows."""
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)

Example = tuple[R.Turn, str, str, tuple[float, ...]]
"""(turn, set, slug, features) of one row the gate judged (clean, not yet shown)."""


Outcome = tuple[R.Turn, str, list[str]]
"""(turn, set, slugs the provider injected) of every turn."""


def collect(sessions: Sequence[R.Session]) -> tuple[list[Example], dict[int, Outcome]]:
    """Every judged row's features, and every turn's outcome (by the turn's id)."""
    examples: list[Example] = []
    turn_rows: dict[str, tuple[float, ...]] = {}
    real = gate.admitted

    def recording(
        candidates: Sequence[tuple[SearchRow, Reading, int, int | None]],
        taken: Collection[str],
        said: Message,
        top: float,
        **_: Any,
    ) -> list[SearchRow]:
        # every row the judge could score, taken or not and whatever the room: what it reads
        for row, reading, position, tier in judge.judgeable(candidates):
            values = judge.features(row, reading, said, position, top, tier, len(taken))
            turn_rows.setdefault(row.slug, values)  # turn 1 judges twice: briefing, pointers
        return []  # judged, never admitted

    injected: dict[int, Outcome] = {}
    now: list[tuple[R.Turn, str]] = []  # the turn being run, and its set

    def flush() -> None:
        for turn, split in now:
            examples.extend((turn, split, slug, values) for slug, values in turn_rows.items())
        turn_rows.clear()
        now.clear()

    gate.admitted = recording  # type: ignore[assignment]
    try:
        with R.provider_on_large_brain(clock=CLOCK) as (retrieve, rules):
            for session in sessions:

                def marked(
                    message: str,
                    history: Sequence[str],
                    shown: Sequence[str],
                    session: R.Session = session,
                ) -> Sequence[SearchRow]:
                    flush()
                    now.append((session.turns[len(history)], session.split))
                    return retrieve(message, history, shown)

                for turn, (slugs, _) in R.run_provider([session], marked, rules)["all"]:
                    injected[id(turn)] = (turn, session.split, slugs)
                flush()
    finally:
        gate.admitted = real  # type: ignore[assignment]
    return examples, injected


def fit(x: np.ndarray[Any, Any], y: np.ndarray[Any, Any]) -> tuple[float, np.ndarray[Any, Any]]:
    """Bias and weights on the raw features (standardisation folded in)."""
    mean, spread = x.mean(0), x.std(0)
    spread[spread == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - mean) / spread])
    w = np.zeros(z.shape[1])
    ridge = np.eye(z.shape[1]) * PENALTY
    ridge[0, 0] = 0.0  # the bias is not penalised
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -60, 60)))
        gradient = z.T @ (p - y) + ridge @ w
        hessian = (z * (p * (1 - p))[:, None]).T @ z + ridge
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    weights = w[1:] / spread
    return float(w[0] - (weights * mean).sum()), weights


def module_text(bias: float, weights: Sequence[float], sets: str) -> str:
    lines = [
        '"""The judge\'s logistic weights, one per ``judge.FEATURES`` name, on raw feature values.',
        "",
        f"Written by ``bench/judge_fit.py --write``, fitted on {sets}; not edited by hand.",
        '"""',
        "",
        f"BIAS = {bias!r}",
        "WEIGHTS: tuple[float, ...] = (",
        *(f"    {float(w)!r},  # {name}" for w, name in zip(weights, judge.FEATURES, strict=True)),
        ")",
        "",
    ]
    return "\n".join(lines)


def report(
    examples: list[Example],
    outcomes: list[Outcome],
    bias: float,
    weights: np.ndarray[Any, Any],
    label: str,
) -> None:
    """What each threshold adds on these turns, as the gate fills empty slots."""
    chances: dict[int, list[tuple[float, str]]] = {}
    for turn, _, slug, values in examples:
        p = 1.0 / (1.0 + np.exp(-(bias + float(np.dot(weights, values)))))
        chances.setdefault(id(turn), []).append((float(p), slug))
    print(f"\n{label}: {len(outcomes)} turns, {len(chances)} with a row judged")
    print(
        f"{'threshold':>9}  {'named hit':>9}  {'para first':>10}  {'para later':>10}  "
        f"{'none inj.':>9}  {'named P@3':>9}"
    )
    for threshold in (1.01, *THRESHOLDS):
        tally: dict[str, list[float]] = {
            "named": [],
            "first": [],
            "later": [],
            "none": [],
            "p3": [],
        }
        for turn, _, had in outcomes:
            ranked = sorted(chances.get(id(turn), []), reverse=True)
            extra = [s for p, s in ranked if p >= threshold]
            final = had + extra[: max(0, R.LIMIT - len(had))]
            if turn.kind == "named":
                tally["named"].append(turn.relevant[0] in final)
            elif turn.kind == "paraphrase":
                tally["later" if turn.number else "first"].append(turn.relevant[0] in final)
            elif turn.kind == "none":
                tally["none"].append(bool(final))
            if turn.kind == "named" and final:
                tally["p3"].append(sum(s in turn.relevant for s in final[:3]) / len(final[:3]))
        mean = {k: sum(v) / len(v) if v else 0.0 for k, v in tally.items()}
        name = "rules" if threshold > 1 else f"{threshold:.2f}"
        print(
            f"{name:>9}  {mean['named']:9.3f}  {mean['first']:10.3f}  {mean['later']:10.3f}  "
            f"{mean['none']:9.3%}  {mean['p3']:9.3f}"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--upto", help="fit on the sets up to this one; report the rest")
    parser.add_argument("--data", type=Path, default=R.DATA, help="labelled set (JSON)")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite judge_weights.py")
    group.add_argument("--check", action="store_true", help="fail when the weights differ")
    args = parser.parse_args(argv)
    order = {name: n for n, name in enumerate(R.SPLITS)}
    if args.upto and args.upto not in order:
        parser.error(f"--upto: no set named {args.upto!r}")
    sessions = R.load_sessions(args.data)
    last = order[args.upto] if args.upto else len(order)
    examples, injected = collect(sessions)
    inside = [e for e in examples if order.get(e[1], len(order)) <= last]
    x = np.array([e[3] for e in inside], float)
    y = np.array([e[2] in e[0].relevant for e in inside], float)
    bias, weights = fit(x, y)
    print(f"fitted on {len(inside)} rows judged ({int(y.sum())} relevant)")
    turns = list(injected.values())
    before = [o for o in turns if order.get(o[1], len(order)) <= last]
    report(inside, before, bias, weights, "the sets fitted on")
    if args.upto:
        after = [e for e in examples if order.get(e[1], len(order)) > last]
        later = [o for o in turns if order.get(o[1], len(order)) > last]
        report(after, later, bias, weights, f"the sets after {args.upto}")
    text = module_text(bias, weights, f"the sets up to {R.SPLITS[min(last, len(order) - 1)]}")
    if args.write:
        WEIGHTS_FILE.write_text(text, encoding="utf-8")
        print(f"wrote {WEIGHTS_FILE.name}")
    elif args.check:
        # the same data, read at the same moment, fits to the same weights within BLAS rounding
        committed = [judge_weights.BIAS, *judge_weights.WEIGHTS]
        same = np.allclose(committed, [bias, *weights], rtol=1e-6, atol=1e-7)
        if not same:  # what the committed weights give, to weigh the difference by
            kept = np.array(judge_weights.WEIGHTS, float)
            report(inside, before, judge_weights.BIAS, kept, "the committed weights, fitted on")
            if args.upto:
                report(after, later, judge_weights.BIAS, kept, f"and after {args.upto}")
        print("weights match the fit" if same else "weights differ from the fit: run --write")
        return 0 if same else 1
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
