"""The few files this package keeps in a profile, and how they are written.

Everything lives under ``$HERMES_HOME/gbrain/`` (the profile's own home, never a
hard-coded ``~/.hermes``). Files are replaced atomically — a temporary file in the
same folder, flushed to disk, then renamed over the old one — so a reader or a crash
sees the old content or the new, never a mix, and a failed write leaves the old file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["data_dir", "write_atomic"]


def data_dir(hermes_home: str | os.PathLike[str]) -> Path:
    """``$HERMES_HOME/gbrain``: digest, discovery cache, outbox, sink state."""
    return Path(hermes_home) / "gbrain"


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *, mode: int = 0o600) -> Path:
    """Replace ``path`` with ``data`` atomically; the folder is created if needed.

    ``mode`` defaults to owner-only: these files hold brain text and tool lists.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}-", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
