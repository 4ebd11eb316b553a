"""An incremental Server-Sent Events decoder fed by the capped read loop.

Libraries such as httpx-sse read the response themselves and so cannot sit behind the
byte cap; this one only ever sees bytes the transport already accepted. It follows the
WHATWG event-stream rules that matter here: lines end at CR, LF or CRLF (and nothing
else: ``str.splitlines`` would also split on U+2028 and friends), ``:`` lines are
comments, several ``data:`` lines join with ``\\n``, and an event with empty data is
skipped (MCP servers send such priming events).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Event", "SSEDecoder"]

_EOL = re.compile(rb"\r\n|\r|\n")


@dataclass(frozen=True, slots=True)
class Event:
    """One dispatched event: its type (default ``message``) and joined data."""

    event: str
    data: str
    id: str | None = None


class SSEDecoder:
    """Feed bytes in any chunking; get the same events out.

    Decoding to text happens per complete line, so a multi-byte UTF-8 character split
    across chunks is never broken.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._pending_cr = False
        self._event = ""
        self._data: list[str] = []
        self._id: str | None = None
        self._last_id: str | None = None
        self._first_line = True

    def feed(self, chunk: bytes) -> list[Event]:
        """Consume ``chunk`` and return the events it completed."""
        out: list[Event] = []
        if not chunk:
            return out  # an empty read must not forget a CR that may precede an LF
        start = 0
        if self._pending_cr and chunk[:1] == b"\n":
            start = 1  # the LF of a CRLF split across chunks
        self._pending_cr = False
        if b"\r" not in chunk:
            # The common case (GBrain ends lines with LF only): split in C, not by regex.
            *lines, rest = chunk[start:].split(b"\n")
            for line in lines:
                self._buf += line
                self._line(bytes(self._buf), out)
                self._buf.clear()
            self._buf += rest
            return out
        for match in _EOL.finditer(chunk, start):
            self._buf += chunk[start : match.start()]
            self._line(bytes(self._buf), out)
            self._buf.clear()
            start = match.end()
            if match.group() == b"\r" and start == len(chunk):
                self._pending_cr = True  # an LF may open the next chunk
        self._buf += chunk[start:]
        return out

    def finish(self) -> list[Event]:
        """End of stream: a last line without its terminator still counts, but an
        event is only dispatched by a blank line, so an unterminated one is dropped."""
        out: list[Event] = []
        if self._buf:
            self._line(bytes(self._buf), out)
            self._buf.clear()
        return out

    def _line(self, raw: bytes, out: list[Event]) -> None:
        line = raw.decode("utf-8", errors="replace")
        if self._first_line:
            self._first_line = False
            line = line.removeprefix("\ufeff")  # the spec ignores one leading BOM
        if not line:
            self._dispatch(out)
            return
        if line.startswith(":"):
            return
        name, sep, value = line.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        # "retry" and unknown fields are ignored, as the spec says.

    def _dispatch(self, out: list[Event]) -> None:
        if self._id is not None:
            self._last_id = self._id
        data = "\n".join(self._data)
        event = self._event or "message"
        self._data = []
        self._event = ""
        self._id = None
        if data:
            out.append(Event(event=event, data=data, id=self._last_id))
