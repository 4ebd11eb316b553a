"""Credentials: the exact /token request GBrain accepts, one mint per key, honest refresh,
429 back-off, and a client secret that never shows up anywhere but the form body.

Time is injected by replacing the auth module's ``time`` with a fake clock, so refresh
and back-off are tested without sleeping.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from urllib.parse import parse_qsl

import httpx
import pytest

from hermes_gbrain import auth as auth_module
from hermes_gbrain.auth import ClientCredentials, StaticToken, keyed_hash
from hermes_gbrain.errors import (
    AuthError,
    GBrainError,
    HTTPStatusError,
    ProtocolError,
    RateLimitedError,
    RedirectError,
    TooLargeError,
)
from hermes_gbrain.transport import Transport

TOKEN_URL = "http://127.0.0.1:3131/token"
CLIENT_ID = "client-abc"
SECRET = "s3cr3t-VALUE-never-logged"

Handler = Callable[[httpx.Request], httpx.Response]


class FakeClock:
    """Replaces ``time`` inside the auth module only; the transport keeps real time."""

    def __init__(self) -> None:
        self.now = 10_000.0

    def monotonic(self) -> float:
        return self.now

    def time(self) -> float:
        """The wall clock moves with the monotonic one (token files use wall time)."""
        return 1.7e9 + self.now


class TokenServer:
    """A MockTransport handler that mints numbered tokens and logs every request."""

    def __init__(self, expires_in: object = 3600, scope: str | None = "read") -> None:
        self.requests: list[httpx.Request] = []
        self.expires_in = expires_in
        self.scope = scope
        self.reply: Handler | None = None
        self._lock = threading.Lock()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        request.read()
        with self._lock:
            self.requests.append(request)
            n = len(self.requests)
        if self.reply is not None:
            return self.reply(request)
        payload: dict[str, object] = {
            "access_token": f"gbrain_at_{n:04d}",
            "token_type": "bearer",
            "expires_in": self.expires_in,
        }
        if self.scope is not None:
            payload["scope"] = self.scope
        return httpx.Response(200, json=payload)

    @property
    def calls(self) -> int:
        with self._lock:
            return len(self.requests)


@pytest.fixture(autouse=True)
def _no_secret_in_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Every log record of every test is checked for the secret (conftest starts it cold)."""
    caplog.set_level(logging.DEBUG)
    yield
    for record in caplog.records:
        assert SECRET not in record.getMessage()
    assert SECRET not in caplog.text


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    fake = FakeClock()
    monkeypatch.setattr(auth_module, "time", fake)
    return fake


@pytest.fixture
def server() -> TokenServer:
    return TokenServer()


def creds(server: Handler, **kwargs: object) -> ClientCredentials:
    options: dict[str, object] = {
        "token_url": TOKEN_URL,
        "client_id": CLIENT_ID,
        "client_secret": SECRET,
        "transport": Transport(transport=httpx.MockTransport(server)),
    }
    options.update(kwargs)
    return ClientCredentials(**options)  # type: ignore[arg-type]


def assert_secret_hidden(exc: BaseException) -> None:
    """The secret is in no exception of the chain: message, repr or args."""
    seen: BaseException | None = exc
    while seen is not None:
        assert SECRET not in str(seen)
        assert SECRET not in repr(seen)
        assert all(SECRET not in repr(arg) for arg in seen.args)
        seen = seen.__cause__ or seen.__context__


def raises(expected: type[BaseException], fn: Callable[[], object]) -> BaseException:
    with pytest.raises(expected) as info:
        fn()
    assert_secret_hidden(info.value)
    return info.value


# --- the token request ---------------------------------------------------------------------


def test_mint_sends_exactly_the_form_gbrain_accepts(server: TokenServer) -> None:
    credential = creds(server)
    assert credential.bearer() == "gbrain_at_0001"
    request = server.requests[0]
    assert request.method == "POST"
    assert str(request.url) == TOKEN_URL
    assert request.headers["content-type"] == "application/x-www-form-urlencoded"
    assert request.headers["accept"] == "application/json"
    assert "authorization" not in request.headers  # no Basic auth
    fields = parse_qsl(request.content.decode("ascii"), strict_parsing=True)
    assert fields == [
        ("grant_type", "client_credentials"),
        ("client_id", CLIENT_ID),
        ("client_secret", SECRET),
    ]
    with pytest.raises(ValueError):
        json.loads(request.content)  # not JSON


def test_scope_is_sent_when_given_and_special_characters_are_encoded(server: TokenServer) -> None:
    secret = SECRET + "&x=1 +/%"
    credential = creds(server, scope="read write", client_secret=secret, client_id="id&=")
    credential.bearer()
    fields = dict(parse_qsl(server.requests[0].content.decode("ascii"), strict_parsing=True))
    assert fields == {
        "grant_type": "client_credentials",
        "client_id": "id&=",
        "client_secret": secret,
        "scope": "read write",
    }
    assert credential.granted_scope == "read"


