"""Three nodes on one Redis: people on different nodes share rooms, codes and the lobby."""

import asyncio
from typing import Any

from parlour.protocol import messages as m

from ..server.wsclient import Client
from .conftest import StartNode, start_nodes
from .proxy import TcpProxy

GAME_TIMEOUT = 120.0
SMALL_TRIBOLO: dict[str, int | str] = {"rows": 6, "cols": 6, "blocked": 2, "tiles": 2}
"""On board 2, a game of 28 moves when each seat plays its first legal move."""
PING = 1.0
"""The edge node's ping interval, seconds: how soon it knows a connection's lag."""
ONE_WAY = 0.3
"""Seconds each byte takes between Bob and his node."""


async def room_of(client: Client, ref: str) -> dict[str, Any]:
    answer = await client.request(m.GetRoom(room=ref))
    assert isinstance(answer, m.RoomView), answer
    return answer.room


def updates(client: Client) -> list[tuple[int, str, str]]:
    """Every update the client was sent so far, as (version, seat, move)."""
    seen = [(u.version, u.seat, u.move) for u in client.inbox if isinstance(u, m.Update)]
    client.inbox = [message for message in client.inbox if not isinstance(message, m.Update)]
    return seen


async def play_to_the_end(players: dict[str, Client], ref: str) -> dict[str, Any]:
    """Each person plays the first legal move whenever it is their seat's turn."""
    async with asyncio.timeout(GAME_TIMEOUT):
        while True:
            for colour, client in players.items():
                room = await room_of(client, ref)
                if room["status"] == "finished":
                    return room
                state = room["state"]
                if state["to_move"] == colour:
                    move = m.Move(room=ref, version=room["version"], move=state["legal_moves"][0])
                    answer = await client.request(move)
                    assert isinstance(answer, m.Ok | m.Error), answer
                    if isinstance(answer, m.Error):
                        assert answer.code == "stale_version", answer


async def test_three_people_on_three_nodes_play_one_tribolo_game(start: StartNode) -> None:
    nodes = await start_nodes(start, 3)
    blue = await Client.open(nodes[0].port, "Ann")
    create = m.CreateRoom(game="tribolo", seat="blue", board=2, options=SMALL_TRIBOLO)
    joined = await blue.request(create)
    assert isinstance(joined, m.Joined), joined
    ref = joined.room["room"]
    red = await Client.open(nodes[1].port, "Bob")
    green = await Client.open(nodes[2].port, "Cy")
    for client, colour in ((red, "red"), (green, "green")):
        taken = await client.request(m.Join(room=ref, seat=colour))
        assert isinstance(taken, m.Joined) and taken.seat == colour, taken
    assert isinstance(await blue.request(m.Start(room=ref)), m.Ok)
    players = {"blue": blue, "red": red, "green": green}
    final = await play_to_the_end(players, ref)

    assert final["state"]["over"]
    assert final["version"] == len(final["moves"])
    for client in players.values():
        client.inbox.append(await client.update(final["version"]))
    seen = {colour: updates(client) for colour, client in players.items()}
    for colour, told in seen.items():
        assert [move for _, _, move in told] == final["moves"], colour
        assert [version for version, _, _ in told] == list(range(1, len(final["moves"]) + 1))
    assert seen["blue"] == seen["red"] == seen["green"]


