"""The connection state machines: hello first, the version, the rate limit, frames both ways."""

from typing import Any

import pytest

from parlour.protocol import (
    ClientSession,
    CloseCode,
    ErrorCode,
    ProtocolError,
    Refusal,
    Request,
    ServerSession,
)
from parlour.protocol import messages as m
from parlour.protocol.session import TokenBucket
from parlour.protocol.wire import MAX_DEPTH, Codec, JsonCodec, MsgpackCodec

from .test_wire import CLIENT_SAMPLES, ROOM, SERVER_SAMPLES, nested

CODECS = [pytest.param(JsonCodec, id="json"), pytest.param(MsgpackCodec, id="msgpack")]
HELLO = {"type": "hello", "version": 1, "name": "Ann"}
PING = {"type": "list_rooms"}


@pytest.fixture(params=CODECS)
def codec(request: pytest.FixtureRequest) -> Codec:
    codec_class: type[Codec] = request.param
    return codec_class()


def greeted(codec: Codec) -> ServerSession:
    """A session that said hello long ago, so its bucket is full at time 0."""
    session = ServerSession(codec)
    assert isinstance(session.receive(codec.encode(HELLO), -100.0), Request)
    return session


def refusal(result: Request | Refusal, code: ErrorCode) -> Refusal:
    assert isinstance(result, Refusal), result
    assert result.error.code == code.value, result.error
    return result


def send(session: ServerSession, wire: dict[str, Any], now: float = 0.0) -> Request | Refusal:
    return session.receive(session.codec.encode(wire), now)


def flood(
    session: ServerSession, start: float, stop: float, per_tick: int
) -> list[tuple[float, Refusal]]:
    """Send `per_tick` messages every 0.1 s from `start` until `stop`; the refusals, timed."""
    refusals = []
    for tick in range(round((stop - start) * 10)):
        now = start + tick / 10
        for _ in range(per_tick):
            result = send(session, PING, now)
            if isinstance(result, Refusal):
                refusals.append((now, result))
    return refusals


# Hello first.


@pytest.mark.parametrize(
    "wire",
    [
        {"type": "list_rooms", "id": "a"},
        {"type": "join", "id": "a", "room": ROOM},
        {"type": "move", "id": "a", "room": ROOM, "version": 0, "move": "e3"},
    ],
    ids=lambda wire: wire["type"],
)
def test_a_message_before_hello_closes_with_1008(codec: Codec, wire: dict[str, Any]) -> None:
    session = ServerSession(codec)
    result = refusal(send(session, wire), ErrorCode.HELLO_FIRST)
    assert result.close == CloseCode.POLICY_VIOLATION == 1008
    assert result.error.id == "a"
    assert session.name is None


@pytest.mark.parametrize(
    "wire",
    [{"type": "join"}, {"type": "move", "room": ROOM}, {"type": "nonsense"}],
    ids=["join-without-room", "move-without-version", "unknown-type"],
)
def test_any_other_message_before_hello_closes_with_1008(
    codec: Codec, wire: dict[str, Any]
) -> None:
    result = refusal(send(ServerSession(codec), wire), ErrorCode.HELLO_FIRST)
    assert result.close == CloseCode.POLICY_VIOLATION


@pytest.mark.parametrize("version", [0, 2, 99])
def test_hello_with_another_version_closes_with_1002(codec: Codec, version: int) -> None:
    session = ServerSession(codec)
    result = refusal(send(session, HELLO | {"version": version}), ErrorCode.UNSUPPORTED_VERSION)
    assert result.close == CloseCode.PROTOCOL_ERROR == 1002
    assert result.error.detail == {"version": 1}
    assert session.name is None


def test_hello_is_a_request_and_names_the_session(codec: Codec) -> None:
    session = ServerSession(codec)
    wire = HELLO | {"id": 1, "client": "parlour-cli 0.1.0"}
    assert send(session, wire) == Request(
        m.Hello(id=1, version=1, name="Ann", client="parlour-cli 0.1.0")
    )
    assert session.name == "Ann"
    assert send(session, PING) == Request(m.ListRooms())


def test_a_hello_with_a_bad_name_may_be_sent_again(codec: Codec) -> None:
    session = ServerSession(codec)
    result = refusal(send(session, HELLO | {"name": "A" * 33, "id": 1}), ErrorCode.BAD_FIELD)
    assert (result.close, result.error.id, result.error.detail) == (None, 1, {"field": "name"})
    assert session.name is None
    assert isinstance(send(session, HELLO), Request)
    assert session.name == "Ann"


