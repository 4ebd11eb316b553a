"""The profile's token file: one mint shared by every process of a profile and credential.

A "new process" is the process-wide token cache cleared (``clear_token_cache``): what
is left is what the profile's folder holds. Processes racing for real are in
``tests/integration/test_token_sharing.py``.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from pathlib import Path
from urllib.parse import parse_qsl

import httpx
import pytest

from hermes_gbrain.auth import ClientCredentials, clear_token_cache
from hermes_gbrain.errors import DeadlineError, RateLimitedError
from hermes_gbrain.files import data_dir
from hermes_gbrain.tokenfile import TokenFile
from hermes_gbrain.transport import Transport, call_deadline

TOKEN_URL = "https://brain.example.test/token"
CLIENT_ID = "client-abc"
SECRET = "s3cr3t-VALUE-never-stored"


class TokenServer:
    """Mints numbered tokens; ``status`` answers every mint with that status instead."""

    def __init__(self) -> None:
        self.calls = 0
        self.secrets: list[str] = []
        self.status = 200
        self.expires_in = 3600
        self.gate: threading.Event | None = None
        self.entered = threading.Event()
        self._lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        form = dict(parse_qsl(request.read().decode("ascii")))
        with self._lock:
            self.calls += 1
            n = self.calls
            self.secrets.append(form["client_secret"])
        self.entered.set()
        if self.gate is not None:
            self.gate.wait(5)
        if self.status == 429:
            return httpx.Response(429, headers={"RateLimit-Reset": "120"}, json={})
        return httpx.Response(
            200,
            json={
                "access_token": f"gbrain_at_{n:04d}",
                "token_type": "bearer",
                "expires_in": self.expires_in,
                "scope": "read",
            },
        )


@pytest.fixture
def server() -> TokenServer:
    return TokenServer()


def creds(server: TokenServer, home: Path, **kwargs: object) -> ClientCredentials:
    options: dict[str, object] = {
        "token_url": TOKEN_URL,
        "client_id": CLIENT_ID,
        "client_secret": SECRET,
        "transport": Transport(transport=httpx.MockTransport(server)),
        "scope": "read",
        "namespace": str(home),
        "cache_home": home,
    }
    options.update(kwargs)
    return ClientCredentials(**options)  # type: ignore[arg-type]


def new_process() -> None:
    clear_token_cache()


def token_file(credential: ClientCredentials) -> Path:
    file = credential.token_file
    assert file is not None
    return file.path


def test_a_new_process_reuses_the_profiles_token(server: TokenServer, tmp_path: Path) -> None:
    assert creds(server, tmp_path).bearer() == "gbrain_at_0001"
    for _ in range(5):
        new_process()
        assert creds(server, tmp_path).bearer() == "gbrain_at_0001"
    assert server.calls == 1


def test_the_file_is_private_and_holds_no_secret(server: TokenServer, tmp_path: Path) -> None:
    credential = creds(server, tmp_path)
    credential.bearer()
    path = token_file(credential)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    for entry in path.parent.iterdir():
        assert SECRET not in entry.name
        if entry.is_file():
            assert SECRET.encode() not in entry.read_bytes()
    data = json.loads(path.read_bytes())
    assert data["access_token"] == "gbrain_at_0001"  # the bearer, as the README says
    assert data["key"] == credential.token_file.key  # type: ignore[union-attr]


def test_the_file_is_private_whatever_the_umask(server: TokenServer, tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        credential = creds(server, tmp_path)
        credential.bearer()
    finally:
        os.umask(old)
    assert stat.S_IMODE(token_file(credential).stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "content",
    [b"", b"{not json", b"[]", b'{"v": 1}', b"\xff\xfe" * 10, b'{"v":1,"key":7}'],
    ids=["empty", "broken", "list", "no-key", "binary", "odd-key"],
)
def test_a_corrupt_file_is_ignored_and_replaced(
    server: TokenServer, tmp_path: Path, content: bytes
) -> None:
    first = creds(server, tmp_path)
    first.bearer()
    path = token_file(first)
    path.write_bytes(content)
    new_process()
    assert creds(server, tmp_path).bearer() == "gbrain_at_0002"
    assert json.loads(path.read_bytes())["access_token"] == "gbrain_at_0002"


def test_a_file_from_another_profile_is_not_used(server: TokenServer, tmp_path: Path) -> None:
    """Same credential, other profile (another random key): its file, copied over ours
    under our name, names another key and is ignored."""
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    mine = creds(server, ours)
    mine.bearer()
    other = creds(server, theirs)
    new_process()
    other.bearer()
    assert server.calls == 2
    token_file(mine).write_bytes(token_file(other).read_bytes())
    new_process()
    assert creds(server, ours).bearer() == "gbrain_at_0003"


def test_a_file_others_can_read_is_not_trusted(server: TokenServer, tmp_path: Path) -> None:
    first = creds(server, tmp_path)
    first.bearer()
    path = token_file(first)
    os.chmod(path, 0o644)
    new_process()
    assert creds(server, tmp_path).bearer() == "gbrain_at_0002"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_symlinked_file_is_not_followed(server: TokenServer, tmp_path: Path) -> None:
    first = creds(server, tmp_path)
    first.bearer()
    path = token_file(first)
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_bytes(path.read_bytes())
    os.chmod(elsewhere, 0o600)
    path.unlink()
    path.symlink_to(elsewhere)
    planted = elsewhere.read_bytes()
    new_process()
    assert creds(server, tmp_path).bearer() == "gbrain_at_0002"
    # Never read, nor written, through the link (state files never are: doctor names it).
    assert path.is_symlink() and elsewhere.read_bytes() == planted


def test_a_rotated_secret_never_reuses_the_old_token(server: TokenServer, tmp_path: Path) -> None:
    old = creds(server, tmp_path)
    old.bearer()
    new_process()
    rotated = creds(server, tmp_path, client_secret=SECRET + "-rotated")
    assert rotated.bearer() == "gbrain_at_0002"
    assert server.secrets == [SECRET, SECRET + "-rotated"]
    assert token_file(rotated) != token_file(old)


def test_expired_files_of_other_credentials_are_removed(
    server: TokenServer, tmp_path: Path
) -> None:
    server.expires_in = 1
    old = creds(server, tmp_path, client_secret="old-secret")
    old.bearer()
    stale = token_file(old)
    data = json.loads(stale.read_bytes())
    data["expires_at"] = time.time() - 10
    stale.write_text(json.dumps(data))
    new_process()
    creds(server, tmp_path).bearer()
    assert not stale.exists()


def test_a_token_near_expiry_is_minted_again(server: TokenServer, tmp_path: Path) -> None:
    first = creds(server, tmp_path)
    first.bearer()
    path = token_file(first)
    data = json.loads(path.read_bytes())
    data["refresh_at"] = time.time() - 1  # the re-mint margin has begun
    path.write_text(json.dumps(data))
    os.chmod(path, 0o600)
    new_process()
    assert creds(server, tmp_path).bearer() == "gbrain_at_0002"


def test_a_401_re_mints_once_and_replaces_the_file(server: TokenServer, tmp_path: Path) -> None:
    credential = creds(server, tmp_path)
    refused = credential.bearer()
    assert credential.rejected(refused)
    assert credential.bearer() == "gbrain_at_0002"
    assert credential.bearer() == "gbrain_at_0002"
    assert json.loads(token_file(credential).read_bytes())["access_token"] == "gbrain_at_0002"
    new_process()
    assert creds(server, tmp_path).bearer() == "gbrain_at_0002"
    assert server.calls == 2


def test_a_429_blocks_every_process_of_the_profile(server: TokenServer, tmp_path: Path) -> None:
    server.status = 429
    with pytest.raises(RateLimitedError):
        creds(server, tmp_path).bearer()
    new_process()
    with pytest.raises(RateLimitedError) as info:
        creds(server, tmp_path).bearer()
    assert server.calls == 1  # the second process did not ask
    assert info.value.retry_after is not None and 100 < info.value.retry_after <= 120


def test_waiting_for_a_mint_in_this_process_keeps_the_callers_deadline(
    server: TokenServer, tmp_path: Path
) -> None:
    server.gate = threading.Event()
    credential = creds(server, tmp_path)
    minter = threading.Thread(target=credential.bearer)
    minter.start()
    try:
        assert server.entered.wait(5)
        started = time.monotonic()
        with pytest.raises(DeadlineError), call_deadline(0.1):
            credential.bearer()
        assert time.monotonic() - started < 1.0  # not the mint's own 3 s bound
    finally:
        server.gate.set()
        minter.join(5)
    assert credential.bearer() == "gbrain_at_0001"


def test_waiting_for_another_process_keeps_the_callers_deadline(
    server: TokenServer, tmp_path: Path
) -> None:
    credential = creds(server, tmp_path)
    file = credential.token_file
    assert file is not None
    with file.lock(1.0) as held:  # another process minting: it holds the lock
        assert held
        started = time.monotonic()
        with pytest.raises(DeadlineError), call_deadline(0.1):
            credential.bearer()
        assert time.monotonic() - started < 1.0
    assert server.calls == 0
    assert credential.bearer() == "gbrain_at_0001"


def test_no_home_means_memory_only(server: TokenServer, tmp_path: Path) -> None:
    credential = creds(server, tmp_path, cache_home=None)
    credential.bearer()
    assert credential.token_file is None
    assert not data_dir(tmp_path).exists()


def test_an_unwritable_home_still_gets_a_token(server: TokenServer, tmp_path: Path) -> None:
    home = tmp_path / "ro"
    data_dir(home).mkdir(parents=True)
    os.chmod(data_dir(home), 0o500)
    try:
        assert creds(server, home).bearer() == "gbrain_at_0001"
    finally:
        os.chmod(data_dir(home), 0o700)


def test_token_file_repr_names_no_secret(tmp_path: Path) -> None:
    file = TokenFile(
        tmp_path, token_url=TOKEN_URL, client_id=CLIENT_ID, client_secret=SECRET, scope=""
    )
    assert SECRET not in repr(file)
    assert SECRET not in file.path.name
