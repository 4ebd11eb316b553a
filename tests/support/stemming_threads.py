"""Stemmers called from many threads at once: each call must get its own word's stem.

A Snowball stemmer object keeps its working string in itself; two threads stemming at
once without a lock get each other's stems or an ``IndexError``."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Sequence


def wrong_stems(stem: Callable[[str], str], words: Sequence[str], threads: int = 4) -> list[str]:
    """The words ``stem`` got wrong while ``threads`` threads stemmed them together, with the
    interpreter switching threads as often as it can."""
    expected = [stem(w) for w in words]
    wrong: list[str] = []
    start = threading.Barrier(threads)

    def work() -> None:
        start.wait(timeout=10)
        for _ in range(300):
            for word, want in zip(words, expected, strict=True):
                try:
                    if stem(word) != want:
                        wrong.append(word)
                except IndexError:
                    wrong.append(word)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        workers = [threading.Thread(target=work) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=60)
    finally:
        sys.setswitchinterval(interval)
    return wrong