def test_a_second_hello_is_a_bad_message_without_close(codec: Codec) -> None:
    session = greeted(codec)
    result = refusal(send(session, HELLO | {"name": "Bob", "id": 2}), ErrorCode.BAD_MESSAGE)
    assert (result.close, result.error.id) == (None, 2)
    assert session.name == "Ann"
    assert isinstance(send(session, PING), Request)


# Refusals after hello.


@pytest.mark.parametrize(
    ("wire", "code", "detail"),
    [
        pytest.param(
            {"type": "move", "room": ROOM, "version": -1, "move": "e3"},
            ErrorCode.BAD_FIELD,
            {"field": "version"},
            id="bad-field",
        ),
        pytest.param(
            {"type": "move", "room": ROOM, "move": "e3"},
            ErrorCode.BAD_FIELD,
            {"field": "version"},
            id="missing-field",
        ),
        pytest.param(
            {"type": "shout"}, ErrorCode.UNKNOWN_TYPE, {"type": "shout"}, id="unknown-type"
        ),
    ],
)
@pytest.mark.parametrize("request_id", ["r-1", 41])
def test_a_refusal_carries_the_request_id(
    codec: Codec,
    wire: dict[str, Any],
    code: ErrorCode,
    detail: dict[str, Any] | None,
    request_id: str | int,
) -> None:
    result = refusal(send(greeted(codec), wire | {"id": request_id}), code)
    assert result.error.id == request_id
    assert result.error.detail == detail
    assert result.close is None


@pytest.mark.parametrize("sent", ["", "x" * 65, "a\tb"])
def test_a_refusal_of_an_invalid_id_carries_it_back(codec: Codec, sent: str | int) -> None:
    wire = {"type": "move", "id": sent, "room": ROOM, "version": 0, "move": "e3"}
    result = refusal(send(greeted(codec), wire), ErrorCode.BAD_FIELD)
    assert result.error.id == sent
    assert result.error.detail == {"field": "id"}


def test_a_refusal_leaves_out_an_id_that_is_no_string_or_integer(codec: Codec) -> None:
    wire = {"type": "move", "id": [1], "room": ROOM, "version": 0, "move": "e3"}
    result = refusal(send(greeted(codec), wire), ErrorCode.BAD_FIELD)
    assert result.error.id is None
    assert result.error.detail == {"field": "id"}


@pytest.mark.parametrize(
    ("codec_class", "frame", "code"),
    [
        pytest.param(JsonCodec, b"{}", ErrorCode.BAD_FRAME, id="json-binary"),
        pytest.param(JsonCodec, "{", ErrorCode.BAD_FRAME, id="json-invalid"),
        pytest.param(JsonCodec, '{"type":"ok","v":0.5}', ErrorCode.BAD_MESSAGE, id="json-float"),
        pytest.param(MsgpackCodec, "{}", ErrorCode.BAD_FRAME, id="msgpack-text"),
        pytest.param(MsgpackCodec, b"\xc1", ErrorCode.BAD_FRAME, id="msgpack-invalid"),
        pytest.param(MsgpackCodec, b"\x91\x01", ErrorCode.BAD_MESSAGE, id="msgpack-array"),
    ],
)
def test_a_bad_frame_is_refused_and_the_connection_goes_on(
    codec_class: type[Codec], frame: bytes | str, code: ErrorCode
) -> None:
    session = greeted(codec_class())
    result = refusal(session.receive(frame, 0.0), code)
    assert (result.close, result.error.id) == (None, None)
    assert isinstance(send(session, PING), Request)


@pytest.mark.parametrize(
    "wire",
    [
        pytest.param({"options": {"rows": 8.5}}, id="float-option"),
        pytest.param({"options": {"rows": 2**53}}, id="unsafe-integer"),
        pytest.param(nested(MAX_DEPTH + 1, "array"), id="too-deep"),
    ],
)
def test_a_bad_message_refusal_carries_the_request_id(codec: Codec, wire: dict[str, Any]) -> None:
    message = wire | {"type": "create_room", "id": 1, "game": "tribolo"}
    result = refusal(send(greeted(codec), message), ErrorCode.BAD_MESSAGE)
    assert result.error.id == 1