def test_cached_token_is_reused(server: TokenServer) -> None:
    credential = creds(server)
    tokens = {credential.bearer() for _ in range(10)}
    assert tokens == {"gbrain_at_0001"}
    assert server.calls == 1
    assert credential.mints == 1


def test_cache_is_shared_by_equal_credentials(server: TokenServer) -> None:
    """Two providers for the same profile and client cost one mint, not two."""
    assert creds(server).bearer() == creds(server).bearer()
    assert server.calls == 1


def test_refresh_happens_a_margin_before_expiry(server: TokenServer, clock: FakeClock) -> None:
    server.expires_in = 100  # margin: 10% of the lifetime, at least 5 s
    credential = creds(server)
    assert credential.bearer() == "gbrain_at_0001"
    clock.now += 89.9
    assert credential.bearer() == "gbrain_at_0001"
    clock.now += 0.1
    assert credential.bearer() == "gbrain_at_0002"
    assert server.calls == 2


def test_long_lived_token_refreshes_sixty_seconds_early(
    server: TokenServer, clock: FakeClock
) -> None:
    credential = creds(server)
    credential.bearer()
    clock.now += 3539
    assert credential.bearer() == "gbrain_at_0001"
    clock.now += 1
    assert credential.bearer() == "gbrain_at_0002"


def test_short_lived_token_still_gets_used(server: TokenServer, clock: FakeClock) -> None:
    """A 2 s token refreshes after 1 s, not immediately (which would mint every call)."""
    server.expires_in = 2
    credential = creds(server)
    credential.bearer()
    clock.now += 0.9
    assert credential.bearer() == "gbrain_at_0001"
    assert server.calls == 1


def test_missing_expires_in_means_an_hour(server: TokenServer, clock: FakeClock) -> None:
    server.reply = lambda r: httpx.Response(200, json={"access_token": "tok", "scope": "read"})
    credential = creds(server)
    credential.bearer()
    clock.now += 3000
    credential.bearer()
    assert server.calls == 1


def test_rejected_drops_the_token_and_next_bearer_mints_once(server: TokenServer) -> None:
    credential = creds(server)
    first = credential.bearer()
    assert credential.rejected(first) is True
    second = credential.bearer()
    assert second == "gbrain_at_0002"
    assert credential.bearer() == second
    assert server.calls == 2


def test_rejecting_a_stale_token_keeps_the_fresh_one(server: TokenServer) -> None:
    """A late 401 for an old token must not throw away the one another thread just minted."""
    credential = creds(server)
    old = credential.bearer()
    credential.rejected(old)
    fresh = credential.bearer()
    credential.rejected(old)
    assert credential.bearer() == fresh
    assert server.calls == 2


def test_hundred_cold_threads_cause_exactly_one_mint() -> None:
    """The handler holds the first mint open until every thread is inside ``bearer``;
    whether the others then wait on the lock or arrive after, one mint must serve all."""
    threads_n = 100
    arrived = 0
    all_arrived = threading.Event()
    count_lock = threading.Lock()
    server = TokenServer()
    inner = server.__call__

    def slow_handler(request: httpx.Request) -> httpx.Response:
        assert all_arrived.wait(10), "threads never all arrived"
        return inner(request)

    credential = creds(slow_handler)
    results: list[str] = []
    errors: list[BaseException] = []

    def worker() -> None:
        nonlocal arrived
        with count_lock:
            arrived += 1
            if arrived == threads_n:
                all_arrived.set()
        try:
            token = credential.bearer()
        except BaseException as exc:
            with count_lock:
                errors.append(exc)
        else:
            with count_lock:
                results.append(token)

    threads = [threading.Thread(target=worker) for _ in range(threads_n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)
    assert errors == []
    assert results == ["gbrain_at_0001"] * threads_n
    assert server.calls == 1
    assert credential.mints == 1


# --- refusals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"RateLimit-Reset": "30"}, 30.0),
        ({"Retry-After": "45"}, 45.0),
        ({"RateLimit-Reset": "junk", "Retry-After": "12"}, 12.0),
        ({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}, None),
        ({}, None),
        ({"Retry-After": "nan"}, None),
        ({"Retry-After": "inf"}, None),
        ({"RateLimit-Reset": "-inf", "Retry-After": "NaN"}, None),
        ({"RateLimit-Reset": "nan", "Retry-After": "7"}, 7.0),
    ],
)
def test_429_raises_rate_limited_with_the_server_reset(
    server: TokenServer, headers: dict[str, str], expected: float | None
) -> None:
    server.reply = lambda r: httpx.Response(
        429, headers=headers, json={"error": "too_many_requests"}
    )
    exc = raises(RateLimitedError, creds(server).bearer)
    assert isinstance(exc, RateLimitedError)
    assert exc.retry_after == expected
    assert exc.status == 429


