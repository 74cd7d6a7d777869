"""Bad input over real sockets: each gets its typed error, and no room changes."""

import asyncio
import contextlib
import json
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from parlour.protocol import messages as m
from parlour.server import ParlourServer, ServerConfig, running_server

from .test_seats import tribolo_room
from .wsclient import Client


async def refused(client: Client, frame: bytes | str) -> m.Error:
    await client.websocket.send(frame)
    error = await client.expect(lambda message: isinstance(message, m.Error))
    assert isinstance(error, m.Error)
    return error


def packed(message: dict[str, Any]) -> bytes:
    return msgpack.packb(message)


@pytest.mark.parametrize("offered", [None, ["chat.v2"]])
async def test_a_handshake_without_our_subprotocol_is_refused_with_400(
    server: ParlourServer, offered: list[str] | None
) -> None:
    with pytest.raises(InvalidStatus) as caught:
        await connect(f"ws://127.0.0.1:{server.port}/ws", subprotocols=offered)  # type: ignore[arg-type]
    response = caught.value.response
    assert response.status_code == 400
    assert b"parlour.v1.msgpack" in response.body and b"parlour.v1.json" in response.body


async def test_the_server_picks_the_clients_first_subprotocol_it_speaks(
    server: ParlourServer,
) -> None:
    offered = ["chat.v2", "parlour.v1.json", "parlour.v1.msgpack"]
    async with connect(f"ws://127.0.0.1:{server.port}/ws", subprotocols=offered) as websocket:  # type: ignore[arg-type]
        assert websocket.subprotocol == "parlour.v1.json"


async def raw_connection(server: ParlourServer, first: str) -> tuple[Any, m.Error]:
    websocket = await connect(
        f"ws://127.0.0.1:{server.port}/ws",
        subprotocols=["parlour.v1.json"],  # type: ignore[list-item]
    )
    await websocket.send(first)
    error = m.Error.from_wire(json.loads(await websocket.recv()))
    return websocket, error


async def test_an_id_that_cannot_be_sent_back_is_refused_without_it(
    server: ParlourServer,
) -> None:
    """A JSON id holding a lone surrogate: `bad_message` with no id, the connection open."""
    async with connect(
        f"ws://127.0.0.1:{server.port}/ws",
        subprotocols=["parlour.v1.json"],  # type: ignore[list-item]
    ) as websocket:
        await websocket.send('{"type":"hello","version":1,"name":"Ann","id":1}')
        assert json.loads(await websocket.recv())["type"] == "welcome"
        for frame in ('{"type":"list_rooms","id":"\\ud800"}', '{"type":"x","id":"a\\udc00"}'):
            await websocket.send(frame)
            error = json.loads(await websocket.recv())
            assert (error["type"], error["code"]) == ("error", "bad_message")
            assert "id" not in error
        await websocket.send('{"type":"list_rooms","id":2}')
        assert json.loads(await websocket.recv()) == {"type": "rooms", "id": 2, "rooms": []}


async def test_a_message_before_hello_closes_with_1008(server: ParlourServer) -> None:
    websocket, error = await raw_connection(server, '{"type": "list_rooms", "id": 7}')
    assert (error.code, error.id) == ("hello_first", 7)
    with pytest.raises(ConnectionClosed):
        await websocket.recv()
    assert websocket.close_code == 1008


async def test_an_unknown_protocol_version_closes_with_1002(server: ParlourServer) -> None:
    websocket, error = await raw_connection(
        server, '{"type": "hello", "version": 2, "name": "Ann"}'
    )
    assert error.code == "unsupported_version" and error.detail == {"version": 1}
    with pytest.raises(ConnectionClosed):
        await websocket.recv()
    assert websocket.close_code == 1002


BAD_FRAMES: list[tuple[str, Any, str, str | None]] = [
    ("text under msgpack", '{"type": "list_rooms"}', "bad_frame", None),
    ("not msgpack", b"\xc1\xc1", "bad_frame", None),
    ("truncated", b"\x82\xa4type", "bad_frame", None),
    ("not a map", packed([1, 2]), "bad_message", None),  # type: ignore[arg-type]
    ("no type", packed({"room": "x"}), "bad_message", None),
    ("a float", packed({"type": "get_room", "room": 1.5}), "bad_message", None),
    ("bytes", packed({"type": "hello", "name": b"Ann"}), "bad_message", None),
    ("too big an integer", packed({"type": "list_rooms", "id": 2**60}), "bad_message", None),
    ("unknown type", packed({"type": "surrender", "room": "ROOM"}), "unknown_type", None),
    (
        "missing field",
        packed({"type": "move", "room": "ROOM", "move": "e3"}),
        "bad_field",
        "version",
    ),
    (
        "wrong type",
        packed({"type": "move", "room": "ROOM", "version": "0", "move": "e3"}),
        "bad_field",
        "version",
    ),
    (
        "out of range",
        packed({"type": "move", "room": "ROOM", "version": -1, "move": "e3"}),
        "bad_field",
        "version",
    ),
    (
        "too long",
        packed({"type": "move", "room": "ROOM", "version": 0, "move": "e" * 65}),
        "bad_field",
        "move",
    ),
    ("short ref", packed({"type": "get_room", "room": "abc"}), "bad_field", "room"),
    (
        "control char",
        packed({"type": "move", "room": "ROOM", "version": 0, "move": "e3\n"}),
        "bad_field",
        "move",
    ),
    ("bad choice", packed({"type": "hint", "room": "ROOM", "kind": "all"}), "bad_field", "kind"),
    ("second hello", packed({"type": "hello", "version": 1, "name": "Bob"}), "bad_message", None),
]


