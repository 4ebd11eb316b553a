"""A second process writing through the page outbox, for the kill -9 and ordering tests.

``python -m support.outbox_child kill <db> <step> <slug> <content>`` queues one write and
runs the worker; at ``step`` it prints ``AT <step>`` and blocks, to be killed there.
``python -m support.outbox_child order <db> <tag> <threads> <writes> <slug>...`` runs
``threads`` writers, each with its own outbox connection and worker, queueing ``writes``
writes round-robin over the slugs, and exits once the shared queue has nothing left.

The emulator's client credentials come in the environment (``GBRAIN_MCP_*``, as a
profile's ``.env`` holds them); ``OUTBOX_DEADLINE_S`` and ``OUTBOX_MARGIN_S`` set the
send deadline and the settle margin.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any

from hermes_gbrain.api import GBrain
from hermes_gbrain.connect import open_brain
from hermes_gbrain.settings import load_settings
from hermes_gbrain.toolbridge.outbox import Entry, Outbox, OutboxWorker
from hermes_gbrain.toolbridge.session import observe_page

DEADLINE_S = float(os.environ.get("OUTBOX_DEADLINE_S", "1.5"))
MARGIN_S = float(os.environ.get("OUTBOX_MARGIN_S", "2.0"))
STEPS = ("looked", "marked", "answered")
"""Steps this process stops at itself (``in_flight`` and ``applied`` are held by the server)."""


def brain(db: str) -> GBrain:
    """A brain for the profile whose outbox is ``db`` (credentials from the environment)."""
    settings = load_settings(os.environ.get, hermes_home=os.path.dirname(os.path.dirname(db)))
    return open_brain(settings, scope="read write", deadline_s=DEADLINE_S)


def _stop_here(step: str) -> None:
    print(f"AT {step}", flush=True)
    threading.Event().wait()  # until killed


def worker_for(box: Outbox, gb: GBrain, stop_at: str = "") -> OutboxWorker:
    def send(entry: Entry) -> None:
        if stop_at == "marked":
            _stop_here(stop_at)
        gb.put_page(entry.slug, entry.content)
        if stop_at == "answered":
            _stop_here(stop_at)

    if stop_at == "looked":
        sending = box.sending

        def held(op_id: str, deadline_s: float) -> bool:
            _stop_here(stop_at)
            return sending(op_id, deadline_s)

        box.sending = held  # type: ignore[method-assign]
    return OutboxWorker(
        box,
        gb.mcp.url,
        send,
        observe=lambda entry: observe_page(gb, entry.slug),
        send_deadline_s=DEADLINE_S,
        max_wait_s=0.2,
        poll_s=0.05,
    )


def kill_mode(db: str, step: str, slug: str, content: str) -> None:
    gb = brain(db)
    box = Outbox(db, land_margin_s=MARGIN_S)
    box.enqueue(gb.mcp.url, slug, content)
    worker = worker_for(box, gb, step if step in STEPS else "")
    print("QUEUED", flush=True)
    worker.start()
    threading.Event().wait()  # the test kills this process


def order_mode(db: str, tag: str, threads: int, writes: int, slugs: list[str]) -> None:
    gb = brain(db)
    boxes = [Outbox(db, land_margin_s=MARGIN_S) for _ in range(threads)]
    workers = [worker_for(box, gb) for box in boxes]
    for w in workers:
        w.start()
    run_writers(boxes, workers, gb.mcp.url, tag=tag, writes=writes, slugs=slugs)
    wait_empty(boxes[0], 60.0)
    for w in workers:
        w.stop()


def run_writers(
    boxes: list[Outbox],
    workers: list[OutboxWorker],
    endpoint: str,
    *,
    tag: str,
    writes: int,
    slugs: list[str],
) -> None:
    """Each thread queues its writes on its own connection and wakes its own worker; it
    queues the next once the last is done (sent, or replaced by another thread's), so rows
    for one page keep meeting rows of other workers in flight."""

    def writer(i: int) -> None:
        for n in range(writes):
            slug = slugs[(i + n) % len(slugs)]
            entry, _ = boxes[i].enqueue(endpoint, slug, f"# Order\n\nWrite {tag}-{i}-{n}.\n")
            workers[i].wake()
            end = time.monotonic() + 30.0
            while time.monotonic() < end:
                row = boxes[i].get(entry.op_id)
                if row is None or row.state not in ("pending", "inflight"):
                    break
                threading.Event().wait(0.01)

    pool = [threading.Thread(target=writer, args=(i,)) for i in range(len(boxes))]
    for t in pool:
        t.start()
    for t in pool:
        t.join()


def wait_empty(box: Outbox, timeout: float) -> bool:
    """Until no row of the shared file is pending or in flight (the queue's own state)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        status = box.status()
        if status.pending + status.inflight == 0:
            return True
        threading.Event().wait(0.05)
    return False


def main(argv: list[str]) -> Any:
    mode, db, *rest = argv
    if mode == "kill":
        step, slug, content = rest
        return kill_mode(db, step, slug, content)
    tag, threads, writes, *slugs = rest
    return order_mode(db, tag, int(threads), int(writes), slugs)


if __name__ == "__main__":
    main(sys.argv[1:])
