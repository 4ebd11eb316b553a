"""Reader for the recorded GBrain exchanges in ``../shared/gbrain-contract/*.http``.

Each file is::

    ### what the exchange shows
    ### curl …                      (the request, as a shell command line)
    <blank line>
    HTTP/1.1 200 OK                 (the raw response: status line, headers,
    Header: value                    blank line, body bytes)

    body…

The response part is kept byte for byte (CRLF header lines, body untouched). The
request is recovered from the curl line: method, URL path, headers and the body
(``-d`` JSON, or ``--data-urlencode`` form fields).
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

__all__ = [
    "Recording",
    "Request",
    "contract_dir",
    "load_recording",
    "load_recordings",
    "replay",
    "rewrite_ids",
]


def contract_dir(anchor: Path) -> Path:
    """``<repo>/../shared/gbrain-contract``, found from a file inside the repo's ``tests``."""
    here = anchor.resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").is_file():
            return parent.parent / "shared" / "gbrain-contract"
    raise RuntimeError(f"no pyproject.toml above {anchor.name}")


def require_contract_dir(anchor: Path) -> Path:
    """The recordings' folder, or skip the calling test module with a clear message; under
    ``CI=true`` a missing folder fails the run instead of passing it silently."""
    import pytest

    folder = contract_dir(anchor)
    if folder.is_dir():
        return folder
    missing = (
        f"{folder} not found: the contract tests replay the GBrain recordings kept "
        "beside the repository (../shared/gbrain-contract)"
    )
    if os.environ.get("CI", "").strip().lower() in ("1", "true", "yes"):
        pytest.fail(missing + "; CI is set, so this is a failure", pytrace=False)
    pytest.skip(missing + "; skipped (CI=true makes it a failure)", allow_module_level=True)


@dataclass(frozen=True)
class Request:
    """The request recovered from the ``### curl`` line."""

    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    data: str | None = None
    form: dict[str, str] = field(default_factory=dict)
    basic_auth: str | None = None

    @property
    def path(self) -> str:
        return urlsplit(self.url).path

    @property
    def json(self) -> Any:
        """The ``-d`` body parsed as JSON, or None when there is none or it is not JSON."""
        if self.data is None:
            return None
        try:
            return json.loads(self.data)
        except ValueError:
            return None

    def header(self, name: str) -> str | None:
        for key, value in self.headers.items():
            if key.lower() == name.lower():
                return value
        return None


@dataclass(frozen=True)
class Recording:
    """One ``.http`` file: description, request, and the raw response."""

    name: str
    description: str
    request: Request
    status: int
    reason: str
    header_list: tuple[tuple[str, str], ...]
    body: bytes

    @cached_property
    def headers(self) -> httpx.Headers:
        return httpx.Headers(list(self.header_list))

    @property
    def content_type(self) -> str:
        value: str = self.headers.get("content-type", "")
        return value.split(";", 1)[0].strip().lower()

    @property
    def rpc_request(self) -> Any:
        """The JSON-RPC message sent (object or batch list), or None."""
        return self.request.json if self.request.path == "/mcp" else None

    def response_headers(self) -> list[tuple[str, str]]:
        """Headers to replay, minus the framing ones MockTransport recomputes."""
        drop = {"content-length", "transfer-encoding", "connection"}
        return [(k, v) for k, v in self.header_list if k.lower() not in drop]


def _parse_curl(line: str) -> Request:
    words = shlex.split(line)
    if not words or words[0] != "curl":
        raise ValueError(f"not a curl command: {line[:40]!r}")
    method: str | None = None
    url: str | None = None
    headers: dict[str, str] = {}
    data: str | None = None
    form: dict[str, str] = {}
    basic: str | None = None
    it = iter(words[1:])
    for word in it:
        if word == "-X":
            method = next(it)
        elif word == "-H":
            name, _, value = next(it).partition(":")
            headers[name.strip()] = value.strip()
        elif word in ("-d", "--data", "--data-raw"):
            data = next(it)
        elif word == "--data-urlencode":
            key, _, value = next(it).partition("=")
            form[key] = value
        elif word == "-u":
            basic = next(it)
        elif word in ("-b", "-c"):
            next(it)  # cookie jar file name
        elif word.startswith("-"):
            raise ValueError(f"unknown curl option {word!r}")
        else:
            url = word
    if url is None:
        raise ValueError("curl line has no URL")
    if method is None:
        method = "POST" if data is not None or form else "GET"
    return Request(method=method, url=url, headers=headers, data=data, form=form, basic_auth=basic)


def load_recording(path: Path) -> Recording:
    raw = path.read_bytes()
    first, rest = raw.split(b"\n", 1)
    second, rest = rest.split(b"\n", 1)
    if not first.startswith(b"### ") or not second.startswith(b"### curl "):
        raise ValueError(f"{path.name}: lines 1-2 must be '### description' and '### curl …'")
    rest = rest.lstrip(b"\r\n")
    head, sep, body = rest.partition(b"\r\n\r\n")
    if not sep:
        raise ValueError(f"{path.name}: no blank line after the response headers")
    lines = head.split(b"\r\n")
    version, status, reason = lines[0].decode("ascii").split(" ", 2)
    if not version.startswith("HTTP/"):
        raise ValueError(f"{path.name}: bad status line")
    if body.endswith(b"\n"):
        body = body[:-1]  # the recorder ends every file with one newline after the body
    header_list = []
    for line in lines[1:]:
        name, _, value = line.decode("latin-1").partition(":")
        header_list.append((name.strip(), value.strip()))
    return Recording(
        name=path.name,
        description=first[4:].decode("utf-8").strip(),
        request=_parse_curl(second[4:].decode("utf-8")),
        status=int(status),
        reason=reason,
        header_list=tuple(header_list),
        body=body,
    )


def load_recordings(directory: Path) -> dict[str, Recording]:
    """Every ``*.http`` file in ``directory``, by file name."""
    return {p.name: load_recording(p) for p in sorted(directory.glob("*.http"))}


def rewrite_ids(body: bytes, ids: Mapping[Any, Any]) -> bytes:
    """Replace JSON-RPC ids in an SSE body's ``data:`` lines (recorded id → id we sent).

    Only the ``data:`` lines holding a message whose id is in ``ids`` are re-encoded;
    every other byte (framing, blank lines, other events) is kept as recorded.
    """
    out = []
    for line in body.split(b"\n"):
        if line.startswith(b"data: "):
            message = json.loads(line[len(b"data: ") :])
            changed = False
            for item in message if isinstance(message, list) else [message]:
                if isinstance(item, dict) and _hashable(item.get("id")) in ids:
                    item["id"] = ids[item["id"]]
                    changed = True
            if changed:
                text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
                out.append(b"data: " + text.encode("utf-8"))
                continue
        out.append(line)
    return b"\n".join(out)


def _hashable(value: Any) -> Any:
    return value if isinstance(value, str | int | float | None) else None


def replay(recording: Recording, ids: Mapping[Any, Any] | None = None) -> httpx.Response:
    """The recorded response as an ``httpx.Response``, ids rewritten if asked."""
    body = recording.body
    if ids and recording.content_type == "text/event-stream":
        body = rewrite_ids(body, ids)
    return httpx.Response(recording.status, headers=recording.response_headers(), content=body)
