"""How closely the emulator's hybrid search ranks like a real hybrid GBrain 0.46.28.

Both brains hold the large benchmark brain (``large_brain.pages()``) embedded by
all-MiniLM-L6-v2; every message of ``bench/data/relevance.json`` goes to ``search`` (no
limit: 20 rows, as in recordings 112-114) on each, and the rows are compared page by page:
the same first row (top-1), the same first three rows in order (top-3), and, for the rows
both return, the same ``keyword_hit`` and a cosine within 0.001.

The real side is read from ``bench/data/hybrid_real.json`` (rows a real server returned,
chunk text left out), so the comparison runs anywhere the ``[minilm]`` extra is installed.
To take those rows again from a live server::

    .venv/bin/python bench/hybrid_fidelity.py --seed DIR      # the pages, one file each
    GBRAIN_SEED_DIR=DIR build-hybrid.sh WORKDIR               # a real hybrid GBrain
    .venv/bin/python bench/hybrid_fidelity.py --record WORKDIR/env/read.env

Targets: top-1 >= 95%, top-3 in order >= 80%.

    .venv/bin/python bench/hybrid_fidelity.py [--check] [--real FILE] [--show N]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx

from hermes_gbrain.emulator import Emulator, large_brain
from hermes_gbrain.emulator.hybrid import rank_hybrid
from targets import Targets, add_check_flag

DATA = Path(__file__).with_name("data")
MESSAGES = DATA / "relevance.json"
REAL = DATA / "hybrid_real.json"
KEPT_FIELDS = ("slug", "chunk_source", "score", "base_score", "cosine", "keyword_hit")
TOP1_TARGET = 0.95
TOP3_TARGET = 0.80


def messages(path: Path = MESSAGES, sets: Collection[str] | None = None) -> list[str]:
    """Every distinct message of the labelled set (or of its ``sets`` only), in file order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    seen: dict[str, None] = {}
    for item in data["items"]:
        if sets is not None and item["set"] not in sets:
            continue
        for turn in item["turns"] if item["kind"] == "conversation" else [item]:
            seen.setdefault(turn["message"], None)
    return list(seen)


def seed(directory: Path) -> int:
    """Write the large brain's pages as markdown files (``<slug>.md``) for ``gbrain import``."""
    count = 0
    for _, slug, content in large_brain.pages():
        path = directory / f"{slug}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
        count += 1
    return count


class Client:
    """A bare MCP client (client credentials, one JSON-RPC call per request): the same
    wire for the real server and the emulator, keeping the row fields a benchmark compares."""

    def __init__(self, env: dict[str, str], fields: Sequence[str] = KEPT_FIELDS) -> None:
        self.url = env["GBRAIN_MCP_URL"]
        self.fields = fields
        base = self.url.rsplit("/mcp", 1)[0]
        self.http = httpx.Client(timeout=120)
        reply = self.http.post(
            f"{base}/token",
            data={
                "grant_type": "client_credentials",
                "client_id": env["GBRAIN_MCP_CLIENT_ID"],
                "client_secret": env["GBRAIN_MCP_CLIENT_SECRET"],
            },
        )
        reply.raise_for_status()
        self.token = reply.json()["access_token"]

    def search(self, query: str) -> list[dict[str, Any]]:
        body = {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"query": query}},
        }
        reply = self.http.post(
            self.url,
            json=body,
            headers={
                "Authorization": f"Bearer {self.token}",
                "Accept": "application/json, text/event-stream",
            },
        )
        reply.raise_for_status()
        text = reply.text
        if text.lstrip().startswith("{"):
            message = json.loads(text)
        else:
            lines = [line[5:] for line in text.splitlines() if line.startswith("data:")]
            message = json.loads(lines[0])
        result = message["result"]
        if result.get("isError"):
            raise RuntimeError("search failed on the server")
        rows: list[dict[str, Any]] = json.loads(result["content"][0]["text"])
        return [{k: row.get(k) for k in self.fields} for row in rows]

    def close(self) -> None:
        self.http.close()


def read_env(path: Path) -> dict[str, str]:
    env = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep:
            env[key.strip()] = value.strip()
    return env


def write_rows(rows: dict[str, list[dict[str, Any]]], out: Path) -> None:
    """One search a line, scores to six decimals (the comparison reads three)."""

    def compact(row: dict[str, Any]) -> dict[str, Any]:
        return {k: round(v, 6) if isinstance(v, float) else v for k, v in row.items()}

    lines = [
        f"{json.dumps(query, ensure_ascii=False)}: "
        f"{json.dumps([compact(r) for r in found], ensure_ascii=False, separators=(',', ':'))}"
        for query, found in rows.items()
    ]
    out.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