# The rate limit: 20 a second, bursts of 40.


def test_a_burst_of_40_is_accepted_and_the_41st_is_rate_limited(codec: Codec) -> None:
    session = greeted(codec)
    assert all(isinstance(send(session, PING, 0.0), Request) for _ in range(40))
    result = refusal(send(session, PING, 0.0), ErrorCode.RATE_LIMITED)
    assert result.close is None


def test_the_bucket_refills_at_20_a_second(codec: Codec) -> None:
    session = greeted(codec)
    for _ in range(41):
        send(session, PING, 0.0)
    results = [send(session, PING, 0.5) for _ in range(11)]
    assert all(isinstance(result, Request) for result in results[:10])
    refusal(results[10], ErrorCode.RATE_LIMITED)


def test_the_bucket_holds_no_more_than_40(codec: Codec) -> None:
    session = greeted(codec)
    results = [send(session, PING, 3600.0) for _ in range(41)]
    assert all(isinstance(result, Request) for result in results[:40])
    refusal(results[40], ErrorCode.RATE_LIMITED)


def test_a_rate_limited_refusal_answers_the_request(codec: Codec) -> None:
    session = greeted(codec)
    for _ in range(40):
        send(session, PING, 0.0)
    result = refusal(send(session, PING | {"id": "r-41"}, 0.0), ErrorCode.RATE_LIMITED)
    assert (result.error.id, result.close) == ("r-41", None)


def test_an_undecodable_frame_counts_against_the_limit_too(codec: Codec) -> None:
    session = greeted(codec)
    bad_frame = b"\xc1" if isinstance(codec, MsgpackCodec) else "{"
    for _ in range(40):
        refusal(session.receive(bad_frame, 0.0), ErrorCode.BAD_FRAME)
    result = refusal(session.receive(bad_frame, 0.0), ErrorCode.RATE_LIMITED)
    assert (result.error.id, result.close) == (None, None)
    refusal(send(session, PING, 0.0), ErrorCode.RATE_LIMITED)


def test_a_steady_10_a_second_is_never_limited(codec: Codec) -> None:
    session = greeted(codec)
    assert flood(session, 0.0, 60.0, per_tick=1) == []


def test_a_flood_the_bucket_never_serves_closes_after_10_seconds(codec: Codec) -> None:
    session = ServerSession(codec, bucket=TokenBucket(rate=0.0, burst=0.0))
    refusals = flood(session, 0.0, 10.0, per_tick=3)
    assert len(refusals) == 300
    assert all(result.close is None for _, result in refusals)
    closing = refusal(send(session, PING, 10.0), ErrorCode.RATE_LIMITED)
    assert closing.close == CloseCode.POLICY_VIOLATION == 1008


@pytest.mark.parametrize("per_tick", [3, 100], ids=["30/s", "1000/s"])
def test_flooding_for_10_seconds_closes_with_1008(codec: Codec, per_tick: int) -> None:
    session = greeted(codec)
    refusals = flood(session, 0.0, 20.0, per_tick)
    assert all(result.error.code == ErrorCode.RATE_LIMITED.value for _, result in refusals)
    first_limited = refusals[0][0]
    closes = [(now, result.close) for now, result in refusals if result.close is not None]
    assert closes, "never closed"
    assert 10.0 <= closes[0][0] - first_limited < 10.25
    assert closes[0][1] == CloseCode.POLICY_VIOLATION


def test_a_client_that_waits_after_flooding_is_not_closed(codec: Codec) -> None:
    session = greeted(codec)
    refusals = flood(session, 0.0, 5.0, per_tick=100)
    refusals += flood(session, 6.0, 30.0, per_tick=1)
    refusals += flood(session, 30.0, 30.1, per_tick=41)
    assert refusals[-1][0] == 30.0
    assert all(result.close is None for _, result in refusals)
    assert isinstance(send(session, PING, 40.0), Request)


def test_the_rate_limit_applies_before_hello_too(codec: Codec) -> None:
    session = ServerSession(codec)
    for _ in range(40):
        refusal(send(session, PING), ErrorCode.HELLO_FIRST)
    refusal(send(session, HELLO), ErrorCode.RATE_LIMITED)
    assert session.name is None


def test_a_smaller_burst_is_the_most_taken_at_once() -> None:
    bucket = TokenBucket(rate=20.0, burst=10.0)
    assert sum(bucket.take(0.0) for _ in range(50)) == 10


