"""The SSE decoder: same events whatever the chunking, and only CR/LF/CRLF end lines.

The transport hands the decoder whatever the network delivered, so any split of the
byte stream (mid-CRLF, mid-UTF-8 character, empty chunks) must decode identically.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hermes_gbrain.sse import Event, SSEDecoder


def decode(*chunks: bytes) -> list[Event]:
    decoder = SSEDecoder()
    events: list[Event] = []
    for chunk in chunks:
        events += decoder.feed(chunk)
    return events + decoder.finish()


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted(min(max(c, 0), len(data)) for c in cuts)  # repeats give empty chunks
    pieces: list[bytes] = []
    last = 0
    for point in points:
        pieces.append(data[last:point])
        last = point
    pieces.append(data[last:])
    return pieces


def test_gbrain_framing() -> None:
    body = b'event: message\ndata: {"result":{},"jsonrpc":"2.0","id":1}\n\n'
    assert decode(body) == [Event("message", '{"result":{},"jsonrpc":"2.0","id":1}')]


def test_default_event_type_is_message_and_resets_after_dispatch() -> None:
    assert decode(b"event: ping\ndata: a\n\ndata: b\n\n") == [
        Event("ping", "a"),
        Event("message", "b"),
    ]


def test_multi_line_data_is_joined_with_newline() -> None:
    assert decode(b"data: one\ndata:two\ndata:  three\n\n") == [
        Event("message", "one\ntwo\n three")
    ]


def test_comments_are_skipped() -> None:
    assert decode(b": keep-alive\n:\ndata: x\n: between\n\n") == [Event("message", "x")]


def test_empty_data_events_are_skipped() -> None:
    """MCP servers send priming events with no data; they carry nothing to decode."""
    assert decode(b"id: 1\ndata:\n\nevent: x\n\n\n\ndata: real\n\n") == [
        Event("message", "real", id="1")
    ]


def test_field_without_colon_and_unknown_fields() -> None:
    assert decode(b"data\ndata: x\nretry: 10\nfoo: bar\n\n") == [Event("message", "\nx")]


def test_id_is_remembered_until_replaced_and_nul_ids_ignored() -> None:
    assert decode(b"id: 7\ndata: a\n\ndata: b\n\nid: a\x00b\ndata: c\n\n") == [
        Event("message", "a", id="7"),
        Event("message", "b", id="7"),
        Event("message", "c", id="7"),
    ]


def test_cr_lf_and_crlf_all_end_lines() -> None:
    expected = [Event("message", "a\nb")]
    for eol in (b"\n", b"\r", b"\r\n"):
        assert decode(b"data: a" + eol + b"data: b" + eol + eol) == expected


def test_mixed_line_endings() -> None:
    assert decode(b"data: a\rdata: b\r\ndata: c\n\r\n") == [Event("message", "a\nb\nc")]


def test_cr_at_chunk_end_then_lf_is_one_line_break() -> None:
    assert decode(b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n") == [Event("message", "a\nb")]


def test_cr_at_chunk_end_then_other_byte() -> None:
    assert decode(b"data: a\r", b"data: b\r", b"\r") == [Event("message", "a\nb")]


def test_empty_chunk_between_cr_and_lf_does_not_add_a_line() -> None:
    """An empty read between CR and LF must not turn CRLF into two line breaks."""
    assert decode(b"data: a\r", b"", b"\ndata: b\n\n") == [Event("message", "a\nb")]


def test_unicode_line_separators_are_data_not_breaks() -> None:
    """``str.splitlines`` would split on these; the event-stream format does not."""
    for sep in ("\u2028", "\u2029", "\x85", "\x1e", "\x1c", "\x0b", "\x0c"):
        data = f"left{sep}right"
        assert decode(f"data: {data}\n\n".encode()) == [Event("message", data)]


def test_multibyte_utf8_split_across_chunks() -> None:
    raw = "data: naïve — 🧠\n\n".encode()
    for cut in range(len(raw) + 1):
        assert decode(raw[:cut], raw[cut:]) == [Event("message", "naïve — 🧠")]


def test_one_leading_bom_is_ignored_even_when_split() -> None:
    raw = "\ufeffdata: a\n\n\ufeffdata: b\n\n".encode()
    expected = [Event("message", "a")]  # a second BOM is part of a field name: ignored
    for cut in range(4):
        assert decode(raw[:cut], raw[cut:]) == expected


def test_invalid_utf8_is_replaced_not_raised() -> None:
    assert decode(b"data: \xff\xfe\n\n") == [Event("message", "\ufffd\ufffd")]


def test_unterminated_event_is_dropped_at_end_of_stream() -> None:
    assert decode(b"data: complete\n\ndata: partial") == [Event("message", "complete")]
    assert decode(b"data: partial\n") == []


def test_feed_returns_events_as_soon_as_they_complete() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\n") == []
    assert decoder.feed(b"\ndata: b") == [Event("message", "a")]
    assert decoder.feed(b"\n\n") == [Event("message", "b")]


# --- properties -----------------------------------------------------------------------------

_text = st.text(
    st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"), max_size=20
)
_eol = st.sampled_from([b"\n", b"\r", b"\r\n"])
_line = st.one_of(
    _text.map(lambda t: f"data: {t}"),
    _text.map(lambda t: f"data:{t}"),
    _text.map(lambda t: f"event: {t}"),
    _text.map(lambda t: f": {t}"),
    _text.map(lambda t: f"id: {t}"),
    _text,
    st.just(""),
)


@st.composite
def streams(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(st.tuples(_line, _eol), max_size=25))
    return b"".join(line.encode() + eol for line, eol in lines)


@settings(max_examples=400, deadline=None)
@given(data=streams(), cuts=st.lists(st.integers(min_value=0, max_value=600), max_size=12))
def test_any_chunking_yields_the_same_events(data: bytes, cuts: list[int]) -> None:
    assert decode(*split(data, cuts)) == decode(data)


@settings(max_examples=200, deadline=None)
@given(data=streams())
def test_byte_at_a_time_equals_whole(data: bytes) -> None:
    assert decode(*(data[i : i + 1] for i in range(len(data)))) == decode(data)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.text(
            st.characters(blacklist_categories=["Cs"], blacklist_characters="\r\n"), min_size=1
        ),
        min_size=1,
        max_size=5,
    ),
    _eol,
)
def test_data_lines_round_trip(values: list[str], eol: bytes) -> None:
    """Whatever text a server puts on data lines comes back joined with ``\\n``."""
    body = b"".join(b"data:" + v.encode() + eol for v in values) + eol
    events = decode(body)
    joined = "\n".join(v[1:] if v.startswith(" ") else v for v in values)
    assert events == ([Event("message", joined)] if joined else [])


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.lists(st.integers(min_value=0, max_value=300), max_size=8))
def test_arbitrary_bytes_never_raise_and_chunking_is_irrelevant(
    data: bytes, cuts: list[int]
) -> None:
    assert decode(*split(data, cuts)) == decode(data)