def record(
    env_file: Path, out: Path, fields: Sequence[str] = KEPT_FIELDS, extra: Sequence[str] = ()
) -> int:
    """Every message's rows (and those of the ``extra`` queries) from a real server."""
    client = Client(read_env(env_file), fields)
    try:
        rows = {query: client.search(query) for query in [*messages(), *extra]}
    finally:
        client.close()
    write_rows(rows, out)
    print(f"recorded {len(rows)} searches into {out}")
    return 0


def seed_as_imported(emu: Emulator) -> None:
    """The large brain as `gbrain import` of one folder writes it: every page in one
    source, written now (the recency boost reads an undated page's write time), in the
    order the import takes its files (import.ts sortNewestFirst: paths in reverse order),
    which gives the page ids that break ties in GBrain's lists."""
    for _, slug, content in sorted(large_brain.pages(), key=lambda p: p[1], reverse=True):
        emu.store.put_page(slug, content)


def emulator_rows(queries: Sequence[str]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    from minilm import MiniLM

    embedder = MiniLM()
    with Emulator(seed=False, embedder=embedder) as emu:
        seed_as_imported(emu)
        rank_hybrid(emu.store.pages(), "warm", {}, emu.store.search_index(), embedder)
        client = Client(emu.client_env("fidelity", scopes="read"))
        try:
            for query in queries:
                yield query, client.search(query)
        finally:
            client.close()


def _slugs(rows: Sequence[dict[str, Any]], n: int) -> list[str]:
    return [row["slug"] for row in rows[:n]]


def compare(real: dict[str, list[dict[str, Any]]], show: int, check: bool) -> int:
    top1 = top3 = shared = hit_same = cosine_same = 0
    misses: list[tuple[str, list[str], list[str]]] = []
    for query, ours in emulator_rows(list(real)):
        theirs = real[query]
        top1 += _slugs(ours, 1) == _slugs(theirs, 1)
        same3 = _slugs(ours, 3) == _slugs(theirs, 3)
        top3 += same3
        if not same3:
            misses.append((query, _slugs(theirs, 3), _slugs(ours, 3)))
        by_key = {(r["slug"], r["chunk_source"]): r for r in theirs}
        for row in ours:
            other = by_key.get((row["slug"], row["chunk_source"]))
            if other is None:
                continue
            shared += 1
            hit_same += bool(row["keyword_hit"]) == bool(other["keyword_hit"])
            if row["cosine"] is not None and other["cosine"] is not None:
                cosine_same += abs(row["cosine"] - other["cosine"]) <= 0.001
    n = len(real)
    print(f"Hybrid ranking, emulator (MiniLM) against a real GBrain 0.46.28: {n} searches")
    print(f"  rows both return (page and chunk source): {shared}")
    print(f"  of those, same keyword_hit {hit_same / max(shared, 1):.1%}, ", end="")
    print(f"cosine within 0.001 {cosine_same / max(shared, 1):.1%}")
    for query, want, got in misses[:show]:
        print(f"  differs: {query[:60]!r}\n    real     {want}\n    emulator {got}")
    targets = Targets()
    targets.record(
        "same first row", f"{top1 / n:.1%}", f">= {TOP1_TARGET:.0%}", top1 / n >= TOP1_TARGET
    )
    targets.record(
        "same first three rows in order",
        f"{top3 / n:.1%}",
        f">= {TOP3_TARGET:.0%}",
        top3 / n >= TOP3_TARGET,
    )
    return targets.finish(check)


def fidelity_parser(doc: str | None, real: Path, show: int) -> argparse.ArgumentParser:
    """The options both fidelity benchmarks take."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    add_check_flag(parser)
    parser.add_argument("--real", type=Path, default=real, help="recorded real rows (JSON)")
    parser.add_argument("--show", type=int, default=show, help="print this many differing searches")
    parser.add_argument(
        "--record", type=Path, help="env file of a live real server: record its rows and stop"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = fidelity_parser(__doc__, REAL, 0)
    parser.add_argument("--seed", type=Path, help="write the pages into this folder and stop")
    args = parser.parse_args(argv)
    if args.seed:
        print(f"wrote {seed(args.seed)} pages into {args.seed}")
        return 0
    if args.record:
        return record(args.record, args.real)
    real = json.loads(args.real.read_text(encoding="utf-8"))
    return compare(real, args.show, args.check)


if __name__ == "__main__":
    sys.exit(main())