# Frames both ways.


@pytest.mark.parametrize("sample", SERVER_SAMPLES, ids=lambda sample: sample.TYPE)
def test_server_messages_reach_the_client(codec: Codec, sample: m.ServerMessage) -> None:
    frame = ServerSession(codec).send(sample)
    assert isinstance(frame, str if isinstance(codec, JsonCodec) else bytes)
    assert ClientSession(type(codec)()).receive(frame) == sample


@pytest.mark.parametrize("sample", CLIENT_SAMPLES, ids=lambda sample: sample.TYPE)
def test_client_messages_reach_the_server(codec: Codec, sample: m.ClientMessage) -> None:
    session = ServerSession(codec) if isinstance(sample, m.Hello) else greeted(codec)
    assert session.receive(ClientSession(codec).send(sample), 0.0) == Request(sample)


def test_a_refusal_is_sent_as_an_error_message(codec: Codec) -> None:
    session = ServerSession(codec)
    result = refusal(
        send(session, {"type": "start", "id": 3, "room": ROOM}), ErrorCode.HELLO_FIRST
    )
    received = ClientSession(codec).receive(session.send(result.error))
    assert received == result.error
    assert isinstance(received, m.Error)
    assert (received.code, received.id) == ("hello_first", 3)


@pytest.mark.parametrize(
    "wire",
    [{"type": "lobby_news"}, {"type": "join", "room": ROOM}, {"type": "list_rooms"}],
    ids=lambda wire: wire["type"],
)
def test_the_client_refuses_an_unknown_server_type(codec: Codec, wire: dict[str, Any]) -> None:
    with pytest.raises(ProtocolError) as caught:
        ClientSession(codec).receive(codec.encode(wire))
    assert caught.value.code == ErrorCode.UNKNOWN_TYPE


def test_the_client_refuses_a_server_message_with_a_bad_field(codec: Codec) -> None:
    with pytest.raises(ProtocolError) as caught:
        ClientSession(codec).receive(codec.encode({"type": "joined", "room": {}, "token": "t"}))
    assert (caught.value.code, caught.value.detail) == (ErrorCode.BAD_FIELD, {"field": "host"})


def test_the_client_will_not_send_a_value_outside_the_schema(codec: Codec) -> None:
    with pytest.raises(ProtocolError) as caught:
        ClientSession(codec).send(m.CreateRoom(game="tribolo", board=2**53))
    assert caught.value.code == ErrorCode.BAD_MESSAGE


@pytest.mark.parametrize(
    "frame",
    [
        '{"type":"\\ud800"}',
        '{"type":"list_rooms","id":"\\ud800"}',
        '{"type":"list_rooms","id":"a\\udfffb","x":"\\ud800"}',
        '{"type":"move","id":"\\ud800","room":"r","version":0,"move":"d3"}',
    ],
    ids=["type", "id", "id-and-field", "id-of-a-move"],
)
def test_every_refusal_is_a_frame_that_can_be_sent(frame: str) -> None:
    """An id holding a lone surrogate cannot be carried back: refused without an id."""
    session = greeted(JsonCodec())
    result = refusal(session.receive(frame, 0.0), ErrorCode.BAD_MESSAGE)
    sent = session.send(result.error)
    assert isinstance(sent, str)
    sent.encode("utf-8")
    if "id" in frame:
        assert result.error.id is None


def test_a_hello_refused_for_its_name_may_be_sent_again(codec: Codec) -> None:
    session = ServerSession(codec)
    assert isinstance(session.receive(codec.encode(HELLO | {"id": 1}), 0.0), Request)
    taken = m.Error(id=1, code=ErrorCode.NAME_TAKEN.value, message="the name Ann is taken")
    session.send(taken)
    assert isinstance(
        session.receive(codec.encode(HELLO | {"id": 2, "name": "Bea"}), 0.0), Request
    )
    session.send(m.Welcome(id=2, version=1, server="parlour", games=[]))
    again = session.receive(codec.encode(HELLO | {"id": 3}), 0.0)
    assert isinstance(again, Refusal) and again.error.code == ErrorCode.BAD_MESSAGE.value
    # Once welcomed, an error answering a later request never reopens the hello.
    session.send(m.Error(id=2, code=ErrorCode.NAME_TAKEN.value, message="a game is saved so"))
    assert session.name == "Bea"
