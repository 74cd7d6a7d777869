"""Codes, guesses and rooms nobody is in, across the nodes of a cluster on a real Redis: a
private room's code typed any way through another node, a code from before codes were
short taken over from Redis, the guessing limit at the node a guesser is on, and an
abandoned public room leaving the cluster's lobby while it waits for its people."""

import asyncio
import json
import time
from typing import Any

from redis.asyncio import Redis

from parlour.protocol import messages as m
from parlour.server import Limits, ServerConfig, running_server
from parlour.server.cluster.records import NEW_ROOM, RedisRecords, RoomWrite
from parlour.server.lobby import Lobby
from parlour.server.records import room_record
from parlour.server.store import MEMORY, Store

from ..server.wsclient import Client
from .conftest import StartNode, start_nodes
from .processes import RedisProcess

OLD_CODE = "q3VhZpXoLw0Yt9uR2sBn4A"


async def listed(client: Client) -> dict[str, dict[str, Any]]:
    rooms = await client.request(m.ListRooms())
    assert isinstance(rooms, m.Rooms), rooms
    return {str(room["room"]): room for room in rooms.rooms}


async def test_a_code_typed_any_way_finds_its_room_through_another_node(
    start: StartNode,
) -> None:
    first, second = await start_nodes(start, 2)
    host = await Client.open(first.port, "Ann")
    made = await host.request(m.CreateRoom(game="othello", seat="black", public=False))
    assert isinstance(made, m.Joined) and made.code is not None
    code = made.code
    assert len(code) == 14 and code == code.upper() and code.count("-") == 2
    guest = await Client.open(second.port, "Bob")
    joined = await guest.request(m.Join(room=f" {code.replace('-', ' ').lower()} "))
    assert isinstance(joined, m.Joined) and joined.seat == "white", joined
    assert joined.code is None
    watcher = await Client.open(second.port, "Cy")
    watching = await watcher.request(m.Spectate(room=code.replace("-", "")))
    assert isinstance(watching, m.Watching)
    looked = await guest.request(m.GetRoom(room=code.lower()))
    assert isinstance(looked, m.RoomView) and looked.room["room"] == made.room["room"]
    for client in (host, guest, watcher):
        await client.close()


async def test_a_room_with_a_code_from_before_is_taken_over_and_found_by_it(
    start: StartNode, redis_server: RedisProcess
) -> None:
    lobby = Lobby(clock=time.monotonic, archive=Store(MEMORY))
    lobby.handle(1, m.Hello(version=1, name="Ann"))
    (answer,) = lobby.handle(1, m.CreateRoom(game="othello", seat="black", public=False))
    made = answer[1]
    assert isinstance(made, m.Joined)
    room = lobby.rooms[made.room["room"]]
    record = json.dumps(room_record(room) | {"code": OLD_CODE})
    redis = Redis.from_url(redis_server.url)
    try:
        records = RedisRecords(redis, lease_ms=200)
        gone = await records.join_cluster()
        write = RoomWrite(room.id, NEW_ROOM, record, None, OLD_CODE)
        assert await records.write(gone, [write]) == {room.id: 1}
    finally:
        await redis.aclose()
    await asyncio.sleep(0.3)  # the node that wrote it is gone: its lease runs out
    node = await start()
    back = await Client.open(node.port, "Ann")
    again = await back.request(m.Join(room=OLD_CODE, token=made.token))
    assert isinstance(again, m.Joined) and again.seat == "black" and again.code == OLD_CODE
    other = await Client.open(node.port, "Bob")
    wrong = await other.request(m.Spectate(room=OLD_CODE.lower()))
    assert isinstance(wrong, m.Error) and wrong.code == "no_such_room"
    for client in (back, other):
        await client.close()


async def test_an_address_past_the_guessing_limit_is_refused_every_code_it_is_not_in(
    start: StartNode,
) -> None:
    first, second = await start_nodes(start, 2)
    host = await Client.open(first.port, "Ann")
    made = await host.request(m.CreateRoom(game="othello", seat="black", public=False))
    assert isinstance(made, m.Joined) and made.code is not None
    public = await host.request(m.CreateRoom(game="numlo", seat=None))
    assert isinstance(public, m.Joined)
    # People behind a balancer on loopback, which names them in X-Forwarded-For.
    guesser = await Client.open(second.port, "Eve", headers={"X-Forwarded-For": "203.0.113.9"})
    for number in range(20):
        missed = await guesser.request(m.Spectate(room=f"AAAA-AAAA-{number:04d}"))
        assert isinstance(missed, m.Error) and missed.code == "no_such_room", missed
    refused = await guesser.request(m.Join(room=made.code))
    assert isinstance(refused, m.Error) and refused.code == "too_many_guesses"
    same = await Client.open(second.port, "Mal", headers={"X-Forwarded-For": "203.0.113.9"})
    refused = await same.request(m.Spectate(room=made.code.lower()))
    assert isinstance(refused, m.Error) and refused.code == "too_many_guesses"
    by_id = await same.request(m.Spectate(room=public.room["room"]))
    assert isinstance(by_id, m.Watching), "a public room by its id is no guess"
    friend = await Client.open(second.port, "Bob", headers={"X-Forwarded-For": "192.0.2.1"})
    joined = await friend.request(m.Join(room=made.code.lower()))
    assert isinstance(joined, m.Joined) and joined.seat == "white"
    for client in (host, guesser, same, friend):
        await client.close()


async def test_an_abandoned_public_room_leaves_the_cluster_lobby_and_waits_for_its_people(
    start: StartNode, redis_server: RedisProcess
) -> None:
    limits = Limits(unlist_after=0.5, idle_close=120.0)
    config = ServerConfig(
        redis_url=redis_server.url,
        tick_interval=0.05,
        bot_workers=1,
        bot_pause=0.0,
        limits=limits,
    )
    async with running_server(config) as owner:
        other = await start()
        host = await Client.open(owner.port, "Ann")
        made = await host.request(m.CreateRoom(game="tribolo", seat=None, board=7))
        assert isinstance(made, m.Joined)
        room = str(made.room["room"])
        assert isinstance(await host.request(m.FillBots(room=room)), m.Ok)
        lister = await Client.open(other.port, "Lou")
        watcher = await Client.open(other.port, "Cy")
        assert isinstance(await watcher.request(m.Spectate(room=room)), m.Watching)
        summary = (await listed(lister))[room]
        assert summary["people"] == 2, "the host here and a watcher on the other node"
        assert abs(summary["moved_at"] - time.time()) < 10
        assert isinstance(await host.request(m.Start(room=room)), m.Ok)
        await watcher.update(2)
        moved = (await listed(lister))[room]["moved_at"]
        assert moved >= summary["moved_at"]
        await host.close()
        await watcher.close()
        async with asyncio.timeout(15):
            while room in await listed(lister):
                await asyncio.sleep(0.1)
        held = owner.lobby.rooms[room]
        assert held.dormant and held.status.value == "playing"
        stopped = held.version
        await asyncio.sleep(0.5)
        assert held.version == stopped, "nobody is in the room: its bots wait"
        back = await Client.open(other.port, "Ann")
        again = await back.request(m.Join(room=room, token=made.token))
        assert isinstance(again, m.Joined) and again.host
        async with asyncio.timeout(15):
            while room not in await listed(lister):
                await asyncio.sleep(0.1)
        assert (await listed(lister))[room]["people"] == 1
        await back.update(stopped + 1)
        for client in (back, lister):
            await client.close()