def test_429_blocks_further_mints_until_the_reset(server: TokenServer, clock: FakeClock) -> None:
    server.reply = lambda r: httpx.Response(429, headers={"RateLimit-Reset": "30"})
    credential = creds(server)
    raises(RateLimitedError, credential.bearer)
    server.reply = None
    clock.now += 10
    blocked = raises(RateLimitedError, credential.bearer)
    assert isinstance(blocked, RateLimitedError)
    assert blocked.retry_after == pytest.approx(20.0)
    clock.now += 19.9
    raises(RateLimitedError, credential.bearer)
    assert server.calls == 1  # nothing was sent while blocked
    clock.now += 0.2
    assert credential.bearer() == "gbrain_at_0002"
    assert server.calls == 2


def test_429_without_a_reset_backs_off_a_minute(server: TokenServer, clock: FakeClock) -> None:
    server.reply = lambda r: httpx.Response(429)
    credential = creds(server)
    raises(RateLimitedError, credential.bearer)
    server.reply = None
    clock.now += 59
    raises(RateLimitedError, credential.bearer)
    clock.now += 2
    credential.bearer()
    assert server.calls == 2


@pytest.mark.parametrize("junk", ["nan", "NaN", "inf", "-inf", "soon", ""])
def test_junk_retry_after_still_backs_off(server: TokenServer, clock: FakeClock, junk: str) -> None:
    """``Retry-After: nan`` once disabled the back-off: every call sent a /token request."""
    server.reply = lambda r: httpx.Response(429, headers={"Retry-After": junk})
    credential = creds(server)
    raises(RateLimitedError, credential.bearer)
    for _ in range(20):
        raises(RateLimitedError, credential.bearer)
    assert server.calls == 1
    clock.now += 61
    server.reply = None
    credential.bearer()
    assert server.calls == 2


def test_429_back_off_is_bounded(server: TokenServer, clock: FakeClock) -> None:
    """A hostile reset of a year must not disable the brain for a year."""
    server.reply = lambda r: httpx.Response(429, headers={"Retry-After": "31536000"})
    credential = creds(server)
    raises(RateLimitedError, credential.bearer)
    server.reply = None
    clock.now += 901
    credential.bearer()


@pytest.mark.parametrize(
    ("status", "error", "code"),
    [
        (400, "invalid_grant", "invalid_grant"),
        (400, "invalid_request", "invalid_request"),
        (401, "invalid_client", "invalid_client"),
        (400, "Client secret was " + SECRET, None),
        (400, 42, None),
    ],
)
def test_rejected_credentials_raise_auth_error_with_known_codes_only(
    server: TokenServer, status: int, error: object, code: str | None
) -> None:
    server.reply = lambda r: httpx.Response(
        status, json={"error": error, "error_description": "echo: " + SECRET}
    )
    exc = raises(AuthError, creds(server).bearer)
    assert isinstance(exc, AuthError)
    assert (exc.status, exc.code) == (status, code)
    if code:
        assert code in str(exc)


@pytest.mark.parametrize("status", [400, 401])
def test_rejection_with_a_non_json_body_is_still_an_auth_error(
    server: TokenServer, status: int
) -> None:
    """A proxy's HTML error page says "rejected" as clearly as GBrain's JSON does."""
    server.reply = lambda r: httpx.Response(status, text="<html>denied</html>")
    exc = raises(AuthError, creds(server).bearer)
    assert isinstance(exc, AuthError)
    assert (exc.status, exc.code) == (status, None)


@pytest.mark.parametrize("status", [500, 502, 403, 404, 204])
def test_other_statuses_raise_http_status_error(server: TokenServer, status: int) -> None:
    server.reply = lambda r: httpx.Response(status, text="<html>oops</html>")
    exc = raises(HTTPStatusError, creds(server).bearer)
    assert type(exc) is HTTPStatusError
    assert exc.status == status


def test_failed_mint_is_not_cached(server: TokenServer) -> None:
    server.reply = lambda r: httpx.Response(500)
    credential = creds(server)
    raises(HTTPStatusError, credential.bearer)
    server.reply = None
    assert credential.bearer() == "gbrain_at_0002"


def test_redirect_from_token_endpoint_is_refused_and_not_followed(server: TokenServer) -> None:
    server.reply = lambda r: httpx.Response(307, headers={"Location": "http://evil.example/t"})
    raises(RedirectError, creds(server).bearer)
    assert server.calls == 1


def test_empty_granted_scope_is_an_auth_error(server: TokenServer) -> None:
    """GBrain filters scopes silently: a 200 with scope "" is a token that can call nothing."""
    server.scope = ""
    exc = raises(AuthError, creds(server, scope="write").bearer)
    assert isinstance(exc, AuthError)
    assert exc.code == "invalid_scope"


