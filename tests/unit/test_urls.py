"""URL rules: plain http only to loopback, nothing smuggled in the URL, /token beside /mcp.

A bearer token sent over plain http to a remote host is readable by anyone on the path,
and no HTTP library refuses that; these rules are the only guard, so they are pinned
with tables and with hypothesis.
"""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_gbrain.errors import ConfigError
from hermes_gbrain.urls import Endpoint, is_loopback_host, parse_endpoint


@pytest.mark.parametrize(
    ("url", "mcp", "token"),
    [
        ("http://127.0.0.1:3131/mcp", "http://127.0.0.1:3131/mcp", "http://127.0.0.1:3131/token"),
        ("http://127.0.0.2:3131/mcp", "http://127.0.0.2:3131/mcp", "http://127.0.0.2:3131/token"),
        ("http://localhost/mcp", "http://localhost/mcp", "http://localhost/token"),
        ("http://LOCALHOST:80/mcp/", "http://localhost:80/mcp", "http://localhost:80/token"),
        ("http://[::1]:3131/mcp", "http://[::1]:3131/mcp", "http://[::1]:3131/token"),
        ("HTTPS://Brain.Example.com/mcp", "https://brain.example.com/mcp", None),
        (
            "https://brain.example.com:8443/brain/mcp",
            "https://brain.example.com:8443/brain/mcp",
            "https://brain.example.com:8443/brain/token",
        ),
        (
            "  https://h.example/a/b/mcp//  ",
            "https://h.example/a/b/mcp",
            "https://h.example/a/b/token",
        ),
        ("https://[2001:db8::1]/mcp", "https://[2001:db8::1]/mcp", "https://[2001:db8::1]/token"),
    ],
)
def test_accepted_urls_are_normalised_and_token_url_keeps_the_prefix(
    url: str, mcp: str, token: str | None
) -> None:
    endpoint = parse_endpoint(url)
    assert endpoint.mcp_url == mcp
    assert str(endpoint) == mcp
    expected_token = token or mcp[: -len("/mcp")] + "/token"
    assert endpoint.token_url == expected_token
    assert endpoint.origin == mcp.split("/", 3)[0] + "//" + mcp.split("/", 3)[2]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("ftp://127.0.0.1/mcp", "http or https"),
        ("127.0.0.1:3131/mcp", "http or https"),
        ("http:///mcp", "no host"),
        ("http://user:pw@127.0.0.1/mcp", "credentials"),
        ("http://user@127.0.0.1/mcp", "credentials"),
        ("http://@127.0.0.1/mcp", "credentials"),
        ("https://127.0.0.1/mcp#frag", "fragment"),
        ("https://127.0.0.1/mcp#", "fragment"),
        ("https://127.0.0.1/mcp?token=abc", "query"),
        ("https://127.0.0.1:99999/mcp", "not a valid URL"),
        ("https://127.0.0.1:port/mcp", "not a valid URL"),
        ("https://[::1/mcp", "not a valid URL"),
        ("https://127.0.0.1/", "must end with /mcp"),
        ("https://127.0.0.1/mcpx", "must end with /mcp"),
        ("https://127.0.0.1/xmcp", "must end with /mcp"),
        ("http://brain.example.com/mcp", "loopback"),
        ("http://10.0.0.1/mcp", "loopback"),
        ("http://0.0.0.0/mcp", "loopback"),
        ("http://localhost.evil.example/mcp", "loopback"),
        ("http://127.0.0.1.nip.io/mcp", "loopback"),
        ("http://127.1/mcp", "loopback"),
        ("http://[::ffff:10.0.0.1]/mcp", "loopback"),
        ("http://x.localhost/mcp", "loopback"),
        ("https://127.0.0.1/m cp", "whitespace or control"),
        ("https://127.0.0.1/mcp\x00", "whitespace or control"),
        ("https://127.0.0.1/\tmcp", "whitespace or control"),
        ("https://127.0.0.1/mcp\x7f", "whitespace or control"),
        ("https://127.0.0.1/m\x85cp", "whitespace or control"),
        ("https://127.0.0.1/m\u2028cp", "whitespace or control"),
        ("https://127.0.0.1\r\nX-Evil: 1/mcp", "whitespace or control"),
    ],
)
def test_refused_urls_say_why(url: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_endpoint(url)


def test_allow_http_opens_plain_http_to_remote_hosts_only_when_asked() -> None:
    with pytest.raises(ConfigError, match="GBRAIN_POINTER_ALLOW_HTTP"):
        parse_endpoint("http://brain.lan:3131/mcp")
    endpoint = parse_endpoint("http://brain.lan:3131/mcp", allow_http=True)
    assert endpoint.token_url == "http://brain.lan:3131/token"


def test_allow_http_does_not_relax_the_other_rules() -> None:
    with pytest.raises(ConfigError, match="credentials"):
        parse_endpoint("http://u:p@brain.lan/mcp", allow_http=True)


def test_non_string_is_refused() -> None:
    with pytest.raises(ConfigError):
        parse_endpoint(None)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("localhost", True),
        ("LocalHost", True),
        ("127.0.0.1", True),
        ("127.255.255.254", True),
        ("::1", True),
        ("[::1]", True),
        ("0:0:0:0:0:0:0:1", True),
        ("128.0.0.1", False),
        ("::", False),
        ("localhost.example", False),
        ("evil.localhost", False),
        ("", False),
        ("example.com", False),
    ],
)
def test_is_loopback_host(host: str, loopback: bool) -> None:
    assert is_loopback_host(host) is loopback


