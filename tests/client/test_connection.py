"""The client's connection against a real server: answers, events, errors, reconnection."""

import asyncio

import pytest

from parlour.client.connection import (
    ConnectError,
    Connection,
    ConnectionLostError,
    Dropped,
    Event,
    Reconnected,
    RefusedError,
    invitation,
    room_link,
    server_url,
)
from parlour.protocol import messages as m
from parlour.server import ServerConfig, running_server
from parlour.server.serve import addresses

FAST_RETRY = (0.05,)


async def next_of(connection: Connection, kind: type[Event]) -> Event:
    """The next event of this kind, skipping others."""
    while True:
        event = await asyncio.wait_for(connection.events.get(), 10)
        if isinstance(event, kind):
            return event


@pytest.mark.parametrize(
    ("typed", "url"),
    [
        ("localhost:8765", "ws://localhost:8765/ws"),
        ("ws://example.org:9000", "ws://example.org:9000/ws"),
        ("http://example.org:9000/", "ws://example.org:9000/ws"),
        ("https://example.org/parlour/ws", "wss://example.org/parlour/ws"),
        ("  10.0.0.2:80/ws ", "ws://10.0.0.2:80/ws"),
    ],
)
def test_server_addresses_are_read_as_people_type_them(typed: str, url: str) -> None:
    assert server_url(typed) == url


@pytest.mark.parametrize(
    ("url", "link"),
    [
        ("ws://localhost:8765/ws", "http://localhost:8765/r/Ab3_x9"),
        ("wss://example.org/parlour/ws", "https://example.org/parlour/r/Ab3_x9"),
    ],
)
def test_a_rooms_browser_link_is_on_the_same_server(url: str, link: str) -> None:
    assert room_link(url, "Ab3_x9") == link


@pytest.mark.parametrize("typed", ["ftp://example.org", "ws://", "example.org:99999"])
def test_bad_server_addresses_are_refused(typed: str) -> None:
    with pytest.raises(ConnectError):
        server_url(typed)


async def test_nobody_listening_is_a_connect_error(url: str) -> None:
    closed = url.rsplit(":", 1)[0] + ":1/ws"
    with pytest.raises(ConnectError, match="cannot connect"):
        await Connection.open(closed, "ann")


async def test_requests_get_their_answers_and_errors(url: str) -> None:
    connection = await Connection.open(url, "ann")
    try:
        assert connection.welcome is not None
        assert {game["name"] for game in connection.welcome.games} >= {"tribolo", "oubliette"}
        joined = await connection.request(m.CreateRoom(game="othello", seat="black"))
        assert isinstance(joined, m.Joined)
        assert joined.seat == "black"
        with pytest.raises(RefusedError) as refused:
            await connection.request(m.Join(room="no-such-room-at-all"))
        assert refused.value.code == "no_such_room"
    finally:
        await connection.close()


async def test_the_servers_own_messages_are_events(url: str) -> None:
    ann = await Connection.open(url, "ann")
    bob = await Connection.open(url, "bob")
    try:
        joined = await ann.request(m.CreateRoom(game="othello", seat="black"))
        assert isinstance(joined, m.Joined)
        room = joined.room["room"]
        await bob.request(m.Join(room=room, seat="white"))
        await ann.request(m.Start(room=room))
        await ann.request(m.Move(room=room, version=0, move="d3"))
        update = await next_of(bob, m.Update)
        assert isinstance(update, m.Update)
        assert (update.seat, update.move, update.version) == ("black", "d3", 1)
    finally:
        await ann.close()
        await bob.close()


async def test_a_dropped_connection_comes_back_and_takes_its_seat_again(url: str) -> None:
    connection = await Connection.open(url, "ann", retry_delays=FAST_RETRY)
    try:
        joined = await connection.request(m.CreateRoom(game="tribolo", seat="red"))
        assert isinstance(joined, m.Joined)
        websocket = connection._websocket
        assert websocket is not None
        websocket.transport.abort()
        dropped = await next_of(connection, Dropped)
        assert isinstance(dropped, Dropped)
        assert isinstance(await next_of(connection, Reconnected), Reconnected)
        again = await connection.request(m.Join(room=joined.room["room"], token=joined.token))
        assert isinstance(again, m.Joined)
        assert again.seat == "red"
        assert again.host
    finally:
        await connection.close()


async def test_a_request_while_disconnected_is_connection_lost(url: str) -> None:
    connection = await Connection.open(url, "ann", retry_delays=(5.0,))
    try:
        websocket = connection._websocket
        assert websocket is not None
        websocket.transport.abort()
        await next_of(connection, Dropped)
        with pytest.raises(ConnectionLostError):
            await connection.request(m.ListRooms())
    finally:
        await connection.close()


async def test_an_invitation_names_the_address_other_machines_reach_the_server_by(
    url: str,
) -> None:
    alone = await Connection.open(url, "ann")
    try:
        words = invitation(alone, "Ab3_x9")
        assert f"join Ab3_x9 --server {url.split('//')[1].removesuffix('/ws')}" in words
        assert "Only this machine reaches this server" in words
    finally:
        await alone.close()
    config = ServerConfig(host="127.0.0.1", port=0, advertise=("friend.example:9000",))
    async with running_server(config) as told:
        shared = await Connection.open(addresses("127.0.0.1", told.port)[0], "ann")
        try:
            assert shared.welcome is not None
            assert shared.welcome.addresses == ["friend.example:9000"]
            words = invitation(shared, "Ab3_x9")
        finally:
            await shared.close()
    assert "join Ab3_x9 --server friend.example:9000\n" in words
    assert words.endswith("http://friend.example:9000/r/Ab3_x9")
