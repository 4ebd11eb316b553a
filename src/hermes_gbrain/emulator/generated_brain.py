"""Synthetic brains of any size for scale benchmarks: ``Emulator(brain="generated:10000")``.

Deterministic (a fixed seed): the same N gives the same pages, titles, links and
``updated_at`` stamps (one minute apart, oldest first), so figures are comparable from
run to run. The mix imitates a personal brain: people, projects, companies and
concepts (what the digest names), meeting notes and notes, and a share of generated
pages (``facts/``, ``digests/``) the digest must skip. Titles draw on small word lists,
so title words repeat the way they do in a real brain (the gate's vocabulary counts
them); bodies are a few sentences with a couple of ``[[links]]``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from hermes_gbrain.emulator.store import PageStore, iso_of

__all__ = ["PREFIX", "pages", "seed", "size_of"]

PREFIX = "generated:"
MAX_PAGES = 500_000
_BASE = datetime(2025, 1, 1, tzinfo=UTC)

_FIRST = [
    "Ada",
    "Alan",
    "Alice",
    "Amara",
    "Ben",
    "Bea",
    "Carlos",
    "Chen",
    "Dana",
    "Dev",
    "Elena",
    "Emil",
    "Farah",
    "Felix",
    "Grace",
    "Gus",
    "Hana",
    "Ian",
    "Iris",
    "Jon",
    "Juno",
    "Kai",
    "Kira",
    "Leo",
    "Lina",
    "Maya",
    "Milo",
    "Nadia",
    "Noor",
    "Omar",
    "Olga",
    "Priya",
    "Paul",
    "Quinn",
    "Rosa",
    "Ravi",
    "Sara",
    "Sam",
    "Tara",
    "Theo",
    "Uma",
    "Victor",
    "Wen",
    "Xavier",
    "Yara",
    "Zoe",
]
_LAST = [
    "Abbott",
    "Bauer",
    "Castro",
    "Diaz",
    "Eriksen",
    "Fischer",
    "Garcia",
    "Haddad",
    "Ito",
    "Jensen",
    "Kowalski",
    "Lopez",
    "Mensah",
    "Nakamura",
    "Okafor",
    "Petrov",
    "Quint",
    "Rossi",
    "Silva",
    "Tanaka",
    "Ueda",
    "Varga",
    "Weber",
    "Xu",
    "Yilmaz",
    "Zimmer",
    "Novak",
    "Moreau",
    "Larsen",
    "Khan",
    "Iqbal",
    "Hughes",
    "Grant",
    "Ferrara",
    "Ekwueme",
    "Dubois",
    "Cohen",
    "Brandt",
    "Alvarez",
]
_ADJ = [
    "amber",
    "blue",
    "bright",
    "calm",
    "clear",
    "coral",
    "crisp",
    "deep",
    "early",
    "fast",
    "gold",
    "green",
    "iron",
    "lunar",
    "mellow",
    "north",
    "open",
    "quiet",
    "rapid",
    "red",
    "silver",
    "solar",
    "steady",
    "swift",
    "tidal",
    "urban",
    "vivid",
    "warm",
    "wild",
]
_NOUN = [
    "anchor",
    "arrow",
    "beacon",
    "bridge",
    "canyon",
    "cedar",
    "comet",
    "delta",
    "ember",
    "falcon",
    "forge",
    "harbor",
    "heron",
    "horizon",
    "kestrel",
    "lantern",
    "maple",
    "meadow",
    "orbit",
    "otter",
    "pine",
    "prism",
    "quarry",
    "raven",
    "ridge",
    "river",
    "sparrow",
    "summit",
    "thicket",
    "willow",
]
_TOPIC = [
    "pricing",
    "hiring",
    "onboarding",
    "roadmap",
    "budget",
    "retention",
    "security",
    "billing",
    "analytics",
    "search",
    "migration",
    "launch",
    "support",
    "compliance",
    "design",
    "research",
    "partnerships",
    "fundraising",
    "sales",
    "infrastructure",
    "latency",
    "caching",
    "indexing",
    "ranking",
    "privacy",
]
_SUFFIX = [
    "Labs",
    "Works",
    "Systems",
    "Partners",
    "Capital",
    "Health",
    "Robotics",
    "Foods",
    "Energy",
    "Studio",
]
_VERB = [
    "reviewed",
    "planned",
    "shipped",
    "discussed",
    "measured",
    "drafted",
    "fixed",
    "approved",
    "questioned",
]


def size_of(brain: str) -> int | None:
    """N for ``"generated:N"`` (1 to :data:`MAX_PAGES`), else None."""
    if not brain.startswith(PREFIX):
        return None
    digits = brain[len(PREFIX) :]
    if not digits.isdigit() or not 1 <= int(digits) <= MAX_PAGES:
        return None
    return int(digits)


def _page(rng: random.Random, index: int, earlier: list[str]) -> tuple[str, str]:
    roll = rng.random()
    if roll < 0.22:
        first, last = rng.choice(_FIRST), rng.choice(_LAST)
        slug, kind, title = f"people/{first}-{last}-{index}".lower(), "person", f"{first} {last}"
    elif roll < 0.34:
        words = f"{rng.choice(_ADJ).title()} {rng.choice(_NOUN).title()}"
        slug, kind, title = f"projects/{words}-{index}".lower(), "project", f"Project {words}"
    elif roll < 0.44:
        words = f"{rng.choice(_NOUN).title()} {rng.choice(_SUFFIX)}"
        slug, kind, title = f"companies/{words}-{index}".lower(), "company", words
    elif roll < 0.58:
        words = f"{rng.choice(_ADJ).title()} {rng.choice(_TOPIC)}"
        slug, kind, title = f"concepts/{words}-{index}".lower(), "concept", words
    elif roll < 0.78:
        topic = rng.choice(_TOPIC)
        slug, kind, title = f"meetings/{topic}-sync-{index}", "meeting", f"{topic.title()} sync"
    elif roll < 0.94:
        topic = rng.choice(_TOPIC)
        slug, kind, title = f"notes/{topic}-{index}", "note", f"Notes on {topic}"
    else:
        topic = rng.choice(_TOPIC)
        slug, kind, title = f"facts/{topic}-{index}", "fact", f"Facts about {topic}"
    slug = slug.replace(" ", "-")
    sentences = []
    for _ in range(rng.randint(2, 5)):
        sentences.append(
            f"{rng.choice(_FIRST)} {rng.choice(_VERB)} the {rng.choice(_TOPIC)} "
            f"{rng.choice(_NOUN)} with the {rng.choice(_ADJ)} team."
        )
    if len(earlier) > 10:  # links to earlier pages, a few of them popular
        hub, other = earlier[rng.randrange(10)], earlier[rng.randrange(len(earlier))]
        sentences.append(f"See [[{hub}]] and [[{other}]].")
    content = f"---\ntype: {kind}\ntitle: {title}\ntags: [{rng.choice(_TOPIC)}]\n---\n"
    return slug, content + f"# {title}\n\n" + " ".join(sentences) + "\n"


def pages(count: int, seed: int = 7) -> Iterator[tuple[str, str, str]]:
    """``(slug, markdown, updated_at)`` for ``count`` pages, oldest first."""
    rng = random.Random(seed)  # noqa: S311 - benchmark data, not security
    earlier: list[str] = []
    for index in range(count):
        slug, content = _page(rng, index, earlier)
        earlier.append(slug)
        yield slug, content, iso_of(_BASE + timedelta(minutes=index))


def seed(store: PageStore, count: int) -> int:
    """Write ``count`` generated pages into ``store``; returns ``count``."""
    for slug, content, stamp in pages(count):
        store.put_page(slug, content, now=stamp, created_at=stamp)
    return count