def test_whitespace_scope_is_an_auth_error(server: TokenServer) -> None:
    server.scope = "  "
    raises(AuthError, creds(server).bearer)


def test_absent_scope_is_accepted_and_reported_empty(server: TokenServer) -> None:
    server.scope = None
    credential = creds(server)
    assert credential.granted_scope is None
    credential.bearer()
    assert credential.granted_scope == ""


@pytest.mark.parametrize(
    "payload",
    [
        b"not json",
        b"[]",
        b'"token"',
        b"{}",
        b'{"access_token": ""}',
        b'{"access_token": 12}',
        b'{"access_token": "a\\nb"}',
        b'{"access_token": "a b"}',
        b'{"access_token": "caf\\u00e9"}',
        b'{"access_token": "t", "token_type": "mac"}',
        b'{"access_token": "t", "token_type": null}',
        b'{"access_token": "t", "expires_in": "3600"}',
        b'{"access_token": "t", "expires_in": true}',
        b'{"access_token": "t", "expires_in": null}',
        b'{"access_token": "t", "expires_in": NaN}',
        b'{"access_token": "t", "expires_in": Infinity}',
    ],
)
def test_malformed_token_responses_are_protocol_errors(server: TokenServer, payload: bytes) -> None:
    server.reply = lambda r: httpx.Response(
        200, content=payload, headers={"Content-Type": "application/json"}
    )
    raises(ProtocolError, creds(server).bearer)


def test_token_type_is_case_insensitive(server: TokenServer) -> None:
    server.reply = lambda r: httpx.Response(
        200, json={"access_token": "t", "token_type": "Bearer", "scope": "read"}
    )
    assert creds(server).bearer() == "t"


def test_oversized_token_response_is_too_large(server: TokenServer) -> None:
    server.reply = lambda r: httpx.Response(200, json={"access_token": "t" * 20_000})
    raises(TooLargeError, creds(server).bearer)


def test_oversized_chunked_token_response_is_too_large(server: TokenServer) -> None:
    def body() -> Iterator[bytes]:
        yield b'{"access_token": "'
        while True:
            yield b"t" * 4096

    server.reply = lambda r: httpx.Response(200, content=body())
    raises(TooLargeError, creds(server, cap=1000).bearer)


def test_every_error_is_a_gbrain_error() -> None:
    for error in (AuthError, RateLimitedError, ProtocolError, HTTPStatusError, TooLargeError):
        assert issubclass(error, GBrainError)


# --- secrets and keys --------------------------------------------------------------------


def test_reprs_hide_secrets(server: TokenServer) -> None:
    credential = creds(server)
    credential.bearer()
    assert SECRET not in repr(credential)
    assert "gbrain_at_0001" not in repr(auth_module._slot(credential.cache_key).minted)
    assert SECRET not in credential.cache_key
    static = StaticToken(SECRET)
    assert SECRET not in repr(static)
    assert SECRET not in str(static)
    assert SECRET not in static.cache_key


def test_static_token_is_used_as_is_and_never_replaced() -> None:
    static = StaticToken("gbrain_" + "a" * 64)
    assert static.bearer() == "gbrain_" + "a" * 64
    assert static.rejected(static.bearer()) is False
    assert static.bearer() == "gbrain_" + "a" * 64


def test_cache_key_differs_per_namespace_secret_endpoint_client_and_scope(
    server: TokenServer,
) -> None:
    base = creds(server).cache_key
    variants = [
        creds(server, namespace="profile-b"),
        creds(server, client_secret=SECRET + "x"),
        creds(server, token_url="http://127.0.0.1:3132/token"),
        creds(server, client_id=CLIENT_ID + "x"),
        creds(server, scope="read"),
    ]
    keys = {base, *(v.cache_key for v in variants)}
    assert len(keys) == 6
    assert creds(server).cache_key == base
    assert StaticToken(SECRET).cache_key != StaticToken(SECRET, namespace="p").cache_key
    assert StaticToken(SECRET).cache_key != StaticToken(SECRET + "x").cache_key


def test_different_namespaces_mint_separately(server: TokenServer) -> None:
    """Profiles never share a token, even with the same client."""
    a = creds(server, namespace="profile-a")
    b = creds(server, namespace="profile-b")
    assert a.bearer() != b.bearer()
    assert server.calls == 2


def test_keyed_hash_separates_its_parts() -> None:
    """Moving characters between parts must change the key (no ambiguous joins)."""
    assert keyed_hash("a", "bc") != keyed_hash("ab", "c")
    assert keyed_hash("a\x00", "b") != keyed_hash("a", "\x00b")
    assert keyed_hash("x") == keyed_hash("x")
    assert len(keyed_hash("x")) == 32
