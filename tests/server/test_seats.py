"""Seats over real sockets: dropping and coming back, stand-ins, and spectators."""

import asyncio

from parlour.protocol import messages as m
from parlour.server import ParlourServer

from .wsclient import Client


async def tribolo_room(
    server: ParlourServer, standin_after: int = 60
) -> tuple[str, list[Client], list[str]]:
    """Board 7 with Ann blue (host), Bob red and Cy green, started: red moves first.

    Returns the room, the clients and their seat tokens.
    """
    clients = [await Client.open(server.port, name) for name in ("Ann", "Bob", "Cy")]
    ann, bob, cy = clients
    joined = await ann.request(
        m.CreateRoom(
            game="tribolo", board=7, seat="blue", standin_after=standin_after, bot_think_ms=200
        )
    )
    assert isinstance(joined, m.Joined)
    room = joined.room["room"]
    tokens = [joined.token]
    for client, colour in ((bob, "red"), (cy, "green")):
        seated = await client.request(m.Join(room=room, seat=colour))
        assert isinstance(seated, m.Joined)
        tokens.append(seated.token)
    assert isinstance(await ann.request(m.Start(room=room)), m.Ok)
    return room, clients, tokens


async def test_a_dropped_player_keeps_the_seat_and_the_room_waits(
    server: ParlourServer,
) -> None:
    room, (ann, bob, cy), _ = await tribolo_room(server)
    second = await cy.request(m.Join(room=room, seat="red"))
    assert isinstance(second, m.Error) and second.code == "seat_taken"
    await cy.close()
    assert isinstance(await bob.request(m.Move(room=room, version=0, move="e3")), m.Ok)
    # Green, gone, is to move: the room waits for it.
    view = await ann.request(m.GetRoom(room=room))
    assert isinstance(view, m.RoomView)
    assert view.room["seats"][2]["holder"] == {"kind": "human", "name": "Cy", "connected": False}
    assert view.room["version"] == 1 and view.room["state"]["to_move"] == "green"
    await ann.close()
    await bob.close()


async def test_reconnecting_with_the_seat_token_restores_the_full_view(
    server: ParlourServer,
) -> None:
    ann = await Client.open(server.port, "Ann")
    bob = await Client.open(server.port, "Bob")
    joined = await ann.request(m.CreateRoom(game="tribolo", board=7, seat="blue"))
    assert isinstance(joined, m.Joined)
    room = joined.room["room"]
    bob_seat = await bob.request(m.Join(room=room, seat="red"))
    assert isinstance(bob_seat, m.Joined)
    assert isinstance(await ann.request(m.FillBots(room=room, level="easy")), m.Ok)
    assert isinstance(await ann.request(m.Start(room=room)), m.Ok)
    assert isinstance(await bob.request(m.Move(room=room, version=0, move="e3")), m.Ok)
    await bob.close()
    # While Bob is away, the green bot moves and Ann moves: Bob misses two updates.
    await ann.update(2)
    legal = await ann.request(m.GetRoom(room=room))
    assert isinstance(legal, m.RoomView) and legal.room["state"]["to_move"] == "blue"
    move = legal.room["state"]["legal_moves"][0]
    assert isinstance(await ann.request(m.Move(room=room, version=2, move=move)), m.Ok)
    await ann.update(3)

    intruder = await Client.open(server.port, "Mallory", "parlour.v1.json")
    wrong = await intruder.request(m.Join(room=room, token="A" * 22))
    assert isinstance(wrong, m.Error) and wrong.code == "bad_token"
    unchanged = await ann.request(m.GetRoom(room=room))
    assert isinstance(unchanged, m.RoomView)
    assert unchanged.room["seats"][1]["holder"]["connected"] is False

    back = await Client.open(server.port, "Bob", "parlour.v1.json")
    again = await back.request(m.Join(room=room, token=bob_seat.token))
    assert isinstance(again, m.Joined) and again.seat == "red" and again.token == bob_seat.token
    assert again.room["version"] == 3 and again.room["moves"] == unchanged.room["moves"]
    assert again.room["state"] == unchanged.room["state"]
    assert again.room["moves"][0] == "e3" and again.room["moves"][2] == move
    assert again.room["state"]["to_move"] == "red"
    assert again.room["seats"][1]["holder"] == {"kind": "human", "name": "Bob", "connected": True}
    move = again.room["state"]["legal_moves"][0]
    assert isinstance(await back.request(m.Move(room=room, version=3, move=move)), m.Ok)
    assert (await ann.update(4)).move == move
    for client in (ann, intruder, back):
        await client.close()