def test_endpoint_is_frozen() -> None:
    endpoint = parse_endpoint("http://127.0.0.1/mcp")
    with pytest.raises(AttributeError):
        endpoint.mcp_url = "http://evil/mcp"  # type: ignore[misc]
    assert isinstance(endpoint, Endpoint)


# --- properties ---------------------------------------------------------------------------

_label = st.text(string.ascii_lowercase + string.digits, min_size=1, max_size=12)
_hostnames = st.lists(_label, min_size=1, max_size=3).map(".".join)
_segments = st.lists(
    st.text(string.ascii_letters + string.digits + "-_.~", min_size=1, max_size=8).filter(
        lambda s: s not in (".", "..")
    ),
    max_size=3,
)
_ports = st.none() | st.integers(min_value=1, max_value=65535)


def _url(scheme: str, host: str, port: int | None, segments: list[str]) -> str:
    netloc = host if port is None else f"{host}:{port}"
    prefix = "".join("/" + s for s in segments)
    return f"{scheme}://{netloc}{prefix}/mcp"


@settings(max_examples=200, deadline=None)
@given(host=_hostnames, port=_ports, segments=_segments)
def test_https_any_host_is_accepted_and_token_sits_beside_mcp(
    host: str, port: int | None, segments: list[str]
) -> None:
    url = _url("https", host, port, segments)
    endpoint = parse_endpoint(url)
    assert endpoint.mcp_url == url
    assert endpoint.token_url == url[: -len("/mcp")] + "/token"
    assert endpoint.token_url.startswith(endpoint.origin + "/")
    assert endpoint.mcp_url.startswith(endpoint.origin + "/")


@settings(max_examples=200, deadline=None)
@given(host=_hostnames, port=_ports, segments=_segments)
def test_plain_http_is_refused_for_every_non_loopback_host(
    host: str, port: int | None, segments: list[str]
) -> None:
    url = _url("http", host, port, segments)
    if is_loopback_host(host):
        assert parse_endpoint(url).mcp_url == url
    else:
        with pytest.raises(ConfigError, match="loopback"):
            parse_endpoint(url)
        assert parse_endpoint(url, allow_http=True).mcp_url == url


@settings(max_examples=200, deadline=None)
@given(st.ip_addresses(v=4), _ports)
def test_plain_http_to_ipv4_follows_the_loopback_range(address: object, port: int | None) -> None:
    url = _url("http", str(address), port, [])
    if str(address).startswith("127."):
        assert parse_endpoint(url).mcp_url == url
    else:
        with pytest.raises(ConfigError):
            parse_endpoint(url)


@settings(max_examples=300, deadline=None)
@given(
    st.characters(categories=["Cc", "Zl", "Zp", "Zs"]),
    st.integers(min_value=0, max_value=40),
)
def test_any_control_or_space_character_inside_is_refused(bad: str, where: int) -> None:
    """Leading and trailing whitespace is trimmed as a typo; anything inside is refused."""
    base = "https://brain.example.com/mcp"
    where = min(where, len(base) - 2) + 1
    url = base[:where] + bad + base[where:]
    with pytest.raises(ConfigError):
        parse_endpoint(url)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_is_accepted_or_refused_with_config_error(text: str) -> None:
    """Nothing but ConfigError ever escapes, whatever the user typed."""
    for candidate in (text, "https://" + text, "http://127.0.0.1/" + text + "/mcp"):
        try:
            endpoint = parse_endpoint(candidate)
        except ConfigError:
            continue
        assert endpoint.mcp_url.endswith("/mcp")
        assert "@" not in endpoint.origin
        assert "#" not in endpoint.mcp_url
        assert "?" not in endpoint.mcp_url


def test_shown_url_hides_credentials_query_and_control_characters() -> None:
    from hermes_gbrain.urls import shown_url

    shown = shown_url("https://user:hunter2@brain.example.com:8443/mcp?key=abc#fr4g")
    assert shown.startswith("https://brain.example.com:8443/mcp ")
    assert "hunter2" not in shown and "abc" not in shown and "fr4g" not in shown
    assert shown_url("http://127.0.0.1:3131/mcp") == "http://127.0.0.1:3131/mcp"
    assert shown_url("http://[::1]:80/mcp") == "http://[::1]:80/mcp"
    assert shown_url("http://h/\x1b[31mred\n").isprintable()