async def test_a_private_room_is_joined_by_its_code_through_another_node(
    start: StartNode,
) -> None:
    first, second = await start_nodes(start, 2)
    host = await Client.open(first.port, "Ann")
    joined = await host.request(m.CreateRoom(game="othello", seat="black", public=False))
    assert isinstance(joined, m.Joined) and joined.code is not None
    guest = await Client.open(second.port, "Bob")
    by_id = await guest.request(m.Join(room=joined.room["room"]))
    assert isinstance(by_id, m.Error) and by_id.code == "no_such_room"
    taken = await guest.request(m.Join(room=joined.code))
    assert isinstance(taken, m.Joined) and taken.seat == "white", taken
    assert isinstance(await host.request(m.Start(room=joined.code)), m.Ok)
    room = await room_of(guest, joined.code)
    move = m.Move(room=joined.code, version=room["version"], move=room["state"]["legal_moves"][0])
    assert isinstance(await host.request(move), m.Ok)
    update = await guest.update(1)
    assert update.move == room["state"]["legal_moves"][0]
    wrong = await guest.request(m.Join(room="x" * 22))
    assert isinstance(wrong, m.Error) and wrong.code == "no_such_room"


async def test_every_node_lists_every_public_room(start: StartNode) -> None:
    nodes = await start_nodes(start, 3)
    hosts = [await Client.open(node.port, f"host{index}") for index, node in enumerate(nodes)]
    made = []
    for host, game in zip(hosts, ("tribolo", "numlo", "oubliette"), strict=True):
        joined = await host.request(m.CreateRoom(game=game, seat=None))
        assert isinstance(joined, m.Joined)
        made.append(joined.room["room"])
    hidden = await hosts[0].request(m.CreateRoom(game="othello", public=False))
    assert isinstance(hidden, m.Joined)
    listings = []
    for host in hosts:
        listed = await host.request(m.ListRooms())
        assert isinstance(listed, m.Rooms)
        listings.append(listed.rooms)
    assert sorted(room["room"] for room in listings[0]) == sorted(made)
    assert listings[0] == listings[1] == listings[2]
    taken = await hosts[2].request(m.Join(room=made[0], seat="red"))
    assert isinstance(taken, m.Joined)
    listed = await hosts[1].request(m.ListRooms())
    assert isinstance(listed, m.Rooms)
    tribolo = next(room for room in listed.rooms if room["room"] == made[0])
    red = next(seat for seat in tribolo["seats"] if seat["colour"] == "red")
    assert red["holder"] == {"kind": "human", "name": "host2", "connected": True}


async def test_a_move_through_another_node_has_its_network_lag_forgiven(start: StartNode) -> None:
    owner, edge = await asyncio.gather(start(), start("--ping-interval", str(PING)))
    far = TcpProxy("127.0.0.1", edge.port, delay=ONE_WAY)  # Bob is a long way off
    await far.start()
    ann = await Client.open(owner.port, "Ann")
    live = {"kind": "live", "base_s": 60, "increment_s": 0}
    made = await ann.request(
        m.CreateRoom(game="othello", board=1, seat="black", time_control=live)
    )
    assert isinstance(made, m.Joined)
    ref = made.room["room"]
    bob = await Client.open(far.port, "Bob")
    came = asyncio.get_running_loop().time()
    assert isinstance(await bob.request(m.Join(room=ref, seat="white")), m.Joined)
    while asyncio.get_running_loop().time() - came < 2 * PING:
        await room_of(bob, ref)  # Bob looks at the board while the edge pings him
    assert isinstance(await ann.request(m.Start(room=ref)), m.Ok)
    first = (await room_of(ann, ref))["state"]["legal_moves"][0]
    assert isinstance(await ann.request(m.Move(room=ref, version=0, move=first)), m.Ok)
    turn = await bob.update(1)
    assert turn.clock is not None and turn.clock["running"] == "white"
    reply = turn.state["legal_moves"][0]
    assert isinstance(await bob.request(m.Move(room=ref, version=1, move=reply)), m.Ok)
    moved = await bob.update(2)
    assert moved.clock is not None
    charged = 60_000 - moved.clock["left_ms"]["white"]
    # The turn took at least the two ways through the proxy; the lag the edge measured
    # (half a ping's round trip) is forgiven by the room's owner on the other node.
    assert 0 <= charged < 2 * ONE_WAY * 1000, f"white was charged {charged} ms"
    await ann.close()
    await bob.close()
    await far.close()