async def test_a_stand_in_plays_for_an_absent_person_until_they_return(
    server: ParlourServer,
) -> None:
    room, (ann, bob, cy), tokens = await tribolo_room(server, standin_after=1)
    await bob.close()
    # Red is to move and away: after a second a stand-in moves for Bob.
    update = await ann.update(1)
    assert update.seat == "red"
    view = await ann.expect(
        lambda msg: (
            isinstance(msg, m.RoomView) and msg.room["seats"][1]["holder"]["kind"] == "standin"
        )
    )
    assert isinstance(view, m.RoomView)
    standin = {"kind": "standin", "name": "Bob", "level": "medium"}
    assert view.room["seats"][1]["holder"] == standin, "no computer seats: the default level"
    back = await Client.open(server.port, "Bob")
    again = await back.request(m.Join(room=room, token=tokens[1]))
    assert isinstance(again, m.Joined) and again.seat == "red"
    assert again.room["seats"][1]["holder"] == {"kind": "human", "name": "Bob", "connected": True}
    for client in (ann, cy, back):
        await client.close()


async def test_a_spectator_sees_every_move_and_can_move_nothing(server: ParlourServer) -> None:
    room, (ann, bob, cy), _ = await tribolo_room(server)
    eve = await Client.open(server.port, "Eve", "parlour.v1.json")
    watching = await eve.request(m.Spectate(room=room))
    assert isinstance(watching, m.Watching) and watching.room["you"] is None
    assert watching.room["state"]["legal_moves"] == ["a2", "e3", "n3", "c4", "k4", "m5", "n7"]
    for request in (
        m.Move(room=room, version=0, move="e3"),
        m.Hint(room=room, kind="possible"),
    ):
        refused = await eve.request(request)
        assert isinstance(refused, m.Error) and refused.code == "not_seated"
    refused = await eve.request(m.Start(room=room))
    assert isinstance(refused, m.Error) and refused.code == "not_host"
    assert isinstance(await bob.request(m.Move(room=room, version=0, move="e3")), m.Ok)
    seen, told = await asyncio.gather(eve.update(1), bob.update(1))
    assert (seen.seat, seen.move, seen.version) == ("red", "e3", 1)
    assert seen.state["flipped"] == told.state["flipped"] == ["f3"]
    for client in (ann, bob, cy, eve):
        await client.close()


async def test_a_seat_taken_back_while_its_bot_thinks_stops_the_search(
    server: ParlourServer,
) -> None:
    ann = await Client.open(server.port, "Ann")
    joined = await ann.request(
        m.CreateRoom(game="tribolo", board=7, seat="blue", bot_think_ms=700)
    )
    assert isinstance(joined, m.Joined)
    room = joined.room["room"]
    await ann.request(m.FillBots(room=room, level="expert"))
    await ann.request(m.Start(room=room))
    waiting = server.metrics.bot_turns_waiting
    async with asyncio.timeout(5):
        while waiting._value.get() < 1:  # red's bot is searching
            await asyncio.sleep(0.02)
    assert isinstance(await ann.request(m.SetSeat(room=room, seat="red", holder="human")), m.Ok)
    notice = await ann.expect(lambda message: isinstance(message, m.SeatSet))
    assert isinstance(notice, m.SeatSet) and notice.seat == "red" and notice.after == 0
    await asyncio.sleep(0.05)
    assert waiting._value.get() == 0
    # Past the search's own deadline no bot move has come; red is Ann's to play.
    await asyncio.sleep(1.0)
    assert not [message for message in ann.inbox if isinstance(message, m.Update)]
    assert isinstance(await ann.request(m.Move(room=room, version=0, move="e3")), m.Ok)
    update = await ann.update(1)
    assert update.seat == "red" and update.move == "e3"
    # Handed back at another level, green's bot and then red's play on.
    await ann.request(m.SetSeat(room=room, seat="red", holder="bot", level="easy"))
    second = await ann.update(2)
    assert second.seat == "green"
    await ann.close()