@pytest.mark.parametrize(
    ("frame", "code", "field"),
    [case[1:] for case in BAD_FRAMES],
    ids=[case[0] for case in BAD_FRAMES],
)
async def test_a_bad_frame_gets_its_error_and_the_room_and_connection_stay(
    server: ParlourServer, frame: Any, code: str, field: str | None
) -> None:
    room, (ann, bob, cy), _ = await tribolo_room(server)
    if isinstance(frame, bytes):
        frame = (
            frame.replace(b"ROOM", room.encode()) if len(room) == 4 else _with_room(frame, room)
        )
    error = await refused(bob, frame)
    assert error.code == code
    if field is not None:
        assert error.detail == {"field": field}
    view = await bob.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView)
    assert view.room["version"] == 0 and view.room["moves"] == []
    assert isinstance(await bob.request(m.Move(room=room, version=0, move="e3")), m.Ok)
    for client in (ann, bob, cy):
        await client.close()


def _with_room(frame: bytes, room: str) -> bytes:
    """The frame with the placeholder room id replaced by a real one."""
    try:
        message = msgpack.unpackb(frame)
    except Exception:
        return frame
    if isinstance(message, dict) and message.get("room") == "ROOM":
        message["room"] = room
        return packed(message)
    return frame


async def test_refused_moves_and_tokens_change_nothing(server: ParlourServer) -> None:
    room, (ann, bob, cy), _ = await tribolo_room(server)
    eve = await Client.open(server.port, "Eve")
    await eve.request(m.Spectate(room=room))
    cases: list[tuple[Client, m.ClientMessage, str]] = [
        (ann, m.Move(room=room, version=0, move="c1"), "not_your_turn"),
        (eve, m.Move(room=room, version=0, move="e3"), "not_seated"),
        (bob, m.Move(room=room, version=5, move="e3"), "stale_version"),
        (bob, m.Move(room=room, version=0, move="e33"), "malformed_move"),
        (bob, m.Move(room=room, version=0, move="a1"), "illegal_move"),
        (eve, m.Join(room=room, token="x" * 43), "bad_token"),
        (eve, m.Join(room="nosuchroom", seat="red"), "no_such_room"),
        (bob, m.FillBots(room=room), "not_host"),
        (ann, m.FillBots(room=room), "not_waiting"),
    ]
    before = await ann.request(m.GetRoom(room=room))
    assert isinstance(before, m.RoomView)
    for client, request, code in cases:
        error = await client.request(request)
        assert isinstance(error, m.Error) and error.code == code, (request, error)
        after = await ann.request(m.GetRoom(room=room))
        assert isinstance(after, m.RoomView) and after.room == before.room
    for client in (ann, bob, cy, eve):
        await client.close()


async def test_a_frame_over_64_kib_closes_with_1009(server: ParlourServer) -> None:
    client = await Client.open(server.port, "Ann")
    await client.websocket.send(packed({"type": "list_rooms", "pad": "x" * 70_000}))
    with pytest.raises(ConnectionClosed):
        await client.websocket.recv()
    assert client.websocket.close_code == 1009


async def read_until_closed(client: Client) -> None:
    with contextlib.suppress(ConnectionClosed):
        while True:
            await client.websocket.recv()


async def test_a_burst_is_rate_limited_and_a_flood_is_closed_with_1008() -> None:
    config = ServerConfig(flood_close_after=0.5, bot_workers=1)
    async with running_server(config) as server:
        client = await Client.open(server.port, "Ann")
        for number in range(60):
            await client.send(m.ListRooms(id=number))
        replies = [await client.expect(lambda message: True) for _ in range(60)]
        # Hello spent one token of the burst of 40; refills may let a few more through.
        assert all(isinstance(reply, m.Rooms) for reply in replies[:39])
        limited = [reply for reply in replies if isinstance(reply, m.Error)]
        assert 10 <= len(limited) <= 21
        assert all(reply.code == "rate_limited" and reply.id is not None for reply in limited)
        await asyncio.sleep(0.2)
        assert isinstance(await client.request(m.ListRooms()), m.Rooms)
        reader = asyncio.create_task(read_until_closed(client))
        with pytest.raises(ConnectionClosed):
            for number in range(2000):
                await client.send(m.ListRooms(id=number))
                await asyncio.sleep(0.001)
        await asyncio.wait_for(reader, 5)
        assert client.websocket.close_code == 1008
